"""Who takes the hits: deterministic casualty choice (``apply_side_hits``).

**Default casualty choice** (used where the loss order a player gave does not decide):

1. A unit with more than one hit point (battleship) takes a *free* hit before any unit is
   lost; its damage lasts the whole battle (``two_hits`` decides when it is repaired).
   This applies even with an explicit loss order (taking the free hit is never worse).
2. Otherwise units are lost in loss order: types named in the player's loss order first,
   in that order; then the rest cheapest first (by cost, then by lower combat value on that
   side, then empty before loaded carriers/transports, then sea-borne before overland) --
   or, for the defender of an edition whose ``default_losses`` option is ``"weakest"``,
   lowest defence first, then cheapest (``BattleSetup.defender_default``).
3. In a land battle the attacker keeps its last land unit that can capture over its air
   units (so it can still take the territory), unless its loss order names both that land
   unit's type and the air unit's type.
4. ``taken_last`` units take a hit only when no other eligible unit remains; a hit no unit
   can legally take is lost.

Hits are assigned class by class, the most restricted first (``Board.assign_order``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import ATT, DEF, BattleState, Side, Volley


def hits_by_class(board, target_idx: int, target: Side,
                  class_hits) -> tuple[tuple[int, int], ...]:
    """Sum hits aimed at ``target`` per target class, in assignment order.  A restriction
    bit that cannot matter against the target's present units is dropped, so equivalent
    hits merge; aimed classes are kept as they are."""
    relevance = board.summary(target_idx, target).relevance
    totals: dict[int, int] = {}
    for cls, n in class_hits:
        c = cls if cls >= 8 else cls & relevance
        totals[c] = totals.get(c, 0) + n
    return tuple((c, totals[c]) for c in board.assign_order if totals.get(c))


def apply_side_hits(board, side_idx: int, side: Side, class_hits: tuple[tuple[int, int], ...]):
    """Give hits (from ``hits_by_class``) to one side's units.  Returns (new side,
    ((slot, "damage"|"kill"), ...)).

    Hits are given one at a time and each choice depends only on the side as it stands, so
    giving ``h`` hits of one class equals giving ``h - 1`` and then one more (the odds
    calculator relies on this; a test checks it)."""
    key = (side_idx, side, class_hits)
    found = board._side_hits.get(key)
    if found is None:
        found = board._side_hits[key] = _apply_side_hits(board, side_idx, side, class_hits)
    return found


def _apply_side_hits(board, side_idx: int, side: Side, class_hits):
    slots = board.slots[side_idx]
    present = list(board.summary(side_idx, side).present)
    alive = list(side.alive)
    damaged = list(side.damaged)
    log: list[tuple[int, str]] = []
    listed = board.loss_sets[side_idx]
    keep_land = side_idx == ATT and not board.is_sea
    two_hits = board.has_two_hits[side_idx]
    capturers = [i for i, s in enumerate(slots) if s.captures]
    for cls, n in class_hits:
        first_choice, last_choice = board.eligible[side_idx][cls]
        for _ in range(n):
            cand = first_choice if any(present[i] for i in first_choice) else last_choice
            pick = -1
            if two_hits:                           # 1. free hit on an undamaged unit
                for i in cand:
                    if present[i] > damaged[i] and slots[i].two_hits:
                        pick = i
                        break
                if pick >= 0:
                    damaged[pick] += 1
                    log.append((pick, "damage"))
                    continue
            for i in cand:                         # 2. first in loss order
                if present[i]:
                    pick = i
                    break
            if pick < 0:
                break                              # nobody can take this hit: it is lost
            first = slots[pick]
            if keep_land and first.captures and present[pick] == 1 and \
                    sum(present[i] for i in capturers) == 1:
                for i in cand:                     # 3. keep the last land unit over aircraft
                    s = slots[i]
                    if i != pick and present[i] and s.is_air and \
                            not (first.key in listed and s.key in listed):
                        pick = i
                        break
            alive[pick] -= 1
            present[pick] -= 1
            if damaged[pick]:
                damaged[pick] -= 1
            log.append((pick, "kill"))
    new = Side(tuple(alive), tuple(damaged), side.submerged, side.retreated)
    return new, tuple(log)


def apply_hits(board, state: BattleState, stage_volleys: Sequence[Volley], hits: Sequence[int]):
    """Apply one stage's hits (one count per volley, simultaneous fire).  Returns
    (new state, (attacker casualty log, defender casualty log))."""
    key = (state.att, state.dfn, tuple(stage_volleys), tuple(hits))
    found = board._pair_hits.get(key)
    if found is None:
        found = board._pair_hits[key] = _apply_hits(board, state, stage_volleys, hits)
    att, dfn, logs = found
    return state._replace(att=att, dfn=dfn), logs


def _apply_hits(board, state: BattleState, stage_volleys, hits):
    to_att = hits_by_class(board, ATT, state.att,
                           [(v.cls, h) for v, h in zip(stage_volleys, hits) if v.side == DEF])
    to_def = hits_by_class(board, DEF, state.dfn,
                           [(v.cls, h) for v, h in zip(stage_volleys, hits) if v.side == ATT])
    att, log_a = apply_side_hits(board, ATT, state.att, to_att) if to_att else (state.att, ())
    dfn, log_d = apply_side_hits(board, DEF, state.dfn, to_def) if to_def else (state.dfn, ())
    return att, dfn, (log_a, log_d)
