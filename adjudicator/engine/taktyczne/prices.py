"""What an object costs where it is built: the factory's and the shipyard's rising prices
(L27.6-L27.8)."""

from __future__ import annotations

from ...model.taktyczne import ObjectPrice


def object_price(price: ObjectPrice, standing: int, in_capital: bool = False) -> int:
    """The price of one more object of ``price``'s kind where ``standing`` of that kind
    already stand (a shipyard: over the same sea, L27.8).  Each one costs ``step`` more than
    the one before (L27.6).  In a capital the free factory counts even if it is gone: the
    first factory built there costs as the second anywhere else (L27.7)."""
    if standing < 0:
        raise ValueError(f"standing must not be negative, not {standing}")
    if price.free_in_capital and in_capital:
        standing = max(standing, 1)
    return price.base + price.step * standing
