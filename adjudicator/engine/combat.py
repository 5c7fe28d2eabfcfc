"""The battle engine: one battle, round by round (rules digest §5.3.2).  Pure: no I/O, no
randomness of its own (dice come from an injected ``DiceSource``).

Two layers, so that the exact-odds calculator (``adjudicator.odds``) runs the *same* rules:

* **State layer** (pure functions over hashable values): a ``Board`` is built once from a
  ``BattleSetup`` (units grouped into *slots* of interchangeable units, in the order they
  will be lost); a ``BattleState`` holds, per side, how many units of each slot are alive
  and damaged, whether the side's submarines have submerged and whether its retreatable
  units have retreated, plus the round number and the outcome.  The rule functions are
  ``decide_before_round`` (defenceless transports, condition A, stalemate, submerge
  choices), ``volleys`` (who fires in a stage), ``apply_hits`` (deterministic casualty
  choice) and ``end_of_round`` (conditions A and B).
* **Dice driver**: ``resolve_battle`` rolls ``dice.roll(n, purpose)`` once per volley, logs
  the events and maps casualties back to unit ids.

A round (digest §5.3.2, steps 2-5) is two *stages*, each with simultaneous fire:

* ``"surprise"`` (step 2, sea battles only): submarines whose enemy has no ``anti_sub`` unit
  in the battle fire their surprise strike (attackers hit on <= attack, defenders on <=
  defense).  Both sides fire before any casualty is removed, so a defending sub hit in step
  2 still strikes; casualties are removed at the end of the stage and do not fire later.
* ``"main"`` (steps 3+4): every other unit able to fire.  Defender casualties of step 3 sit
  behind the casualty line and still fire in step 4, so both sides' dice are computed from
  the state at the start of the stage; attacker casualties of step 4 had fired in step 3.

Presence-dependent abilities (``anti_sub`` cancelling surprise strike, submerge and the
immunity of ``air_needs_anti_sub`` units to air hits) are evaluated from the units on the
board at the start of each stage; within the rules no such change can happen before it is
used in the same round, so this is the digest's "changes take effect from the next round"
(step 5, checklist 43).

Hit eligibility (digest §5.3.2 steps 3/4, §4.12, §4.13): a hit from a ``cannot_hit_air``
unit never goes to an air unit; a hit from an air unit goes to an ``air_needs_anti_sub``
unit only if the air unit's side has an ``anti_sub`` unit in the battle; ``taken_last``
units take a hit only when no other eligible unit remains; a hit no unit can legally take
is lost.  Hits are assigned class by class, the most restricted first (hits that can reach
neither air nor ``air_needs_anti_sub`` units, then hits that cannot reach air, then air
hits that cannot reach subs, then unrestricted hits) so that as few hits as possible are
lost.  Units whose hits no enemy unit on the board could take do not roll at all (bombers
facing only subs, subs facing only aircraft).  Dice order within a stage: the attacker's
volleys, then the defender's, each side's in its loss order, one roll per unit type.

**Default casualty choice** (used where the loss order a player gave does not decide):

1. A ``two_hits`` unit (battleship) takes a *free* first hit before any unit is lost; its
   damage lasts the whole battle and is repaired when the battle ends.  This applies even
   with an explicit loss order (taking the free hit is never worse).
2. Otherwise units are lost in loss order: types named in the player's loss order first,
   in that order; then the rest cheapest first (by cost, then by lower combat value on that
   side, then empty before loaded carriers/transports, then sea-borne before overland).
3. In a land battle the attacker keeps its last land unit that can capture over its air
   units (so it can still take the territory), unless its loss order names both that land
   unit's type and the air unit's type.
4. Fighters defending a sea zone are ordinary defending air units: they may be chosen as
   casualties (fighter before carrier by cost) but never for a sub's hit.

**Rulings** (digest §8):

* Stalemate (§8.6, recommended): when no remaining unit of either side can legally hit a
  unit of the other side, the battle ends ``"stalemate"``: nobody wins, the defender keeps
  the space, attacking air must go and land.  The FAQ example (§5.3.2, last bullet) is not a
  stalemate while the attacker still has a transport the subs can hit.
* Defenceless units (§5.3.2 step 6, §8.5): defending ``defenceless`` units are destroyed at
  once when the attacker has a unit able to hit them and the defender's other units can
  neither hit nor be hit by the attacker (only transports; or transports + subs against
  aircraft only).
* Attacking transports (§8.7/§8.8): when every attacking unit left is ``defenceless`` and a
  defender can hit them, the attacker retreats (to ``retreat_options[0]``, or the first
  retreat condition's destination) if it may, otherwise those units are destroyed
  (reason ``"cannot retreat"``).  While the attacker has any other unit the battle goes on.
* Condition A counts units *on the board*: submerged subs and retreated units are gone.
  If neither side has units on the board the outcome is ``"both_destroyed"``, or
  ``"stalemate"`` when both sides still have units off the board (e.g. all subs submerged).
* Retreat (condition B) is checked at the end of each round from round
  ``max(1, min_rounds)`` on, after conditions A, defenceless units and stalemate.  Sea-borne
  units never retreat and fight on alone; aircraft retreat with the group (the turn engine
  lands them).  Attacking subs that submerged stay in the contested zone.  If sea-borne
  units left behind are then destroyed the outcome is ``"defender_wins"``; ``retreated_to``
  and ``BattleResult.retreated`` tell which units left, whatever the outcome.
* Retreat conditions compare the count (or, with ``measure="tuv"``, the cost) of a side's
  units on the board, cargo excluded; ``after_round=k`` holds once k rounds were fought; a
  condition with several parts needs all of them; one with none always holds.
* Defender submerge policy ``LOSING``: the defender's subs submerge when the defender's
  total expected hits this round (surprise + main) are below the attacker's expected hits
  that could be given to subs, or when no defending unit can hit any attacking unit.
  Expected hits are compared exactly (sums of ``count * value``).
* ``rounds`` counts the rounds begun (a round begins at step 2 after the checks above).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import attrs

from ..model.dice import DiceSource
from ..model.events import BattleEnded, Casualties, DiceRolled, Event, Retreated, Submerged
from ..model.orders import Comparison, RetreatCondition, SubmergePolicy
from ..model.rules import Ability, Domain, UnitType
from ..model.state import Unit

__all__ = [
    "ATT", "DEF", "SIDE_NAMES", "STAGES", "OUTCOMES", "HARD_ROUND_CAP",
    "BattleUnit", "BattleSetup", "BattleResult", "Board", "Slot", "Side", "BattleState",
    "Volley", "Change", "SideSummary",
    "volleys", "side_volleys", "hits_by_class", "apply_hits", "apply_side_hits",
    "settle", "decide_before_round", "end_of_round", "resolve_battle", "run_battle",
]

ATT, DEF = 0, 1
SIDE_NAMES = ("attacker", "defender")
STAGES = ("surprise", "main")
OUTCOMES = ("attacker_wins", "defender_wins", "both_destroyed", "attacker_retreats", "stalemate")
HARD_ROUND_CAP = 10_000          # safety net only: the rules always end a battle long before

# Target classes: a bit mask of restrictions on which enemy units a hit may be given to.
NO_AIR = 1                       # the firing unit cannot hit air units (subs)
NO_ANS = 2                       # air without friendly anti_sub: no hits on air_needs_anti_sub
ASSIGN_ORDER = (NO_AIR | NO_ANS, NO_AIR, NO_ANS, 0)   # most restricted first


# --------------------------------------------------------------------------- public data

@attrs.frozen
class BattleUnit:
    """One unit on the battle board.  ``uid`` is unique within the battle (the turn engine
    maps it back to its unit).  ``cargo`` dies with it and never fires or takes hits.
    ``seaborne``: unloaded from a transport in this assault, so it can never retreat."""

    uid: int
    type: UnitType
    owner: str
    cargo: tuple[Unit, ...] = ()
    seaborne: bool = False
    origin: str | None = None


@attrs.frozen
class BattleSetup:
    """Everything one battle needs.  Loss orders are unit type keys, first lost first
    (``()``: the default, see the module docstring).  ``retreat`` are the attacker's
    conditions (any true at the end of a round -> retreat); ``retreat_options`` the legal
    destinations worked out by the turn engine (``()``: cannot retreat).  ``attacker_subs``
    is ``"fire"``/``None`` or ``"submerge"`` (submerge at the first chance).  ``min_rounds``:
    the attacker may not retreat before that many rounds (amphibious land part whose sea
    part failed).  ``unit_types`` (type key -> UnitType, e.g. ``ruleset.units``) prices cargo
    for the TUV figures; types of units on the board are known already, others count 0."""

    battle_id: str
    space: str
    is_sea: bool
    attacker: str
    attackers: tuple[BattleUnit, ...]
    defenders: tuple[BattleUnit, ...]
    attacker_loss_order: tuple[str, ...] = ()
    defender_loss_order: tuple[str, ...] = ()
    retreat: tuple[RetreatCondition, ...] = ()
    retreat_options: tuple[str, ...] = ()
    attacker_subs: str | None = None
    defender_submerge: SubmergePolicy = SubmergePolicy.LOSING
    min_rounds: int = 0
    unit_types: Mapping[str, UnitType] = attrs.field(factory=dict, eq=False, hash=False)


@attrs.frozen
class BattleResult:
    """``attackers``/``defenders``: survivors (retreated and submerged ones included).
    ``retreated_to`` is set whenever some attacking units retreated (sea-borne units that
    stayed may still have won or lost).  ``killed``/``retreated``/``submerged``: uids."""

    outcome: str
    rounds: int
    attackers: tuple[BattleUnit, ...]
    defenders: tuple[BattleUnit, ...]
    retreated_to: str | None
    submerged: tuple[int, ...]
    events: tuple[Event, ...]
    killed: tuple[int, ...] = ()
    retreated: tuple[int, ...] = ()


# --------------------------------------------------------------------------- state layer

class Volley(NamedTuple):
    """All units of one type on one side firing together in one stage."""

    side: int            # ATT or DEF
    step: str            # "surprise" | "attack" | "defence"
    unit_type: str
    count: int
    target: int          # hit on a roll <= target
    cls: int             # target class (NO_AIR | NO_ANS bits)


class Side(NamedTuple):
    """One side's units, per slot of the board: ``alive`` (including submerged and
    retreated ones) and ``damaged`` (among the alive; two_hits units only)."""

    alive: tuple[int, ...]
    damaged: tuple[int, ...]
    submerged: bool = False   # every alive unit of this side with ``submerge`` is off the board
    retreated: bool = False   # every alive non-sea-borne unit (not submerged) has retreated


class BattleState(NamedTuple):
    att: Side
    dfn: Side
    round: int = 0                 # rounds begun
    outcome: str | None = None
    retreat_to: str | None = None


class Change(NamedTuple):
    """A rule-driven change outside the dice: ``kind`` is "defenceless", "cannot retreat",
    "submerge" or "retreat"; ``slots`` = ((slot index, count), ...) on ``side``."""

    kind: str
    side: int
    slots: tuple[tuple[int, int], ...]
    destination: str | None = None
    reason: str = ""


class SideSummary(NamedTuple):
    present: tuple[int, ...]       # units on the board per slot
    n_present: int
    anti_sub: bool
    tmask: int                     # bit c: some present unit may take a hit of class c
    tmask_defenceless: int
    tmask_other: int
    fire: int                      # bit c: some present unit fires hits of class c
    only_defenceless: bool
    relevance: int                 # class bits that matter against this side (see hits_by_class)
    can_submerge: bool
    capturers: int                 # present land units that can capture
    tuv: int                       # cost of present units (cargo excluded)


class Slot:
    """Interchangeable units of one side: same type, cargo and sea-borne flag."""

    __slots__ = ("type", "key", "value", "is_air", "is_land", "captures", "two_hits",
                 "taken_last", "defenceless", "anti_sub", "surprise", "submerge",
                 "can_fire", "base_class", "elig", "unit_cost", "cargo_cost", "cost",
                 "seaborne", "units", "cargo_keys")

    def __init__(self, side: int, units: Sequence[BattleUnit], cargo_cost: int):
        t = units[0].type
        self.type = t
        self.key = t.key
        self.units = tuple(units)
        self.value = t.attack if side == ATT else t.defense
        self.is_air = t.domain == Domain.AIR
        self.is_land = t.domain == Domain.LAND
        self.captures = self.is_land and not t.has(Ability.CANNOT_CAPTURE)
        self.two_hits = t.has(Ability.TWO_HITS)
        self.taken_last = t.has(Ability.TAKEN_LAST)
        self.defenceless = t.has(Ability.DEFENCELESS)
        self.anti_sub = t.has(Ability.ANTI_SUB)
        self.surprise = t.has(Ability.SURPRISE_STRIKE)
        self.submerge = t.has(Ability.SUBMERGE)
        self.can_fire = self.value > 0 and not self.defenceless
        self.base_class = NO_AIR if t.has(Ability.CANNOT_HIT_AIR) else 0
        ans = t.has(Ability.AIR_NEEDS_ANTI_SUB)
        self.elig = 0
        for c in range(4):
            if (c & NO_AIR and self.is_air) or (c & NO_ANS and ans):
                continue
            self.elig |= 1 << c
        self.unit_cost = t.cost
        self.cargo_cost = cargo_cost
        self.cost = t.cost + cargo_cost
        self.seaborne = units[0].seaborne
        self.cargo_keys = tuple(sorted(c.type for c in units[0].cargo))

    def __repr__(self) -> str:
        return f"Slot({self.key} x{len(self.units)}{' seaborne' if self.seaborne else ''})"


def _compare(value: int, comparison, threshold: int) -> bool:
    op = Comparison(comparison)
    if op is Comparison.LT:
        return value < threshold
    if op is Comparison.LE:
        return value <= threshold
    if op is Comparison.GT:
        return value > threshold
    if op is Comparison.GE:
        return value >= threshold
    return value == threshold


class Board:
    """Static facts of one battle, built once from a ``BattleSetup``; also holds the caches
    of the pure rule functions (they depend only on the board and their arguments)."""

    def __init__(self, setup: BattleSetup):
        self.setup = setup
        self.is_sea = setup.is_sea
        prices: dict[str, int] = {k: t.cost for k, t in setup.unit_types.items()}
        for u in (*setup.attackers, *setup.defenders):
            prices.setdefault(u.type.key, u.type.cost)
        self.prices = prices
        orders = (tuple(setup.attacker_loss_order), tuple(setup.defender_loss_order))
        self.loss_sets = (frozenset(orders[0]), frozenset(orders[1]))
        self.slots: tuple[tuple[Slot, ...], tuple[Slot, ...]] = (
            self._make_slots(ATT, setup.attackers, orders[0]),
            self._make_slots(DEF, setup.defenders, orders[1]),
        )
        self.retreat = tuple(setup.retreat)
        self.retreat_options = tuple(setup.retreat_options)
        self.min_rounds = setup.min_rounds
        self.round_cap = max([1, setup.min_rounds]
                             + [c.after_round for c in self.retreat if c.after_round])
        self.attacker_submerges = setup.attacker_subs == "submerge"
        self.defender_submerge = SubmergePolicy(setup.defender_submerge or SubmergePolicy.LOSING)
        # per side, per target class: (eligible slots not taken_last, eligible taken_last)
        self.eligible = tuple(
            tuple((tuple(i for i, s in enumerate(side) if s.elig >> c & 1 and not s.taken_last),
                   tuple(i for i, s in enumerate(side) if s.elig >> c & 1 and s.taken_last))
                  for c in range(4))
            for side in self.slots)
        self.has_two_hits = tuple(any(s.two_hits for s in side) for side in self.slots)
        self.type_order = tuple(dict.fromkeys(
            s.key for side in self.slots for s in side))
        self._summaries: dict = {}
        self._volleys: dict = {}
        self._side_hits: dict = {}
        self._pair_volleys: dict = {}
        self._pair_hits: dict = {}

    def cargo_cost(self, unit: BattleUnit) -> int:
        """Cost of what ``unit`` carries.  Cargo of a type neither on the board nor in
        ``BattleSetup.unit_types`` counts 0 (so pass ``unit_types`` for exact TUV figures)."""
        return sum(self.prices.get(c.type, 0) for c in unit.cargo)

    def _make_slots(self, side: int, units: Sequence[BattleUnit], order: tuple[str, ...]):
        rank = {k: i for i, k in enumerate(order)}

        def key(u: BattleUnit):
            t = u.type
            value = t.attack if side == ATT else t.defense
            cargo = tuple(sorted(c.type for c in u.cargo))
            return (rank.get(t.key, len(order)), t.cost, value, self.cargo_cost(u), cargo,
                    0 if u.seaborne else 1, t.key)

        ordered = sorted(units, key=lambda u: (key(u), u.uid))
        slots: list[Slot] = []
        group: list[BattleUnit] = []
        for u in ordered:
            if group and key(group[0]) != key(u):
                slots.append(Slot(side, group, self.cargo_cost(group[0])))
                group = []
            group.append(u)
        if group:
            slots.append(Slot(side, group, self.cargo_cost(group[0])))
        return tuple(slots)

    def initial_state(self) -> BattleState:
        a = tuple(len(s.units) for s in self.slots[ATT])
        d = tuple(len(s.units) for s in self.slots[DEF])
        return BattleState(Side(a, (0,) * len(a)), Side(d, (0,) * len(d)))

    def summary(self, side_idx: int, side: Side) -> SideSummary:
        key = (side_idx, side)
        found = self._summaries.get(key)
        if found is None:
            found = self._summaries[key] = self._summarize(side_idx, side)
        return found

    def _summarize(self, side_idx: int, side: Side) -> SideSummary:
        slots = self.slots[side_idx]
        present = []
        for s, n in zip(slots, side.alive):
            if n and ((side.submerged and s.submerge) or (side.retreated and not s.seaborne)):
                n = 0
            present.append(n)
        anti_sub = any(n and s.anti_sub for s, n in zip(slots, present))
        tmask = tdef = tother = fire = relevance = 0
        capturers = tuv = 0
        only_defenceless = True
        can_submerge = False
        for s, n in zip(slots, present):
            if not n:
                continue
            tmask |= s.elig
            if s.defenceless:
                tdef |= s.elig
            else:
                tother |= s.elig
                only_defenceless = False
            if s.can_fire:
                fire |= 1 << self.fire_class(s, anti_sub)
            if s.is_air:
                relevance |= NO_AIR
            if not s.elig & (1 << NO_ANS):
                relevance |= NO_ANS
            can_submerge = can_submerge or s.submerge
            if s.captures:
                capturers += n
            tuv += n * s.unit_cost
        return SideSummary(tuple(present), sum(present), anti_sub, tmask, tdef, tother, fire,
                           only_defenceless, relevance, can_submerge, capturers, tuv)

    @staticmethod
    def fire_class(slot: Slot, own_anti_sub: bool) -> int:
        return slot.base_class | (NO_ANS if slot.is_air and not own_anti_sub else 0)

    def progress(self, side_idx: int, side: Side) -> int:
        """Strictly increases with every change a round can make to a side (kills count 2,
        damage 1, submerging and retreating 1): the exact-odds calculator orders states by it."""
        slots = self.slots[side_idx]
        p = int(side.submerged) + int(side.retreated)
        for s, n, d in zip(slots, side.alive, side.damaged):
            p += 2 * (len(s.units) - n) + d
        return p

    def side_tuv_lost(self, side_idx: int, side: Side) -> int:
        return sum((len(s.units) - n) * s.cost for s, n in zip(self.slots[side_idx], side.alive))


def side_volleys(board: Board, side_idx: int, side: Side, enemy_anti_sub: bool,
                 enemy_tmask: int, stage: str) -> tuple[Volley, ...]:
    """The volleys of one side in ``stage`` ("surprise" = step 2, "main" = steps 3/4).
    Units whose hits no enemy unit on the board could take do not roll (``enemy_tmask`` is
    the enemy's ``SideSummary.tmask``)."""
    key = (side_idx, side, enemy_anti_sub, enemy_tmask, stage)
    found = board._volleys.get(key)
    if found is not None:
        return found
    summ = board.summary(side_idx, side)
    out: dict[str, list] = {}
    surprise_now = board.is_sea and not enemy_anti_sub
    for s, n in zip(board.slots[side_idx], summ.present):
        if not n or not s.can_fire:
            continue
        if stage == "surprise":
            if not (surprise_now and s.surprise):
                continue
            step = "surprise"
        else:
            if surprise_now and s.surprise:       # fired in step 2 this round
                continue
            step = "attack" if side_idx == ATT else "defence"
        cls = board.fire_class(s, summ.anti_sub)
        if not enemy_tmask >> cls & 1:
            continue
        if s.key in out:
            out[s.key][3] += n
        else:
            out[s.key] = [side_idx, step, s.key, n, s.value, cls]
    found = board._volleys[key] = tuple(Volley(*v) for v in out.values())
    return found


def volleys(board: Board, state: BattleState, stage: str) -> tuple[Volley, ...]:
    """Every volley of ``stage`` in ``state``: the attacker's first, then the defender's."""
    key = (state.att, state.dfn, stage)
    found = board._pair_volleys.get(key)
    if found is None:
        sa = board.summary(ATT, state.att)
        sd = board.summary(DEF, state.dfn)
        found = board._pair_volleys[key] = (
            side_volleys(board, ATT, state.att, sd.anti_sub, sd.tmask, stage)
            + side_volleys(board, DEF, state.dfn, sa.anti_sub, sa.tmask, stage))
    return found


def hits_by_class(board: Board, target_idx: int, target: Side,
                  class_hits) -> tuple[tuple[int, int], ...]:
    """Sum hits aimed at ``target`` per target class, in assignment order.  A class bit that
    cannot matter against the target's present units (no air on the board, no
    ``air_needs_anti_sub`` unit on the board) is dropped, so equivalent hits merge."""
    relevance = board.summary(target_idx, target).relevance
    totals = [0, 0, 0, 0]
    for cls, n in class_hits:
        totals[cls & relevance] += n
    return tuple((c, totals[c]) for c in ASSIGN_ORDER if totals[c])


def apply_side_hits(board: Board, side_idx: int, side: Side,
                    class_hits: tuple[tuple[int, int], ...]):
    """Give hits (from ``hits_by_class``) to one side's units; deterministic casualty choice
    (module docstring).  Returns (new side, ((slot, "damage"|"kill"), ...)).

    Hits are given one at a time and each choice depends only on the side as it stands, so
    giving ``h`` hits of one class equals giving ``h - 1`` and then one more (the odds
    calculator relies on this; a test checks it)."""
    key = (side_idx, side, class_hits)
    found = board._side_hits.get(key)
    if found is None:
        found = board._side_hits[key] = _apply_side_hits(board, side_idx, side, class_hits)
    return found


def _apply_side_hits(board: Board, side_idx: int, side: Side, class_hits):
    slots = board.slots[side_idx]
    present = list(board.summary(side_idx, side).present)
    alive = list(side.alive)
    damaged = list(side.damaged)
    log: list[tuple[int, str]] = []
    listed = board.loss_sets[side_idx]
    keep_land = side_idx == ATT and not board.is_sea
    two_hits = board.has_two_hits[side_idx]
    capturers = [i for i, s in enumerate(slots) if s.captures]
    for cls, n in class_hits:
        first_choice, last_choice = board.eligible[side_idx][cls]
        for _ in range(n):
            # taken_last units only when no other eligible unit remains
            cand = first_choice if any(present[i] for i in first_choice) else last_choice
            pick = -1
            if two_hits:                           # 1. free hit on an undamaged two_hits unit
                for i in cand:
                    if present[i] > damaged[i] and slots[i].two_hits:
                        pick = i
                        break
                if pick >= 0:
                    damaged[pick] += 1
                    log.append((pick, "damage"))
                    continue
            for i in cand:                         # 2. first in loss order
                if present[i]:
                    pick = i
                    break
            if pick < 0:
                break                              # nobody can take this hit: it is lost
            first = slots[pick]
            if keep_land and first.captures and present[pick] == 1 and \
                    sum(present[i] for i in capturers) == 1:
                for i in cand:                     # 3. keep the last land unit over aircraft
                    s = slots[i]
                    if i != pick and present[i] and s.is_air and \
                            not (first.key in listed and s.key in listed):
                        pick = i
                        break
            alive[pick] -= 1
            present[pick] -= 1
            if damaged[pick]:
                damaged[pick] -= 1
            log.append((pick, "kill"))
    new = Side(tuple(alive), tuple(damaged), side.submerged, side.retreated)
    return new, tuple(log)


def apply_hits(board: Board, state: BattleState, stage_volleys: Sequence[Volley],
               hits: Sequence[int]):
    """Apply one stage's hits (one count per volley, simultaneous fire).  Returns
    (new state, (attacker casualty log, defender casualty log))."""
    key = (state.att, state.dfn, tuple(stage_volleys), tuple(hits))
    found = board._pair_hits.get(key)
    if found is None:
        found = board._pair_hits[key] = _apply_hits(board, state, stage_volleys, hits)
    att, dfn, logs = found
    return state._replace(att=att, dfn=dfn), logs


def _apply_hits(board: Board, state: BattleState, stage_volleys, hits):
    to_att = hits_by_class(board, ATT, state.att,
                           [(v.cls, h) for v, h in zip(stage_volleys, hits) if v.side == DEF])
    to_def = hits_by_class(board, DEF, state.dfn,
                           [(v.cls, h) for v, h in zip(stage_volleys, hits) if v.side == ATT])
    att, log_a = apply_side_hits(board, ATT, state.att, to_att) if to_att else (state.att, ())
    dfn, log_d = apply_side_hits(board, DEF, state.dfn, to_def) if to_def else (state.dfn, ())
    return att, dfn, (log_a, log_d)


def _kill_present(board: Board, side_idx: int, side: Side, which) -> tuple[Side, tuple]:
    """Remove every present unit of the slots selected by ``which(slot)``."""
    summ = board.summary(side_idx, side)
    alive = list(side.alive)
    damaged = list(side.damaged)
    gone = []
    for i, (s, n) in enumerate(zip(board.slots[side_idx], summ.present)):
        if n and which(s):
            alive[i] -= n
            damaged[i] = 0
            gone.append((i, n))
    return Side(tuple(alive), tuple(damaged), side.submerged, side.retreated), tuple(gone)


def _destination(board: Board, cond: RetreatCondition | None) -> str:
    """The condition's destination if legal, else the first legal one.  Without a condition
    (attacking transports alone), the first condition naming a legal destination decides."""
    if cond is None:
        cond = next((c for c in board.retreat if c.destination in board.retreat_options), None)
    if cond is not None and cond.destination in board.retreat_options:
        return cond.destination
    return board.retreat_options[0]


def _retreat(board: Board, state: BattleState, destination: str, reason: str):
    summ = board.summary(ATT, state.att)
    moving = tuple((i, n) for i, (s, n) in enumerate(zip(board.slots[ATT], summ.present))
                   if n and not s.seaborne)
    if not moving:
        return state, None
    att = state.att._replace(retreated=True)
    state = state._replace(att=att, retreat_to=destination)
    if board.summary(ATT, att).n_present == 0:
        state = state._replace(outcome="attacker_retreats")
    return state, Change("retreat", ATT, moving, destination, reason)


def _condition_a(board: Board, state: BattleState, sa: SideSummary, sd: SideSummary) -> str:
    if sa.n_present == 0 and sd.n_present == 0:
        # nothing left on the board; if both sides still have units (submerged or
        # retreated), nobody won: a stalemate
        both_alive = any(state.att.alive) and any(state.dfn.alive)
        return "stalemate" if both_alive else "both_destroyed"
    return "defender_wins" if sa.n_present == 0 else "attacker_wins"


def settle(board: Board, state: BattleState) -> tuple[BattleState, list[Change]]:
    """Checks made whenever the board changes outside the dice: condition A, defenceless
    defenders, attacking transports alone, stalemate (module docstring)."""
    changes: list[Change] = []
    while state.outcome is None:
        sa = board.summary(ATT, state.att)
        sd = board.summary(DEF, state.dfn)
        if sa.n_present == 0 or sd.n_present == 0:
            return state._replace(outcome=_condition_a(board, state, sa, sd)), changes
        if (sd.tmask_defenceless & sa.fire and not sd.fire & sa.tmask
                and not sa.fire & sd.tmask_other):
            dfn, gone = _kill_present(board, DEF, state.dfn, lambda s: s.defenceless)
            changes.append(Change("defenceless", DEF, gone))
            state = state._replace(dfn=dfn)
            continue
        if sa.only_defenceless and sd.fire & sa.tmask:
            if board.retreat_options:
                state, change = _retreat(board, state, _destination(board, None),
                                         "no attacking unit can fire")
                if change is not None:
                    changes.append(change)
                    continue
            att, gone = _kill_present(board, ATT, state.att, lambda s: s.defenceless)
            changes.append(Change("cannot retreat", ATT, gone))
            state = state._replace(att=att)
            continue
        if not sa.fire & sd.tmask and not sd.fire & sa.tmask:
            return state._replace(outcome="stalemate"), changes
        break
    return state, changes


def _defender_losing(board: Board, state: BattleState, sa: SideSummary, sd: SideSummary) -> bool:
    if not sd.fire & sa.tmask:
        return True
    vols = volleys(board, state, "surprise") + volleys(board, state, "main")
    sub_elig = 0
    for s, n in zip(board.slots[DEF], sd.present):
        if n and s.submerge:
            sub_elig |= s.elig
    ours = sum(v.count * v.target for v in vols if v.side == DEF)
    theirs = sum(v.count * v.target for v in vols
                 if v.side == ATT and sub_elig >> v.cls & 1)
    return ours < theirs


def decide_before_round(board: Board, state: BattleState) -> tuple[BattleState, list[Change]]:
    """Start a round: ``settle``; if the battle goes on, begin the round (round + 1) and make
    the submerge decisions of step 2 (attacker first, before any dice), then settle again."""
    state, changes = settle(board, state)
    if state.outcome is not None:
        return state, changes
    state = state._replace(round=state.round + 1)
    if not board.is_sea:
        return state, changes
    moved = False
    sa = board.summary(ATT, state.att)
    sd = board.summary(DEF, state.dfn)
    if board.attacker_submerges and sa.can_submerge and not sd.anti_sub:
        subs = tuple((i, n) for i, (s, n) in enumerate(zip(board.slots[ATT], sa.present))
                     if n and s.submerge)
        state = state._replace(att=state.att._replace(submerged=True))
        changes.append(Change("submerge", ATT, subs))
        sa = board.summary(ATT, state.att)
        moved = True
    if sd.can_submerge and not sa.anti_sub and sa.n_present:
        policy = board.defender_submerge
        if policy is SubmergePolicy.ALWAYS or (
                policy is SubmergePolicy.LOSING and _defender_losing(board, state, sa, sd)):
            subs = tuple((i, n) for i, (s, n) in enumerate(zip(board.slots[DEF], sd.present))
                         if n and s.submerge)
            state = state._replace(dfn=state.dfn._replace(submerged=True))
            changes.append(Change("submerge", DEF, subs))
            moved = True
    if moved:
        state, more = settle(board, state)
        changes.extend(more)
    return state, changes


def _condition_holds(board: Board, state: BattleState, cond: RetreatCondition) -> bool:
    if cond.after_round is not None and state.round < cond.after_round:
        return False
    if cond.side is not None and cond.comparison is not None and cond.threshold is not None:
        if str(cond.side).startswith("att"):
            summ = board.summary(ATT, state.att)
        else:
            summ = board.summary(DEF, state.dfn)
        value = summ.tuv if cond.measure == "tuv" else summ.n_present
        if not _compare(value, cond.comparison, cond.threshold):
            return False
    return True


def _describe(cond: RetreatCondition) -> str:
    parts = []
    if cond.after_round is not None:
        parts.append(f"after round {cond.after_round}")
    if cond.side is not None and cond.comparison is not None and cond.threshold is not None:
        unit = " TUV" if cond.measure == "tuv" else ""
        parts.append(f"{cond.side}{unit} {Comparison(cond.comparison).value} {cond.threshold}")
    return "retreat condition: " + (" and ".join(parts) or "always")


def end_of_round(board: Board, state: BattleState) -> tuple[BattleState, list[Change]]:
    """Step 6: ``settle`` (condition A, defenceless units, stalemate), then condition B.
    The returned state has ``outcome`` set when the battle is over."""
    state, changes = settle(board, state)
    if state.outcome is not None or not board.retreat_options or state.att.retreated:
        return state, changes
    if state.round < max(1, board.min_rounds):
        return state, changes
    for cond in board.retreat:
        if _condition_holds(board, state, cond):
            state, change = _retreat(board, state, _destination(board, cond), _describe(cond))
            if change is not None:
                changes.append(change)
            break
    return state, changes


# --------------------------------------------------------------------------- dice driver

class _Tracker:
    """Maps slot counts back to unit ids (first in slot order first; damaged units are the
    ones killed first within a slot, matching ``apply_side_hits``).  Within a slot either
    every alive unit is on the board or none is (submerging and retreating move whole slots)."""

    def __init__(self, board: Board):
        self.fresh = [[list(s.units) for s in side] for side in board.slots]
        self.hurt: list[list[list[BattleUnit]]] = [[[] for _ in side] for side in board.slots]
        self.killed: list[list[BattleUnit]] = [[], []]
        self.submerged: list[BattleUnit] = []
        self.retreated: list[BattleUnit] = []

    def apply_log(self, side: int, log) -> tuple[list[BattleUnit], list[BattleUnit]]:
        killed: list[BattleUnit] = []
        damaged: list[BattleUnit] = []
        for slot, kind in log:
            if kind == "damage":
                unit = self.fresh[side][slot].pop(0)
                self.hurt[side][slot].append(unit)
                damaged.append(unit)
            else:
                pool = self.hurt[side][slot] or self.fresh[side][slot]
                unit = pool.pop(0)
                self.killed[side].append(unit)
                killed.append(unit)
                damaged = [u for u in damaged if u.uid != unit.uid]
        return killed, damaged

    def take(self, side: int, slots, kill: bool = False) -> list[BattleUnit]:
        """All units of ``slots`` ((slot, count), ...); removed from play with ``kill``."""
        out: list[BattleUnit] = []
        for slot, n in slots:
            units = self.hurt[side][slot] + self.fresh[side][slot]
            assert len(units) == n, (units, n)
            out.extend(units)
            if kill:
                self.hurt[side][slot] = []
                self.fresh[side][slot] = []
                self.killed[side].extend(units)
        return out


def _counts(units) -> dict[str, int]:
    return dict(Counter(u.type.key for u in units))


def _cargo_counts(units) -> dict[str, int]:
    return dict(Counter(c.type for u in units for c in u.cargo))


def _merge(a: dict[str, int], b: dict[str, int]) -> dict[str, int]:
    out = Counter(a)
    out.update(b)
    return dict(out)


def _name(names: Mapping[str, str] | None, key: str) -> str:
    return names.get(key, key) if names else key


def _summary(setup: BattleSetup, outcome: str, rounds: int, swing: int, retreat_to: str | None,
             names: Mapping[str, str] | None) -> str:
    att = _name(names, setup.attacker)
    owners = list(dict.fromkeys(u.owner for u in setup.defenders))
    dfn = " and ".join(_name(names, o) for o in owners) or "the defender"
    space = _name(names, setup.space)
    when = "at once" if rounds == 0 else f"after {rounds} round{'s' if rounds != 1 else ''}"
    if outcome == "attacker_wins":
        text = f"{att} wins in {space} {when}"
    elif outcome == "defender_wins":
        text = f"{dfn} {'hold' if len(owners) > 1 else 'holds'} {space} {when}"
    elif outcome == "both_destroyed":
        text = f"Both sides destroyed in {space} {when}"
    elif outcome == "attacker_retreats":
        text = f"{att} retreats from {space} to {_name(names, retreat_to or '?')} {when}"
    else:
        text = f"Stalemate in {space} {when}: no unit can hit the other side"
    return f"{text}; TUV swing {swing:+d}"


def resolve_battle(setup: BattleSetup, dice: DiceSource,
                   names: Mapping[str, str] | None = None) -> BattleResult:
    """Fight one battle to the end.  ``names`` maps power (and optionally space) keys to
    display names for the ``BattleEnded`` summary.  ``BattleStarted`` is the turn engine's."""
    return run_battle(Board(setup), dice, names)


def run_battle(board: Board, dice: DiceSource, names: Mapping[str, str] | None = None,
               record: bool = True) -> BattleResult:
    """``resolve_battle`` on a prepared ``Board`` (reused by Monte Carlo runs).  With
    ``record=False`` no events are built (the result is otherwise identical)."""
    setup = board.setup
    bid = setup.battle_id
    track = _Tracker(board)
    events: list[Event] = []
    state = board.initial_state()

    def log_changes(changes: list[Change], rnd: int) -> None:
        for ch in changes:
            units = track.take(ch.side, ch.slots, kill=ch.kind in ("defenceless", "cannot retreat"))
            if ch.kind in ("defenceless", "cannot retreat"):
                if record:
                    events.append(Casualties(bid, rnd, SIDE_NAMES[ch.side], _counts(units),
                                             cargo_lost=_cargo_counts(units), reason=ch.kind))
            elif ch.kind == "submerge":
                track.submerged.extend(units)
                if record:
                    events.append(Submerged(bid, rnd, SIDE_NAMES[ch.side], _counts(units)))
            elif ch.kind == "retreat":
                track.retreated.extend(units)
                if record:
                    events.append(Retreated(bid, rnd, ch.destination or "", _counts(units),
                                            ch.reason))

    while True:
        state, changes = decide_before_round(board, state)
        log_changes(changes, state.round)
        if state.outcome is not None:
            break
        if state.round > HARD_ROUND_CAP:
            raise RuntimeError(f"battle {bid} did not end after {HARD_ROUND_CAP} rounds")
        rnd = state.round
        for stage in STAGES:
            vols = volleys(board, state, stage)
            if not vols:
                continue
            hits = []
            rolled = []
            tag = " surprise" if stage == "surprise" else ""
            for v in vols:
                faces = dice.roll(v.count, f"{bid} r{rnd} {SIDE_NAMES[v.side]} {v.unit_type} "
                                           f"@{v.target}{tag}")
                h = sum(1 for f in faces if f <= v.target)
                hits.append(h)
                rolled.append(faces)
            state, (log_a, log_d) = apply_hits(board, state, vols, hits)
            for side_idx, log in ((DEF, log_d), (ATT, log_a)):
                killed, damaged = track.apply_log(side_idx, log)
                if record:
                    firing = ATT if side_idx == DEF else DEF
                    for v, faces, h in zip(vols, rolled, hits):
                        if v.side == firing:
                            events.append(DiceRolled(bid, rnd, v.step, SIDE_NAMES[v.side],
                                                     v.unit_type, v.target, tuple(faces), h))
                    if killed or damaged:
                        events.append(Casualties(bid, rnd, SIDE_NAMES[side_idx], _counts(killed),
                                                 _counts(damaged), _cargo_counts(killed)))
        state, changes = end_of_round(board, state)
        log_changes(changes, state.round)
        if state.outcome is not None:
            break

    killed_a, killed_d = track.killed
    if record:
        att_lost = _merge(_counts(killed_a), _cargo_counts(killed_a))
        def_lost = _merge(_counts(killed_d), _cargo_counts(killed_d))
        att_tuv = sum(u.type.cost + board.cargo_cost(u) for u in killed_a)
        def_tuv = sum(u.type.cost + board.cargo_cost(u) for u in killed_d)
        events.append(BattleEnded(bid, setup.space, state.outcome, state.round, att_lost,
                                  def_lost, att_tuv, def_tuv, def_tuv - att_tuv,
                                  _summary(setup, state.outcome, state.round, def_tuv - att_tuv,
                                           state.retreat_to, names)))
    dead = {u.uid for u in killed_a} | {u.uid for u in killed_d}
    return BattleResult(
        outcome=state.outcome,
        rounds=state.round,
        attackers=tuple(u for u in setup.attackers if u.uid not in dead),
        defenders=tuple(u for u in setup.defenders if u.uid not in dead),
        retreated_to=state.retreat_to,
        submerged=tuple(u.uid for u in track.submerged if u.uid not in dead),
        events=tuple(events),
        killed=tuple(u.uid for u in (*killed_a, *killed_d)),
        retreated=tuple(u.uid for u in track.retreated if u.uid not in dead),
    )
