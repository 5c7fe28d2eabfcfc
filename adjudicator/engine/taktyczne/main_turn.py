"""Taktyczne Starcie's main turn (digest §1.5 step 3, ruling G3): the mover's ``move``
orders carried out one by one in the order written, moves and attacks mixed.

* Every unit except aircraft moves one bordering area per turn (L19.19-L19.22).  A land unit
  boards an own ferry by moving into its sea and lands by moving from the sea into a
  bordering land area; each is its one move, so a unit that boarded this turn lands next
  turn (L19.24-L19.28, ruling G8); a ferry that moves carries its cargo.
* After every order the 12-point stack holds (``stacking``): an order that would break it is
  refused whole.
* Entering an area of another player's units is an attack, by units from the one area the
  order starts in (L19.35); an area is attacked once per turn (ruling G9); the attacking
  points are at most the stack (L23.74); only units that fight on the board of the area's
  terrain attack (L19.47).  The battle is fought through the fight kind ``ts_board``
  (``board_battles.fight_board_battle``).
* The winner takes the area with its objects and the loser's empty ferries and carriers; a
  loaded ferry and AA guns of the loser are destroyed, his aircraft evacuate (L19.39-L19.44,
  L23.75, rulings capture_empty, G28); a lost attack loses the attacking units (ruling G10).
* An area held only by objects or nobody is entered freely and taken (L19.36).
* Every entry into an area without other players' units (a move, or a won attack's
  survivors standing in the area) runs the other players' reactions (``reactions``: long-range
  gun reaction fire, L31.38-L31.41); ``fire lrg`` lines (``ACTIONS``) run among the moves in
  the order written (``guns``, L31.37).

Aircraft fly up to 4 areas between own bases (``air.move_order``, L19.29, G20); the loser's
aircraft evacuate (``air.evacuate``, L23.75).  An air order at another player's area is an air
strike: refused here with ``ts_air_war_waits``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...model.events import Moved, OrderSkipped, UnitsCaptured
from ...model.orders import Move
from ...model.tactical import ATTACKER, DEFENDER
from ...model.taktyczne import BoardBattleFought, MainMapUnitsTaken
from ...model.units import Domain
from ..battles import FIGHTS, CombatRun, fight_kind
from ..capture import set_owner
from ..context import TurnContext
from ..errors import OrderFailed, TurnPaused
from ..movement import describe_order
from ..steps import step
from ..turn_rules import declare_flag, declare_state
from ..working import Piece, count_types
from . import air, air_strike, elimination, guns, mines
from .board_battles import (board_forces, board_rules, fight_board_battle, mines_lost, plans_for,
                            survivors)
from .reactions import run_reactions
from .stacking import is_ferry, limits, points, stack_problems, unit_value

MAIN_TURN = "ts_main_turn"
BOARD_FIGHT = "ts_board"
MOVED = "ts_moved"              # Piece.marks: the unit has made its one move this turn
ATTACKED = "ts_attacked"        # TurnContext.mechanic: area attacked this turn -> (line, origin)
PENDING = "ts_pending_attack"   # TurnContext.mechanic: the attack the fight kind fights


@step(MAIN_TURN)
def main_turn(ctx: TurnContext, dice) -> None:
    """Every ``move`` order in the order written (ruling G3), then the game's end: the last
    player standing (L11)."""
    orders = sorted((*(o for o in (*ctx.orders.combat, *ctx.orders.noncombat)
                       if isinstance(o, Move)), *ctx.orders.of(*ACTIONS)), key=lambda o: o.line)
    resume, ctx.resume = ctx.resume, None
    for index, order in enumerate(orders):
        ctx.order_index = index
        if resume is not None and index <= resume.order:    # a paused turn going on: the
            if index == resume.order:                       # orders before were carried out
                resume_attack(ctx, order, resume.outcome)
            continue
        try:
            carry_out(ctx, order)
        except OrderFailed as failure:
            if ctx.checking:
                ctx.error(order.line, failure.code, **failure.params)
            else:
                ctx.emit(OrderSkipped(order.line, _text(order), failure.code,
                                      dict(failure.params)))
    scuttle_unused(ctx)
    elimination.last_standing(ctx)


def scuttle_unused(ctx: TurnContext) -> None:
    """A ``scuttle`` line for an area the mover did not attack this turn does nothing."""
    attacked = ctx.mechanic(ATTACKED, dict)
    for order in ctx.orders.of("scuttle"):
        if order.space not in attacked:
            ctx.warn(order.line, "ts_scuttle_unused", space=order.space)


# Orders of other kinds carried out in the written order among the moves: kind -> (carry
# out, canonical text).
ACTIONS = {"lrg_fire": (guns.fire_order, guns.fire_text),       # L31.37: move, fire, in any order
           "strike": (air_strike.strike, air_strike.strike_text)}   # L23.10-L23.64


def _text(order) -> str:
    return describe_order(order) if isinstance(order, Move) else ACTIONS[order.kind][1](order)


def carry_out(ctx: TurnContext, order) -> None:
    """One order: a move, a boarding, a landing, an attack, or one of ``ACTIONS``."""
    if not isinstance(order, Move):
        ACTIONS[order.kind][0](ctx, order)
        return
    board = ctx.board
    if air.names_aircraft(board, order.units):
        air_move(ctx, order)
        return
    if len(order.path) != 2:
        raise OrderFailed("ts_one_area", path=list(order.path))
    origin, target = order.path
    if target not in board.map.neighbours(origin):
        raise OrderFailed("ts_not_bordering", space=origin, target=target)
    pieces = choose(ctx, order, origin)
    attacked = ctx.mechanic(ATTACKED, dict)
    first = attacked.get(target)
    if first is not None and first[0] == order.line and first[1] != origin:
        raise OrderFailed("ts_single_origin", target=target, space=first[1])     # L19.35
    enemies = [p for p in board.at(target) if p.owner != ctx.power]
    if enemies:
        attack(ctx, order, pieces, origin, target, enemies)
    else:
        move(ctx, order, pieces, origin, target)


def air_move(ctx: TurnContext, order: Move) -> None:
    """An order of aircraft: a flight of up to 4 areas to an own base (``air.move_order``);
    each aircraft flies once a turn (L19.30-L19.31)."""
    pieces = choose(ctx, order, order.path[0])
    for piece in air.move_order(ctx, order, pieces):
        piece.marks.add(MOVED)


def choose(ctx: TurnContext, order: Move, origin: str) -> list[Piece]:
    """The units the order names: the mover's in ``origin`` (land units aboard his
    ferries there too) that have not moved this turn, lowest uid first."""
    board = ctx.board
    chosen: list[Piece] = []
    for group in order.units:
        found = [p for p in board.at(origin, include_cargo=True)
                 if p.owner == ctx.power and p.type == group.type and MOVED not in p.marks
                 and p not in chosen and _movable_from(board, p)]
        if len(found) < max(group.count, 1):
            raise OrderFailed("ts_units_missing", count=max(group.count, 1), unit=group.type,
                              space=origin, found=len(found))
        chosen.extend(found[:group.count] if group.count else found)
    return chosen


def _movable_from(board, piece: Piece) -> bool:
    """On the board, a land unit aboard a ferry (it lands), or aircraft aboard a carrier
    (they fly)."""
    if piece.carried_by is None:
        return True
    return board.utype(piece).domain in (Domain.LAND, Domain.AIR)


# ------------------------------------------------------------------------------- moves

def move(ctx: TurnContext, order: Move, pieces: list[Piece], origin: str, target: str) -> None:
    """Into an area with no other player's units: own, empty, or objects only (L19.36)."""
    board = ctx.board
    before = [(p, p.space, p.carried_by, set(p.marks)) for p in pieces]
    sea = board.map[target].is_sea
    try:
        for piece in pieces:
            _step(ctx, piece, target, sea)
        problems = stack_problems(board, (target, origin), ctx.power)
        if problems:
            code, params = problems[0]
            raise OrderFailed(code, **params)
    except OrderFailed:
        for piece, space, carried_by, marks in before:     # the order is refused whole
            piece.space, piece.carried_by, piece.marks = space, carried_by, marks
            for cargo in board.cargo_of(piece):
                cargo.space = space
        raise
    ctx.emit(Moved(ctx.power, "main", count_types(pieces), (origin, target), order.line))
    entered(ctx, pieces, target)


def entered(ctx: TurnContext, pieces: list[Piece], area: str) -> None:
    """The mover's ``pieces`` stand in ``area``, which holds no other player's units: the
    other players' reactions (``reactions``: LRG reaction fire, L31.38-L31.41; a loaded
    ferry entering a sea before it unloads, L31.40), then the mover takes a land area if
    any of them is left (ruling lrg_entry_destroyed)."""
    board = ctx.board
    loaded = any(board.cargo_of(p) for p in pieces if is_ferry(board, p))
    run_reactions(ctx, "enter", ctx.power, area, pieces, before_unload=loaded)
    left = not pieces or any(board.pieces.get(p.uid) is p for p in pieces)
    if left and not board.map[area].is_sea:
        take_area(ctx, area)


def _step(ctx: TurnContext, piece: Piece, target: str, sea: bool) -> None:
    """One unit of a move into ``target``: a ship sails with its cargo, a land unit boards
    an own ferry at sea (G8) or steps or lands on land."""
    board = ctx.board
    domain = board.utype(piece).domain
    if domain == Domain.SEA and not sea:
        raise OrderFailed("ts_ship_on_land", unit=piece.type, target=target)
    if domain == Domain.LAND and sea and piece.carried_by is not None:
        raise OrderFailed("ts_aboard_lands_only", unit=piece.type, target=target)   # G8
    if domain == Domain.LAND and sea:
        _put(piece, target, _ferry_with_room(ctx, target, piece).uid)
    else:
        _put(piece, target, None)
    if domain == Domain.SEA:
        for cargo in board.cargo_of(piece):
            cargo.space = target


def _put(piece: Piece, space: str, carried_by: int | None) -> None:
    piece.carried_by = carried_by
    piece.space = space
    piece.marks.add(MOVED)


def _ferry_with_room(ctx: TurnContext, sea: str, piece: Piece) -> Piece:
    """The mover's first ferry in ``sea`` with room for ``piece`` (L27.19)."""
    board = ctx.board
    _, room, _ = limits(board)
    value = unit_value(board, piece.type)
    ferries = [p for p in board.at(sea) if p.owner == ctx.power and is_ferry(board, p)]
    if not ferries:
        raise OrderFailed("ts_no_ferry", unit=piece.type, space=sea)
    for ferry in ferries:
        if points(board, board.cargo_of(ferry)) + value <= room:
            return ferry
    raise OrderFailed("ts_ferry_over", space=sea, points=value + min(
        points(board, board.cargo_of(f)) for f in ferries), limit=room)


def take_area(ctx: TurnContext, area: str) -> None:
    """The mover takes a land area (with its objects: they belong to its holder, L19.39,
    L27.28); its former holder may be eliminated."""
    board = ctx.board
    previous = board.owners.get(area)
    if previous == ctx.power:
        return
    set_owner(ctx, area, ctx.power, previous, liberated=False)
    if previous:
        elimination.check(ctx, previous)


# ----------------------------------------------------------------------------- attacks

def attack(ctx: TurnContext, order: Move, pieces: list[Piece], origin: str, target: str,
           enemies: list[Piece]) -> None:
    board = ctx.board
    attacked = ctx.mechanic(ATTACKED, dict)
    if target in attacked:
        raise OrderFailed("ts_attacked_twice", target=target)        # ruling G9
    battle = "sea" if board.map[target].is_sea else "land"
    kinds = board_rules(ctx).kinds
    for piece in pieces:
        kind = kinds.get(piece.type)
        if kind is None or kind.battle != battle:
            raise OrderFailed("ts_cannot_attack", unit=piece.type, target=target)   # L19.47
    guns.check_attackers(pieces)                               # L31.31-L31.32
    stack, _, _ = limits(board)
    value = points(board, pieces) + air_strike.struck(ctx, target)     # L23.74, L23.79-L23.80
    if value > stack:
        raise OrderFailed("ts_attack_over", target=target, points=value, limit=stack)   # L23.74
    attacked[target] = (order.line, origin)
    defender = enemies[0].owner
    mine = board_rules(ctx).mines.get(battle)
    fighters = [p for p in enemies if p.type == mine
                or ((k := kinds.get(p.type)) is not None and k.battle == battle)]
    ctx.emit(Moved(ctx.power, "main", count_types(pieces), (origin, target), order.line))
    for piece in pieces:
        piece.marks.add(MOVED)
    air_strike.defending_bombers(ctx, target, defender, pieces)          # L23.77-L23.78
    pieces = [p for p in pieces if board.pieces.get(p.uid) is p]
    if not pieces:                                       # every attacker bombed out
        elimination.check(ctx, ctx.power, by=defender)
        return
    if not fighters:                                      # only main-map units (L19.43)
        settle_main_map(ctx, target, defender, enemies)
        _occupy(ctx, pieces, target)
        elimination.check(ctx, defender, by=ctx.power)    # his last units taken at sea (L19.49)
        return
    ctx.mechanic(PENDING, dict)[target] = (defender, pieces, enemies)
    FIGHTS[BOARD_FIGHT](ctx, target, ctx.dice, CombatRun())


@fight_kind(BOARD_FIGHT)
def board_fight(ctx: TurnContext, area: str, dice, run: CombatRun) -> None:
    """The fight kind of a main-map attack on defended units: the board battle
    (``fight_board_battle``), then its result on the main map."""
    defender, attackers, defenders = ctx.mechanic(PENDING, dict).pop(area)
    battle = "sea" if ctx.board.map[area].is_sea else "land"
    forces, names = board_forces(ctx, battle, {ATTACKER: attackers, DEFENDER: defenders})
    plans = plans_for(ctx, area, ctx.power, defender, forces=forces)
    try:
        forces, plans = mines.unseal(ctx, area, defender, forces, plans)   # sealed layout
        event = fight_board_battle(ctx, area, ctx.power, defender, forces, plans)
    except TurnPaused:     # a live battle or a mine reveal: the turn goes on after it
        keep_paused(ctx, attackers)
        raise
    ctx.emit(event)
    apply_battle(ctx, event, names, attackers)


# A turn paused at a live board battle (``live_turn``) is kept in the state: the units that
# moved before it (their one move is made) and the attackers, as unit flags; the areas
# attacked, as state.  When the battle ends the turn goes on from the attack's order.
MOVED_BEFORE_PAUSE = declare_flag("ts_moved_before_pause")
ATTACKING = declare_flag("ts_attacking")
ATTACKED_BEFORE_PAUSE = declare_state("ts_attacked_before_pause", dict)


# the turn's marks kept across the pause: a unit's one move, a gun's one shot and its board
# battle (guns.FIRED, guns.FOUGHT, L31.31-L31.37)
KEPT_MARKS = {MOVED: MOVED_BEFORE_PAUSE, guns.FIRED: declare_flag("ts_lrg_fired_before_pause"),
              guns.FOUGHT: declare_flag("ts_fought_before_pause")}


def keep_paused(ctx: TurnContext, attackers: list[Piece]) -> None:
    board = ctx.board
    for piece in board.pieces.values():
        for mark, flag in KEPT_MARKS.items():
            if mark in piece.marks:
                board.set_flag(piece, flag)
    for piece in attackers:
        board.set_flag(piece, ATTACKING)
    board.write_state(ATTACKED_BEFORE_PAUSE, {area: [line, origin] for area, (line, origin)
                                              in sorted(ctx.mechanic(ATTACKED, dict).items())})


def resume_attack(ctx: TurnContext, order: Move, event: BoardBattleFought | mines.Reveal) -> None:
    """The attack of ``order`` whose live battle ``event`` ended: its result on the main
    map, as ``board_fight`` applies a battle by plan; or whose battle waited for the
    defender's mine layout (``mines.Reveal``): the battle, fought now."""
    board = ctx.board
    attackers = []
    for piece in list(board.pieces.values()):
        for mark, flag in KEPT_MARKS.items():
            if flag in piece.flags:
                piece.marks.add(mark)
                board.set_flag(piece, flag, on=False)
        if ATTACKING in piece.flags:
            attackers.append(piece)
            board.set_flag(piece, ATTACKING, on=False)
    attacked = ctx.mechanic(ATTACKED, dict)
    for area, (line, origin) in board.read_state(ATTACKED_BEFORE_PAUSE, default={}).items():
        attacked[area] = (line, origin)
    board.extras.pop(ATTACKED_BEFORE_PAUSE, None)
    if isinstance(event, mines.Reveal):
        ctx.mechanic(mines.REVEALED, dict)[event.area] = event
        ctx.mechanic(PENDING, dict)[event.area] = (
            event.power, attackers, [p for p in board.at(event.area) if p.owner == event.power])
        FIGHTS[BOARD_FIGHT](ctx, event.area, ctx.dice, CombatRun())
        return
    defenders = [p for p in board.at(event.area) if p.owner == event.defender]
    _, names = board_forces(ctx, event.board, {ATTACKER: attackers, DEFENDER: defenders})
    apply_battle(ctx, event, names, attackers)


def apply_battle(ctx: TurnContext, event: BoardBattleFought, names: dict[str, dict[str, int]],
                 attackers: list[Piece]) -> None:
    """A board battle's result on the main map (L19.39-L19.46)."""
    board = ctx.board
    area = event.area
    mines.report_fired(ctx, event)
    mines.retire_published(ctx, event)
    for side in (ATTACKER, DEFENDER):
        kept = survivors(event, side)
        for uid in names[side].values():             # used on the board this turn (L31.31-L31.32)
            if uid in board.pieces:
                board.pieces[uid].marks.add(guns.FOUGHT)
        for name, uid in names[side].items():
            piece = board.pieces.get(uid)
            if name not in kept and piece is not None:
                board.remove(piece)
    board_mine = board_rules(ctx).mines.get(event.board)
    spent = mines_lost(event)
    for piece in [p for p in board.at(area) if p.owner == event.defender and p.type == board_mine]:
        if spent <= 0:
            break
        board.remove(piece)
        spent -= 1
    if event.winner == event.attacker:
        rest = [p for p in board.at(area) if p.owner == event.defender]
        settle_main_map(ctx, area, event.defender, rest)
        _occupy(ctx, [p for p in attackers if p.uid in board.pieces], area)
    else:
        for piece in attackers:                            # ruling G10: the attack is lost
            if board.pieces.get(piece.uid) is piece:
                board.remove(piece)
    elimination.check(ctx, event.defender, by=event.attacker)
    elimination.check(ctx, event.attacker, by=event.defender)     # his last units lost attacking


def settle_main_map(ctx: TurnContext, area: str, defender: str, pieces: Iterable[Piece]) -> None:
    """The loser's units left in a taken area: empty ferries and carriers captured (the
    attacker's default, ruling capture_empty; destroyed with a ``scuttle`` order for the
    area, L19.43), everything else destroyed: loaded ferries with their cargo, AA guns
    (rulings L19.40, L19.43-L19.44); the aircraft based there evacuate first
    (``air.evacuate``, L23.75-L23.76, ruling G28), so a carrier they leave is empty."""
    board = ctx.board
    scuttle = any(o.space == area for o in ctx.orders.of("scuttle"))
    captured: list[Piece] = []
    destroyed: list[Piece] = []
    pieces = [p for p in pieces if board.pieces.get(p.uid) is p]
    air.evacuate(ctx, area, defender, air.based(board, area, defender), air.BATTLE_LOST)  # G28
    for piece in pieces:
        if board.pieces.get(piece.uid) is not piece or piece.space != area:
            continue
        ut = board.utype(piece)
        if ut.cargo is not None and not board.cargo_of(piece) and not scuttle:
            piece.owner = ctx.power
            piece.captured = True
            piece.marks.add(MOVED)
            captured.append(piece)
        else:
            destroyed.extend(board.remove(piece))
    if captured or destroyed:
        ctx.emit(MainMapUnitsTaken(area, ctx.power, defender, count_types(captured),
                                   count_types(destroyed)))
    if captured:
        ctx.emit(UnitsCaptured(area, ctx.power, defender, count_types(captured)))


def _occupy(ctx: TurnContext, pieces: list[Piece], area: str) -> None:
    """The attack's survivors stand in ``area`` (a landing leaves its ferry) and the mover
    takes it if it is land."""
    for piece in pieces:
        piece.carried_by = None
        piece.space = area
    entered(ctx, pieces, area)        # LRGs may fire once the battle is over (L31.39)
