"""Run rules cases (``io.rules_cases``) against the engine: build the position, check the
orders, play them with the case's dice, and compare every expectation."""

from __future__ import annotations

import shlex
from collections import Counter
from pathlib import Path

import attrs

from ..engine import OrdersRejected, adjudicate, check
from ..engine.turn_rules import checked_state
from ..io.names import Names, UnknownName
from ..io.parser import parse_orders
from ..io.paths import MAPS_DIR
from ..io.rules_cases import Case, Expectation, word_value, read_cases
from ..model.dice import FixedDice, SideDice
from ..model.errors import DataError, OrdersSyntaxError, PbemError
from ..model.events import OrderSkipped, all_event_classes
from ..model.game import Game
from ..model.orders import StandingOrders
from ..model.problems import Problem
from ..model.state import GameState, Unit
from .games import initial_state, load_game


@attrs.frozen
class CaseResult:
    case: Case
    failures: tuple[str, ...]
    problems: tuple[Problem, ...] = ()
    events: tuple = ()                  # the played turn's events (cases with dice)

    @property
    def ok(self) -> bool:
        return not self.failures


def edition_cases(edition: str) -> list[Case]:
    """The cases kept with an edition's data (``maps/<edition>/cases``)."""
    folder = MAPS_DIR / edition / "cases"
    return read_cases(folder) if folder.is_dir() else []


# ---- the position ---------------------------------------------------------------------------

def _split_space(names: Names, case: Case, line: int, text: str) -> tuple[str, str]:
    space, sep, rest = text.partition(":")
    if not sep:
        raise DataError(f"{case.file}:{line}: expected 'SPACE: ...'")
    try:
        return names.resolve_space(space.strip()), rest.strip()
    except UnknownName as exc:
        raise DataError(f"{case.file}:{line}: {exc.message}") from None


def _units(game: Game, names: Names, case: Case, line: int, space: str, text: str) -> list[Unit]:
    """"germany 2 inf, 1 trn (1 inf)" -> units (cargo of the same owner)."""
    power_word, _, groups = text.partition(" ")
    try:
        owner = _owner_key(game, names, power_word)
        orders = parse_orders(f"place {groups} {space}", _placing(game))
    except (UnknownName, OrdersSyntaxError) as exc:
        raise DataError(f"{case.file}:{line}: {exc}") from None
    out: list[Unit] = []
    for group in orders.places[0].units:
        cargo = tuple(Unit(g.type, owner) for g in group.cargo or () for _ in range(g.count))
        out += [Unit(group.type, owner, cargo)] * group.count
    return out


def _placing(game: Game) -> Game:
    """``game``, reading ``place`` lines even if its edition has no such order (Taktyczne
    Starcie places with ``recruit``): the case's unit lists are read as placements."""
    kinds = game.ruleset.plan.order_kinds
    if not kinds or "place" in kinds:
        return game
    plan = attrs.evolve(game.ruleset.plan, order_kinds=(*kinds, "place"))
    return attrs.evolve(game, ruleset=attrs.evolve(game.ruleset, plan=plan))


def _owner_key(game: Game, names: Names, word: str) -> str:
    """A power's name, or a nation that does not play (its key or name: ``strict_neutral``,
    ``Middle East``)."""
    for nation in game.ruleset.nations.values():
        if word.casefold() in (nation.key.casefold(), nation.name.casefold()):
            return nation.key
    return names.resolve_power(word)


def _aboard(game: Game, case: Case, line: int, here: list[Unit], riders: list[Unit]) -> None:
    """Put ``riders`` (another power's units) on the last unit of ``here`` that carries
    their domain."""
    for unit in riders:
        domain = game.ruleset.units[unit.type].domain
        found = [i for i, u in enumerate(here)
                 if (rule := game.ruleset.units[u.type].cargo) is not None and rule.domain == domain]
        if not found:
            raise DataError(f"{case.file}:{line}: nothing there can carry {unit.type}")
        i = found[-1]
        here[i] = here[i].with_cargo(here[i].cargo + (unit,))


def _standing(game: Game, names: Names, case: Case, line: int, text: str) -> tuple[str, StandingOrders]:
    """"germany: defend all: submerge never" -> (power, its standing orders); any standing
    order kind of the edition (e.g. "ussr: intercept all: no")."""
    who, sep, orders_text = text.partition(":")
    try:
        power = names.resolve_power(who.strip())
        parsed = parse_orders(orders_text.strip() + "\n", game, power=power)
    except (UnknownName, OrdersSyntaxError) as exc:
        raise DataError(f"{case.file}:{line}: {exc}") from None
    kept = len(parsed.defences) + len(parsed.standing_choices)
    if not sep or not kept or kept != len(parsed.items):
        raise DataError(f"{case.file}:{line}: expected 'standing POWER: defend ...'")
    return power, StandingOrders(tuple(parsed.defences), tuple(parsed.standing_choices))


def _orders_text(text: str) -> str:
    """A turn's orders; a turn with none (or only comments) is played without orders,
    which the orders language writes ``pass``."""
    if all(not line.split("#", 1)[0].strip() for line in text.splitlines()):
        return "pass\n"
    return text


def _state(names: Names, case: Case, line: int, text: str, extras: dict) -> None:
    """"KEY[ POWER]: VALUE" -> ``extras``: a value an edition's rule keeps (as
    ``WorkingBoard.write_state`` would write it: declared key, its type)."""
    head, sep, value_text = text.partition(":")
    words = head.split()
    if not sep or len(words) not in (1, 2) or not value_text.strip():
        raise DataError(f"{case.file}:{line}: expected 'state KEY: VALUE' or "
                        f"'state KEY POWER: VALUE'")
    try:
        value = word_value(value_text.strip())
        power = names.resolve_power(words[1]) if len(words) == 2 else None
        checked_state(words[0], value, power)
    except (UnknownName, ValueError, DataError) as exc:
        raise DataError(f"{case.file}:{line}: {exc}") from None
    if power is None:
        extras[words[0]] = value
    else:
        extras[words[0]] = dict(sorted({**extras.get(words[0], {}), power: value}.items()))


def build_position(game: Game, case: Case) -> GameState:
    names = Names(game)
    state = initial_state(game, f"case-{case.name}")
    units = dict(state.units) if case.position == "setup" else {}
    owners, ipcs, extras = dict(state.owners), dict(state.ipcs), dict(state.extras)
    relations = dict(state.relations)
    standing = dict(state.standing_orders)
    for verb, rest, line in case.edits:
        if verb == "clear":
            for word in rest.split(","):
                space, _ = _split_space(names, case, line, word.strip() + ":")
                units.pop(space, None)
        elif verb == "units":
            space, text = _split_space(names, case, line, rest)
            units[space] = tuple(units.get(space, ())) + tuple(_units(game, names, case, line, space, text))
        elif verb == "aboard":
            space, text = _split_space(names, case, line, rest)
            here = list(units.get(space, ()))
            _aboard(game, case, line, here, _units(game, names, case, line, space, text))
            units[space] = tuple(here)
        elif verb == "standing":
            power, orders = _standing(game, names, case, line, rest)
            old = standing.get(power, StandingOrders())
            standing[power] = StandingOrders(old.defences + orders.defences,
                                             old.choices + orders.choices)
        elif verb == "cargo":
            space, text = _split_space(names, case, line, rest)
            here = list(units.get(space, ()))
            for unit in _units(game, names, case, line, space, text):
                i = _room_for(game, here, unit)
                if i is None:
                    raise DataError(f"{case.file}:{line}: nothing in {space} has room for "
                                    f"{unit.type}")
                here[i] = attrs.evolve(here[i], cargo=here[i].cargo + (unit,))
            units[space] = tuple(here)
        elif verb == "owner":
            space, who = _split_space(names, case, line, rest)
            if who.casefold() == "neutral":
                owners.pop(space, None)
            elif who.strip() in game.ruleset.nations:
                owners[space] = who.strip()
            else:
                owners[space] = _owner_key(game, names, who)
        elif verb == "relation":
            relations[_relation_key(game, names, case, line, rest[:rest.find(":")])] = \
                _relation_state(case, line, rest)
        elif verb == "ipcs":
            who, _, amount = rest.rpartition(" ")
            ipcs[_economy(game, names, who)] = int(amount)
        elif verb == "history":
            who, _, values = rest.partition(":")
            words = who.split()
            if len(words) != 2:
                raise DataError(f"{case.file}:{line}: expected 'history POWER KEY: a, b'")
            power, key = names.resolve_power(words[0]), words[1]
            items = [v.strip() for v in values.split(",") if v.strip()]
            extras[key] = {**extras.get(key, {}), power: items}
        elif verb == "damage":
            space, amount = _split_space(names, case, line, rest)
            here = list(units.get(space, ()))
            type_word, _, amount = amount.rpartition(" ")
            if not amount.isdigit():
                raise DataError(f"{case.file}:{line}: expected 'damage SPACE: N' or "
                                "'damage SPACE: TYPE N'")
            if type_word.strip():        # "SPACE: TYPE N": the first unit of that type there
                unit_type = names.resolve_unit(type_word.strip())
                found = [i for i, u in enumerate(here) if u.type == unit_type]
            else:
                found = [i for i, u in enumerate(here) if game.ruleset.units[u.type].has("factory")]
            if not found:
                what = type_word.strip() or "factory"
                raise DataError(f"{case.file}:{line}: no {what} in {space} to damage")
            here[found[0]] = attrs.evolve(here[found[0]], damage=int(amount))
            units[space] = tuple(here)
        elif verb == "state":
            _state(names, case, line, rest, extras)
    power = names.resolve_power(case.power) if case.power else state.power
    return attrs.evolve(state, power=power, round=case.round, owners=owners, ipcs=ipcs,
                        relations=dict(sorted(relations.items())), extras=extras,
                        units={k: v for k, v in units.items() if v},
                        standing_orders=dict(sorted(standing.items())))


def _relation_key(game: Game, names: Names, case: Case, line: int, text: str) -> str:
    """``usa japan`` (a ``relation`` line's two owners: powers or nations) -> ``"japan|usa"``."""
    words = text.split()
    owners = []
    for word in words:
        key = word if word in game.ruleset.nations else names.powers.find(word)
        if key is None:
            raise DataError(f"{case.file}:{line}: '{word}' is no power or nation")
        owners.append(key)
    if len(owners) != 2 or owners[0] == owners[1]:
        raise DataError(f"{case.file}:{line}: expected 'relation OWNER OWNER: war|allied|neutral'")
    return "|".join(sorted(owners))


def _relation_state(case: Case, line: int, text: str) -> str:
    value = text.partition(":")[2].strip().casefold()
    if value not in ("war", "allied", "neutral"):
        raise DataError(f"{case.file}:{line}: a relation is war, allied or neutral")
    return value


def _economy(game: Game, names: Names, word: str) -> str:
    """A power's name, or the key of one of its economies (``uk_pacific``)."""
    for power in game.ruleset.powers.values():
        if any(e.key == word for e in power.all_economies):
            return word
    return names.resolve_power(word)


def _room_for(game: Game, here: list[Unit], unit: Unit) -> int | None:
    """The index of the first unit in ``here`` whose cargo rule has room for ``unit``."""
    types = game.ruleset.units
    ut = types[unit.type]
    for i, carrier in enumerate(here):
        rule = types[carrier.type].cargo
        if rule is None or rule.domain != ut.domain or ut.key in rule.except_types \
                or (rule.only_types and ut.key not in rule.only_types):
            continue
        if rule.problem([types[c.type] for c in carrier.cargo] + [ut]):
            continue
        return i
    return None


def _dice(words: tuple[str, ...]):
    if words and words[0].casefold() in ("attacker", "defender", "other"):
        faces = dict(zip(words[::2], map(int, words[1::2])))
        return SideDice(faces.get("attacker", 1), faces.get("defender", 1), faces.get("other"))
    return FixedDice([int(w) for w in words])


# ---- expectations ---------------------------------------------------------------------------

def _owned(state: GameState, space: str, owner: str | None) -> Counter:
    counts: Counter = Counter()
    for unit in state.units_at(space):
        for u in (unit, *unit.cargo):
            if owner is None or u.owner == owner:
                counts[u.type] += 1
    return counts


def _code_args(args: list[str]) -> tuple[str, int | None, dict[str, str]]:
    """"code [line N] [param=value ...]" -> (code, line, params)."""
    code = args[0] if args else ""
    line, params, rest = None, {}, list(args[1:])
    while rest:
        word = rest.pop(0)
        if word == "line" and rest:
            line = int(rest.pop(0))
        elif "=" in word:
            key, _, value = word.partition("=")
            params[key] = value
    return code, line, params


def _params_match(params: dict, wanted: dict[str, str]) -> bool:
    return all(k in params and _field_matches(params[k], v) for k, v in wanted.items())


def _field_matches(value, text: str) -> bool:
    """An event field against its text: dicts as ``type:count,...`` (empty: ``{}``),
    tuples as ``a,b,...``, anything else as ``str()``; Python's own ``str()`` of a dict or
    tuple (``(6, 6)``) also matches."""
    if str(value) == text:
        return True
    if isinstance(value, dict):
        want = {}
        for item in filter(None, (t.strip() for t in text.split(","))):
            key, _, count = item.partition(":")
            want[key.strip()] = int(count) if count.strip().isdigit() else count.strip()
        return value == want
    if isinstance(value, (tuple, list)):
        return tuple(str(v) for v in value) == tuple(t.strip() for t in text.split(",") if t.strip())
    return str(value) == text


def _event_field(event, name: str):
    """An event field; ``killed.infantry`` reads one key of a dict field (0 when absent)."""
    field, _, key = name.partition(".")
    value = getattr(event, field, None)
    if key:
        return value.get(key, 0) if isinstance(value, dict) else None
    return value


def _event_matches(event, kind: str, fields: dict[str, str]) -> bool:
    if event.kind != kind:
        return False
    return all(_field_matches(_event_field(event, k), v) for k, v in fields.items())


def _unknown_fields(kind: str, fields) -> str | None:
    """Why an expectation about events of ``kind`` with these field names can never be
    checked (an unknown kind, a field the event does not have), or None.  An expectation
    naming a field the event lacks would hold (``no event``) or fail whatever happens."""
    classes = all_event_classes()
    if kind not in classes:
        return f"no event is called {kind!r} (known: {', '.join(sorted(classes))})"
    known = [f.name for f in attrs.fields(classes[kind])]
    bad = [name for name in fields if name.partition(".")[0] not in known]
    if bad:
        return f"event {kind} has no field {', '.join(bad)} (its fields: {', '.join(known)})"
    return None


CHECK_EXPECTATIONS = ("valid", "errors", "rejected", "warning", "no_warning")   # need no dice


def evaluate(game: Game, case: Case, exp: Expectation, problems: list[Problem], result) -> str | None:
    """Why ``exp`` does not hold (None when it does)."""
    names = Names(game)
    text = exp.args[0] if exp.args else ""
    args = shlex.split(text)
    kind = exp.kind
    errors = [p for p in problems if p.is_error]
    if kind == "valid":
        return None if not errors else "expected valid orders, found " + _codes(errors)
    if kind == "errors":
        want = int(args[0]) if args and args[0].isdigit() else -1
        return None if len(errors) == want else \
            f"expected {text} errors, found {len(errors)}: {_codes(errors) or 'none'}"
    if kind in ("rejected", "warning"):
        code, line, wanted = _code_args(args)
        pool = errors if kind == "rejected" else [p for p in problems if not p.is_error]
        if any(p.code == code and (line is None or p.line == line) and _params_match(p.params, wanted)
               for p in pool):
            return None
        return f"expected {kind} {text}, found {_codes(pool) or 'none'}"
    if kind == "no_warning":
        code, line, wanted = _code_args(args)
        found = [p for p in problems if not p.is_error and p.code == code
                 and (line is None or p.line == line) and _params_match(p.params, wanted)]
        return None if not found else f"expected no warning {code}, found line {found[0].line}"
    if result is None:
        return f"'expect {kind}' needs dice (the case is not played)"
    state, events = result.state, result.events
    if kind == "skipped":
        code, line, wanted = _code_args(args)
        skips = [e for e in events if isinstance(e, OrderSkipped)]
        if any(e.reason == code and (line is None or e.line == line) and _params_match(e.params, wanted)
               for e in skips):
            return None
        return f"expected a skipped order ({code}), found " + \
            (", ".join(f"line {e.line}: {e.reason}" for e in skips) or "none")
    if kind in ("units", "no_units"):
        space, rest = _split_space(names, case, exp.line, text)
        if kind == "no_units":
            owner = _owner_key(game, names, rest) if rest else None
            found = _owned(state, space, owner)
            return None if not found else f"expected no units in {space}, found {dict(found)}"
        owner_word = rest.split(" ", 1)[0]
        owner = _owner_key(game, names, owner_word)
        want = Counter()
        for u in _units(game, names, case, exp.line, space, rest):
            for x in (u, *u.cargo):
                want[x.type] += 1
        found = _owned(state, space, owner)
        return None if found == want else f"{space}: expected {dict(want)}, found {dict(found)}"
    if kind == "relation":
        key = _relation_key(game, names, case, exp.line, text[:text.find(":")])
        want = _relation_state(case, exp.line, text)
        a, b = key.split("|")
        got = game.ruleset.relation(a, b, state.relations)
        return None if got == want else f"{a}-{b}: expected {want}, found {got}"
    if kind == "state":
        head, sep, value_text = text.partition(":")
        words = head.split()
        if not sep or len(words) not in (1, 2) or not value_text.strip():
            raise DataError(f"{case.file}:{exp.line}: expected 'expect state KEY[ POWER]: VALUE'")
        try:
            want = word_value(value_text.strip())
        except DataError as exc:
            raise DataError(f"{case.file}:{exp.line}: {exc}") from None
        got = state.extras.get(words[0])
        if len(words) == 2:
            got = (got or {}).get(names.resolve_power(words[1]))
        return None if got == want else f"state {head.strip()}: expected {want!r}, found {got!r}"
    if kind == "owner":
        space, who = _split_space(names, case, exp.line, text)
        want = None if who.casefold() == "neutral" else _owner_key(game, names, who)
        got = state.owners.get(space)
        return None if got == want else f"{space}: expected owner {want}, found {got}"
    if kind == "ipcs":
        who, amount = " ".join(args[:-1]), int(args[-1])
        got = state.ipcs.get(_economy(game, names, who))
        return None if got == amount else f"expected {who} to have {amount} IPCs, found {got}"
    if kind == "damage":
        if ":" in text:                  # "SPACE: TYPE N": every unit of that type there
            space, rest = _split_space(names, case, exp.line, text)
            type_word, _, amount_text = rest.rpartition(" ")
            if not amount_text.isdigit():
                raise DataError(f"{case.file}:{exp.line}: expected 'expect damage SPACE: TYPE N'")
            unit_type = names.resolve_unit(type_word.strip())
            got = [u.damage for u in state.units_at(space) if u.type == unit_type]
            amount = int(amount_text)
            return None if got and set(got) == {amount} else \
                f"{space}: expected {unit_type} damage {amount}, found {got}"
        space, amount = names.resolve_space(" ".join(args[:-1])), int(args[-1])
        got = [u.damage for u in state.units_at(space) if game.ruleset.units[u.type].has("factory")]
        return None if got == [amount] else f"{space}: expected factory damage {amount}, found {got}"
    if kind == "sequence":
        parts = [shlex.split(p) for p in text.split(" then ")]
        start = 0
        for part in parts:
            if not part or any("=" not in a for a in part[1:]):
                return f"expected 'sequence KIND field=value ... then KIND ...', found {text!r}"
            fields = dict(a.split("=", 1) for a in part[1:])
            if (why := _unknown_fields(part[0], fields)):
                return why
            found = next((i for i in range(start, len(events))
                          if _event_matches(events[i], part[0], fields)), None)
            if found is None:
                return f"no event {' '.join(part)} after the earlier ones of: {text}"
            start = found + 1
        return None
    if kind in ("event", "no_event"):
        bad = [a for a in args[1:] if "=" not in a]
        if not args or bad:
            return f"expected 'event KIND field=value ...' (quote values with spaces), " \
                f"found {text!r}"
        ev_kind, fields = args[0], dict(a.split("=", 1) for a in args[1:])
        times = fields.pop("times", None)
        if (why := _unknown_fields(ev_kind, fields)):
            return why
        hits = [e for e in events if _event_matches(e, ev_kind, fields)]
        if kind == "event" and times is not None:
            return None if len(hits) == int(times) else \
                f"expected {times} event(s) {text}, found {len(hits)}"
        if kind == "event":
            return None if hits else f"expected an event {text}, found none " \
                f"(kinds: {', '.join(sorted({e.kind for e in events}))})"
        return None if not hits else f"expected no event {text}, found {hits[0]!r}"
    if kind == "winner":
        return None if state.winner == text else f"expected winner {text}, found {state.winner}"
    if kind == "next":
        want = names.resolve_power(args[0]) if args else None
        rnd = int(args[2]) if len(args) >= 3 and args[1] == "round" else None
        if state.power == want and (rnd is None or state.round == rnd):
            return None
        return f"expected {want} to play next (round {rnd}), found {state.power} (round {state.round})"
    if kind == "no_winner":
        return None if state.winner is None else f"expected no winner, found {state.winner}"
    if kind == "turn":
        if not args or (len(args) > 1 and (len(args) != 3 or args[1] != "round" or not args[2].isdigit())):
            raise DataError(f"{case.file}:{exp.line}: expected 'expect turn POWER [round N]'")
        who = names.resolve_power(args[0])
        rnd = int(args[2]) if len(args) == 3 else state.round
        return None if (state.power, state.round) == (who, rnd) else \
            f"expected {who} to play round {rnd} next, found {state.power} round {state.round}"
    return f"unknown expectation {kind}"


def _codes(problems) -> str:
    return ", ".join(f"line {p.line}: {p.code} {p.params}" for p in problems)


# ---- running -------------------------------------------------------------------------------

def run_case(case: Case, edition: str) -> CaseResult:
    """Check (and, with dice, play) one case, turn by turn; every failed expectation is
    reported.  ``problems`` and ``events`` are those of its first turn."""
    try:
        game = load_game(edition, options=dict(case.options) or None)
        state = build_position(game, case)
    except PbemError as exc:
        return CaseResult(case, (f"setup: {exc}",))
    first = _TurnPlay(game, case, state, case.orders, case.dice, case.expect, case.played)
    failures = list(first.failures)
    turn = first
    for later in case.later:
        if turn.result is None:
            failures.append(f"line {later.line}: the turn before could not be played")
            break
        state, why = _pass_until(game, turn.result.state, later.power)
        if why:
            failures.append(f"line {later.line}: {why}")
            break
        turn = _TurnPlay(game, case, state, later.orders, later.dice, later.expect,
                         _plays(later))
        failures += turn.failures
    return CaseResult(case, tuple(failures), tuple(first.problems),
                      tuple(first.result.events) if first.result else ())


def _plays(later) -> bool:
    """A later turn is played, unless it has no dice and expects its orders refused (it is
    then only checked: refused orders cannot be played)."""
    refused = any(e.kind == "rejected" or (e.kind == "errors" and e.args[:1] != ("0",))
                  for e in later.expect)
    return bool(later.dice) or not refused


class _TurnPlay:
    """One turn of a case: read, check and (``played``) play the orders on ``state``, then
    judge the turn's expectations.  ``failures`` says what did not hold."""

    def __init__(self, game: Game, case: Case, state: GameState, orders_text: str,
                 dice: tuple[str, ...], expect: tuple[Expectation, ...], played: bool):
        self.problems: list[Problem] = []
        self.result = None
        self.failures: list[str] = []
        wants_unreadable = [e for e in expect if e.kind == "unreadable"]
        try:
            orders = parse_orders(_orders_text(orders_text), game, power=state.power)
        except OrdersSyntaxError as exc:
            errors = list(getattr(exc, "errors", [exc]))
            if not wants_unreadable:
                self.failures.append("the orders could not be read: "
                                     + "; ".join(_one_line(e) for e in errors))
            for exp in wants_unreadable:
                self._judge(exp, _unreadable(exp, errors))
            return
        except PbemError as exc:
            self.failures.append(f"setup: {exc}")
            return
        for exp in wants_unreadable:
            self.failures.append(f"line {exp.line}: expected the orders to be refused when "
                                 "read, but they were read")
        try:
            self.problems = check(game, state, orders)
        except Exception as exc:                # an engine bug: report it with the case
            self.failures.append(f"check: engine error {type(exc).__name__}: {exc}")
            return
        if played:
            try:
                faces = _dice(dice)
            except ValueError:
                self.failures.append(f"dice: expected numbers or 'attacker N defender N "
                                     f"other N', found {' '.join(dice)!r}")
                return
            try:
                self.result = adjudicate(game, state, orders, faces)
            except OrdersRejected as exc:
                if not any(e.kind in ("rejected", "errors") for e in expect):
                    # (a later turn is always played: its expected refusal is no failure)
                    self.failures.append("the orders were refused, so the case could not be "
                                         "played: " + _codes([p for p in exc.problems if p.is_error]))
            except AssertionError as exc:       # a dice script that ran out
                self.failures.append(f"dice: {exc}")
            except Exception as exc:            # an engine bug (e.g. a battle that never ends)
                self.failures.append(f"play: engine error {type(exc).__name__}: {exc}")
        for exp in expect:
            # a turn that could not be played has said why once already
            if exp.kind != "unreadable" and (self.result or not played
                                             or exp.kind in CHECK_EXPECTATIONS):
                self._judge(exp, lambda: evaluate(game, case, exp, self.problems, self.result))

    def _judge(self, exp: Expectation, why) -> None:
        try:
            text = why() if callable(why) else why
        except (ValueError, IndexError, PbemError) as exc:   # e.g. "expect ipcs germany lots"
            text = f"malformed expectation: {getattr(exc, 'message', None) or exc}"
        if text:
            self.failures.append(f"line {exp.line}: {text}")


def _one_line(error: OrdersSyntaxError) -> str:
    return f"line {error.line}: {error.args[0]}"


def _unreadable(exp: Expectation, errors: list[OrdersSyntaxError]) -> str | None:
    """Why ``expect unreadable [line N] "TEXT"`` does not hold for these reading errors."""
    args = shlex.split(exp.args[0]) if exp.args else []
    line = None
    if len(args) >= 2 and args[0] == "line":
        line, args = int(args[1]), args[2:]
    if len(args) > 1:
        raise ValueError("expected 'expect unreadable [line N] \"TEXT\"'")
    text = args[0] if args else ""
    if any((line is None or e.line == line) and text.casefold() in e.args[0].casefold()
           for e in errors):
        return None
    return f"expected a reading error {exp.args[0] if exp.args else ''}, found " + \
        "; ".join(_one_line(e) for e in errors)


def _pass_until(game: Game, state: GameState, power_word: str) -> tuple[GameState, str | None]:
    """Play ``pass`` for every power before ``power_word``'s turn.  A passing turn fights
    nothing; the only dice it may roll are its income's (Global 1940's convoy disruption),
    all 6s here: a convoy die costs on 3 or less, so passing changes nothing by chance.
    (state, None), or why the case cannot get there."""
    try:
        power = Names(game).resolve_power(power_word)
    except UnknownName as exc:
        return state, exc.message
    for _ in range(len(game.ruleset.turn_order) + 1):
        if state.power == power or state.winner:
            break
        try:
            state = adjudicate(game, state, parse_orders("pass\n", game, power=state.power),
                               SideDice(6, 6, 6)).state
        except (PbemError, AssertionError) as exc:
            return state, f"{state.power} could not pass its turn: {exc}"
    if state.power != power:
        return state, f"{power} never gets a turn (the game is over: {state.winner} won)"
    return state, None


def run_edition(edition: str | None, folder: str | Path | None = None) -> list[CaseResult]:
    """Run the cases of ``folder`` (default: the edition's own).  A case is run for the
    edition its file names; ``edition`` (when given) must agree, and a case whose file
    names none needs it."""
    if folder is None and edition is None:
        raise DataError("which edition? give one (--ruleset) or a case file that names one")
    cases = read_cases(folder) if folder else edition_cases(edition)
    return [_run_for(case, edition) for case in cases]


def _run_for(case: Case, edition: str | None) -> CaseResult:
    from .. import editions
    wanted = case.edition or edition
    if wanted is None:
        return CaseResult(case, (f"{case.file}: the file names no edition ('edition NAME' "
                                 "before its first case); give --ruleset",))
    if wanted not in editions.names():
        return CaseResult(case, (f"{case.file}: no edition is called {wanted!r} "
                                 f"(known: {', '.join(editions.names())})",))
    if edition is not None and case.edition is not None and case.edition != edition:
        return CaseResult(case, (f"{case.file}: these cases are for edition {case.edition}, "
                                 f"not {edition}",))
    return run_case(case, wanted)
