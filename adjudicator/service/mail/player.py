"""The player's side: send orders, fetch results into a verified local copy, status.

``prepare_orders`` checks the orders against the player's local copy of the game and signs
them where the game has a key for the power; ``orders_message`` wraps them in a mail --
to the game master, or in a game with dice keepers to the keeper of the power, with a
copy to every other player (so the signed orders and their time are on everyone's
record); ``record_sent`` refuses a second, different set of orders for one turn.
``fetch_results`` reads the result mails of the game from the player's inbox and adds
each attached turn to the local copy only after the whole game, new turn included,
passes the same checks as ``pbem verify`` (signatures, chain, seeds, dice, replay).  A
validly signed turn file that differs from the one already held is a **fork**: both
versions are kept in ``DIR/forks/`` as evidence and the local copy is not changed.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from ...io import keys, orders_text, sshsig
from ...io.layout import (
    GAME_FILE, ORDERS_DIR, TURN_RE, TURNS_DIR, game_file_path, list_turns, orders_path, sig_path,
    turn_path,
)
from ...io.storage import write_atomic
from ...io.turnfile import (
    decode_game_file, decode_turn_file, file_digest, keeper_of, orders_file_name, signer_key,
)
from ...model.errors import PbemError
from ...model.state import GameState
from .. import gamedir
from ..fork_evidence import FORKS_DIR
from . import compose
from .config import MailConfig
from .extract import orders_headers
from .message import parse_message
from .players import players_of, powers_of_address
from ..status import Status, game_status  # noqa: F401  (where they used to live)

if TYPE_CHECKING:   # the checker (and the engine) load only when orders are checked
    from ..checking import CheckResult


@attrs.frozen
class PreparedOrders:
    power: str
    data: bytes                 # the exact orders bytes (headers added if needed)
    signature: str | None
    check: CheckResult
    state: GameState            # the position the orders were checked against
    turn_number: int
    to_move: bool               # is it this power's turn in the local copy?


def _power_for(game, gf, cfg: MailConfig, text: str, to_move: str) -> str:
    players = players_of(gf, cfg)
    mine = powers_of_address(players, cfg.address)
    named = orders_headers(text).get("power")
    if named:
        from ...io.names import Names
        return Names(game).resolve_power(named)
    if to_move in mine:
        return to_move
    if len(mine) == 1:
        return mine[0]
    raise PbemError("cannot tell which power these orders are for: add a 'power:' line")


def prepare_orders(game_dir, game, cfg: MailConfig, data: bytes) -> PreparedOrders:
    """Check ``data`` against the local copy; add ``game:``/``turn:`` lines and sign when
    the game has a key for the power."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PbemError(f"the orders are not UTF-8 text (bad byte at offset {exc.start})") from None
    gf, _ = gamedir.read_game(game_dir)
    state, _last = gamedir.current_state(game_dir)
    power = _power_for(game, gf, cfg, text, state.power)
    record = players_of(gf, cfg).get(power)
    headers = orders_text.read_headers(text)
    signature = None
    # Sign what can count: this power's orders for the turn now due (or the turn they
    # name).  Orders of a power that is not to move are only checked by the game master.
    if record is not None and record.key and (power == state.power or headers.turn is not None):
        key_path = cfg.key or gamedir.player_key_location(game_dir)
        if key_path is None:
            raise PbemError(f"{power}'s orders must be signed: set key = \"PATH\" (your private "
                            f"key) in {cfg.path}")
        private = keys.load_private_key(key_path)
        if not keys.same_key(private, record.key):
            raise PbemError(f"the key {key_path} ({keys.fingerprint(private)}) is not the one "
                            f"registered for {power} ({keys.fingerprint(record.key)})")
        lines = []
        if headers.game is None:
            lines.append(f"game: {gf.game_id}")
        if headers.turn is None:
            lines.append(f"turn: {state.turn_number}")
        if lines:
            text = "\n".join(lines) + "\n" + text
        data = text.encode("utf-8")
        signature = sshsig.sign(data, private, sshsig.NAMESPACE_ORDERS)
    check_state = state if power == state.power else attrs.evolve(state, power=power)
    from ..checking import check_orders
    result = check_orders(game, check_state, text)
    return PreparedOrders(power, data, signature, result, check_state, state.turn_number,
                          power == state.power)


def orders_recipients(cfg: MailConfig, gf, power: str) -> tuple[str, list[str]]:
    """(where the orders go, who gets a copy): the game master; or, in a game with dice
    keepers, the player keeping ``power``'s dice, everyone else in copy."""
    keeper = keeper_of(gf, power)
    if not gf.dice_keepers or (keeper == "game_master" and cfg.game_master):
        if not cfg.game_master:
            raise PbemError(f"set game_master = \"ADDRESS\" in {cfg.path}: where orders go")
        return cfg.game_master, []
    players = players_of(gf, cfg)
    to = cfg.game_master if keeper == "game_master" else players[keeper].email
    if not to:
        raise PbemError(f"the game file has no address for {keeper}, who keeps {power}'s dice "
                        "and processes its orders")
    everyone = [p.email for p in players.values() if p.email] + list(cfg.orders_copy)
    copies = [a for a in dict.fromkeys(everyone) if a not in (to, cfg.address)]
    return to, copies


def orders_message(cfg: MailConfig, game_id: str, prepared: PreparedOrders, *, ask_check: bool,
                   now: float, power_name: str, gf=None) -> bytes:
    what = "check" if ask_check else "orders"
    subject = f"{power_name} {what}, turn {prepared.turn_number}"
    to, copies = (orders_recipients(cfg, gf, prepared.power) if gf is not None
                  else (cfg.game_master, []))
    if not to:
        raise PbemError(f"set game_master = \"ADDRESS\" in {cfg.path}: where orders go")
    return compose.orders_mail(
        sender=cfg.address, sender_name=cfg.name, to=to, game_id=game_id,
        subject=subject, orders=prepared.data, signature=prepared.signature,
        filename=orders_file_name(prepared.turn_number, prepared.power), now=now,
        cc=[] if ask_check else copies)


SENT_DIR = "sent"


def record_sent(cfg: MailConfig, prepared: PreparedOrders, *, replace: bool = False) -> None:
    """Remember the signed orders sent for a turn (``.mail/sent/NNNN-<power>.txt``) and
    refuse other orders for the same turn: the keeper processes the first orders it gets
    and refuses the rest, and two signed sets for one turn would let a keeper pick the
    dice it likes better.  ``replace`` overrides (the first never arrived)."""
    if prepared.signature is None:
        return
    folder = cfg.state_path / SENT_DIR
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / orders_file_name(prepared.turn_number, prepared.power)
    if path.exists() and path.read_bytes() != prepared.data and not replace:
        raise PbemError(
            f"you already sent other signed orders for turn {prepared.turn_number} "
            f"({path}); the first orders to arrive are processed and any later ones refused, "
            "and two signed sets for one turn would let the dice keeper choose between two "
            "rolls. Send these only if the first never arrived (--replace)")
    write_atomic(path, prepared.data, overwrite=True)


# --------------------------------------------------------------------------- fetch

@attrs.define
class FetchResult:
    added: list[int] = attrs.Factory(list)
    refused: list[tuple[str, str]] = attrs.Factory(list)     # (what, reason)
    already: int = 0
    game_file_added: bool = False
    forks: list[int] = attrs.Factory(list)                    # turns with two signed versions
    waiting: list[int] = attrs.Factory(list)                  # turns ahead of this copy
    warnings: list[str] = attrs.Factory(list)


@attrs.frozen
class _Turn:
    number: int
    power: str
    data: bytes
    sig: bytes
    orders: bytes
    origin: str


def _published_copy(src: Path, dest: Path) -> None:
    """The published files of ``src`` (no secrets, no mail state) into ``dest``."""
    for name in (GAME_FILE, GAME_FILE + ".sig"):
        if (src / name).exists():
            shutil.copy2(src / name, dest / name)
    for sub in (TURNS_DIR, ORDERS_DIR):
        (dest / sub).mkdir(exist_ok=True)
        if (src / sub).is_dir():
            for p in (src / sub).iterdir():
                if not p.name.startswith("."):
                    shutil.copy2(p, dest / sub / p.name)


def fetch_results(game_dir, cfg: MailConfig, load_game, game_id: str | None = None,
                  log=lambda s: None) -> FetchResult:
    """Read the game's result mails from the player's inbox into the local copy."""
    from .inbox import open_source
    game_dir = Path(game_dir)
    result = FetchResult()
    local_gf = game_file_path(game_dir)
    if game_id is None:
        if not local_gf.exists():
            raise PbemError(f"{game_dir} has no game.json yet: give the game id "
                            "(pbem mail fetch --id GAME_ID) for the first fetch")
        game_id = gamedir.read_game(game_dir)[0].game_id
    turns: dict[int, list[_Turn]] = {}
    game_files: list[tuple[bytes, bytes, str]] = []
    with open_source(cfg.inbox, filing=False) as source:
        for ref in source.list(subject=compose.tag(game_id)):
            if ref.size > cfg.limits.max_message_bytes:
                result.refused.append((f"message {ref.id}", "too large"))
                continue
            msg = parse_message(source.read(ref), cfg.limits)
            if msg.game_tag != game_id:
                continue
            _collect(msg, turns, game_files, result)
    if not local_gf.exists():
        _adopt_game_file(game_dir, game_files, game_id, result)
        if not local_gf.exists():
            return result
    _apply(game_dir, turns, load_game, result)
    return result


def has_turns(msg) -> bool:
    """Whether a mail carries a published turn (a result mail) or the game file."""
    return any(TURN_RE.match(a.filename or "") or a.filename == GAME_FILE
               for a in msg.attachments)


def apply_message(game_dir, msg, load_game) -> FetchResult:
    """Add the turns one result mail carries to the local copy, each only after the whole
    game verifies (``fetch_results`` for one message).  A turn ahead of the copy (its
    predecessor has not arrived: mail reordered) is reported in ``waiting``."""
    game_dir = Path(game_dir)
    result = FetchResult()
    turns: dict[int, list[_Turn]] = {}
    game_files: list = []
    _collect(msg, turns, game_files, result)
    if not game_file_path(game_dir).exists():
        gid = msg.game_tag
        if gid:
            _adopt_game_file(game_dir, game_files, gid, result)
        if not game_file_path(game_dir).exists():
            return result
    _apply(game_dir, turns, load_game, result)
    return result


def _collect(msg, turns, game_files, result: FetchResult) -> None:
    att = {a.filename: a.data for a in msg.attachments if a.filename}
    if GAME_FILE in att and GAME_FILE + ".sig" in att:
        game_files.append((att[GAME_FILE], att[GAME_FILE + ".sig"], msg.message_id))
    for name, data in att.items():
        m = TURN_RE.match(name)
        if not m:
            continue
        try:
            tf = decode_turn_file(data, name)
        except PbemError as exc:
            result.refused.append((f"{name} in {msg.message_id}", str(exc)))
            continue
        sig = att.get(name + ".sig")
        orders = att.get(orders_file_name(tf.turn_number, tf.power))
        if sig is None or orders is None:
            result.refused.append((f"{name} in {msg.message_id}",
                                   "the signature or the orders file is not attached"))
            continue
        if not re.fullmatch(r"[A-Za-z0-9_-]+", tf.power):
            result.refused.append((name, f"bad power key {tf.power!r}"))
            continue
        turns.setdefault(tf.turn_number, []).append(
            _Turn(tf.turn_number, tf.power, data, sig, orders, msg.message_id))


def _adopt_game_file(game_dir: Path, game_files, game_id: str, result: FetchResult) -> None:
    """A first fetch: take the game file from a result mail once its signature verifies
    with the game master key it names."""
    for data, sig, origin in game_files:
        try:
            gf = decode_game_file(data)
            if gf.game_id != game_id:
                raise PbemError(f"it is the game file of {gf.game_id!r}")
            sshsig.verify(data, sig, signer_key(gf, gf.signer), sshsig.NAMESPACE_TURN,
                          strict=True)
        except PbemError as exc:
            result.refused.append((f"game.json in {origin}", str(exc)))
            continue
        game_dir.mkdir(parents=True, exist_ok=True)
        write_atomic(sig_path(game_file_path(game_dir)), sig)
        write_atomic(game_file_path(game_dir), data)
        result.game_file_added = True
        if gf.dice_keepers:
            from ..keeper_join import copy_problems
            result.warnings.extend(copy_problems(game_dir))
        return


def _apply(game_dir: Path, turns: dict[int, list[_Turn]], load_game, result: FetchResult) -> None:
    from ..audit import verify_game
    local = {n: (p, path) for n, p, path in list_turns(game_dir)}
    last = max(local, default=0)
    gf, _ = gamedir.read_game(game_dir)
    for n in sorted(turns):
        if n in local:
            have = local[n][1].read_bytes()
            for t in _unique(turns[n]):
                if t.data == have:
                    result.already += 1
                elif _fork(game_dir, gf, t, local[n][1]):
                    result.forks.append(n)
                    result.refused.append((
                        f"turn {n} in {t.origin}",
                        f"FORK: {keeper_of(gf, t.power)} signed two different turn files for "
                        f"turn {n}; yours is kept, both versions are in {game_dir / FORKS_DIR} "
                        "as evidence (pbem compare shows the signed proof)"))
                else:
                    result.refused.append((f"turn {n} in {t.origin}", "differs from the turn "
                                           "file you already hold; kept yours"))
    pending = {n: ts for n, ts in turns.items() if n > last}
    while pending:
        n = last + 1
        if n not in pending:
            for m in sorted(pending):
                result.waiting.append(m)
                for t in pending[m]:
                    result.refused.append((f"turn {m} in {t.origin}",
                                           f"out of order: your copy ends at turn {last}, "
                                           f"turn {n} must come first"))
            return
        accepted = None
        for t in _unique(pending.pop(n)):
            reason = _verify_with(game_dir, t, load_game, signer_key(gf, gf.signer),
                                  verify_game)
            if reason is None:
                accepted = t
                break
            result.refused.append((f"turn {n} in {t.origin}", reason))
        if accepted is None:
            for m in sorted(pending):
                for t in pending[m]:
                    result.refused.append((f"turn {m} in {t.origin}",
                                           f"turn {n} could not be added first"))
            return
        t = accepted
        for sub in (TURNS_DIR, ORDERS_DIR):
            (game_dir / sub).mkdir(exist_ok=True)
        write_atomic(orders_path(game_dir, t.number, t.power), t.orders, overwrite=True)
        write_atomic(sig_path(turn_path(game_dir, t.number, t.power)), t.sig, overwrite=True)
        write_atomic(turn_path(game_dir, t.number, t.power), t.data)
        result.added.append(n)
        last = n


def _fork(game_dir: Path, gf, t: _Turn, held: Path) -> bool:
    """Whether ``t`` (another version of a turn this copy holds) is validly signed by that
    turn's keeper -- a fork.  If so, both versions (with signatures and orders) are saved
    in ``forks/`` under their digests."""
    key = signer_key(gf, keeper_of(gf, t.power))
    try:
        sshsig.verify(t.data, t.sig, key, sshsig.NAMESPACE_TURN, strict=True)
    except PbemError:
        return False
    folder = game_dir / FORKS_DIR
    folder.mkdir(exist_ok=True)
    held_data = held.read_bytes()
    versions = [(held_data, sig_path(held).read_bytes(),
                 orders_path(game_dir, t.number, t.power).read_bytes()),
                (t.data, t.sig, t.orders)]
    for data, sig, orders in versions:
        stem = f"{t.number:04d}-{t.power}.{file_digest(data)[7:19]}"
        for suffix, content in ((".json", data), (".json.sig", sig), (".txt", orders)):
            target = folder / (stem + suffix)
            if not target.exists():
                write_atomic(target, content)
    return True


def _unique(ts: list[_Turn]) -> list[_Turn]:
    seen, out = set(), []
    for t in ts:
        k = (t.data, t.sig, t.orders)
        if k not in seen:
            seen.add(k)
            out.append(t)
    return out


def _verify_with(game_dir: Path, t: _Turn, load_game, gm_key, verify_game) -> str | None:
    """Why the game with turn ``t`` added fails ``pbem verify`` (None: it passes)."""
    with tempfile.TemporaryDirectory(prefix="pbem-fetch-") as tmp:
        tmp = Path(tmp)
        _published_copy(game_dir, tmp)
        (tmp / TURNS_DIR / Path(turn_path(tmp, t.number, t.power)).name).write_bytes(t.data)
        sig_path(turn_path(tmp, t.number, t.power)).write_bytes(t.sig)
        orders_path(tmp, t.number, t.power).write_bytes(t.orders)
        report = verify_game(tmp, load_game, expected_gm_key=gm_key)
        if report.ok:
            return None
        f = report.failure
        return f"{f.file} fails the {f.check} check: {f.detail}"
