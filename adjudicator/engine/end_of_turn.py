"""Axis & Allies Europe's Action Sequence step 6 (digest §5.7 [L685-L687]): every
submerged submarine resurfaces and every damaged battleship is repaired.

Rule ``step_six``: after each battle (``after_battle``) the surviving units its events say
were damaged (``Casualties.damaged``) get the per-unit flag ``damaged`` and the subs that
submerged (``Submerged``) the flag ``submerged``; a submerged sub cannot move until step 6
(``may_enter``) [L441, L797].  Step ``resurface_and_repair`` clears both flags, with a
``UnitsRepaired`` / ``Resurfaced`` event per space and power."""

from __future__ import annotations

from ..model.events import BattleStarted, Casualties, Resurfaced, Submerged, UnitsRepaired
from .battles import SUBMERGED
from .context import TurnContext
from .steps import step
from .turn_rules import Rule, declare_flag, register_rule
from .working import count_types

DAMAGED = declare_flag("damaged")


def _battle_events(ctx: TurnContext, battle: str) -> list:
    """The events of the last battle ``battle``, from its start."""
    start = max((i for i, e in enumerate(ctx.events)
                 if isinstance(e, BattleStarted) and e.battle == battle), default=None)
    return [] if start is None else [e for e in ctx.events[start:] if getattr(e, "battle", None) == battle]


def _mark(ctx: TurnContext, space: str, side: str, types: dict[str, int], flag: str) -> None:
    board = ctx.board
    for unit_type, n in sorted(types.items()):
        if n <= 0:
            continue
        pool = [p for p in board.at(space) if p.type == unit_type and flag not in p.flags
                and (p.owner == ctx.power) == (side == "attacker")
                and (side == "attacker" or board.enemy_of(ctx.power, p.owner))]
        for p in pool[:n]:
            board.set_flag(p, flag)


@register_rule
class StepSix(Rule):
    name = "step_six"
    doc = "Battleship damage and submerged subs last until step 6 of the turn."

    def after_battle(self, ctx, space, outcome):
        events = _battle_events(ctx, space)
        for side in ("attacker", "defender"):
            damaged: dict[str, int] = {}
            for e in events:
                if isinstance(e, Casualties) and e.side == side:
                    for t, n in e.damaged.items():
                        damaged[t] = damaged.get(t, 0) + n
                    for t, n in e.killed.items():
                        if t in damaged:
                            damaged[t] -= n
            _mark(ctx, space, side, damaged, DAMAGED)
            down: dict[str, int] = {}
            for e in events:
                if isinstance(e, Submerged) and e.side == side:
                    for t, n in e.units.items():
                        down[t] = down.get(t, 0) + n
            _mark(ctx, space, side, down, SUBMERGED)

    def may_enter(self, ctx, piece, space, path, phase):
        return "unit_submerged" if SUBMERGED in piece.flags else None


@step("resurface_and_repair")
def resurface_and_repair(ctx: TurnContext, dice) -> None:
    """Clear every ``damaged`` and ``submerged`` flag, space by space and power by power."""
    board = ctx.board
    for flag, event in ((DAMAGED, UnitsRepaired), (SUBMERGED, Resurfaced)):
        marked = sorted((p for p in board.pieces.values() if flag in p.flags),
                        key=lambda p: (p.space, p.owner, p.uid))
        groups: dict[tuple[str, str], list] = {}
        for p in marked:
            groups.setdefault((p.space, p.owner), []).append(p)
            board.set_flag(p, flag, on=False)
        for (space, owner), pieces in groups.items():
            ctx.emit(event(space, owner, count_types(pieces)))
