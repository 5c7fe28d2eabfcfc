"""Air units: the combat-move checks (end in a battle, landing still possible) and the
end-of-turn landing (digest §4.5, §5.4: no kamikaze flights; aircraft that cannot land are
lost).  Aircraft with no noncombat order are flown to the nearest landing space.

The landing plan (1941 [L663-L669], Spring 1942 [L765-L771]) is checked for all attacking
aircraft together: a territory friendly since the start of the turn takes any number; a
carrier deck takes as many fighters as it has room -- an existing carrier's free room, a
carrier the noncombat orders move there (its free room), a carrier placed there (all its
room) -- so two fighters never count on one free slot.  In check mode a fighter that the
plan sent to a carrier and that cannot land at the end of the turn is an error: the
carrier move it relied on is mandatory."""

from __future__ import annotations

import attrs

from ..model.events import AircraftLost, Captured, Landed
from ..model.orders import Move
from ..model.units import Domain
from .battles import RETREAT_LANDINGS, battle_needed, find_deck
from .raids import RAIDING
from .sharing import may_ride
from .context import TurnContext
from .turn_rules import move_range
from .working import Piece


@attrs.define
class Flights:
    """The aircraft's per-turn state: the noncombat order line that moved each aircraft
    (uid -> line), and the carrier each was promised by the landing plan (uid -> (zone,
    line))."""

    explicit_moves: dict[int, int] = attrs.field(factory=dict)
    carrier_duties: dict[int, tuple[str, int]] = attrs.field(factory=dict)


def flights(ctx: TurnContext) -> Flights:
    return ctx.mechanic("aircraft", Flights)


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


def can_land_on_ground(ctx: TurnContext, piece: Piece, space: str) -> bool:
    board = ctx.board
    return (board.map[space].is_land and board.was_friendly_at_start(space, piece.owner)
            and board.is_friendly_territory(space, piece.owner))


def can_land_at(ctx: TurnContext, piece: Piece, space: str, planned_decks) -> bool:
    if ctx.board.map[space].is_land:
        return can_land_on_ground(ctx, piece, space)
    if not ctx.board.utype(piece).has("carrier_based"):
        return False
    return find_deck(ctx, piece, space) is not None or planned_decks.get(space, 0) > 0


def planned_deck_room(ctx: TurnContext) -> dict[str, int]:
    """Sea zone -> fighter room that the noncombat and mobilize orders will bring there:
    carriers moved there (their free room) and carriers placed there (all of it)."""
    board = ctx.board
    rules = board.rules
    room: dict[str, int] = {}
    for order in ctx.orders.noncombat:
        if not isinstance(order, Move):
            continue
        for g in order.units:
            ut = rules.units[g.type]
            if not ut.has("carries_air") or ut.cargo is None:
                continue
            carriers = sorted((p for p in board.at(order.origin) if p.owner == ctx.power
                               and p.type == g.type), key=lambda p: len(board.cargo_of(p)))
            free = sum(ut.cargo.slots - len(board.cargo_of(p)) for p in carriers[:g.count])
            room[order.destination] = room.get(order.destination, 0) + max(free, 0)
    for place in ctx.orders.places:
        for g in place.units:
            ut = rules.units[g.type]
            if ut.has("carries_air") and ut.cargo is not None:
                room[place.space] = room.get(place.space, 0) + ut.cargo.slots * g.count
    return room


def existing_deck_room(ctx: TurnContext, zone: str, owner: str) -> int:
    board = ctx.board
    return sum(board.free_slots(c)[0] for c in board.at(zone) if board.utype(c).has("carries_air")
               and may_ride(ctx, c, owner))


def nearest_landing(ctx: TurnContext, piece: Piece, planned) -> tuple[str, ...] | None:
    remaining = move_range(ctx.board, piece) - piece.moves_used
    paths = air_paths(ctx, piece.space, remaining)
    options = [p for s, p in paths.items() if can_land_at(ctx, piece, s, planned)]
    options.sort(key=lambda p: (len(p), ctx.board.map[p[-1]].is_sea, p[-1]))
    return options[0] if options else None


def check_landing_plan(ctx: TurnContext, air: list[Piece]) -> None:
    """Every attacking aircraft needs a landing space; deck room is shared (module
    docstring).  Aircraft with fewer deck options are given room first."""
    board = ctx.board
    planned = planned_deck_room(ctx)
    needs: list[tuple[Piece, list[str]]] = []
    for piece in air:
        remaining = move_range(board, piece) - piece.moves_used
        reach = air_paths(ctx, piece.space, remaining)
        if any(can_land_on_ground(ctx, piece, s) for s in reach):
            continue
        decks = [s for s in reach if board.map[s].is_sea and board.utype(piece).has("carrier_based")]
        needs.append((piece, decks))
    room = {z: existing_deck_room(ctx, z, ctx.power) + planned.get(z, 0)
            for _, decks in needs for z in decks}
    for piece, decks in sorted(needs, key=lambda n: (sum(room.get(z, 0) > 0 for z in n[1]), n[0].uid)):
        zone = next((z for z in sorted(decks, key=lambda z: (z not in planned, z)) if room.get(z, 0) > 0), None)
        ut = board.utype(piece)
        if zone is None:
            ctx.error(piece.order_line, "air_no_landing", unit=ut.key, space=piece.space,
                      moves=move_range(board, piece) - piece.moves_used, decks=bool(decks))
            continue
        room[zone] -= 1
        if zone in planned and not any(board.free_slots(c)[0] for c in board.at(zone)
                                       if board.utype(c).has("carries_air")):
            flights(ctx).carrier_duties[piece.uid] = (zone, piece.order_line)


def check_combat_moves(ctx: TurnContext) -> None:
    """After all combat moves: aircraft end in battles and can still land; ships end in a
    battle or an amphibious zone (or left a contested zone to avoid one); cargo loaded for
    combat is landed."""
    board = ctx.board
    landing_zones = {l.zone for l in ctx.landings}
    landed_cargo = {uid for l in ctx.landings for uid in l.cargo}
    # a sea zone the combat move took or liberated for its owner (an edition's rule capturing
    # on entry) is a purpose too: every capture so far is this combat move's doing
    taken = {e.territory for e in ctx.events if isinstance(e, Captured)}
    air: list[Piece] = []
    power = ctx.power
    for piece in sorted([p for p in board.pieces.values()
                         if p.owner == power and "combat" in p.moved_in], key=lambda p: p.uid):
        ut = board.utype(piece)
        line = piece.order_line
        if ut.domain == Domain.AIR:
            air.append(piece)
            attacks = RAIDING in piece.marks or (battle_needed(ctx, piece.space)
                                        and (board.enemies_at(piece.space) or _land_attack(ctx, piece.space)))
            if not attacks:
                ctx.error(line, "air_no_battle", unit=ut.key, space=piece.space)
        elif ut.domain == Domain.SEA:
            fights = bool(board.enemies_at(piece.space))
            if not (fights or piece.space in landing_zones or piece.space in taken
                    or _escaped(ctx, piece.start_space)):
                ctx.error(line, "ship_no_battle", unit=ut.key, space=piece.space)
        elif piece.loaded_in == "combat" and piece.carried_by is not None and piece.uid not in landed_cargo:
            ctx.error(line, "cargo_not_unloaded", unit=ut.key)
    _check_assault_zones(ctx)
    _check_unarmed_attacks(ctx)
    check_landing_plan(ctx, air)


def _check_assault_zones(ctx: TurnContext) -> None:
    """An assault's transports must end in a sea zone that is friendly or can become friendly
    after the sea battle (1941 [L327-L337], 1942 [L372-L400]): in a zone with enemy surface
    warships, some unit of the attacker there must be able to fire."""
    board = ctx.board
    seen: set[str] = set()
    for landing in ctx.landings:
        zone = landing.zone
        if zone in seen:
            continue
        seen.add(zone)
        if not board.hostile_zone(zone, ctx.power):
            if _ignored_subs_unguarded(ctx, zone):
                ctx.error(landing.line, "assault_beside_enemy_subs", zone=zone, space=landing.target)
            continue
        if not any(board.utype(p).attack > 0 and not board.utype(p).has("defenceless")
                   for p in board.at(zone) if p.owner == ctx.power):
            ctx.error(landing.line, "assault_zone_stays_hostile", zone=zone, space=landing.target)


def _check_unarmed_attacks(ctx: TurnContext) -> None:
    """Option ``attack_needs_attack_value`` (Global 1940 [L755, L1612], digest §5.5): a
    transport or a carrier (no attack value) that moved in combat move attacks a sea zone
    only beside a unit of its owner there with an attack value.  A zone an amphibious assault
    unloads from is left to ``_check_assault_zones``."""
    board = ctx.board
    if not board.rules.option("attack_needs_attack_value", False):
        return
    landing_zones = {l.zone for l in ctx.landings}
    movers: dict[str, list[Piece]] = {}
    for p in board.pieces.values():
        if p.owner == ctx.power and "combat" in p.moved_in and p.carried_by is None \
                and board.map[p.space].is_sea and p.space not in landing_zones:
            movers.setdefault(p.space, []).append(p)
    for zone in sorted(movers):
        if not battle_needed(ctx, zone) or any(
                board.utype(p).attack > 0 for p in board.at(zone)
                if p.owner == ctx.power and p.carried_by is None):
            continue
        first = min(movers[zone], key=lambda p: (p.order_line or 0, p.uid))
        ctx.error(first.order_line, "attack_without_attack_value",
                  unit=board.utype(first).key, space=zone)


def _ignored_subs_unguarded(ctx: TurnContext, zone: str) -> bool:
    """Option ``assault_beside_subs_needs_warship`` (Global 1940 [L782], digest §5.5): no
    unloading for an assault from a zone with enemy submarines the attacker ignores (no
    sea battle there) unless a warship of its own (a ship that carries no land units) is in
    the zone at the end of the combat move."""
    board = ctx.board
    if not board.rules.option("assault_beside_subs_needs_warship", False) \
            or battle_needed(ctx, zone):
        return False
    subs = any(board.utype(p).has("submerge") for p in board.enemies_at(zone))
    guarded = any(board.utype(p).domain == Domain.SEA and not board.utype(p).has("carries_land")
                  for p in board.at(zone) if p.owner == ctx.power)
    return subs and not guarded


def _escaped(ctx: TurnContext, start: str) -> bool:
    """Whether a ship that left ``start`` in combat move may end without a battle: ``start``
    was hostile (enemy surface warships: "leave and do not fight", 1941 [L262-L275], 1942
    [L333-L344]), or it held only enemy subs or transports and the power attacks there with
    other units (the FAQ [L827-L829]: those leaving avoid that battle).  A zone with only
    subs or transports is not hostile: without that battle, a combat move must lead to one."""
    if start in ctx.hostile_at_start:
        return True
    return start in ctx.contested_at_start and battle_needed(ctx, start)


def _land_attack(ctx: TurnContext, territory: str) -> bool:
    board = ctx.board
    return any(board.utype(p).domain == Domain.LAND for p in board.at(territory) if p.owner == ctx.power) \
        or any(l.target == territory for l in ctx.landings)


def land_aircraft(ctx: TurnContext) -> None:
    """End of the turn: every aircraft of the phasing power must be on a valid landing
    space; ones without an order are flown to the nearest one; the rest are lost."""
    board = ctx.board
    air = board.types_of_domain(Domain.AIR)
    # (a piece's type and owner do not change here: those are filtered up front)
    for piece in sorted([p for p in board.pieces.values()
                         if p.type in air and p.owner == ctx.power], key=lambda p: p.uid):
        if piece.uid not in board.pieces:
            continue
        if piece.carried_by is not None:
            continue
        if _land_where_retreat_said(ctx, piece):
            continue
        if board.map[piece.space].is_sea:
            deck = find_deck(ctx, piece, piece.space)
            if deck is not None:
                piece.carried_by = deck.uid
                continue
        elif can_land_at(ctx, piece, piece.space, {}):
            continue
        ut = board.utype(piece)
        line = flights(ctx).explicit_moves.get(piece.uid)
        if line is not None and ctx.checking:
            ctx.error(line, "air_cannot_land_there", unit=ut.key, space=piece.space)
            continue
        path = nearest_landing(ctx, piece, {})
        if path is None:
            if ctx.checking and piece.uid in flights(ctx).carrier_duties:
                zone, duty_line = flights(ctx).carrier_duties[piece.uid]
                ctx.error(duty_line, "carrier_duty_unmet", unit=ut.key, zone=zone)
            board.remove(piece)
            ctx.emit(AircraftLost(piece.owner, piece.space, {piece.type: 1}, "no_landing"))
            continue
        piece.space = path[-1]
        piece.moves_used += len(path) - 1
        if board.map[piece.space].is_sea:
            piece.carried_by = find_deck(ctx, piece, piece.space).uid
        ctx.emit(Landed(piece.owner, {piece.type: 1}, path,
                        "no_order" if line is None else "order_failed", line or 0))


def _land_where_retreat_said(ctx: TurnContext, piece: Piece) -> bool:
    """An aircraft that left its battle by a per-unit retreat ("retreat ftr to United
    Kingdom") and that no noncombat order moved flies to that landing if it is in range
    and it may land there (Europe [L413-L415]: "to any friendly territory ... using their
    remaining movement")."""
    target = ctx.mechanic(RETREAT_LANDINGS).get(piece.uid)
    if target is None or piece.uid in flights(ctx).explicit_moves or target == piece.space:
        return False
    path = air_paths(ctx, piece.space, move_range(ctx.board, piece) - piece.moves_used).get(target)
    if path is None or ctx.board.map[target].is_sea or not can_land_on_ground(ctx, piece, target):
        return False
    piece.space = target
    piece.moves_used += len(path) - 1
    ctx.emit(Landed(piece.owner, {piece.type: 1}, path, "retreat", 0))
    return True
