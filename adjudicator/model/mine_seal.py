"""A sealed mine layout (Taktyczne Starcie, docs/taktyczne-mines.md): the commitment a
power publishes for the board squares of its mines in one area (or in all its areas), and
the check that a reveal opens it.

The commitment is ``sha256_<hex>``, the SHA-256 of the canonical text::

    pbem mine layout
    power: <power>
    area: <area or "all">
    squares: <own-row squares, sorted, space separated>
    salt: <64 hex digits>

(each line ends with a line feed).  The salt is 32 random bytes drawn by the owner's
program (``secrets``): without it the 91 squares of rows 4-10 would be few enough to try
every layout against the published digest.  Pure: no I/O, no randomness (the caller draws
the salt)."""

from __future__ import annotations

import hashlib
import hmac
import re

PREFIX = "sha256_"
SALT_PREFIX = "salt_"
SALT_HEX = 64                     # 32 bytes
_DIGEST = re.compile(r"^sha256_[0-9a-f]{64}$")
_SALT = re.compile(r"^[0-9a-f]{64}$")
_SQUARE = re.compile(r"^[A-Z][1-9][0-9]?$")
MAX_SQUARES = 130                 # far above a side's 91 mine squares


def canonical_squares(squares) -> tuple[str, ...]:
    """The layout's squares upper-cased, each once, sorted (column, then row)."""
    found = {str(s).upper() for s in squares}
    return tuple(sorted(found, key=lambda s: (s[0], int(s[1:]) if s[1:].isdigit() else 0, s)))


def layout_text(power: str, scope: str | None, squares, salt: str) -> str:
    """The canonical text the commitment hashes (``scope``: an area, or None for all)."""
    return ("pbem mine layout\n"
            f"power: {power}\n"
            f"area: {'all' if scope is None else scope}\n"
            f"squares: {' '.join(canonical_squares(squares))}\n"
            f"salt: {salt}\n")


def commitment(power: str, scope: str | None, squares, salt: str) -> str:
    """``sha256_<hex>`` of the layout's canonical text."""
    check_salt(salt)
    digest = hashlib.sha256(layout_text(power, scope, squares, salt).encode()).hexdigest()
    return PREFIX + digest


def opens(sealed: str, power: str, scope: str | None, squares, salt: str) -> bool:
    """Whether ``squares`` with ``salt`` are the layout ``sealed`` commits to (a constant-time
    comparison of the digests)."""
    try:
        found = commitment(power, scope, squares, salt)
    except ValueError:
        return False
    return hmac.compare_digest(found, sealed)


def is_commitment(text: str) -> bool:
    return bool(_DIGEST.match(text))


def check_salt(salt: str) -> None:
    if not _SALT.match(salt):
        raise ValueError(f"a layout's salt is {SALT_HEX} hex digits, not {salt[:80]!r}")


def check_squares(squares) -> None:
    """Each a square name (column letter, row number); at most ``MAX_SQUARES``."""
    squares = list(squares)
    if len(squares) > MAX_SQUARES:
        raise ValueError(f"{len(squares)} squares in one layout (at most {MAX_SQUARES})")
    for square in squares:
        if not _SQUARE.match(str(square).upper()):
            raise ValueError(f"not a square name (a column letter and a row): {square!r}")
