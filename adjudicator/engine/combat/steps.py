"""Who fires in each stage of a round: ``stage_volleys`` runs the edition's battle steps,
and ``main_fire`` (ordinary fire, rules digest steps 3-4) is defined here.

Units whose hits no enemy unit on the board could take do not roll at all (bombers facing
only submarines, submarines facing only aircraft).  Dice order within a stage: the
attacker's volleys, then the defender's, each side's in its loss order, one roll per unit
type and value (and dice per unit: ability ``best_of``).
"""

from __future__ import annotations

from ..abilities.base import hooks
from .model import ATT, DEF, BattleState, EnemyView, Volley
from .stepbase import BattleStep, get_step, register_step


@register_step
class MainFire(BattleStep):
    """Every unit able to fire that did not fire in another step of this round.  Its value
    may be raised by abilities with a ``fire_values`` hook (e.g. artillery support)."""

    name = "main_fire"

    def volleys(self, board, side_idx, side, summ, enemy):
        fire = _unclaimed(board, self.name, side_idx, enemy)
        key = ("main", side_idx, summ, fire)
        parts = board._fire_hooks.get(key)
        if parts is None:
            parts = board._fire_hooks[key] = self._parts(board, side_idx, summ, fire)
        out: dict[tuple[str, int, int], list] = {}
        tmask = enemy.tmask
        for cls, key, v in parts:
            if not tmask >> cls & 1:
                continue
            if key in out:
                out[key][3] += v[3]
            else:
                out[key] = list(v)
        return [Volley(*v) for v in out.values()]

    @staticmethod
    def _parts(board, side_idx, summ, fire) -> tuple:
        """``(class, merge key, volley fields)`` of every slot that fires, in loss order,
        whatever the enemy's classes (kept per side summary: ``volleys`` filters them by
        the enemy's view)."""
        step = "attack" if side_idx == ATT else "defence"
        slots = board.slots[side_idx]
        splits = {i: [(n, slots[i].value)] for i, n in enumerate(summ.present)
                  if n and fire[i]}
        for ability in fire_value_hooks(board, side_idx):
            splits = ability.fire_values(board, side_idx, summ, splits)
        out = []
        for i, parts in sorted(splits.items()):
            s = slots[i]
            cls = board.fire_class(s, summ.anti_sub)
            for n, value in parts:
                if n > 0 and value > 0:
                    out.append((cls, (s.key, value, s.dice),
                                (side_idx, step, s.key, n, value, cls, s.dice)))
        return tuple(out)


def _unclaimed(board, name: str, side_idx: int, enemy) -> tuple[bool, ...]:
    """Per slot of ``side_idx``: can it fire in step ``name``, no other step of the board's
    stages claiming its fire (``BattleStep.claims``) against ``enemy``?"""
    cache = board._fire_hooks
    key = ("unclaimed", name, side_idx, enemy)
    found = cache.get(key)
    if found is None:
        claimers = [get_step(n) for stage in board.stages for n in stage
                    if n != name and type(get_step(n)).claims is not BattleStep.claims]
        found = cache[key] = tuple(
            s.can_fire and not any(o.claims(board, s, side_idx, enemy) for o in claimers)
            for s in board.slots[side_idx])
    return found


def fire_value_hooks(board, side_idx: int):
    """Abilities on this side that change fire values (each once, in name order)."""
    cache = board._fire_hooks
    found = cache.get(side_idx)
    if found is None:
        seen: dict[str, object] = {}
        for s in board.slots[side_idx]:
            for ability, _params in hooks(s.type, "fire_values"):
                seen.setdefault(ability.name, ability)
        found = cache[side_idx] = [seen[k] for k in sorted(seen)]
    return found


def stage_volleys(board, state: BattleState, stage: int) -> tuple[Volley, ...]:
    """Every volley of stage ``stage`` (an index into ``board.stages``) in ``state``: the
    attacker's first, then the defender's."""
    first = state.round == 1
    key = (state.att, state.dfn, stage, first)
    found = board._pair_volleys.get(key)
    if found is None:
        sa = board.summary(ATT, state.att)
        sd = board.summary(DEF, state.dfn)
        found = board._pair_volleys[key] = (side_volleys(board, ATT, state.att, sd, stage, first)
                                            + side_volleys(board, DEF, state.dfn, sa, stage, first))
    return found


def side_volleys(board, side_idx: int, side, enemy, stage: int, first: bool) -> tuple[Volley, ...]:
    """One side's volleys in a stage, step by step: steps that fire in every round see only
    the enemy's ``EnemyView`` (``later_volleys``); first-round steps see its summary."""
    out: list[Volley] = []
    view = EnemyView(enemy.tmask, enemy.anti_sub)
    for name in board.stages[stage]:
        step = get_step(name)
        if step.first_round_only:
            if first:
                out += step.volleys(board, side_idx, side, board.summary(side_idx, side), enemy)
        else:
            out += step_volleys(board, side_idx, side, view, name)
    return tuple(out)


def later_volleys(board, side_idx: int, side, view: EnemyView, stage: int) -> tuple[Volley, ...]:
    """One side's volleys in a stage of any round after the first (what ``side_volleys``
    gives then), from the enemy's view alone."""
    out: list[Volley] = []
    for name in board.stages[stage]:
        if not get_step(name).first_round_only:
            out += step_volleys(board, side_idx, side, view, name)
    return tuple(out)


def step_volleys(board, side_idx: int, side, view: EnemyView, name: str) -> tuple[Volley, ...]:
    key = (side_idx, side, view, name)
    found = board._step_volleys.get(key)
    if found is None:
        found = board._step_volleys[key] = tuple(
            get_step(name).volleys(board, side_idx, side, board.summary(side_idx, side), view))
    return found


def all_volleys(board, state: BattleState) -> tuple[Volley, ...]:
    """The volleys of every stage of the round in ``state`` (for expected-hit estimates)."""
    return tuple(v for i in range(len(board.stages)) for v in stage_volleys(board, state, i))

