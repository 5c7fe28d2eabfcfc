"""Air units: the combat-move checks (end in a battle, landing still possible) and the
end-of-turn landing (digest §4.5, §5.4: no kamikaze flights; aircraft that cannot land are
lost).  Aircraft with no noncombat order are flown to the nearest landing space."""

from __future__ import annotations

from .battles import battle_needed, find_deck
from .context import TurnContext
from ..model.events import AircraftLost, Landed
from ..model.orders import Move
from ..model.rules import Ability, Domain
from .working import Piece


def air_paths(ctx: TurnContext, start: str, max_range: int) -> dict[str, tuple[str, ...]]:
    """Shortest air path to every space within ``max_range`` (neutrals are never flown over)."""
    board = ctx.board
    paths = {start: (start,)}
    frontier = [start]
    for _ in range(max_range):
        nxt = []
        for key in frontier:
            for n in sorted(board.map.neighbours(key)):
                if n not in paths and not board.map[n].impassable:
                    paths[n] = paths[key] + (n,)
                    nxt.append(n)
        frontier = nxt
    return paths


def can_land_at(ctx: TurnContext, piece: Piece, space: str, planned_decks: set[str]) -> bool:
    board = ctx.board
    t = board.map[space]
    if t.is_land:
        return board.was_friendly_at_start(space, piece.owner) and board.is_friendly_territory(space, piece.owner)
    if not board.utype(piece).has(Ability.CARRIER_BASED):
        return False
    return find_deck(ctx, piece, space) is not None or space in planned_decks


def planned_carrier_zones(ctx: TurnContext) -> set[str]:
    """Sea zones where the orders will bring or place a carrier of this power."""
    rules = ctx.board.rules
    zones = set()
    for order in ctx.orders.noncombat:
        if isinstance(order, Move) and any(rules.units[g.type].has(Ability.CARRIES_AIR) for g in order.units):
            zones.add(order.destination)
    for place in ctx.orders.places:
        if any(rules.units[g.type].has(Ability.CARRIES_AIR) for g in place.units):
            zones.add(place.space)
    return zones


def nearest_landing(ctx: TurnContext, piece: Piece, planned: set[str]) -> tuple[str, ...] | None:
    remaining = ctx.board.utype(piece).move - piece.moves_used
    paths = air_paths(ctx, piece.space, remaining)
    options = [p for s, p in paths.items() if can_land_at(ctx, piece, s, planned)]
    options.sort(key=lambda p: (len(p), ctx.board.map[p[-1]].is_sea, p[-1]))
    return options[0] if options else None


def check_combat_moves(ctx: TurnContext) -> None:
    """After all combat moves: aircraft end in battles and can still land; ships end in a
    battle or an amphibious zone; cargo loaded for combat is landed."""
    board = ctx.board
    planned = planned_carrier_zones(ctx)
    landing_zones = {l.zone for l in ctx.landings}
    landed_cargo = {uid for l in ctx.landings for uid in l.cargo}
    for piece in sorted(board.pieces.values(), key=lambda p: p.uid):
        if piece.owner != ctx.power or "combat" not in piece.moved_in:
            continue
        ut = board.utype(piece)
        line = piece.order_line
        if ut.domain == Domain.AIR:
            if not battle_needed(ctx, piece.space) or not (board.enemies_at(piece.space)
                                                          or _land_attack(ctx, piece.space)):
                ctx.error(line, f"{ut.name} must end its combat move in a battle; "
                                f"{piece.space} has nothing to attack")
            if nearest_landing(ctx, piece, planned) is None:
                ctx.error(line, f"{ut.name} attacking {piece.space} could not reach any landing space "
                                f"with its remaining {ut.move - piece.moves_used} moves "
                                "(no kamikaze attacks; land it on a territory friendly since the start "
                                "of the turn or on a carrier)")
        elif ut.domain == Domain.SEA:
            fights = bool(board.enemies_at(piece.space))
            if not (fights or piece.space in landing_zones or piece.start_space in ctx.hostile_at_start):
                ctx.error(line, f"{ut.name} ends its combat move in {piece.space} with no battle or "
                                "amphibious assault there: move it under 'noncombat:'")
        elif piece.loaded_in == "combat" and piece.carried_by is not None and piece.uid not in landed_cargo:
            ctx.error(line, f"{ut.name} loaded in combat must be unloaded in an amphibious assault")


def _land_attack(ctx: TurnContext, territory: str) -> bool:
    board = ctx.board
    return any(board.utype(p).domain == Domain.LAND for p in board.at(territory) if p.owner == ctx.power) \
        or any(l.target == territory for l in ctx.landings)


def land_aircraft(ctx: TurnContext) -> None:
    """End of the turn: every aircraft of the phasing power must be on a valid landing
    space; ones without an order are flown to the nearest one; the rest are lost."""
    board = ctx.board
    for piece in sorted(board.pieces.values(), key=lambda p: p.uid):
        if piece.owner != ctx.power or board.utype(piece).domain != Domain.AIR or piece.uid not in board.pieces:
            continue
        if piece.carried_by is not None:
            continue
        if board.map[piece.space].is_sea:
            deck = find_deck(ctx, piece, piece.space)
            if deck is not None:
                piece.carried_by = deck.uid
                continue
        elif can_land_at(ctx, piece, piece.space, set()):
            continue
        name = board.utype(piece).name
        line = ctx.explicit_air_moves.get(piece.uid)
        if line is not None and ctx.checking:
            ctx.error(line, f"{name} cannot land in {piece.space}: it must be a territory friendly "
                            "since the start of the turn, or a carrier with room")
            continue
        path = nearest_landing(ctx, piece, set())
        if path is None:
            board.remove(piece)
            ctx.emit(AircraftLost(piece.owner, piece.space, {piece.type: 1}, "no landing space in range"))
            continue
        piece.space = path[-1]
        piece.moves_used += len(path) - 1
        if board.map[piece.space].is_sea:
            piece.carried_by = find_deck(ctx, piece, piece.space).uid
        ctx.emit(Landed(piece.owner, {piece.type: 1}, path,
                        "no landing order" if line is None else f"order on line {line} could not land it"))
