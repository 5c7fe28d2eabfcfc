"""The dice driver: fights one battle with a ``DiceSource``, logs the events and maps
casualties back to unit ids.  ``combat.odds`` runs the same rule functions over every
possible roll instead of one."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from ...model.dice import DiceSource
from .board import Board
from .casualties import apply_hits
from .lowluck import roll_groups
from .model import (
    ATT, DEF, HARD_ROUND_CAP, SIDE_NAMES, BattleResult, BattleSetup, BattleUnit, Volley,
)
from .rules import decide_before_round, end_of_round
from .steps import stage_volleys


class _Tracker:
    """Maps slot counts back to unit ids (first in slot order first; damaged units are the
    ones killed first within a slot, matching ``apply_side_hits``).  Within a slot either
    every alive unit is on the board or none is (submerging and retreating move whole slots)."""

    def __init__(self, board: Board):
        self.fresh = [[[u for u in s.units if not (u.damaged and s.two_hits)] for s in side]
                      for side in board.slots]
        self.hurt: list[list[list[BattleUnit]]] = [
            [[u for u in s.units if u.damaged and s.two_hits] for s in side] for side in board.slots]
        self.killed: list[list[BattleUnit]] = [[], []]
        self.submerged: list[BattleUnit] = []
        self.retreated: list[BattleUnit] = []

    def apply_log(self, side: int, log) -> tuple[list[BattleUnit], list[BattleUnit]]:
        killed: list[BattleUnit] = []
        damaged: list[BattleUnit] = []
        for slot, kind in log:
            if kind == "damage":
                unit = self.fresh[side][slot].pop(0)
                self.hurt[side][slot].append(unit)
                damaged.append(unit)
            else:
                pool = self.hurt[side][slot] or self.fresh[side][slot]
                unit = pool.pop(0)
                self.killed[side].append(unit)
                killed.append(unit)
                damaged = [u for u in damaged if u.uid != unit.uid]
        return killed, damaged

    def take(self, side: int, slots, kill: bool = False) -> list[BattleUnit]:
        """All units of ``slots`` ((slot, count), ...); removed from play with ``kill``."""
        out: list[BattleUnit] = []
        for slot, n in slots:
            units = self.hurt[side][slot] + self.fresh[side][slot]
            assert len(units) == n, (units, n)
            out.extend(units)
            if kill:
                self.hurt[side][slot] = []
                self.fresh[side][slot] = []
                self.killed[side].extend(units)
        return out


def _counts(units) -> dict[str, int]:
    return dict(Counter(u.type.key for u in units))


def _cargo_counts(units) -> dict[str, int]:
    return dict(Counter(c.type for u in units for c in u.cargo))


def _merge(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    out = Counter(a)
    out.update(b)
    return dict(out)


def roll_volley(v: Volley, dice: DiceSource, bid: str, rnd: int) -> tuple[list[int], list[int]]:
    """(every face drawn, the face each unit keeps) of one volley.  A unit rolling the best
    of several dice (``Volley.dice``, ability ``best_of``) keeps its lowest face; the dice
    are drawn in one roll, unit by unit, each unit's dice in a row."""
    extra = "" if v.step in ("attack", "defence") else " " + v.step
    label = f"{bid} r{rnd} {SIDE_NAMES[v.side]} {v.unit_type} @{v.target}{extra}"
    if v.dice == 1:
        faces = dice.roll(v.count, label)
        return faces, faces
    faces = dice.roll(v.count * v.dice, f"{label} best of {v.dice}")
    return faces, [min(faces[i:i + v.dice]) for i in range(0, len(faces), v.dice)]


def resolve_battle(setup: BattleSetup, dice: DiceSource,
                   names: Mapping[str, str] | None = None) -> BattleResult:
    """Fight one battle to the end.  ``BattleStarted`` is the turn engine's event."""
    return run_battle(Board(setup), dice)


def run_battle(board: Board, dice: DiceSource, names: Mapping[str, str] | None = None,
               record: bool = True) -> BattleResult:
    """``resolve_battle`` on a prepared ``Board`` (reused by Monte Carlo runs).  With
    ``record=False`` no events are built (the result is otherwise identical)."""
    from ...model.events import (     # here: the odds (this module's rules) load no events
        BattleEnded, BestOfRolled, Casualties, DiceRolled, Event, Retreated, Submerged,
    )
    setup = board.setup
    bid = setup.battle_id
    track = _Tracker(board)
    events: list[Event] = []
    state = board.initial_state()
    lethal = ("defenceless", "cannot_retreat")

    def log_changes(changes, rnd: int) -> None:
        for ch in changes:
            units = track.take(ch.side, ch.slots, kill=ch.kind in lethal)
            if ch.kind in lethal:
                if record:
                    events.append(Casualties(bid, rnd, SIDE_NAMES[ch.side], _counts(units),
                                             cargo_lost=_cargo_counts(units), reason=ch.kind))
            elif ch.kind == "submerge":
                track.submerged.extend(units)
                if record:
                    events.append(Submerged(bid, rnd, SIDE_NAMES[ch.side], _counts(units)))
            elif ch.kind == "retreat":
                track.retreated.extend(units)
                if record:
                    events.append(Retreated(bid, rnd, ch.destination or "", _counts(units),
                                            ch.reason, ch.condition))

    while True:
        state, changes = decide_before_round(board, state)
        log_changes(changes, state.round)
        if state.outcome is not None:
            break
        if state.round > HARD_ROUND_CAP:
            raise RuntimeError(f"battle {bid} did not end after {HARD_ROUND_CAP} rounds")
        rnd = state.round
        for stage in range(len(board.stages)):
            vols = stage_volleys(board, state, stage)
            if not vols:
                continue
            if board.low_luck:
                hits, groups = roll_groups(board, state, vols, dice, bid, rnd)
            else:
                hits, rolled = [], []
                for v in vols:
                    faces, kept = roll_volley(v, dice, bid, rnd)
                    hits.append(sum(1 for f in kept if f <= v.target))
                    rolled.append((faces, kept))
            state, (log_a, log_d) = apply_hits(board, state, vols, hits)
            for side_idx, log in ((DEF, log_d), (ATT, log_a)):
                killed, damaged = track.apply_log(side_idx, log)
                if record:
                    firing = ATT if side_idx == DEF else DEF
                    if board.low_luck:
                        events.extend(e for e in groups if e.side == SIDE_NAMES[firing])
                    else:
                        for v, (faces, kept), h in zip(vols, rolled, hits):
                            if v.side != firing:
                                continue
                            if v.dice == 1:
                                events.append(DiceRolled(bid, rnd, v.step, SIDE_NAMES[v.side],
                                                         v.unit_type, v.target, tuple(faces), h))
                            else:
                                events.append(BestOfRolled(bid, rnd, v.step, SIDE_NAMES[v.side],
                                                           v.unit_type, v.target, tuple(faces), h,
                                                           v.dice, tuple(kept)))
                    if killed or damaged:
                        events.append(Casualties(bid, rnd, SIDE_NAMES[side_idx], _counts(killed),
                                                 _counts(damaged), _cargo_counts(killed)))
        state, changes = end_of_round(board, state)
        log_changes(changes, state.round)
        if state.outcome is not None:
            break

    killed_a, killed_d = track.killed
    if record:
        att_lost = _merge(_counts(killed_a), _cargo_counts(killed_a))
        def_lost = _merge(_counts(killed_d), _cargo_counts(killed_d))
        att_tuv = sum(u.type.cost + board.cargo_cost(u) for u in killed_a)
        def_tuv = sum(u.type.cost + board.cargo_cost(u) for u in killed_d)
        events.append(BattleEnded(bid, setup.space, state.outcome, state.round, att_lost,
                                  def_lost, att_tuv, def_tuv, def_tuv - att_tuv))
    dead = {u.uid for u in killed_a} | {u.uid for u in killed_d}
    return BattleResult(
        outcome=state.outcome,
        rounds=state.round,
        attackers=tuple(u for u in setup.attackers if u.uid not in dead),
        defenders=tuple(u for u in setup.defenders if u.uid not in dead),
        retreated_to=state.retreat_to,
        submerged=tuple(u.uid for u in track.submerged if u.uid not in dead),
        events=tuple(events),
        killed=tuple(u.uid for u in (*killed_a, *killed_d)),
        retreated=tuple(u.uid for u in track.retreated if u.uid not in dead),
        damaged=tuple(u.uid for side in track.hurt for slot in side for u in slot),
    )
