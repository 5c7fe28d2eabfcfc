"""The published files of a game: the game file and one turn file per power-turn.

Both are open, versioned, human-readable JSON documents, written with
``codec.canonical_json`` so their bytes are deterministic (and a file in any other
spelling is refused).  The digest of a file is ``"sha256:" + hex(sha256(exact bytes))``;
each turn file names the digest of the file before it (``previous``), so the files form a
hash chain rooted in the game file.  See docs/turn-files.md.

Games with **dice keepers** (issue 12; docs/turn-files.md, "Dice keepers") extend schema 2:
the game file may name no game master, is then signed by the player who hosted it
(``signer``), maps each power to the keeper of its dice (``dice_keepers``) and holds each
keeper's signed first commitment (``keepers``); each turn file is signed by the keeper of
its power.  The three fields are omitted when empty, so a game with a game master has
exactly the bytes it had before.

Schema 2 is written; schema 1 (pbem-adjudicator 0.1.0) is still read: its files are
decoded into the schema-2 classes (``schema_version`` stays 1, ``engine`` is "1",
``rules_hash`` holds the old ``map_hash``), and checked for canonical bytes in their own
layout.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from . import codec

from . import hmac_dice
from .limits import MAX_PLAYERS, MAX_ROUND, MAX_SHORT_TEXT, MAX_SIGNATURE_BYTES, MAX_TURN_NUMBER
from .orders_text import MAX_ORDERS_BYTES
from .versions import ENGINE_VERSION, LEGACY_PROGRAM, PROGRAM
from ..model.errors import StateFileError
from ..model.reprs import attrs_repr
from ..model.state import GameState
from .storage import parse_json_bytes

if TYPE_CHECKING:
    from ..model.events import Event

SCHEMA_VERSION = 2
READABLE_SCHEMAS = (1, 2)
GAME_MASTER = "game_master"            # the signer of files signed by the game master
KEEPER_STATEMENT = "pbem keeper commitment"   # first line of a keeper's signed commitment

_DIGEST_RE = re.compile(r"^sha256:[0-9a-f]{64}$")
_SEED_RE = re.compile(r"^[0-9a-f]{64}$")
_SIGNER_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_ENGINE_RE = re.compile(r"^[0-9A-Za-z.+-]{1,20}$")
_EMAIL_RE = re.compile(r"^[^@\s<>(),;:\\\"\[\]]+@[^@\s<>(),;:\\\"\[\]]+\.[^@\s<>(),;:\\\"\[\]]+$")
MAX_EMAIL = 254
MAX_NAME = 100


@attrs.frozen(repr=False)
class DiceRecord:
    """One call of ``DiceSource.roll``: what for, and the faces, in stream order."""

    __repr__ = attrs_repr
    purpose: str
    faces: tuple[int, ...]


@attrs.frozen(repr=False)
class PlayerRecord:
    """Who plays a power: the OpenSSH public key their orders must be signed with (or
    null: unsigned orders), where to mail them, their name."""

    __repr__ = attrs_repr
    key: str | None = None
    email: str | None = None
    name: str | None = None


@attrs.frozen(repr=False)
class KeeperRecord:
    """A dice keeper's first commitment: to the seed of the first turn it keeps.
    ``signature``: the keeper's armored SSHSIG (namespace pbem-keeper) of
    ``keeper_statement(game_id, keeper, commitment)``; null for the game master, whose
    signature of the game file covers it."""

    __repr__ = attrs_repr
    commitment: str
    signature: str | None = None


@attrs.frozen(repr=False)
class GameFile:
    """``game.json``: what is being played, by whom, with which rules and engine, from
    which position, and the first seed commitment.  ``ruleset`` is the name passed to
    ``loader.load_game``."""

    __repr__ = attrs_repr
    schema_version: int
    program: str                       # informational: "pbem-adjudicator <version>"
    engine: str                        # the adjudication version (adjudicator.ENGINE_VERSION)
    game_id: str
    ruleset: str
    map_id: str
    rules_hash: str                    # Game.content_hash: the edition's data and the grammar
    options: dict[str, Any]            # the ruleset options in force (Ruleset.options)
    created: str
    game_master: str | None            # OpenSSH public key line of the game master; null:
    #                                    a game without one (its dice keepers are players)
    players: dict[str, PlayerRecord]   # power -> player record
    dice: str                          # dice algorithm, "pbem-dice-v2" ("-v3": dice keepers)
    dice_sides: int
    seed_commitment: str               # commitment to the seed of the first turn
    initial_state: GameState
    # -- dice keepers (omitted when empty: the game master signs and keeps everything)
    signer: str = GAME_MASTER          # who signed game.json: the game master or a power
    #                                    whose player's key hosted the game
    dice_keepers: dict[str, str] = attrs.Factory(dict)   # power -> keeper (GAME_MASTER or
    #                                                      the power whose player keeps it)
    keepers: dict[str, KeeperRecord] = attrs.Factory(dict)   # keeper -> first commitment


@attrs.frozen(repr=False)
class TurnFile:
    """``turns/NNNN-<power>.json``: one adjudicated power-turn."""

    __repr__ = attrs_repr
    schema_version: int
    program: str                       # the program that wrote this file (informational)
    engine: str                        # the adjudication version that played this turn
    rules_hash: str                    # as in the game file
    signer: str                        # who signed this file: "game_master" or the power
    #                                    whose player keeps this power's dice
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


@attrs.frozen(repr=False)
class GameFileV1:
    """``game.json`` as pbem-adjudicator 0.1.0 wrote it (schema 1)."""

    __repr__ = attrs_repr
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


@attrs.frozen(repr=False)
class TurnFileV1:
    """A turn file as pbem-adjudicator 0.1.0 wrote it (schema 1)."""

    __repr__ = attrs_repr
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
    from ..model.events import all_event_classes
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
    (pbem-dice-v2), that and the mover's signature (pbem-dice-v3, games with dice
    keepers), or the orders file's digest (pbem-dice-v1, schema 1 games)."""
    if game_file.dice == hmac_dice.ALGORITHM_V1:
        return turn.orders_digest
    if game_file.dice == hmac_dice.ALGORITHM_V3:
        return signed_dice_digest(turn.canonical_orders_digest, turn.orders_signature)
    return turn.canonical_orders_digest


def signed_dice_digest(canonical_orders_digest: str, orders_signature: str | None) -> str:
    """pbem-dice-v3's orders digest: SHA-256 of the canonical orders digest (32 bytes) and
    the 64-byte Ed25519 signature inside the mover's SSHSIG of the orders.  The keeper
    cannot compute it before the orders arrive, however predictable they are.  Unsigned
    orders (only a game master's ``nmr`` record of a missed deadline can be) are bound as
    in pbem-dice-v2, to the canonical digest alone."""
    from . import sshsig

    if orders_signature is None:
        return canonical_orders_digest
    return hmac_dice.bound_digest(canonical_orders_digest,
                                  sshsig.parse(orders_signature).signature)


def keeper_of(game_file: GameFile, power: str) -> str:
    """Who keeps the dice of ``power``'s turns (and signs them): a power key, or the game
    master (every power of a game without ``dice_keepers``)."""
    return game_file.dice_keepers.get(power, GAME_MASTER)


def signer_key(game_file: GameFile, signer: str) -> str | None:
    """The OpenSSH public key line of ``signer``: the game master's, or the key of the
    player of that power (None if the game has none)."""
    if signer == GAME_MASTER:
        return game_file.game_master
    record = game_file.players.get(signer)
    return record.key if record is not None else None


def keeper_statement(game_id: str, keeper: str, commitment: str) -> bytes:
    """The text a dice keeper signs (namespace pbem-keeper) to commit to the seed of the
    first turn it keeps in game ``game_id``."""
    return (f"{KEEPER_STATEMENT}\ngame: {game_id}\nkeeper: {keeper}\n"
            f"commitment: {commitment}\n").encode("utf-8")


# --------------------------------------------------------------------------- encode / decode

def _game_file_unstructure(_cls):
    """Write the dice-keeper fields of the game file only when they are used, so that a
    game with a game master keeps the bytes it had before they existed.  Made when a game
    file is first written (a command that only reads one does not compile it)."""
    from cattrs.gen import make_dict_unstructure_fn, override

    omit = override(omit_if_default=True)
    return make_dict_unstructure_fn(GameFile, codec.converter, signer=omit,
                                    dice_keepers=omit, keepers=omit)


codec.converter.register_unstructure_hook_factory(lambda t: t is GameFile,
                                                  _game_file_unstructure)


@functools.cache
def _event_types() -> None:
    """``TurnFile.events``' type made real, with the event classes' base imported here: on
    the first turn file encoded or decoded whole (``pbem status`` reads one's events as
    plain data, ``read_turn_brief``, and makes no event class)."""
    from ..model.events import Event
    attrs.resolve_types(TurnFile, localns={"Event": Event})


def encode(doc: GameFile | TurnFile | GameFileV1 | TurnFileV1) -> bytes:
    """The canonical bytes of a game or turn file (of either schema)."""
    if type(doc) is TurnFile:
        _event_types()
    return codec.canonical_json(codec.converter.unstructure(doc, type(doc)))


def unstructure(doc) -> dict:
    if type(doc) is TurnFile:
        _event_types()
    return codec.converter.unstructure(doc, type(doc))


def _decode(data: bytes | dict, classes: dict, path, what: str, canonical: bool = True):
    """(the document in the class of its schema, its schema-2 view).  ``canonical=False``
    skips re-encoding bytes to check their form (the caller checks it another way)."""
    raw = data if isinstance(data, dict) else parse_json_bytes(data, path, what)
    version = raw.get("schema_version")
    if type(version) is not int or version not in classes:
        if type(version) is int and version > SCHEMA_VERSION:
            raise StateFileError(f"{what} {path}: schema_version {version} is newer than this "
                                 f"program understands ({SCHEMA_VERSION}); upgrade pbem")
        raise StateFileError(f"{what} {path}: schema_version must be one of "
                             f"{', '.join(map(str, classes))}, found {version!r}")
    cls, upgrade = classes[version]
    if cls is TurnFile:
        _event_types()
    try:
        doc = codec.structure(raw, cls, "$")
        if canonical and isinstance(data, (bytes, bytearray)):
            _check_canonical(doc, data, path, what)
    except codec.DecodeError as exc:
        raise StateFileError(f"{what} {path}: {exc}") from None
    except RecursionError:
        raise StateFileError(f"{what} {path}: nested too deeply") from None
    return doc, upgrade(doc) if upgrade else doc


def _check_canonical(doc, data: bytes, path, what: str = "turn file") -> None:
    """``StateFileError`` unless ``data`` is exactly how ``doc`` (decoded from it, in the
    class of its schema) is written."""
    if encode(doc) != bytes(data):
        raise StateFileError(f"{what} {path}: not in canonical form (the same content would "
                             "be written with other bytes); published files are never "
                             "re-spelt")


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
    expected = (hmac_dice.ALGORITHM_V1 if gf.schema_version == 1 else
                hmac_dice.ALGORITHM_V3 if gf.dice_keepers else hmac_dice.ALGORITHM)
    if gf.dice != expected:
        problems.append(f"dice algorithm {gf.dice!r}: expected {expected!r}"
                        + (" (a game with dice keepers)" if gf.dice_keepers else ""))
    for name, value in gf.options.items():
        if type(value) not in (bool, int, str):
            problems.append(f"options.{name} must be true/false, an integer or a string")
    if not 2 <= gf.dice_sides <= 256:
        problems.append(f"dice_sides {gf.dice_sides} is out of range")
    return problems + _player_problems(gf) + _keeper_problems(gf)


def _keeper_problems(gf: GameFile) -> list[str]:
    """The dice-keeper fields fit together (their safety -- keepers of the other side --
    needs the rules: ``service.keepers.configuration_problems``)."""
    problems = []
    if gf.signer != GAME_MASTER:
        if not _SIGNER_RE.match(gf.signer) or gf.signer not in gf.players:
            return [f"signer {gf.signer[:30]!r} is not a power of this game"]
        if signer_key(gf, gf.signer) is None:
            problems.append(f"signer {gf.signer}: the game file lists no key for that power")
        if not gf.dice_keepers:
            problems.append("a game file signed by a player must name the dice keepers")
    if gf.game_master is None and gf.signer == GAME_MASTER:
        problems.append("game_master is null, but signer is the game master")
    if not gf.dice_keepers:
        if gf.keepers:
            problems.append("keepers is given without dice_keepers")
        return problems
    if set(gf.dice_keepers) != set(gf.players):
        missing = sorted(set(gf.players) - set(gf.dice_keepers))
        extra = sorted(set(gf.dice_keepers) - set(gf.players))
        problems.append("dice_keepers must name a keeper for every power of players"
                        + (f" (missing: {', '.join(missing)})" if missing else "")
                        + (f" (not a power: {', '.join(extra)})" if extra else ""))
    for power, keeper in sorted(gf.dice_keepers.items()):
        if keeper == power:
            problems.append(f"dice_keepers.{power}: a power cannot keep its own dice")
        elif keeper == GAME_MASTER:
            if gf.game_master is None:
                problems.append(f"dice_keepers.{power}: the game master keeps it, but the game "
                                "has none")
        elif keeper not in gf.players:
            problems.append(f"dice_keepers.{power}: {keeper[:30]!r} is not a power")
    for power, record in gf.players.items():
        if record.key is None:
            problems.append(f"players.{power}: a game with dice keepers needs every player's "
                            "key (orders are signed, turns are signed by keepers)")
    if set(gf.keepers) != set(gf.dice_keepers.values()):
        problems.append("keepers must hold one first commitment for each keeper named in "
                        "dice_keepers")
    for keeper, record in sorted(gf.keepers.items()):
        if not is_digest(record.commitment):
            problems.append(f"keepers.{keeper}.commitment is not a sha256:<hex> digest")
        if (record.signature is None) != (keeper == GAME_MASTER):
            problems.append(f"keepers.{keeper}.signature must be "
                            + ("null (the game file's signature covers it)"
                               if keeper == GAME_MASTER else "the keeper's signature"))
        if record.signature is not None and len(record.signature) > MAX_SIGNATURE_BYTES:
            problems.append(f"keepers.{keeper}.signature is longer than "
                            f"{MAX_SIGNATURE_BYTES} characters")
    first = gf.keepers.get(gf.dice_keepers.get(gf.initial_state.power, ""))
    if first is not None and first.commitment != gf.seed_commitment:
        problems.append("seed_commitment must be the first commitment of the keeper of the "
                        "first power to move")
    return problems


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


def decode_turn_file(data: bytes | dict, path="turn file", *, canonical: bool = True) -> TurnFile:
    """Parse and check a turn file of either schema (``StateFileError`` on any problem).
    Bytes must be canonical; a dict is only checked for its shape.  ``canonical=False``
    leaves the form of the bytes unchecked: only for a caller that then proves it, as the
    audit's replay does by comparing the file with a re-encoded re-adjudication."""
    _doc, tf = _decode(data, _TURN_SCHEMAS, path, "turn file", canonical)
    problems = _turn_problems(tf)
    if problems:
        raise StateFileError(f"turn file {path}: " + "; ".join(problems))
    return tf


def _turn_problems(tf: Any) -> list[str]:
    """What is wrong with a decoded turn file's own fields (not its events and state): a
    ``TurnFile``, or the audit's header of one (``decode_turn_header``)."""
    problems: list[str] = []
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
    # round 0 is the pre-game round of an edition that has one ([turn] pregame)
    for name, low, high in (("turn_number", 1, MAX_TURN_NUMBER), ("round", 0, MAX_ROUND)):
        if not low <= getattr(tf, name) <= high:
            problems.append(f"{name} {getattr(tf, name)} is out of range ({low} to {high})")
    if len(tf.orders) > MAX_ORDERS_BYTES:
        problems.append(f"orders is longer than {MAX_ORDERS_BYTES} characters")
    if tf.orders_signature is not None and len(tf.orders_signature) > MAX_SIGNATURE_BYTES:
        problems.append(f"orders_signature is longer than {MAX_SIGNATURE_BYTES} characters")
    return problems


# --------------------------------------------------------------------------- header only

_PROVEN_BY_REPLAY = ("events", "state")


@functools.cache
def _part_class(name: str, left_out: tuple[str, ...]) -> type:
    """``TurnFile``'s fields but ``left_out``, as a frozen class of their own (made on first
    use: only the audit reads headers, only ``pbem status`` briefs).  Its fields' types
    are ``TurnFile``'s as written (resolved in this module, needing no event class once
    ``events`` is left out)."""
    return attrs.make_class(name, {
        a.name: attrs.field(type=a.type) for a in attrs.fields(TurnFile)
        if a.name not in left_out}, frozen=True)


def _header_class() -> type:
    """``TurnFile``'s fields but its events and state."""
    return _part_class("TurnHeader", _PROVEN_BY_REPLAY)


def decode_turn_header(data: bytes, path="turn file") -> Any:
    """A schema-2 turn file's own fields (a ``TurnHeader``: a ``TurnFile`` without
    ``events`` and ``state``, which are not read), for the audit's replay, which proves the
    rest: the file must then equal, byte for byte, the re-encoded re-adjudication, whose
    events and state are the file's (``decode_turn_file`` of those bytes gives them back).
    The JSON is read by ``json`` alone, without ``storage.loads_json``'s bounds on numbers
    and nesting, which only a file that then fails that comparison can break: a caller
    reports any failure with ``decode_turn_file``'s error, if it has one.
    ``StateFileError`` if the header cannot be read."""
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise StateFileError(f"turn file {path}: not a turn file ({exc})") from None
    if not isinstance(raw, dict) or raw.get("schema_version") != SCHEMA_VERSION \
            or any(name not in raw for name in _PROVEN_BY_REPLAY):
        raise StateFileError(f"turn file {path}: not a schema-{SCHEMA_VERSION} turn file")
    header = {k: v for k, v in raw.items() if k not in _PROVEN_BY_REPLAY}
    try:
        tf = codec.structure(header, _header_class(), "$")
    except (codec.DecodeError, RecursionError) as exc:
        raise StateFileError(f"turn file {path}: {exc}") from None
    problems = _turn_problems(tf)
    if problems:
        raise StateFileError(f"turn file {path}: " + "; ".join(problems))
    return tf


def read_turn_brief(path) -> tuple[Any, list[dict]]:
    """A turn file's own fields and state (a ``TurnFile`` without ``events``) and its events
    as the plain objects written, each with a string ``kind``: for ``pbem status``, which
    reads three kinds of them and then makes no event class (a 1941 turn's fifty would cost
    about twice a bare interpreter's start-up).  Neither the events' fields nor the form of
    the bytes are checked (``read_turn_file`` checks both).  A file of schema 1 is read
    whole.  ``StateFileError`` if it cannot be read."""
    from .storage import read_bytes

    data = read_bytes(path, "turn file")
    raw = parse_json_bytes(data, path, "turn file")
    if not isinstance(raw, dict) or raw.get("schema_version") != SCHEMA_VERSION \
            or "events" not in raw:
        tf = decode_turn_file(data, Path(path))
        return tf, codec.encode_events(tf.events)
    events = raw["events"]
    if not isinstance(events, list) or not all(
            isinstance(e, dict) and isinstance(e.get("kind"), str) for e in events):
        raise StateFileError(f"turn file {path}: events: expected a list of objects, "
                             "each with a 'kind'")
    try:
        tf = codec.structure({k: v for k, v in raw.items() if k != "events"},
                             _part_class("TurnBrief", ("events",)), "$")
    except (codec.DecodeError, RecursionError) as exc:
        raise StateFileError(f"turn file {path}: {exc}") from None
    problems = _turn_problems(tf)
    if problems:
        raise StateFileError(f"turn file {path}: " + "; ".join(problems))
    return tf, events


def read_game_file(path) -> tuple[GameFile, bytes]:
    from .storage import read_bytes

    data = read_bytes(path, "game file")
    return decode_game_file(data, Path(path)), data


def read_turn_file(path) -> tuple[TurnFile, bytes]:
    from .storage import read_bytes

    data = read_bytes(path, "turn file")
    return decode_turn_file(data, Path(path)), data
