"""Global 1940's own orders: sharing, canals, scrambles, kamikaze strikes and liberation
as standing orders; declarations of war, research, rockets, paratroopers."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .order_base import Order
from .standing_orders import StandingChoice


@attrs.frozen(repr=False)
class ShareOrder(StandingChoice):
    """``share <space|all>: yes|no``: whether allies' units may board the power's transports
    and land on its carriers there (Global 1940 [L680, L1518]; the engine's standing kind
    ``share``)."""

    kind: ClassVar[str] = "share"


@attrs.frozen(repr=False)
class CanalOrder(StandingChoice):
    """``canal <territory|all>: yes|no``: whether the power lets ships of a power of the
    other side it is not at war with pass the canal or strait its territory controls
    (Global 1940 [L312]; the engine's standing kind ``canal``)."""

    kind: ClassVar[str] = "canal"


@attrs.frozen(repr=False)
class ScrambleOrder(StandingChoice):
    """``scramble <territory|all>: yes|no``: whether the power's fighters and tactical
    bombers at an operative air base scramble into an adjacent sea zone under attack
    (Global 1940 [L794-L806]; the engine's standing kind ``scramble``)."""

    kind: ClassVar[str] = "scramble"


@attrs.frozen(repr=False)
class KamikazeOrder(StandingChoice):
    """``kamikaze <zone|all>: N``: how many kamikaze strikes the power makes in a kamikaze
    zone under attack (Global 1940 [L820-L826]; the engine's standing kind ``kamikaze``)."""

    kind: ClassVar[str] = "kamikaze"


class LiberationOrder(StandingChoice):
    """``liberation: <units>``: the units the power places free when its capital is
    liberated (Global 1940's France [L597-L599]; the engine's standing kind
    ``liberation``, value "type:n,type:n")."""

    kind: ClassVar[str] = "liberation"


@attrs.frozen(repr=False)
class Declare(Order):
    """``declare war on <power>, ...`` (Global 1940 [L659-L673]): the phasing power declares
    war on ``targets`` at the start of its combat move (``engine/politics.py``)."""

    kind: ClassVar[str] = "declare"
    targets: tuple[str, ...]
    line: int = 0


@attrs.frozen(repr=False)
class Research(Order):
    """``research 3 dice, chart 2`` (Global 1940's optional research [L1141-L1202]): the
    phasing power buys ``dice`` research dice and, on a breakthrough, rolls on ``chart``
    (None: not named; ``engine/research.py``)."""

    kind: ClassVar[str] = "research"
    dice: int
    chart: int | None = None
    payments: tuple[tuple[str, int], ...] = ()   # (economy as written, IPCs it pays) [L401]
    line: int = 0


@attrs.frozen(repr=False)
class Rocket(Order):
    """``rocket Holland Belgium -> Western Germany`` (Global 1940's Rockets technology
    [L1180]): the operative air base in ``base`` fires at an enemy facility in ``target``
    (``engine/research.py``)."""

    kind: ClassVar[str] = "rocket"
    base: str
    target: str
    line: int = 0


@attrs.frozen(repr=False)
class Paratroop(Order):
    """``paratroop 2 Western Germany -> Poland`` (Global 1940's Paratroopers technology
    [L1182]): up to ``count`` infantry from the air base in ``base`` join the attack on
    ``target`` (``engine/research.py``)."""

    kind: ClassVar[str] = "paratroop"
    count: int
    base: str
    target: str
    line: int = 0
