"""Low Luck dice (the tournament dice mode, ``BattleSetup.low_luck``; rulings in
docs/low-luck.md).

Within a stage, a side's volleys of one battle step whose hits go to the same target class
(``casualties.hits_by_class``'s class, reduced for the side they hit) form one *group*.  A
group worth ``total`` attack points (count x value, values capped at the dice's sides)
scores ``total // sides`` hits for certain and rolls one die for the remainder, hitting on
``total % sides`` or less.  Who takes the hits is unchanged: the group's hits go to its
class like ordinary hits.  ``hitdist.HitDists`` gives the exact odds the same grouping.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...model.dice import DiceSource
from ...model.events import LowLuckRolled
from .board import AIMED
from .model import ATT, DEF, SIDE_NAMES, BattleState, Volley


def group_key(board, state: BattleState, v: Volley) -> tuple[int, str, int]:
    """(firing side, step, target class as the target side sees it)."""
    target = state.dfn if v.side == ATT else state.att
    relevance = board.summary(DEF if v.side == ATT else ATT, target).relevance
    return v.side, v.step, v.cls if v.cls >= AIMED else v.cls & relevance


def roll_groups(board, state: BattleState, vols: Sequence[Volley], dice: DiceSource,
                battle: str, rnd: int) -> tuple[list[int], list[LowLuckRolled]]:
    """Roll one stage with Low Luck: (hits per volley -- a group's hits on its first
    volley --, one event per group, in volley order)."""
    sides = dice.sides
    groups: dict[tuple[int, str, int], list[int]] = {}
    for i, v in enumerate(vols):
        groups.setdefault(group_key(board, state, v), []).append(i)
    hits = [0] * len(vols)
    events = []
    for (side, step, cls), members in groups.items():
        units: dict[str, int] = {}
        total = 0
        for i in members:
            v = vols[i]
            # aimed dice (AA fire: one per aircraft) name the aircraft they are aimed at
            name = board.type_order[cls - AIMED] if cls >= AIMED else v.unit_type
            units[name] = units.get(name, 0) + v.count
            total += v.count * max(0, min(v.target, sides))
        sure, rest = divmod(total, sides)
        faces: tuple[int, ...] = ()
        if rest:
            names = "+".join(units)
            extra = "" if step in ("attack", "defence") else " " + step
            faces = tuple(dice.roll(1, f"{battle} r{rnd} {SIDE_NAMES[side]} low luck {names} "
                                       f"@{rest}{extra}"))
        got = sure + sum(1 for f in faces if f <= rest)
        hits[members[0]] = got
        first = vols[members[0]]
        events.append(LowLuckRolled(battle, rnd, step, SIDE_NAMES[side], first.unit_type, rest,
                                    faces, got, units, total, sure))
    return hits, events
