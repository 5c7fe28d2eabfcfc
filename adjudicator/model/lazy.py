"""A module whose names are made on first use (PEP 562): ``orders`` and ``events`` name
every class of their family, each defined in a smaller module imported only when one of
its names is asked for.  Making an attrs class costs about a millisecond (its generated
``__init__``, ``__eq__``, ``__hash__`` and ``__repr__`` compiled), so a command makes only
the classes of the orders and events it meets (issue 24)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_names(package: str, module: str, homes: Mapping[str, str]
               ) -> tuple[Callable[[str], Any], Callable[[], list[str]], Callable[[], None]]:
    """``__getattr__``, ``__dir__`` and a ``load_all`` for the module ``module`` of
    ``package``, whose names are those of ``homes`` (name -> the module of ``package``
    that defines it).  A name found is kept in ``module``: the next use is a plain lookup."""
    facade = f"{package}.{module}"

    def getattr_(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {facade!r} has no attribute {name!r}")
        value = getattr(import_module(f"{package}.{home}"), name)
        setattr(sys.modules[facade], name, value)
        return value

    def dir_() -> list[str]:
        return sorted(homes)

    def load_all() -> None:
        for home in dict.fromkeys(homes.values()):
            import_module(f"{package}.{home}")

    return getattr_, dir_, load_all
