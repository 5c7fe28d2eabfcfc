"""Taktyczne Starcie's nuclear weapons (L19.54-L19.69, L23.12-L23.14, L23.39-L23.42,
L23.65; rulings G22-G26).

* Silos and anti-missile launchers are objects (``build silo 12``, ``build launcher 12``, at
  the end of a turn, L19.56, L19.63).  Each holds one weapon (L19.69): a missile or an
  anti-missile bought at the start of a turn into an own unarmed one anywhere (step
  ``ts_arm``, order ``arm``, G26).  How many of an area's silos and launchers are armed is
  the state ``ts_armed``; the weapon goes with its silo when the area is taken.
* An atomic bomb is bought onto an own bomber at the buying facility (G26): the bomber's
  flag ``ts_atomic_armed``.  Its drop (G22) and a bomber shot down with one (L23.65) are
  ``blast(..., radius="area")`` through ``atomic_bomb_explodes``.
* ``launch 23`` (step ``ts_launch``, before the moves): the missile strikes any area
  (L19.58), unless an anti-missile stops it: the target's holder fires his automatically
  (L19.67) unless his standing ``antimissile`` order says ``never`` (G25); a bystander whose
  areas the blast would reach fires by his standing choice (L19.68).
* ``blast``: every unit and object in the area and, radius ``full``, its bordering and
  tangent areas is destroyed (L19.59), except mines; aircraft evacuate (``air.evacuate``),
  else are lost; a capital stands as an area and its token (L19.60-L19.61), what is in it
  does not (G24).  An armed silo hit by a bomb or an LRG detonates (``objects``, G23).
"""

from __future__ import annotations

from ...model.ts_nuclear import (AntimissileHeld, MissileIntercepted, MissileLaunched,
                                 NuclearArmed, NuclearBlast)
from ...model.ts_objects import ObjectDestroyed
from ...model.units import Domain
from ..context import TurnContext
from ..steps import step
from ..turn_rules import declare_flag, declare_standing, declare_state, standing_choice
from ..working import Piece, count_types
from . import air, elimination
from .plans import mine_types
from .state import (FACTORY, OBJECTS, _sorted, capitals, facilities, objects, shipyard_key,
                    shipyard_sea)

FULL, AREA = "full", "area"
SILO, LAUNCHER = "silo", "launcher"
MISSILE, ANTI_MISSILE, ATOMIC_BOMB = "nuclear_missile", "anti_missile", "atomic_bomb"
HOLDER = {MISSILE: SILO, ANTI_MISSILE: LAUNCHER}          # the object a weapon is armed into
BOMBER = "bomber"

ARMED = declare_state("ts_armed", dict)                    # area -> {silo|launcher: armed count}
ATOMIC = declare_flag("ts_atomic_armed")                   # a bomber carrying an atomic bomb
# A blast's causes (``NuclearBlast.cause``), the words the air strike uses too.
MISSILE_HIT, SILO_HIT, ATOMIC_DROP, ATOMIC_SHOT_DOWN = ("missile", "silo", "atomic_drop",
                                                        "atomic_shot_down")

OWN, REACH, NEVER = "own", "reach", "never"
ANTIMISSILE = declare_standing(
    "antimissile", REACH, (OWN, REACH, NEVER),
    "When the power's armed anti-missile launcher fires at another player's nuclear missile "
    "(Taktyczne Starcie, L19.67-L19.68, ruling G25): 'antimissile all: own' only at a missile "
    "aimed at one of its areas; 'reach' also at one whose blast would reach its areas; "
    "'never' not even then; 'antimissile 23: never' for missiles aimed at 23.  Default: "
    "reach (an anti-missile has no other use than sparing its owner's units).")


# ---------------------------------------------------------------------------- the state

def armed(board) -> dict[str, dict[str, int]]:
    """Every area's armed silos and launchers (a copy)."""
    return {area: dict(here) for area, here in board.read_state(ARMED, default={}).items()}


def _write_armed(board, found: dict[str, dict[str, int]]) -> None:
    board.write_state(ARMED, {a: dict(sorted(h.items())) for a, h in sorted(found.items())
                              if any(h.values())})


def armed_in(board, area: str, key: str) -> int:
    return board.read_state(ARMED, default={}).get(area, {}).get(key, 0)


def _set_armed(board, area: str, key: str, change: int) -> None:
    found = armed(board)
    here = found.setdefault(area, {})
    here[key] = here.get(key, 0) + change
    if not here[key]:
        del here[key]
    _write_armed(board, found)


def armed_areas(board, power: str, key: str) -> list[str]:
    """The areas ``power`` holds with an armed ``key`` (silo or launcher), in order."""
    return sorted(area for area, here in board.read_state(ARMED, default={}).items()
                  if here.get(key) and board.owners.get(area) == power)


def carries_atomic_bomb(piece: Piece) -> bool:
    """A bomber with an atomic bomb aboard (it drops no ordinary bombs, L23.40-L23.41)."""
    return ATOMIC in piece.flags


def remove_object(ctx: TurnContext, area: str, key: str, by: str, cause: str) -> bool | None:
    """Remove one object ``key`` from ``area`` and say so: None if there is none, else
    whether the one removed was armed.  Of an area's silos (launchers) the armed ones are hit
    first (ruling armed_first)."""
    board = ctx.board
    found = objects(board)
    here = found.get(area, {})
    if not here.get(key):
        return None
    was_armed = armed_in(board, area, key) > 0
    here[key] -= 1
    if not here[key]:
        del here[key]
    board.write_state(OBJECTS, _sorted(found))
    if was_armed:
        _set_armed(board, area, key, -1)
    ctx.emit(ObjectDestroyed(area, key, board.owners.get(area, ""), by, cause, was_armed))
    return was_armed


# ----------------------------------------------------------------------------- the blast

def reach(board, centre: str, radius: str) -> tuple[str, ...]:
    """The areas a blast over ``centre`` reaches: the centre, and with radius ``full`` its
    bordering and tangent areas (L19.59)."""
    areas = {centre}
    if radius == FULL:
        areas |= board.map.neighbours(centre) | board.map.tangents.get(centre, frozenset())
    return tuple(sorted(areas))


def blast(ctx: TurnContext, centre: str, radius: str, cause: str, *, by: str | None = None) -> None:
    """A nuclear explosion over ``centre`` (``radius`` ``full`` or ``area``) set off by
    ``by`` (default: the mover; a gun's owner firing in another's turn): units and objects
    there destroyed, except mines (L19.59, L23.65); aircraft evacuate by their owner's
    standing order (``air.evacuate``), else are lost (L19.59, L23.35-L23.36); a capital
    stands, its units and objects do not (L19.60-L19.61, G24).  A silo destroyed by a blast
    does not explode in turn (ruling no_chain)."""
    board = ctx.board
    by = by or ctx.power
    areas = reach(board, centre, radius)
    mines = mine_types(ctx)
    destroyed: dict[str, dict[str, int]] = {}
    flying: dict[tuple[str, str], list[Piece]] = {}
    losers: set[str] = set()
    for area in areas:
        gone: list[Piece] = []
        for piece in board.at(area):
            if board.pieces.get(piece.uid) is not piece or piece.type in mines:
                continue
            if board.utype(piece).domain == Domain.AIR:
                flying.setdefault((area, piece.owner), []).append(piece)
                continue
            for cargo in board.cargo_of(piece):          # aircraft aboard a carrier take off
                if board.utype(cargo).domain == Domain.AIR:
                    cargo.carried_by = None
                    flying.setdefault((area, cargo.owner), []).append(cargo)
            losers.add(piece.owner)
            gone.extend(board.remove(piece))
        if gone:
            destroyed[area] = count_types(gone)
    held = set(capitals(board).values())
    ctx.emit(NuclearBlast(centre, radius, cause, by, areas, destroyed,
                          tuple(a for a in areas if a in held)))
    for area in areas:
        owner = board.owners.get(area, "")
        for key, count in sorted(objects(board).get(area, {}).items()):
            for _ in range(count):
                remove_object(ctx, area, key, by, "blast")
        losers.add(owner)
    for (area, power), pieces in sorted(flying.items(), key=lambda kv: kv[0]):
        air.evacuate(ctx, area, power, pieces, air.BLAST)
    for power in sorted(p for p in losers if p):
        elimination.check(ctx, power)


def atomic_bomb_explodes(ctx: TurnContext, bomber: Piece, area: str, cause: str) -> None:
    """``bomber``'s atomic bomb explodes over ``area`` only: dropped (``cause``
    ``ATOMIC_DROP``, ruling G22) or the bomber shot down there (``ATOMIC_SHOT_DOWN``, L23.65).
    The bomb is spent; the bomber itself is the caller's (shot down: already removed)."""
    if ctx.board.pieces.get(bomber.uid) is bomber:
        ctx.board.set_flag(bomber, ATOMIC, on=False)
    blast(ctx, area, AREA, cause)


def _bomb_falls(ctx: TurnContext, bomber: Piece, area: str) -> None:
    """A bomber carrying an atomic bomb shot down over an area on its way (an overflight,
    ``air.fly``): the bomb explodes over that area only (L23.65)."""
    if carries_atomic_bomb(bomber):
        atomic_bomb_explodes(ctx, bomber, area, ATOMIC_SHOT_DOWN)


air.SHOT_DOWN_OVER.append(_bomb_falls)


# ---------------------------------------------------------------------- buying weapons

@step("ts_arm")
def arm(ctx: TurnContext, dice) -> None:
    """The turn's ``arm`` orders, at the start of the turn, in the order written (G26)."""
    for order in ctx.orders.of("arm"):
        problem = _arm_problem(ctx, order)
        if problem:
            ctx.error(order.line, problem[0], **problem[1])
            continue
        price = ctx.board.rules.units[order.what].cost
        have = ctx.board.ipcs.get(ctx.power, 0)
        if price > have:
            ctx.error(order.line, "ts_too_expensive", cost=price, points=have)
            continue
        ctx.board.ipcs[ctx.power] = have - price
        bomber = _bomber_for(ctx, order.space) if order.what == ATOMIC_BOMB else None
        if bomber is not None:
            ctx.board.set_flag(bomber, ATOMIC)
        else:
            _set_armed(ctx.board, order.space, HOLDER[order.what], +1)
        ctx.emit(NuclearArmed(ctx.power, order.what, order.space, price,
                              ctx.board.ipcs[ctx.power]))


def _arm_problem(ctx: TurnContext, order) -> tuple[str, dict] | None:
    board, power, space = ctx.board, ctx.power, order.space
    where = {"what": order.what, "space": space}
    if order.what == ATOMIC_BOMB:
        return None if _bomber_for(ctx, space) is not None else ("ts_no_bomber_here", where)
    if not facilities(board.owners, objects(board), power):     # L27.10, L27.21: they produce it
        return "ts_no_weapon_producer", where
    key = HOLDER[order.what]
    count = objects(board).get(space, {}).get(key, 0)
    if board.owners.get(space) != power or not count:
        return "ts_no_holder", {**where, "holder": key}
    if armed_in(board, space, key) >= count:
        return "ts_holder_armed", {**where, "holder": key}                   # L19.69
    return None


def _bomber_for(ctx: TurnContext, space: str) -> Piece | None:
    """The mover's first bomber without an atomic bomb at a facility of his in ``space``: on
    a land area of his with a factory or shipyard, or aboard his carrier in the sea of his
    shipyard (G26)."""
    board, power = ctx.board, ctx.power
    found = objects(board)
    if board.map[space].is_sea:
        key = shipyard_key(space)
        if not any(here.get(key) and board.owners.get(a) == power for a, here in found.items()):
            return None
    else:
        here = found.get(space, {})
        if board.owners.get(space) != power or not (
                here.get(FACTORY) or any(shipyard_sea(k) for k in here)):
            return None
    return next((p for p in board.at(space, include_cargo=True)
                 if p.owner == power and p.type == BOMBER and not carries_atomic_bomb(p)), None)


# ----------------------------------------------------------------------------- launches

@step("ts_launch")
def launch(ctx: TurnContext, dice) -> None:
    """The turn's ``launch`` orders, before the moves, in the order written (L19.58, ruling
    launch_first): each fires one armed silo's missile; an anti-missile may stop it."""
    board, power = ctx.board, ctx.power
    for order in ctx.orders.of("launch"):
        silos = armed_areas(board, power, SILO)
        silo = order.silo or (silos[0] if silos else "")
        if silo not in silos:
            ctx.error(order.line, "ts_no_armed_silo", space=order.silo or "")
            continue
        _set_armed(board, silo, SILO, -1)
        ctx.emit(MissileLaunched(power, silo, order.target, order.line))
        own = sorted(a for a in reach(board, order.target, FULL)
                     if any(p.owner == power and p.type not in mine_types(ctx) for p in board.at(a)))
        if own:
            ctx.warn(order.line, "ts_blast_own_units", target=order.target, areas=own)
        if not intercepted(ctx, order.target):
            blast(ctx, order.target, FULL, MISSILE_HIT)


def intercepted(ctx: TurnContext, target: str) -> bool:
    """Whether an anti-missile stops the mover's missile at ``target``: the target's holder
    first (L19.67: automatic, unless his standing order says never, G25), then every
    player whose areas the blast would reach, in the turn order after the mover (L19.68:
    his standing choice).  Each armed player who holds back is said with his reason."""
    board, mover = ctx.board, ctx.power
    holder = board.owners.get(target, "") if not board.map[target].is_sea else ""
    order = elimination.turn_order(board)
    after = order[order.index(mover) + 1:] + order[:order.index(mover)] if mover in order else order
    reached = {board.owners.get(a) for a in reach(board, target, FULL) if not board.map[a].is_sea}
    for power in ([holder] if holder and holder != mover else []) + [
            p for p in after if p != holder and p in reached]:
        launchers = armed_areas(board, power, LAUNCHER)
        if not launchers:
            continue
        choice, why = _choice(ctx, power, target)
        targeted = power == holder
        if choice == REACH or (choice == OWN and targeted):
            _set_armed(board, launchers[0], LAUNCHER, -1)
            ctx.emit(MissileIntercepted(power, launchers[0], target, mover, targeted, why))
            return True
        ctx.emit(AntimissileHeld(power, target, mover, targeted, why))
    return False


def _choice(ctx: TurnContext, power: str, target: str) -> tuple[str, str]:
    """``power``'s ``antimissile`` choice for a missile at ``target`` and the text that
    says why: his standing order as written, or ``default: <value>``."""
    value = standing_choice(ctx, power, ANTIMISSILE.name, target)
    written = ctx.standing_orders.get(power)
    found = written.choice(ANTIMISSILE.name, target) if written is not None else None
    if found is None:
        return value, f"default: {value}"
    return value, f"antimissile {'all' if found.space is None else found.space}: {found.value}"
