"""Combat and noncombat movement: moves, loads and unloads, checked against the rules and
carried out on the working board (digest §4, §5.2, §5.4).

Every failure is an ``OrderFailed`` with a problem code (wording: ``present.wording``).
A unit moves once per phase, except a ship, which may continue in later orders of the same
phase within its movement allowance when its last leg did not end where it must stop
(the rulebook's "load, move 1, load more, move 1, unload", 1941 [L799-L803])."""

from __future__ import annotations

import attrs

from ..model.events import Blitzed, Loaded, Moved, OrderReduced, OrderSkipped, Unloaded
from ..model.orders import Load, Move, Phase, Unload, UnitGroup
from ..model.rules import WAR
from ..model.units import Domain
from .abilities.base import hooks
from .abilities.movement_rules import may_end_noncombat_in_hostile
from .aircraft import flights
from .battles import FOUGHT, RETREATED, SEABORNE
from .capture import take_territory
from .context import Landing, TurnContext
from .errors import OrderFailed
from .raids import RAIDING
from .sharing import may_ride
from .turn_rules import (ability_hooks, any_hook, commands, declare_standing, hooked, move_range,
                         standing_choice)
from .working import Piece, WorkingBoard, count_types

__all__ = ["OrderFailed", "run_order", "select", "may_move", "check_path", "canal_open",
           "describe_order"]

COMBAT = Phase.COMBAT.value
NONCOMBAT = Phase.NONCOMBAT.value


# -- unit selection ---------------------------------------------------------------------------

def cargo_matches(board: WorkingBoard, carrier: Piece, wanted: tuple[UnitGroup, ...] | None) -> bool:
    if wanted is None:
        return True
    have = count_types(board.cargo_of(carrier))
    want: dict[str, int] = {}
    for g in wanted:
        want[g.type] = want.get(g.type, 0) + g.count
    return have == dict(sorted(want.items()))


def continues_leg(board: WorkingBoard, piece: Piece, phase: str) -> bool:
    """A ship that already moved in ``phase`` may go on if it has movement left and its
    last leg did not stop it (a hostile zone in combat move)."""
    ut = board.utype(piece)
    if ut.domain != Domain.SEA or piece.moves_used >= move_range(board, piece, phase) or piece.unloaded:
        return False
    return not (phase == COMBAT and piece.space != piece.start_space
                and board.hostile_zone(piece.space, piece.owner))


def may_move(board: WorkingBoard, piece: Piece, phase: str) -> str | None:
    """Why ``piece`` may not start a move in ``phase`` (a problem code), or None."""
    ut = board.utype(piece)
    for ability, _params in hooks(ut, "may_move"):
        code = ability.may_move(board, piece, phase)
        if code:
            return code
    if move_range(board, piece, phase) == 0:
        return "static_unit"
    if phase in piece.moved_in and not continues_leg(board, piece, phase):
        return "already_moved"
    if piece.carried_by is not None and ut.domain != Domain.AIR:
        return "aboard_transport"
    if piece.carried_by is not None:
        carrier = board.pieces.get(piece.carried_by)
        if carrier is not None and phase in carrier.moved_in:
            return "carrier_moved_first"
    if piece.loaded_in is not None:
        return "loaded_this_turn"
    if ut.domain == Domain.SEA and piece.unloaded:
        return "transport_unloaded"
    if RAIDING in piece.marks:
        return "raided_this_turn" if phase == COMBAT else None
    if phase == NONCOMBAT and ut.domain != Domain.AIR:
        if COMBAT in piece.moved_in:
            return "moved_in_combat"
        if FOUGHT in piece.marks:
            return "fought_this_turn"
        if SEABORNE in piece.marks:
            return "landed_from_sea"
    return None


def select(board: WorkingBoard, power: str, space: str, groups: tuple[UnitGroup, ...],
           phase: str, usable=lambda piece: True) -> list[Piece]:
    """Pick the pieces an order names.  Raises OrderFailed saying what is missing."""
    chosen: list[Piece] = []
    taken: set[int] = set()         # the uids chosen (a piece's eq compares every field)
    for group in groups:
        ut = board.rules.units[group.type]
        pool = [p for p in board.at(space, include_cargo=ut.domain == Domain.AIR)
                if p.type == group.type and p.uid not in taken and commands(board, power, p, phase)]
        free = [p for p in pool if may_move(board, p, phase) is None]
        fits = [p for p in free if cargo_matches(board, p, group.cargo)]
        fits.sort(key=lambda p: (not usable(p), len(board.cargo_of(p)) if group.cargo is None else 0,
                                 p.uid))
        if len(fits) < group.count:
            cargo = None if group.cargo is None else {g.type: g.count for g in group.cargo}
            if not pool:
                raise OrderFailed("units_not_there", unit=group.type, count=group.count,
                                  space=space, cargo=cargo)
            blocked = [p for p in pool if p not in free]
            raise OrderFailed("units_cannot_move", unit=group.type, count=group.count,
                              space=space, cargo=cargo, found=len(fits), blocked=len(blocked),
                              why=may_move(board, blocked[0], phase) if blocked else None)
        chosen.extend(fits[:group.count])
        taken.update(p.uid for p in fits[:group.count])
    return chosen


# -- path rules -------------------------------------------------------------------------------

def check_steps(board: WorkingBoard, path: tuple[str, ...]) -> None:
    if len(path) < 2:
        raise OrderFailed("path_too_short")
    for a, b in zip(path, path[1:]):
        if not board.map.adjacent(a, b):
            raise OrderFailed("not_adjacent", a=a, b=b,
                              neighbours=sorted(board.map.neighbours(a)))
    for space in path[1:]:
        if board.map[space].impassable:
            raise OrderFailed("impassable", space=space)


def check_land_path(board: WorkingBoard, piece: Piece, path: tuple[str, ...], phase: str) -> list[str]:
    """Validate a land unit's path; returns the territories it blitzes through."""
    ut = board.utype(piece)
    power = piece.owner
    if any(board.map[s].is_sea for s in path):
        raise OrderFailed("land_unit_at_sea", unit=ut.key)
    steps = path[1:]
    move = move_range(board, piece, phase)
    if len(steps) > move:
        raise OrderFailed("path_too_long", unit=ut.key, move=move, length=len(steps))
    blitzed: list[str] = []
    if phase == NONCOMBAT:
        for s in steps:
            if not board.is_friendly_territory(s, power):
                raise OrderFailed("noncombat_into_enemy", space=s)
        return blitzed
    for i, s in enumerate(steps[:-1]):
        if board.is_friendly_territory(s, power):
            continue
        # an ability may let the unit pass through (blitz); otherwise it stops here
        why: tuple | None = ("must_stop_in_enemy", {"unit": ut.key, "space": s})
        for ability, _ in ability_hooks(ut, "passes_through"):
            why = ability.passes_through(board, piece, s, i)
            if why is None:
                break
        if why is not None:
            raise OrderFailed(why[0], **why[1])
        blitzed.append(s)
    dest = steps[-1]
    if not board.is_enemy_territory(dest, power) and not blitzed:
        raise OrderFailed("combat_move_to_friendly", space=dest)
    return blitzed


def check_air_path(board: WorkingBoard, piece: Piece, path: tuple[str, ...], phase: str) -> None:
    ut = board.utype(piece)
    used = piece.moves_used + len(path) - 1
    move = move_range(board, piece, phase)
    if used > move:
        raise OrderFailed("air_range", unit=ut.key, move=move, used=piece.moves_used,
                          length=len(path) - 1)


CANAL = declare_standing(
    "canal", "no", ("yes", "no"),
    "Whether the power lets ships of a power of the other side that it is not at war with "
    "pass a canal or strait it holds (Global 1940 [L312]): 'canal Egypt: yes', 'canal all: "
    "yes' (default: no, passage refused).")


def canal_open(board: WorkingBoard, a: str, b: str, power: str, unit_type: str | None = None,
               grants=None) -> bool:
    return canal_problem(board, a, b, power, unit_type, grants) is None


def canal_problem(board: WorkingBoard, a: str, b: str, power: str, unit_type: str | None = None,
                  grants=None) -> str | None:
    """Why ``power``'s ship may not pass from ``a`` to ``b`` (a problem code), or None.
    Open if the mover's side held every control territory at the start of the turn, or to
    a unit type the canal is ``open_to``; land held by an owner that does not play (a
    neutral, even one friendly to the mover) shuts it (Global 1940 [L318]: no alliance
    passes the Turkish Straits until Turkey is captured).  Held by powers of one other side
    the mover is not at war with, it is open when each grants passage for its territory
    (``grants(holder, territory)``, the holder's standing order ``canal``) [L312]."""
    canal = board.map.canal_between(a, b)
    if canal is None or unit_type in canal.open_to:
        return None
    rules = board.rules
    holders = [board.start_owners.get(t) for t in canal.controlled_by]
    if not all(h in rules.powers for h in holders):
        return "canal_closed"
    if all(board.allied(power, h) for h in holders):
        return None
    if len({rules.side_of(h) for h in holders}) != 1 or any(
            rules.relation(power, h, board.relations) == WAR for h in holders):
        return "canal_closed"
    if grants is not None and all(grants(h, t) for h, t in zip(holders, canal.controlled_by)):
        return None
    return "canal_not_granted"


def canal_grants(ctx: TurnContext):
    """The holders' answers to a request to pass their canal: their standing orders."""
    return lambda holder, territory: standing_choice(ctx, holder, CANAL.name, territory) == "yes"


def check_sea_path(board: WorkingBoard, piece: Piece, path: tuple[str, ...], phase: str,
                   grants=None) -> None:
    ut = board.utype(piece)
    power = piece.owner
    if any(board.map[s].is_land for s in path):
        raise OrderFailed("ship_on_land", unit=ut.key)
    move = move_range(board, piece, phase)
    if piece.moves_used + len(path) - 1 > move:
        raise OrderFailed("path_too_long", unit=ut.key, move=move - piece.moves_used,
                          length=len(path) - 1)
    for a, b in zip(path, path[1:]):
        closed = board.map.closed_zones & {a, b}
        if closed:
            raise OrderFailed("straits_closed", zone=sorted(closed)[0])
        why = canal_problem(board, a, b, power, ut.key, grants)
        if why:
            canal = board.map.canal_between(a, b)
            raise OrderFailed(why, canal=canal.name, territories=list(canal.controlled_by))
    sub = ut.has("moves_through_enemy")
    for s in path[1:-1]:
        if sub and board.enemy_anti_sub_at(s, power):
            raise OrderFailed("sub_stopped_by_anti_sub", space=s)
        if board.hostile_zone(s, power) and not sub:
            raise OrderFailed("must_stop_in_hostile_zone", space=s)
    dest = path[-1]
    if phase == NONCOMBAT and board.hostile_zone(dest, power) \
            and not may_end_noncombat_in_hostile(ut):
        raise OrderFailed("noncombat_into_hostile_zone", space=dest)


def check_path(board: WorkingBoard, piece: Piece, path: tuple[str, ...], phase: str,
               grants=None) -> list[str]:
    domain = board.utype(piece).domain
    if domain == Domain.LAND:
        return check_land_path(board, piece, path, phase)
    if domain == Domain.AIR:
        check_air_path(board, piece, path, phase)
    else:
        check_sea_path(board, piece, path, phase, grants)
    return []


# -- executing orders -------------------------------------------------------------------------

def do_move(ctx: TurnContext, order: Move) -> None:
    board = ctx.board
    phase = order.phase.value
    check_steps(board, order.path)

    def usable(piece: Piece) -> bool:
        try:
            check_path(board, piece, order.path, phase, canal_grants(ctx))
            return True
        except OrderFailed:
            return False

    together: dict[str, int] = {}
    for group in order.units:
        together[group.type] = together.get(group.type, 0) + group.count
    board.moving_together = together
    try:
        pieces = select(board, ctx.power, order.origin, order.units, phase, usable)
        check_entries(ctx, pieces, order.path, phase)     # an edition's reason first (politics)
        blitzed: list[str] = []
        for piece in pieces:
            blitzed = check_path(board, piece, order.path, phase, canal_grants(ctx)) or blitzed
    finally:
        board.moving_together = {}
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
            flights(ctx).explicit_moves[piece.uid] = order.line
    if phase == COMBAT:
        ctx.attack_lines.setdefault(order.destination, order.line)
    ctx.emit(Moved(ctx.power, phase, count_types(pieces), tuple(order.path), order.line))
    for territory in blitzed:
        previous = board.owners.get(territory)
        take_territory(ctx, territory)
        ctx.emit(Blitzed(ctx.power, territory, previous or ""))
    entered(ctx, pieces, order.path, phase)


def check_entries(ctx: TurnContext, pieces: list[Piece], path: tuple[str, ...],
                  phase: str) -> None:
    """The ``may_enter`` hooks (edition rules, the movers' abilities) for every space of
    ``path`` after the first; the first refusal fails the order."""
    board = ctx.board
    for piece in pieces:
        ut = board.utype(piece)
        if not any_hook(board.rules, ut, "may_enter"):
            continue
        for ability, _ in hooked(board.rules, (ut,), "may_enter"):
            for space in path[1:]:
                code = ability.may_enter(ctx, piece, space, path, phase)
                if code:
                    raise OrderFailed(code, unit=piece.type, space=space)


def entered(ctx: TurnContext, pieces: list[Piece], path: tuple[str, ...], phase: str) -> None:
    """The ``on_enter`` hooks, space by space along ``path``, once the move is made."""
    board = ctx.board
    types = {p.type: board.utype(p) for p in pieces}
    if not any(any_hook(board.rules, ut, "on_enter") for ut in types.values()):
        return
    found = list({id(a): a for a, _ in hooked(board.rules, types.values(), "on_enter")}.values())
    for space in path[1:] if found else ():
        for ability in found:
            ability.on_enter(ctx, pieces, space, path, phase)


def escaped_enemy_zone(ctx: TurnContext, transport: Piece) -> bool:
    """Option ``transports_escape`` (Europe [L827]): a transport that started the turn in a
    sea zone with enemy units and has left it may load and unload in the noncombat move
    (although it moved in the combat move), but takes part in no combat that turn: no
    amphibious assault (``transport_escaped``), and none once it has fought."""
    return (bool(ctx.board.rules.option("transports_escape", False))
            and transport.start_space in ctx.contested_at_start
            and transport.space != transport.start_space and FOUGHT not in transport.marks)


def do_load(ctx: TurnContext, order: Load) -> None:
    board = ctx.board
    phase = order.phase.value
    power = ctx.power
    if board.map[order.origin].is_sea or board.map[order.zone].is_land:
        raise OrderFailed("load_direction")
    if not board.map.adjacent(order.origin, order.zone):
        raise OrderFailed("not_adjacent", a=order.origin, b=order.zone,
                          neighbours=sorted(board.map.neighbours(order.origin)))
    # A zone that turned hostile during the combat move (only a declaration of war this turn
    # does that: Global 1940 [L663]) still lets units load onto the transports there.
    if board.hostile_zone(order.zone, power) and (phase != COMBAT or order.zone in ctx.hostile_at_start):
        raise OrderFailed("load_in_hostile_zone", zone=order.zone)
    for g in order.units:
        if board.rules.units[g.type].domain != Domain.LAND:
            raise OrderFailed("load_not_land", unit=g.type)
    pieces = select(board, power, order.origin, order.units, phase)
    check_entries(ctx, pieces, (order.origin, order.zone), phase)
    # Your own transports, and in noncombat an ally's too (the ally moves it on its turn,
    # you unload on your next turn: digest §4.13, [L797]).
    transports = [t for t in board.at(order.zone)
                  if board.utype(t).has("carries_land") and not t.unloaded
                  and (t.owner == power or (phase == NONCOMBAT and may_ride(ctx, t, power)))
                  and not (phase == NONCOMBAT and (COMBAT in t.moved_in or FOUGHT in t.marks)
                           and not escaped_enemy_zone(ctx, t))]
    # Large units first so the "1 of any type + 1 infantry" rule packs well.
    for piece in sorted(pieces, key=lambda p: board.utype(p).cargo_size != "large"):
        transports.sort(key=lambda t: (t.owner != power,
                                       -sum(1 for c in board.cargo_of(t) if c.loaded_in == phase),
                                       -len(board.cargo_of(t)), t.uid))
        target = next((t for t in transports if board.can_carry(t, piece)), None)
        if target is None:
            raise OrderFailed("no_transport_room", unit=piece.type, zone=order.zone,
                              allied=phase != COMBAT)
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
        raise OrderFailed("unload_direction")
    if not board.map.adjacent(zone, target):
        raise OrderFailed("not_adjacent", a=zone, b=target,
                          neighbours=sorted(board.map.neighbours(zone)))
    if board.map[target].impassable:
        raise OrderFailed("impassable", space=target)
    amphibious = board.is_enemy_territory(target, power)
    if phase == COMBAT and not amphibious:
        raise OrderFailed("unload_friendly_in_combat", space=target)
    if phase == NONCOMBAT:
        if amphibious:
            raise OrderFailed("unload_enemy_in_noncombat", space=target)
        if board.hostile_zone(zone, power):
            raise OrderFailed("unload_in_hostile_zone", zone=zone)
    transports = sorted((t for t in board.at(zone) if board.utype(t).has("carries_land")
                         and board.allied(t.owner, power) and t.unloaded_to in (None, target)
                         and not (phase == NONCOMBAT and t.owner == power
                                  and (COMBAT in t.moved_in or FOUGHT in t.marks)
                                  and not escaped_enemy_zone(ctx, t))
                         and not (amphibious and escaped_enemy_zone(ctx, t))
                         and RETREATED not in t.marks),
                        key=lambda t: (t.unloaded_to != target, t.uid))
    chosen: list[Piece] = []
    # Cargo an earlier unload line already sends ashore stays aboard until the sea battle:
    # it is not there to unload again.
    landing = {uid for declared in ctx.landings for uid in declared.cargo}
    for group in order.units:
        need = group.count
        for t in transports:
            for c in board.cargo_of(t):
                # Cargo on an ally's transport is unloaded on the owner's next turn, not this one.
                if (t.owner != power and c.loaded_in is not None) or c.uid in landing:
                    continue
                if need and c.type == group.type and c.owner == power and c not in chosen:
                    chosen.append(c)
                    need -= 1
        if need:
            code, params = _why_no_cargo(ctx, order, group.type,
                                         landing | {c.uid for c in chosen})
            raise OrderFailed(code, unit=group.type, zone=zone, space=target, **params)
    if amphibious:
        for c in chosen:
            for ability, _params in hooks(board.utype(c), "may_move"):
                code = ability.may_move(board, c, phase)
                if code:
                    raise OrderFailed(code, unit=c.type)
    check_entries(ctx, chosen, (zone, target), phase)
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
    entered(ctx, chosen, (zone, target), phase)


def _why_no_cargo(ctx: TurnContext, order: Unload, unit_type: str,
                  taken: set[int]) -> tuple[str, dict]:
    """The rule that keeps ``unit_type`` cargo of ``power`` aboard the transports in the
    order's zone from unloading into its target (a problem code and its parameters), or
    ``no_cargo_to_unload`` when there is simply not enough of it aboard.  ``taken``: uids
    of cargo already unloading."""
    board, power = ctx.board, ctx.power
    phase = order.phase.value
    transports = [t for t in board.at(order.zone) if board.utype(t).has("carries_land")
                  and board.allied(t.owner, power)]
    for t in transports:
        if not any(c.type == unit_type and c.owner == power and c.uid not in taken
                   for c in board.cargo_of(t)):
            continue
        if t.unloaded_to not in (None, order.target):
            return "transport_unloaded_elsewhere", {"other": t.unloaded_to}
        if RETREATED in t.marks:
            return "transport_retreated", {}
        if phase == COMBAT and escaped_enemy_zone(ctx, t):
            return "transport_escaped", {"start": t.start_space}
        if t.owner != power and any(c.loaded_in is not None for c in board.cargo_of(t)
                                    if c.owner == power):
            return "ally_transport_cargo_next_turn", {"power": t.owner}
        if phase == NONCOMBAT and (COMBAT in t.moved_in or FOUGHT in t.marks) \
                and not escaped_enemy_zone(ctx, t):
            return "transport_moved_in_combat", {}
    owners = {c.owner for t in transports if t.owner == power for c in board.cargo_of(t)
              if c.type == unit_type and c.owner != power}
    if owners:
        return "ally_cargo_not_yours", {"power": min(owners)}
    return "no_cargo_to_unload", {}


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
            ctx.error(order.line, failure.code, **failure.params)
        elif not move_survivors(ctx, order, failure):
            ctx.emit(OrderSkipped(order.line, describe_order(order), failure.code,
                                  dict(failure.params)))
        return False


def move_survivors(ctx: TurnContext, order, failure: OrderFailed) -> bool:
    """Play mode, noncombat: a move whose units were partly lost in combat still moves the
    ones that can go (a player who wrote "2 fighters" means "my fighters").  Only when the
    order failed for want of units alone; ``True`` if some moved."""
    if not isinstance(order, Move) or failure.code not in ("units_not_there", "units_cannot_move"):
        return False
    groups = []
    for group in order.units:
        found = available(ctx.board, ctx.power, order.origin, group, order.phase.value)
        if found:
            groups.append(attrs.evolve(group, count=min(found, group.count)))
    if not groups or groups == list(order.units):
        return False
    reduced = attrs.evolve(order, units=tuple(groups))
    try:
        do_move(ctx, reduced)
    except OrderFailed:
        return False
    ctx.emit(OrderReduced(order.line, describe_order(order), {g.type: g.count for g in groups},
                          failure.code, dict(failure.params)))
    return True


def available(board: WorkingBoard, power: str, space: str, group: UnitGroup, phase: str) -> int:
    """How many of ``group``'s units at ``space`` may still move this phase."""
    ut = board.rules.units[group.type]
    return sum(1 for p in board.at(space, include_cargo=ut.domain == Domain.AIR)
               if p.type == group.type and commands(board, power, p, phase)
               and may_move(board, p, phase) is None
               and cargo_matches(board, p, group.cargo))


def describe_order(order) -> str:
    """A compact, canonical rendering of a movement order (unit type keys, space keys)."""
    units = ", ".join(f"{g.count} {g.type}" for g in order.units)
    if isinstance(order, Move):
        return f"move {units} {' -> '.join(order.path)}"
    if isinstance(order, Load):
        return f"load {units} {order.origin} -> {order.zone}"
    return f"unload {units} {order.zone} -> {order.target}"
