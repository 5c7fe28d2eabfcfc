"""``OrderFailed``: an order that cannot be carried out, as a problem code and parameters
(the wording is in ``present.wording``)."""

from __future__ import annotations

from typing import Any


class OrderFailed(Exception):
    """An order that cannot be carried out: ``code`` and ``params`` say why."""

    def __init__(self, code: str, **params: Any):
        self.code = code
        self.params = params
        super().__init__(code)

    def __str__(self) -> str:
        detail = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return f"{self.code}({detail})"


class TurnPaused(Exception):
    """A step stops the turn where it stands, to go on in a later turn file: what it waits
    for (a live board battle) and where the turn goes on were kept in the state by the rule
    that raised this (``TurnContext.step`` and ``order_index`` say where the turn stood;
    ``TurnContext.next_power`` who moves next).  The turn runner catches it."""
