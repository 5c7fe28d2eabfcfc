"""Combat and noncombat movement: moves, loads and unloads, checked against the rules and
carried out on the working board (digest §4, §5.2, §5.4)."""

from __future__ import annotations

from .capture import take_territory
from .context import Landing, TurnContext
from ..model.events import Blitzed, Loaded, Moved, OrderSkipped, Unloaded
from ..model.orders import Load, Move, Phase, Unload, UnitGroup
from ..model.rules import Ability, Domain
from .working import Piece, WorkingBoard, count_types

COMBAT = Phase.COMBAT.value
NONCOMBAT = Phase.NONCOMBAT.value


class OrderFailed(Exception):
    """An order cannot be carried out; the message says why, for a player."""


# -- unit selection ---------------------------------------------------------------------------

def cargo_matches(board: WorkingBoard, carrier: Piece, wanted: tuple[UnitGroup, ...] | None) -> bool:
    if wanted is None:
        return True
    have = count_types(board.cargo_of(carrier))
    want: dict[str, int] = {}
    for g in wanted:
        want[g.type] = want.get(g.type, 0) + g.count
    return have == dict(sorted(want.items()))


def may_move(board: WorkingBoard, piece: Piece, phase: str) -> str | None:
    """Why ``piece`` may not start a move in ``phase`` (None if it may)."""
    ut = board.utype(piece)
    if ut.has(Ability.STATIC) or ut.move == 0:
        return "never moves"
    if phase in piece.moved_in:
        return "has already moved in this phase"
    if piece.carried_by is not None and ut.domain != Domain.AIR:
        return "is aboard a transport (unload it instead)"
    if piece.carried_by is not None:
        carrier = board.pieces.get(piece.carried_by)
        if carrier is not None and phase in carrier.moved_in:
            return ("rode on a carrier that has already moved (order fighters off a carrier "
                    "before the carrier moves)")
    if piece.loaded_in is not None:
        return "was loaded this turn (loading is its whole move)"
    if ut.domain == Domain.SEA and piece.unloaded:
        return "has unloaded this turn and cannot move again"
    if phase == NONCOMBAT and ut.domain != Domain.AIR:
        if COMBAT in piece.moved_in:
            return "moved in combat this turn"
        if piece.fought:
            return "fought this turn"
        if piece.seaborne:
            return "landed from the sea this turn"
    return None


def select(board: WorkingBoard, power: str, space: str, groups: tuple[UnitGroup, ...],
           phase: str, usable=lambda piece: True) -> list[Piece]:
    """Pick the pieces an order names.  Raises OrderFailed saying what is missing."""
    chosen: list[Piece] = []
    for group in groups:
        ut = board.rules.units[group.type]
        pool = [p for p in board.at(space, include_cargo=ut.domain == Domain.AIR)
                if p.type == group.type and p.owner == power and p not in chosen]
        free = [p for p in pool if may_move(board, p, phase) is None]
        fits = [p for p in free if cargo_matches(board, p, group.cargo)]
        fits.sort(key=lambda p: (not usable(p), len(board.cargo_of(p)) if group.cargo is None else 0,
                                 p.uid))
        if len(fits) < group.count:
            what = f"{group.count} {ut.name if group.count == 1 else ut.display_plural}"
            if group.cargo is not None:
                what += " carrying " + (", ".join(f"{g.count} {g.type}" for g in group.cargo) or "nothing")
            if not pool:
                raise OrderFailed(f"needs {what} in {space}, but none of yours is there now "
                                  "(lost in battle, moved away, or never there)")
            reason = f"needs {what} in {space}, found {len(fits)} that can move"
            blocked = [p for p in pool if p not in free]
            if blocked:
                reason += f" ({len(blocked)} cannot: it {may_move(board, blocked[0], phase)})"
            raise OrderFailed(reason)
        chosen.extend(fits[:group.count])
    return chosen


# -- path rules -------------------------------------------------------------------------------

def check_steps(board: WorkingBoard, path: tuple[str, ...]) -> None:
    if len(path) < 2:
        raise OrderFailed("the path needs at least a start and a destination")
    for a, b in zip(path, path[1:]):
        if not board.map.adjacent(a, b):
            raise OrderFailed(f"{a} is not adjacent to {b}")
    for space in path[1:]:
        if board.map[space].impassable:
            raise OrderFailed(f"{space} is neutral and impassable")


def check_land_path(board: WorkingBoard, piece: Piece, path: tuple[str, ...], phase: str) -> list[str]:
    """Validate a land unit's path; returns the territories it blitzes through."""
    ut = board.utype(piece)
    power = piece.owner
    if any(board.map[s].is_sea for s in path):
        raise OrderFailed(f"{ut.name} cannot enter sea zones (load it onto a transport)")
    steps = path[1:]
    if len(steps) > ut.move:
        raise OrderFailed(f"{ut.name} moves {ut.move}, the path is {len(steps)} long")
    blitzed: list[str] = []
    if phase == NONCOMBAT:
        for s in steps:
            if not board.is_friendly_territory(s, power):
                raise OrderFailed(f"land units may never enter enemy territory {s} in noncombat")
        return blitzed
    for i, s in enumerate(steps[:-1]):
        if board.is_friendly_territory(s, power):
            continue
        if not ut.has(Ability.BLITZ):
            raise OrderFailed(f"{ut.name} must stop in enemy territory {s}")
        if i != 0:
            raise OrderFailed(f"a blitz must go through the enemy territory as its first step ({s})")
        if board.enemies_at(s, power):
            raise OrderFailed(f"cannot blitz through {s}: it holds enemy units")
        if board.map[s].factory:
            raise OrderFailed(f"cannot blitz through {s}: an enemy industrial complex stops land units")
        blitzed.append(s)
    dest = steps[-1]
    if not board.is_enemy_territory(dest, power) and not blitzed:
        raise OrderFailed(f"a combat move must end in an enemy territory; {dest} is friendly "
                          "(move it under 'noncombat:')")
    return blitzed


def check_air_path(board: WorkingBoard, piece: Piece, path: tuple[str, ...], phase: str) -> None:
    ut = board.utype(piece)
    used = piece.moves_used + len(path) - 1
    if used > ut.move:
        raise OrderFailed(f"{ut.name} has a range of {ut.move}; it has used {piece.moves_used} "
                          f"and this path needs {len(path) - 1} more")


def canal_open(board: WorkingBoard, a: str, b: str, power: str) -> bool:
    canal = board.map.canal_between(a, b)
    return canal is None or board.controls_all(power, canal.controlled_by, at_start=True)


def check_sea_path(board: WorkingBoard, piece: Piece, path: tuple[str, ...], phase: str) -> None:
    ut = board.utype(piece)
    power = piece.owner
    if any(board.map[s].is_land for s in path):
        raise OrderFailed(f"{ut.name} cannot enter land")
    if len(path) - 1 > ut.move:
        raise OrderFailed(f"{ut.name} moves {ut.move}, the path is {len(path) - 1} long")
    for a, b in zip(path, path[1:]):
        closed = board.map.closed_zones & {a, b}
        if closed:
            raise OrderFailed(f"no ship may enter or leave {sorted(closed)[0]} (the straits are closed)")
        if not canal_open(board, a, b, power):
            canal = board.map.canal_between(a, b)
            raise OrderFailed(f"the {canal.name} is not controlled by your side since the start of "
                              f"the turn ({' and '.join(canal.controlled_by)})")
    sub = ut.has(Ability.MOVES_THROUGH_ENEMY)
    for s in path[1:-1]:
        if sub and board.enemy_anti_sub_at(s, power):
            raise OrderFailed(f"a submarine must stop on entering {s}: an enemy destroyer is there")
        if board.hostile_zone(s, power) and not sub:
            raise OrderFailed(f"ships must stop on entering hostile sea zone {s}")
    dest = path[-1]
    if phase == NONCOMBAT and board.hostile_zone(dest, power) and not sub:
        raise OrderFailed(f"ships cannot end a noncombat move in hostile sea zone {dest}")


def check_path(board: WorkingBoard, piece: Piece, path: tuple[str, ...], phase: str) -> list[str]:
    domain = board.utype(piece).domain
    if domain == Domain.LAND:
        return check_land_path(board, piece, path, phase)
    if domain == Domain.AIR:
        check_air_path(board, piece, path, phase)
    else:
        check_sea_path(board, piece, path, phase)
    return []


# -- executing orders -------------------------------------------------------------------------

def do_move(ctx: TurnContext, order: Move) -> None:
    board = ctx.board
    phase = order.phase.value
    check_steps(board, order.path)

    def usable(piece: Piece) -> bool:
        try:
            check_path(board, piece, order.path, phase)
            return True
        except OrderFailed:
            return False

    pieces = select(board, ctx.power, order.origin, order.units, phase, usable)
    blitzed: list[str] = []
    for piece in pieces:
        blitzed = check_path(board, piece, order.path, phase) or blitzed
    for piece in pieces:
        piece.space = order.destination
        piece.carried_by = None if board.utype(piece).domain == Domain.AIR else piece.carried_by
        piece.moved_in.add(phase)
        piece.moves_used += len(order.path) - 1
        piece.came_from = order.path[-2]
        piece.order_line = order.line
        for cargo in board.cargo_of(piece):
            cargo.space = order.destination
        if board.utype(piece).domain == Domain.AIR and phase == NONCOMBAT:
            ctx.explicit_air_moves[piece.uid] = order.line
    if phase == COMBAT:
        ctx.attack_lines.setdefault(order.destination, order.line)
    ctx.emit(Moved(ctx.power, phase, count_types(pieces), tuple(order.path), order.line))
    for territory in blitzed:
        previous = board.owners.get(territory)
        take_territory(ctx, territory)
        ctx.emit(Blitzed(ctx.power, territory, previous or ""))


def do_load(ctx: TurnContext, order: Load) -> None:
    board = ctx.board
    phase = order.phase.value
    power = ctx.power
    if board.map[order.origin].is_sea or board.map[order.zone].is_land:
        raise OrderFailed("load from a territory into a sea zone: 'load 2 inf Germany -> SZ 5'")
    if not board.map.adjacent(order.origin, order.zone):
        raise OrderFailed(f"{order.origin} is not adjacent to {order.zone}")
    if board.hostile_zone(order.zone, power):
        raise OrderFailed(f"no loading in hostile sea zone {order.zone}")
    for g in order.units:
        if board.rules.units[g.type].domain != Domain.LAND:
            raise OrderFailed("only land units can be loaded onto transports")
    pieces = select(board, power, order.origin, order.units, phase)
    # Your own transports, and in noncombat an ally's too (the ally moves it on its turn,
    # you unload on your next turn: digest §4.13, [L797]).
    transports = [t for t in board.at(order.zone)
                  if board.utype(t).has(Ability.CARRIES_LAND) and not t.unloaded
                  and (t.owner == power or (phase == NONCOMBAT and board.allied(t.owner, power)))
                  and not (phase == NONCOMBAT and (COMBAT in t.moved_in or t.fought))]
    # Large units first so the "1 of any type + 1 infantry" rule packs well.
    for piece in sorted(pieces, key=lambda p: board.utype(p).cargo_size != "large"):
        transports.sort(key=lambda t: (t.owner != power,
                                       -sum(1 for c in board.cargo_of(t) if c.loaded_in == phase),
                                       -len(board.cargo_of(t)), t.uid))
        target = next((t for t in transports if board.can_carry(t, piece)), None)
        if target is None:
            whose = "of yours" if phase == COMBAT else "of your side"
            raise OrderFailed(f"no transport {whose} in {order.zone} has room for "
                              f"{board.utype(piece).name}")
        piece.carried_by = target.uid
        piece.space = order.zone
        piece.loaded_in = phase
        piece.moved_in.add(phase)
        piece.order_line = order.line
    ctx.emit(Loaded(power, count_types(pieces), order.origin, order.zone, order.line, phase))


def do_unload(ctx: TurnContext, order: Unload) -> None:
    board = ctx.board
    phase = order.phase.value
    power = ctx.power
    zone, target = order.zone, order.target
    if board.map[zone].is_land or board.map[target].is_sea:
        raise OrderFailed("unload from a sea zone into a territory: 'unload 2 inf SZ 6 -> Norway Finland'")
    if not board.map.adjacent(zone, target):
        raise OrderFailed(f"{zone} is not adjacent to {target}")
    if board.map[target].impassable:
        raise OrderFailed(f"{target} is neutral and impassable")
    amphibious = board.is_enemy_territory(target, power)
    if phase == COMBAT and not amphibious:
        raise OrderFailed(f"{target} is friendly: unload there under 'noncombat:'")
    if phase == NONCOMBAT:
        if amphibious:
            raise OrderFailed(f"{target} is enemy territory: an amphibious assault is a combat move")
        if board.hostile_zone(zone, power):
            raise OrderFailed(f"no unloading in hostile sea zone {zone}")
    transports = sorted((t for t in board.at(zone) if board.utype(t).has(Ability.CARRIES_LAND)
                         and board.allied(t.owner, power) and t.unloaded_to in (None, target)
                         and not (phase == NONCOMBAT and t.owner == power
                                  and (COMBAT in t.moved_in or t.fought))
                         and not t.retreated),
                        key=lambda t: (t.unloaded_to != target, t.uid))
    chosen: list[Piece] = []
    for group in order.units:
        need = group.count
        for t in transports:
            for c in board.cargo_of(t):
                # Cargo on an ally's transport is unloaded on the owner's next turn, not this one.
                if t.owner != power and c.loaded_in is not None:
                    continue
                if need and c.type == group.type and c.owner == power and c not in chosen:
                    chosen.append(c)
                    need -= 1
        if need:
            ut = board.rules.units[group.type]
            raise OrderFailed(f"not enough {ut.display_plural.lower()} of yours aboard transports "
                              f"in {zone} that can unload into {target}")
    used = {c.carried_by for c in chosen}
    for t in transports:
        if t.uid in used:
            t.unloaded = True
            t.unloaded_to = target
    if amphibious:
        ctx.landings.append(Landing(zone, target, [c.uid for c in chosen], order.line))
        ctx.attack_lines.setdefault(target, order.line)
        for c in chosen:
            c.moved_in.add(phase)
    else:
        for c in chosen:
            c.carried_by = None
            c.space = target
            c.moved_in.add(phase)
            c.loaded_in = c.loaded_in or phase   # unloading is its whole move too
    ctx.emit(Unloaded(power, count_types(chosen), zone, target, amphibious, order.line, phase))


def run_order(ctx: TurnContext, order) -> bool:
    """Carry out one move/load/unload order.  A failure is a problem in check mode and a
    skipped order in play mode (the outcome of battles may have made it impossible)."""
    try:
        if isinstance(order, Move):
            do_move(ctx, order)
        elif isinstance(order, Load):
            do_load(ctx, order)
        else:
            do_unload(ctx, order)
        return True
    except OrderFailed as failure:
        if ctx.checking or order.phase == Phase.COMBAT:
            ctx.error(order.line, str(failure))
        else:
            ctx.emit(OrderSkipped(order.line, describe_order(order), str(failure)))
        return False


def describe_order(order) -> str:
    units = ", ".join(f"{g.count} {g.type}" for g in order.units)
    if isinstance(order, Move):
        return f"move {units} {' -> '.join(order.path)}"
    if isinstance(order, Load):
        return f"load {units} {order.origin} -> {order.zone}"
    return f"unload {units} {order.zone} -> {order.target}"
