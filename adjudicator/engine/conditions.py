"""Evaluate the condition language of ``model.conditions`` on a board position."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..model.errors import DataError
from ..model.game import Game
from ..model.rules import WAR

ORIGINAL_TAG = "original_owner:"
ATTACKED = "attacked"                          # per-power state: spaces it has attacked
UNPROVOKED = "unprovoked_declarations"         # per-power state: powers it declared war on unprovoked
OWNER_GROUPS = ("power", "friends", "foes")


def original_owner(territory) -> str | None:
    """The owner whose emblem ``territory`` bears: its tag ``original_owner:<key>`` (land an
    edition hands to another owner at the start), else its owner at the start."""
    for tag in territory.tags:
        if tag.startswith(ORIGINAL_TAG):
            return tag[len(ORIGINAL_TAG):]
    return territory.original_owner


def territory_set(game: Game, spec: Any) -> tuple[str, ...]:
    """A list of territory names; a tag ("victory_cities", "capitals", "all_spaces": every
    land and sea space of the map, or a territory tag);
    or a table ``{original = <owner or owners>, without_tag = <tag>}``: the land those
    owners' emblems mark, less the spaces with that tag."""
    if isinstance(spec, (list, tuple)):
        return tuple(spec)
    terr = game.map.territories.values()
    if isinstance(spec, Mapping):
        owners = spec.get("original", ())
        owners = (owners,) if isinstance(owners, str) else tuple(owners)
        without = spec.get("without_tag")
        return tuple(t.key for t in terr if original_owner(t) in owners
                     and (without is None or without not in t.tags))
    if spec == "victory_cities":
        return tuple(t.key for t in terr if t.victory_city)
    if spec == "capitals":
        return tuple(t.key for t in terr if t.capital_of)
    if spec == "all_spaces":
        return tuple(t.key for t in terr)
    return tuple(t.key for t in terr if spec in t.tags)


def _group(game: Game, subject: str, group: str, owner: str | None) -> bool:
    """Whether ``owner`` is in ``group`` as seen by the power ``subject``: ``power`` (the
    subject itself), ``friends`` (another power of its side), ``foes`` (a power of another
    side)."""
    powers = game.ruleset.powers
    if owner is None or owner not in powers:
        return False
    if group == "power":
        return owner == subject
    same = powers[owner].side == powers[subject].side
    return (same and owner != subject) if group == "friends" else not same


def holds(game: Game, cond: Mapping[str, Any], subject: str, owners: Mapping[str, str],
          round_: int, by_side: bool = True,
          state: Mapping[str, Any] | None = None, board: Any = None) -> tuple[bool, tuple[str, ...]]:
    """Whether ``cond`` holds for ``subject`` (a side, or a power with ``by_side=False``),
    and the territories it counted (for the event that reports it).  ``state``: the
    editions' persistent values (``GameState.extras``) that ``{state = key}`` reads.
    ``board``: the ``WorkingBoard`` that the shapes about units and war read (its
    relations, units and per-power state)."""
    rules = game.ruleset

    def again(c):
        return holds(game, c, subject, owners, round_, by_side, state, board)

    if "controls" in cond:
        spaces = territory_set(game, cond["controls"])
        by = cond.get("by", "side" if by_side else "power")
        side = rules.side_of(subject) if subject in rules.powers else subject

        def mine(owner: str | None) -> bool:
            if owner is None:
                return False
            if by not in ("side", "power", "other_side"):
                return owner == by                   # a named owner (a neutral nation)
            if owner not in rules.powers:
                return False
            if by == "side":
                return rules.side_of(owner) == side
            if by == "other_side":
                return rules.side_of(owner) != side
            return owner == subject

        held = tuple(s for s in spaces if mine(owners.get(s)))
        need = cond.get("count", len(spaces))
        return len(held) >= need, held
    if "all" in cond:
        found: tuple[str, ...] = ()
        for c in cond["all"]:
            ok, held = again(c)
            if not ok:
                return False, ()
            found += held
        return True, found
    if "any" in cond:
        for c in cond["any"]:
            ok, held = again(c)
            if ok:
                return True, held
        return False, ()
    if "not" in cond:
        ok, _ = again(cond["not"])
        return not ok, ()
    if "round_at_least" in cond:
        return round_ >= cond["round_at_least"], ()
    if "state" in cond:
        value = (state or {}).get(cond["state"])
        if "equals" in cond:                       # ``equals = "subject"``: the side or power checked
            return value == (subject if cond["equals"] == "subject" else cond["equals"]), ()
        return bool(value), ()
    if board is None:
        raise DataError(f"condition {dict(cond)!r} needs the board (units, relations)")
    if "at_war_with" in cond:
        spec = cond["at_war_with"]
        others = [p for p in rules.powers if p != subject] if spec == "anyone" else list(spec)
        at_war = [p for p in others if rules.relation(subject, p, board.relations) == WAR]
        need = cond.get("count", 1 if spec == "anyone" else len(others))
        return len(at_war) >= need, ()
    if "units" in cond:
        return _units_present(game, cond, subject, board)
    if "attacked" in cond:
        done = set(board.read_state(ATTACKED, subject) or ())
        return bool(done & set(territory_set(game, cond["attacked"]))), ()
    if "declared_unprovoked_on" in cond:
        done = set(board.read_state(UNPROVOKED, subject) or ())
        return bool(done & set(cond["declared_unprovoked_on"])), ()
    raise DataError(f"unknown condition {dict(cond)!r}")


def _units_present(game: Game, cond, subject: str, board) -> tuple[bool, tuple[str, ...]]:
    """``{units = <territories>, owner = power|friends|foes, types = [...] | domain = ...,
    count = N}``: at least ``count`` (default 1) such units (cargo aboard counted) in those
    spaces; the spaces where they are."""
    group = cond.get("owner", "power")
    types = cond.get("types")
    domain = cond.get("domain")
    found, where = 0, []
    for space in territory_set(game, cond["units"]):
        here = 0
        for piece in board.at(space, include_cargo=True):
            ut = board.utype(piece)
            if not _group(game, subject, group, piece.owner):
                continue
            if types is not None and piece.type not in types:
                continue
            if domain is not None and ut.domain.value != domain:
                continue
            here += 1
        if here:
            found += here
            where.append(space)
    return found >= cond.get("count", 1), tuple(where)


KEYS = ("controls", "all", "any", "not", "round_at_least", "state", "at_war_with", "units",
        "attacked", "declared_unprovoked_on")
_EXTRA = {"controls": {"count", "by"}, "at_war_with": {"count"},
          "units": {"owner", "types", "domain", "count"}}


def check_condition(cond: Any, where: str) -> list[str]:
    """Problems with the shape of a condition from data (for the loader)."""
    if not isinstance(cond, Mapping):
        return [f"{where}: a condition must be a table"]
    keys = [k for k in KEYS if k in cond]
    if len(keys) != 1:
        return [f"{where}: a condition needs exactly one of {', '.join(KEYS)}"]
    key = keys[0]
    if key in ("all", "any"):
        items = cond[key]
        if not isinstance(items, list) or not items:
            return [f"{where}.{key}: must be a non-empty list of conditions"]
        return [p for i, c in enumerate(items) for p in check_condition(c, f"{where}.{key}[{i}]")]
    if key == "not":
        return check_condition(cond["not"], f"{where}.not")
    if key == "round_at_least":
        return [] if isinstance(cond[key], int) else [f"{where}: round_at_least must be an integer"]
    if key == "state":
        problems = [] if isinstance(cond[key], str) else [f"{where}: state must be the name of a value"]
        extra = set(cond) - {"state", "equals"}
        if extra:
            problems.append(f"{where}: unknown key(s) {', '.join(sorted(extra))}")
        if "equals" in cond and not isinstance(cond["equals"], str):
            problems.append(f"{where}: equals must be a string (\"subject\": the side or power checked)")
        return problems
    problems = []
    extra = set(cond) - {key} - _EXTRA.get(key, set())
    if extra:
        problems.append(f"{where}: unknown key(s) {', '.join(sorted(extra))}")
    if "count" in cond and not (isinstance(cond["count"], int) and cond["count"] >= 1):
        problems.append(f"{where}: count must be a positive integer")
    if key == "controls" and not isinstance(cond.get("by", "side"), str):
        problems.append(f"{where}: by must be 'side', 'power', 'other_side' or an owner")
    if key == "at_war_with" and not (cond[key] == "anyone" or _names(cond[key])):
        problems.append(f"{where}: at_war_with must be 'anyone' or a list of powers")
    if key == "declared_unprovoked_on" and not _names(cond[key]):
        problems.append(f"{where}: declared_unprovoked_on must be a list of powers")
    if key == "units":
        if cond.get("owner", "power") not in OWNER_GROUPS:
            problems.append(f"{where}: owner must be one of {', '.join(OWNER_GROUPS)}")
        if "types" in cond and not _names(cond["types"]):
            problems.append(f"{where}: types must be a list of unit types")
        if cond.get("domain", "land") not in ("land", "sea", "air"):
            problems.append(f"{where}: domain must be land, sea or air")
    return problems


def _names(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)
