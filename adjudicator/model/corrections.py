"""A game master's correction of the position: the fix for a mistaken turn, published as
a signed turn of its own (``io.corrections`` reads and writes its text,
``engine.corrections`` applies it).

A correction is a list of edits and one reason.  An edit either restores the position
as it was before an earlier turn (``undo``), or sets one thing: the units in a space
(``set``), a power's IPCs (``ipcs``) or who controls a territory (``owner``).
"""

from __future__ import annotations

import attrs

from .reprs import attrs_repr

UNDO, SET, IPCS, OWNER = "undo", "set", "ipcs", "owner"
ACTIONS = (UNDO, SET, IPCS, OWNER)


@attrs.frozen(repr=False)
class Edit:
    """One change.  ``undo``: ``turn`` is the turn whose starting position is restored;
    ``set``: ``target`` is a space and ``units`` maps each owner to ``{unit type: count}``
    (empty: the space is cleared); ``ipcs``: ``target`` is a power (or economy) and
    ``amount`` its IPCs; ``owner``: ``target`` is a territory and ``power`` its new owner
    (empty: neutral)."""

    __repr__ = attrs_repr
    action: str
    target: str = ""
    turn: int = 0
    amount: int = 0
    power: str = ""
    units: dict[str, dict[str, int]] = attrs.field(factory=dict)


@attrs.frozen(repr=False)
class Correction:
    """The parsed text of a correction turn: its edits, in order, and why it was made."""

    __repr__ = attrs_repr
    edits: tuple[Edit, ...]
    reason: str
