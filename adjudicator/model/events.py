"""The event log: everything that happens in a turn, in order.

The report, the turn file and the audit all read the same events.  Each event class has
a ``kind`` tag used in files.  Events carry codes and parameters, never sentences: the
wording lives in ``adjudicator.present.wording``.  Unit lists are ``{unit type: count}``
dicts keyed by type, with an ``owner`` where it matters.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from .corrections import Edit
from .battle_orders import RetreatCondition


@attrs.frozen
class Event:
    kind: ClassVar[str] = "event"


@attrs.frozen
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    power: str
    round: int
    ipcs: int


@attrs.frozen
class Purchased(Event):
    kind: ClassVar[str] = "purchased"
    power: str
    units: dict[str, int]
    cost: int
    ipcs_left: int


@attrs.frozen
class Repaired(Event):
    kind: ClassVar[str] = "repaired"
    power: str
    space: str
    points: int
    cost: int
    ipcs_left: int


@attrs.frozen
class Moved(Event):
    kind: ClassVar[str] = "moved"
    power: str
    phase: str                 # "combat" | "noncombat"
    units: dict[str, int]
    path: tuple[str, ...]
    line: int = 0


@attrs.frozen
class Loaded(Event):
    kind: ClassVar[str] = "loaded"
    power: str
    units: dict[str, int]
    origin: str
    zone: str
    line: int = 0
    phase: str = "combat"       # "combat" | "noncombat"


@attrs.frozen
class Unloaded(Event):
    kind: ClassVar[str] = "unloaded"
    power: str
    units: dict[str, int]
    zone: str
    target: str
    amphibious: bool
    line: int = 0
    phase: str = "combat"       # "combat" | "noncombat"


@attrs.frozen
class Blitzed(Event):
    kind: ClassVar[str] = "blitzed"
    power: str
    territory: str
    previous_owner: str


@attrs.frozen
class BattleStarted(Event):
    kind: ClassVar[str] = "battle_started"
    battle: str                 # battle id, e.g. "Karelia" or "Sea Zone 5 (sea)"
    space: str
    battle_type: str            # "land" | "sea" | "raid"
    attacker: str               # power key
    defenders: tuple[str, ...]  # power keys
    attacking_units: dict[str, int]
    defending_units: dict[str, int]


@attrs.frozen
class DiceRolled(Event):
    """One group of dice: all units of ``unit_type`` on ``side`` firing at ``target``
    (hit on a roll <= target) in ``step`` of ``round``.  ``rolls`` are the faces, in order
    drawn from the dice source; ``hits`` counts rolls <= target."""

    kind: ClassVar[str] = "dice_rolled"
    battle: str
    round: int
    step: str                   # "aa" | "bombard" | "surprise" | "attack" | "defence" | "raid"
    side: str                   # "attacker" | "defender"
    unit_type: str
    target: int
    rolls: tuple[int, ...]
    hits: int


@attrs.frozen
class BestOfRolled(DiceRolled):
    """Dice of units that roll ``dice`` dice each and keep the best (ability ``best_of``,
    Global 1940's Heavy Bombers): ``rolls`` are every face in the order drawn, unit by unit
    (each unit's ``dice`` faces in a row), ``kept`` each unit's best (lowest) face, and
    ``hits`` counts the kept faces <= target."""

    kind: ClassVar[str] = "best_of_rolled"
    dice: int
    kept: tuple[int, ...]


@attrs.frozen
class LowLuckRolled(DiceRolled):
    """Low Luck dice (docs/low-luck.md): one group of a side's units firing together at the
    same targets, ``units`` ({type: count}; for aimed dice such as AA fire, the units aimed
    at, one die each) worth ``total`` attack points, scores ``sure``
    hits for certain plus one die (``rolls``, empty when ``total`` is a multiple of the
    dice's sides) hitting on ``target`` (the remainder) or less; ``hits`` counts both.
    ``unit_type`` is the group's first type.  Only the die is luck."""

    kind: ClassVar[str] = "low_luck_rolled"
    units: dict[str, int]
    total: int
    sure: int


@attrs.frozen
class LowLuckBestOfRolled(LowLuckRolled):
    """Low Luck for a group with best-of units (docs/low-luck.md): ``total``, ``sure``'s
    remainder ``target`` are counted in ``per_hit``-ths of a hit (``sides ** k``, k the
    most dice a unit of the group keeps the best of), and the remainder is rolled with k
    dice read as one number from 1 to ``per_hit`` (the first die drawn the most
    significant: (d1 - 1) x sides + d2 for two), hitting when it is <= ``target``."""

    kind: ClassVar[str] = "low_luck_best_of_rolled"
    per_hit: int


@attrs.frozen
class Submerged(Event):
    kind: ClassVar[str] = "submerged"
    battle: str
    round: int
    side: str
    units: dict[str, int]


@attrs.frozen
class Casualties(Event):
    """Units lost (``killed``) or damaged (``damaged``, e.g. a battleship's first hit)."""

    kind: ClassVar[str] = "casualties"
    battle: str
    round: int
    side: str                   # side that lost the units
    killed: dict[str, int]
    damaged: dict[str, int] = attrs.field(factory=dict)
    cargo_lost: dict[str, int] = attrs.field(factory=dict)
    reason: str = "hits"        # "hits" | "defenceless" | "cannot_retreat"


@attrs.frozen
class Retreated(Event):
    """``reason``: "condition" (``condition`` is the attacker's retreat condition that
    held) or "no_fire" (only units that cannot fire were left)."""

    kind: ClassVar[str] = "retreated"
    battle: str
    round: int
    destination: str
    units: dict[str, int]
    reason: str
    condition: RetreatCondition | None = None


@attrs.frozen
class BattleEnded(Event):
    """``outcome``: "attacker_wins" | "defender_wins" | "both_destroyed" | "attacker_retreats"
    | "stalemate".  ``tuv_swing`` = defender TUV lost - attacker TUV lost."""

    kind: ClassVar[str] = "battle_ended"
    battle: str
    space: str
    outcome: str
    rounds: int
    attacker_lost: dict[str, int]
    defender_lost: dict[str, int]
    attacker_tuv_lost: int
    defender_tuv_lost: int
    tuv_swing: int
    captured: bool = False      # the attacker took the territory


@attrs.frozen
class RaidDamage(Event):
    """A strategic bombing raid's result: the damage dice of the surviving bombers, the
    damage they add to the facility of ``unit_type`` in ``space`` (after its cap) and its
    damage now."""

    kind: ClassVar[str] = "raid_damage"
    battle: str
    space: str
    unit_type: str
    rolls: tuple[int, ...]
    damage: int
    total: int


@attrs.frozen
class UnitsConverted(Event):
    """``by`` turned ``from_power``'s ``units`` in ``territory`` into its own (Europe's
    Great Patriotic War [L665])."""

    kind: ClassVar[str] = "units_converted"
    territory: str
    by: str
    from_power: str
    units: dict[str, int]


@attrs.frozen
class UnitsRepaired(Event):
    """Damaged ``units`` of ``power`` in ``space`` repaired (Europe's step 6 [L687])."""

    kind: ClassVar[str] = "units_repaired"
    space: str
    power: str
    units: dict[str, int]


@attrs.frozen
class Resurfaced(Event):
    """Submerged ``units`` of ``power`` in ``space`` resurface (Europe's step 6 [L441])."""

    kind: ClassVar[str] = "resurfaced"
    space: str
    power: str
    units: dict[str, int]


@attrs.frozen
class MiddleEastPaid(Event):
    """``payer`` paid ``payee`` ``amount`` of the ``owed`` Middle East value (``short``:
    what it could not pay and is lost)."""

    kind: ClassVar[str] = "middle_east_paid"
    payer: str
    payee: str
    amount: int
    owed: int
    short: int = 0


@attrs.frozen
class SpecialCashOffered(Event):
    """At the start of a power's pre-game turn: ``pot`` IPCs of its side's special cash are
    left to spend or keep (Europe [L250-L251])."""

    kind: ClassVar[str] = "special_cash_offered"
    power: str
    pot: int


@attrs.frozen
class SpecialCashKept(Event):
    """The last power of a side in the pre-game round keeps ``kept`` IPCs of the side's
    special cash for turn 1 (Europe [L251]); ``ipcs``: its treasury then."""

    kind: ClassVar[str] = "special_cash_kept"
    power: str
    kept: int
    ipcs: int


@attrs.frozen
class TreasuryRaided(Event):
    """A raid that takes IPCs from the treasury (``[turn] raid = "treasury"``): the bombing
    dice, what ``power`` lost (at most what it had) and what it has left."""

    kind: ClassVar[str] = "treasury_raided"
    battle: str
    space: str
    power: str
    rolls: tuple[int, ...]
    lost: int
    total: int


@attrs.frozen
class Captured(Event):
    kind: ClassVar[str] = "captured"
    territory: str
    by: str                     # power now controlling it
    from_power: str
    ipc: int
    liberated: bool = False


@attrs.frozen
class UnitsCaptured(Event):
    """Units taken with a territory (factories, AA guns): they change owner."""

    kind: ClassVar[str] = "units_captured"
    territory: str
    by: str
    from_power: str
    units: dict[str, int]


@attrs.frozen
class Scrambled(Event):
    """Defending aircraft of ``power`` scrambled from ``space`` into the sea zone ``zone``."""

    kind: ClassVar[str] = "scrambled"
    power: str
    space: str
    zone: str
    units: dict[str, int]


@attrs.frozen
class RepairedAtBase(Event):
    """Damaged capital ships repaired free next to a naval base (Global 1940)."""

    kind: ClassVar[str] = "repaired_at_base"
    space: str
    power: str
    units: dict[str, int]


@attrs.frozen
class UnitsChanged(Event):
    """Units that became another type where they are (``count`` of ``from_type`` into
    ``to_type``): a captured major factory turned minor."""

    kind: ClassVar[str] = "units_changed"
    space: str
    power: str
    from_type: str
    to_type: str
    count: int


@attrs.frozen
class Plundered(Event):
    kind: ClassVar[str] = "plundered"
    by: str
    from_power: str
    ipcs: int


@attrs.frozen
class AircraftLost(Event):
    """``reason``: "no_landing" (no landing space in range)."""

    kind: ClassVar[str] = "aircraft_lost"
    power: str
    space: str
    units: dict[str, int]
    reason: str


@attrs.frozen
class Landed(Event):
    """Aircraft flown to a landing space by the engine.  ``reason``: "carrier_sunk",
    "no_order", "order_failed" (the order on ``line`` could not land it), "scrambled"
    (back home after a scramble) or "retreat" (to the landing its battle order's per-unit
    retreat named)."""

    kind: ClassVar[str] = "landed"
    power: str
    units: dict[str, int]
    path: tuple[str, ...]
    reason: str
    line: int = 0


@attrs.frozen
class Placed(Event):
    kind: ClassVar[str] = "placed"
    power: str
    units: dict[str, int]
    space: str


@attrs.frozen
class Refunded(Event):
    kind: ClassVar[str] = "refunded"
    power: str
    units: dict[str, int]
    ipcs: int


@attrs.frozen
class IncomeCollected(Event):
    """``items``: the income pipeline's lines ``((item, amount), ...)``; ``reason``: why
    nothing was collected ("capital_lost"), else ""."""

    kind: ClassVar[str] = "income_collected"
    power: str
    income: int
    total: int
    reason: str = ""
    items: tuple[tuple[str, int], ...] = ()


@attrs.frozen
class EconomyIncome(Event):
    """Income paid to another economy of ``power`` than its first (Global 1940's United
    Kingdom Pacific); ``items`` as in ``IncomeCollected``."""

    kind: ClassVar[str] = "economy_income"
    power: str
    economy: str
    income: int
    total: int
    items: tuple[tuple[str, int], ...] = ()


@attrs.frozen
class OrderSkipped(Event):
    """An order that was valid when written but could not be carried out after combat
    (e.g. the units it names were lost).  ``order`` is its canonical text; ``reason`` a
    problem code with ``params`` (see ``model.problems``)."""

    kind: ClassVar[str] = "order_skipped"
    line: int
    order: str
    reason: str
    params: dict[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class OrderReduced(Event):
    """A noncombat move carried out with fewer units than it names, because the others were
    lost in combat (or cannot move any more): the survivors still go.  ``order`` is its
    canonical text, ``moved`` the units that went; ``reason``/``params`` say why the rest
    did not (a problem code, see ``model.problems``)."""

    kind: ClassVar[str] = "order_reduced"
    line: int
    order: str
    moved: dict[str, int]
    reason: str
    params: dict[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class StandingOrdersChanged(Event):
    kind: ClassVar[str] = "standing_orders_changed"
    power: str
    count: int


@attrs.frozen
class VictoryDeclared(Event):
    """``rule`` names the victory rule that held; ``territories`` the ones it counted."""

    kind: ClassVar[str] = "victory"
    side: str
    rule: str
    territories: tuple[str, ...]


@attrs.frozen
class NoMovesReceived(Event):
    """The power's turn was played with no orders (a missed deadline): no purchase, no
    moves; its standing orders applied and income was collected."""

    kind: ClassVar[str] = "no_moves_received"
    power: str
    deadline: str = ""


@attrs.frozen
class ObjectiveMet(Event):
    """A national objective paid ``income`` IPCs into ``power``'s ``economy`` in its
    Collect Income (Global 1940 [L451-L589]); ``territories``: what its condition counted."""

    kind: ClassVar[str] = "objective_met"
    power: str
    economy: str
    objective: str
    income: int
    territories: tuple[str, ...] = ()


@attrs.frozen
class ObjectiveMissed(Event):
    """A national objective of ``power`` whose condition did not hold this Collect Income."""

    kind: ClassVar[str] = "objective_missed"
    power: str
    economy: str
    objective: str


@attrs.frozen
class ConvoyDisrupted(Event):
    """Enemy warships in the convoy zone ``zone`` cost ``power``'s ``economy`` ``loss`` IPCs
    of its income (Global 1940 [L1105-L1127]): the dice ``rolls``, the sum of those of 3 or
    less capped by the value of the land next to the zone (``cap``)."""

    kind: ClassVar[str] = "convoy_disrupted"
    power: str
    economy: str
    zone: str
    rolls: tuple[int, ...]
    cap: int
    loss: int


@attrs.frozen
class FactoryRemoved(Event):
    """Factories in Chinese land that ``by`` (China or an ally) took back, removed from the
    game (Global 1940 [L379])."""

    kind: ClassVar[str] = "factory_removed"
    space: str
    by: str
    units: tuple[str, ...]


@attrs.frozen
class LiberationUnitsPlaced(Event):
    """``power``, its capital ``space`` liberated, places ``units`` there free of charge,
    once per game (Global 1940's France [L595-L599])."""

    kind: ClassVar[str] = "liberation_units_placed"
    power: str
    units: dict[str, int]
    space: str


@attrs.frozen
class EconomyPaid(Event):
    """The part of ``power``'s purchase that its economy ``economy`` (not its first) paid:
    what it places in that economy's land (Global 1940's UK Pacific [L405-L417])."""

    kind: ClassVar[str] = "economy_paid"
    power: str
    economy: str
    cost: int
    ipcs_left: int


@attrs.frozen
class ResearchRolled(Event):
    """Global 1940's research [L1141-L1202]: ``power`` bought ``bought`` research dice for
    ``cost`` IPCs and rolled them with the ``kept`` it had (``rolls``); a 6 is a
    ``breakthrough``; ``kept_now``: the dice it keeps for its next turns."""

    kind: ClassVar[str] = "research_rolled"
    power: str
    bought: int
    cost: int
    kept: int
    rolls: tuple[int, ...]
    breakthrough: bool
    kept_now: int


@attrs.frozen
class TechnologyGained(Event):
    """A breakthrough's roll ``roll`` on chart ``chart`` gave ``power`` the technology
    ``technology`` (``already_held``: it had it, and gains nothing); ``held``: all it
    holds now."""

    kind: ClassVar[str] = "technology_gained"
    power: str
    chart: int
    roll: int
    technology: str
    already_held: bool = False
    held: tuple[str, ...] = ()        # every technology the power holds now


@attrs.frozen
class RocketFired(Event):
    """Rockets [L1180]: ``power``'s air base in ``base`` hit the ``unit`` facility in
    ``target`` with a die (``roll``), adding ``damage`` (up to its cap) to ``total``."""

    kind: ClassVar[str] = "rocket_fired"
    power: str
    base: str
    target: str
    unit: str
    roll: int
    damage: int
    total: int


@attrs.frozen
class ParatroopersDropped(Event):
    """Paratroopers [L1182]: ``count`` of ``power``'s infantry flew from the air base in
    ``base`` into the attack on ``target``."""

    kind: ClassVar[str] = "paratroopers_dropped"
    power: str
    base: str
    target: str
    count: int


@attrs.frozen
class Corrected(Event):
    """One edit of a game master's correction turn and the reason given for the
    correction."""

    kind: ClassVar[str] = "corrected"
    edit: Edit
    reason: str


# The other modules of events, imported by ``all_event_classes(load=True)`` (to read a file
# whose events they define) and by nothing else of the model: a command that reads a 1941
# turn file makes none of their classes.  A new module of events adds its name here.
EVENT_MODULES: tuple[str, ...] = (
    "live_battle_events",
    "taktyczne",
    "ts_air",           # Taktyczne Starcie's war on the main map (issue 27): aircraft,
    "ts_strike",        # the air strike,
    "ts_guns",          # long-range guns,
    "ts_mines",         # mines and sealed layouts,
    "ts_nuclear",       # nuclear weapons
    "ts_objects",       # and objects destroyed
)


def load_event_modules() -> None:
    """Import every module of ``EVENT_MODULES`` (their classes then exist)."""
    from importlib import import_module
    for name in EVENT_MODULES:
        import_module(f"{__package__}.{name}")


def all_event_classes(base: type = Event, load: bool = True) -> dict[str, type]:
    """Map ``kind`` tag -> event class, for reading event logs back from files (``base``:
    another tagged family, such as the board battle's ``model.tactical.BoardEvent``).
    ``load``: first import every module of events (``EVENT_MODULES``); without it, only the
    classes of the modules already imported."""
    if load:
        load_event_modules()
    found: dict[str, type] = {}
    stack: list[Any] = list(base.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        # @attrs.frozen builds a new slotted class; the original (field-less) class object
        # lingers in __subclasses__() until garbage-collected.  Skip those stale copies.
        if "__attrs_attrs__" in cls.__dict__:
            found[cls.kind] = cls
    return found
