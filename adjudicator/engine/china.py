"""China's own rules (Axis & Allies Global 1940, digest §3.5 [L373-L387]): rule ``china``.

The power the rule applies to is option ``china_power``; the rest is data too (game.toml
options): ``china_buys`` (what it may buy, [L375]), ``china_buys_with_burma_road`` (what it
may buy too while every territory of ``burma_road`` is held by its side at the start of its
purchase [L541]), ``china_may_also_enter`` (the land without a Chinese emblem it may enter
[L381]).  Chinese land is the land whose emblem is China's (``conditions.original_owner``).

* ``may_enter``: Chinese units (the Flying Tigers too [L385-L387]) enter only Chinese land
  and the listed territories, never a sea zone (so never a transport [L381]).
* ``placement_spaces``: China places what it may buy in any Chinese land it holds, including
  land taken this turn, with no factory and no limit per territory (§10 #19) [L377].
* ``at_step`` (end of purchase): a purchase of anything else is refused.
* ``on_capture``: a factory in Chinese land that China or an ally takes back from an enemy is
  removed from the game [L379].

Rule ``impassable_stand_in``: no unit enters a space tagged ``impassable_stand_in`` (the
Himalayas, impassable [L280] but China's stand-in capital)."""

from __future__ import annotations

from ..model.events import FactoryRemoved
from .conditions import original_owner
from .production import purchases
from .turn_rules import Rule, register_rule

UNLIMITED = 1000                   # no per-territory limit for China [L377] (§10 #19)


def _names(board, option: str) -> frozenset[str]:
    return frozenset(n.strip() for n in str(board.rules.option(option, "")).split(",") if n.strip())


def china_power(board) -> str:
    return str(board.rules.option("china_power", ""))


def burma_road_open(board) -> bool:
    """Every territory of the Burma Road held by China's side."""
    china = china_power(board)
    road = _names(board, "burma_road")
    return bool(road) and all(board.allied(china, board.owners.get(t)) for t in road)


def may_buy(board, road_open: bool) -> frozenset[str]:
    """The unit types China may buy now."""
    found = _names(board, "china_buys")
    return found | _names(board, "china_buys_with_burma_road") if road_open else found


def chinese_land(board, space: str) -> bool:
    return original_owner(board.map[space]) == china_power(board)


@register_rule
class China(Rule):
    name = "china"
    doc = ("China moves only in Chinese land, Kwangtung and Burma, never by sea; buys infantry, "
           "and artillery while the Burma Road is open; places them in any Chinese land it "
           "holds, with no factory; a factory in Chinese land retaken by the Allies is removed.")

    def may_enter(self, ctx, piece, space, path, phase):
        board = ctx.board
        if piece.owner != china_power(board):
            return None
        if board.map[space].is_sea:
            return "china_limits"
        if chinese_land(board, space) or space in _names(board, "china_may_also_enter"):
            return None
        return "china_limits"

    def placement_spaces(self, ctx, power, unit_type):
        board = ctx.board
        if power != china_power(board):
            return {}
        if unit_type is not None and unit_type not in may_buy(board, True):
            return {}
        return {s: UNLIMITED for s, owner in sorted(board.owners.items())
                if owner == power and board.map[s].is_land and chinese_land(board, s)
                and not board.map[s].impassable and "impassable_stand_in" not in board.map[s].tags}

    def at_step(self, ctx, point, step):
        board = ctx.board
        if step != "purchase" or ctx.power != china_power(board):
            return
        if point == "start":
            ctx.mechanic("china", dict)["road_open"] = burma_road_open(board)
            return
        allowed = may_buy(board, ctx.mechanic("china", dict).get("road_open", False))
        line = next((b.line for b in ctx.orders.buys), 0)
        for unit_type in sorted(purchases(ctx).bought):
            if unit_type not in allowed:
                ctx.error(line, "china_cannot_buy", unit=unit_type,
                          allowed=sorted(may_buy(board, True)))

    def on_capture(self, ctx, space, new_owner, previous):
        board = ctx.board
        china = china_power(board)
        if not chinese_land(board, space) or previous is None:
            return
        if not board.allied(china, new_owner) or board.allied(china, previous):
            return
        gone = [p for p in board.at(space) if board.utype(p).has("factory")]
        for piece in gone:
            board.remove(piece)
        if gone:
            ctx.emit(FactoryRemoved(space, new_owner, tuple(sorted(p.type for p in gone))))


@register_rule
class ImpassableStandIn(Rule):
    name = "impassable_stand_in"
    doc = "No unit enters a space tagged impassable_stand_in (the Himalayas, China's stand-in capital)."

    def may_enter(self, ctx, piece, space, path, phase):
        return "impassable" if "impassable_stand_in" in ctx.board.map[space].tags else None
