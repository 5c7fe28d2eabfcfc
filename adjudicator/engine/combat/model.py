"""The values one battle is made of: its setup, its state between dice, its result.

A ``BattleSetup`` lists both sides' units (``BattleUnit``) and their instructions; the
``Board`` (``combat.board``) turns it into *slots* of interchangeable units.  A
``BattleState`` holds, per side, how many units of each slot are alive and damaged,
whether the side's submarines have submerged and whether its retreatable units have
retreated, plus the round number and the outcome.  Units that fire before or beside the
battle but are never on the board (an AA gun, a bombarding ship) are ``support`` units.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

import attrs

from ...model.orders import RetreatCondition, SubmergePolicy
from ...model.state import Unit
from ...model.units import UnitType

if TYPE_CHECKING:               # the events module is large: the odds need none of it
    from ...model.events import Event

ATT, DEF = 0, 1
SIDE_NAMES = ("attacker", "defender")
OUTCOMES = ("attacker_wins", "defender_wins", "both_destroyed", "attacker_retreats", "stalemate")
HARD_ROUND_CAP = 10_000          # safety net only: the rules always end a battle long before


@attrs.frozen
class BattleUnit:
    """One unit on the battle board.  ``uid`` is unique within the battle (the turn engine
    maps it back to its unit).  ``cargo`` dies with it and never fires or takes hits.
    ``seaborne``: unloaded from a transport in this assault, so it can never retreat.
    ``casualty_only``: None for a unit in the battle; else a unit in the space that is not
    in the battle but that its side may choose as a casualty (Europe's Allied ships
    against a German submarine), for hits whose target class has these bits
    (``combat.board``: ``NO_AIR`` = submarine hits; 0 = any hit).  It never fires,
    retreats or counts as a unit on the board.
    ``damaged``: a unit of several hit points that enters the battle with one already taken
    (Global 1940's capital ships stay damaged between battles).
    ``airborne``: a land unit that came into the battle by air this turn (Global 1940's
    paratroopers): the defender's AA guns fire at it as at an aircraft when their
    ``aa_fire`` targets include ``airborne`` (``combat.board.Slot.aa_target``)."""

    uid: int
    type: UnitType
    owner: str
    cargo: tuple[Unit, ...] = ()
    seaborne: bool = False
    origin: str | None = None
    casualty_only: int | None = None
    damaged: bool = False
    airborne: bool = False


@attrs.frozen
class BattleSetup:
    """Everything one battle needs.  Loss orders are unit type keys, first lost first
    (``()``: the default, see ``combat.casualties``).  ``retreat`` are the attacker's
    conditions (any true at the end of a round -> retreat); ``retreat_options`` the legal
    destinations worked out by the turn engine (``()``: cannot retreat).  ``attacker_subs``
    is ``"fire"``/``None`` or ``"submerge"`` (submerge at the first chance).  ``min_rounds``:
    the attacker may not retreat before that many rounds (amphibious land part whose sea
    part failed).  ``stages``: the edition's battle stages (``TurnPlan.battle_stages``).
    ``support``: per side, units that fire in a battle step without being on the board
    (AA guns, bombarding ships).  ``unit_types`` (type key -> UnitType) prices cargo for
    the TUV figures.  ``low_luck``: the Low Luck dice mode (``combat.lowluck``).
    ``defender_default``: how the defender's units its loss order does not name are lost,
    ``"cheapest"`` first or ``"weakest"`` first (lowest defence, then cheapest): the
    edition's ``default_losses`` option.
    The units on the board (attackers and defenders) have distinct uids: the results name
    the dead and the survivors by uid, so a repeated one would count a single casualty as
    the loss of every unit sharing it."""

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
    stages: tuple[tuple[str, ...], ...] = (("surprise_strike",), ("main_fire",))
    support: tuple[tuple[BattleUnit, ...], tuple[BattleUnit, ...]] = ((), ())
    unit_types: Mapping[str, UnitType] = attrs.field(factory=dict, eq=False, hash=False)
    low_luck: bool = False
    defender_default: str = "cheapest"
    # Random losses the attacker may take before the battle (Global 1940's kamikaze
    # strikes): ``(probability, uids sunk, uids damaged)`` for each way they can fall,
    # the probabilities summing to 1; ``()``: none.  The odds of such a battle are the
    # mixture of the battles they leave (``combat.prelude``).
    before: tuple[tuple[float, tuple[int, ...], tuple[int, ...]], ...] = ()

    def __attrs_post_init__(self) -> None:
        uids = [u.uid for u in (*self.attackers, *self.defenders)]
        if len(set(uids)) != len(uids):
            repeated = sorted(uid for uid, n in Counter(uids).items() if n > 1)
            raise ValueError(f"battle {self.battle_id}: units share uids {repeated[:10]}")


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
    damaged: tuple[int, ...] = ()          # survivors with a hit taken (entering damaged too)


class Volley(NamedTuple):
    """Units of one type (and one value) on one side firing together in one stage.
    ``cls`` is the target class of its hits (``combat.board``).  ``dice``: each unit rolls
    that many dice and keeps the best (ability ``best_of``, Global 1940's Heavy Bombers);
    it hits with chance ``model.dice.hit_chance(target, sides, dice)``."""

    side: int            # ATT or DEF
    step: str            # "aa" | "bombard" | "surprise" | "attack" | "defence"
    unit_type: str
    count: int
    target: int          # hit on a roll <= target
    cls: int             # target class
    dice: int = 1        # dice per unit, the best kept


def best_of_points(target: int, sides: int, dice: int, scale: int) -> int:
    """What one unit hitting on ``target`` with the best of ``dice`` dice is worth in
    ``sides ** scale``-ths of a hit (``scale >= dice``): ``sides^scale`` times its
    ``hit_chance``, an integer.  For one die and ``scale`` 1, its value (Low Luck's points)."""
    v = max(0, min(target, sides))
    return sides ** scale - (sides - v) ** dice * sides ** (scale - dice)


class Side(NamedTuple):
    """One side's units, per slot of the board: ``alive`` (including submerged and
    retreated ones) and ``damaged`` (among the alive; units with hit points > 1)."""

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
    """A rule-driven change outside the dice: ``kind`` is "defenceless", "cannot_retreat",
    "submerge" or "retreat"; ``slots`` = ((slot index, count), ...) on ``side``.  For a
    retreat, ``reason`` is "condition" (``condition`` held) or "no_fire"."""

    kind: str
    side: int
    slots: tuple[tuple[int, int], ...]
    destination: str | None = None
    reason: str = ""
    condition: RetreatCondition | None = None


class EnemyView(NamedTuple):
    """What a battle step that fires in every round may read of the enemy (the full
    ``SideSummary`` goes only to first-round steps): which target classes some enemy unit
    could take, and whether the enemy has an ``anti_sub`` unit on the board."""

    tmask: int
    anti_sub: bool


class SideSummary(NamedTuple):
    present: tuple[int, ...]       # units on the board per slot (casualty-only ones too)
    n_present: int                 # units on the board, casualty-only ones excluded
    anti_sub: bool
    tmask: int                     # bit c: some present unit may take a hit of class c
    tmask_defenceless: int
    tmask_other: int
    fire: int                      # bit c: some present unit fires hits of class c
    only_defenceless: bool
    relevance: int                 # class bits that matter against this side
    can_submerge: bool
    capturers: int                 # present land units that can capture
    tuv: int                       # cost of present units (cargo excluded)
    aa_targets: int                # present units AA fire aims at (``Slot.aa_target``)


def group_points(volleys, sides: int) -> tuple[int, int]:
    """(k, the group's worth in ``sides ** k``-ths of a hit) of volleys ``((count, target,
    dice), ...)``: k is the most dice a unit keeps the best of (1 without best-of units,
    when the worth is the sum of count x value, values capped at the dice's sides)."""
    scale = max((d for _, _, d in volleys), default=1)
    return scale, sum(n * best_of_points(t, sides, d, scale) for n, t, d in volleys)
