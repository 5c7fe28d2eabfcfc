"""Aircraft on Taktyczne Starcie's main map (issue 27, contract 1): where aircraft are based,
flights along a written route with the fire at every enemy area flown over, and the
evacuation of aircraft that lost their base.

* Aircraft are based only in an area with an airfield of their owner's or aboard his
  carriers (L23.9); a base takes aircraft while the 12-point stack of its area holds
  (L19.17, L23.75) and a carrier holds at most 12 points of aircraft (L27.13, option
  ``carrier_points``).  ``bases`` says how many points each base can still take.
* An air move flies at most 4 bordering areas (L19.29, L23.8, option ``air_range``) from
  one own base to another (L19.29), along the route written in the order (ruling G20),
  once a turn (L19.30-L19.31).  An air order at an area of another player's units is an
  air strike (``engine/taktyczne/air_strike``), not a move.
* Every area flown over where another player has AA guns or based fighters is fired on,
  out and back (L23.20, L23.38, L23.60-L23.62): each AA gun once, a six hits (L23.27-L23.28);
  each fighter once if its owner's standing ``patrol`` order lets it (default always), an
  even roll hits a bomber, a six a fighter (L23.44-L23.46, L23.68); the aircraft do not fire
  back (L23.38, L23.47).  Hits fall on bombers first (ruling overflight_targets).
* Aircraft whose base is lost (a lost battle, a destroyed airfield or carrier, a blast)
  fly to another base in range with room by their owner's standing ``evacuate`` order, else
  to the nearest (L23.34-L23.35, L23.75); with none, they are destroyed (L23.76).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...model.events import Moved
from ...model.ts_air import AircraftEvacuated, OverflightFire
from ...model.units import Domain
from ..context import TurnContext
from ..errors import OrderFailed
from ..turn_rules import declare_standing, standing_reason
from ..working import Piece, WorkingBoard, count_types
from .stacking import area_points, limits, points, unit_value
from .state import AIRFIELD, objects

OUT, BACK, MOVE = "out", "back", "move"
BATTLE_LOST, BASE_DESTROYED, BLAST = "battle_lost", "base_destroyed", "blast"

AIR_RANGE = 4          # L19.29, L23.8 (option air_range)
CARRIER_POINTS = 12    # L27.13 (option carrier_points)
AA_HIT = 6             # L23.28, L23.37: an AA gun hits on a six
FIGHTER_HIT = 6        # L23.68: a fighter hits a fighter on a six (a bomber on an even roll, L23.45)
AA_RULE = "rule (every AA gun fires at each overflight, L23.61)"

PATROL_VALUES = ("always", "bombers", "never")
PATROL = declare_standing(
    "patrol", "always", PATROL_VALUES,
    "Taktyczne Starcie: whether the power's fighters based in an area fire at enemy aircraft "
    "flying over it (L23.44-L23.46, L23.62): 'patrol all: always' (default), 'patrol 23: "
    "bombers' (at bombers only), 'patrol S05: never'.")
NEAREST = "nearest"


def _check_evacuate(ctx, power: str, value: str):
    if value == NEAREST:
        return None
    for area in (a.strip() for a in value.split(",")):
        if area not in ctx.board.map.territories:
            return "ts_evacuate_unknown", {"space": area}
    return None


EVACUATE = declare_standing(
    "evacuate", NEAREST, (),
    "Taktyczne Starcie: where the power's aircraft fly when they lose their base in an area "
    "(a lost battle, a destroyed airfield or carrier, a blast; L23.34-L23.35, L23.75): "
    "'evacuate 23: 24, S05' tries those bases in that order, then the nearest; default the "
    "nearest own base in range with room (fewest areas, then fewest enemy guns and fighters "
    "on the way); none: the aircraft are destroyed (L23.76).", check=_check_evacuate)


# ------------------------------------------------------------------------------ what is what

def _types(board: WorkingBoard, option: str) -> frozenset[str]:
    """The unit types an option names (``"aa_gun_land, aa_gun_sea"``)."""
    return frozenset(t.strip() for t in str(board.rules.option(option, "")).split(",") if t.strip())


def is_aircraft(board: WorkingBoard, piece: Piece | str) -> bool:
    """A unit that flies: of the air domain and with a range (an atomic bomb, air but
    carried, is not one)."""
    ut = board.utype(piece)
    return ut.domain == Domain.AIR and ut.move > 0


def is_carrier(board: WorkingBoard, piece: Piece | str) -> bool:
    """A ship that carries aircraft."""
    ut = board.utype(piece)
    return ut.domain == Domain.SEA and ut.cargo is not None and ut.cargo.domain == Domain.AIR


def air_range(board: WorkingBoard) -> int:
    return int(board.rules.option("air_range", AIR_RANGE))


def carrier_points(board: WorkingBoard) -> int:
    return int(board.rules.option("carrier_points", CARRIER_POINTS))


def based(board: WorkingBoard, area: str, power: str) -> list[Piece]:
    """``power``'s aircraft based in ``area``: at its airfield, or aboard its carriers."""
    return [p for p in board.at(area, include_cargo=True)
            if p.owner == power and is_aircraft(board, p)]


def carriers(board: WorkingBoard, sea: str, power: str) -> list[Piece]:
    return [p for p in board.at(sea) if p.owner == power and is_carrier(board, p)]


# ------------------------------------------------------------------------------------ bases

def bases(board: WorkingBoard, power: str) -> dict[str, int]:
    """Area or sea -> the aircraft points it can still take: the land areas ``power`` holds
    with an airfield of its own (L23.9), and the seas of its carriers; the 12-point stack
    of the area (L19.17, L23.75; aircraft aboard count, ruling G7) and a carrier's 12 points
    (L27.13)."""
    stack = limits(board)[0]
    found: dict[str, int] = {}
    for area, here in objects(board).items():
        if here.get(AIRFIELD) and board.owners.get(area) == power and not board.map[area].is_sea:
            found[area] = max(0, stack - area_points(board, area, power))
    seas = sorted({p.space for p in board.pieces.values()
                   if p.owner == power and p.carried_by is None and is_carrier(board, p)})
    for sea in seas:
        deck = sum(_deck_room(board, c) for c in carriers(board, sea, power))
        found[sea] = max(0, min(deck, stack - area_points(board, sea, power)))
    return dict(sorted(found.items()))


def _deck_room(board: WorkingBoard, carrier: Piece) -> int:
    return max(0, carrier_points(board) - points(board, board.cargo_of(carrier)))


def decks(board: WorkingBoard, pieces: Sequence[Piece], sea: str, power: str) -> dict[int, int] | None:
    """Which of ``power``'s carriers in ``sea`` takes each of ``pieces`` (uid -> carrier
    uid), the largest first, each on the first carrier with room; None if they do not fit."""
    room = {c.uid: _deck_room(board, c) for c in carriers(board, sea, power)}
    found: dict[int, int] = {}
    for piece in sorted(pieces, key=lambda p: (-unit_value(board, p.type), p.uid)):
        value = unit_value(board, piece.type)
        deck = next((uid for uid, left in room.items() if left >= value), None)
        if deck is None:
            return None
        room[deck] -= value
        found[piece.uid] = deck
    return found


def room_for(board: WorkingBoard, pieces: Sequence[Piece], base: str, power: str,
             room: dict[str, int] | None = None) -> bool:
    """Whether ``base`` can take ``pieces`` (its stack, and its carriers' decks at sea)."""
    room = bases(board, power) if room is None else room
    if base not in room or room[base] < points(board, pieces):
        return False
    return not board.map[base].is_sea or decks(board, pieces, base, power) is not None


def land(board: WorkingBoard, pieces: Sequence[Piece], base: str, power: str) -> None:
    """Put ``pieces`` at ``base``: on the ground, or aboard carriers (``room_for`` first)."""
    deck = decks(board, pieces, base, power) if board.map[base].is_sea else {}
    for piece in pieces:
        piece.carried_by = None
        piece.space = base
        piece.carried_by = deck.get(piece.uid) if deck else None
        for cargo in board.cargo_of(piece):          # a bomber's atomic bomb (G26)
            cargo.space = base


# ---------------------------------------------------------------------------------- flights

def check_route(board: WorkingBoard, path: Sequence[str]) -> tuple[str, dict] | None:
    """Why ``path`` is not a flight: more than the range, or a step to a non-bordering area
    (tangent areas do not count, L19.29)."""
    steps, most = len(path) - 1, air_range(board)
    if steps < 1 or steps > most:
        return "ts_air_range", {"steps": steps, "limit": most}
    for here, there in zip(path, path[1:]):
        if there not in board.map.neighbours(here):
            return "ts_not_bordering", {"space": here, "target": there}
    return None


def fly(ctx: TurnContext, pieces: list[Piece], path: Sequence[str], *, leg: str) -> list[Piece]:
    """Flies ``pieces`` along ``path`` (``path[0]`` where they are, bordering steps; ``leg``:
    ``out``, ``back`` or ``move``) with the fire at every area flown over (not the start;
    on the way out not the end either: a strike's target fights its own battle); removes the
    aircraft shot down, emits the events and returns the survivors, not placed at the end."""
    board = ctx.board
    flying = [p for p in pieces if board.pieces.get(p.uid) is p]
    if not flying:
        return flying
    mover = flying[0].owner
    over = path[1:-1] if leg == OUT else path[1:]
    for area in over:
        for power in _enemies(board, mover):
            if not flying:
                return flying
            flying = _aa_fire(ctx, area, power, mover, flying, leg)
            if flying:
                flying = _fighter_fire(ctx, area, power, mover, flying, leg)
    return flying


def _enemies(board: WorkingBoard, mover: str) -> list[str]:
    return [p for p in board.rules.turn_order if p != mover and board.enemy_of(mover, p)]


def shooters(board: WorkingBoard, area: str, power: str) -> tuple[list[Piece], list[Piece]]:
    """``power``'s AA guns and based fighters in ``area``."""
    guns = _types(board, "aa_guns")
    fighters = _types(board, "fighters")
    here = board.at(area, include_cargo=True)
    return ([p for p in here if p.owner == power and p.type in guns],
            [p for p in here if p.owner == power and p.type in fighters])


def _target(board: WorkingBoard, flying: list[Piece], bombers_only: bool = False) -> Piece | None:
    """Whom a shot at an overflight aims at: a bomber first, the lowest uid first (ruling
    overflight_targets)."""
    bombers = _types(board, "bombers")
    ranked = sorted(flying, key=lambda p: (p.type not in bombers, p.uid))
    if bombers_only:
        ranked = [p for p in ranked if p.type in bombers]
    return ranked[0] if ranked else None


def _aa_fire(ctx, area, power, mover, flying, leg) -> list[Piece]:
    guns, _ = shooters(ctx.board, area, power)
    if not guns or ctx.dice is None:
        return flying
    faces = tuple(ctx.dice.roll(len(guns), f"{area} overflight {power} aa"))
    lost = []
    for face in faces:
        target = _target(ctx.board, [p for p in flying if p not in lost])
        if target is not None and face >= AA_HIT:
            lost.append(target)
    return _shot_down(ctx, area, power, mover, flying, lost, "aa", faces, leg, AA_RULE)


def _fighter_fire(ctx, area, power, mover, flying, leg) -> list[Piece]:
    _, fighters = shooters(ctx.board, area, power)
    if not fighters or ctx.dice is None:
        return flying
    value, why = standing_reason(ctx, power, PATROL.name, area)
    if value == "never":
        return flying
    bombers = _types(ctx.board, "bombers")
    if value == "bombers" and not any(p.type in bombers for p in flying):
        return flying
    faces = tuple(ctx.dice.roll(len(fighters), f"{area} overflight {power} fighters"))
    lost = []
    for face in faces:
        target = _target(ctx.board, [p for p in flying if p not in lost], value == "bombers")
        if target is None:
            continue
        if (face % 2 == 0) if target.type in bombers else face >= FIGHTER_HIT:
            lost.append(target)
    return _shot_down(ctx, area, power, mover, flying, lost, "fighters", faces, leg, why)


# What else happens where an aircraft is shot down over an area: the atomic bomb of a
# bomber carrying one explodes there (L23.65; ``nuclear`` registers it, as it imports this
# module).  Each: ``(ctx, piece, area) -> None``, called after the fire's event.
SHOT_DOWN_OVER: list = []


def _shot_down(ctx, area, power, mover, flying, lost, shooters_kind, faces, leg, why) -> list[Piece]:
    for piece in lost:
        ctx.board.remove(piece)
    ctx.emit(OverflightFire(area, power, mover, shooters_kind, len(faces), faces,
                            count_types(lost), leg, why))
    for piece in lost:
        for then in SHOT_DOWN_OVER:
            then(ctx, piece, area)
    return [p for p in flying if p not in lost]


# ------------------------------------------------------------------------------ evacuation

def guarded_areas(board: WorkingBoard, areas: Iterable[str], power: str) -> list[str]:
    """Those of ``areas`` where an enemy of ``power`` has AA guns or fighters."""
    enemies = _enemies(board, power)
    return [a for a in areas if any(any(shooters(board, a, enemy)) for enemy in enemies)]


def routes(board: WorkingBoard, start: str, power: str) -> dict[str, tuple[str, ...]]:
    """Every area within range of ``start`` -> the flight there: the fewest areas, then the
    fewest areas where an enemy has AA guns or fighters, then the first in the map's order."""
    danger: dict[str, int] = {}

    def risky(area: str) -> int:
        if area not in danger:
            danger[area] = len(guarded_areas(board, (area,), power))
        return danger[area]

    best: dict[str, tuple[int, int, tuple[str, ...]]] = {}
    frontier = [(start,)]
    for _ in range(air_range(board)):
        nxt = []
        for path in frontier:
            for there in sorted(board.map.neighbours(path[-1])):
                if there in path:
                    continue
                step = path + (there,)
                key = (len(step), sum(risky(a) for a in step[1:]), step)
                if there != start and (there not in best or key < best[there]):
                    best[there] = key
                nxt.append(step)
        frontier = nxt
    return {area: key[2] for area, key in best.items()}


def evacuate(ctx: TurnContext, area: str, power: str, pieces: list[Piece], cause: str, *,
             avoid: Iterable[str] = ()) -> None:
    """Aircraft of ``power`` that lost their base in ``area`` (``cause``: ``battle_lost``,
    ``base_destroyed``, ``blast``) fly to another base within range and the 12-point caps:
    the bases of its standing ``evacuate`` order in the order written, then the nearest;
    with none they are destroyed (L23.34-L23.36, L23.75-L23.76, ruling G28).  Called while
    they are still there (before their carrier is removed: removing it removes its cargo);
    ``avoid``: bases not to land at (the other areas of a blast)."""
    board = ctx.board
    planes = sorted((p for p in pieces if board.pieces.get(p.uid) is p and is_aircraft(board, p)),
                    key=lambda p: (-unit_value(board, p.type), p.uid))
    if not planes:
        return
    value, why = standing_reason(ctx, power, EVACUATE.name, area)
    listed = [] if value == NEAREST else [a.strip() for a in value.split(",")]
    room = bases(board, power)
    for lost_base in (area, *avoid):
        room.pop(lost_base, None)
    flights = routes(board, area, power)
    order = [a for a in dict.fromkeys(listed) if a in room and a in flights]
    order += sorted((a for a in room if a in flights and a not in order),
                    key=lambda a: (len(flights[a]), flights[a]))
    going: dict[str, list[Piece]] = {}
    lost: list[Piece] = []
    for plane in planes:
        for base in order:
            if room_for(board, going.get(base, []) + [plane], base, power, room):
                going.setdefault(base, []).append(plane)
                break
        else:
            lost.append(plane)
    for base, group in going.items():
        ctx.emit(AircraftEvacuated(area, power, cause, count_types(group), base, flights[base], why))
        for piece in group:
            piece.carried_by = None
        survivors = fly(ctx, group, flights[base], leg=MOVE)
        land(board, survivors, base, power)
    if lost:
        for piece in lost:
            board.remove(piece)
        ctx.emit(AircraftEvacuated(area, power, cause, count_types(lost), "", (), why))


def airfield_lost(ctx: TurnContext, area: str, cause: str = BASE_DESTROYED) -> None:
    """After an object of ``area`` is destroyed (a bomb, a long-range gun's hit, L23.34): the
    aircraft there whose owner has no airfield there any more evacuate.  For any caller of
    ``objects.destroy_object``; a carrier sunk is the caller's (``evacuate`` before removing
    it)."""
    board = ctx.board
    here = objects(board).get(area, {})
    for power in sorted({p.owner for p in board.at(area) if is_aircraft(board, p)}):
        if here.get(AIRFIELD) and board.owners.get(area) == power:
            continue
        evacuate(ctx, area, power, [p for p in board.at(area)
                                    if p.owner == power and is_aircraft(board, p)], cause)


def carrier_lost(ctx: TurnContext, area: str, carrier: Piece, cause: str = BASE_DESTROYED) -> None:
    """Before a unit hit in ``area`` is removed (a bomb, a long-range gun's shell): if it is
    a carrier, its aircraft fly off first and evacuate (L23.34); removing it would remove
    them with it."""
    board = ctx.board
    planes = [p for p in board.cargo_of(carrier) if is_aircraft(board, p)]
    for plane in planes:
        plane.carried_by = None
    evacuate(ctx, area, carrier.owner, planes, cause)


def names_aircraft(board: WorkingBoard, units: Iterable) -> bool:
    """Whether an order's unit groups name an aircraft type."""
    return any(is_aircraft(board, g.type) for g in units if g.type in board.rules.units)


def move_order(ctx: TurnContext, order, pieces: list[Piece]) -> list[Piece]:
    """The mover's air move ``order`` of ``pieces`` (chosen in ``order.path[0]``): along its
    route to an own base with room (L19.29, L23.8, G20), fired on over enemy areas; the
    survivors landed there and returned.  ``OrderFailed`` if the order cannot be flown."""
    board, power = ctx.board, ctx.power
    path = tuple(order.path)
    problem = check_route(board, path)
    if problem is None and any(not is_aircraft(board, p) for p in pieces):
        problem = "ts_air_alone", {}
    if problem is None and any(p.owner != power for p in board.at(path[-1])):
        problem = "ts_air_war_waits", {}          # an air strike (air_strike), not a move
    if problem is None and not room_for(board, pieces, path[-1], power):
        room = bases(board, power)
        problem = (("ts_air_no_base", {"target": path[-1]}) if path[-1] not in room else
                   ("ts_air_no_room", {"target": path[-1], "points": points(board, pieces),
                                       "room": room[path[-1]]}))
    if problem is not None:
        raise OrderFailed(problem[0], **problem[1])
    guarded = guarded_areas(board, path[1:], power)
    if guarded:                          # said by the check too: the route was the writer's
        ctx.warn(order.line, "ts_air_over_guns", areas=guarded)
    ctx.emit(Moved(power, "main", count_types(pieces), path, order.line))
    for piece in pieces:
        piece.carried_by = None
    survivors = fly(ctx, pieces, path, leg=MOVE)
    land(board, survivors, path[-1], power)
    return survivors
