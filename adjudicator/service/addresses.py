"""The address book of a game: players' mail addresses and names added after ``pbem new``.

``game.json`` is signed, and the first turn file chains to its digest, so it is never
rewritten: after a turn that would break the chain, and before one it would leave two
signed game files with the same id, which is exactly what ``pbem compare`` shows when a game
master hands players different games.  Addresses and names only say where results are
mailed and how players are greeted; nothing that adjudicates or verifies a turn reads them.
So they may change during a game, and live beside it in ``addresses.json`` (not signed, not
published), which overrides game.json's address and name of each power it lists.  Keys are
different: a key decides whose orders are accepted, so it is fixed in the signed game file.
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs

from ..io.layout import ADDRESS_BOOK
from ..io.storage import parse_json_bytes, read_regular, write_atomic
from ..io.turnfile import PlayerRecord
from ..model.errors import PbemError
from .gamedir import player_record

MAX_BOOK_BYTES = 64 * 1024


def book_path(directory) -> Path:
    return Path(directory) / ADDRESS_BOOK


def read_book(directory) -> dict[str, dict[str, str]]:
    """power -> {"email", "name"} from the game's address book ({} when it has none)."""
    path = book_path(directory)
    if not path.exists():
        return {}
    doc = parse_json_bytes(read_regular(path, "address book", MAX_BOOK_BYTES), path,
                           "address book")
    book: dict[str, dict[str, str]] = {}
    for power, entry in doc.items():
        if not isinstance(entry, dict) or not all(
                k in ("email", "name") and isinstance(v, str) for k, v in entry.items()):
            raise PbemError(f"{path}: {power!r} must be {{\"email\": ..., \"name\": ...}}")
        try:
            player_record(power, entry)                    # the checks of pbem new --player
        except PbemError as exc:
            raise PbemError(f"{path}: {exc}") from None
        book[power] = dict(entry)
    return book


def with_addresses(gf, directory):
    """The game file with the address book's addresses and names in its player records."""
    book = read_book(directory)
    if not book:
        return gf
    players = dict(gf.players)
    for power, entry in book.items():
        if power in players:
            players[power] = attrs.evolve(players[power], **entry)
    return attrs.evolve(gf, players=players)


def set_address(directory, gf, power: str, email: str | None, name: str | None) -> PlayerRecord:
    """Record ``power``'s address and/or name; returns the player's record as it now reads."""
    if power not in gf.players:
        raise PbemError(f"{power!r} is not a power of this game (its powers: "
                        f"{', '.join(gf.players)})")
    if email is None and name is None:
        raise PbemError("give --email ADDRESS and/or --name NAME")
    entry = {k: v for k, v in (("email", email), ("name", name)) if v is not None}
    checked = player_record(power, entry)              # the checks of pbem new --player
    book = read_book(directory)
    book.setdefault(power, {}).update({k: getattr(checked, k) for k in entry})
    data = json.dumps(book, indent=2, sort_keys=True, ensure_ascii=False).encode() + b"\n"
    write_atomic(book_path(directory), data, overwrite=True)
    return with_addresses(gf, directory).players[power]
