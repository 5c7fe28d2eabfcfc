"""A mine layout sealed square by square (Taktyczne Starcie, docs/taktyczne-mines.md §3):
the commitment a live battle can open one square at a time, so that only the squares the
attacker runs into are ever published before the battle ends.

Every square of the owner's mine rows (columns ``COLUMNS``, own rows ``ROWS``: the battle
board's 13 x 7 squares where mines may lie, L31.7, L31.49) gets a leaf, the SHA-256 of::

    pbem mine square
    power: <power>
    area: <area or "all">
    square: <G5>
    mine: <yes|no>
    salt: <64 hex digits>

whose salt is ``HMAC-SHA256(master salt, "pbem mine square salt\\n<G5>")``: opening one
square publishes its own salt only, never the master salt nor another square's.  An empty
square has a leaf too, so it can be proved empty.  The standing ``minefield`` line holds
``grid_<hex>``, the SHA-256 of the leaves in the canonical order (column, then row), so
the leaves can be published (once, when a live battle starts) and checked against it.
Opening the whole layout at once (a battle by plan, ``reveal``) is the squares and the
master salt: every leaf is recomputed.  Pure: no I/O, no randomness.
"""

from __future__ import annotations

import hashlib
import hmac
import re

PREFIX = "grid_"
COLUMNS = "ABCDEFGHIJKLM"          # maps/taktyczne/board.toml columns = 13
ROWS = tuple(range(4, 11))         # maps/taktyczne/board.toml mine_rows = [4, 10]
SQUARES = tuple(f"{c}{r}" for c in COLUMNS for r in ROWS)
_DIGEST = re.compile(r"^grid_[0-9a-f]{64}$")
_HEX = re.compile(r"^[0-9a-f]{64}$")


def is_grid(text: str) -> bool:
    return bool(_DIGEST.match(text))


def _check_hex(value: str, what: str) -> None:
    if not _HEX.match(value):
        raise ValueError(f"a {what} is 64 hex digits, not {value[:80]!r}")


def square_salt(master: str, square: str) -> str:
    """The salt of one square's leaf, derived from the layout's master salt."""
    _check_hex(master, "layout's salt")
    return hmac.new(bytes.fromhex(master), f"pbem mine square salt\n{square}".encode(),
                    hashlib.sha256).hexdigest()


def leaf(power: str, scope: str | None, square: str, mined: bool, salt: str) -> str:
    """The hex SHA-256 leaf of one square (``salt``: that square's own salt)."""
    _check_hex(salt, "square's salt")
    text = ("pbem mine square\n"
            f"power: {power}\n"
            f"area: {'all' if scope is None else scope}\n"
            f"square: {square}\n"
            f"mine: {'yes' if mined else 'no'}\n"
            f"salt: {salt}\n")
    return hashlib.sha256(text.encode()).hexdigest()


def leaves(power: str, scope: str | None, squares, master: str) -> tuple[str, ...]:
    """Every square's leaf, in ``SQUARES`` order, for the layout ``squares``."""
    mined = {str(s).upper() for s in squares}
    unknown = mined - set(SQUARES)
    if unknown:
        raise ValueError(f"not a square of rows {ROWS[0]}-{ROWS[-1]}: {sorted(unknown)[0]}")
    return tuple(leaf(power, scope, s, s in mined, square_salt(master, s)) for s in SQUARES)


def root(power: str, scope: str | None, all_leaves) -> str:
    """``grid_<hex>``: the commitment to the leaves (one per square of ``SQUARES``)."""
    all_leaves = tuple(all_leaves)
    if len(all_leaves) != len(SQUARES):
        raise ValueError(f"{len(all_leaves)} leaves, not {len(SQUARES)}")
    for value in all_leaves:
        _check_hex(value, "leaf")
    text = (f"pbem mine grid\npower: {power}\narea: {'all' if scope is None else scope}\n"
            + "".join(f"{s}: {v}\n" for s, v in zip(SQUARES, all_leaves)))
    return PREFIX + hashlib.sha256(text.encode()).hexdigest()


def commitment(power: str, scope: str | None, squares, master: str) -> str:
    """The ``grid_<hex>`` commitment of a layout sealed with ``master``."""
    return root(power, scope, leaves(power, scope, squares, master))


def opens(sealed: str, power: str, scope: str | None, squares, master: str) -> bool:
    """Whether ``squares`` with the master salt are the layout ``sealed`` commits to."""
    try:
        found = commitment(power, scope, squares, master)
    except ValueError:
        return False
    return hmac.compare_digest(found, sealed)


def leaves_open(sealed: str, power: str, scope: str | None, all_leaves) -> bool:
    """Whether published leaves are the ones ``sealed`` commits to."""
    try:
        found = root(power, scope, all_leaves)
    except ValueError:
        return False
    return hmac.compare_digest(found, sealed)


def square_opens(the_leaf: str, power: str, scope: str | None, square: str, mined: bool,
                 salt: str) -> bool:
    """Whether ``square`` (mined or not) with its salt opens its published leaf."""
    try:
        found = leaf(power, scope, square, mined, salt)
    except ValueError:
        return False
    return hmac.compare_digest(found, the_leaf)
