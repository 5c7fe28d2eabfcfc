"""The published files of a game: the game file and one turn file per power-turn.

Both are open, versioned, human-readable JSON documents (``schema_version`` 1), written
with ``codec.canonical_json`` so their bytes are deterministic.  The digest of a file is
``"sha256:" + hex(sha256(exact bytes))``; each turn file names the digest of the file
before it (``previous``), so the files form a hash chain rooted in the game file.
See docs/turn-files.md.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import attrs

from . import codec

from . import hmac_dice
from ..model.errors import StateFileError
from ..model.events import Event
from ..model.state import GameState
from .storage import parse_json_bytes

SCHEMA_VERSION = 1

_DIGEST_RE = re.compile(r"^sha256:[0-9a-f]{64}$")
_SEED_RE = re.compile(r"^[0-9a-f]{64}$")


@attrs.frozen
class DiceRecord:
    """One call of ``DiceSource.roll``: what for, and the faces, in stream order."""

    purpose: str
    faces: tuple[int, ...]


@attrs.frozen
class GameFile:
    """``game.json``: what is being played, by whom, from which position, and the first
    seed commitment.  ``ruleset`` is the name passed to ``loader.load_game``."""

    schema_version: int
    game_id: str
    ruleset: str
    map_id: str
    map_hash: str
    options: dict[str, Any]            # the ruleset options in force (Ruleset.options)
    created: str
    game_master: str                   # OpenSSH public key line of the game master
    players: dict[str, str | None]     # power -> OpenSSH public key line, or null
    dice: str                          # dice algorithm, "pbem-dice-v1"
    dice_sides: int
    seed_commitment: str               # commitment to the seed of the first turn
    initial_state: GameState


@attrs.frozen
class TurnFile:
    """``turns/NNNN-<power>.json``: one adjudicated power-turn."""

    schema_version: int
    game_id: str
    map_id: str
    map_hash: str
    turn_number: int
    round: int
    power: str
    previous: str                      # digest of the previous file (the game file for turn 1)
    orders: str                        # the accepted orders text, exactly
    orders_digest: str                 # digest of the orders file (= orders as UTF-8)
    orders_signature: str | None       # armored SSHSIG by the player, namespace pbem-orders
    seed: str                          # the revealed seed, hex
    seed_commitment: str               # the commitment it opens (copied from the previous file)
    next_commitment: str               # commitment to the next turn's seed
    dice: tuple[DiceRecord, ...]
    events: tuple[Event, ...]
    state: GameState                   # the state after this turn


# --------------------------------------------------------------------------- helpers

def file_digest(data: bytes) -> str:
    """``"sha256:<hex>"`` of ``data`` -- the digest of a file is over its exact bytes."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def is_digest(value) -> bool:
    return isinstance(value, str) and bool(_DIGEST_RE.match(value))


def is_seed_hex(value) -> bool:
    return isinstance(value, str) and bool(_SEED_RE.match(value))


def turn_file_name(turn_number: int, power: str) -> str:
    return f"{turn_number:04d}-{power}.json"


def orders_file_name(turn_number: int, power: str) -> str:
    return f"{turn_number:04d}-{power}.txt"


def orders_bytes(text: str) -> bytes:
    """The orders file's bytes: the accepted text as UTF-8, nothing added or removed."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise StateFileError("the orders text cannot be encoded as UTF-8") from None


def dice_records(log) -> tuple[DiceRecord, ...]:
    """``HmacDice.log`` -> records for the turn file."""
    return tuple(DiceRecord(purpose, tuple(faces)) for purpose, faces in log)


def make_turn_file(*, game_file: GameFile, state_before: GameState, previous: str, orders: str,
                   orders_signature: str | None, seed: bytes, next_commitment: str,
                   dice_log, events, state: GameState) -> TurnFile:
    """Assemble the turn file for the turn ``state_before`` -> ``state``.  The game master
    (``gamedir.process_turn``) and the auditor (``audit.verify_game``) both build turn
    files with this, so a replayed turn can be compared byte for byte."""
    return TurnFile(
        schema_version=SCHEMA_VERSION,
        game_id=state_before.game_id,
        map_id=game_file.map_id,
        map_hash=game_file.map_hash,
        turn_number=state_before.turn_number,
        round=state_before.round,
        power=state_before.power,
        previous=previous,
        orders=orders,
        orders_digest=file_digest(orders_bytes(orders)),
        orders_signature=orders_signature,
        seed=bytes(seed).hex(),
        seed_commitment=hmac_dice.commitment(bytes(seed)),
        next_commitment=next_commitment,
        dice=dice_records(dice_log),
        events=tuple(events),
        state=state,
    )


# --------------------------------------------------------------------------- encode / decode

def encode(doc: GameFile | TurnFile) -> bytes:
    """The canonical bytes of a game or turn file."""
    return codec.canonical_json(codec.converter.unstructure(doc, type(doc)))


def unstructure(doc: GameFile | TurnFile) -> dict:
    return codec.converter.unstructure(doc, type(doc))


def _decode(data: bytes | dict, cls, path, what: str):
    raw = data if isinstance(data, dict) else parse_json_bytes(data, path, what)
    version = raw.get("schema_version")
    if version != SCHEMA_VERSION:
        if type(version) is int and version > SCHEMA_VERSION:
            raise StateFileError(f"{what} {path}: schema_version {version} is newer than this "
                                 f"program understands ({SCHEMA_VERSION}); upgrade pbem")
        raise StateFileError(f"{what} {path}: schema_version must be {SCHEMA_VERSION}, "
                             f"found {version!r}")
    try:
        return codec.structure(raw, cls, "$")
    except codec.DecodeError as exc:
        raise StateFileError(f"{what} {path}: {exc}") from None


def decode_game_file(data: bytes | dict, path="game.json") -> GameFile:
    """Parse and check the shape of a game file (``StateFileError`` on any problem)."""
    gf = _decode(data, GameFile, path, "game file")
    problems = []
    if not is_digest(gf.seed_commitment):
        problems.append("seed_commitment is not a sha256:<hex> digest")
    if gf.initial_state.game_id != gf.game_id:
        problems.append(f"initial_state.game_id {gf.initial_state.game_id!r} differs from "
                        f"game_id {gf.game_id!r}")
    if gf.dice != hmac_dice.ALGORITHM:
        problems.append(f"unknown dice algorithm {gf.dice!r} (expected {hmac_dice.ALGORITHM!r})")
    for name, value in gf.options.items():
        if type(value) not in (bool, int, str):
            problems.append(f"options.{name} must be true/false, an integer or a string")
    if not 2 <= gf.dice_sides <= 256:
        problems.append(f"dice_sides {gf.dice_sides} is out of range")
    if problems:
        raise StateFileError(f"game file {path}: " + "; ".join(problems))
    return gf


def decode_turn_file(data: bytes | dict, path="turn file") -> TurnFile:
    """Parse and check the shape of a turn file (``StateFileError`` on any problem)."""
    tf = _decode(data, TurnFile, path, "turn file")
    problems = []
    for name in ("previous", "orders_digest", "seed_commitment", "next_commitment"):
        if not is_digest(getattr(tf, name)):
            problems.append(f"{name} is not a sha256:<hex> digest")
    if not is_seed_hex(tf.seed):
        problems.append("seed is not 64 lowercase hex digits")
    if problems:
        raise StateFileError(f"turn file {path}: " + "; ".join(problems))
    return tf


def read_game_file(path) -> tuple[GameFile, bytes]:
    from .storage import read_bytes

    data = read_bytes(path, "game file")
    return decode_game_file(data, Path(path)), data


def read_turn_file(path) -> tuple[TurnFile, bytes]:
    from .storage import read_bytes

    data = read_bytes(path, "turn file")
    return decode_turn_file(data, Path(path)), data
