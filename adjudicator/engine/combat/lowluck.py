"""Low Luck dice (the tournament dice mode, ``BattleSetup.low_luck``; rulings in
docs/low-luck.md).

Within a stage, a side's volleys of one battle step whose hits go to the same target class
(``casualties.hits_by_class``'s class, reduced for the side they hit) form one *group*.  A
group worth ``total`` attack points (count x value, values capped at the dice's sides)
scores ``total // sides`` hits for certain and rolls one die for the remainder, hitting on
``total % sides`` or less.  Who takes the hits is unchanged: the group's hits go to its
class like ordinary hits.  ``hitdist.HitDists`` gives the exact odds the same grouping.

A unit that rolls the best of several dice (ability ``best_of``) is worth its exact
expected hits, which are no whole number of pips: a group with such units is counted in
``sides ** k``-ths of a hit (k the most dice a unit of it keeps the best of: 36ths for
Heavy Bombers), a unit hitting on v with the best of n dice worth ``sides^k - (sides -
v)^n x sides^(k-n)`` (32 of 36 for a heavy bomber at 4, an ordinary unit at v worth
v x 6 of 36); the sure hits are the whole multiples of ``sides ** k`` and the remainder is
rolled with k dice read as one number (``read_number``), so the expected hits stay exact.
A group without such units is counted in pips as before, with one die.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...model.dice import DiceSource, read_number
from .board import AIMED
from .model import ATT, DEF, SIDE_NAMES, BattleState, Volley, group_points

if TYPE_CHECKING:
    from ...model.events import LowLuckRolled


def group_key(board, state: BattleState, v: Volley) -> tuple[int, str, int]:
    """(firing side, step, target class as the target side sees it)."""
    target = state.dfn if v.side == ATT else state.att
    relevance = board.summary(DEF if v.side == ATT else ATT, target).relevance
    return v.side, v.step, v.cls if v.cls >= AIMED else v.cls & relevance


def roll_groups(board, state: BattleState, vols: Sequence[Volley], dice: DiceSource,
                battle: str, rnd: int) -> tuple[list[int], list[LowLuckRolled]]:
    """Roll one stage with Low Luck: (hits per volley -- a group's hits on its first
    volley --, one event per group, in volley order)."""
    from ...model.events import LowLuckBestOfRolled, LowLuckRolled   # here: odds need none
    sides = dice.sides
    groups: dict[tuple[int, str, int], list[int]] = {}
    for i, v in enumerate(vols):
        groups.setdefault(group_key(board, state, v), []).append(i)
    hits = [0] * len(vols)
    events = []
    for (side, step, cls), members in groups.items():
        units: dict[str, int] = {}
        for i in members:
            v = vols[i]
            # aimed dice (AA fire: one per aircraft) name the aircraft they are aimed at
            name = board.type_order[cls - AIMED] if cls >= AIMED else v.unit_type
            units[name] = units.get(name, 0) + v.count
        scale, total = group_points([(vols[i].count, vols[i].target, vols[i].dice)
                                     for i in members], sides)
        per_hit = sides ** scale
        sure, rest = divmod(total, per_hit)
        faces: tuple[int, ...] = ()
        got = sure
        if rest:
            names = "+".join(units)
            extra = "" if step in ("attack", "defence") else " " + step
            of = "" if scale == 1 else f" of {per_hit}"
            faces = tuple(dice.roll(scale, f"{battle} r{rnd} {SIDE_NAMES[side]} low luck {names} "
                                           f"@{rest}{of}{extra}"))
            got += read_number(faces, sides) <= rest
        hits[members[0]] = got
        first = vols[members[0]]
        if scale == 1:
            events.append(LowLuckRolled(battle, rnd, step, SIDE_NAMES[side], first.unit_type,
                                        rest, faces, got, units, total, sure))
        else:
            events.append(LowLuckBestOfRolled(battle, rnd, step, SIDE_NAMES[side],
                                              first.unit_type, rest, faces, got, units, total,
                                              sure, per_hit))
    return hits, events
