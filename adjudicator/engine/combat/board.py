"""The static facts of one battle (``Board``), built once from a ``BattleSetup``.

Units are grouped into *slots* of interchangeable units (same type, cargo and sea-borne
flag) in the order they will be lost.  A slot's traits come from its unit type's
abilities (``Ability.slot`` hooks); nothing here tests a unit's name.

Hits carry a *target class*: which enemy units may take them.  Classes 0-7 are bit sets
of restrictions -- ``NO_AIR`` (the firer cannot hit air units: submarines), ``NO_ANS``
(air without a friendly ``anti_sub`` unit: no hits on units that need one), ``ONLY_AIR``
(anti-aircraft fire: aircraft, and airborne units when the defender's guns fire at them,
``Slot.aa_target``).  Classes from ``AIMED`` on are aimed at one unit type (one AA die
per aircraft names its aircraft).  Hits are assigned class by class, the most restricted
first (``assign_order``), so that as few hits as possible are lost.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...model.orders import SubmergePolicy
from ...model.units import Domain
from ..abilities.base import hooks
from .model import ATT, BattleSetup, BattleState, BattleUnit, Side, SideSummary

NO_AIR, NO_ANS, ONLY_AIR = 1, 2, 4
AIMED = 8
BIT_ORDER = (7, 3, 5, 6, 1, 4, 2, 0)       # most restricted first


class Slot:
    """Interchangeable units of one side: same type, cargo, sea-borne and airborne flags.
    ``aa_target``: AA fire may hit it (``ONLY_AIR`` hits): an aircraft, or an airborne
    unit when ``airborne_targeted`` (the defender's guns fire at airborne units)."""

    __slots__ = ("type", "key", "value", "is_air", "is_land", "captures", "hit_points",
                 "airborne", "aa_target",
                 "taken_last", "defenceless", "anti_sub", "tags", "params", "submerge",
                 "can_fire", "restrict", "immune_air", "elig", "unit_cost", "cargo_cost",
                 "cost", "seaborne", "units", "cargo_keys", "casualty_only", "dice")

    def __init__(self, side: int, units: Sequence[BattleUnit], cargo_cost: int,
                 airborne_targeted: bool = False):
        t = units[0].type
        self.type = t
        self.key = t.key
        self.units = tuple(units)
        self.value = t.attack if side == ATT else t.defense
        self.is_air = t.domain == Domain.AIR
        self.is_land = t.domain == Domain.LAND
        self.airborne = units[0].airborne
        self.aa_target = self.is_air or (self.airborne and airborne_targeted)
        self.captures = self.is_land
        self.hit_points = 1
        self.taken_last = self.defenceless = self.anti_sub = self.submerge = False
        self.immune_air = False
        self.restrict = 0
        self.dice = 1                      # dice per unit, the best kept (ability best_of)
        self.tags = frozenset(t.abilities)
        self.params = t.params
        for ability, params in hooks(t, "slot"):
            for name, value in ability.slot(t, params, side).items():
                setattr(self, name, value)
        self.casualty_only = units[0].casualty_only
        if self.casualty_only is not None:     # in the space, not in the battle
            self.taken_last = self.defenceless = self.anti_sub = self.submerge = False
            self.captures = False
            self.tags = frozenset()
            self.value = 0
        self.can_fire = self.value > 0 and not self.defenceless
        self.elig = 0                      # bits 0-7 set here; aimed bits by the Board
        for c in range(AIMED):
            if (c & NO_AIR and self.is_air) or (c & NO_ANS and self.immune_air) \
                    or (c & ONLY_AIR and not self.aa_target):
                continue
            if self.casualty_only is not None and c & self.casualty_only != self.casualty_only:
                continue
            self.elig |= 1 << c
        self.unit_cost = t.cost
        self.cargo_cost = cargo_cost
        self.cost = t.cost + cargo_cost
        self.seaborne = units[0].seaborne
        self.cargo_keys = tuple(sorted(c.type for c in units[0].cargo))

    @property
    def two_hits(self) -> bool:
        return self.hit_points > 1

    def __repr__(self) -> str:
        return f"Slot({self.key} x{len(self.units)}{' seaborne' if self.seaborne else ''})"


def airborne_targeted(guns: Sequence[BattleUnit]) -> bool:
    """Whether AA fire from ``guns`` (the defender's support units) aims at airborne units
    too: some gun's ability answers ``airborne`` through its ``aa_targets`` hook."""
    return any("airborne" in ability.aa_targets(u.type, params)
               for u in guns for ability, params in hooks(u.type, "aa_targets"))


def fire_dice(unit_type, side: int) -> int:
    """How many dice a unit of ``unit_type`` rolls on ``side``, keeping the best (its
    ``slot`` hooks' ``dice``; 1 for most units): units differing in it never share a slot."""
    dice = 1
    for ability, params in hooks(unit_type, "slot"):
        dice = ability.slot(unit_type, params, side).get("dice", dice)
    return dice


class Board:
    """Static facts of one battle; also holds the caches of the pure rule functions (they
    depend only on the board and their arguments)."""

    def __init__(self, setup: BattleSetup):
        self.setup = setup
        self.is_sea = setup.is_sea
        prices: dict[str, int] = {k: t.cost for k, t in setup.unit_types.items()}
        for u in (*setup.attackers, *setup.defenders):
            prices.setdefault(u.type.key, u.type.cost)
        self.prices = prices
        orders = (tuple(setup.attacker_loss_order), tuple(setup.defender_loss_order))
        self.loss_sets = (frozenset(orders[0]), frozenset(orders[1]))
        self.airborne_targeted = airborne_targeted(setup.support[1])
        self.slots: tuple[tuple[Slot, ...], tuple[Slot, ...]] = (
            self._make_slots(ATT, setup.attackers, orders[0]),
            self._make_slots(1, setup.defenders, orders[1]),
        )
        self.support = setup.support
        self.stages = tuple(tuple(stage) for stage in setup.stages)
        self.retreat = tuple(setup.retreat)
        self.retreat_options = tuple(setup.retreat_options)
        self.min_rounds = setup.min_rounds
        self.low_luck = bool(setup.low_luck)
        self.round_cap = max([1, setup.min_rounds]
                             + [c.after_round for c in self.retreat if c.after_round])
        self.attacker_submerges = setup.attacker_subs == "submerge"
        self.defender_submerge = SubmergePolicy(setup.defender_submerge or SubmergePolicy.LOSING)
        self.type_order = tuple(dict.fromkeys(s.key for side in self.slots for s in side))
        for side in self.slots:
            for s in side:
                if s.casualty_only is None:
                    s.elig |= 1 << (AIMED + self.type_order.index(s.key))
        self.n_classes = AIMED + len(self.type_order)
        self.assign_order = tuple(range(AIMED, self.n_classes)) + BIT_ORDER
        # per side, per target class: (eligible slots not taken_last, eligible taken_last)
        self.eligible = tuple(
            tuple((tuple(i for i, s in enumerate(side) if s.elig >> c & 1 and not s.taken_last),
                   tuple(i for i, s in enumerate(side) if s.elig >> c & 1 and s.taken_last))
                  for c in range(self.n_classes))
            for side in self.slots)
        self.has_two_hits = tuple(any(s.two_hits for s in side) for side in self.slots)
        self._summaries: dict = {}
        self._volleys: dict = {}
        self._side_hits: dict = {}
        self._pair_volleys: dict = {}
        self._pair_hits: dict = {}
        self._fire_hooks: dict = {}
        self._traits: dict = {}
        self._quiet: dict = {}
        self._decisions: list | None = None
        self._step_volleys: dict = {}

    def aimed_class(self, type_key: str) -> int:
        """The target class of hits aimed at units of ``type_key``."""
        return AIMED + self.type_order.index(type_key)

    def cargo_cost(self, unit: BattleUnit) -> int:
        """Cost of what ``unit`` carries.  Cargo of a type neither on the board nor in
        ``BattleSetup.unit_types`` counts 0 (so pass ``unit_types`` for exact TUV figures)."""
        return sum(self.prices.get(c.type, 0) for c in unit.cargo)

    def _make_slots(self, side: int, units: Sequence[BattleUnit], order: tuple[str, ...]):
        rank = {k: i for i, k in enumerate(order)}
        weakest = side != ATT and self.setup.defender_default == "weakest"

        def key(u: BattleUnit):
            t = u.type
            value = t.attack if side == ATT else t.defense
            cargo = tuple(sorted(c.type for c in u.cargo))
            first, second = (value, t.cost) if weakest else (t.cost, value)
            return (rank.get(t.key, len(order)), first, second, self.cargo_cost(u), cargo,
                    0 if u.seaborne else 1, u.airborne, t.key, u.casualty_only is not None,
                    u.casualty_only or 0, fire_dice(t, side))

        ordered = sorted(units, key=lambda u: (key(u), u.uid))
        slots: list[Slot] = []
        group: list[BattleUnit] = []
        targeted = side == ATT and self.airborne_targeted
        for u in ordered:
            if group and key(group[0]) != key(u):
                slots.append(Slot(side, group, self.cargo_cost(group[0]), targeted))
                group = []
            group.append(u)
        if group:
            slots.append(Slot(side, group, self.cargo_cost(group[0]), targeted))
        return tuple(slots)

    def initial_state(self) -> BattleState:
        a = tuple(len(s.units) for s in self.slots[ATT])
        d = tuple(len(s.units) for s in self.slots[1])
        hurt = tuple(tuple(sum(1 for u in s.units if u.damaged and s.two_hits) for s in side)
                     for side in self.slots)
        return BattleState(Side(a, hurt[ATT]), Side(d, hurt[1]))

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
            if n and ((side.submerged and s.submerge) or (side.retreated and not s.seaborne
                                                           and s.casualty_only is None)):
                n = 0
            present.append(n)
        anti_sub = any(n and s.anti_sub for s, n in zip(slots, present))
        tmask = tdef = tother = fire = relevance = 0
        capturers = tuv = aa_targets = on_board = 0
        only_defenceless = True
        can_submerge = False
        for s, n in zip(slots, present):
            if not n:
                continue
            if s.casualty_only is not None:     # takes hits, nothing else
                relevance |= s.casualty_only
                continue
            on_board += n
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
            else:
                relevance |= ONLY_AIR
            if s.aa_target:
                aa_targets += n
            if s.immune_air:
                relevance |= NO_ANS
            can_submerge = can_submerge or s.submerge
            if s.captures:
                capturers += n
            tuv += n * s.unit_cost
        return SideSummary(tuple(present), on_board, anti_sub, tmask, tdef, tother, fire,
                           only_defenceless, relevance, can_submerge, capturers, tuv, aa_targets)

    @staticmethod
    def fire_class(slot: Slot, own_anti_sub: bool) -> int:
        """The target class of ``slot``'s hits in ordinary fire."""
        return slot.restrict | (NO_ANS if slot.is_air and not own_anti_sub else 0)

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
