"""The published files of a game: the game file and one turn file per power-turn.

Both are open, versioned, human-readable JSON documents, written with
``codec.canonical_json`` so their bytes are deterministic (and a file in any other
spelling is refused).  The digest of a file is ``"sha256:" + hex(sha256(exact bytes))``;
each turn file names the digest of the file before it (``previous``), so the files form a
hash chain rooted in the game file.  See docs/turn-files.md.

Schema 2 is written; schema 1 (pbem-adjudicator 0.1.0) is still read: its files are
decoded into the schema-2 classes (``schema_version`` stays 1, ``engine`` is "1",
``rules_hash`` holds the old ``map_hash``), and checked for canonical bytes in their own
layout.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import attrs

from . import codec

from . import hmac_dice
from .limits import MAX_PLAYERS, MAX_ROUND, MAX_SHORT_TEXT, MAX_SIGNATURE_BYTES, MAX_TURN_NUMBER
from .orders_text import MAX_ORDERS_BYTES
from .versions import ENGINE_VERSION, LEGACY_PROGRAM, PROGRAM
from ..model.errors import StateFileError
from ..model.events import Event, all_event_classes
from ..model.state import GameState
from .storage import parse_json_bytes

SCHEMA_VERSION = 2
READABLE_SCHEMAS = (1, 2)
GAME_MASTER = "game_master"            # the signer of files signed by the game master

_DIGEST_RE = re.compile(r"^sha256:[0-9a-f]{64}$")
_SEED_RE = re.compile(r"^[0-9a-f]{64}$")
_SIGNER_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_ENGINE_RE = re.compile(r"^[0-9A-Za-z.+-]{1,20}$")
_EMAIL_RE = re.compile(r"^[^@\s<>(),;:\\\"\[\]]+@[^@\s<>(),;:\\\"\[\]]+\.[^@\s<>(),;:\\\"\[\]]+$")
MAX_EMAIL = 254
MAX_NAME = 100


@attrs.frozen
class DiceRecord:
    """One call of ``DiceSource.roll``: what for, and the faces, in stream order."""

    purpose: str
    faces: tuple[int, ...]


@attrs.frozen
class PlayerRecord:
    """Who plays a power: the OpenSSH public key their orders must be signed with (or
    null: unsigned orders), where to mail them, their name."""

    key: str | None = None
    email: str | None = None
    name: str | None = None


@attrs.frozen
class GameFile:
    """``game.json``: what is being played, by whom, with which rules and engine, from
    which position, and the first seed commitment.  ``ruleset`` is the name passed to
    ``loader.load_game``."""

    schema_version: int
    program: str                       # informational: "pbem-adjudicator <version>"
    engine: str                        # the adjudication version (adjudicator.ENGINE_VERSION)
    game_id: str
    ruleset: str
    map_id: str
    rules_hash: str                    # Game.content_hash: the edition's data and the grammar
    options: dict[str, Any]            # the ruleset options in force (Ruleset.options)
    created: str
    game_master: str                   # OpenSSH public key line of the game master
    players: dict[str, PlayerRecord]   # power -> player record
    dice: str                          # dice algorithm, "pbem-dice-v2"
    dice_sides: int
    seed_commitment: str               # commitment to the seed of the first turn
    initial_state: GameState


@attrs.frozen
class TurnFile:
    """``turns/NNNN-<power>.json``: one adjudicated power-turn."""

    schema_version: int
    program: str                       # the program that wrote this file (informational)
    engine: str                        # the adjudication version that played this turn
    rules_hash: str                    # as in the game file
    signer: str                        # who signs this file: "game_master" (or a role/power)
    game_id: str
    map_id: str
    turn_number: int
    round: int
    power: str
    previous: str                      # digest of the previous file (the game file for turn 1)
    orders: str                        # the accepted orders text, exactly
    orders_digest: str                 # digest of the orders file (= orders as UTF-8)
    orders_signature: str | None       # armored SSHSIG by the player (pbem-orders), or null
    canonical_orders_digest: str | None  # digest of the canonical orders text: the dice's
    #                                      binding (schema 1: None, the dice bind orders_digest)
    seed: str                          # the revealed seed, hex
    seed_commitment: str               # the commitment it opens (copied from the previous file)
    next_commitment: str               # commitment to the next turn's seed
    dice: tuple[DiceRecord, ...]
    events: tuple[Event, ...]
    state: GameState                   # the state after this turn


@attrs.frozen
class GameFileV1:
    """``game.json`` as pbem-adjudicator 0.1.0 wrote it (schema 1)."""

    schema_version: int
    game_id: str
    ruleset: str
    map_id: str
    map_hash: str
    options: dict[str, Any]
    created: str
    game_master: str
    players: dict[str, str | None]
    dice: str
    dice_sides: int
    seed_commitment: str
    initial_state: GameState


@attrs.frozen
class TurnFileV1:
    """A turn file as pbem-adjudicator 0.1.0 wrote it (schema 1)."""

    schema_version: int
    game_id: str
    map_id: str
    map_hash: str
    turn_number: int
    round: int
    power: str
    previous: str
    orders: str
    orders_digest: str
    orders_signature: str | None
    seed: str
    seed_commitment: str
    next_commitment: str
    dice: tuple[DiceRecord, ...]
    events: tuple[dict[str, Any], ...]   # kept as written: today's event classes may differ
    state: GameState


def _legacy_events(raw) -> tuple[Event, ...]:
    """Schema-1 events as today's event classes, one by one: an event whose fields changed
    since is read without the fields today's class no longer has, and left out if it still
    does not fit (they are informational: a schema-1 game cannot be replayed by this engine,
    but its dice and battles still give the luck table)."""
    classes = all_event_classes()
    out: list[Event] = []
    for item in raw:
        try:
            out.append(codec.decode_event(item))
            continue
        except codec.DecodeError:
            pass
        cls = classes.get(item.get("kind")) if isinstance(item, dict) else None
        if cls is None:
            continue
        known = {a.name for a in attrs.fields(cls)} | {"kind"}
        try:
            out.append(codec.decode_event({k: v for k, v in item.items() if k in known}))
        except codec.DecodeError:
            continue
    return tuple(out)


def _upgrade_game(v1: GameFileV1) -> GameFile:
    return GameFile(
        schema_version=1, program=LEGACY_PROGRAM, engine="1", game_id=v1.game_id,
        ruleset=v1.ruleset, map_id=v1.map_id, rules_hash=v1.map_hash, options=v1.options,
        created=v1.created, game_master=v1.game_master,
        players={p: PlayerRecord(key=k) for p, k in v1.players.items()}, dice=v1.dice,
        dice_sides=v1.dice_sides, seed_commitment=v1.seed_commitment,
        initial_state=v1.initial_state)


def _upgrade_turn(v1: TurnFileV1) -> TurnFile:
    return TurnFile(
        schema_version=1, program=LEGACY_PROGRAM, engine="1", rules_hash=v1.map_hash,
        signer=GAME_MASTER, game_id=v1.game_id, map_id=v1.map_id, turn_number=v1.turn_number,
        round=v1.round, power=v1.power, previous=v1.previous, orders=v1.orders,
        orders_digest=v1.orders_digest, orders_signature=v1.orders_signature,
        canonical_orders_digest=None, seed=v1.seed, seed_commitment=v1.seed_commitment,
        next_commitment=v1.next_commitment, dice=v1.dice, events=_legacy_events(v1.events),
        state=v1.state)


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
                   orders_signature: str | None, canonical_orders_digest: str, seed: bytes,
                   next_commitment: str, dice_log, events, state: GameState,
                   program: str = PROGRAM, signer: str = GAME_MASTER) -> TurnFile:
    """Assemble the turn file for the turn ``state_before`` -> ``state``.  The game master
    (``gamedir.process_turn``) and the auditor (``audit.verify_game``, passing the
    published ``program`` and ``signer``) both build turn files with this, so a replayed
    turn can be compared byte for byte."""
    return TurnFile(
        schema_version=SCHEMA_VERSION,
        program=program,
        engine=ENGINE_VERSION,
        rules_hash=game_file.rules_hash,
        signer=signer,
        game_id=state_before.game_id,
        map_id=game_file.map_id,
        turn_number=state_before.turn_number,
        round=state_before.round,
        power=state_before.power,
        previous=previous,
        orders=orders,
        orders_digest=file_digest(orders_bytes(orders)),
        orders_signature=orders_signature,
        canonical_orders_digest=canonical_orders_digest,
        seed=bytes(seed).hex(),
        seed_commitment=hmac_dice.commitment(bytes(seed)),
        next_commitment=next_commitment,
        dice=dice_records(dice_log),
        events=tuple(events),
        state=state,
    )


def dice_digest(game_file: GameFile, turn: TurnFile) -> str:
    """The digest the dice of ``turn`` are bound to: the canonical orders digest
    (pbem-dice-v2), or the orders file's digest (pbem-dice-v1, schema 1 games)."""
    if game_file.dice == hmac_dice.ALGORITHM_V1:
        return turn.orders_digest
    return turn.canonical_orders_digest


# --------------------------------------------------------------------------- encode / decode

def encode(doc: GameFile | TurnFile | GameFileV1 | TurnFileV1) -> bytes:
    """The canonical bytes of a game or turn file (of either schema)."""
    return codec.canonical_json(codec.converter.unstructure(doc, type(doc)))


def unstructure(doc) -> dict:
    return codec.converter.unstructure(doc, type(doc))


def _decode(data: bytes | dict, classes: dict, path, what: str):
    """(the document in the class of its schema, its schema-2 view)."""
    raw = data if isinstance(data, dict) else parse_json_bytes(data, path, what)
    version = raw.get("schema_version")
    if type(version) is not int or version not in classes:
        if type(version) is int and version > SCHEMA_VERSION:
            raise StateFileError(f"{what} {path}: schema_version {version} is newer than this "
                                 f"program understands ({SCHEMA_VERSION}); upgrade pbem")
        raise StateFileError(f"{what} {path}: schema_version must be one of "
                             f"{', '.join(map(str, classes))}, found {version!r}")
    cls, upgrade = classes[version]
    try:
        doc = codec.structure(raw, cls, "$")
        canonical = encode(doc) if isinstance(data, (bytes, bytearray)) else None
    except codec.DecodeError as exc:
        raise StateFileError(f"{what} {path}: {exc}") from None
    except RecursionError:
        raise StateFileError(f"{what} {path}: nested too deeply") from None
    if canonical is not None and canonical != bytes(data):
        raise StateFileError(f"{what} {path}: not in canonical form (the same content would "
                             "be written with other bytes); published files are never "
                             "re-spelt")
    return doc, upgrade(doc) if upgrade else doc


def _short(problems: list, name: str, value, limit: int = MAX_SHORT_TEXT) -> None:
    if isinstance(value, str) and (len(value) > limit or not value.isprintable()):
        problems.append(f"{name} must be printable text of at most {limit} characters")


def _player_problems(gf: GameFile) -> list[str]:
    problems = []
    powers = set(gf.initial_state.ipcs) | set(gf.initial_state.owners.values())
    if len(gf.players) > MAX_PLAYERS:
        problems.append(f"players has {len(gf.players)} entries (at most {MAX_PLAYERS})")
        return problems
    for power, record in gf.players.items():
        if power not in powers:
            problems.append(f"players.{power}: there is no such power in this game "
                            f"(powers: {', '.join(sorted(powers))})")
        _short(problems, f"players.{power}.key", record.key)
        _short(problems, f"players.{power}.name", record.name, MAX_NAME)
        if record.email is not None and not valid_email(record.email):
            problems.append(f"players.{power}.email {record.email[:60]!r} is not an email address")
    return problems


def valid_email(address: str) -> bool:
    """A plain ``user@domain.tld`` address of at most 254 characters (no display name)."""
    return len(address) <= MAX_EMAIL and bool(_EMAIL_RE.match(address))


def _game_problems(gf: GameFile) -> list[str]:
    problems = []
    if not is_digest(gf.seed_commitment):
        problems.append("seed_commitment is not a sha256:<hex> digest")
    if gf.schema_version >= 2 and not is_digest(gf.rules_hash):
        problems.append("rules_hash is not a sha256:<hex> digest")
    if not _ENGINE_RE.match(gf.engine):
        problems.append(f"engine {gf.engine[:30]!r} is not a version")
    for name in ("program", "game_id", "ruleset", "map_id", "created", "game_master"):
        _short(problems, name, getattr(gf, name))
    if gf.initial_state.game_id != gf.game_id:
        problems.append(f"initial_state.game_id {gf.initial_state.game_id!r} differs from "
                        f"game_id {gf.game_id!r}")
    expected = hmac_dice.ALGORITHM_V1 if gf.schema_version == 1 else hmac_dice.ALGORITHM
    if gf.dice != expected:
        problems.append(f"unknown dice algorithm {gf.dice!r} (expected {expected!r})")
    for name, value in gf.options.items():
        if type(value) not in (bool, int, str):
            problems.append(f"options.{name} must be true/false, an integer or a string")
    if not 2 <= gf.dice_sides <= 256:
        problems.append(f"dice_sides {gf.dice_sides} is out of range")
    return problems + _player_problems(gf)


_GAME_SCHEMAS = {1: (GameFileV1, _upgrade_game), 2: (GameFile, None)}
_TURN_SCHEMAS = {1: (TurnFileV1, _upgrade_turn), 2: (TurnFile, None)}


def decode_game_file(data: bytes | dict, path="game.json") -> GameFile:
    """Parse and check a game file of either schema (``StateFileError`` on any problem).
    Bytes must be canonical; a dict is only checked for its shape."""
    _doc, gf = _decode(data, _GAME_SCHEMAS, path, "game file")
    problems = _game_problems(gf)
    if problems:
        raise StateFileError(f"game file {path}: " + "; ".join(problems))
    return gf


def decode_turn_file(data: bytes | dict, path="turn file") -> TurnFile:
    """Parse and check a turn file of either schema (``StateFileError`` on any problem).
    Bytes must be canonical; a dict is only checked for its shape."""
    _doc, tf = _decode(data, _TURN_SCHEMAS, path, "turn file")
    problems = []
    for name in ("previous", "orders_digest", "seed_commitment", "next_commitment"):
        if not is_digest(getattr(tf, name)):
            problems.append(f"{name} is not a sha256:<hex> digest")
    if tf.schema_version >= 2:
        for name in ("rules_hash", "canonical_orders_digest"):
            if not is_digest(getattr(tf, name)):
                problems.append(f"{name} is not a sha256:<hex> digest")
    if not is_seed_hex(tf.seed):
        problems.append("seed is not 64 lowercase hex digits")
    if not _SIGNER_RE.match(tf.signer):
        problems.append(f"signer {tf.signer[:30]!r} is not a role or power key")
    if not _ENGINE_RE.match(tf.engine):
        problems.append(f"engine {tf.engine[:30]!r} is not a version")
    _short(problems, "program", tf.program)
    for name, high in (("turn_number", MAX_TURN_NUMBER), ("round", MAX_ROUND)):
        if not 1 <= getattr(tf, name) <= high:
            problems.append(f"{name} {getattr(tf, name)} is out of range (1 to {high})")
    if len(tf.orders) > MAX_ORDERS_BYTES:
        problems.append(f"orders is longer than {MAX_ORDERS_BYTES} characters")
    if tf.orders_signature is not None and len(tf.orders_signature) > MAX_SIGNATURE_BYTES:
        problems.append(f"orders_signature is longer than {MAX_SIGNATURE_BYTES} characters")
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
