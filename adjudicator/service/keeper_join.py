"""Joining a game with dice keepers, and a keeper's view of its own copy.

Before the host creates a game without a game master, every other player runs
``pbem keeper join``: it draws a secret seed for each power they play (kept in their
directory's ``.secret/``, used if that power keeps dice), signs a first commitment to
each (``turnfile.keeper_statement``, namespace pbem-keeper) with their own key, and writes
a *join file* for the host::

    {"format": "pbem-keeper-join-1", "game_id": "club1", "ruleset": "aa1941",
     "player": {"key": "ssh-ed25519 AAAA...", "email": "...", "name": "..."},
     "keepers": {"germany": {"commitment": "sha256:...", "signature": "-----BEGIN..."}}}

The host's ``pbem new --join FILE`` copies the signed commitments into the game file, so
every keeper's first commitment is published -- in the file every mover holds first, the
root of the hash chain -- before any orders exist, and no host can substitute one (the
signature is the keeper's).  When the game file arrives, ``copy_problems`` checks that it
lists the player's key and opens with the player's own commitments.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from ..io import codec, hmac_dice, keys, sshsig
from ..io.layout import JOIN_FILE, SECRET_DIR, game_file_path
from ..io.storage import parse_json_bytes, read_regular, write_atomic
from ..io.turnfile import GAME_MASTER, KeeperRecord, PlayerRecord, keeper_statement
from ..model.errors import PbemError
from . import gamedir
from . import keepers as keeper_rules
from .keepers import Join

JOIN_FORMAT = "pbem-keeper-join-1"
MAX_JOIN_BYTES = 64 * 1024


@attrs.frozen
class _JoinDoc:
    format: str
    game_id: str
    ruleset: str
    player: PlayerRecord
    keepers: dict[str, KeeperRecord]


def encode_join(join: Join) -> bytes:
    doc = _JoinDoc(JOIN_FORMAT, join.game_id, join.ruleset, join.player, join.keepers)
    return codec.canonical_json(codec.converter.unstructure(doc, _JoinDoc))


def decode_join(data: bytes, where="join file") -> Join:
    """A join file, its shape and every signed commitment checked (``PbemError``)."""
    raw = parse_json_bytes(data, where, "join file")
    if raw.get("format") != JOIN_FORMAT:
        raise PbemError(f"{where}: not a pbem join file (format {raw.get('format')!r}, "
                        f"expected {JOIN_FORMAT!r})")
    try:
        doc = codec.structure(raw, _JoinDoc, "$")
    except codec.DecodeError as exc:
        raise PbemError(f"{where}: {exc}") from None
    if doc.player.key is None:
        raise PbemError(f"{where}: names no key")
    try:
        keys.load_public_key(doc.player.key)
    except PbemError as exc:
        raise PbemError(f"{where}: player.key: {exc}") from None
    join = Join(doc.game_id, doc.ruleset, doc.player, dict(doc.keepers))
    problem = keeper_rules.join_problem(join, doc.game_id, doc.ruleset)
    if problem:
        raise PbemError(f"{where}: {problem}")
    return join


def read_join(path) -> Join:
    return decode_join(read_regular(path, "join file", MAX_JOIN_BYTES, PbemError), path)


def join_game(directory, game, game_id: str, key, powers: list[str], *, key_source=None,
              email: str | None = None, name: str | None = None, seeds=None,
              out=None) -> Path:
    """Prepare ``directory`` (the player's future copy of the game) for joining: a secret
    seed per power in ``powers`` (kept if already there, so joining again gives the same
    file), the player's key noted, and the signed join file written to ``out`` (default
    ``DIR/keeper-join.json``).  ``seeds(turn_number)``: as for ``create_game`` (demo seeds
    use the turn the power would first keep under the default assignment)."""
    directory = Path(directory)
    if game_file_path(directory).exists():
        raise PbemError(f"{directory} already holds a game; join into a new directory")
    if not powers:
        raise PbemError("name the powers you play (--plays)")
    unknown = [p for p in powers if p not in game.ruleset.powers]
    if unknown:
        raise PbemError(f"not a power of {game.game_id}: {', '.join(unknown)}")
    if any(c.isspace() or not c.isprintable() for c in game_id) or not game_id:
        raise PbemError(f"the game id {game_id!r} must be one word (--id)")
    private = keys.load_private_key(key)
    record = gamedir.player_record(powers[0], {"key": private.public_key(), "email": email,
                                               "name": name})
    directory.mkdir(parents=True, exist_ok=True)
    defaults = keeper_rules.default_keepers(game.ruleset, {})
    first = game.ruleset.turn_order[0]
    commitments = {}
    for power in powers:
        seed = gamedir.read_seed_secret(directory, power)
        if seed is None:
            turn = keeper_rules.first_kept_turn(game.ruleset.turn_order, defaults, first, 1,
                                                power)
            seed = (seeds or (lambda _turn: hmac_dice.new_seed()))(turn)
            gamedir.write_seed_secret(directory, seed, power)
        commitment = hmac_dice.commitment(seed)
        commitments[power] = KeeperRecord(commitment, sshsig.sign(
            keeper_statement(game_id, power, commitment), private, sshsig.NAMESPACE_KEEPER))
    if key_source is not None or isinstance(key, (str, Path)):
        gamedir.remember_player_key(directory, key_source or key)
    join = Join(game_id, game.game_id, record, commitments)
    out = Path(out) if out else directory / JOIN_FILE
    write_atomic(out, encode_join(join), overwrite=True)
    return out


# --------------------------------------------------------------------------- a keeper's copy

@attrs.frozen
class KeeperView:
    """What this copy of a game keeps: ``mine`` the keepers played with the player's key
    (or the game master's), each with its kept powers and whether the seed stored here
    opens the commitment it must open next (``ready``)."""

    keepers: dict[str, str]                     # power -> keeper (the game's assignment)
    mine: dict[str, list[str]]                  # keeper -> powers it keeps
    ready: dict[str, bool]                      # keeper -> local seed opens its commitment
    problems: list[str]


def local_keys(directory) -> list:
    """The public keys whose private halves this copy uses: the player's, the game
    master's (as noted in ``.secret/``)."""
    out = []
    for locate in (gamedir.player_key_location, gamedir.gm_key_location):
        try:
            path = locate(directory)
        except PbemError:
            continue
        if path is None:
            continue
        pub = Path(str(path) + ".pub")
        try:
            out.append(keys.load_public_key(pub) if pub.exists()
                       else keys.load_private_key(path).public_key())
        except PbemError:
            continue
    return out


def keeper_view(directory) -> KeeperView:
    """This copy as a keeper sees it (``PbemError`` if it is not a game)."""
    directory = Path(directory)
    gf, _ = gamedir.read_game(directory)
    mine: dict[str, list[str]] = {}
    for key in local_keys(directory):
        for keeper in keeper_rules.keepers_played_with(gf, key):
            mine[keeper] = keeper_rules.kept_powers(gf.dice_keepers, keeper)
    ready, problems = {}, []
    for keeper in mine:
        try:
            commitment = gamedir.open_commitment(directory, gf, keeper)
        except PbemError as exc:
            problems.append(str(exc))
            continue
        seed = gamedir.read_seed_secret(directory, keeper)
        pending = gamedir.pending_seeds(directory, keeper)
        ready[keeper] = seed is not None and hmac_dice.commitment(seed) == commitment
        if not ready[keeper] and not pending:
            problems.append(
                f"the seed this copy holds for {keeper} does not open the commitment the game "
                f"publishes for it ({commitment}): "
                + ("no seed is stored here" if seed is None else
                   "the game file does not carry your own commitment (did the host change it, "
                   "or did you join twice?)")
                + "; do not play on until this is cleared up")
    return KeeperView(dict(gf.dice_keepers), mine, ready, problems)


def copy_problems(directory) -> list[str]:
    """Why this player's copy of a game with dice keepers is not safe to play on: the game
    file does not list the player's key for the powers they joined with, or does not open
    with their own commitments.  Empty for a copy without ``.secret/`` (a spectator's)."""
    directory = Path(directory)
    if not (directory / SECRET_DIR).is_dir():
        return []
    gf, _ = gamedir.read_game(directory)
    if not gf.dice_keepers:
        return []
    problems = list(keeper_view(directory).problems)
    mine = local_keys(directory)
    for power, record in sorted(gf.players.items()):
        joined = gamedir.read_seed_secret(directory, power) is not None
        if joined and mine and not any(keys.same_key(record.key, k) for k in mine):
            problems.append(f"you joined as {power}, but the game file lists another key for "
                            f"it ({keys.fingerprint(record.key)})")
    return problems


__all__ = ["JOIN_FORMAT", "KeeperView", "copy_problems", "decode_join", "encode_join",
           "join_game", "keeper_view", "local_keys", "read_join", "GAME_MASTER"]
