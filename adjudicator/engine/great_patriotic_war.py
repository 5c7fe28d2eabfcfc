"""The Soviet "Great Patriotic War" (Axis & Allies Europe, digest §5.5.2 [L661-L669], §8 #16):
rule ``great_patriotic_war`` and the order ``convert <units> <territory>``.

In its noncombat move (before any noncombat move is made) the USSR may turn any American or
British land or air unit in an originally Soviet territory with a factory into a Soviet unit
of the same type, unit by unit; a converted unit stays Soviet and cannot move until the next
Soviet turn (the per-unit flag ``frozen``, cleared when that turn starts)."""

from __future__ import annotations

from ..model.events import UnitsConverted
from ..model.units import Domain
from .turn_rules import Rule, declare_flag, register_rule

CONVERTER = "ussr"
FROZEN = declare_flag("frozen")


def _convert(ctx, order) -> str | None:
    """Carry out one ``convert`` order; the problem code if it cannot be."""
    board = ctx.board
    space = order.space
    if ctx.power != CONVERTER:
        return "convert_not_soviet"
    if board.map[space].original_owner != CONVERTER or board.owners.get(space) != CONVERTER \
            or not board.factories_at(space):
        return "convert_not_soviet_factory"
    chosen = []
    for group in order.units:
        pool = [p for p in board.at(space) if p.type == group.type and p.owner != ctx.power
                and board.allied(p.owner, ctx.power) and p not in chosen
                and board.utype(p).domain in (Domain.LAND, Domain.AIR)
                and not board.utype(p).has("factory")]
        if len(pool) < group.count:
            return "convert_units_missing"
        chosen += pool[:group.count]
    by_owner: dict[str, dict[str, int]] = {}
    for p in chosen:
        units = by_owner.setdefault(p.owner, {})
        units[p.type] = units.get(p.type, 0) + 1
        p.owner = ctx.power
        board.set_flag(p, FROZEN)
    for owner, units in sorted(by_owner.items()):
        ctx.emit(UnitsConverted(space, ctx.power, owner, units))
    return None


@register_rule
class GreatPatrioticWar(Rule):
    name = "great_patriotic_war"
    doc = ("In its noncombat move the USSR may convert US and UK land and air units in its "
           "original factory territories; they cannot move until its next turn.")

    def at_step(self, ctx, point, step):
        if point != "start":
            return
        if step == "purchase" and ctx.power == CONVERTER:
            for p in list(ctx.board.pieces.values()):
                if FROZEN in p.flags:
                    ctx.board.set_flag(p, FROZEN, on=False)
        elif step == "noncombat_move":
            for order in ctx.orders.of("convert"):
                code = _convert(ctx, order)
                if code:
                    ctx.error(order.line, code, space=order.space)

    def may_enter(self, ctx, piece, space, path, phase):
        return "unit_frozen" if FROZEN in piece.flags else None
