"""Orders still waiting for their result: the record a player holds when a dice keeper
withholds a turn (docs/turn-files.md, "A keeper who withholds a result").

Two sources in a copy's mail state directory (``.mail/`` by default):

* ``sent/NNNN-<power>.txt`` -- the signed orders this copy's player sent for a turn
  (``pbem mail send`` keeps them, and refuses other orders for that turn);
* the journal of ``pbem mail run`` -- each copy of another player's orders that arrived
  here ("witnessed"), with the time it was handled.

Only orders for the turn the copy is at count: once the result arrives the copy moves on.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from ...io.turnfile import file_digest, orders_file_name
from .journal import JOURNAL_FILE, Journal
from .player import SENT_DIR

MAX_SENT_BYTES = 1 << 20          # the orders limit is far below this


@attrs.frozen
class Pending:
    turn: int
    power: str
    how: str                      # "sent" (by this copy's player) or "received" (a copy)
    at: float                     # seconds since the epoch
    digest: str | None            # of the orders file


def pending_orders(state_path, turn: int, power: str) -> list[Pending]:
    """The orders for ``turn`` of ``power`` that this copy sent or received, oldest first."""
    state_path = Path(state_path)
    found = []
    sent = state_path / SENT_DIR / orders_file_name(turn, power)
    try:
        if sent.is_file() and sent.stat().st_size <= MAX_SENT_BYTES:
            found.append(Pending(turn, power, "sent", sent.stat().st_mtime,
                                 file_digest(sent.read_bytes())))
    except OSError:
        pass
    if (state_path / JOURNAL_FILE).is_file():
        for entry in Journal(state_path).entries.values():
            if (entry.get("outcome") == "witnessed" and entry.get("turn") == turn
                    and entry.get("power") == power and isinstance(entry.get("at"), int)):
                found.append(Pending(turn, power, "received", float(entry["at"]),
                                     entry.get("digest")))
    return sorted(found, key=lambda p: p.at)


def age(seconds: float) -> str:
    """``"3 h 5 min"``, ``"2 days 4 h"``: how long ago, for people."""
    minutes = max(0, int(seconds // 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return f"{days} day{'s' if days != 1 else ''} {hours} h"
    return f"{hours} h {mins} min" if hours else f"{mins} min"
