"""The players of a tournament: a name, a mail address and an OpenSSH public key each.

A player's ``id`` is a short word made from the name (``"Amy Smith"`` -> ``amy-smith``)
that names them in files and commands.  The key, when given, is registered for every
power the player plays, so that their orders must be signed (``pbem mail send`` does it);
the address receives pairings, reminders and results.
"""

from __future__ import annotations

import re
import unicodedata

import attrs

from ...io.turnfile import valid_email
from ...model.errors import PbemError
from ..gamedir import player_record

MAX_PLAYERS = 4096
_ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


@attrs.frozen
class Player:
    id: str
    name: str
    email: str | None = None
    key: str | None = None            # OpenSSH public key line


def player_id(name: str) -> str:
    """``"Amélie O'Neil"`` -> ``amelie-oneil``."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")[:40].strip("-")
    if not text:
        raise PbemError(f"cannot make a player id from {name!r}: give --id (letters, digits, '-')")
    return text


def new_player(name: str, email: str | None = None, key=None,
               pid: str | None = None) -> Player:
    """A checked player record: the name is 1-100 printable characters, the address an
    address, the key an Ed25519 public key (line or .pub path)."""
    name = " ".join(str(name).split())
    pid = pid or player_id(name)
    if not _ID_RE.match(pid):
        raise PbemError(f"player id {pid!r}: use 1-40 lower-case letters, digits and '-'")
    if email is not None and not valid_email(email):
        raise PbemError(f"{email!r} is not a mail address (user@domain)")
    record = player_record("player", {"key": key, "email": email, "name": name})
    return Player(pid, record.name, record.email, record.key)


def add_player(players: tuple[Player, ...], player: Player) -> tuple[Player, ...]:
    """``players`` with ``player`` added; its id, name and key must be new."""
    if len(players) >= MAX_PLAYERS:
        raise PbemError(f"a tournament has at most {MAX_PLAYERS} players")
    for other in players:
        if other.id == player.id:
            raise PbemError(f"there is already a player {other.id!r} ({other.name}); "
                            "give another --id")
        if other.name.casefold() == player.name.casefold():
            raise PbemError(f"there is already a player named {other.name!r}")
        if player.key is not None and other.key is not None and \
                other.key.split()[:2] == player.key.split()[:2]:
            raise PbemError(f"{other.name} already registered this key")
    return players + (player,)


def by_id(players) -> dict[str, Player]:
    return {p.id: p for p in players}


def find(players, text: str) -> Player:
    """The player ``text`` names (id or name, any case)."""
    folded = text.casefold().strip()
    for p in players:
        if p.id == folded or p.name.casefold() == folded:
            return p
    known = ", ".join(p.id for p in players) or "none yet"
    raise PbemError(f"no player {text!r} in this tournament (players: {known})")
