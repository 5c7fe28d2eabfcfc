"""Problems found while checking orders: a code and its parameters, never a sentence.

The wording of every code lives in ``adjudicator.present.wording``; the rules-case files
(``cases/``) and ``pbem check --json`` use the codes as they are.  Parameters are plain
values: territory and power keys, unit type keys, numbers.
"""

from __future__ import annotations

from typing import Any

import attrs

ERROR, WARNING = "error", "warning"


@attrs.frozen
class Problem:
    """A rule violation.  ``severity`` is "error" (the turn cannot be processed) or
    "warning" (worth knowing, not blocking).  ``line`` 0: not tied to one line."""

    line: int
    code: str
    params: dict[str, Any] = attrs.field(factory=dict, eq=False, hash=False)
    severity: str = ERROR

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR
