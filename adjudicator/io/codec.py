"""One converter for every file the project writes: game states, standing orders, events,
turn files.  Values become plain JSON-able dicts and lists and come back exactly equal.

* ``GameState``: units are grouped for readability.  Per space, a list of groups
  ``{"type": "infantry", "owner": "ussr", "count": 3}`` (consecutive identical units with
  no cargo share a group, so the order of units -- and equality -- survives the trip); a
  unit carrying cargo is written on its own, without ``count``, with
  ``"cargo": [...]`` grouped the same way.
* Enums are written as their values, tuples as lists, events as dicts with a ``"kind"``
  tag (``events.all_event_classes()``).
* ``canonical_json`` gives deterministic bytes (UTF-8, sorted keys, two-space indent,
  trailing newline), so files can be hashed, signed and compared byte for byte.

Decoding is strict: a wrong type is an error (``DecodeError``, a ``StateFileError``)
naming where in the document it is, never a silent conversion.  Numbers are bounded
(``limits``): the unit counts of a state are added up and checked before any unit is
built, so a count of 10**7 is refused at once.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar, get_args, get_origin

import attrs
import cattrs
import cattrs.v
from cattrs.cols import homogenous_tuple_structure_factory
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from ..model.errors import StateFileError
from ..model.orders import Comparison, DefenceOrder, Phase, StandingOrders, SubmergePolicy
from ..model.units import Domain
from ..model.state import GameState, Unit
from .limits import MAX_IPCS, MAX_ROUND, MAX_TURN_NUMBER, MAX_UNITS

if TYPE_CHECKING:
    from ..model.events import Event


T = TypeVar("T")


class DecodeError(StateFileError):
    """A document does not have the expected shape.  The message says where."""


# --------------------------------------------------------------------------- converter

converter = cattrs.Converter(forbid_extra_keys=True, unstruct_collection_overrides={tuple: list})


def _standing_orders_hook(_cls):
    """Standing orders omit ``choices`` when a power has none (turn files of editions
    without standing orders of their own stay as they were).  Made on first use, as the
    other writers of this module: a command that only reads compiles none of them."""
    return make_dict_unstructure_fn(StandingOrders, converter,
                                    choices=override(omit_if_default=True))


def _defence_order_hook(_cls):
    """A standing order's ``landing`` is written only when given: files written before it
    existed encode (and so hash) the same."""
    return make_dict_unstructure_fn(DefenceOrder, converter,
                                    landing=override(omit_if_default=True))


def _strict(expected: type, label: str):
    def hook(value, _type):
        if type(value) is not expected:
            raise TypeError(f"expected {label}, found {_describe(value)}")
        return value

    return hook


converter.register_structure_hook(str, _strict(str, "a string"))
converter.register_structure_hook(int, _strict(int, "an integer"))
converter.register_structure_hook(bool, _strict(bool, "true or false"))


def _is_homogeneous_tuple(t) -> bool:
    if get_origin(t) is not tuple:
        return False
    args = get_args(t)
    return len(args) == 2 and args[1] is Ellipsis


def _tuple_factory(t):
    inner = homogenous_tuple_structure_factory(t, converter)

    def hook(value, _type):
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"expected a list, found {_describe(value)}")
        return inner(value, _type)

    return hook


converter.register_structure_hook_factory(_is_homogeneous_tuple, _tuple_factory)


def _enum_structure(value, cls):
    try:
        return cls(value)
    except ValueError:
        allowed = ", ".join(repr(m.value) for m in cls)
        raise ValueError(f"{value!r} is not one of {allowed}") from None


def _is_enum(t) -> bool:
    return isinstance(t, type) and issubclass(t, Enum)


def _enum_value(member: Enum):
    return member.value


def register_enum(cls: type[Enum]) -> None:
    """Write ``cls`` members as their values.  Needed explicitly for ``(str, Enum)``
    classes, which cattrs would otherwise treat as plain strings."""
    converter.register_structure_hook(cls, _enum_structure)
    converter.register_unstructure_hook(cls, _enum_value)


converter.register_structure_hook_func(_is_enum, _enum_structure)
converter.register_unstructure_hook_func(_is_enum, _enum_value)
for _cls in (Phase, Comparison, SubmergePolicy, Domain):
    register_enum(_cls)
converter.register_unstructure_hook_factory(lambda t: t is DefenceOrder, _defence_order_hook)

# Events: tagged with their ``kind``; the field type ``Event`` dispatches on the tag.  The
# board battle's events (``BoardEvent``, inside a ``BoardBattleFought``) are a second family.
# A family's classes exist only once its module is imported: the codec imports none before
# a document needs one (``pbem status`` reads a turn file's events as plain data, and no
# 1941 file names a board event); a kind it has not met imports the module that
# ``events.KINDS`` names for it, and only a kind found there in none the other modules of
# events (``events.EVENT_MODULES``).
_MODEL = __package__.rpartition(".")[0] + ".model"
_FAMILIES = (_MODEL + ".event_base", "Event"), (_MODEL + ".tactical", "BoardEvent")
_EVENT_UNSTRUCTURE: dict[type, Any] = {}
_EVENT_STRUCTURE: dict[type, Any] = {}
_KINDS: dict[type, dict[str, type]] = {}


def _tagged_bases() -> tuple[type, ...]:
    """The base class of each family of events whose module is imported."""
    bases = (getattr(sys.modules.get(module), name, None) for module, name in _FAMILIES)
    return tuple(base for base in bases if base is not None)


def _is_event(t) -> bool:
    return isinstance(t, type) and issubclass(t, _tagged_bases())


def _event_class(base: type, kind) -> type | None:
    """The class of events of ``base``'s family tagged ``kind``: among the classes made so
    far, else after importing the module that ``events.KINDS`` names for it, else after
    importing every module of events."""
    from ..model.events import all_event_classes, load_kind
    classes = _KINDS.setdefault(base, {})
    if isinstance(kind, str) and kind not in classes:
        load_kind(kind)
        classes.clear()
        classes.update(all_event_classes(base, load=False))   # a class made since last time?
        if kind not in classes:
            classes.update(all_event_classes(base))
    return classes.get(kind) if isinstance(kind, str) else None


def _unstructure_event(event: Event) -> dict:
    cls = type(event)
    fn = _EVENT_UNSTRUCTURE.get(cls)
    if fn is None:
        fn = _EVENT_UNSTRUCTURE[cls] = make_dict_unstructure_fn(cls, converter)
    data = fn(event)
    if "kind" in data:
        raise ValueError(f"event class {cls.__name__} has a field named 'kind'")
    data["kind"] = cls.kind
    return data


def _structure_event(data, cls):
    if not isinstance(data, dict):
        raise TypeError(f"expected an event object, found {_describe(data)}")
    kind = data.get("kind")
    base = next(b for b in _tagged_bases() if issubclass(cls, b))
    target = _event_class(base, kind)
    if target is None:
        raise ValueError(f"unknown event kind {kind!r}")
    if not issubclass(target, cls):
        raise ValueError(f"event kind {kind!r} is not a {cls.__name__}")
    fn = _EVENT_STRUCTURE.get(target)
    if fn is None:
        fn = _EVENT_STRUCTURE[target] = make_dict_structure_fn(target, converter)
    return fn({k: v for k, v in data.items() if k != "kind"}, target)


converter.register_unstructure_hook_func(_is_event, _unstructure_event)
converter.register_unstructure_hook_factory(lambda t: t is StandingOrders,
                                            _standing_orders_hook)
converter.register_structure_hook_func(_is_event, _structure_event)


# --------------------------------------------------------------------------- game state

def group_units(units) -> list[dict]:
    """Units as file groups: consecutive cargo-less units of one type, owner, damage and
    flags merge.  ``damage`` is written only when it is not 0, ``flags`` only when some."""
    out: list[dict] = []
    previous = None
    for unit in units:
        if unit is previous:              # the same frozen unit again (states share them)
            out[-1]["count"] += 1
            continue
        previous = None
        if unit.cargo:
            group = {"type": unit.type, "owner": unit.owner, "cargo": group_units(unit.cargo)}
            if unit.damage:
                group["damage"] = unit.damage
            if unit.flags:
                group["flags"] = list(unit.flags)
            out.append(group)
            continue
        last = out[-1] if out else None
        if last is not None and "count" in last and last["type"] == unit.type \
                and last["owner"] == unit.owner and last.get("damage", 0) == unit.damage \
                and tuple(last.get("flags", ())) == unit.flags:
            last["count"] += 1
        else:
            group = {"type": unit.type, "owner": unit.owner, "count": 1}
            if unit.damage:
                group["damage"] = unit.damage
            if unit.flags:
                group["flags"] = list(unit.flags)
            out.append(group)
        previous = unit
    return out


class UnitGroups(list):
    """A space's unit groups (``group_units``) with the unit tuple they were made from
    (``units``): ``canonical_json`` writes the text of a tuple once per indentation, and
    states share the tuples of the spaces a turn left as they were
    (``WorkingBoard.to_units``).  Its text is its tuple's: not to be changed."""

    __slots__ = ("units",)


def _unit_groups(units: tuple[Unit, ...]) -> UnitGroups:
    """The groups of a space's unit tuple, made once for each tuple (states share the
    tuples of the spaces a turn left as they were): shared, so not to be changed."""
    found = _GROUPS_OF.get(id(units))
    if found is not None and found.units is units:
        return found
    groups = UnitGroups(group_units(units))
    groups.units = units
    if len(_GROUPS_OF) >= _MAX_GROUPS_OF:
        _GROUPS_OF.clear()
    _GROUPS_OF[id(units)] = groups
    return groups


# id of a unit tuple -> its groups (which keep the tuple, so the id stays its own): a few
# states' worth (the last state's spaces are what the next one shares; more kept alive would
# be more for the garbage collector to walk)
_GROUPS_OF: dict[int, UnitGroups] = {}
_MAX_GROUPS_OF = 1_000


_PLAIN_GROUP = frozenset({"type", "owner", "count"})
_DAMAGED_GROUP = _PLAIN_GROUP | {"damage"}
_SHARED_UNITS: dict[tuple[str, str, int], Unit] = {}   # (type, owner, damage) -> one frozen Unit
_MAX_SHARED_UNITS = 4096


def ungroup_units(groups, where: str = "units") -> tuple[Unit, ...]:
    """The inverse of ``group_units``, checking the shape as it goes.  Cargo-less groups
    of the usual shape take a fast path that builds each distinct unit once (frozen, so
    shared); anything else -- cargo, or a group that is wrong -- is read by
    ``_ungroup_checked``, whose errors say where."""
    if type(groups) is list:
        out: list[Unit] = []
        shared = _SHARED_UNITS
        for group in groups:
            if type(group) is not dict:
                break
            keys = group.keys()
            if keys == _PLAIN_GROUP:
                damage = 0
            elif keys == _DAMAGED_GROUP:
                damage = group["damage"]
                if type(damage) is not int or not 0 <= damage <= 1_000:
                    break
            else:
                break
            utype, owner, count = group["type"], group["owner"], group["count"]
            if type(utype) is not str or type(owner) is not str or type(count) is not int \
                    or count < 1:
                break
            unit = shared.get((utype, owner, damage))
            if unit is None:
                if len(shared) >= _MAX_SHARED_UNITS:
                    shared.clear()
                unit = shared[utype, owner, damage] = Unit(utype, owner, (), damage)
            out += [unit] * count
        else:
            return tuple(out)
    return _ungroup_checked(groups, where)


def _ungroup_checked(groups, where: str) -> tuple[Unit, ...]:
    if not isinstance(groups, list):
        raise DecodeError(f"{where}: expected a list of unit groups, found {_describe(groups)}")
    out: list[Unit] = []
    for i, group in enumerate(groups):
        here = f"{where}[{i}]"
        if not isinstance(group, dict):
            raise DecodeError(f"{here}: expected an object, found {_describe(group)}")
        extra = set(group) - {"type", "owner", "count", "cargo", "damage", "flags"}
        if extra:
            raise DecodeError(f"{here}: unexpected field(s) {', '.join(sorted(map(str, extra)))}")
        utype = _req_str(group, "type", here)
        owner = _req_str(group, "owner", here)
        damage = group.get("damage", 0)
        if type(damage) is not int or not 0 <= damage <= 1_000:
            raise DecodeError(f"{here}.damage: expected an integer from 0 to 1000, found {_describe(damage)}")
        flags = group.get("flags", [])
        if not (isinstance(flags, list) and len(flags) <= 32
                and all(isinstance(f, str) and 0 < len(f) <= 64 for f in flags)
                and flags == sorted(set(flags))):
            raise DecodeError(f"{here}.flags: expected a sorted list of distinct names, "
                              f"found {_describe(flags)}")
        flags = tuple(flags)
        if "cargo" in group:
            if "count" in group:
                raise DecodeError(f"{here}: a unit with cargo is written alone, without 'count'")
            cargo = ungroup_units(group["cargo"], f"{here}.cargo")  # fast path if it can
            if not cargo:
                raise DecodeError(f"{here}: 'cargo' must not be empty (omit it instead)")
            out.append(Unit(utype, owner, cargo, damage, flags))
        else:
            count = group.get("count")
            if type(count) is not int or count < 1:
                raise DecodeError(f"{here}.count: expected a positive integer, found {_describe(count)}")
            out.extend([Unit(utype, owner, (), damage, flags)] * count)  # frozen: one shared value
    return tuple(out)


def count_units(units_raw, where: str = "units", limit: int = MAX_UNITS) -> int:
    """The number of units the groups of a state's ``units`` object stand for, cargo
    included, without building any; ``DecodeError`` as soon as it passes ``limit``."""
    total = 0
    pending = [(groups, f"{where}.{space}") for space, groups in units_raw.items()]
    while pending:
        groups, here = pending.pop()
        if not isinstance(groups, list):
            continue                       # ungroup_units reports the shape
        for i, group in enumerate(groups):
            if not isinstance(group, dict):
                continue
            if "cargo" in group:
                total += 1
                pending.append((group["cargo"], f"{here}[{i}].cargo"))
            else:
                count = group.get("count")
                if type(count) is int and count > 0:
                    total += count
            if total > limit:
                raise DecodeError(f"{here}[{i}]: more than {limit} units in the state; "
                                  "refusing to expand them")
    return total


def encode_state(state: GameState) -> dict:
    """``GameState`` -> plain dict (keys sorted, units grouped)."""
    return {
        "game_id": state.game_id,
        "ipcs": {p: state.ipcs[p] for p in sorted(state.ipcs)},
        "map_id": state.map_id,
        "owners": {t: state.owners[t] for t in sorted(state.owners)},
        "power": state.power,
        "round": state.round,
        "standing_orders": {p: converter.unstructure(state.standing_orders[p], StandingOrders)
                            for p in sorted(state.standing_orders)},
        "turn_number": state.turn_number,
        "units": {s: _unit_groups(state.units[s]) for s in sorted(state.units)},
        "winner": state.winner,
    } | ({"relations": dict(sorted(state.relations.items()))} if state.relations else {}) \
      | ({"extras": state.extras} if state.extras else {})


_STATE_FIELDS = {"game_id", "ipcs", "map_id", "owners", "power", "round", "standing_orders",
                 "turn_number", "units", "winner", "relations", "extras"}
_STATE_REQUIRED = {"game_id", "map_id", "round", "power", "owners", "units", "ipcs"}


def decode_state(data, where: str = "state") -> GameState:
    """Plain dict -> ``GameState``; ``DecodeError`` saying where the shape is wrong."""
    if not isinstance(data, dict):
        raise DecodeError(f"{where}: expected an object, found {_describe(data)}")
    missing = _STATE_REQUIRED - set(data)
    if missing:
        raise DecodeError(f"{where}: missing field(s) {', '.join(sorted(missing))}")
    extra = set(data) - _STATE_FIELDS
    if extra:
        raise DecodeError(f"{where}: unexpected field(s) {', '.join(sorted(map(str, extra)))}")
    owners = _str_map(data["owners"], f"{where}.owners", str)
    ipcs = _str_map(data["ipcs"], f"{where}.ipcs", int)
    units_raw = data["units"]
    if not isinstance(units_raw, dict):
        raise DecodeError(f"{where}.units: expected an object, found {_describe(units_raw)}")
    count_units(units_raw, f"{where}.units")
    units = {space: ungroup_units(groups, f"{where}.units.{space}")
             for space, groups in units_raw.items()}
    so_raw = data.get("standing_orders", {})
    if not isinstance(so_raw, dict):
        raise DecodeError(f"{where}.standing_orders: expected an object, found {_describe(so_raw)}")
    standing = {p: structure(v, StandingOrders, f"{where}.standing_orders.{p}")
                for p, v in so_raw.items()}
    winner = data.get("winner")
    if winner is not None and not isinstance(winner, str):
        raise DecodeError(f"{where}.winner: expected a string or null, found {_describe(winner)}")
    turn_number = data.get("turn_number", 1)
    for key, value in (("round", data["round"]), ("turn_number", turn_number)):
        if type(value) is not int:
            raise DecodeError(f"{where}.{key}: expected an integer, found {_describe(value)}")
    bounds = [("round", data["round"], 0, MAX_ROUND), ("turn_number", turn_number, 1, MAX_TURN_NUMBER)]
    bounds += [(f"ipcs.{p}", v, -MAX_IPCS, MAX_IPCS) for p, v in ipcs.items()]
    for key, value, low, high in bounds:
        if not low <= value <= high:
            raise DecodeError(f"{where}.{key}: {value} is out of range ({low} to {high})")
    relations = _str_map(data.get("relations", {}), f"{where}.relations", str)
    extras = data.get("extras", {})
    if not isinstance(extras, dict):
        raise DecodeError(f"{where}.extras: expected an object, found {_describe(extras)}")
    return GameState(
        game_id=_req_str(data, "game_id", where),
        map_id=_req_str(data, "map_id", where),
        round=data["round"],
        power=_req_str(data, "power", where),
        owners=owners,
        units=units,
        ipcs=ipcs,
        standing_orders=standing,
        winner=winner,
        turn_number=turn_number,
        relations=relations,
        extras=extras,
    )


def within_limits(state: GameState) -> bool:
    """Whether ``decode_state`` would accept ``state``'s numbers: its units (cargo counted)
    at most ``MAX_UNITS``, round, turn number and treasuries in range (for a state read
    another way, e.g. proven equal to a re-adjudication's)."""
    if not (0 <= state.round <= MAX_ROUND and 1 <= state.turn_number <= MAX_TURN_NUMBER
            and all(-MAX_IPCS <= v <= MAX_IPCS for v in state.ipcs.values())):
        return False
    total = 0
    for units in state.units.values():
        total += _units_in(units)
        if total > MAX_UNITS:
            return False
    return True


# id of a unit tuple -> (the tuple, kept so the id stays its own; its units, cargo counted):
# a state's spaces, most of them the very tuples of the turn before (an audit's replay)
_UNITS_COUNTED: dict[int, tuple[tuple, int]] = {}
_MAX_UNITS_COUNTED = 20_000


def _units_in(units: tuple) -> int:
    """The units of a space's tuple, cargo counted (more than ``MAX_UNITS``: counting
    stopped there)."""
    found = _UNITS_COUNTED.get(id(units))
    if found is not None and found[0] is units:
        return found[1]
    total, pending = 0, [units]
    while pending:
        here = pending.pop()
        total += len(here)
        pending.extend(u.cargo for u in here if u.cargo)
        if total > MAX_UNITS:
            return total
    if len(_UNITS_COUNTED) >= _MAX_UNITS_COUNTED:
        _UNITS_COUNTED.clear()
    _UNITS_COUNTED[id(units)] = (units, total)
    return total


converter.register_unstructure_hook(GameState, encode_state)
converter.register_structure_hook(GameState, lambda d, _t: decode_state(d))


# --------------------------------------------------------------------------- events & orders

def encode_event(event: Event) -> dict:
    return _unstructure_event(event)


def decode_event(data) -> Event:
    from ..model.events import Event
    return structure(data, Event, "event")


def encode_events(events) -> list[dict]:
    return [_unstructure_event(e) for e in events]


def decode_events(data, where: str = "events") -> tuple[Event, ...]:
    from ..model.events import Event
    return structure(data, tuple[Event, ...], where)


def encode_standing_orders(orders: StandingOrders) -> dict:
    return converter.unstructure(orders, StandingOrders)


def decode_standing_orders(data, where: str = "standing_orders") -> StandingOrders:
    return structure(data, StandingOrders, where)


# --------------------------------------------------------------------------- generic

def unstructure(obj, as_type=None):
    """Any project value -> plain JSON-able data."""
    return converter.unstructure(obj, as_type) if as_type is not None else converter.unstructure(obj)


def structure(data, cls: type[T], where: str = "document") -> T:
    """Plain data -> ``cls``, converting cattrs' validation errors into one ``DecodeError``
    whose message lists the problems with their locations."""
    try:
        return converter.structure(data, cls)
    except DecodeError as exc:
        raise DecodeError(f"{where}: {exc}") from None
    except cattrs.BaseValidationError as exc:
        problems = []
        for line in cattrs.transform_error(exc, path=where, format_exception=_format_exception):
            message, sep, location = line.rpartition(" @ ")
            problems.append(f"{location}: {message}" if sep else line)
        shown = "; ".join(problems[:5])
        if len(problems) > 5:
            shown += f"; and {len(problems) - 5} more"
        raise DecodeError(shown) from None
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise DecodeError(f"{where}: {exc}") from None


def canonical_json(obj) -> bytes:
    """Deterministic bytes for ``obj``: UTF-8 (no ASCII escaping), keys sorted, two-space
    indentation, a list of plain numbers on one line (dice faces stay readable), one
    trailing newline.  attrs instances are unstructured with the project converter."""
    if attrs.has(type(obj)):                # an event too
        obj = converter.unstructure(obj)
    # The layout of ``_dump`` (which stays as its definition; a test compares the two),
    # written by one recursive walk into a list of pieces: json.dumps with ``indent``
    # runs json's pure-Python generators, several times slower on a turn file.
    out: list[str] = []
    _write(obj, out, "\n")
    out.append("\n")
    try:
        return "".join(out).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise StateFileError(f"text cannot be written as UTF-8: {exc.reason}") from None


_encode_str = json.encoder.encode_basestring        # json's own (C) string escaping
_float_repr = float.__repr__
_int_repr = int.__repr__


def _number(value) -> str:
    if isinstance(value, int):
        return _int_repr(value)
    if value != value or value in (_INFINITY, -_INFINITY):
        raise ValueError(f"Out of range float values are not JSON compliant: {value!r}")
    return _float_repr(value)


_INFINITY = float("inf")
# (count, owner, type, line start) -> a plain unit group's text: a state repeats a few
# thousand of them, turn after turn
_GROUP_TEXT: dict[tuple[int, str, str, str], str] = {}
_MAX_GROUP_TEXTS = 20_000
# (id of a unit tuple, line start) -> (the tuple, kept so the id stays its own; the text
# of its groups): a state's spaces, most of them as they were the turn before
_UNITS_TEXT: dict[tuple[int, str], tuple[tuple, str]] = {}
_MAX_UNITS_TEXTS = 20_000
# line start -> (a copy of the last large dict of str keys and values written there, its
# text): a state's owners, most turns as they were the turn before
_NAMES_TEXT: dict[str, tuple[dict, str]] = {}
_NAMES_MIN = 32


def _group_text(group: dict, newline: str) -> str | None:
    """The text of a unit group of the usual shape (``count``, ``owner``, ``type``) that
    starts a line after ``newline``, made once for each such group and line start (None:
    not of that shape, for ``_write`` to write)."""
    count, owner, utype = group["count"], group["owner"], group["type"]
    if type(count) is not int or type(owner) is not str or type(utype) is not str:
        return None
    key = (count, owner, utype, newline)
    text = _GROUP_TEXT.get(key)
    if text is None:
        if len(_GROUP_TEXT) >= _MAX_GROUP_TEXTS:
            _GROUP_TEXT.clear()
        inner = newline + "  "
        text = _GROUP_TEXT[key] = (
            "{" + inner + '"count": ' + _int_repr(count) + "," + inner + '"owner": '
            + _encode_str(owner) + "," + inner + '"type": ' + _encode_str(utype) + newline
            + "}")
    return text


def _write(value, out: list, newline: str) -> None:
    """Append the canonical text of ``value`` to ``out``; ``newline`` is a line break
    followed by the indentation of the line ``value`` starts on."""
    kind = type(value)
    if kind is str:
        out.append(_encode_str(value))
    elif kind is UnitGroups:
        units = value.units
        key = (id(units), newline)
        found = _UNITS_TEXT.get(key)
        if found is None or found[0] is not units:
            text: list[str] = []
            _write(list(value), text, newline)
            if len(_UNITS_TEXT) >= _MAX_UNITS_TEXTS:
                _UNITS_TEXT.clear()
            found = _UNITS_TEXT[key] = (units, "".join(text))
        out.append(found[1])
    elif kind is dict or (kind is not list and kind is not tuple and isinstance(value, dict)):
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        if value.keys() == _PLAIN_GROUP:       # a unit group: most of a state, in one piece
            text = _group_text(value, newline)
            if text is not None:
                out.append(text)
                return
        if len(value) >= _NAMES_MIN:              # a state's owners: as the turn before?
            last = _NAMES_TEXT.get(newline)
            if last is not None and last[0] == value:
                out.append(last[1])
                return
        for key in value:
            if type(key) is not str and not isinstance(key, str):
                raise TypeError("canonical JSON keys must be strings")
        first = True
        start = len(out)
        names = True                       # every key and value a str
        for key, item in sorted(value.items()):
            if type(item) is str:          # most values (owners...): written here at once
                out.append(("{" if first else ",") + inner + _encode_str(key) + ": "
                           + _encode_str(item))
            else:
                names = False
                out.append(("{" if first else ",") + inner + _encode_str(key) + ": ")
                _write(item, out, inner)
            first = False
        out.append(newline + "}")
        if names and len(value) >= _NAMES_MIN:
            # equal to a dict of str values only if its values are equal strs: same text
            _NAMES_TEXT[newline] = (dict(value), "".join(out[start:]))
    elif kind is list or kind is tuple or isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        if type(value[0]) is not dict and all(
                (type(v) is int or type(v) is float
                 or (isinstance(v, (int, float)) and not isinstance(v, bool))) for v in value):
            out.append("[" + ", ".join(map(_number, value)) + "]")
            return
        inner = newline + "  "
        opening = "[" + inner
        for item in value:
            if type(item) is dict and item.keys() == _PLAIN_GROUP:     # unit groups
                text = _group_text(item, inner)
                if text is not None:
                    out.append(opening + text)
                    opening = "," + inner
                    continue
            out.append(opening)
            opening = "," + inner
            _write(item, out, inner)
        out.append(newline + "]")
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, (int, float)):
        out.append(_number(value))
    else:
        raise TypeError(f"Object of type {kind.__name__} is not JSON serializable")


def _scalar(value) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def _dump(value, depth: int) -> str:
    """The canonical layout (what ``json.dumps(sort_keys=True, indent=2)`` gives, except
    that a non-empty list of numbers is written on one line as ``[1, 2, 3]``)."""
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = sorted(value.items())
        if any(not isinstance(k, str) for k, _ in items):
            raise TypeError("canonical JSON keys must be strings")
        body = ",\n".join(f"{inner}{_scalar(k)}: {_dump(v, depth + 1)}" for k, v in items)
        return "{\n" + body + "\n" + pad + "}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return "[" + ", ".join(_scalar(v) for v in value) + "]"
        body = ",\n".join(inner + _dump(v, depth + 1) for v in value)
        return "[\n" + body + "\n" + pad + "]"
    return _scalar(value)


# --------------------------------------------------------------------------- helpers

def _format_exception(exc: BaseException, type_) -> str:
    if isinstance(exc, (DecodeError, TypeError, ValueError)) and not isinstance(
            exc, cattrs.ForbiddenExtraKeysError) and exc.args:
        return str(exc)
    return cattrs.v.format_exception(exc, type_)


def _describe(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _req_str(data: dict, key: str, where: str) -> str:
    if key not in data:
        raise DecodeError(f"{where}: missing field {key}")
    value = data[key]
    if not isinstance(value, str):
        raise DecodeError(f"{where}.{key}: expected a string, found {_describe(value)}")
    return value


def _str_map(value, where: str, vtype: type) -> dict:
    if not isinstance(value, dict):
        raise DecodeError(f"{where}: expected an object, found {_describe(value)}")
    for k, v in value.items():
        if type(v) is not vtype:
            label = "a string" if vtype is str else "an integer"
            raise DecodeError(f"{where}.{k}: expected {label}, found {_describe(v)}")
    return dict(value)


__all__ = [
    "DecodeError", "canonical_json", "converter", "decode_event", "decode_events",
    "decode_standing_orders", "decode_state", "encode_event", "encode_events",
    "encode_standing_orders", "encode_state", "group_units", "structure", "ungroup_units",
    "unstructure", "within_limits",
]
