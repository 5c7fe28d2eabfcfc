"""Who plays which power, at which address, with which key: the one place that maps a game
to its players.

A game file of schema 2 holds ``players`` as power -> {key, email, name}; a game file of
schema 1 holds power -> key line (or null), and the addresses then come from mail.toml's
``[players]`` table.
"""

from __future__ import annotations

import attrs

from .message import parse_address


@attrs.frozen
class Player:
    power: str
    email: str | None       # lower case
    name: str = ""
    key: str | None = None  # OpenSSH public key line; None: the game has no key for the power


def _field(record, name: str):
    if isinstance(record, dict):
        return record.get(name)
    return getattr(record, name, None)


def players_of(game_file, config=None) -> dict[str, Player]:
    """power -> Player for every power of the game, in the game file's order."""
    fallback = dict(getattr(config, "players", None) or {})
    out: dict[str, Player] = {}
    for power, record in game_file.players.items():
        if record is None or isinstance(record, str):      # schema 1
            out[power] = Player(power, parse_address(fallback.get(power)), "", record)
        else:                                                # schema 2
            email = parse_address(_field(record, "email")) or parse_address(fallback.get(power))
            out[power] = Player(power, email, _field(record, "name") or "", _field(record, "key"))
    return out


def powers_of_address(players: dict[str, Player], address: str | None) -> list[str]:
    return [p for p, rec in players.items() if address and rec.email == address]


def addresses(players: dict[str, Player]) -> list[str]:
    """Every player's address once, in power order."""
    out: list[str] = []
    for rec in players.values():
        if rec.email and rec.email not in out:
            out.append(rec.email)
    return out
