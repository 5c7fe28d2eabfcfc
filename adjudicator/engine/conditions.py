"""Evaluate the condition language of ``model.conditions`` on a board position."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..model.errors import DataError
from ..model.game import Game


def territory_set(game: Game, spec: Any) -> tuple[str, ...]:
    """A list of territory names, or a tag: "victory_cities", "capitals" or a territory tag."""
    if isinstance(spec, (list, tuple)):
        return tuple(spec)
    terr = game.map.territories.values()
    if spec == "victory_cities":
        return tuple(t.key for t in terr if t.victory_city)
    if spec == "capitals":
        return tuple(t.key for t in terr if t.capital_of)
    return tuple(t.key for t in terr if spec in t.tags)


def holds(game: Game, cond: Mapping[str, Any], subject: str, owners: Mapping[str, str],
          round_: int, by_side: bool = True,
          state: Mapping[str, Any] | None = None) -> tuple[bool, tuple[str, ...]]:
    """Whether ``cond`` holds for ``subject`` (a side, or a power with ``by_side=False``),
    and the territories it counted (for the event that reports it).  ``state``: the
    editions' persistent values (``GameState.extras``) that ``{state = key}`` reads."""
    rules = game.ruleset
    if "controls" in cond:
        spaces = territory_set(game, cond["controls"])
        by = cond.get("by", "side" if by_side else "power")

        def mine(owner: str | None) -> bool:
            if owner is None or owner not in rules.powers:
                return False
            return rules.side_of(owner) == subject if by == "side" else owner == subject

        held = tuple(s for s in spaces if mine(owners.get(s)))
        need = cond.get("count", len(spaces))
        return len(held) >= need, held
    if "all" in cond:
        found: tuple[str, ...] = ()
        for c in cond["all"]:
            ok, held = holds(game, c, subject, owners, round_, by_side, state)
            if not ok:
                return False, ()
            found += held
        return True, found
    if "any" in cond:
        for c in cond["any"]:
            ok, held = holds(game, c, subject, owners, round_, by_side, state)
            if ok:
                return True, held
        return False, ()
    if "not" in cond:
        ok, _ = holds(game, cond["not"], subject, owners, round_, by_side, state)
        return not ok, ()
    if "round_at_least" in cond:
        return round_ >= cond["round_at_least"], ()
    if "state" in cond:
        return bool((state or {}).get(cond["state"])), ()
    raise DataError(f"unknown condition {dict(cond)!r}")


KEYS = ("controls", "all", "any", "not", "round_at_least", "state")


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
        return [] if isinstance(cond[key], str) else [f"{where}: state must be the name of a value"]
    problems = []
    extra = set(cond) - {"controls", "count", "by"}
    if extra:
        problems.append(f"{where}: unknown key(s) {', '.join(sorted(extra))}")
    if "count" in cond and not (isinstance(cond["count"], int) and cond["count"] >= 1):
        problems.append(f"{where}: count must be a positive integer")
    if cond.get("by", "side") not in ("side", "power"):
        problems.append(f"{where}: by must be 'side' or 'power'")
    return problems
