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

from typing import NamedTuple

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
                   if n and not s.seaborne and s.casualty_only is None)
    if not moving:
        return state, None
    att = state.att._replace(retreated=True)
    state = state._replace(att=att, retreat_to=to)
    if board.summary(ATT, att).n_present == 0:
        state = state._replace(outcome="attacker_retreats")
    return state, Change("retreat", ATT, moving, to, reason, condition)


def _in_battle(board, side_idx: int, side: Side) -> bool:
    """Whether the side has a unit left that is in the battle (not ``casualty_only``)."""
    return any(n for s, n in zip(board.slots[side_idx], side.alive) if s.casualty_only is None)


def _condition_a(board, state: BattleState, sa: SideSummary, sd: SideSummary) -> str:
    if sa.n_present == 0 and not board.slots[DEF]:
        return "defender_wins"      # only units off the board defended (an AA gun)
    if sa.n_present == 0 and sd.n_present == 0:
        # nothing left on the board; if both sides still have units (submerged or
        # retreated), nobody won: a stalemate
        both_alive = _in_battle(board, ATT, state.att) and _in_battle(board, DEF, state.dfn)
        return "stalemate" if both_alive else "both_destroyed"
    return "defender_wins" if sa.n_present == 0 else "attacker_wins"


def settle(board, state: BattleState) -> tuple[BattleState, list[Change]]:
    """Checks made whenever the board changes outside the dice: condition A, defenceless
    defenders, attacking transports alone, stalemate (module docstring).  Which check
    applies is ``settle_action`` of the two sides' traits."""
    changes: list[Change] = []
    while state.outcome is None:
        sa = board.summary(ATT, state.att)
        sd = board.summary(DEF, state.dfn)
        if state.round == 0 and opening_fire(board, sa, sd):
            break           # units off the board fire first (AA guns): the battle begins
        action = settle_action(board, traits(board, ATT, state.att), traits(board, DEF, state.dfn))
        if action is None:
            break
        if action == "ended":
            return state._replace(outcome=_condition_a(board, state, sa, sd)), changes
        if action == "defenceless":
            dfn, gone = kill_present(board, DEF, state.dfn, lambda s: s.defenceless)
            changes.append(Change("defenceless", DEF, gone))
            state = state._replace(dfn=dfn)
            continue
        if action == "attacker_defenceless":
            if board.retreat_options:
                state, change = retreat(board, state, destination(board, None), "no_fire")
                if change is not None:
                    changes.append(change)
                    continue
            att, gone = kill_present(board, ATT, state.att, lambda s: s.defenceless)
            changes.append(Change("cannot_retreat", ATT, gone))
            state = state._replace(att=att)
            continue
        return state._replace(outcome="stalemate"), changes
    return state, changes


class SideTraits(NamedTuple):
    """What the checks between the dice read from one side: no counts, so that battles
    with thousands of states have only a few distinct traits (the odds calculator decides
    for all states with the same traits at once).  ``conditions``: per retreat condition
    of the board, whether its count/TUV part holds for this side (True when the condition
    names the other side or no count)."""

    on_board: bool
    tmask: int
    tmask_defenceless: int
    tmask_other: int
    fire: int
    only_defenceless: bool
    anti_sub: bool
    can_submerge: bool
    retreated: bool
    conditions: tuple[bool, ...]


def traits(board, side_idx: int, side: Side) -> SideTraits:
    key = (side_idx, side)
    found = board._traits.get(key)
    if found is None:
        summ = board.summary(side_idx, side)
        conds = tuple(_side_part(cond, side_idx, summ) for cond in board.retreat)
        found = board._traits[key] = SideTraits(
            summ.n_present > 0, summ.tmask, summ.tmask_defenceless, summ.tmask_other,
            summ.fire, summ.only_defenceless, summ.anti_sub, summ.can_submerge,
            side.retreated, conds)
    return found


def settle_action(board, ta: SideTraits, td: SideTraits) -> str | None:
    """The check ``settle`` applies next: "ended" (condition A), "defenceless" (defending
    defenceless units destroyed), "attacker_defenceless" (attacking transports alone:
    retreat or be destroyed), "stalemate", or None (the battle goes on)."""
    key = (ta, td)
    found = board._quiet.get(key, 0)
    if found == 0:
        found = board._quiet[key] = _settle_action(ta, td)
    return found


def _settle_action(ta: SideTraits, td: SideTraits) -> str | None:
    if not ta.on_board or not td.on_board:
        return "ended"
    if td.tmask_defenceless & ta.fire and not td.fire & ta.tmask and not ta.fire & td.tmask_other:
        return "defenceless"
    if ta.only_defenceless and td.fire & ta.tmask:
        return "attacker_defenceless"
    if not ta.fire & td.tmask and not td.fire & ta.tmask:
        return "stalemate"
    return None


def opening_fire(board, sa: SideSummary, sd: SideSummary) -> bool:
    """Whether a first-round-only step fires from units that are not on the board (an AA
    gun in a territory with no other defender still fires at the attacking aircraft), unless
    every defender on the board is defenceless (Global 1940's lone AA guns [L908])."""
    if not (board.support[ATT] or board.support[DEF]) or not sa.n_present:
        return False
    if board.slots[DEF] and sd.only_defenceless:
        return False        # a territory held only by defenceless units: no combat, no fire
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
    for decide, _ in round_decisions(board):
        state, more = decide(board, state)
        if more:
            changes.extend(more)
            moved = True
    if moved:
        state, more = settle(board, state)
        changes.extend(more)
    return state, changes


def _side_part(cond: RetreatCondition, side_idx: int, summ: SideSummary) -> bool:
    """Whether the count/TUV part of ``cond`` holds, as far as side ``side_idx`` decides it."""
    if cond.side is None or cond.comparison is None or cond.threshold is None:
        return True
    if (ATT if str(cond.side).startswith("att") else DEF) != side_idx:
        return True
    value = summ.tuv if cond.measure == "tuv" else summ.n_present
    return _compare(value, cond.comparison, cond.threshold)


def condition_holds(board, state: BattleState, cond: RetreatCondition) -> bool:
    if cond.after_round is not None and state.round < cond.after_round:
        return False
    return (_side_part(cond, ATT, board.summary(ATT, state.att))
            and _side_part(cond, DEF, board.summary(DEF, state.dfn)))


def retreat_due(board, ta: SideTraits, td: SideTraits, rnd: int) -> int | None:
    """The index of the first retreat condition that holds at the end of round ``rnd``
    (None: the attacker does not retreat now)."""
    if not board.retreat_options or ta.retreated or rnd < max(1, board.min_rounds):
        return None
    for i, cond in enumerate(board.retreat):
        if (cond.after_round is None or rnd >= cond.after_round) and \
                ta.conditions[i] and td.conditions[i]:
            return i
    return None


def quiet(board, ta: SideTraits, td: SideTraits, rnd: int) -> bool:
    """Whether ``end_of_round`` and then ``decide_before_round`` certainly change nothing
    but the round number for every state whose sides have these traits, at the end of
    round ``rnd`` >= 1 (the odds calculator's shortcut; the functions themselves decide
    through the same ``settle_action``, ``retreat_due`` and decision predicates)."""
    key = (ta, td, rnd)
    found = board._quiet.get(key)
    if found is None:
        found = (rnd >= 1 and settle_action(board, ta, td) is None
                 and retreat_due(board, ta, td, rnd) is None
                 and all(may_act is not None and not may_act(board, ta, td)
                         for _, may_act in round_decisions(board)))
        board._quiet[key] = found
    return found


def end_of_round(board, state: BattleState) -> tuple[BattleState, list[Change]]:
    """Step 6: ``settle`` (condition A, defenceless units, stalemate), then condition B.
    The returned state has ``outcome`` set when the battle is over."""
    state, changes = settle(board, state)
    if state.outcome is not None:
        return state, changes
    due = retreat_due(board, traits(board, ATT, state.att), traits(board, DEF, state.dfn),
                      state.round)
    if due is not None:
        cond = board.retreat[due]
        state, change = retreat(board, state, destination(board, cond), "condition", cond)
        if change is not None:
            changes.append(change)
    return state, changes
