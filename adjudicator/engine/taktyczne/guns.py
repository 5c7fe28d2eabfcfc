"""Taktyczne Starcie's long-range guns on the main map (issue 27, docs/taktyczne-guns.md).

* **In the owner's turn** (order ``lrg_fire``, L31.31-L31.37): one gun in an area fires its
  one shot of the turn at the units (not mines, not aircraft) or objects (not capitals) of
  another player in a bordering area (not a tangent one), hitting on a 6; the target by the
  order's priority, then the default (``targets.pick_target``).  The order runs in the
  written order among the moves, so a gun may move then fire, or fire then move; it fires
  once, and never once it took part in a board battle this turn (nor attacks after firing:
  it is used once a turn, on the main map or on the board, L31.31-L31.32).
* **In the turns of others** (reaction ``enter``, L31.38-L31.41): each time the mover's
  units enter an area with no other player's units in range of a gun (bordering its area),
  and each time a loaded ferry enters such a sea before it lands, every gun of every other
  player there fires one shot at the units that entered, by its owner's standing order
  ``lrg_react`` (default ``fire``, ``REACT_DEFAULT``); a ferry sunk sinks its cargo.  Guns do
  not support a defended neighbour's board battle (``main_turn`` runs the reaction only
  after the battle, at the winners who stand in the area, L31.39).
"""

from __future__ import annotations

from ...model.ts_gun_orders import LrgFireOrder, react_priority
from ...model.ts_guns import LrgFired, LrgReactionFired
from ...model.ts_targets import DEFAULT_GROUND, NEVER_TARGETS, UNIT_CLASSES, priority_text
from ...model.units import Domain
from ..context import TurnContext
from ..errors import OrderFailed
from ..turn_rules import declare_standing
from ..working import Piece, count_types
from . import air, elimination
from .objects import destroy_object
from .reactions import reaction
from .targets import aimed, pick_target

LRG_TYPES = UNIT_CLASSES["lrgs"]
FIRED = "ts_lrg_fired"       # Piece.marks: the gun fired its main-map shot of its owner's turn
FOUGHT = "ts_board_fought"   # Piece.marks: the unit took part in a board battle this turn
HIT = 6                      # L31.36 six pips on the die, else a miss
REACT = "lrg_react"
REACT_DEFAULT = "fire"       # ruling lrg_react_default


def check_react(ctx, power: str, value: str):
    """The standing kind's check of a value: ``hold``, ``fire`` or ``fire at <words>``."""
    try:
        react_priority(value)
    except ValueError as exc:
        return "ts_lrg_react_unreadable", {"reason": str(exc)}
    return None


REACT_KIND = declare_standing(
    REACT, REACT_DEFAULT, (),
    "what a power's long-range guns do when another player's units enter an empty area in "
    "their range in that player's turn (Taktyczne Starcie, L31.38-L31.41; one area, or all): "
    "hold, fire, or fire at <targets>; default fire (loaded ferries first, then the default "
    "target order)", check=check_react)


def is_gun(piece: Piece) -> bool:
    return piece.type in LRG_TYPES


def fire_text(order: LrgFireOrder) -> str:
    """The order's canonical text (unit type keys, space keys) for a skipped order."""
    text = f"fire lrg {order.space} at {order.target}"
    return f"{text}: {priority_text(order.priority)}" if order.priority else text


def target_owner(board, area: str, shooter: str) -> str | None:
    """Whose units or objects a shot at ``area`` meets: the other player's units there,
    else the area's holder if it is not the shooter."""
    for piece in board.at(area, include_cargo=True):
        if piece.owner != shooter:
            return piece.owner
    holder = board.owners.get(area)
    return holder if holder and holder != shooter else None


def fire_order(ctx: TurnContext, order: LrgFireOrder) -> None:
    """The mover's ``fire lrg`` order: one gun in ``order.space`` fires at ``order.target``
    (L31.33-L31.37)."""
    board = ctx.board
    if order.target not in board.map.neighbours(order.space):
        raise OrderFailed("ts_lrg_not_bordering", space=order.space, target=order.target)
    guns = [p for p in board.at(order.space) if p.owner == ctx.power and is_gun(p)
            and FIRED not in p.marks]
    ready = [p for p in guns if FOUGHT not in p.marks]
    if guns and not ready:
        raise OrderFailed("ts_lrg_fought", space=order.space)              # L31.31-L31.32, L31.37
    if not ready:
        raise OrderFailed("ts_lrg_missing", space=order.space)
    owner = target_owner(board, order.target, ctx.power)
    target = _pick(board, order.target, owner, order.priority) if owner else None
    if target is None:
        raise OrderFailed("ts_lrg_no_target", target=order.target)
    gun = min(ready, key=lambda p: p.uid)
    gun.marks.add(FIRED)
    if ctx.checking:
        return
    roll = ctx.dice.roll(1, f"lrg fire {order.space} {order.target} attacker")[0]
    hit = roll >= HIT
    name = target if isinstance(target, str) else target.type
    cargo = _cargo(board, target) if hit and not isinstance(target, str) else {}
    ctx.emit(LrgFired(ctx.power, order.space, order.target, owner, name, roll, hit, cargo,
                      order.line))
    if hit:
        _destroy(ctx, order.target, target, ctx.power, owner)


def check_attackers(pieces: list[Piece]) -> None:
    """A gun that fired on the main map this turn does not fight on the board too (it is
    used once a turn, L31.31-L31.32)."""
    for piece in pieces:
        if is_gun(piece) and FIRED in piece.marks:
            raise OrderFailed("ts_lrg_used", space=piece.space)


@reaction("enter")
def react(ctx: TurnContext, mover: str, area: str, pieces: list[Piece],
          before_unload: bool) -> None:
    """Every other player's gun bordering ``area`` fires one shot at the units that entered
    it, by its owner's standing ``lrg_react`` order (L31.38-L31.41)."""
    board = ctx.board
    near = set(board.map.neighbours(area))
    guns = sorted((p for p in board.pieces.values()
                   if is_gun(p) and p.owner != mover and p.space in near and p.carried_by is None
                   and FOUGHT not in p.marks), key=lambda p: (p.space, p.uid))
    if not guns or ctx.checking:           # checking: no dice; the mover's units stand
        return
    for gun in guns:
        if board.pieces.get(gun.uid) is not gun:     # lost to an earlier shot's consequences
            continue
        standing, value = _standing(ctx, gun)
        words = react_priority(value)
        if words is None:                                             # hold
            continue
        pool = _pool(board, [p for p in pieces if board.pieces.get(p.uid) is p])
        if not pool:
            return
        default = ("ferries",) if before_unload else ()
        target = pick_target(board, area, mover, (*words, *default, *DEFAULT_GROUND), among=pool)
        if target is None or isinstance(target, str):
            return
        target = aimed(board, target)
        roll = ctx.dice.roll(1, f"lrg reaction {gun.space} {area} defender")[0]
        hit = roll >= HIT
        ctx.emit(LrgReactionFired(gun.owner, gun.space, area, mover, target.type, roll, hit,
                                  standing, _cargo(board, target) if hit else {}, before_unload))
        if hit:
            _destroy(ctx, area, target, gun.owner, mover)


# ------------------------------------------------------------------------------ helpers

def _standing(ctx: TurnContext, gun: Piece) -> tuple[str, str]:
    """The standing order that decides ``gun``'s reaction: its canonical text and value,
    or the default's."""
    orders = ctx.standing_orders.get(gun.owner)
    found = orders.choice(REACT, gun.space) if orders is not None else None
    if found is None:
        return f"default: {REACT} {REACT_DEFAULT}", REACT_DEFAULT
    try:
        react_priority(found.value)
    except ValueError:                    # unreadable in the state: the default
        return f"default: {REACT} {REACT_DEFAULT}", REACT_DEFAULT
    where = "all" if found.space is None else found.space
    return f"react lrg {where}: {found.value}", found.value


def _pool(board, pieces: list[Piece]) -> list[Piece]:
    """What a reaction may aim at among the units that entered: them and their cargo (a
    unit aboard is hit by sinking its ferry), not mines, not aircraft (L31.35)."""
    pool = []
    for piece in pieces:
        for p in (piece, *board.cargo_of(piece)):
            if p.type not in NEVER_TARGETS and board.utype(p).domain != Domain.AIR \
                    and p not in pool:
                pool.append(p)
    return pool


def _pick(board, area: str, owner: str, priority) -> Piece | str | None:
    target = pick_target(board, area, owner, priority)
    return aimed(board, target) if isinstance(target, Piece) else target


def _cargo(board, piece: Piece | str) -> dict[str, int]:
    """What sinks with a unit hit: its cargo but aircraft (they fly off, ``_destroy``)."""
    if not isinstance(piece, Piece):
        return {}
    return count_types(p for p in board.cargo_of(piece) if not air.is_aircraft(board, p))


def _destroy(ctx: TurnContext, area: str, target: Piece | str, by: str, owner: str | None) -> None:
    """A hit: the object (an armed silo detonates, an airfield's aircraft evacuate:
    ``objects.destroy_object``) or the unit with its cargo (a ferry sinks with it, L31.40; a
    carrier's aircraft evacuate first, ``air.carrier_lost``, L23.34)."""
    board = ctx.board
    if isinstance(target, str):
        destroy_object(ctx, area, target, by, "lrg")
    else:
        air.carrier_lost(ctx, area, target)
        board.remove(target)
    if owner:
        elimination.check(ctx, owner, by=by)
