"""What the log says, as the pure core needs it: the ledger of recorded orders
(extensions, pauses, reminders and late notices sent) and every running game's clock.

Log entries are plain objects with a ``kind``:

* ``started`` {game, turn, power, player, at}: a turn's time began;
* ``extension`` {game, turn, hours, by, player, auto, reason, at}: more time for one turn
  (``by``: "grace", the player's, counted against their extensions, or "organiser");
* ``pause`` {player, start, end, games, at}: a player's absence (vacation);
* ``reminder`` {game, turn, hours, at}; ``late_notice`` {day, at};
* ``nmr`` {game, turn, power, deadline, at}: an NMR turn was played;
* ``finished`` {game, at}: the game ended for the tournament;
* ``settings`` {digest, raw, at}: the settings as last announced;
* ``paired`` {round, games, at}: a round's games were paired (bid deadlines count from it);
* ``round_over`` {round, at}: the round's last game ended; the standings were announced;
* ``bid_reset`` {game, reason, at}: the organiser began a game's bids again;
* ``bid_default`` {game, player, amount, at}: the default bid given at the bid deadline;
* ``decision`` {game, decision, player, winner, reason, by, at}: a resignation or the
  organiser's result (decisions.py);
* ``withdrawn`` {player, reason, games, at}; ``replaced`` {player, old, new, games, key,
  old_key, reason, at}: a player left, or someone else took their seat (seats.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from .deadlines import Extension, Ledger, Pause, TurnClock, parse_stamp

WITHDRAWN = "withdrawn"


def withdrawn_before(entries: list[dict], round_no: int | None = None) -> set[str]:
    """Players withdrawn before round ``round_no`` was paired (None: until now)."""
    out: set[str] = set()
    for e in entries:
        if round_no is not None and e["kind"] == "paired" and e.get("round") == round_no:
            break
        if e["kind"] == WITHDRAWN:
            out.add(e["player"])
    return out


def ledger(entries: Iterable[dict]) -> Ledger:
    extensions, pauses, reminded, notices = [], [], set(), set()
    for e in entries:
        kind = e["kind"]
        if kind == "extension":
            extensions.append(Extension(e["game"], int(e["turn"]), float(e["hours"]), e["by"],
                                        e.get("player"), bool(e.get("auto", False))))
        elif kind == "pause":
            pauses.append(Pause(e["player"], parse_stamp(e["start"]), parse_stamp(e["end"]),
                                tuple(e.get("games", ()))))
        elif kind == "reminder":
            for hours in e["hours"]:
                reminded.add((e["game"], int(e["turn"]), float(hours)))
        elif kind == "late_notice":
            notices.add(e["day"])
    return Ledger(tuple(extensions), tuple(pauses), frozenset(reminded), frozenset(notices))


def finished_games(entries: Iterable[dict]) -> set[str]:
    return {e["game"] for e in entries if e["kind"] == "finished"}


def clocks(entries: Iterable[dict]) -> dict[str, TurnClock]:
    """game -> the clock of the turn it waits for (games that finished have none)."""
    out: dict[str, TurnClock] = {}
    for e in entries:
        if e["kind"] == "started":
            out[e["game"]] = TurnClock(e["game"], int(e["turn"]), e["power"], e["player"],
                                       parse_stamp(e["at"]))
        elif e["kind"] == "finished":
            out.pop(e["game"], None)
    return out


def last_settings(entries: Iterable[dict]) -> dict | None:
    found = None
    for e in entries:
        if e["kind"] == "settings":
            found = e
    return found
