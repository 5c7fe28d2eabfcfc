"""A game directory: everything the game master publishes, plus the game master's secrets.

::

    game.json, game.json.sig           the game file and its SSHSIG (namespace pbem-turn)
    turns/NNNN-<power>.json(.sig)      one signed turn file per power-turn
    orders/NNNN-<power>.txt            the orders as accepted for that turn (exact bytes)
    .secret/                           game master / keeper only -- never publish
        gm_ed25519, gm_ed25519.pub     the game master's key, if generated here
        next-seed                      the committed-but-unrevealed seed (hex)
        next-seed-<power>              a dice keeper's committed seed (a player's copy)

In a game with dice keepers (``service.keepers``) there may be no game master: the game
file is signed by the player who hosted it, and each turn is processed, in that player's
own copy, by the keeper of the power that moved -- with the keeper's secret seed and
signed with the keeper's key.  Everything else (publication, repair, refusal of a second
set of orders for a turn) is the same.

Publishing a turn writes every new file under a temporary name first, then gives them
their names: the orders file, the signature, and last the turn file, which is the one
step that publishes the turn; the secret seed is replaced after that.  A crash at any
point is repaired by the next ``process_turn`` (under the directory lock, before
anything else): temporary files are removed, an orders file or signature without its
turn file is rolled back, and a seed left pending by a published turn is promoted.  The
turn is then either published (and the same orders are recognised as done:
``TurnAlreadyProcessed``) or not published at all (and is processed again).
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import Callable

from ..io import fs, hmac_dice, orders_text, signature_cache, versions
from ..model.errors import OrdersSyntaxError, PbemError
from ..model.state import GameState
from ..io.layout import (
    GAME_FILE, GM_KEY_FILE, GM_KEY_PATH_FILE, LOCK_FILE, ORDERS_DIR, ORDERS_RE,
    PLAYER_KEY_PATH_FILE, SECRET_DIR, TURN_RE, TURN_SIG_RE, TURNS_DIR, game_file_path,
    list_turns, orders_path, seed_file, sig_path, turn_path,
)
from ..io.limits import MAX_SIGNATURE_BYTES
from ..io.storage import (
    commit_temp, exclusive_lock, is_temp_name, read_bytes, read_regular, write_atomic, write_temp,
)
from ..io.turnfile import (
    GAME_MASTER, GameFile, KeeperRecord, PlayerRecord, TurnFile, decode_game_file,
    decode_turn_file, encode, file_digest, keeper_of, keeper_statement, make_turn_file,
    orders_bytes, signed_dice_digest, signer_key, valid_email, SCHEMA_VERSION,
)
from ..io.corrections import game_master_statement, is_correction_statement
from . import keepers as keeper_rules


class TurnAlreadyProcessed(PbemError):
    """The orders given were already published as the last turn (e.g. a run interrupted
    after publishing is started again).  ``path``: the turn file."""

    def __init__(self, message: str, path: Path):
        super().__init__(message)
        self.path = path


class SecondOrders(PbemError):
    """Other orders for a turn that is already published: the first orders received were
    processed, these are refused (a mover cannot have two tries).  ``path``: the turn."""

    def __init__(self, message: str, path: Path):
        super().__init__(message)
        self.path = path


# --------------------------------------------------------------------------- reading

def _check_signed(path: Path, data: bytes, signature_key) -> bytes:
    """Verify ``path``'s detached signature before its contents are decoded; the
    signature file's bytes.  A signature this user's pbem verified before is not checked
    again (``io.signature_cache``: no cryptography for it)."""
    sig = read_regular(sig_path(path), "signature file", MAX_SIGNATURE_BYTES)
    cached = isinstance(signature_key, str)
    if cached and signature_cache.known(_TURN_NAMESPACE, signature_key, data, sig):
        return sig
    from ..io import sshsig  # cryptography: only to sign or verify
    try:
        sshsig.verify(data, sig, signature_key, sshsig.NAMESPACE_TURN, strict=True)
    except PbemError as exc:
        raise PbemError(f"{path}: its signature does not verify ({exc}); run 'pbem verify' "
                        "for details") from None
    if cached:
        signature_cache.remember(_TURN_NAMESPACE, signature_key, data, sig)
    return sig


_TURN_NAMESPACE = "pbem-turn"       # sshsig.NAMESPACE_TURN, without importing cryptography


def game_signing_key(raw: dict) -> str | None:
    """The public key line that must have signed a game file (decoded as plain JSON, not
    yet trusted): the game master's, or that of the player named by ``signer``."""
    signer = raw.get("signer", GAME_MASTER)
    if signer == GAME_MASTER:
        named = raw.get("game_master")
    else:
        players = raw.get("players")
        record = players.get(signer) if isinstance(players, dict) and isinstance(signer, str) \
            else None
        named = record.get("key") if isinstance(record, dict) else None
    return named if isinstance(named, str) else None


def read_game(directory) -> tuple[GameFile, bytes]:
    """The game file, its signature checked (by the key it names) before it is decoded."""
    from ..io.storage import parse_json_bytes

    path = game_file_path(directory)
    if not path.exists():
        raise PbemError(f"{directory} is not a game directory (no {GAME_FILE}); "
                        "create one with 'pbem new'")
    data = read_bytes(path, "game file")
    named = game_signing_key(parse_json_bytes(data, path, "game file"))
    if named is None:
        raise PbemError(f"game file {path}: the key of its signer (game_master, or the "
                        "signer's player key) is missing")
    known = _GAMES_READ.get(str(path))
    if known is not None and known[0] == data \
            and known[1] == read_regular(sig_path(path), "signature file", MAX_SIGNATURE_BYTES):
        return known[2], data
    sig = _check_signed(path, data, named)
    gf = decode_game_file(data, path)
    _GAMES_READ[str(path)] = (data, sig, gf)
    return gf, data


# The game files this process read, by path, with their signature: a command reads its game
# more than once (its status, its definition, its state), and the same bytes under the same
# signature are the same game (issue 24: each read verified and decoded it again).
_GAMES_READ: dict[str, tuple[bytes, bytes, GameFile]] = {}


def turn_signing_key(gf: GameFile, power: str) -> str:
    """The key that must have signed a turn of ``power``: its dice keeper's."""
    keeper = keeper_of(gf, power)
    key = signer_key(gf, keeper)
    if key is None:
        raise PbemError(f"the game file lists no key for {keeper}, the dice keeper of {power}")
    return key


def _read_signed_turn(path: Path, gf: GameFile, power: str) -> tuple[TurnFile, bytes]:
    data = read_bytes(path, "turn file")
    _check_signed(path, data, turn_signing_key(gf, power))
    return decode_turn_file(data, path), data


def _last_turn(directory, gf: GameFile, gf_bytes: bytes):
    """(state after the last turn, digest of the last file, the last turn's
    ``next_commitment`` (the game's first commitment before any turn), last number,
    (path, bytes, turn file) of the last turn or None).  The last turn's signature is
    checked (by its keeper's key) before it is decoded."""
    turns = list_turns(directory)
    if not turns:
        return gf.initial_state, file_digest(gf_bytes), gf.seed_commitment, 0, None
    _number, power, path = turns[-1]
    tf, data = _read_signed_turn(path, gf, power)
    return tf.state, file_digest(data), tf.next_commitment, tf.turn_number, (path, data, tf)


def open_commitment(directory, gf: GameFile, keeper: str) -> str:
    """The commitment ``keeper`` must open next: the ``next_commitment`` of the last turn
    it signed, else its first commitment in the game file (``seed_commitment`` for the
    game master of a game without dice keepers)."""
    for _number, power, path in reversed(list_turns(directory)):
        if keeper_of(gf, power) == keeper:
            return _read_signed_turn(path, gf, power)[0].next_commitment
    if keeper in gf.keepers:
        return gf.keepers[keeper].commitment
    if keeper == GAME_MASTER and not gf.dice_keepers:
        return gf.seed_commitment
    raise PbemError(f"{keeper} keeps no power's dice in this game")


def read_turn(directory, path, gf: GameFile | None = None) -> TurnFile:
    """A published turn file, its signature (by its keeper) checked before it is decoded."""
    if gf is None:
        gf, _ = read_game(directory)
    from ..io.layout import TURN_RE
    match = TURN_RE.match(Path(path).name)
    if match is None:
        raise PbemError(f"{path} is not named like a turn file (NNNN-<power>.json)")
    return _read_signed_turn(Path(path), gf, match.group(2))[0]


def header_problem(gf: GameFile, state: GameState, text: str) -> str | None:
    """Why ``process_turn`` would refuse the ``game:``/``turn:`` headers of these orders
    (signed orders must carry both; any present must match), or None."""
    try:
        record = gf.players.get(state.power)
        if record is not None and record.key is not None:
            orders_text.check_headers(text, state.game_id, state.turn_number)
        else:
            headers = orders_text.read_headers(text)
            if headers.game not in (None, state.game_id) or \
                    headers.turn not in (None, state.turn_number):
                orders_text.check_headers(text, state.game_id, state.turn_number)
    except OrdersSyntaxError:
        return None                      # the parser reports it, with its position
    except PbemError as exc:
        return str(exc)
    return None


def current_state(directory) -> tuple[GameState, int]:
    """The state after the last published turn and that turn's number (0: none yet)."""
    gf, gf_bytes = read_game(directory)
    state, _digest, _commit, last, _ = _last_turn(directory, gf, gf_bytes)
    return state, last


def check_compatible(gf: GameFile, game, command: str = "process ORDERS -g DIR") -> None:
    """Refuse to extend a game made with another engine or other rules, saying which
    release made it and how to run that one."""
    why = versions.mismatch(gf.engine, gf.rules_hash, game.content_hash)
    if why is not None:
        raise PbemError(f"refusing to extend this game: {why}. Continue it with the release "
                        f"that made it: {versions.pinned(gf.program, command)}"
                        + ("" if gf.engine != versions.ENGINE_VERSION else
                           " (or restore the original map data and grammar)"))
    if dict(game.ruleset.options) != gf.options:
        raise PbemError(f"the game was created with options {gf.options}, "
                        f"not {dict(game.ruleset.options)}")


# --------------------------------------------------------------------------- secrets

def _secret_dir(directory) -> Path:
    return Path(directory) / SECRET_DIR


def write_seed_secret(directory, seed: bytes, keeper: str = GAME_MASTER) -> None:
    """Store ``keeper``'s committed seed in ``.secret/`` (mode 0600)."""
    sdir = _secret_dir(directory)
    fs.mkdir(sdir, 0o700, exist_ok=True)
    write_atomic(sdir / seed_file(keeper), (seed.hex() + "\n").encode("ascii"),
                 overwrite=True, mode=0o600)


def read_seed_secret(directory, keeper: str = GAME_MASTER) -> bytes | None:
    """``keeper``'s stored seed (None: none here, or unreadable)."""
    return _read_seed_file(_secret_dir(directory) / seed_file(keeper))


def _read_seed_file(path: Path) -> bytes | None:
    try:
        return hmac_dice.parse_seed(read_regular(path, "seed", 256).decode("ascii").strip())
    except (UnicodeDecodeError, PbemError):
        return None


def pending_seeds(directory, keeper: str = GAME_MASTER) -> list[Path]:
    return sorted(_secret_dir(directory).glob(f".{seed_file(keeper)}.*.tmp"))


def _promote_pending(directory, gf: GameFile, last_file) -> None:
    """After a crash: promote the seed the last published turn committed to, if it is
    still pending (its keeper's next seed), before anything else is decided."""
    if last_file is None:
        return
    signer = last_file[2].signer
    if pending_seeds(directory, signer):
        _secret_seed(directory, last_file[2].next_commitment, signer)


def _secret_seed(directory, commitment: str, keeper: str = GAME_MASTER) -> bytes:
    """``keeper``'s committed seed for its next turn, checked against the published
    commitment.  Promotes a seed left pending by an interrupted ``process_turn`` and
    removes the pending seeds of turns that were rolled back."""
    sdir = _secret_dir(directory)
    main = sdir / seed_file(keeper)
    seed = _read_seed_file(main)
    found = seed if seed is not None and hmac_dice.commitment(seed) == commitment else None
    for pending in pending_seeds(directory, keeper):
        candidate = _read_seed_file(pending)
        if found is None and candidate is not None and \
                hmac_dice.commitment(candidate) == commitment:
            fs.replace(pending, main)          # finish the interrupted turn's last step
            fs.fsync_dir(sdir)
            found = candidate
        else:
            fs.unlink(pending)                 # a seed of a turn that was never published
    if found is not None:
        return found
    whose = "" if keeper == GAME_MASTER else f" ({keeper}'s, as dice keeper)"
    if seed is None:
        raise PbemError(f"the secret seed {main}{whose} is missing or unreadable; without it "
                        "the dice of the next turn cannot be rolled verifiably")
    raise PbemError(f"the secret seed in {main}{whose} does not match the published "
                    f"commitment {commitment}; refusing to roll dice that could not be "
                    "verified")


def _roll_back_unpublished(directory: Path) -> None:
    """Undo what an interrupted ``process_turn`` left without publishing: temporary files
    in turns/ and orders/, and orders files or signatures of a turn after the last turn
    file (the turn file is the step that publishes a turn, so these were never part of
    the game)."""
    tdir = directory / TURNS_DIR
    names = [entry.name for entry in tdir.iterdir()] if tdir.is_dir() else []
    published = {(int(m.group(1)), m.group(2)) for m in map(TURN_RE.match, names) if m}
    last = max((n for n, _ in published), default=0)
    for sub, pattern in ((TURNS_DIR, TURN_SIG_RE), (ORDERS_DIR, ORDERS_RE)):
        folder = directory / sub
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir()):
            if is_temp_name(entry.name) and entry.is_file():
                fs.unlink(entry)
                continue
            m = pattern.match(entry.name)
            if m and int(m.group(1)) > last and (int(m.group(1)), m.group(2)) not in published:
                fs.unlink(entry)
        fs.fsync_dir(folder)
    from .verified_cache import CACHE_FILE
    sdir = _secret_dir(directory)
    for entry in sorted(sdir.iterdir()) if sdir.is_dir() else []:
        if entry.name.startswith(f".{CACHE_FILE}.") and is_temp_name(entry.name):
            fs.unlink(entry)          # a verified-prefix cache being written (it is rewritten)


@contextlib.contextmanager
def _locked(directory):
    """An exclusive lock on the game directory for the duration of a turn (POSIX)."""
    sdir = _secret_dir(directory)
    fs.mkdir(sdir, 0o700, exist_ok=True)
    with exclusive_lock(sdir / LOCK_FILE, f"{directory} is being processed by another pbem "
                                          "process"):
        yield


def _gm_private_key(directory, gm_key, gf: GameFile):
    from ..io import keys  # cryptography: only to sign or verify
    if gm_key is None:
        gm_key = gm_key_location(directory)
        if gm_key is None:
            raise PbemError(f"no game master key given and none in "
                            f"{_secret_dir(directory) / GM_KEY_FILE}: give the key the game "
                            "was created with (--key)")
    key = keys.load_private_key(gm_key)
    if not keys.same_key(key, gf.game_master):
        raise PbemError(f"the game master key {keys.fingerprint(key)} is not the one this game "
                        f"was created with ({keys.fingerprint(gf.game_master)})")
    return key


def _signing_key(directory, key, gf: GameFile, signer: str):
    """The private key (or agent key) that signs as ``signer``: the game master's, or the
    key of the player who keeps the dice (``key``, else the one noted by ``pbem new`` or
    ``pbem keeper join``), checked against the game file."""
    from ..io import keys  # cryptography: only to sign or verify
    if signer == GAME_MASTER:
        return _gm_private_key(directory, key, gf)
    wanted = signer_key(gf, signer)
    if key is None:
        key = player_key_location(directory)
        if key is None:
            raise PbemError(f"this turn's dice are kept by {signer}: give {signer}'s player "
                            f"key (--key), the one registered in the game "
                            f"({keys.fingerprint(wanted)})")
    key = keys.load_private_key(key)
    if not keys.same_key(key, wanted):
        raise PbemError(f"this turn's dice are kept by {signer} ({keys.fingerprint(wanted)}), "
                        f"not by the key {keys.fingerprint(key)}: the orders go to {signer}'s "
                        "player, who processes them")
    return key


def _remember(directory, name: str, key_path) -> None:
    location = os.path.abspath(os.path.expanduser(os.fspath(key_path)))
    sdir = _secret_dir(directory)
    fs.mkdir(sdir, 0o700, exist_ok=True)
    write_atomic(sdir / name, (location + "\n").encode("utf-8"), overwrite=True, mode=0o600)


def remember_gm_key(directory, key_path) -> None:
    """Note in ``.secret/`` where the game master's key lives (its absolute path, not the
    key), so that later turns find it without being told."""
    _remember(directory, GM_KEY_PATH_FILE, key_path)


def remember_player_key(directory, key_path) -> None:
    """Note in ``.secret/`` where this player's own key lives (a dice keeper's copy)."""
    _remember(directory, PLAYER_KEY_PATH_FILE, key_path)


def player_key_location(directory) -> Path | None:
    """Where this player's key is (noted by ``pbem new`` or ``pbem keeper join``), or None."""
    return _noted_key(directory, PLAYER_KEY_PATH_FILE)


def gm_key_location(directory) -> Path | None:
    """Where the game master's key is, when not given: the key generated in ``.secret/``,
    else the path remembered from ``pbem new --key``, else None."""
    generated = _secret_dir(directory) / GM_KEY_FILE
    if generated.exists():
        return generated
    return _noted_key(directory, GM_KEY_PATH_FILE)


def signing_key_location(directory, power: str) -> Path | None:
    """Where the key that signs ``power``'s next turn is noted: the game master's, or
    (its dice kept by a player) this player's own."""
    gf, _ = read_game(directory)
    if keeper_of(gf, power) == GAME_MASTER:
        return gm_key_location(directory)
    return player_key_location(directory)


def _noted_key(directory, name: str) -> Path | None:
    note = _secret_dir(directory) / name
    try:
        text = note.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise PbemError(f"{note} cannot be read ({exc}); give the key (--key)")
    if not text or "\n" in text:
        raise PbemError(f"{note} does not hold one key path; give the key (--key)")
    location = Path(text)
    if not location.exists():
        raise PbemError(f"the key of this game was {location} (noted in {note}), which no "
                        "longer exists; give the key (--key)")
    return location


def _public_line(key) -> str:
    """A player's key as a clean OpenSSH line ``ssh-ed25519 AAAA... [comment]``, from a
    line (also an allowed_signers line), a ``.pub`` path or a key object."""
    from ..io import keys  # cryptography: only to sign or verify
    text = key
    if not (isinstance(key, str) and "ssh-ed25519 " in key):
        try:
            text = read_regular(key, "public key", 16 * 1024).decode("utf-8")
        except (PbemError, TypeError, UnicodeDecodeError):
            text = None
    comment = ""
    if isinstance(text, str):
        for line in text.splitlines():
            tokens = line.split()
            if "ssh-ed25519" in tokens[:-1]:
                comment = " ".join(tokens[tokens.index("ssh-ed25519") + 2:])
                break
    return keys.public_key_line(keys.load_public_key(key), comment)


def player_record(power: str, entry) -> PlayerRecord:
    """A ``PlayerRecord`` from a key (line, ``.pub`` path or key object), None, a dict
    ``{"key": ..., "email": ..., "name": ...}`` or a ``PlayerRecord``."""
    if isinstance(entry, PlayerRecord):
        entry = {"key": entry.key, "email": entry.email, "name": entry.name}
    if not isinstance(entry, dict):
        entry = {"key": entry}
    unknown = set(entry) - {"key", "email", "name"}
    if unknown:
        raise PbemError(f"players.{power}: unknown field(s) {', '.join(sorted(unknown))}")
    key, email, name = entry.get("key"), entry.get("email"), entry.get("name")
    if email is not None and not valid_email(email):
        raise PbemError(f"players.{power}: {email!r} is not an email address (user@domain)")
    if name is not None:
        name = " ".join(str(name).split())
        if not name or len(name) > 100 or not name.isprintable():
            raise PbemError(f"players.{power}: a name must be 1-100 printable characters")
    return PlayerRecord(key=None if key is None else _public_line(key), email=email, name=name)


def _normalise_players(game, players) -> dict[str, PlayerRecord]:
    powers = list(game.ruleset.turn_order) or sorted(game.ruleset.powers)
    out = {p: PlayerRecord() for p in powers}
    for power, entry in (players or {}).items():
        if power not in game.ruleset.powers:
            raise PbemError(f"unknown power {power!r} in players (known: {', '.join(powers)})")
        out[power] = player_record(power, entry)
    return out


# --------------------------------------------------------------------------- create

def _fresh_seed(turn_number: int) -> bytes:
    return hmac_dice.new_seed()


def demo_seeds(game_id: str) -> Callable[[int], bytes]:
    """Predictable seeds (``hmac_dice.demo_seed``) so that an example game comes out the
    same every time.  Never for real games: anyone can compute them in advance, and
    ``pbem verify`` warns about a game that uses them."""
    def seed(turn_number: int) -> bytes:
        return hmac_dice.demo_seed(game_id, turn_number)
    return seed


def create_game(directory, game, game_id: str, gm_key_path=None, created: str = "",
                players: dict | None = None, *, initial: GameState | None = None,
                seeds: Callable[[int], bytes] | None = None,
                gm_key_source: str | os.PathLike | None = None,
                dice_keepers: dict | str | None = None, joins=(),
                host: str | None = None) -> Path:
    """Start a game in ``directory``: draw the first seed (kept in ``.secret/next-seed``),
    publish its commitment in a signed ``game.json``.  ``gm_key_path``: the game master's
    OpenSSH Ed25519 private key; None generates one in ``.secret/``.  ``created``: a date
    string (the core has no clock).  ``players``: power -> public key line or .pub path,
    or a dict ``{"key": ..., "email": ..., "name": ...}`` (``player_record``).
    ``initial``: the starting state (default ``loader.initial_state(game, game_id)``).
    ``seeds(turn_number) -> bytes``: where secret seeds come from (default: the OS CSPRNG;
    ``demo_seeds`` only for demos and tests).  ``gm_key_source``: where the key was read
    from (default: ``gm_key_path`` when it is a path), remembered in ``.secret/`` so that
    ``process_turn`` finds it (:func:`gm_key_location`).  Returns the path of ``game.json``.

    Dice keepers (``service.keepers``): ``dice_keepers`` is ``"opponents"`` (each power's
    next opponent in turn order), or power -> keeper (a power, or ``"game_master"``; powers
    not named get the default).  ``joins``: the ``keepers.Join`` of the other players (their
    key, address and signed first commitments).  ``host``: a power of the player creating
    a game **without a game master**: ``gm_key_path`` is then that player's own key, which
    signs the game file (``players`` must list it for the host's powers); dice keepers
    default to ``"opponents"``.  The seeds of the keepers played with the signing key are
    drawn here (``.secret/next-seed-<power>``); every other keeper must have joined.  An
    assignment that lets a side roll its own dice is refused."""
    from ..io import keys, sshsig  # cryptography: only to sign or verify
    directory = Path(directory)
    gpath = game_file_path(directory)
    if gpath.exists():
        raise PbemError(f"{gpath} already exists; refusing to overwrite a game")
    if initial is None:
        from ..io.loader import initial_state

        initial = initial_state(game, game_id)
    if initial.game_id != game_id:
        raise PbemError(f"initial state is for game {initial.game_id!r}, not {game_id!r}")
    player_records = _normalise_players(game, players)
    joined = _merge_joins(game, game_id, player_records, joins)
    if host is not None:
        if host not in game.ruleset.powers:
            raise PbemError(f"the host plays {host!r}, which is not a power of the game")
        if gm_key_path is None:
            raise PbemError("a game without a game master is signed by its host's own key: "
                            "give it (--key)")
        dice_keepers = keeper_rules.OPPONENTS if dice_keepers is None else dice_keepers
    elif joins and not dice_keepers:
        raise PbemError("joined keepers were given, but no dice keepers (--keepers)")
    directory.parent.mkdir(parents=True, exist_ok=True)
    fs.mkdir(directory, exist_ok=True)
    for sub in (TURNS_DIR, ORDERS_DIR):
        fs.mkdir(directory / sub, exist_ok=True)
    sdir = _secret_dir(directory)
    fs.mkdir(sdir, 0o700, exist_ok=True)
    fs.chmod(sdir, 0o700)
    with _locked(directory):
        if gm_key_path is None:
            kpath = sdir / GM_KEY_FILE
            key = keys.load_private_key(kpath) if kpath.exists() else \
                keys.new_keypair(kpath, f"pbem game master {game_id}")
        else:
            key = keys.load_private_key(gm_key_path)
            if gm_key_source is None and isinstance(gm_key_path, (str, os.PathLike)):
                gm_key_source = gm_key_path
        gm_line = None if host is not None else \
            keys.public_key_line(key, f"pbem game master {game_id}")
        if host is not None and (player_records[host].key is None
                                 or not keys.same_key(key, player_records[host].key)):
            raise PbemError(f"the host's key {keys.fingerprint(key)} is not the key listed "
                            f"for {host}")
        fields = _keeper_fields(game, game_id, initial, player_records, dice_keepers, joined,
                                gm_line, key, seeds or _fresh_seed, directory)
        if gm_key_source is not None:
            (remember_player_key if host is not None else remember_gm_key)(directory,
                                                                          gm_key_source)
        if fields is None:
            seed = (seeds or _fresh_seed)(1)
            write_seed_secret(directory, seed)
            fields = dict(seed_commitment=hmac_dice.commitment(seed), dice=hmac_dice.ALGORITHM)
        gf = GameFile(
            schema_version=SCHEMA_VERSION,
            program=versions.PROGRAM,
            engine=versions.ENGINE_VERSION,
            game_id=game_id,
            ruleset=game.game_id,
            map_id=game.map.map_id,
            rules_hash=game.content_hash,
            options=dict(game.ruleset.options),
            created=created,
            game_master=gm_line,
            players=player_records,
            dice_sides=game.ruleset.dice_sides,
            initial_state=initial,
            signer=GAME_MASTER if host is None else host,
            **fields,
        )
        data = encode(gf)
        decode_game_file(data, gpath)          # never publish a file the audit would refuse
        signature = sshsig.sign(data, key, sshsig.NAMESPACE_TURN).encode("ascii")
        sig_tmp = write_temp(sig_path(gpath), signature)
        data_tmp = write_temp(gpath, data)
        commit_temp(sig_tmp, sig_path(gpath), overwrite=True)
        commit_temp(data_tmp, gpath, overwrite=False)
    return gpath


def _merge_joins(game, game_id: str, records: dict[str, PlayerRecord], joins) -> dict:
    """Add each joined player's record to ``records`` (in place) and return keeper ->
    ``KeeperRecord`` of every commitment they signed."""
    from ..io import keys  # cryptography: only to sign or verify
    joined: dict[str, KeeperRecord] = {}
    for join in joins:
        problem = keeper_rules.join_problem(join, game_id, game.game_id)
        if problem:
            raise PbemError(problem)
        for power, record in join.keepers.items():
            if power not in records:
                raise PbemError(f"a join file names {power!r}, not a power of {game.game_id}")
            mine = records[power]
            if mine.key is not None and not keys.same_key(mine.key, join.player.key):
                raise PbemError(f"{power} is given two different keys (a join file and "
                                "--player)")
            if power in joined:
                raise PbemError(f"two join files for {power}")
            records[power] = PlayerRecord(key=join.player.key,
                                          email=mine.email or join.player.email,
                                          name=mine.name or join.player.name)
            joined[power] = record
    return joined


def _keeper_fields(game, game_id: str, initial: GameState, players: dict[str, PlayerRecord],
                   dice_keepers, joined: dict[str, KeeperRecord], gm_line: str | None, key,
                   seeds, directory: Path) -> dict | None:
    """The dice-keeper fields of a new game file (None: a game without dice keepers),
    drawing and storing the seeds of the keepers played with ``key``."""
    from ..io import keys, sshsig  # cryptography: only to sign or verify
    if not dice_keepers:
        return None
    from ..engine.turn_rules import rules_with
    ruleset = game.ruleset
    if rules_with(ruleset, "next_turn"):
        raise PbemError(f"{ruleset.title} decides its order of play in the game (a rule's "
                        "next_turn), and dice keepers follow the data's fixed turn order: "
                        "play it with the game master's dice (no --keepers)")
    given = {} if dice_keepers == keeper_rules.OPPONENTS else dict(dice_keepers)
    for power, keeper in given.items():
        if power not in ruleset.powers or (keeper != GAME_MASTER and keeper not in ruleset.powers):
            raise PbemError(f"dice keepers: {power}={keeper} names no power of the game")
    problems = [why for power, keeper in given.items()
                if (why := keeper_rules.keeper_problem(ruleset, players, power, keeper, gm_line))]
    if problems:
        raise PbemError("refusing these dice keepers: " + "; ".join(problems))
    mapping = keeper_rules.complete_assignment(ruleset, players, given, gm_line)
    missing_keys = [p for p in ruleset.turn_order if players[p].key is None]
    if missing_keys:
        raise PbemError("a game with dice keepers needs every player's key (orders are "
                        "signed; keepers sign the turns); none for: " + ", ".join(missing_keys)
                        + " -- their players join with 'pbem keeper join' (give the file with "
                        "--join), or give the key with --player")
    problems = keeper_rules.configuration_problems(ruleset, players, mapping, gm_line)
    if problems:
        raise PbemError("refusing these dice keepers: " + "; ".join(problems))
    records: dict[str, KeeperRecord] = {}
    for keeper in sorted(set(mapping.values())):
        if keeper in joined:
            records[keeper] = joined[keeper]
            continue
        mine = keeper == GAME_MASTER or keys.same_key(key, players[keeper].key)
        if not mine:
            raise PbemError(f"{ruleset.powers[keeper].name} keeps dice in this game, but its "
                            "player has not joined: ask them for the file 'pbem keeper join' "
                            "writes and give it with --join")
        turn = keeper_rules.first_kept_turn(ruleset.turn_order, mapping, initial.power,
                                            initial.turn_number, keeper)
        seed = seeds(turn)
        write_seed_secret(directory, seed, keeper)
        commitment = hmac_dice.commitment(seed)
        signature = None if keeper == GAME_MASTER else sshsig.sign(
            keeper_statement(game_id, keeper, commitment), key, sshsig.NAMESPACE_KEEPER)
        records[keeper] = KeeperRecord(commitment, signature)
    return dict(dice=hmac_dice.ALGORITHM_V3, dice_keepers=mapping, keepers=records,
                seed_commitment=records[mapping[initial.power]].commitment)


# --------------------------------------------------------------------------- process a turn

def _decode_orders(orders_text_or_bytes) -> str:
    if isinstance(orders_text_or_bytes, (bytes, bytearray)):
        try:
            return bytes(orders_text_or_bytes).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PbemError(f"the orders are not UTF-8 text (bad byte at offset {exc.start})") from None
    return orders_text_or_bytes


def _already_processed(directory: Path, game, parse, state: GameState, obytes: bytes,
                       headers, last_file) -> None:
    """Raise ``TurnAlreadyProcessed`` if these orders are the ones of a published turn:
    their ``turn:`` header names a published turn with the same orders, or they are the
    last turn's orders and only fit the power that played it."""
    if headers.turn is not None and headers.turn < state.turn_number:
        for number, power, path in list_turns(directory):
            if number == headers.turn:
                done = read_bytes(orders_path(directory, number, power), "orders file")
                if done == obytes:
                    raise TurnAlreadyProcessed(
                        f"turn {number} ({power}) was already processed with these orders: "
                        f"{path}", path)
                raise SecondOrders(
                    f"turn {number} ({power}) was already processed with the orders received "
                    f"first ({path}); these other orders for turn {number} were refused",
                    path)
        raise PbemError(f"these orders are for turn {headers.turn}, but the game is at turn "
                        f"{state.turn_number}")
    if last_file is None:
        return
    path, _data, last = last_file
    if orders_bytes(last.orders) != obytes or last.power == state.power:
        return
    text = obytes.decode("utf-8")
    try:
        parse(text, game, power=state.power)
        return                                   # they fit this turn too: process them
    except PbemError:
        pass
    try:
        parse(text, game, power=last.power)
    except PbemError:
        return
    raise TurnAlreadyProcessed(f"turn {last.turn_number} ({last.power}) was already processed "
                               f"with these orders: {path}", path)


def _check_player_signature(gf: GameFile, state: GameState, text: str, obytes: bytes,
                            orders_signature: str | None) -> str | None:
    """The player's signature, checked and re-armored canonically (None: unsigned)."""
    from ..io import keys, sshsig  # cryptography: only to sign or verify
    player_key = gf.players[state.power].key if state.power in gf.players else None
    if orders_signature is None and player_key is None:
        return None
    statement = game_master_statement(text)
    if orders_signature is None and statement is not None:
        if keeper_of(gf, state.power) != GAME_MASTER:
            raise PbemError(f"an unsigned {statement[0]} would {statement[1]}, which only a "
                            f"game master may do; {state.power}'s turn is kept by "
                            f"{keeper_of(gf, state.power)}, a player: its orders must be signed "
                            "by its own player")
        return None                     # the game master's record of a missed deadline
    if player_key is None:
        raise PbemError(f"orders for {state.power} are signed, but the game file lists "
                        "no key for that power")
    if orders_signature is None:
        raise PbemError(f"orders for {state.power} must be signed by the player's key "
                        f"({keys.fingerprint(player_key)})")
    sshsig.verify(obytes, orders_signature, player_key, sshsig.NAMESPACE_ORDERS)
    orders_text.check_headers(text, state.game_id, state.turn_number)
    return sshsig.armor(sshsig.dearmor(orders_signature))


def process_turn(directory, game, orders_text_or_bytes: str | bytes, parse: Callable | None = None,
                 adjudicate: Callable | None = None, gm_key=None,
                 orders_signature: str | None = None,
                 seeds: Callable[[int], bytes] | None = None,
                 canonical: Callable | None = None) -> TurnFile:
    """Adjudicate the next turn with the orders and publish it.

    First repairs what an interrupted run left (see the module docstring), refuses a game
    made with another engine or other rules, and verifies every published file.  Checks
    the secret seed against the published commitment before rolling anything, parses with
    ``parse(text, game, power=...)``, binds the dice to the digest of
    ``canonical(orders, game)`` (default ``parser.format_orders``) and plays with
    ``adjudicate(game, state, orders, dice)`` (defaults: the real parser and engine),
    commits to a fresh seed for the next turn, then publishes the orders file, the signed
    turn file and its signature.  ``orders_signature``: the player's armored SSHSIG of the
    orders (namespace pbem-orders); required if the game file lists a key for the power,
    and then the orders must carry ``game:`` and ``turn:`` headers naming this game and
    turn (orders that are only an ``nmr`` statement, the game master's record of a missed
    deadline, need no player's signature).  ``gm_key``: private key path or object that
    signs (default ``.secret/gm_ed25519``); in a game with dice keepers, the key of the
    keeper of the power to move (default: the player key noted in ``.secret/``), whose
    seed in ``.secret/next-seed-<keeper>`` rolls the dice (bound to the mover's signature
    too, pbem-dice-v3).  Pass the orders file's raw bytes to keep them exactly (reading a
    file as text converts line endings, which would break a player's signature); they
    must be UTF-8.  Raises ``TurnAlreadyProcessed`` if the orders are those of a published
    turn; other orders for a published turn (a second set sent by the mover) are refused.
    """
    from ..io import sshsig  # cryptography: only to sign or verify
    text = _decode_orders(orders_text_or_bytes)
    orders_text.check_size(text)              # refuse huge orders before anything else
    if parse is None:
        from ..io.parser import parse_orders as parse
    if canonical is None:
        from ..io.parser import format_orders as canonical
    if adjudicate is None:
        from ..engine.turn import adjudicate
    directory = Path(directory)
    check_compatible(read_game(directory)[0], game)     # before anything is written
    if not _secret_dir(directory).is_dir():
        raise PbemError(f"{directory} has no {SECRET_DIR}/ (the game master's or the dice "
                        "keeper's key and seeds): turns are processed in the game master's "
                        "or the keeper's own directory, not in a published copy")
    with _locked(directory):
        _roll_back_unpublished(directory)
        gf, gf_bytes = read_game(directory)
        check_compatible(gf, game)
        state, previous, _commitment, last, last_file = _last_turn(directory, gf, gf_bytes)
        _promote_pending(directory, gf, last_file)
        verified = _verify_published(directory, game, parse, canonical)
        obytes = orders_bytes(text)
        try:
            headers = orders_text.read_headers(text)
        except OrdersSyntaxError:
            headers = orders_text.Headers()      # the parser reports it with the rest
        _already_processed(directory, game, parse, state, obytes, headers, last_file)
        if state.winner is not None and not is_correction_statement(text):
            raise PbemError(f"the game is over: {state.winner} won")
        keeper = keeper_of(gf, state.power)
        key = _signing_key(directory, gm_key, gf, keeper)
        commitment = open_commitment(directory, gf, keeper)
        seed = _secret_seed(directory, commitment, keeper)
        if not re.fullmatch(r"[A-Za-z0-9_-]+", state.power):
            raise PbemError(f"power key {state.power!r} cannot be used in a file name")
        tpath = turn_path(directory, state.turn_number, state.power)
        if tpath.exists():
            raise PbemError(f"{tpath} already exists; turn {state.turn_number} was processed")
        if last and state.turn_number <= last:
            raise PbemError(f"the state after turn {last} has turn number {state.turn_number}")
        if seeds is not None and hmac_dice.commitment(seeds(state.turn_number)) != commitment:
            # Never switch a game with secret seeds to a predictable seed source.
            raise PbemError("this game's seeds are secret (it was not created with demo seeds); "
                            "refusing to make the next ones predictable")
        orders_signature = _check_player_signature(gf, state, text, obytes, orders_signature)
        if headers.game is not None and headers.game != state.game_id:
            raise PbemError(f"these orders are for game {headers.game!r}, not {state.game_id!r}")
        if headers.turn is not None and headers.turn != state.turn_number:
            raise PbemError(f"these orders are for turn {headers.turn}, but the game is at "
                            f"turn {state.turn_number}")

        orders = parse(text, game, power=state.power)
        canonical_digest = orders_text.canonical_digest(canonical(orders, game))
        bound = (signed_dice_digest(canonical_digest, orders_signature)
                 if gf.dice == hmac_dice.ALGORITHM_V3 else canonical_digest)
        dice = hmac_dice.HmacDice(seed, state.game_id, state.turn_number, bound,
                                  sides=gf.dice_sides, algorithm=gf.dice)
        result = adjudicate(game, state, orders, dice)

        next_turn = (keeper_rules.next_kept_turn(game.ruleset.turn_order, gf.dice_keepers,
                                                 state.power, state.turn_number, keeper)
                     if gf.dice_keepers else state.turn_number + 1)
        next_seed = (seeds or _fresh_seed)(next_turn)
        tf = make_turn_file(
            game_file=gf, state_before=state, previous=previous, orders=text,
            orders_signature=orders_signature, canonical_orders_digest=canonical_digest,
            seed=seed, next_commitment=hmac_dice.commitment(next_seed),
            dice_log=dice.log, events=result.events, state=result.state, signer=keeper)
        data = encode(tf)
        signature = sshsig.sign(data, key, sshsig.NAMESPACE_TURN).encode("ascii")
        _publish(directory, tf, obytes, data, signature, next_seed, keeper)
        _remember_published(directory, game, parse, canonical, verified, {
            orders_path(directory, tf.turn_number, tf.power): obytes,
            sig_path(tpath): signature, tpath: data})
        return tf


def _publish(directory: Path, tf: TurnFile, obytes: bytes, data: bytes, signature: bytes,
             next_seed: bytes, keeper: str = GAME_MASTER) -> None:
    """Write every file of the turn under a temporary name, then name them: orders file,
    signature, turn file (the publishing step), and finally promote ``keeper``'s next
    seed."""
    tpath = turn_path(directory, tf.turn_number, tf.power)
    opath = orders_path(directory, tf.turn_number, tf.power)
    fs.mkdir(directory / TURNS_DIR, exist_ok=True)
    fs.mkdir(directory / ORDERS_DIR, exist_ok=True)
    temps, committed = [], []
    try:
        seed_tmp = write_temp(_secret_dir(directory) / seed_file(keeper),
                              (next_seed.hex() + "\n").encode("ascii"), mode=0o600)
        temps.append(seed_tmp)
        temps.append(orders_tmp := write_temp(opath, obytes))
        temps.append(sig_tmp := write_temp(sig_path(tpath), signature))
        temps.append(turn_tmp := write_temp(tpath, data))
        commit_temp(orders_tmp, opath, overwrite=True)
        committed.append(opath)
        commit_temp(sig_tmp, sig_path(tpath), overwrite=True)
        committed.append(sig_path(tpath))
        commit_temp(turn_tmp, tpath, overwrite=False)
    except BaseException:
        if os.path.lexists(tpath):
            # The link published the turn (it did not exist before): an interruption or
            # I/O error after it (unlinking the temporary file, syncing the directory)
            # must not take the turn's orders and signature back.  The seed stays
            # pending; the next run promotes it (_promote_pending) and removes the
            # temporary files (_roll_back_unpublished): it rolls forward.
            raise
        # Not published: take back what was made visible.  After a crash, or if this
        # clean-up is itself interrupted, the next run does the same
        # (_roll_back_unpublished).
        for t in temps + committed:
            with contextlib.suppress(FileNotFoundError):
                fs.unlink(t)
        raise
    fs.replace(seed_tmp, _secret_dir(directory) / seed_file(keeper))
    fs.fsync_dir(_secret_dir(directory))


def _verify_published(directory: Path, game, parse, canonical) -> dict[str, str] | None:
    """Verify before writing: every published file's signature, chain link, seed, die and
    canonical orders digest (no replay, which ``pbem verify`` does).  A game that fails is
    never extended.  Files verified by an earlier run and unchanged since (the digests in
    ``service.verified_cache``) are not verified again (returns None); otherwise returns
    the digests of the files just verified, to be remembered once the turn is published."""
    from . import verified_cache
    from .audit import verify_game
    key = verified_cache.cache_key(game, parse, canonical)
    if verified_cache.still_verified(directory, key):      # these very files passed before
        return None
    report = verify_game(directory, lambda *args, **kwargs: game, parse=parse,
                         canonical=canonical, replay=False)
    if not report.ok:
        f = report.failure
        raise PbemError(f"refusing to process a turn: {f.file} fails the {f.check} check "
                        f"({f.detail}); run 'pbem verify' for details")
    return dict(report.read_files)


def _remember_published(directory: Path, game, parse, canonical,
                        verified: dict[str, str] | None, written: dict[Path, bytes]) -> None:
    """Remember as verified the files verified before this turn (``verified``; None: those
    of the cache) and the files this run has just published (a run that publishes nothing
    changes nothing)."""
    from . import verified_cache
    key = verified_cache.cache_key(game, parse, canonical)
    files = {path.relative_to(directory).as_posix(): file_digest(data)
             for path, data in written.items()}
    try:
        if verified is None:
            verified_cache.add(directory, key, files)
        else:
            verified_cache.record(directory, key, {**verified, **files})
    except (PbemError, OSError):
        with contextlib.suppress(OSError):
            verified_cache.forget(directory)
