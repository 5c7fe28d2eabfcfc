"""Reading what a player types into ``pbem odds``: unit lists ("3 inf, 1 tank",
"1 cv (2 ftr)", "1 trn (2 inf)"), a retreat condition and loss orders.  They are read by
the orders parser, and every error speaks of the text the player typed, with its column
-- never of an order line they did not write."""

from __future__ import annotations

import re

from ..engine.combat import BattleUnit
from ..model.errors import OrdersSyntaxError, PbemError
from ..model.orders import RetreatCondition, UnitGroup
from ..model.rules import Domain
from ..model.state import Unit

_EXAMPLE_SUFFIX = re.compile(r" \(example: '.*'\)$")


def user_text_error(what: str, text: str, err: OrdersSyntaxError, offset: int = 0,
                    example: str = "") -> PbemError:
    """``err`` (positions in a line that had ``offset`` characters before ``text``) as a
    message about ``text`` itself: ``--retreat 'whenever', column 1: ...`` and a caret."""
    if not text.strip():
        return PbemError(f"{what}: nothing given" + (f" (e.g. {example})" if example else ""))
    parts = []
    for e in getattr(err, "errors", None) or [err]:
        message = _EXAMPLE_SUFFIX.sub("", e.args[0])
        column = max(1, min(e.column - offset, len(text) + 1))
        hint = f" (did you mean '{e.suggestion}'?)" if e.suggestion else ""
        parts.append(f"{what} '{text}', column {column}: {message}{hint}\n"
                     f"    {text}\n    {' ' * (column - 1)}^")
    if example:
        parts.append(f"(e.g. {example})")
    return PbemError("\n".join(parts))


def unit_groups(game, text: str, what: str) -> tuple[UnitGroup, ...]:
    from ..io.unit_list import plain_unit_groups
    plain = plain_unit_groups(text, game)        # "3 inf, 1 tank": no grammar needed
    if plain is not None:
        return plain
    from ..io.parser import parse_units
    try:
        return parse_units(text, game)
    except OrdersSyntaxError as err:
        raise user_text_error(what, text, err, example='"3 inf, 1 tank" or "1 cv (2 ftr), 1 dd"') \
            from None


def _cargo_problem(carrier, cargo: tuple[UnitGroup, ...], types) -> str | None:
    rule = carrier.cargo
    if rule is None:
        return f"{carrier.display_plural} carry nothing"
    for group in cargo:
        t = types[group.type]
        if t.domain != rule.domain or group.type in rule.except_types or \
                (rule.only_types and group.type not in rule.only_types):
            return f"{carrier.display_plural} cannot carry {t.display_plural}"
    why = rule.problem([types[g.type] for g in cargo for _ in range(g.count)])
    if why == "slots":
        return f"one {carrier.name} carries at most {rule.slots} units"
    if why == "large":
        return f"one {carrier.name} carries at most {rule.large_slots} large unit(s)"
    return None


def battle_units(game, text: str, what: str, power: str, start_uid: int, *,
                 seaborne: bool = False, defending: bool = False, airborne: bool = False,
                 notes: list[str] | None = None) -> tuple[BattleUnit, ...]:
    """The units of one side.  Cargo as in orders: a defending carrier's fighters defend
    beside it; an attacking carrier's own fighters take off and sit the battle out (as
    the engine plays it: to attack, they move as fighters); land units aboard a
    transport cannot fight and are lost with it.  ``airborne``: they came by air
    (paratroopers)."""
    types = game.ruleset.units
    units: list[BattleUnit] = []
    uid = start_uid
    for group in unit_groups(game, text, what):
        carrier = types[group.type]
        if group.cargo:
            problem = _cargo_problem(carrier, group.cargo, types)
            if problem:
                raise PbemError(f"{what} '{text}': {problem}")
        for _ in range(group.count):
            riding: list[Unit] = []
            flying: list[BattleUnit] = []
            for c in group.cargo or ():
                if types[c.type].domain == Domain.AIR and defending:
                    for _ in range(c.count):
                        uid += 1
                        flying.append(BattleUnit(uid, types[c.type], power))
                elif types[c.type].domain == Domain.AIR:
                    if notes is not None and not notes:
                        notes.append("the attacker's own fighters aboard a carrier take off "
                                     "and do not fight (as in a game: move them as fighters "
                                     "to attack)")
                else:
                    riding += [Unit(c.type, power)] * c.count
            uid += 1
            units.append(BattleUnit(uid, carrier, power, tuple(riding), seaborne,
                                    airborne=airborne))
            units += flying
    return tuple(units)


def known_technologies(game) -> tuple[str, ...]:
    """Every technology an edition's units name (Global 1940's research charts' keys)."""
    from ..engine.research import chart
    found = {tech for t in game.ruleset.units.values() for tech in t.technologies}
    for number in (1, 2):
        found.update(chart(game.ruleset, number))
    return tuple(sorted(found))


def _technology_key(key: str, known: tuple[str, ...]) -> str:
    """``key`` as a known technology: itself, or the one technology whose words it starts
    word by word ("heavy_bomber", "super_subs", "jet" for "jet_fighters")."""
    if key in known:
        return key
    words = [w[:-1] if w.endswith("s") and len(w) > 3 else w for w in key.split("_")]
    found = [k for k in known if len(k.split("_")) >= len(words)
             and all(part.startswith(w) for w, part in zip(words, k.split("_")))]
    return found[0] if len(found) == 1 else key


def technologies(game, text: str | None, what: str) -> tuple[str, ...]:
    """``--attacker-tech``/``--defender-tech``: technology keys or their words, separated by
    commas or "and" ("heavy bombers, Jet-Fighters"); an unknown one is refused with the
    closest known key."""
    if not text:
        return ()
    import difflib
    known = known_technologies(game)
    if not known:
        raise PbemError(f"{what}: {game.ruleset.title} has no technologies")
    chosen: set[str] = set()
    for word in re.split(r",|\band\b", text, flags=re.IGNORECASE):
        key = re.sub(r"[\s\-]+", "_", word.strip().casefold())
        if not key:
            continue
        key = _technology_key(key, known)
        if key not in known:
            near = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            hint = f" (did you mean '{near[0]}'?)" if near else ""
            raise PbemError(f"{what} '{text}': unknown technology '{word.strip()}'{hint}; "
                            f"known: {', '.join(known)}")
        chosen.add(key)
    return tuple(sorted(chosen))


def retreat_conditions(game, text: str, space: str) -> tuple[RetreatCondition, ...]:
    """``--retreat``: "attackers < 3", "if tuv < 10", "after round 2" (``if`` optional)."""
    from ..io.parser import parse_orders
    condition = text.strip()
    added = "" if condition.casefold().startswith(("if ", "after ")) else "if "
    line = f"battle {space}: retreat {added}"
    try:
        orders = parse_orders(f"combat:\n{line}{condition}", game)
    except OrdersSyntaxError as err:
        raise user_text_error("--retreat", condition, err, len(line),
                              '"attackers < 3", "after round 2"') from None
    return orders.battles[0].retreat


def loss_order(game, text: str | None, space: str, what: str) -> tuple[str, ...]:
    """``--attacker-losses``/``--defender-losses``: unit types, first lost first."""
    if not text:
        return ()
    from ..io.parser import parse_orders
    line = f"battle {space}: losses "
    try:
        return parse_orders(f"combat:\n{line}{text.strip()}", game).battles[0].loss_order
    except OrdersSyntaxError as err:
        raise user_text_error(what, text.strip(), err, len(line), '"inf, tank, ftr"') from None
