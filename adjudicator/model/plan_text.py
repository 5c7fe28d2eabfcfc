"""A board battle plan (``model.tactical.BattlePlan``) as one line of canonical text, and
back: what the defender's standing plan keeps as its value in the game state, and how the
orders write either side's plan.

The canonical text is clauses joined by ``", "``, in this order::

    wedge, hold, target tanks_first, fire at 4, tank_4 at G3 H3, at_gun at G1, mines G5 F5

the formation, the stance, ``target <priority>``, ``fire at <2-6>``, then one clause per
unit type with own squares (``<unit type key> at <square> ...``: one square per unit of
that type, the first unit first) and ``mines <square> ...``.  A plan's squares name unit
type keys (the plan interpreter deploys the units of that type on them in its order).
``plan_from_text`` reads only this form (a stored value); the forgiving reading of what
players write is ``io.plan_words``.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .battle_plan import STANCES, TARGET_PRIORITIES, BattlePlan, Doctrine

MAX_PLAN_TEXT = 2_000        # characters: far above 26 squares and 26 mines
_SQUARE = re.compile(r"^[A-Z][1-9][0-9]?$")
_KEY = re.compile(r"^[a-z][a-z0-9_]*$")


def plan_text(plan: BattlePlan, unit_name: Callable[[str], str] | None = None) -> str:
    """``plan`` as its canonical text: units by type key, or by ``unit_name(key)`` (the
    orders' writing, which reads back the same)."""
    doctrine = plan.doctrine
    parts = [plan.formation, doctrine.stance, f"target {doctrine.target}", f"fire at {doctrine.fire_at}"]
    for key, squares in grouped_squares(plan):
        parts.append(f"{unit_name(key) if unit_name else key} at {' '.join(squares)}")
    if plan.mines:
        parts.append("mines " + " ".join(plan.mines))
    return ", ".join(parts)


def grouped_squares(plan: BattlePlan) -> list[tuple[str, list[str]]]:
    """The plan's own squares by unit type, in the order the types first appear."""
    groups: dict[str, list[str]] = {}
    for key, square in plan.squares:
        groups.setdefault(key, []).append(square)
    return list(groups.items())


def plan_from_text(text: str) -> BattlePlan:
    """The plan a canonical text names; ``ValueError`` saying what is wrong otherwise."""
    if len(text) > MAX_PLAN_TEXT:
        raise ValueError(f"a plan of {len(text)} characters (at most {MAX_PLAN_TEXT})")
    parts = [p.strip() for p in text.split(",")]
    if len(parts) < 4:
        raise ValueError(f"a plan needs a formation, a stance, a target and a fire rule: {text!r}")
    formation, stance, target, fire = parts[:4]
    if not _KEY.match(formation):
        raise ValueError(f"not a formation name: {formation!r}")
    if stance not in STANCES:
        raise ValueError(f"not a stance: {stance!r} (known: {', '.join(STANCES)})")
    words = target.split()
    if len(words) != 2 or words[0] != "target" or words[1] not in TARGET_PRIORITIES:
        raise ValueError(f"not a target priority: {target!r} (known: {', '.join(TARGET_PRIORITIES)})")
    match = re.fullmatch(r"fire at ([2-6])", fire)
    if match is None:
        raise ValueError(f"not a fire rule ('fire at 2' to 'fire at 6'): {fire!r}")
    squares: list[tuple[str, str]] = []
    mines: tuple[str, ...] = ()
    for part in parts[4:]:
        words = part.split()
        if len(words) >= 2 and words[0] == "mines" and not mines:
            mines = tuple(_squares(words[1:]))
        elif len(words) >= 3 and words[1] == "at" and _KEY.match(words[0]):
            squares.extend((words[0], s) for s in _squares(words[2:]))
        else:
            raise ValueError(f"not a unit's squares or the mines: {part!r}")
    return BattlePlan(formation=formation, squares=tuple(squares), mines=mines,
                      doctrine=Doctrine(stance=stance, target=target.split()[1],
                                        fire_at=int(match.group(1))))


def _squares(words: list[str]) -> list[str]:
    for word in words:
        if not _SQUARE.match(word):
            raise ValueError(f"not a square name (a column letter and a row): {word!r}")
    return words
