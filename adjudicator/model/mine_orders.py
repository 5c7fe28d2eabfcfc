"""Taktyczne Starcie's sealed mine layouts as orders (docs/taktyczne-mines.md): the standing
commitment ``minefield 22: sha256_<hex>`` and the owner's ``reveal 22: F5 G5 salt_<hex>``
when a battle waits for it.  Apart from ``model.orders`` so that only Taktyczne games load
them; no event module is imported (start-up, tests/test_startup_imports.py)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .order_base import Order
from .standing_orders import StandingChoice


class MinefieldOrder(StandingChoice):
    """``minefield 22: sha256_<hex>`` (or ``all``; ``none`` withdraws it): the power's sealed
    layout of its board mines in ``space``'s battles, a commitment only
    (``model.mine_seal``); the engine's standing kind ``minefield``."""

    kind: ClassVar[str] = "minefield"


@attrs.frozen(repr=False)
class RevealOrder(Order):
    """``reveal 22: F5 G5 salt_<hex>``: the layout a battle waits for (``space``: the area
    of the commitment, None for ``all``), its own-row ``squares`` and ``salt``."""

    kind: ClassVar[str] = "reveal"
    space: str | None
    squares: tuple[str, ...] = ()
    salt: str = ""
    line: int = 0


@attrs.frozen(repr=False)
class OpenOrder(Order):
    """A square-by-square sealed layout opened in a live battle (``model.mine_grid``):
    ``open 23: leaves G <7 leaves>``, the published leaves of column G (rows 4-10), when the
    battle starts; ``open 23: G5 mine salt_<hex>`` / ``open 23: G5 empty salt_<hex>``, one
    square the attacker's written paths enter, when his battle turn waits for it."""

    kind: ClassVar[str] = "open"
    space: str | None
    square: str = ""
    mined: bool | None = None
    salt: str = ""
    column: str = ""
    leaves: tuple[str, ...] = ()
    line: int = 0
