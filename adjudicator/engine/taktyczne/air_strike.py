"""Taktyczne Starcie's air strike, fought on the main map (L23.10-L23.64; docs/taktyczne-
air-strike.md): the mover's ``strike`` lines on one target area, carried out in the order
written with his moves (ruling G3).

* The aircraft of one or more bases (L23.72-L23.74), fighters and bombers only, at most 12
  points (L23.8, L23.53, L23.74), fly out along the route written, at most 4 bordering areas
  (L19.29, L23.8), and back at most 4 to an own base (ruling G20; not written: the way out
  reversed).  Flying out and back is ``air.fly`` (overflight fire, L23.60-L23.62); each
  aircraft attacks once a turn and does not move besides (L19.30-L19.31).
* Over the target, at most 4 battle turns (L23.52: four bombs per bomber), each in the
  text's order (L23.63-L23.64): the defender's AA guns, the attacker's fighters, the
  defender's fighters, the attacker's bombers.  Each unit has one attack per battle turn
  (L23.23, L23.27, L23.49); an AA gun hits an aircraft on a 6 (L23.28, L23.37), a fighter a
  fighter on a 6 and a bomber on an even roll (L23.45, L23.68), a bomber's bomb destroys its
  one target on an even roll (L23.30, L23.56-L23.57).  The shooter picks by its written
  priority (``targets.pick_target``): the mover's ``target`` clause, the defender's
  standing ``air_defence`` order, else the documented defaults (ruling target_default).
* After each battle turn the strike stays (L23.58) until its ``stay`` battle turns are
  flown, ``return after <n> lost`` is reached, the bombers are gone or spent (L23.59), or
  nothing is left to bomb (ruling G18); fighters alone are a sweep against the aircraft based
  there (L23.48, L23.69): one battle turn, one attack each (ruling G21).
* A bomber armed with an atomic bomb drops it instead of bombs, once (L23.40-L23.41): the
  blast over the target only (ruling G22, ``nuclear.blast``); shot down, its bomb explodes
  over the target (L23.65).  A bombed object is ``objects.destroy_object`` (an armed silo
  detonates, L23.12-L23.14); a bombed carrier or the last airfield sends the aircraft based
  there to ``air.evacuate`` (L23.34).
* A strike comes before the board battle of the same area in a turn (L23.79-L23.80, G18):
  a strike on an area already attacked on the ground this turn is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...model.events import OrderSkipped
from ...model.orders import StrikeOrder
from ...model.ts_strike import (AA, BOMBERS, FIGHTERS, HIT_EVEN, HIT_SIX, Flight, Shot,
                                StrikeEnded, StrikeHome, StrikeLaunched, StrikeVolley)
from ...model.ts_strike import DefendingBombers
from ...model.ts_targets import BOMB, DEFAULT_AIR, DEFAULT_GROUND, air_defence_text, read_air_defence
from ...model.units import Domain
from ..context import TurnContext
from ..errors import OrderFailed
from ..turn_rules import declare_standing, standing_choice
from ..working import Piece, count_types
from . import air, elimination, nuclear
from .objects import destroy_object
from .stacking import limits, points
from .state import objects
from .targets import aimed, pick_target

STRIKE = "strike"
STRUCK = "ts_struck"                # TurnContext.mechanic: target -> the strike's aircraft points
FIGHTER, BOMBER, ATOMIC = "fighter", "bomber", "atomic_bomb"
MAX_TURNS = 4                       # L23.52
RANGE = 4                           # L19.29, L23.8; ruling G20: out <= 4 and back <= 4
MOVED = "ts_moved"                  # main_turn.MOVED: the aircraft's one move or attack
ATTACKED = "ts_attacked"            # main_turn.ATTACKED: areas attacked on the ground this turn



def _check_air_defence(ctx, power: str, value: str):
    try:
        read_air_defence(value)
    except ValueError as exc:
        return "ts_air_defence_unreadable", {"reason": str(exc)}
    return None


AIR_DEFENCE = declare_standing(
    "air_defence", "", (),
    "what a power's AA guns and fighters shoot at when its area is struck, and whether its "
    "bombers there bomb a ground attack (Taktyczne Starcie; one area or all): default "
    "bombers, then fighters; the bombers bomb", check=_check_air_defence)


# ------------------------------------------------------------------------ the order

def strike(ctx: TurnContext, order: StrikeOrder) -> None:
    """Every ``strike`` line on ``order.target`` this turn, fought as one strike when the
    first is reached; a later line was carried out with it.  A line that cannot fly (its
    aircraft missing, its route wrong) is refused on its own line; the others fly."""
    if any(o.target == order.target and o.line < order.line for o in ctx.orders.of(STRIKE)):
        return                      # flown with the first line (also after a paused turn)
    lines = [o for o in ctx.orders.of(STRIKE) if o.target == order.target]
    flights: list = []
    for line in lines:
        try:
            flights.append(flight(ctx, line, taken=[p for f in flights for p in f[0]]))
        except OrderFailed as failure:
            if len(lines) == 1:
                raise                       # the main turn says it, as for any order
            if ctx.checking:
                ctx.error(line.line, failure.code, **failure.params)
            else:
                ctx.emit(OrderSkipped(line.line, strike_text(line), failure.code,
                                      dict(failure.params)))
    if not flights:
        return
    _clauses_differ(ctx, lines)
    fight_strike(ctx, order.target, flights, _clauses(lines))


def _clauses_differ(ctx: TurnContext, lines: Sequence[StrikeOrder]) -> None:
    """Lines of one strike that say a clause differently: the first line's holds (a
    warning on the later one)."""
    for name in ("priority", "stay", "leave_after"):
        said = [o for o in lines if getattr(o, name)]
        for later in said[1:]:
            if getattr(later, name) != getattr(said[0], name) and ctx.checking:
                ctx.warn(later.line, "ts_strike_clauses_differ", target=later.target,
                         clause=name, first=said[0].line)


def strike_text(order: StrikeOrder) -> str:
    """The order as the report names it when it is skipped (unit type keys, space keys)."""
    units = ", ".join(f"{g.count} {g.type}" for g in order.units)
    return f"strike {order.target}: {units} {' -> '.join(order.path)}"


def _clauses(lines: Sequence[StrikeOrder]) -> tuple[tuple[str, ...], int, int]:
    """The strike's priority, stay and losses limit: the first line that says each."""
    priority = next((o.priority for o in lines if o.priority), ())
    stay = next((o.stay for o in lines if o.stay), MAX_TURNS)
    leave = next((o.leave_after for o in lines if o.leave_after), 0)
    return priority, stay, leave


def flight(ctx: TurnContext, order: StrikeOrder, taken: Sequence[Piece] = ()
           ) -> tuple[list[Piece], tuple[str, ...], tuple[str, ...]]:
    """The aircraft of one line, its way out (origin .. target) and back (target .. base),
    checked: own aircraft at the origin that have not moved, bordering steps, at most 4
    each way, home to an own base."""
    board = ctx.board
    path = order.path
    if order.target not in path[1:]:
        raise OrderFailed("ts_strike_route", target=order.target, path=list(path))
    cut = path.index(order.target, 1)
    out = tuple(path[:cut + 1])
    back = tuple(path[cut:]) if cut + 1 < len(path) else tuple(reversed(out))
    for a, b in zip((*out, *back[1:])[:-1], (*out, *back[1:])[1:]):
        if b not in board.map.neighbours(a):
            raise OrderFailed("ts_strike_route", target=order.target, path=list(path))
    if len(out) - 1 > RANGE or len(back) - 1 > RANGE:
        raise OrderFailed("ts_strike_range", out=len(out) - 1, back=len(back) - 1, limit=RANGE)
    pieces: list[Piece] = []
    for group in order.units:
        if board.game.ruleset.units[group.type].domain != Domain.AIR:
            raise OrderFailed("ts_strike_not_aircraft", unit=group.type)
        found = [p for p in board.at(out[0], include_cargo=True)
                 if p.owner == ctx.power and p.type == group.type and MOVED not in p.marks
                 and p not in pieces and p not in taken]
        if len(found) < max(group.count, 1):
            raise OrderFailed("ts_units_missing", count=max(group.count, 1), unit=group.type,
                              space=out[0], found=len(found))
        pieces.extend(found[:group.count] if group.count else found)
    base = back[-1]
    if base != out[0] and not air.room_for(board, pieces, base, ctx.power):
        raise OrderFailed("ts_strike_base", space=base)
    guarded = air.guarded_areas(board, dict.fromkeys((*out[1:-1], *back[1:])), ctx.power)
    if guarded:                          # the route was the writer's: said by the check too
        ctx.warn(order.line, "ts_air_over_guns", areas=guarded)
    return pieces, out, back


def fight_strike(ctx: TurnContext, target: str, flights, clauses) -> None:
    """The strike on ``target`` by ``flights``: out, the battle turns, home."""
    board = ctx.board
    priority, stay, leave = clauses
    attackers = [p for pieces, _, _ in flights for p in pieces]
    stack, _, _ = limits(board)
    value = points(board, attackers)
    if value > stack:
        raise OrderFailed("ts_strike_over", target=target, points=value, limit=stack)
    if target in ctx.mechanic(ATTACKED, dict):                       # L23.79-L23.80, G18
        raise OrderFailed("ts_strike_after_board", target=target)
    defender = _defender(ctx, target)
    if defender is None:
        raise OrderFailed("ts_strike_no_enemy", target=target)
    sweep = not any(p.type == BOMBER for p in attackers)
    ctx.mechanic(STRUCK, dict)[target] = value
    ctx.emit(StrikeLaunched(
        ctx.power, target, defender,
        tuple(Flight(count_types(pieces), out, back) for pieces, out, back in flights),
        value, priority, stay, sweep, min(_line(ctx, target))))
    for piece in attackers:
        piece.marks.add(MOVED)
    over: list[Piece] = []
    for pieces, out, _back in flights:
        over.extend(air.fly(ctx, pieces, out, leg=air.OUT))     # not over the target itself
    if ctx.dice is None:                  # checking: no dice, the aircraft only fly
        _home(ctx, target, flights, over)
        return
    battle = _Battle(ctx, target, defender, priority, over)
    reason = battle.fight(1 if sweep else min(stay, MAX_TURNS), leave, sweep)
    ctx.emit(StrikeEnded(target, ctx.power, defender, battle.turn, reason,
                         count_types(battle.lost), count_types(battle.destroyed),
                         tuple(battle.objects)))
    _home(ctx, target, flights, [p for p in over if p not in battle.lost])
    elimination.check(ctx, defender, by=ctx.power)     # his last units bombed (L19.49)


def struck(ctx: TurnContext, target: str) -> int:
    """The aircraft points of this turn's strike on ``target``: a ground attack on it after
    the strike is the same attack (L23.79-L23.80), so both count towards its 12 points
    (L23.74, ruling strike_then_board)."""
    return ctx.mechanic(STRUCK, dict).get(target, 0)


def _line(ctx: TurnContext, target: str) -> list[int]:
    return [o.line for o in ctx.orders.of(STRIKE) if o.target == target]


def _defender(ctx: TurnContext, target: str) -> str | None:
    """Who is struck: the other player whose units are in ``target``, else its holder when
    it has objects there."""
    board = ctx.board
    for piece in board.at(target, include_cargo=True):
        if piece.owner != ctx.power:
            return piece.owner
    holder = board.owners.get(target)
    if holder and holder != ctx.power and objects(board).get(target):
        return holder
    return None


def _home(ctx: TurnContext, target: str, flights, alive: list[Piece]) -> None:
    """The survivors fly home along their way back (``air.fly``) and land at its end: at
    their own base they never left it; elsewhere ``air.land``."""
    board = ctx.board
    for pieces, out, back in flights:
        going = [p for p in pieces if p in alive and board.pieces.get(p.uid) is p]
        if not going:
            continue
        landed = air.fly(ctx, going, back, leg=air.BACK)
        landed = [p for p in landed if board.pieces.get(p.uid) is p]
        if back[-1] != out[0]:
            air.land(board, landed, back[-1], ctx.power)
        if landed:
            ctx.emit(StrikeHome(target, ctx.power, back[-1], count_types(landed)))


# ------------------------------------------------------------------- the battle turns

class _Battle:
    """The battle turns over ``target``: the volleys in the text's order, with the
    turn's dice."""

    def __init__(self, ctx: TurnContext, target: str, defender: str,
                 priority: tuple[str, ...], attackers: list[Piece]):
        self.ctx, self.board, self.target, self.defender = ctx, ctx.board, target, defender
        self.priority = priority
        self.attackers = list(attackers)
        self.lost: list[Piece] = []
        self.destroyed: list[Piece] = []
        self.objects: list[str] = []
        self.turn = 0
        self.bombs = {p.uid: 0 if _atomic(self.board, p) else MAX_TURNS
                      for p in attackers if p.type == BOMBER}
        self.atomic = {p.uid for p in attackers if p.type == BOMBER and _atomic(self.board, p)}
        priority_, _bombers, why = air_defence(ctx, defender, target)
        self.standing = (priority_, why)

    def fight(self, turns: int, leave: int, sweep: bool) -> str:
        while True:
            self.turn += 1
            self.volley_aa()
            self.volley_fighters(self.ctx.power)
            self.volley_fighters(self.defender)
            self.volley_bombers()
            reason = self.why_end(turns, leave, sweep)
            if reason:
                return reason

    def why_end(self, turns: int, leave: int, sweep: bool) -> str:
        bombers = [p for p in self.attackers if p.type == BOMBER]
        if not self.attackers:
            return "shot_down"
        if sweep:
            return "sweep"
        if not bombers:
            return "no_bombers"
        if all(self.bombs[p.uid] == 0 and p.uid not in self.atomic for p in bombers):
            return "bombs_spent"
        if leave and len(self.lost) >= leave:
            return "losses"
        if self.turn >= turns:
            return "stay"
        if pick_target(self.board, self.target, self.defender, self.priority) is None:
            return "no_targets"
        return ""

    # -- the defender's AA guns, then the fighters, L23.63-L23.64
    def volley_aa(self) -> None:
        guns, _ = air.shooters(self.board, self.target, self.defender)
        shots = []
        for gun in guns:
            if not self.attackers:
                break
            aim = pick_target(self.board, self.target, self.ctx.power, self.standing[0],
                              among=self.attackers)
            roll = self._roll(f"strike {self.target} turn {self.turn} defender aa")
            hit = roll == 6                                     # L23.28, L23.37
            shots.append(Shot(gun.type, aim.type, roll, HIT_SIX, hit))
            if hit:
                self._shot_down(aim)
        if shots:
            self.ctx.emit(StrikeVolley(self.target, self.turn, self.defender, AA, tuple(shots),
                                       self.standing[1]))

    def volley_fighters(self, power: str) -> None:
        mover = power == self.ctx.power
        fighters = ([p for p in self.attackers if p.type == FIGHTER] if mover else
                    air.shooters(self.board, self.target, self.defender)[1])
        shots = []
        for fighter in fighters:
            if mover and fighter not in self.attackers:
                continue
            if not mover and self.board.pieces.get(fighter.uid) is not fighter:
                continue
            enemies = self._based(self.defender) if mover else self.attackers
            if not enemies:
                break
            words = self.priority if mover else self.standing[0]
            aim = pick_target(self.board, self.target, power, words, among=enemies)
            need = HIT_EVEN if aim.type == BOMBER else HIT_SIX          # L23.45, L23.68
            roll = self._roll(f"strike {self.target} turn {self.turn} "
                              f"{'attacker' if mover else 'defender'} fighter")
            hit = roll % 2 == 0 if need == HIT_EVEN else roll == 6
            shots.append(Shot(fighter.type, aim.type, roll, need, hit))
            if hit:
                if mover:
                    self._downed(aim)
                else:
                    self._shot_down(aim)
        if shots:
            self.ctx.emit(StrikeVolley(self.target, self.turn, power, FIGHTERS, tuple(shots),
                                       "" if mover else self.standing[1]))

    def volley_bombers(self) -> None:
        shots = []
        for bomber in [p for p in self.attackers if p.type == BOMBER]:
            if bomber.uid in self.atomic:                             # L23.40-L23.41
                self.atomic.discard(bomber.uid)
                shots.append(Shot(bomber.type, ATOMIC, 0, "", True))
                self._drop_atomic(bomber)
                continue
            if not self.bombs[bomber.uid]:
                continue
            aim = pick_target(self.board, self.target, self.defender, self.priority)
            if aim is None:
                break
            if isinstance(aim, Piece):                                  # ruling bomb_cargo
                aim = aimed(self.board, aim)
            self.bombs[bomber.uid] -= 1
            roll = self._roll(f"strike {self.target} turn {self.turn} attacker bomb")
            hit = roll % 2 == 0                                         # L23.30
            name = aim if isinstance(aim, str) else aim.type
            shots.append(Shot(bomber.type, name, roll, HIT_EVEN, hit))
            if hit:
                self._bombed(aim)
        if shots:
            self.ctx.emit(StrikeVolley(self.target, self.turn, self.ctx.power, BOMBERS,
                                       tuple(shots)))

    # -- results
    def _based(self, power: str) -> list[Piece]:
        """``power``'s aircraft based in the target: on its airfield or aboard its carriers."""
        return air.based(self.board, self.target, power)

    def _shot_down(self, piece: Piece) -> None:
        self.attackers.remove(piece)
        self.lost.append(piece)
        armed = piece.uid in self.atomic
        self.atomic.discard(piece.uid)
        self.board.remove(piece)
        if armed:                                                       # L23.65
            nuclear.atomic_bomb_explodes(self.ctx, piece, self.target, nuclear.ATOMIC_SHOT_DOWN)

    def _downed(self, piece: Piece) -> None:
        """The defender's aircraft ``piece`` shot down by the attacker's fighters; a bomber
        of his carrying an atomic bomb explodes over the target (L23.65: any bomber shot
        down with one, at its base in a sweep too)."""
        armed = _atomic(self.board, piece)
        self.destroyed.extend(self.board.remove(piece))
        if armed:
            nuclear.atomic_bomb_explodes(self.ctx, piece, self.target, nuclear.ATOMIC_SHOT_DOWN)

    def _drop_atomic(self, bomber: Piece) -> None:                      # ruling G22
        nuclear.atomic_bomb_explodes(self.ctx, bomber, self.target, nuclear.ATOMIC_DROP)

    def _bombed(self, aim: Piece | str) -> None:
        board = self.board
        if isinstance(aim, str):          # an airfield's aircraft evacuate (destroy_object)
            if destroy_object(self.ctx, self.target, aim, self.ctx.power, "bomb"):
                self.objects.append(aim)
            return
        air.carrier_lost(self.ctx, self.target, aim)                    # L23.34
        self.destroyed.extend(board.remove(aim))

    def _roll(self, purpose: str) -> int:
        return self.ctx.dice.roll(1, purpose)[0]


def _atomic(board, piece: Piece) -> bool:
    """Whether a bomber carries an atomic bomb (``nuclear.carries_atomic_bomb``)."""
    return nuclear.carries_atomic_bomb(piece)


def air_defence(ctx: TurnContext, power: str, area: str) -> tuple[tuple[str, ...], str, str]:
    """``power``'s air defence of ``area``: (priority of its AA guns and fighters, ``bomb``
    or ``hold`` for its bombers there, why: the standing order's text or the default's
    name), from its standing ``air_defence`` order for the area, else for all its areas,
    else the default (bombers, then fighters; the bombers bomb, ruling defending_bombers)."""
    value = standing_choice(ctx, power, AIR_DEFENCE.name, area)
    try:
        priority, bombers = read_air_defence(value)
    except ValueError:
        priority, bombers = (), ""
    default = "default: air_defence (" + air_defence_text(DEFAULT_AIR, BOMB) + ")"
    why = f"air_defence {area}: {value}" if value else default
    return priority or DEFAULT_AIR, bombers or BOMB, why


def defending_bombers(ctx: TurnContext, area: str, defender: str,
                      attackers: list[Piece]) -> None:
    """Before a ground attack on ``area`` is fought, ``defender``'s bombers based there bomb
    the attacking units first, four bombs each (L23.77-L23.78), one target a bomb, an even
    roll destroying it (L23.30), unless his ``air_defence`` says ``bombers hold``.  The
    bombs fall in the attacker's turn: a reaction (contract 5), named with its reason."""
    board = ctx.board
    bombers = [p for p in board.at(area, include_cargo=True)
               if p.owner == defender and p.type == BOMBER and not _atomic(board, p)]
    if not bombers or ctx.dice is None:
        return
    _priority, choice, why = air_defence(ctx, defender, area)
    if choice != BOMB:
        return
    shots = []
    for bomber in bombers:
        for bomb in range(MAX_TURNS):
            alive = [p for p in attackers if board.pieces.get(p.uid) is p]
            if not alive:
                break
            aim = pick_target(board, area, ctx.power, DEFAULT_GROUND, among=alive)
            roll = ctx.dice.roll(1, f"defending bombers {area} defender bomb {bomb + 1}")[0]
            hit = roll % 2 == 0
            shots.append(Shot(bomber.type, aim.type, roll, HIT_EVEN, hit))
            if hit:
                board.remove(aim)
    if shots:
        ctx.emit(DefendingBombers(area, defender, ctx.power, tuple(shots), why))


__all__ = ["strike", "flight", "fight_strike", "air_defence", "defending_bombers"]
