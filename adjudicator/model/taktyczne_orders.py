"""Taktyczne Starcie's own orders on the main map: battle plans, recruits, objects built,
nuclear weapons, scuttling, the air strike, and the standing orders of its aircraft and
guns."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .battle_plan import BattlePlan
from .order_base import Order, UnitGroup
from .standing_orders import StandingChoice


@attrs.frozen(repr=False)
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


@attrs.frozen(repr=False)
class PatrolOrder(StandingChoice):
    """``patrol <area|all>: always|bombers|never`` (Taktyczne Starcie): whether the power's
    fighters based there fire at enemy aircraft flying over (L23.44-L23.46, L23.62); the
    engine's standing kind ``patrol`` (default always)."""

    kind: ClassVar[str] = "patrol"


@attrs.frozen(repr=False)
class EvacuateOrder(StandingChoice):
    """``evacuate <area|all>: 24, S05`` (Taktyczne Starcie): the bases, in order, where the
    power's aircraft fly when they lose their base there (L23.34-L23.35, L23.75); the
    engine's standing kind ``evacuate`` (default ``nearest``)."""

    kind: ClassVar[str] = "evacuate"


@attrs.frozen(repr=False)
class Recruit(Order):
    """``recruit 2 tank_1 44`` (Taktyczne Starcie, at the start of the turn [L19.16]):
    buy ``units`` and place them at once in ``space``, where an object of the buyer's
    produces them (a factory's area, a shipyard's sea)."""

    kind: ClassVar[str] = "recruit"
    units: tuple[UnitGroup, ...]
    space: str
    line: int = 0


@attrs.frozen(repr=False)
class Build(Order):
    """``build factory 44``, ``build shipyard 44 over S05``, ``build carrier S05``
    (Taktyczne Starcie, at the end of the turn [L19.16, L27.2]): buy the object ``what``
    in ``space`` (a shipyard over the sea ``over``; a carrier into a sea)."""

    kind: ClassVar[str] = "build"
    what: str
    space: str
    over: str = ""
    line: int = 0


@attrs.frozen(repr=False)
class Arm(Order):
    """``arm missile 12``, ``arm antimissile 12``, ``arm bomb 44`` (Taktyczne Starcie, at the
    start of the turn [L19.57, L19.64-L19.65, L23.39-L23.42], ruling G26): buy ``what``
    (``nuclear_missile``, ``anti_missile``, ``atomic_bomb``) into the buyer's unarmed silo
    or launcher in ``space``, or onto his bomber there."""

    kind: ClassVar[str] = "arm"
    what: str
    space: str
    line: int = 0


@attrs.frozen(repr=False)
class Launch(Order):
    """``launch 23`` / ``launch 23 from 12`` (Taktyczne Starcie [L19.58]): fire the missile
    of the mover's armed silo in ``silo`` (``""``: his first armed silo) at ``target``."""

    kind: ClassVar[str] = "launch"
    target: str
    silo: str = ""
    line: int = 0


@attrs.frozen(repr=False)
class AntimissileOrder(StandingChoice):
    """``antimissile all: own|reach|never`` (Taktyczne Starcie [L19.67-L19.68], ruling G25):
    when the power's armed launcher fires at another player's missile aimed at ``space``
    (``None``: any target); the engine's standing kind ``antimissile``."""

    kind: ClassVar[str] = "antimissile"


@attrs.frozen(repr=False)
class ScuttleOrder(Order):
    """``scuttle 23``: the empty ferries and carriers the mover takes in ``space`` this turn
    are destroyed instead of captured (L19.43, L27.16, L27.30-L27.31: the attacker's
    choice; without the order they are captured, ruling capture_empty)."""

    kind: ClassVar[str] = "scuttle"
    space: str
    line: int = 0


@attrs.frozen(repr=False)
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


@attrs.frozen(repr=False)
class AirDefenceOrder(StandingChoice):
    """``air defence 34: target fighters and bombers; bombers hold`` (Taktyczne Starcie):
    the targets the power's AA guns and fighters shoot at when ``space`` (``None``: any of
    its areas) is struck, and whether its bombers based there bomb a ground attack
    (L23.77-L23.78); the engine's standing kind ``air_defence``, value its canonical text
    (``target <words>; bombers bomb|hold``)."""

    kind: ClassVar[str] = "air_defence"
