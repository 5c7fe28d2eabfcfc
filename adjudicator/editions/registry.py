"""The edition registry: every Axis & Allies edition the engine can run, like
python-chess's variants or godip's.

An :class:`Edition` names its data folder (``maps/<data>/``: map, setup, units with their
abilities, and in ``game.toml`` its turn steps, battle kinds and stages, income items,
order kinds, victory conditions and options) and the plug-in modules it needs beyond the
built-in ones (abilities or steps of its own).  ``prepare`` checks a loaded game against
the engine's registries and fills in every ability's parameters, so a game that loads
runs."""

from __future__ import annotations

import importlib

import attrs

from ..model.errors import DataError
from ..model.game import Game
from ..model import orders
from ..model.orders import Order


@attrs.frozen
class Edition:
    name: str                       # the ruleset name players use: "aa1941"
    title: str
    data: str                       # folder under maps/ (or a path, for editions outside it)
    plugins: tuple[str, ...] = ()   # modules that register abilities/steps it needs

    def load_plugins(self) -> None:
        for module in self.plugins:
            importlib.import_module(module)


_EDITIONS: dict[str, Edition] = {}


def register(edition: Edition) -> Edition:
    _EDITIONS[edition.name] = edition
    return edition


def unregister(name: str) -> None:
    """Forget an edition (tests register made-up editions for a while)."""
    _EDITIONS.pop(name, None)


def get(name: str) -> Edition:
    try:
        return _EDITIONS[name]
    except KeyError:
        raise DataError(f"unknown ruleset '{name}' (known: {', '.join(names()) or 'none'})") from None


def names() -> list[str]:
    return sorted(_EDITIONS)


def order_kinds() -> set[str]:
    """Every order kind the model defines (every module of order classes imported)."""
    orders.load_all()
    found, stack = set(), list(Order.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        found.add(cls.kind)
    return found


def prepare(game: Game, edition: Edition | None = None) -> Game:
    """``game`` with every ability's parameters checked and filled in, after checking
    that the engine knows every ability, step, battle stage, income item, order kind and
    condition the data names.  Raises one ``DataError`` listing every problem."""
    # The engine is imported here, not with the registry, so that naming the editions
    # (``pbem --help``) does not load it.
    from ..engine import abilities, income, raids, turn_rules
    from ..engine.battles import BATTLE_KINDS
    from ..engine.combat import stepbase
    from ..engine.conditions import check_condition
    from ..engine.steps import STEPS
    if edition is not None:
        edition.load_plugins()
    problems: list[str] = []
    units = {}
    for key, ut in game.ruleset.units.items():
        params = {}
        for name in sorted(ut.abilities):
            values, found = abilities.normalise_params(name, ut.params.get(name))
            problems += [f"units.toml: unit '{key}': {p}" for p in found]
            params[name] = values
        technologies = {}
        for tech, changes in ut.technologies.items():
            raised = {}
            for name, raw in changes.get("abilities", {}).items():
                values, found = abilities.normalise_params(name, raw)
                problems += [f"units.toml: unit '{key}': technology '{tech}': {p}" for p in found]
                raised[name] = values
            technologies[tech] = {**changes, "abilities": raised} if raised else dict(changes)
        ut = attrs.evolve(ut, params=params, technologies=technologies)
        if not any(p.startswith(f"units.toml: unit '{key}'") for p in problems):
            problems += [f"units.toml: unit '{key}': {p}" for p in abilities.check_unit(ut)]
        units[key] = ut
    plan = game.ruleset.plan
    problems += [f"game.toml: [turn] steps: unknown step '{s}' (known: {', '.join(sorted(STEPS))})"
                 for s in plan.steps + plan.round_end + plan.pregame if s not in STEPS]
    known_steps = stepbase.known_steps()
    problems += [f"game.toml: [turn] battle_stages: unknown battle step '{s}' "
                 f"(known: {', '.join(known_steps)})"
                 for stage in plan.battle_stages for s in stage if s not in known_steps]
    problems += [f"game.toml: [turn] battle_kinds: unknown kind '{k}' (known: {', '.join(BATTLE_KINDS)})"
                 for k in plan.battle_kinds if k not in BATTLE_KINDS]
    known_rules = turn_rules.known_rules()
    problems += [f"game.toml: [turn] rules: unknown rule '{r}' (known: {', '.join(known_rules) or 'none'})"
                 for r in plan.rules if r not in known_rules]
    if plan.raid not in raids.RAID_EFFECTS:
        problems.append(f"game.toml: [turn] raid: unknown raid effect '{plan.raid}' "
                        f"(known: {', '.join(sorted(raids.RAID_EFFECTS))})")
    problems += [f"game.toml: [turn] income: unknown item '{i}' (known: {', '.join(sorted(income.ITEMS))})"
                 for i in plan.income if i not in income.ITEMS]
    kinds = order_kinds()
    problems += [f"game.toml: [turn] orders: unknown order kind '{k}' (known: {', '.join(sorted(kinds))})"
                 for k in plan.order_kinds if k not in kinds]
    for i, rule in enumerate(game.ruleset.victory):
        for part, cond in (("condition", rule.condition), ("held", rule.held)):
            if cond is None:
                continue
            where = f"game.toml: victory[{i}].{part}"
            found = check_condition(cond, where)
            problems += found
            if not found:
                problems += _unknown_territories(game, cond, where)
    for objective in game.ruleset.objectives:
        where = f"game.toml: objective '{objective.name}'.condition"
        found = check_condition(objective.condition, where)
        problems += found
        if not found:
            problems += _unknown_territories(game, objective.condition, where)
    if problems:
        raise DataError(f"{len(problems)} problem(s) in game data {game.source_dir}:\n"
                        + "\n".join(f"  - {p}" for p in problems))
    ruleset = attrs.evolve(game.ruleset, units=units)
    return attrs.evolve(game, ruleset=ruleset, edition=edition.name if edition else game.edition,
                        income_projector=projected_income)


def projected_income(game: Game, owners, power: str, extras=None) -> int:
    """``engine.income.projected_income``, imported on first use: a game read back from
    the cache (``io.gamecache``) for a command that shows no income (``pbem odds``) does
    not load the turn engine's income and what it imports."""
    from ..engine.income import projected_income as project
    return project(game, owners, power, extras)


def _unknown_territories(game: Game, cond, where: str) -> list[str]:
    from ..engine.conditions import territory_set
    out = []
    for key in ("controls", "units", "attacked"):
        spec = cond.get(key)
        if spec is None:
            continue
        if isinstance(spec, (list, tuple)):
            out += [f"{where}: unknown territory '{t}'" for t in spec if t not in game.map.territories]
        elif not territory_set(game, spec):
            out.append(f"{where}: no territory has the tag '{spec}'")
    for key in ("all", "any"):
        for c in cond.get(key, ()):
            out += _unknown_territories(game, c, where)
    if "not" in cond:
        out += _unknown_territories(game, cond["not"], where)
    return out
