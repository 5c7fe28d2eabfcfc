"""The rules between the dice: when a battle ends, who retreats, and the checks made at
the start and end of every round (rules digest §5.3.2 steps 2 and 6).

**Rulings** (digest §8):

* Stalemate (§8.6, recommended): when no remaining unit of either side can legally hit a
  unit of the other side, the battle ends ``"stalemate"``: nobody wins, the defender keeps
  the space, attacking air must go and land.
* Defenceless units (§5.3.2 step 6, §8.5): defending ``defenceless`` units are destroyed at
  once when the attacker has a unit able to hit them and the defender's other units can
  neither hit nor be hit by the attacker (only transports; or transports + subs against
  aircraft only).
* Attacking transports (§8.7/§8.8): when every attacking unit left is ``defenceless`` and a
  defender can hit them, the attacker retreats (to ``retreat_options[0]``, or the first
  retreat condition's destination) if it may, otherwise those units are destroyed
  (reason ``"cannot_retreat"``).  While the attacker has any other unit the battle goes on.
* Condition A counts units *on the board*: submerged subs and retreated units are gone.
  If neither side has units on the board the outcome is ``"both_destroyed"``, or
  ``"stalemate"`` when both sides still have units off the board (e.g. all subs submerged).
* Retreat (condition B) is checked at the end of each round from round
  ``max(1, min_rounds)`` on, after conditions A, defenceless units and stalemate.  Sea-borne
  units never retreat and fight on alone; aircraft retreat with the group (the turn engine
  lands them).  If sea-borne units left behind are then destroyed the outcome is
  ``"defender_wins"``; ``retreated_to`` tells where the others went, whatever the outcome.
* Retreat conditions compare the count (or, with ``measure="tuv"``, the cost) of a side's
  units on the board, cargo excluded; ``after_round=k`` holds once k rounds were fought; a
  condition with several parts needs all of them; one with none always holds.
* ``rounds`` counts the rounds begun (a round begins after the checks above).
"""

from __future__ import annotations

from ...model.orders import Comparison, RetreatCondition
from .model import ATT, DEF, BattleState, Change, Side, SideSummary
from .stepbase import get_step, round_decisions


def _compare(value: int, comparison, threshold: int) -> bool:
    op = Comparison(comparison)
    if op is Comparison.LT:
        return value < threshold
    if op is Comparison.LE:
        return value <= threshold
    if op is Comparison.GT:
        return value > threshold
    if op is Comparison.GE:
        return value >= threshold
    return value == threshold


def kill_present(board, side_idx: int, side: Side, which) -> tuple[Side, tuple]:
    """Remove every present unit of the slots selected by ``which(slot)``."""
    summ = board.summary(side_idx, side)
    alive = list(side.alive)
    damaged = list(side.damaged)
    gone = []
    for i, (s, n) in enumerate(zip(board.slots[side_idx], summ.present)):
        if n and which(s):
            alive[i] -= n
            damaged[i] = 0
            gone.append((i, n))
    return Side(tuple(alive), tuple(damaged), side.submerged, side.retreated), tuple(gone)


def destination(board, cond: RetreatCondition | None) -> str:
    """The condition's destination if legal, else the first legal one.  Without a condition
    (attacking transports alone), the first condition naming a legal destination decides."""
    if cond is None:
        cond = next((c for c in board.retreat if c.destination in board.retreat_options), None)
    if cond is not None and cond.destination in board.retreat_options:
        return cond.destination
    return board.retreat_options[0]


def retreat(board, state: BattleState, to: str, reason: str,
            condition: RetreatCondition | None = None):
    summ = board.summary(ATT, state.att)
    moving = tuple((i, n) for i, (s, n) in enumerate(zip(board.slots[ATT], summ.present))
                   if n and not s.seaborne)
    if not moving:
        return state, None
    att = state.att._replace(retreated=True)
    state = state._replace(att=att, retreat_to=to)
    if board.summary(ATT, att).n_present == 0:
        state = state._replace(outcome="attacker_retreats")
    return state, Change("retreat", ATT, moving, to, reason, condition)


def _condition_a(board, state: BattleState, sa: SideSummary, sd: SideSummary) -> str:
    if sa.n_present == 0 and not board.slots[DEF]:
        return "defender_wins"      # only units off the board defended (an AA gun)
    if sa.n_present == 0 and sd.n_present == 0:
        # nothing left on the board; if both sides still have units (submerged or
        # retreated), nobody won: a stalemate
        both_alive = any(state.att.alive) and any(state.dfn.alive)
        return "stalemate" if both_alive else "both_destroyed"
    return "defender_wins" if sa.n_present == 0 else "attacker_wins"


def settle(board, state: BattleState) -> tuple[BattleState, list[Change]]:
    """Checks made whenever the board changes outside the dice: condition A, defenceless
    defenders, attacking transports alone, stalemate (module docstring)."""
    changes: list[Change] = []
    while state.outcome is None:
        sa = board.summary(ATT, state.att)
        sd = board.summary(DEF, state.dfn)
        if state.round == 0 and opening_fire(board, sa, sd):
            break           # units off the board fire first (AA guns): the battle begins
        if sa.n_present == 0 or sd.n_present == 0:
            return state._replace(outcome=_condition_a(board, state, sa, sd)), changes
        if (sd.tmask_defenceless & sa.fire and not sd.fire & sa.tmask
                and not sa.fire & sd.tmask_other):
            dfn, gone = kill_present(board, DEF, state.dfn, lambda s: s.defenceless)
            changes.append(Change("defenceless", DEF, gone))
            state = state._replace(dfn=dfn)
            continue
        if sa.only_defenceless and sd.fire & sa.tmask:
            if board.retreat_options:
                state, change = retreat(board, state, destination(board, None), "no_fire")
                if change is not None:
                    changes.append(change)
                    continue
            att, gone = kill_present(board, ATT, state.att, lambda s: s.defenceless)
            changes.append(Change("cannot_retreat", ATT, gone))
            state = state._replace(att=att)
            continue
        if not sa.fire & sd.tmask and not sd.fire & sa.tmask:
            return state._replace(outcome="stalemate"), changes
        break
    return state, changes


def opening_fire(board, sa: SideSummary, sd: SideSummary) -> bool:
    """Whether a first-round-only step fires from units that are not on the board (an AA
    gun in a territory with no other defender still fires at the attacking aircraft)."""
    if not (board.support[ATT] or board.support[DEF]) or not sa.n_present:
        return False
    for stage in board.stages:
        for name in stage:
            step = get_step(name)
            if step.first_round_only and (step.volleys(board, ATT, None, sa, sd)
                                          or step.volleys(board, DEF, None, sd, sa)):
                return True
    return False


def decide_before_round(board, state: BattleState) -> tuple[BattleState, list[Change]]:
    """Start a round: ``settle``; if the battle goes on, begin the round (round + 1) and let
    the abilities on the board decide before any dice (e.g. submarines submerging), then
    settle again."""
    state, changes = settle(board, state)
    if state.outcome is not None:
        return state, changes
    state = state._replace(round=state.round + 1)
    moved = False
    for decide in round_decisions(board):
        state, more = decide(board, state)
        if more:
            changes.extend(more)
            moved = True
    if moved:
        state, more = settle(board, state)
        changes.extend(more)
    return state, changes


def condition_holds(board, state: BattleState, cond: RetreatCondition) -> bool:
    if cond.after_round is not None and state.round < cond.after_round:
        return False
    if cond.side is not None and cond.comparison is not None and cond.threshold is not None:
        if str(cond.side).startswith("att"):
            summ = board.summary(ATT, state.att)
        else:
            summ = board.summary(DEF, state.dfn)
        value = summ.tuv if cond.measure == "tuv" else summ.n_present
        if not _compare(value, cond.comparison, cond.threshold):
            return False
    return True


def end_of_round(board, state: BattleState) -> tuple[BattleState, list[Change]]:
    """Step 6: ``settle`` (condition A, defenceless units, stalemate), then condition B.
    The returned state has ``outcome`` set when the battle is over."""
    state, changes = settle(board, state)
    if state.outcome is not None or not board.retreat_options or state.att.retreated:
        return state, changes
    if state.round < max(1, board.min_rounds):
        return state, changes
    for cond in board.retreat:
        if condition_holds(board, state, cond):
            state, change = retreat(board, state, destination(board, cond), "condition", cond)
            if change is not None:
                changes.append(change)
            break
    return state, changes
