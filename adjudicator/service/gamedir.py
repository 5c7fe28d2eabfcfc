"""A game directory: everything the game master publishes, plus the game master's secrets.

::

    game.json, game.json.sig           the game file and its SSHSIG (namespace pbem-turn)
    turns/NNNN-<power>.json(.sig)      one signed turn file per power-turn
    orders/NNNN-<power>.txt            the orders as accepted for that turn (exact bytes)
    .secret/                           game master only -- never publish
        gm_ed25519, gm_ed25519.pub     the game master's key, if generated here
        next-seed                      the committed-but-unrevealed seed (hex)

Processing a turn writes every new file under a temporary name first and only then
renames them into place, turn file last; the secret seed is replaced after that.  A crash
therefore never leaves a half-written turn, and a turn interrupted after its turn file
appeared is recovered on the next run (the pending seed is kept until promoted).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from pathlib import Path
from typing import Callable

from ..io import hmac_dice

from ..io import keys

from ..io import sshsig
from ..model.errors import PbemError
from ..model.state import GameState
from ..io.layout import (
    GAME_FILE, GM_KEY_FILE, GM_KEY_PATH_FILE, LOCK_FILE, ORDERS_DIR, SECRET_DIR, SEED_FILE, TURNS_DIR, game_file_path, list_turns, orders_path, sig_path, turn_path,
)
from ..io.storage import commit_temp, read_bytes, write_atomic, write_temp
from ..io.turnfile import (
    GameFile, TurnFile, decode_game_file, decode_turn_file, encode, file_digest,
    make_turn_file, orders_bytes, SCHEMA_VERSION,
)

# --------------------------------------------------------------------------- reading

def read_game(directory) -> tuple[GameFile, bytes]:
    path = game_file_path(directory)
    if not path.exists():
        raise PbemError(f"{directory} is not a game directory (no {GAME_FILE}); "
                        "create one with 'pbem new'")
    data = read_bytes(path, "game file")
    return decode_game_file(data, path), data


def _last_turn(directory, gf: GameFile, gf_bytes: bytes):
    """(state after the last turn, digest of the last file, open commitment, last number)."""
    turns = list_turns(directory)
    if not turns:
        return gf.initial_state, file_digest(gf_bytes), gf.seed_commitment, 0, None
    number, _power, path = turns[-1]
    data = read_bytes(path, "turn file")
    tf = decode_turn_file(data, path)
    return tf.state, file_digest(data), tf.next_commitment, tf.turn_number, (path, data)


def current_state(directory) -> tuple[GameState, int]:
    """The state after the last published turn and that turn's number (0: none yet)."""
    gf, gf_bytes = read_game(directory)
    state, _digest, _commit, last, _ = _last_turn(directory, gf, gf_bytes)
    return state, last


# --------------------------------------------------------------------------- secrets

def _secret_dir(directory) -> Path:
    return Path(directory) / SECRET_DIR


def _write_seed_secret(directory, seed: bytes) -> None:
    write_atomic(_secret_dir(directory) / SEED_FILE, (seed.hex() + "\n").encode("ascii"),
                 overwrite=True, mode=0o600)


def _read_seed_file(path: Path) -> bytes | None:
    try:
        return hmac_dice.parse_seed(path.read_text(encoding="ascii").strip())
    except (OSError, UnicodeDecodeError, PbemError):
        return None


def _secret_seed(directory, commitment: str) -> bytes:
    """The committed seed for the next turn, checked against the published commitment.
    Recovers a seed left pending by an interrupted ``process_turn``."""
    sdir = _secret_dir(directory)
    main = sdir / SEED_FILE
    seed = _read_seed_file(main)
    if seed is not None and hmac_dice.commitment(seed) == commitment:
        return seed
    for pending in sorted(sdir.glob(f".{SEED_FILE}.*.tmp")):
        candidate = _read_seed_file(pending)
        if candidate is not None and hmac_dice.commitment(candidate) == commitment:
            os.replace(pending, main)          # finish the interrupted turn's last step
            return candidate
    if seed is None:
        raise PbemError(f"the secret seed {main} is missing or unreadable; without it the "
                        "dice of the next turn cannot be rolled verifiably")
    raise PbemError(f"the secret seed in {main} does not match the published commitment "
                    f"{commitment}; refusing to roll dice that could not be verified")


@contextlib.contextmanager
def _locked(directory):
    """An exclusive lock on the game directory for the duration of a turn (POSIX)."""
    sdir = _secret_dir(directory)
    sdir.mkdir(mode=0o700, exist_ok=True)
    fd = os.open(sdir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            import fcntl

            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise PbemError(f"{directory} is being processed by another pbem process") from None
        except ImportError:  # pragma: no cover - non-POSIX
            pass
        yield
    finally:
        os.close(fd)


def _gm_private_key(directory, gm_key, gf: GameFile):
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


def remember_gm_key(directory, key_path) -> None:
    """Note in ``.secret/`` where the game master's key lives (its absolute path, not the
    key), so that later turns find it without being told."""
    location = os.path.abspath(os.path.expanduser(os.fspath(key_path)))
    write_atomic(_secret_dir(directory) / GM_KEY_PATH_FILE, (location + "\n").encode("utf-8"),
                 overwrite=True, mode=0o600)


def gm_key_location(directory) -> Path | None:
    """Where the game master's key is, when not given: the key generated in ``.secret/``,
    else the path remembered from ``pbem new --key``, else None."""
    generated = _secret_dir(directory) / GM_KEY_FILE
    if generated.exists():
        return generated
    note = _secret_dir(directory) / GM_KEY_PATH_FILE
    try:
        text = note.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise PbemError(f"{note} cannot be read ({exc}); give the game master key (--key)")
    if not text or "\n" in text:
        raise PbemError(f"{note} does not hold one key path; give the game master key (--key)")
    location = Path(text)
    if not location.exists():
        raise PbemError(f"the game master key of this game was {location} (noted in {note}), "
                        "which no longer exists; give the key (--key)")
    return location


def _public_line(key) -> str:
    """A player's key as a clean OpenSSH line ``ssh-ed25519 AAAA... [comment]``, from a
    line (also an allowed_signers line), a ``.pub`` path or a key object."""
    text = key
    if not (isinstance(key, str) and "ssh-ed25519 " in key):
        try:
            text = Path(key).read_text(encoding="utf-8")
        except (OSError, TypeError, UnicodeDecodeError):
            text = None
    comment = ""
    if isinstance(text, str):
        for line in text.splitlines():
            tokens = line.split()
            if "ssh-ed25519" in tokens[:-1]:
                comment = " ".join(tokens[tokens.index("ssh-ed25519") + 2:])
                break
    return keys.public_key_line(keys.load_public_key(key), comment)


def _normalise_players(game, players) -> dict[str, str | None]:
    powers = list(game.ruleset.turn_order) or sorted(game.ruleset.powers)
    out: dict[str, str | None] = {p: None for p in powers}
    for power, key in (players or {}).items():
        if power not in game.ruleset.powers:
            raise PbemError(f"unknown power {power!r} in players (known: {', '.join(powers)})")
        out[power] = None if key is None else _public_line(key)
    return out


# --------------------------------------------------------------------------- create

def _fresh_seed(turn_number: int) -> bytes:
    return hmac_dice.new_seed()


def demo_seeds(game_id: str) -> Callable[[int], bytes]:
    """Predictable seeds (SHA-256 of a label, the game id and the turn number) so that an
    example game comes out the same every time.  Never for real games: anyone can compute
    them in advance.  The published files are verified exactly like any other game's."""
    def seed(turn_number: int) -> bytes:
        return hashlib.sha256(f"pbem-demo-seed|{game_id}|{turn_number}".encode()).digest()
    return seed


def create_game(directory, game, game_id: str, gm_key_path=None, created: str = "",
                players: dict | None = None, *, initial: GameState | None = None,
                seeds: Callable[[int], bytes] | None = None,
                gm_key_source: str | os.PathLike | None = None) -> Path:
    """Start a game in ``directory``: draw the first seed (kept in ``.secret/next-seed``),
    publish its commitment in a signed ``game.json``.  ``gm_key_path``: the game master's
    OpenSSH Ed25519 private key; None generates one in ``.secret/``.  ``created``: a date
    string (the core has no clock).  ``players``: power -> public key line or .pub path.
    ``initial``: the starting state (default ``loader.initial_state(game, game_id)``).
    ``seeds(turn_number) -> bytes``: where secret seeds come from (default: the OS CSPRNG;
    ``demo_seeds`` only for demos and tests).  ``gm_key_source``: where the key was read
    from (default: ``gm_key_path`` when it is a path), remembered in ``.secret/`` so that
    ``process_turn`` finds it (:func:`gm_key_location`).  Returns the path of ``game.json``."""
    directory = Path(directory)
    gpath = game_file_path(directory)
    if gpath.exists():
        raise PbemError(f"{gpath} already exists; refusing to overwrite a game")
    if initial is None:
        from ..io.loader import initial_state

        initial = initial_state(game, game_id)
    if initial.game_id != game_id:
        raise PbemError(f"initial state is for game {initial.game_id!r}, not {game_id!r}")
    player_keys = _normalise_players(game, players)
    directory.mkdir(parents=True, exist_ok=True)
    for sub in (TURNS_DIR, ORDERS_DIR):
        (directory / sub).mkdir(exist_ok=True)
    sdir = _secret_dir(directory)
    sdir.mkdir(mode=0o700, exist_ok=True)
    os.chmod(sdir, 0o700)
    with _locked(directory):
        if gm_key_path is None:
            kpath = sdir / GM_KEY_FILE
            key = keys.load_private_key(kpath) if kpath.exists() else \
                keys.new_keypair(kpath, f"pbem game master {game_id}")
        else:
            key = keys.load_private_key(gm_key_path)
            if gm_key_source is None and isinstance(gm_key_path, (str, os.PathLike)):
                gm_key_source = gm_key_path
            if gm_key_source is not None:
                remember_gm_key(directory, gm_key_source)
        seed = (seeds or _fresh_seed)(1)
        _write_seed_secret(directory, seed)
        gf = GameFile(
            schema_version=SCHEMA_VERSION,
            game_id=game_id,
            ruleset=game.game_id,
            map_id=game.map.map_id,
            map_hash=game.content_hash,
            options=dict(game.ruleset.options),
            created=created,
            game_master=keys.public_key_line(key, f"pbem game master {game_id}"),
            players=player_keys,
            dice=hmac_dice.ALGORITHM,
            dice_sides=game.ruleset.dice_sides,
            seed_commitment=hmac_dice.commitment(seed),
            initial_state=initial,
        )
        data = encode(gf)
        signature = sshsig.sign(data, key, sshsig.NAMESPACE_TURN).encode("ascii")
        sig_tmp = write_temp(sig_path(gpath), signature)
        data_tmp = write_temp(gpath, data)
        commit_temp(sig_tmp, sig_path(gpath), overwrite=True)
        commit_temp(data_tmp, gpath, overwrite=False)
    return gpath


# --------------------------------------------------------------------------- process a turn

def process_turn(directory, game, orders_text: str | bytes, parse: Callable | None = None,
                 adjudicate: Callable | None = None, gm_key=None,
                 orders_signature: str | None = None,
                 seeds: Callable[[int], bytes] | None = None) -> TurnFile:
    """Adjudicate the next turn with ``orders_text`` and publish it.

    Checks the secret seed against the published commitment before rolling anything,
    parses with ``parse(text, game, power=...)`` and plays with
    ``adjudicate(game, state, orders, dice)`` (defaults: the real parser and engine),
    commits to a fresh seed for the next turn, then writes the orders file, the signed
    turn file and its signature atomically.  ``orders_signature``: the player's armored
    SSHSIG of the orders (namespace pbem-orders); required if the game file lists a key
    for the power.  ``gm_key``: private key path or object (default ``.secret/gm_ed25519``).
    Pass the orders file's raw bytes to keep them exactly (reading a file as text converts
    line endings, which would break a player's signature); they must be UTF-8.
    """
    if isinstance(orders_text, (bytes, bytearray)):
        try:
            orders_text = bytes(orders_text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PbemError(f"the orders are not UTF-8 text (bad byte at offset {exc.start})") from None
    if parse is None:
        from ..io.parser import parse_orders as parse
    if adjudicate is None:
        from ..engine.turn import adjudicate
    directory = Path(directory)
    with _locked(directory):
        gf, gf_bytes = read_game(directory)
        if game.content_hash != gf.map_hash:
            raise PbemError(f"the game data changed since this game was created (map hash "
                            f"{game.content_hash} != {gf.map_hash}); use the original data")
        if dict(game.ruleset.options) != gf.options:
            raise PbemError(f"the game was created with options {gf.options}, "
                            f"not {dict(game.ruleset.options)}")
        key = _gm_private_key(directory, gm_key, gf)
        state, previous, commitment, last, last_file = _last_turn(directory, gf, gf_bytes)
        _check_own_signature(game_file_path(directory), gf_bytes, gf)
        if last_file is not None:
            _check_own_signature(last_file[0], last_file[1], gf)
        _verify_published(directory, game)
        if state.winner is not None:
            raise PbemError(f"the game is over: {state.winner} won")
        if not re.fullmatch(r"[A-Za-z0-9_-]+", state.power):
            raise PbemError(f"power key {state.power!r} cannot be used in a file name")
        tpath = turn_path(directory, state.turn_number, state.power)
        if tpath.exists():
            raise PbemError(f"{tpath} already exists; turn {state.turn_number} was processed")
        if last and state.turn_number <= last:
            raise PbemError(f"the state after turn {last} has turn number {state.turn_number}")

        seed = _secret_seed(directory, commitment)
        if seeds is not None and hmac_dice.commitment(seeds(state.turn_number)) != commitment:
            # Never switch a game with secret seeds to a predictable seed source.
            raise PbemError("this game's seeds are secret (it was not created with demo seeds); "
                            "refusing to make the next ones predictable")
        obytes = orders_bytes(orders_text)
        digest = file_digest(obytes)
        player_key = gf.players.get(state.power)
        if orders_signature is not None or player_key is not None:
            if player_key is None:
                raise PbemError(f"orders for {state.power} are signed, but the game file lists "
                                "no key for that power")
            if orders_signature is None:
                raise PbemError(f"orders for {state.power} must be signed by the player's key "
                                f"({keys.fingerprint(player_key)})")
            sshsig.verify(obytes, orders_signature, player_key, sshsig.NAMESPACE_ORDERS)
            orders_signature = sshsig.armor(sshsig.dearmor(orders_signature))

        orders = parse(orders_text, game, power=state.power)
        dice = hmac_dice.HmacDice(seed, state.game_id, state.turn_number, digest,
                                  sides=gf.dice_sides)
        result = adjudicate(game, state, orders, dice)

        next_seed = (seeds or _fresh_seed)(state.turn_number + 1)
        tf = make_turn_file(
            game_file=gf, state_before=state, previous=previous, orders=orders_text,
            orders_signature=orders_signature, seed=seed,
            next_commitment=hmac_dice.commitment(next_seed),
            dice_log=dice.log, events=result.events, state=result.state)
        data = encode(tf)
        signature = sshsig.sign(data, key, sshsig.NAMESPACE_TURN).encode("ascii")

        opath = orders_path(directory, state.turn_number, state.power)
        (directory / TURNS_DIR).mkdir(exist_ok=True)
        (directory / ORDERS_DIR).mkdir(exist_ok=True)
        temps, committed = [], []
        try:
            seed_tmp = write_temp(_secret_dir(directory) / SEED_FILE,
                                  (next_seed.hex() + "\n").encode("ascii"), mode=0o600)
            temps.append(seed_tmp)
            temps.append(orders_tmp := write_temp(opath, obytes))
            temps.append(sig_tmp := write_temp(sig_path(tpath), signature))
            temps.append(turn_tmp := write_temp(tpath, data))
            # Everything is on disk; now make it visible, the turn file last.  If that
            # fails, take back what was already made visible: no half-published turn.
            commit_temp(orders_tmp, opath, overwrite=True)
            committed.append(opath)
            commit_temp(sig_tmp, sig_path(tpath), overwrite=True)
            committed.append(sig_path(tpath))
            commit_temp(turn_tmp, tpath, overwrite=False)
        except BaseException:
            for t in temps + committed:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(t)
            raise
        os.replace(seed_tmp, _secret_dir(directory) / SEED_FILE)
        return tf


def _verify_published(directory: Path, game) -> None:
    """Verify before writing: every published file's signature, chain link, seed and die
    (no replay, which ``pbem verify`` does).  A game that fails is never extended."""
    from .audit import verify_game
    report = verify_game(directory, lambda *args, **kwargs: game, replay=False)
    if not report.ok:
        f = report.failure
        raise PbemError(f"refusing to process a turn: {f.file} fails the {f.check} check "
                        f"({f.detail}); run 'pbem verify' for details")


def _check_own_signature(path: Path, data: bytes, gf: GameFile) -> None:
    """Refuse to build on a published file whose signature does not verify."""
    try:
        sig = read_bytes(sig_path(path), "signature")
        sshsig.verify(data, sig, gf.game_master, sshsig.NAMESPACE_TURN, strict=True)
    except PbemError as exc:
        raise PbemError(f"{path}: its signature does not verify ({exc}); run the audit "
                        "before processing more turns") from None
