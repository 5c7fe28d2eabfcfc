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
