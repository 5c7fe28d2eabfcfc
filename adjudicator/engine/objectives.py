"""National objectives (Axis & Allies Global 1940, digest §4.5 [L451-L589]): income item
``national_objectives`` and rule ``attack_history``.

Each ``[[objective]]`` of game.toml (``model.conditions.Objective``) is one line of its
power's income, named after it, paid into its economy while its condition (the condition
language, read on the board at Collect Income) holds; every objective checked is an event
(``ObjectiveMet`` or ``ObjectiveMissed``) that the report reads.  ``per_territory`` pays
the value for each territory the condition counted; ``once`` pays only the first time
(per-power state ``objectives_paid``).  Option ``national_objectives`` (default on) turns
them off.  An economy whose capital the enemy holds collects no bonus [L419-L425].  The
item depends on units and war states, so projected income (reports) leaves it out.

Rule ``attack_history`` keeps, per power, the spaces named by an objective's
``{attacked = ...}`` that it has attacked (ended a combat move in while the space was held
by, or held units of, a power it is not allied with): Japan's "has not attacked French
Indo-China" [L493] holds for the whole game."""

from __future__ import annotations

from ..model.events import ObjectiveMet, ObjectiveMissed
from .conditions import ATTACKED, holds, territory_set
from .economies import economy_capital_held
from .income import IncomeContext, item
from .turn_rules import Rule, declare_state, register_rule

PAID = declare_state("objectives_paid", list, per_power=True)
declare_state(ATTACKED, list, per_power=True)
OPTION = "national_objectives"


@item(OPTION, projected=False)
def national_objectives(inc: IncomeContext) -> list[tuple[str, str, int]]:
    """A line ``(economy, objective, amount)`` per objective of the power that is met."""
    game, ctx = inc.game, inc.ctx
    if ctx is None or not game.ruleset.option(OPTION, True):
        return []
    board = ctx.board
    paid_before = list(board.read_state(PAID, inc.power) or ())
    lines: list[tuple[str, str, int]] = []
    for objective in game.ruleset.objectives:
        if objective.power != inc.power or (objective.once and objective.name in paid_before):
            continue
        economy = objective.economy or inc.economies[0]
        ok, counted = holds(game, objective.condition, inc.power, inc.owners, 0, by_side=False,
                            state=board.extras, board=board)
        ok = ok and economy_capital_held(inc, economy)
        counted = tuple(dict.fromkeys(counted))
        amount = objective.value * (len(counted) if objective.per_territory else 1)
        if not ok or amount <= 0:
            ctx.emit(ObjectiveMissed(inc.power, economy, objective.name))
            continue
        ctx.emit(ObjectiveMet(inc.power, economy, objective.name, amount, counted))
        lines.append((economy, objective.name, amount))
        if objective.once:
            paid_before.append(objective.name)
            board.write_state(PAID, sorted(paid_before), inc.power)
    return lines


_WATCHED: dict[int, tuple[object, frozenset[str]]] = {}


def watched_spaces(game) -> frozenset[str]:
    """The spaces some objective's ``{attacked = ...}`` names (cached per ruleset)."""
    cached = _WATCHED.get(id(game.ruleset))
    if cached is not None and cached[0] is game.ruleset:
        return cached[1]
    found: set[str] = set()

    def walk(cond):
        if "attacked" in cond:
            found.update(territory_set(game, cond["attacked"]))
        for c in [*cond.get("all", ()), *cond.get("any", ())]:
            walk(c)
        if "not" in cond:
            walk(cond["not"])

    for objective in game.ruleset.objectives:
        walk(objective.condition)
    _WATCHED[id(game.ruleset)] = (game.ruleset, frozenset(found))
    return frozenset(found)


@register_rule
class AttackHistory(Rule):
    name = "attack_history"
    doc = ("Records, for the objectives that ask, which spaces a power has attacked in the "
           "game (a combat move ending where another power holds the land or has units).")

    def on_enter(self, ctx, pieces, space, path, phase):
        if phase != "combat" or space != path[-1] or space not in watched_spaces(ctx.game):
            return
        board, power = ctx.board, ctx.power
        holder = board.owners.get(space)
        hostile = (holder is not None and not board.allied(power, holder)) or any(
            not board.allied(power, p.owner) for p in board.at(space))
        if not hostile:
            return
        done = list(board.read_state(ATTACKED, power) or ())
        if space not in done:
            board.write_state(ATTACKED, sorted([*done, space]), power)
