"""Which economy pays for a purchase (Global 1940's United Kingdom, digest §3.6
[L405-L417]): each economy buys what it places at its own factories.

A power with one economy pays everything from it.  A power with several pays, for each unit
a ``place`` order puts in its land (or in a sea zone next to its factories), from the
economy that land pays its income into (``economies.economy_of``: tag ``economy:<key>``);
what no place order names is paid by its main economy and, left over, placed at the main
economy's factories only.  So 'buy 3 inf, 1 ftr' with 'place 3 inf India' and 'place 1 ftr
United Kingdom' costs UK Pacific 9 and UK Europe 10."""

from __future__ import annotations

from .context import TurnContext
from .economies import economy_of


def economies_of(ctx: TurnContext) -> tuple[str, ...]:
    """The phasing power's economies, its main one first."""
    return tuple(e.key for e in ctx.board.rules.powers[ctx.power].all_economies)


def space_economy(ctx: TurnContext, space: str) -> str:
    """The economy that places in ``space``: a land space's own (its tag), a sea zone's
    that of the first of the power's factories next to it (the main economy's first)."""
    board, economies = ctx.board, economies_of(ctx)
    t = board.map[space]
    if t.is_land:
        return economy_of(t.tags, economies)
    found = {economy_of(board.map[n].tags, economies) for n in board.map.neighbours(space)
             if board.map[n].is_land and board.owners.get(n) == ctx.power
             and board.factories_at(n)}
    return next((e for e in economies if e in found), economies[0])


def charges(ctx: TurnContext, wanted: dict[str, int]) -> dict[str, dict[str, int]]:
    """``{economy: {unit type: n}}``: who pays for each unit of ``wanted``."""
    economies = economies_of(ctx)
    if len(economies) == 1:
        return {economies[0]: dict(wanted)}
    left = dict(wanted)
    out: dict[str, dict[str, int]] = {}
    for order in ctx.orders.places:
        economy = space_economy(ctx, order.space)
        for g in order.units:
            n = min(g.count, left.get(g.type, 0))
            if n > 0:
                left[g.type] -= n
                out.setdefault(economy, {})[g.type] = out.get(economy, {}).get(g.type, 0) + n
    rest = {k: n for k, n in left.items() if n > 0}
    if rest:
        main = out.setdefault(economies[0], {})
        for k, n in rest.items():
            main[k] = main.get(k, 0) + n
    return {e: dict(sorted(out[e].items())) for e in economies if out.get(e)}


def main_economy_factory(ctx: TurnContext, space: str) -> bool:
    """Whether leftovers (paid by the main economy) may be placed at the factory in
    ``space``: always, for a power with one economy."""
    economies = economies_of(ctx)
    return len(economies) == 1 or space_economy(ctx, space) == economies[0]


def capital_lost(ctx: TurnContext, economy: str) -> bool:
    """Whether the capital of the phasing power's ``economy`` is held by an enemy: that
    economy neither buys nor repairs [L419-L421]."""
    board = ctx.board
    for e in board.rules.powers[ctx.power].all_economies:
        if e.key == economy:
            return board.enemy_of(ctx.power, board.owners.get(e.capital))
    return False
