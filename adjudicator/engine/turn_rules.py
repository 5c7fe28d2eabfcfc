"""Edition rules: plug-ins for the whole turn, not only for battles.

An edition lists the rules it plays in ``[turn] rules`` (game.toml); each is a subclass of
:class:`Rule` registered under its name here (a plug-in module outside the package may
register more).  A rule implements only the hooks it needs; the engine calls them at fixed
points of the turn.  A unit's ability (``abilities.base.Ability``) may implement the
unit-level hooks of the same names (``may_enter``, ``on_enter``, ``move_bonus``,
``on_capture``), so a rule that belongs to a unit type lives with its ability.

Hooks (``ctx`` is the ``TurnContext``; ``board`` its ``WorkingBoard``):

* ``may_enter(ctx, piece, space, path, phase)`` -> a problem code, or None: may ``piece``
  enter ``space`` (each space of a move's path after the first, in order)?
* ``on_enter(ctx, pieces, space, path, phase)``: ``pieces`` entered ``space`` (each space
  of the path after the first, after the move).
* ``move_bonus(board, piece, phase)`` -> int: added to the unit's move range.
* ``on_capture(ctx, space, new_owner, previous)``: a space (land, or a sea zone with an
  owner) changed controller.
* ``after_battle(ctx, space, outcome)``: a battle in ``space`` ended (``attacker_wins``,
  ``defender_wins``, ``retreat``, ``draw``...).
* ``placement_capacity(ctx, space, owner, origin, unit_type, base)`` -> int: how many units
  the factories in ``space`` (owned by ``owner``; ``origin`` the territory's original
  owner) can place this turn; ``unit_type`` is None for the total, else the unit placed.
* ``may_command(board, power, piece, phase)`` -> bool: may ``power`` move ``piece``, a unit
  of another owner (Europe: any Ally moves a Middle East AA gun)?  Asked only for pieces
  ``power`` does not own; any rule saying yes is enough.
* ``casualty_pool(ctx, space, side, fighting)`` -> ``[(piece, classes), ...]``: units in
  ``space`` that are not in its battle (``fighting``: the pieces that are) but that
  ``side`` (``"attacker"``/``"defender"``) may choose as casualties, for hits whose target
  class has the bits ``classes`` (``combat.board``: ``NO_AIR`` = submarine hits; 0 = any).
* ``placement_spaces(ctx, power, unit_type)`` -> ``{territory: n}``: where ``power`` may
  place new units (of ``unit_type``; None for any) with no factory, and how many (Global
  1940's China); added to the factories' capacity.
* ``at_step(ctx, point, step)``: a named trigger point, ``point`` is ``"start"`` or ``"end"``
  of the turn step ``step`` (``ctx.dice`` is the turn's dice, None when checking).
* ``next_turn(ctx, power, round)`` -> ``(power, round)``, or None: who plays after
  ``power``'s turn of ``round``, when the edition's order of play is not the data's fixed
  ``turn_order`` (Taktyczne Starcie's rolled order, kept in its state); the first rule
  answering decides, else the next power of ``turn_order``.
* ``pending_turn(ctx, dice)`` -> None, True or a ``context.Resume``: called before the
  steps of every turn.  None: a turn like any.  Otherwise the rule played this turn itself
  (a live board battle's battle turn, issue 26: a turn that paused when a step raised
  ``errors.TurnPaused`` waits in the state): True, the paused turn still waits (the rule
  sets ``ctx.next_power``); a ``Resume``, the paused turn goes on in this turn file from
  its paused step, with its power and orders.

The order of the rules is the order the data lists them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import attrs

__all__ = ["Rule", "register_rule", "known_rules", "rules_with", "HOOKS"]

HOOKS = ("may_enter", "on_enter", "move_bonus", "on_capture", "after_battle",
         "placement_capacity", "may_command", "casualty_pool", "at_step",
         "placement_spaces", "next_turn", "pending_turn")

_RULES: dict[str, "Rule"] = {}


class Rule:
    """Base class: a named edition rule implementing some of ``HOOKS``."""

    name: ClassVar[str] = ""
    doc: ClassVar[str] = ""


def register_rule(cls: type[Rule]) -> type[Rule]:
    """Class decorator: make the rule ``cls`` available under ``cls.name``."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no name")
    _RULES[cls.name] = cls()
    return cls


def known_rules() -> list[str]:
    return sorted(_RULES)


def get_rule(name: str) -> Rule:
    return _RULES[name]


def rules_with(ruleset: Any, hook: str) -> tuple[Rule, ...]:
    """The rules ``ruleset`` plays that implement ``hook``, in the data's order (cached on
    the ruleset's plan: an edition without rules pays one dictionary look-up)."""
    plan = ruleset.plan
    if not plan.rules:
        return ()
    cache = _CACHE.get(plan.rules)
    if cache is None:
        cache = _CACHE[plan.rules] = {}
    found = cache.get(hook)
    if found is None:
        found = cache[hook] = tuple(
            _RULES[n] for n in plan.rules if n in _RULES and hook in type(_RULES[n]).__dict__)
    return found


_CACHE: dict[tuple[str, ...], dict[str, tuple[Rule, ...]]] = {}


def hooked(ruleset: Any, unit_types: Any, hook: str) -> Iterator[tuple[Any, Any]]:
    """``(implementer, params)`` for ``hook``: the edition's rules (params None), then the
    abilities of each of ``unit_types`` that implement it."""
    for rule in rules_with(ruleset, hook):
        yield rule, None
    for ut in unit_types:
        yield from ability_hooks(ut, hook)


_ABILITY_HOOKS: dict[tuple, tuple] = {}


def ability_hooks(unit_type: Any, hook: str) -> list[tuple[Any, Any]]:
    """``abilities.base.hooks`` of one unit type (which abilities implement ``hook`` is
    cached by ability set: movement asks for every space of every path)."""
    key = (unit_type.abilities, hook)
    found = _ABILITY_HOOKS.get(key)
    if found is None:
        from .abilities.base import hooks
        found = _ABILITY_HOOKS[key] = tuple(a for a, _ in hooks(unit_type, hook))
    return [(a, unit_type.params.get(a.name, {})) for a in found] if found else []


def commands(board: Any, power: str, piece: Any, phase: str) -> bool:
    """Whether ``power`` may move ``piece``: its own, or another owner's that a rule's
    ``may_command`` gives it."""
    return piece.owner == power or any(rule.may_command(board, power, piece, phase)
                                       for rule in rules_with(board.rules, "may_command"))


def move_range(board: Any, piece: Any, phase: str | None = None) -> int:
    """``piece``'s movement allowance: its type's ``move`` plus every ``move_bonus`` (an
    edition's rules, the unit's abilities)."""
    ut = board.utype(piece)
    if not any_hook(board.rules, ut, "move_bonus"):
        return ut.move
    return ut.move + sum(h.move_bonus(board, piece, phase)
                         for h, _ in hooked(board.rules, (ut,), "move_bonus"))


_ANY: dict[tuple, bool] = {}


def any_hook(ruleset: Any, unit_type: Any, hook: str) -> bool:
    """Whether an edition rule or one of ``unit_type``'s abilities implements ``hook``
    (cached: the engine asks for every piece it moves)."""
    key = (ruleset.plan.rules, unit_type.abilities, hook)
    found = _ANY.get(key)
    if found is None:
        found = _ANY[key] = bool(rules_with(ruleset, hook) or ability_hooks(unit_type, hook))
    return found


# -- persistent state an edition writes ---------------------------------------------------------

_FLAGS: set[str] = set()
_STATE: dict[str, tuple[type, str]] = {}     # key -> (value type, "edition" or "power")


def declare_flag(name: str) -> str:
    """Declare a persistent per-unit mark (``WorkingBoard.set_flag``)."""
    _FLAGS.add(name)
    return name


def declare_state(key: str, kind: type, per_power: bool = False) -> str:
    """Declare a persistent value (``WorkingBoard.write_state``): its type (int, str, bool,
    list or dict of plain values) and whether it is kept per power."""
    _STATE[key] = (kind, "power" if per_power else "edition")
    return key


def declared_flag(name: str) -> None:
    if name not in _FLAGS:
        raise ValueError(f"unit flag {name!r} was not declared (turn_rules.declare_flag)")


def checked_state(key: str, value: Any, power: str | None) -> None:
    declared = _STATE.get(key)
    if declared is None:
        raise ValueError(f"state {key!r} was not declared (turn_rules.declare_state)")
    kind, scope = declared
    if (scope == "power") != (power is not None):
        raise ValueError(f"state {key!r} is kept per {scope}")
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"state {key!r} takes a {kind.__name__}, not {value!r}")


# -- standing orders of an edition's own kinds --------------------------------------------------

@attrs.frozen
class StandingKind:
    """A kind of standing order: its ``name``, the values a power may choose and the
    ``default`` that applies until the power writes one (documented in ``doc``).  A kind
    with no list of values checks each with ``check(ctx, power, value)`` -> a problem
    code and its parameters, or None (France's choice of units, any within 12 IPCs)."""

    name: str
    default: str
    values: tuple[str, ...]
    doc: str = ""
    check: Any = attrs.field(default=None, eq=False)


_STANDING: dict[str, StandingKind] = {}


def declare_standing(name: str, default: str, values: tuple[str, ...], doc: str = "",
                     check: Any = None) -> StandingKind:
    """Declare a kind of standing order with its documented default: its values, or a
    ``check`` of any value when ``values`` is empty."""
    if values and default not in values:
        raise ValueError(f"standing order {name!r}: default {default!r} is not one of {values}")
    if not values and check is None:
        raise ValueError(f"standing order {name!r}: no values and no check")
    found = _STANDING[name] = StandingKind(name, default, tuple(values), doc, check)
    return found


def standing_kinds() -> dict[str, StandingKind]:
    return dict(_STANDING)


def standing_choice(ctx: Any, power: str, name: str, space: str | None = None) -> str:
    """What ``power``'s standing order of kind ``name`` says for ``space``: the order it
    wrote (for the space, else for everywhere; the phasing power's orders of this turn
    first), else the kind's default."""
    return standing_reason(ctx, power, name, space)[0]


def standing_reason(ctx: Any, power: str, name: str,
                    space: str | None = None) -> tuple[str, str]:
    """``(value, why)``: what ``standing_choice`` says, and why, for a report of a reaction
    (issue 27, contract 5): the order's canonical text ``<name> <space|all>: <value>``, or
    ``default (<name> all: <default>)``."""
    found = None
    if power == ctx.power:
        mine = [c for c in ctx.orders.standing_choices if c.name == name]
        found = ([c for c in mine if c.space == space]
                 or [c for c in mine if c.space is None and space is not None])
        found = found[-1] if found else None
    if found is None:
        standing = ctx.standing_orders.get(power)
        found = standing.choice(name, space) if standing is not None else None
    if found is None:
        default = _STANDING[name].default
        return default, f"default ({name} all: {default})"
    return found.value, choice_text(found)


def choice_text(choice: Any) -> str:
    """A standing choice's canonical text: ``<name> <space|all>: <value>``."""
    return f"{choice.name} {'all' if choice.space is None else choice.space}: {choice.value}"


def check_standing_choices(ctx: Any) -> None:
    """Every standing order of an edition kind names a declared kind and one of its values."""
    for order in ctx.orders.standing_choices:
        kind = _STANDING.get(order.name)
        if kind is None:
            ctx.error(order.line, "standing_unknown", name=order.name)
        elif not kind.values:
            found = kind.check(ctx, ctx.power, order.value)
            if found is not None:
                ctx.error(order.line, found[0], **found[1])
        elif order.value not in kind.values:
            ctx.error(order.line, "standing_bad_value", name=order.name, value=order.value,
                      values=list(kind.values))
