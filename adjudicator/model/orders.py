"""Orders as data: what the grammar produces and the engine consumes.

Every order keeps the ``line`` (1-based) it came from so that validation errors can point
at it.  Names here are canonical keys (unit type keys, territory keys, power keys): the
parser resolves abbreviations and aliases before building these objects.

Each order class has a ``kind`` (the name an edition lists in ``order_kinds``): its module
``adjudicator/io/kinds/<kind>.py`` holds its grammar fragment (or names its file in
``grammar/kinds/``), reading, canonical writing, phase and issuer, and names the engine
functions that check and carry it out, their problem codes and its report section.
"""

from __future__ import annotations

from enum import Enum
from typing import ClassVar

import attrs

from .battle_plan import BattlePlan


class Phase(str, Enum):
    PURCHASE = "purchase"
    COMBAT = "combat"
    NONCOMBAT = "noncombat"
    PLACE = "place"


@attrs.frozen
class UnitGroup:
    """``count`` units of ``type``.  For a transport or carrier, ``cargo`` names exactly what
    it must be carrying (``()``: empty); ``None`` means any, and the engine then prefers the
    emptiest ones.  Ships always move with whatever they carry."""

    count: int
    type: str
    cargo: tuple["UnitGroup", ...] | None = None


ALL = 0        # a group count meaning "every one of them" where an order allows it (retreats)


class Order:
    """Base of every order: ``kind`` names it, ``line`` is where it was written."""

    kind: ClassVar[str] = "order"
    line: int


@attrs.frozen
class Buy(Order):
    kind: ClassVar[str] = "buy"
    units: tuple[UnitGroup, ...]
    line: int = 0


@attrs.frozen
class Repair(Order):
    """Remove ``points`` of damage from the facility in ``space`` (purchase phase)."""

    kind: ClassVar[str] = "repair"
    space: str
    points: int
    line: int = 0


@attrs.frozen
class Move(Order):
    """Move units along ``path`` (``path[0]`` is where they start)."""

    kind: ClassVar[str] = "move"
    phase: Phase
    units: tuple[UnitGroup, ...]
    path: tuple[str, ...]
    line: int = 0

    @property
    def origin(self) -> str:
        return self.path[0]

    @property
    def destination(self) -> str:
        return self.path[-1]


@attrs.frozen
class Load(Order):
    """Load land units from territory ``origin`` onto transports in sea zone ``zone``."""

    kind: ClassVar[str] = "load"
    phase: Phase
    units: tuple[UnitGroup, ...]
    origin: str
    zone: str
    line: int = 0


@attrs.frozen
class Unload(Order):
    """Unload cargo from transports in ``zone`` into territory ``target``.  In the combat
    phase into an enemy territory this is an amphibious assault."""

    kind: ClassVar[str] = "unload"
    phase: Phase
    units: tuple[UnitGroup, ...]
    zone: str
    target: str
    line: int = 0


@attrs.frozen
class Place(Order):
    kind: ClassVar[str] = "place"
    units: tuple[UnitGroup, ...]
    space: str
    line: int = 0


class Comparison(str, Enum):
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    EQ = "=="


@attrs.frozen
class RetreatCondition:
    """Retreat to ``destination`` when a condition holds at the end of a round.
    ``after_round``: retreat once that many rounds have been fought.
    ``attackers``/``defenders`` thresholds compare the count of remaining units (or, with
    ``measure="tuv"``, their total cost) of that side."""

    destination: str | None = None      # None: the engine picks a legal one (first in a stable order)
    after_round: int | None = None
    side: str | None = None             # "attackers" or "defenders"
    comparison: Comparison | None = None
    threshold: int | None = None
    measure: str = "units"              # "units" or "tuv"


@attrs.frozen
class Bomb(Order):
    """Of the bombers that ended their combat move in ``space``, ``units`` raid its
    factory instead of fighting (strategic bombing raid); ``target``: the unit type of the
    facility raided (Global 1940's factories and bases), empty for the first each bomber
    may hit."""

    kind: ClassVar[str] = "bomb"
    space: str
    units: tuple[UnitGroup, ...]
    line: int = 0
    target: str = ""


@attrs.frozen
class Bombard(Order):
    """Ships (``units``) in the sea zones the assault on ``target`` unloads from bombard it
    (``units`` empty: every eligible ship there, the default)."""

    kind: ClassVar[str] = "bombard"
    target: str
    units: tuple[UnitGroup, ...] = ()
    line: int = 0


@attrs.frozen
class BattleDirective(Order):
    """The attacker's instructions for the battle in ``space``."""

    kind: ClassVar[str] = "battle"
    space: str
    retreat: tuple[RetreatCondition, ...] = ()   # any one true -> retreat
    loss_order: tuple[str, ...] = ()             # unit type keys, first lost first
    subs: str | None = None                      # "fire" | "submerge" for attacking subs
    line: int = 0
    # Only these units retreat ("retreat ftr to UK ..."); the others fight on.  ``()``: every
    # unit that may retreat goes (the whole-battle retreat).  A group's count ``ALL``
    # ("retreat fighters", no count): every unit of that type in the battle.
    retreat_units: tuple[UnitGroup, ...] = ()


class SubmergePolicy(str, Enum):
    NEVER = "never"          # always fire surprise strikes
    ALWAYS = "always"        # submerge at the first chance
    LOSING = "losing"        # submerge when the enemy's expected hits exceed ours (default)


@attrs.frozen
class DefenceOrder(Order):
    """A standing defence order for ``space`` (``None``: all spaces of this power)."""

    kind: ClassVar[str] = "defend"
    space: str | None
    loss_order: tuple[str, ...] = ()
    submerge: SubmergePolicy | None = None
    line: int = 0
    landing: tuple[str, ...] = ()       # where fighters whose carrier sank here land, in order


@attrs.frozen
class StandingChoice(Order):
    """An edition's standing order of kind ``name`` (declared by its rules with a default,
    ``engine.turn_rules.declare_standing``): for ``space`` (``None``: everywhere) the power
    chooses ``value``; kept in the game state until replaced.  An edition's order kind
    subclasses it with its own ``kind`` (its statement's verb); it is stored as this class."""

    kind: ClassVar[str] = "standing"
    name: str
    space: str | None = None
    value: str = ""
    line: int = 0


@attrs.frozen
class InterceptOrder(StandingChoice):
    """``intercept <space|all>: yes|no``: whether the power's fighters intercept raids
    (Europe 1999 [L601]; the engine's standing kind ``intercept``)."""

    kind: ClassVar[str] = "intercept"


@attrs.frozen
class ShareOrder(StandingChoice):
    """``share <space|all>: yes|no``: whether allies' units may board the power's transports
    and land on its carriers there (Global 1940 [L680, L1518]; the engine's standing kind
    ``share``)."""

    kind: ClassVar[str] = "share"


@attrs.frozen
class CanalOrder(StandingChoice):
    """``canal <territory|all>: yes|no``: whether the power lets ships of a power of the
    other side it is not at war with pass the canal or strait its territory controls
    (Global 1940 [L312]; the engine's standing kind ``canal``)."""

    kind: ClassVar[str] = "canal"


@attrs.frozen
class ScrambleOrder(StandingChoice):
    """``scramble <territory|all>: yes|no``: whether the power's fighters and tactical
    bombers at an operative air base scramble into an adjacent sea zone under attack
    (Global 1940 [L794-L806]; the engine's standing kind ``scramble``)."""

    kind: ClassVar[str] = "scramble"


@attrs.frozen
class KamikazeOrder(StandingChoice):
    """``kamikaze <zone|all>: N``: how many kamikaze strikes the power makes in a kamikaze
    zone under attack (Global 1940 [L820-L826]; the engine's standing kind ``kamikaze``)."""

    kind: ClassVar[str] = "kamikaze"


@attrs.frozen
class MiddleEastOrder(StandingChoice):
    """``middle east: <power>, ...``: which Allies pay Germany for the Middle East, first
    to last (Europe 1999 [L699]; the engine's standing kind ``middle_east``)."""

    kind: ClassVar[str] = "middle_east"


@attrs.frozen
class PlanOrder(Order):
    """``plan 34: wedge, advance, target tanks, fire at 4`` (Taktyczne Starcie): the
    attacker's battle plan for the board battle in ``space`` this turn; its squares name
    unit type keys (``engine/taktyczne/plans.py``)."""

    kind: ClassVar[str] = "plan"
    space: str
    plan: BattlePlan = BattlePlan()
    line: int = 0


class DefencePlanOrder(StandingChoice):
    """``defend 22: line, hold`` (Taktyczne Starcie): the power's standing battle plan for
    board battles in ``space`` (``None``: all its areas) when it is attacked; the engine's
    standing kind ``defence_plan``, value the plan's canonical text (``model.plan_text``)."""

    kind: ClassVar[str] = "defence_plan"


@attrs.frozen
class PatrolOrder(StandingChoice):
    """``patrol <area|all>: always|bombers|never`` (Taktyczne Starcie): whether the power's
    fighters based there fire at enemy aircraft flying over (L23.44-L23.46, L23.62); the
    engine's standing kind ``patrol`` (default always)."""

    kind: ClassVar[str] = "patrol"


@attrs.frozen
class EvacuateOrder(StandingChoice):
    """``evacuate <area|all>: 24, S05`` (Taktyczne Starcie): the bases, in order, where the
    power's aircraft fly when they lose their base there (L23.34-L23.35, L23.75); the
    engine's standing kind ``evacuate`` (default ``nearest``)."""

    kind: ClassVar[str] = "evacuate"


@attrs.frozen
class Keep(Order):
    """``keep <n>`` (Europe 1999, the pre-game round [L250-L251]): the phasing power takes
    ``amount`` IPCs of its side's special cash for turn 1."""

    kind: ClassVar[str] = "keep"
    amount: int
    line: int = 0


@attrs.frozen
class Recruit(Order):
    """``recruit 2 tank_1 44`` (Taktyczne Starcie, at the start of the turn [L19.16]):
    buy ``units`` and place them at once in ``space``, where an object of the buyer's
    produces them (a factory's area, a shipyard's sea)."""

    kind: ClassVar[str] = "recruit"
    units: tuple[UnitGroup, ...]
    space: str
    line: int = 0


@attrs.frozen
class Build(Order):
    """``build factory 44``, ``build shipyard 44 over S05``, ``build carrier S05``
    (Taktyczne Starcie, at the end of the turn [L19.16, L27.2]): buy the object ``what``
    in ``space`` (a shipyard over the sea ``over``; a carrier into a sea)."""

    kind: ClassVar[str] = "build"
    what: str
    space: str
    over: str = ""
    line: int = 0


@attrs.frozen
class Arm(Order):
    """``arm missile 12``, ``arm antimissile 12``, ``arm bomb 44`` (Taktyczne Starcie, at the
    start of the turn [L19.57, L19.64-L19.65, L23.39-L23.42], ruling G26): buy ``what``
    (``nuclear_missile``, ``anti_missile``, ``atomic_bomb``) into the buyer's unarmed silo
    or launcher in ``space``, or onto his bomber there."""

    kind: ClassVar[str] = "arm"
    what: str
    space: str
    line: int = 0


@attrs.frozen
class Launch(Order):
    """``launch 23`` / ``launch 23 from 12`` (Taktyczne Starcie [L19.58]): fire the missile
    of the mover's armed silo in ``silo`` (``""``: his first armed silo) at ``target``."""

    kind: ClassVar[str] = "launch"
    target: str
    silo: str = ""
    line: int = 0


@attrs.frozen
class AntimissileOrder(StandingChoice):
    """``antimissile all: own|reach|never`` (Taktyczne Starcie [L19.67-L19.68], ruling G25):
    when the power's armed launcher fires at another player's missile aimed at ``space``
    (``None``: any target); the engine's standing kind ``antimissile``."""

    kind: ClassVar[str] = "antimissile"


class LiberationOrder(StandingChoice):
    """``liberation: <units>``: the units the power places free when its capital is
    liberated (Global 1940's France [L597-L599]; the engine's standing kind
    ``liberation``, value "type:n,type:n")."""

    kind: ClassVar[str] = "liberation"


@attrs.frozen
class Convert(Order):
    """``convert <units> <territory>`` (Europe 1999, the Soviet noncombat move [L665]):
    Allied units there become the phasing power's."""

    kind: ClassVar[str] = "convert"
    units: tuple[UnitGroup, ...]
    space: str
    line: int = 0


@attrs.frozen
class Declare(Order):
    """``declare war on <power>, ...`` (Global 1940 [L659-L673]): the phasing power declares
    war on ``targets`` at the start of its combat move (``engine/politics.py``)."""

    kind: ClassVar[str] = "declare"
    targets: tuple[str, ...]
    line: int = 0


@attrs.frozen
class Research(Order):
    """``research 3 dice, chart 2`` (Global 1940's optional research [L1141-L1202]): the
    phasing power buys ``dice`` research dice and, on a breakthrough, rolls on ``chart``
    (None: not named; ``engine/research.py``)."""

    kind: ClassVar[str] = "research"
    dice: int
    chart: int | None = None
    payments: tuple[tuple[str, int], ...] = ()   # (economy as written, IPCs it pays) [L401]
    line: int = 0


@attrs.frozen
class Rocket(Order):
    """``rocket Holland Belgium -> Western Germany`` (Global 1940's Rockets technology
    [L1180]): the operative air base in ``base`` fires at an enemy facility in ``target``
    (``engine/research.py``)."""

    kind: ClassVar[str] = "rocket"
    base: str
    target: str
    line: int = 0


@attrs.frozen
class Paratroop(Order):
    """``paratroop 2 Western Germany -> Poland`` (Global 1940's Paratroopers technology
    [L1182]): up to ``count`` infantry from the air base in ``base`` join the attack on
    ``target`` (``engine/research.py``)."""

    kind: ClassVar[str] = "paratroop"
    count: int
    base: str
    target: str
    line: int = 0


@attrs.frozen
class Nmr(Order):
    """The game master's statement that no orders came by ``deadline`` (ISO 8601 UTC,
    ``""``: not given): the turn is played with no purchase and no moves."""

    kind: ClassVar[str] = "nmr"
    deadline: str = ""
    line: int = 0


@attrs.frozen
class Concede(Order):
    """The power's side gives the game up: the other side wins."""

    kind: ClassVar[str] = "concede"
    line: int = 0


@attrs.frozen
class StandingOrders:
    """A power's standing defence orders; they stay in the game state until replaced."""

    defences: tuple[DefenceOrder, ...] = ()
    choices: tuple[StandingChoice, ...] = ()    # standing orders of the edition's own kinds

    def choice(self, name: str, space: str | None = None) -> StandingChoice | None:
        """The standing order of kind ``name`` for ``space``, else the one for everywhere."""
        found = [c for c in self.choices if c.name == name and c.space == space]
        if not found and space is not None:
            found = [c for c in self.choices if c.name == name and c.space is None]
        return found[-1] if found else None

    def for_space(self, space: str) -> DefenceOrder | None:
        """The order for ``space``, else the global one, else None."""
        specific = [d for d in self.defences if d.space == space]
        if specific:
            return specific[-1]
        general = [d for d in self.defences if d.space is None]
        return general[-1] if general else None


@attrs.frozen
class OrderSet:
    """One power's orders for one turn, as parsed, in the order written.  ``source`` is
    the exact text.  The per-kind tuples below are views of ``items``."""

    power: str | None
    items: tuple[Order, ...] = ()
    source: str = ""

    def of(self, *kinds: str) -> tuple:
        return tuple(o for o in self.items if o.kind in kinds)

    def in_phase(self, phase: Phase) -> tuple:
        """Move/load/unload orders of ``phase``, in the order written."""
        return tuple(o for o in self.items if getattr(o, "phase", None) == phase)

    @property
    def buys(self) -> tuple[Buy, ...]:
        return self.of("buy")

    @property
    def repairs(self) -> tuple[Repair, ...]:
        return self.of("repair")

    @property
    def combat(self) -> tuple:
        return self.in_phase(Phase.COMBAT)

    @property
    def noncombat(self) -> tuple:
        return self.in_phase(Phase.NONCOMBAT)

    @property
    def places(self) -> tuple[Place, ...]:
        return self.of("place")

    @property
    def battles(self) -> tuple[BattleDirective, ...]:
        return self.of("battle")

    @property
    def defences(self) -> tuple[DefenceOrder, ...]:
        return self.of("defend")

    @property
    def standing_choices(self) -> tuple[StandingChoice, ...]:
        """Standing orders of the edition's own kinds, in the order written."""
        return tuple(o for o in self.items if isinstance(o, StandingChoice))

    @property
    def bombs(self) -> tuple[Bomb, ...]:
        return self.of("bomb")

    @property
    def bombards(self) -> tuple[Bombard, ...]:
        return self.of("bombard")

    def directive_for(self, space: str) -> BattleDirective | None:
        found = [b for b in self.battles if b.space == space]
        return found[-1] if found else None


@attrs.frozen
class ScuttleOrder(Order):
    """``scuttle 23``: the empty ferries and carriers the mover takes in ``space`` this turn
    are destroyed instead of captured (L19.43, L27.16, L27.30-L27.31: the attacker's
    choice; without the order they are captured, ruling capture_empty)."""

    kind: ClassVar[str] = "scuttle"
    space: str
    line: int = 0


@attrs.frozen
class StrikeOrder(Order):
    """``strike 34: 2 bomber 22 -> 23 -> 34 -> 23 -> 22, target aa and tanks, stay 2``
    (Taktyczne Starcie, the main-map air strike, L23.10-L23.64): ``units`` fly from
    ``path[0]`` along ``path`` to ``target`` and back (the part after the target; not
    written: the way out reversed); ``priority``: target words (``model.ts_targets``);
    ``stay``: battle turns at most (0: not said, the default 4); ``leave_after``: fly home
    after this many aircraft lost (0: not said).  Fighters alone: a sweep (L23.48, L23.69).
    Lines on one target in one turn are one strike (L23.74)."""

    kind: ClassVar[str] = "strike"
    target: str
    units: tuple[UnitGroup, ...]
    path: tuple[str, ...]
    priority: tuple[str, ...] = ()
    stay: int = 0
    leave_after: int = 0
    line: int = 0


@attrs.frozen
class AirDefenceOrder(StandingChoice):
    """``air defence 34: target fighters and bombers; bombers hold`` (Taktyczne Starcie):
    the targets the power's AA guns and fighters shoot at when ``space`` (``None``: any of
    its areas) is struck, and whether its bombers based there bomb a ground attack
    (L23.77-L23.78); the engine's standing kind ``air_defence``, value its canonical text
    (``target <words>; bombers bomb|hold``)."""

    kind: ClassVar[str] = "air_defence"
