"""Audit a whole game from its published files, offline.

``verify_game(directory, load_game)`` checks, in order, for the game file and then for
every turn file:

=================  =============================================================
check              what is verified
=================  =============================================================
files              the directory holds only the expected files, none missing
format             the file parses, has the documented shape, is in canonical bytes
                   and within the size bounds
signature          ``X.sig`` is a valid SSHSIG (namespace pbem-turn) of ``X``'s
                   exact bytes by the key game.json names for it: the game master's
                   (or, in a game without one, the hosting player's) for game.json,
                   the dice keeper's of the power for a turn
gm_key             (optional) game.json's signer is the key the caller expected
keeper             a turn is signed by the dice keeper game.json designates for its
                   power (``signer`` and the signing key), and each keeper's first
                   commitment in game.json carries the keeper's own signature
game_data          the loaded game definition has the recorded options
sequence           turn numbers, rounds, powers, ids, schema, engine and rules
                   follow on from the game file and the previous state
chain              ``previous`` is the digest of the previous file's bytes
orders             ``orders/NNNN-<power>.txt`` is exactly the text in the turn file
                   and its digest is ``orders_digest``
orders_signature   the player's signature of the orders and its game/turn headers
                   if the game lists a key for the power; none if it lists no key
commitment         the revealed seed opens the commitment its keeper published last
                   (one file earlier, or in the last turn that keeper signed)
dice               every recorded roll is reproduced, in order, by the HMAC stream
canonical          the canonical text of the parsed orders has the digest the dice
                   are bound to (needs this program's rules, like the replay)
replay             re-adjudicating the turn from the previous state and the orders
                   gives byte-for-byte the published turn (dice, events, state); a
                   game master's correction turn is re-applied the same way
                   (``service.corrections``), and the report lists it with its reason
fork               two turn files for one turn number (two versions of a turn)
=================  =============================================================

Only an installation with the game's engine version and rules hash can run the
``canonical`` and ``replay`` checks; any other runs every other check and says, in
``replay_note``, which release would replay the game (``require_replay`` makes that a
failure).  The report also carries warnings that are not failures (demo seeds, a
published ``.secret/``, fork proof kept in ``forks/``), the digest of every verified file (for ``pbem verify --known``
and ``--record``), counts, and each power's luck: hits scored against the hits expected
from the dice's targets.
"""

from __future__ import annotations

import json

import math
from pathlib import Path
from typing import Callable

import attrs

from ..io import hmac_dice, keys, orders_text, sshsig, versions
from ..io.codec import within_limits
from ..io.corrections import game_master_statement, is_correction_statement
from ..io.limits import MAX_JSON_BYTES, MAX_SIGNATURE_BYTES
from ..io.storage import read_regular
from ..model.errors import PbemError
from ..model.dice import hit_chance, read_number
from ..model.events import BattleStarted, BestOfRolled, DiceRolled, LowLuckBestOfRolled
from ..io.layout import (
    GAME_FILE, ORDERS_DIR, ORDERS_RE, SECRET_DIR, TURN_RE, TURN_SIG_RE, TURNS_DIR, sig_path,
)
from ..io.turnfile import (
    GAME_MASTER, GameFile, TurnFile, decode_game_file, decode_turn_file, decode_turn_header,
    dice_digest, encode,
    file_digest, keeper_of, make_turn_file, orders_bytes, signer_key,
)
from . import keepers as keeper_rules
from .fork_evidence import proven_forks


@attrs.frozen
class Failure:
    file: str       # path relative to the game directory
    check: str      # one of the check names in the module docstring
    detail: str


@attrs.define
class PowerLuck:
    """Dice thrown by (or on behalf of) ``power`` and how they fell."""

    power: str
    dice: int = 0
    hits: int = 0
    expected: float = 0.0
    variance: float = 0.0

    @property
    def difference(self) -> float:
        return self.hits - self.expected

    @property
    def z(self) -> float:
        """Standard score of the hits: how many standard deviations from expectation."""
        return self.difference / math.sqrt(self.variance) if self.variance > 0 else 0.0


@attrs.frozen
class CorrectionSeen:
    """A correction turn the audit checked: its file, its edits as written and its reason."""

    file: str
    turn: int
    edits: tuple[str, ...]
    reason: str


@attrs.define
class AuditReport:
    directory: str
    game_id: str | None = None
    gm_fingerprint: str | None = None    # the key that signed game.json
    signer: str | None = None            # who signed game.json: game_master or a host power
    dice_keepers: dict[str, str] = attrs.field(factory=dict)   # power -> keeper
    open_commitments: dict[str, str] = attrs.field(factory=dict)  # keeper -> next commitment
    schema_version: int | None = None
    program: str | None = None           # the release that created the game
    engine: str | None = None            # the engine version the game was played with
    turns_found: int = 0
    turns_checked: int = 0
    dice_checked: int = 0
    signatures_checked: int = 0
    turns_replayed: int = 0
    replay: bool = True
    replay_note: str | None = None       # why the rules replay is not possible here
    failure: Failure | None = None
    warnings: list[str] = attrs.field(factory=list)
    verified_files: list[tuple[str, str]] = attrs.field(factory=list)  # (path, digest)
    luck: dict[str, PowerLuck] = attrs.field(factory=dict)
    # the game master's corrections (service.corrections), as verified: one per turn file
    corrections: list[CorrectionSeen] = attrs.field(factory=list)
    final_state: object = None     # the GameState after the last verified turn
    power_names: dict[str, str] = attrs.field(factory=dict)   # power key -> display name
    current_file: str = attrs.field(default="", repr=False, eq=False)
    # every file read, as (path, digest of the exact bytes checked): when the audit passes,
    # what `pbem process` may skip next time (service.verified_cache)
    read_files: list[tuple[str, str]] = attrs.field(factory=list, repr=False, eq=False)

    @property
    def ok(self) -> bool:
        """No check failed (the rules replay may not have run: see ``complete``)."""
        return self.failure is None

    @property
    def complete(self) -> bool:
        """Every check ran, the rules replay included."""
        return self.replay and self.replay_note is None


class AuditUnavailable(PbemError):
    """The audit cannot run as asked (e.g. replay without a working engine)."""


class _Stop(Exception):
    """Internal: the first failure has been recorded."""


@attrs.define
class _Rules:
    """What the rules checks need: the game definition, the parser, the canonical
    formatter and the engine (None where this installation cannot replay the game)."""

    game: object = None
    parse: Callable | None = None
    canonical: Callable | None = None
    adjudicate: Callable | None = None


# --------------------------------------------------------------------------- verify

def verify_game(directory, load_game: Callable | None = None, *, parse: Callable | None = None,
                adjudicate: Callable | None = None, canonical: Callable | None = None,
                replay: bool = True, expected_gm_key=None,
                require_replay: bool = False, progress: Callable | None = None) -> AuditReport:
    """Audit the game in ``directory``.  ``load_game(name)`` loads the game definition
    named by game.json's ``ruleset`` (default: ``loader.load_game``); ``parse``,
    ``canonical`` and ``adjudicate`` default to the real parser, ``format_orders`` and
    engine.  ``replay=False`` skips re-adjudication, and without ``load_game`` also the
    ``canonical`` check (every other check still runs).
    ``require_replay``: a game this installation cannot replay (other engine version or
    rules) fails instead of getting a note.  ``expected_gm_key``: a public key (line, path
    or object) the game master must hold -- game.json names its own key, so without this
    the audit proves consistency, not who the game master is.  ``progress(done, total)``,
    if given, is called after each turn file (for a progress bar)."""
    directory = Path(directory)
    report = AuditReport(directory=str(directory), replay=replay)
    try:
        _verify(directory, report, load_game, parse, canonical, adjudicate, replay,
                expected_gm_key, require_replay, progress)
    except _Stop:
        pass
    except AuditUnavailable:
        raise
    except PbemError as exc:   # anything unreadable that slipped past the specific checks
        report.failure = Failure(report.current_file or ".", "format", str(exc))
    return report


def _fail(report: AuditReport, directory: Path, path: Path | str, check: str, detail: str):
    try:
        rel = Path(path).relative_to(directory).as_posix()
    except ValueError:
        rel = str(path)
    report.failure = Failure(rel, check, detail)
    raise _Stop


def _read(report, directory, path: Path, check: str, what: str,
          limit: int = MAX_JSON_BYTES) -> bytes:
    return _read_digest(report, directory, path, check, what, limit)[0]


def _read_digest(report, directory, path: Path, check: str, what: str,
                 limit: int = MAX_JSON_BYTES) -> tuple[bytes, str]:
    """The bytes of ``path`` and their digest (recorded in ``report.read_files``)."""
    if not path.exists() and not path.is_symlink():
        _fail(report, directory, path, check, f"{what} is missing")
    try:
        data = read_regular(path, what, limit)
    except PbemError as exc:
        _fail(report, directory, path, check, str(exc))
    try:
        name = Path(path).relative_to(directory).as_posix()
    except ValueError:
        name = str(path)
    digest = file_digest(data)
    report.read_files.append((name, digest))
    return data, digest


def _check_keeper_sig(report, directory, tpath: Path, data: bytes, gf: GameFile, power: str,
                      keeper: str) -> None:
    """A turn's signature must be by the key of the dice keeper of its power; a valid
    signature by another key is a ``keeper`` failure that names whose key it is."""
    key = signer_key(gf, keeper)
    if key is None:
        _fail(report, directory, tpath, "keeper",
              f"game.json lists no key for {keeper}, the dice keeper of {power}")
    spath = sig_path(tpath)
    sig = _read(report, directory, spath, "signature", "signature file", MAX_SIGNATURE_BYTES)
    try:
        claimed = sshsig.signer(sig)
    except sshsig.SignatureError as exc:
        _fail(report, directory, spath, "signature", f"{exc.check}: {exc}")
    if gf.dice_keepers and not keys.same_key(claimed, key):
        try:
            sshsig.verify(data, sig, claimed, sshsig.NAMESPACE_TURN, strict=True)
        except PbemError:
            pass                      # not even a valid signature: the signature check says so
        else:
            who = _whose_key(gf, claimed)
            role = "its dice keeper " + keeper if keeper != GAME_MASTER else "the game master"
            _fail(report, directory, tpath, "keeper",
                  f"turn of {power} signed by {keys.fingerprint(claimed)}{who}, but it must be "
                  f"signed by {role} ({keys.fingerprint(key)})")
    _check_sig(report, directory, tpath, data, key, sig)


def _whose_key(gf: GameFile, key) -> str:
    owners = [p for p, r in gf.players.items() if r.key and keys.same_key(r.key, key)]
    if gf.game_master is not None and keys.same_key(gf.game_master, key):
        owners.insert(0, "the game master")
    return f" (the key of {', '.join(owners)})" if owners else " (a key the game does not list)"


def _check_sig(report, directory, path: Path, data: bytes, gm_key, sig: bytes | None = None
               ) -> None:
    """``path``'s signature (``sig``: its bytes, if already read) is valid, by ``gm_key``."""
    spath = sig_path(path)
    if sig is None:
        sig = _read(report, directory, spath, "signature", "signature file", MAX_SIGNATURE_BYTES)
    try:
        sshsig.verify(data, sig, gm_key, sshsig.NAMESPACE_TURN, strict=True)
    except sshsig.SignatureError as exc:
        _fail(report, directory, spath, "signature", f"{exc.check}: {exc}")
    except PbemError as exc:
        _fail(report, directory, spath, "signature", str(exc))
    report.signatures_checked += 1


def _verify(directory: Path, report: AuditReport, load_game, parse, canonical, adjudicate,
            replay, expected_gm_key, require_replay, progress=None) -> None:
    gpath = directory / GAME_FILE
    report.current_file = GAME_FILE
    if not directory.is_dir():
        _fail(report, directory, directory, "files", "not a directory")
    gdata = _read(report, directory, gpath, "files", "game file")

    # -- game file: the signature first (an SSHSIG names its key), then the contents.
    gsig = _read(report, directory, sig_path(gpath), "signature", "signature file",
                 MAX_SIGNATURE_BYTES)
    try:
        gm_key = sshsig.signer(gsig)
    except sshsig.SignatureError as exc:
        _fail(report, directory, sig_path(gpath), "signature", f"{exc.check}: {exc}")
    report.gm_fingerprint = keys.fingerprint(gm_key)
    _check_sig(report, directory, gpath, gdata, gm_key, gsig)
    try:
        gf = decode_game_file(gdata, GAME_FILE)
    except PbemError as exc:
        _fail(report, directory, gpath, "format", str(exc))
    report.game_id, report.schema_version = gf.game_id, gf.schema_version
    report.program, report.engine = gf.program, gf.engine
    report.signer, report.dice_keepers = gf.signer, dict(gf.dice_keepers)
    if gf.game_master is not None:
        try:
            keys.load_public_key(gf.game_master)
        except PbemError as exc:
            _fail(report, directory, gpath, "format", f"game_master: {exc}")
    try:
        named = keys.load_public_key(signer_key(gf, gf.signer))
    except PbemError as exc:
        _fail(report, directory, gpath, "format", f"the key of the signer {gf.signer}: {exc}")
    if not keys.same_key(named, gm_key):
        who = "the game master key" if gf.signer == GAME_MASTER else \
            f"{gf.signer}'s key (the host)"
        _fail(report, directory, sig_path(gpath), "signature",
              f"game.json names {who} {keys.fingerprint(named)}, but is signed "
              f"by {report.gm_fingerprint}")
    if expected_gm_key is not None and not keys.same_key(gm_key, expected_gm_key):
        _fail(report, directory, gpath, "gm_key",
              f"game master key is {report.gm_fingerprint}, expected "
              f"{keys.fingerprint(expected_gm_key)}")
    for power, record in gf.players.items():
        if record.key is not None:
            try:
                keys.load_public_key(record.key)
            except PbemError as exc:
                _fail(report, directory, gpath, "format", f"players.{power}.key: {exc}")
    for keeper, record in sorted(gf.keepers.items()):
        if keeper != GAME_MASTER:
            why = keeper_rules.statement_problem(gf.game_id, keeper, record,
                                                 signer_key(gf, keeper))
            if why:
                _fail(report, directory, gpath, "keeper", why)
    report.verified_files.append((GAME_FILE, file_digest(gdata)))
    _warn_about_secrets(report, directory, gf)
    for fork in proven_forks(directory, gf):
        report.warnings.append(
            f"FORK: {fork.signer} signed two different versions of turn {fork.turn} "
            f"({fork.power}), kept as proof in {', '.join(fork.files)}; this copy holds one "
            "of them -- keep the files and compare with the other players ('pbem compare')")

    rules = _rules(report, directory, gpath, gf, load_game, parse, canonical, adjudicate,
                   replay, require_replay)
    if rules.game is not None and gf.dice_keepers:
        for problem in keeper_rules.configuration_problems(
                rules.game.ruleset, gf.players, gf.dice_keepers, gf.game_master):
            report.warnings.append(f"dice keepers: {problem} -- the dice of those turns prove "
                                   "nothing against that side")

    # -- the files present
    turns = _inventory(report, directory)
    report.turns_found = len(turns)

    state = gf.initial_state
    positions: dict[int, object] = {}      # turn number -> the position it was played in
    counted: dict[int, tuple] = {}         # turn number -> its events, while not undone
    prev_digest = file_digest(gdata)
    prev_name = GAME_FILE
    # keeper -> (the commitment it must open next, the file that published it)
    if gf.dice_keepers:
        commitments = {k: (r.commitment, GAME_FILE) for k, r in gf.keepers.items()}
    else:
        commitments = {GAME_MASTER: (gf.seed_commitment, GAME_FILE)}
    for number, power, tpath in turns:
        report.current_file = tpath.relative_to(directory).as_posix()
        tdata, tdigest = _read_digest(report, directory, tpath, "files", "turn file")
        keeper = keeper_of(gf, power)
        _check_keeper_sig(report, directory, tpath, tdata, gf, power, keeper)
        # A turn that is replayed has its form, events and state proven by the replay (the
        # file must equal the re-encoded re-adjudication byte for byte, and then decodes to
        # it), so only its own fields are read here, and it is not re-encoded; if a check
        # fails first, the whole file is decoded then (``_check_form``), so the first
        # failure reported is the same as with the file decoded and checked here.
        deferred = rules.adjudicate is not None
        try:
            if deferred:
                tf = decode_turn_header(tdata, report.current_file)
            else:
                tf = decode_turn_file(tdata, report.current_file)
        except PbemError as exc:
            if deferred:
                _check_form(report, directory, tpath, tdata)
            _fail(report, directory, tpath, "format", str(exc))
        try:
            _check_sequence(report, directory, tpath, tf, gf, state, number, power, prev_name)
            if tf.signer != keeper:
                _fail(report, directory, tpath, "keeper",
                      f"signer is {tf.signer!r}, but game.json designates {keeper!r} as the dice "
                      f"keeper of {power}")
            commitment, committed_in = commitments.get(keeper, (None, GAME_FILE))

            # chain
            if tf.previous != prev_digest:
                _fail(report, directory, tpath, "chain",
                      f"previous is {tf.previous}, but {prev_name} has digest {prev_digest}")

            _check_orders(report, directory, tpath, tf, gf, number, power)

            # commitment
            whose = "" if keeper == GAME_MASTER else f" by its keeper {keeper}"
            if tf.seed_commitment != commitment:
                _fail(report, directory, tpath, "commitment",
                      f"seed_commitment {tf.seed_commitment} is not the commitment published"
                      f"{whose} in {committed_in} ({commitment})")
            seed = bytes.fromhex(tf.seed)
            if hmac_dice.commitment(seed) != commitment:
                _fail(report, directory, tpath, "commitment",
                      f"the revealed seed hashes to {hmac_dice.commitment(seed)}, not to the "
                      f"commitment {commitment} published{whose} in {committed_in}")
            if seed == hmac_dice.demo_seed(gf.game_id, tf.turn_number):
                _warn_demo_seeds(report)

            # dice
            try:
                bound = dice_digest(gf, tf)
            except PbemError as exc:
                _fail(report, directory, tpath, "dice", str(exc))
            stream = hmac_dice.HmacDice(seed, tf.game_id, tf.turn_number, bound,
                                        sides=gf.dice_sides, algorithm=gf.dice)
            for i, record in enumerate(tf.dice):
                again = stream.faces(len(record.faces))
                if list(record.faces) != again:
                    pos = next(j for j, (a, b) in enumerate(zip(record.faces, again)) if a != b)
                    _fail(report, directory, tpath, "dice",
                          f"dice[{i}] ({record.purpose}): recorded {list(record.faces)}, the seed "
                          f"gives {again} (first difference at die {pos + 1})")
            report.dice_checked += sum(len(r.faces) for r in tf.dice)

            # canonical orders and replay: only with this game's engine and rules
            correction = is_correction_statement(tf.orders)
            turn_rules = _correction_rules(rules, positions) if correction else rules
            if rules.parse is not None:
                orders = _check_canonical(report, directory, tpath, tf, turn_rules, state)
                if rules.adjudicate is not None:
                    tf = _replay(report, directory, tpath, tdata, tf, gf, turn_rules, state,
                                 orders, prev_digest)
                    report.turns_replayed += 1
        except (_Stop, AuditUnavailable, PbemError):
            if deferred:
                _check_form(report, directory, tpath, tdata)
            raise

        counted[tf.turn_number] = tf.events
        if correction:
            _note_correction(report, tf)
            _forget_undone(report, tf, counted, gf.dice_sides)
        else:
            _add_luck(report, tf, gf.dice_sides)
        positions[tf.turn_number] = state
        report.turns_checked += 1
        report.verified_files.append((report.current_file, tdigest))
        state, prev_digest, prev_name = tf.state, tdigest, report.current_file
        commitments[keeper] = (tf.next_commitment, report.current_file)
        if progress is not None:
            progress(report.turns_checked, report.turns_found)
    report.final_state = state
    report.open_commitments = {k: c for k, (c, _where) in commitments.items()}


def _correction_rules(rules: _Rules, positions: dict) -> _Rules:
    """The rules that read, write and apply a game master's correction turn: an undo
    restores a position the audit has already verified (``positions``)."""
    from .correction_rules import rules_for

    if rules.parse is None:
        return rules
    parse, canonical, adjudicate = rules_for(rules.parse, rules.canonical, rules.adjudicate,
                                             positions.__getitem__)
    return attrs.evolve(rules, parse=parse, canonical=canonical, adjudicate=adjudicate)


def _note_correction(report: AuditReport, tf: TurnFile) -> None:
    """Record a verified correction turn for the report (its text as the game master
    wrote it: it parses, or the canonical check above would have failed)."""
    from ..io.corrections import edit_text, parse_correction

    try:
        correction = parse_correction(tf.orders)
    except PbemError:
        return                     # only without the rules (nothing parsed it): not shown
    report.corrections.append(CorrectionSeen(
        report.current_file, tf.turn_number,
        tuple(edit_text(e) for e in correction.edits), correction.reason))


def _rules(report, directory, gpath, gf: GameFile, load_game, parse, canonical, adjudicate,
           replay, require_replay) -> _Rules:
    """Load the game definition if this installation can replay the game; otherwise
    record why not (or fail, with ``require_replay``)."""
    rules = _Rules()
    if not replay and load_game is None:
        return rules                     # no rules checks asked for
    if gf.engine != versions.ENGINE_VERSION:
        why = versions.mismatch(gf.engine, gf.rules_hash, "")
        _not_this_release(report, directory, gpath, gf, why)
        return _no_replay(report, directory, gpath, gf, why, require_replay)
    if load_game is None:
        from .games import load_game
    try:
        game = load_game(gf.ruleset)
        if dict(game.ruleset.options) != gf.options:
            game = load_game(gf.ruleset, options=dict(gf.options))
    except PbemError as exc:
        return _no_replay(report, directory, gpath, gf,
                          f"the rules {gf.ruleset!r} cannot be loaded here ({exc})",
                          require_replay)
    report.power_names = {k: p.name for k, p in game.ruleset.powers.items()}
    why = versions.mismatch(gf.engine, gf.rules_hash, game.content_hash)
    if why is not None:
        _not_this_release(report, directory, gpath, gf, why)
        return _no_replay(report, directory, gpath, gf, why, require_replay)
    if dict(game.ruleset.options) != gf.options:
        _fail(report, directory, gpath, "game_data",
              f"the game was played with options {gf.options}, the loaded game has "
              f"{dict(game.ruleset.options)}")
    unknown = sorted(set(gf.players) - set(game.ruleset.powers))
    if unknown:
        _fail(report, directory, gpath, "format",
              f"players lists {', '.join(unknown)}, not a power of {gf.ruleset}")
    if parse is None:
        from ..io.parser import parse_orders as parse
    if canonical is None:
        from ..io.parser import format_orders as canonical
    if replay and adjudicate is None:
        from ..engine.turn import adjudicate
    rules.game, rules.parse, rules.canonical = game, parse, canonical
    rules.adjudicate = adjudicate if replay else None
    return rules


def _not_this_release(report, directory, gpath, gf: GameFile, why: str) -> None:
    """A game file that names this very release but an engine or rules it does not have
    was not written by this release: a failure, never a reason to skip the replay."""
    if gf.program == versions.PROGRAM:
        _fail(report, directory, gpath, "version",
              f"{why}, yet the game file says this very release ({versions.PROGRAM}) wrote "
              "it: this release never writes that, so the file was altered (or written by "
              "another program)")


def _no_replay(report, directory, gpath, gf: GameFile, why: str, require_replay) -> _Rules:
    note = (f"{why}. Signatures, chain, seeds and every die are checked; the rules replay "
            f"needs that release: {versions.pinned(gf.program, f'verify {directory}')}")
    if require_replay:
        _fail(report, directory, gpath, "replay", "replay not possible: " + note)
    report.replay_note = note
    return _Rules()


def _warn_about_secrets(report: AuditReport, directory: Path, gf: GameFile) -> None:
    if (directory / SECRET_DIR).exists() and not gf.dice_keepers:
        report.warnings.append(
            f"this directory contains {SECRET_DIR}/: it holds the game master's key and the "
            "next seed and must never be published -- if this copy was published, the "
            "seeds of future turns are known and the game master key is compromised")
    elif (directory / SECRET_DIR).exists():
        report.warnings.append(
            f"this directory contains {SECRET_DIR}/: it holds your secret dice seeds as a "
            "keeper (and where your key is) and must never be published -- if this copy was "
            "published, the seeds of the turns you keep are known")
    if gf.seed_commitment == hmac_dice.commitment(hmac_dice.demo_seed(gf.game_id, 1)):
        _warn_demo_seeds(report)


def _warn_demo_seeds(report: AuditReport) -> None:
    warning = ("this game uses demo seeds: anyone can compute every seed in advance, so "
               "its dice prove nothing (for demos and tests only)")
    if warning not in report.warnings:
        report.warnings.append(warning)


def _check_sequence(report, directory, tpath, tf: TurnFile, gf: GameFile, state, number,
                    power, prev_name) -> None:
    expected = {"turn_number": state.turn_number, "round": state.round,
                "power": state.power, "game_id": gf.game_id, "map_id": gf.map_id,
                "schema_version": gf.schema_version, "engine": gf.engine,
                "rules_hash": gf.rules_hash}
    for name, value in expected.items():
        if getattr(tf, name) != value:
            _fail(report, directory, tpath, "sequence",
                  f"{name} is {getattr(tf, name)!r}, expected {value!r} after {prev_name}")
    if (number, power) != (tf.turn_number, tf.power):
        _fail(report, directory, tpath, "sequence",
              f"file name says turn {number} of {power}, contents say turn "
              f"{tf.turn_number} of {tf.power}")
    if state.winner is not None and not is_correction_statement(tf.orders):
        _fail(report, directory, tpath, "sequence",
              f"the game was already won by {state.winner} before this turn")


def _check_orders(report, directory, tpath, tf: TurnFile, gf: GameFile, number, power) -> None:
    opath = directory / ORDERS_DIR / f"{number:04d}-{power}.txt"
    odata, odigest = _read_digest(report, directory, opath, "orders", "orders file",
                                  orders_text.MAX_ORDERS_BYTES)
    if odigest != tf.orders_digest:
        _fail(report, directory, opath, "orders",
              f"orders file has digest {odigest}, the turn file says "
              f"{tf.orders_digest}")
    try:
        text_bytes = orders_bytes(tf.orders)
    except PbemError as exc:
        _fail(report, directory, tpath, "orders", str(exc))
    if text_bytes != odata:
        _fail(report, directory, tpath, "orders",
              "the orders text in the turn file differs from the orders file")
    record = gf.players.get(tf.power)
    player_key = record.key if record is not None else None
    if player_key is None:
        if tf.orders_signature is not None:
            _fail(report, directory, tpath, "orders_signature",
                  f"the turn file carries an orders signature, but game.json lists no key "
                  f"for {tf.power} to check it with (it must be null)")
        return
    statement = game_master_statement(tf.orders)
    if tf.orders_signature is None and statement is not None:
        if keeper_of(gf, tf.power) != GAME_MASTER:
            _fail(report, directory, tpath, "orders_signature",
                  f"an unsigned {statement[0]} in a turn kept by {keeper_of(gf, tf.power)}, a "
                  f"player: only a game master may {statement[1]}")
        return                          # the game master's record of a missed deadline
    if tf.orders_signature is None:
        _fail(report, directory, tpath, "orders_signature",
              f"{tf.power}'s orders are not signed, but game.json lists a key")
    try:
        sshsig.verify(odata, tf.orders_signature, player_key, sshsig.NAMESPACE_ORDERS)
    except sshsig.SignatureError as exc:
        _fail(report, directory, tpath, "orders_signature", f"{exc.check}: {exc}")
    if tf.schema_version >= 2:
        try:
            orders_text.check_headers(tf.orders, tf.game_id, tf.turn_number)
        except PbemError as exc:
            _fail(report, directory, tpath, "orders_signature", str(exc))


def _check_canonical(report, directory, tpath, tf: TurnFile, rules: _Rules, state):
    """Parse the orders; their canonical text must have the digest the dice are bound to.
    Returns the parsed orders."""
    try:
        orders = rules.parse(tf.orders, rules.game, power=state.power)
        digest = orders_text.canonical_digest(rules.canonical(orders, rules.game))
    except PbemError as exc:
        _fail(report, directory, tpath, "canonical", f"the orders do not parse: {exc}")
    if tf.canonical_orders_digest is not None and digest != tf.canonical_orders_digest:
        _fail(report, directory, tpath, "canonical",
              f"the canonical text of the orders has digest {digest}, the dice are bound to "
              f"{tf.canonical_orders_digest}")
    return orders


def _inventory(report: AuditReport, directory: Path) -> list[tuple[int, str, Path]]:
    """Turn files in order; anything unexpected in turns/ or orders/ is a failure."""
    tdir, odir = directory / TURNS_DIR, directory / ORDERS_DIR
    turns: list[tuple[int, str, Path]] = []
    sigs, orders = set(), set()
    for sub in (tdir, odir):
        if sub.exists() and not sub.is_dir():
            _fail(report, directory, sub, "files", "is not a directory")
    for entry in sorted(tdir.iterdir()) if tdir.is_dir() else []:
        if entry.name.startswith("."):
            continue
        if m := TURN_RE.match(entry.name):
            turns.append((int(m.group(1)), m.group(2), entry))
        elif m := TURN_SIG_RE.match(entry.name):
            sigs.add((int(m.group(1)), m.group(2)))
        else:
            _fail(report, directory, entry, "files", "unexpected file in turns/")
    for entry in sorted(odir.iterdir()) if odir.is_dir() else []:
        if entry.name.startswith("."):
            continue
        if m := ORDERS_RE.match(entry.name):
            orders.add((int(m.group(1)), m.group(2)))
        else:
            _fail(report, directory, entry, "files", "unexpected file in orders/")
    turns.sort(key=lambda t: (t[0], t[1]))
    keys_ = [(n, p) for n, p, _ in turns]
    for i, (n, p) in enumerate(keys_):
        if i and n == keys_[i - 1][0]:
            _fail(report, directory, turns[i][2], "fork",
                  f"two turn files for turn {n} ({keys_[i - 1][1]} and {p}): two versions of "
                  "one turn; keep both (with their .sig files) as evidence and compare the "
                  "copies ('pbem compare')")
    last = keys_[-1][0] if keys_ else 0
    interrupted = (" (a turn whose publication was interrupted: the next 'pbem process' "
                   "rolls it back)")
    for n, p in sorted(sigs - set(keys_)):
        _fail(report, directory, tdir / f"{n:04d}-{p}.json.sig", "files",
              "signature without a turn file" + (interrupted if n > last else ""))
    for n, p in sorted(orders - set(keys_)):
        _fail(report, directory, odir / f"{n:04d}-{p}.txt", "files",
              "orders file without a turn file" + (interrupted if n > last else ""))
    return turns


def _replay(report, directory, tpath, tdata, tf, gf: GameFile, rules: _Rules, state,
            orders, prev_digest: str) -> TurnFile:
    """Re-adjudicate the turn whose own fields are ``tf`` (a ``TurnHeader`` or a
    ``TurnFile``); the published bytes must be the re-adjudicated turn file's.  Returns
    that turn file: what ``decode_turn_file`` of the bytes gives."""
    try:
        dice = hmac_dice.HmacDice(bytes.fromhex(tf.seed), state.game_id, state.turn_number,
                                  dice_digest(gf, tf), sides=gf.dice_sides, algorithm=gf.dice)
        result = rules.adjudicate(rules.game, state, orders, dice)
    except NotImplementedError as exc:
        raise AuditUnavailable(f"cannot re-adjudicate {tpath.name}: the engine is not available "
                        f"({exc or 'not implemented'}); audit with replay=False") from None
    except Exception as exc:  # noqa: BLE001 - any engine failure is a replay failure
        _fail(report, directory, tpath, "replay",
              f"re-adjudicating the turn failed: {type(exc).__name__}: {exc}")
    again = make_turn_file(
        game_file=gf, state_before=state, previous=prev_digest, orders=tf.orders,
        orders_signature=tf.orders_signature, canonical_orders_digest=tf.canonical_orders_digest,
        seed=bytes.fromhex(tf.seed), next_commitment=tf.next_commitment, dice_log=dice.log,
        events=result.events, state=result.state, program=tf.program, signer=tf.signer)
    if encode(again) == tdata:             # which also proves the published file canonical
        if not within_limits(again.state):
            _check_form(report, directory, tpath, tdata)   # the bound the decoding sets
        return again
    _check_form(report, directory, tpath, tdata)
    # Compare with the file as published (not as decoded: decoding fills in defaults).
    published, replayed = json.loads(tdata), json.loads(encode(again))
    for name in ("dice", "events", "state"):
        if published[name] != replayed[name]:
            where = _first_difference(published[name], replayed[name], name)
            _fail(report, directory, tpath, "replay",
                  f"re-adjudication gives different {name} (first difference at {where})")
    for name in published:
        if published[name] != replayed[name]:
            _fail(report, directory, tpath, "replay", f"re-adjudication gives a different {name}")
    _fail(report, directory, tpath, "replay",
          "the published file is not in canonical form (same content, different bytes)")


def _check_form(report, directory, tpath, tdata: bytes) -> None:
    """The checks of the turn file that ``_verify`` leaves to the replay: a ``format``
    failure unless the whole file decodes (the error a decoding of every field gives
    first), and then unless it is in canonical form."""
    name = tpath.relative_to(directory).as_posix()
    for canonical in (False, True):
        try:
            decode_turn_file(tdata, name, canonical=canonical)
        except PbemError as exc:
            _fail(report, directory, tpath, "format", str(exc))


def _first_difference(a, b, path: str) -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}"
            if a[k] != b[k]:
                return _first_difference(a[k], b[k], f"{path}.{k}")
        return path
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
        if len(a) != len(b):
            return f"{path}[{min(len(a), len(b))}] (lengths {len(a)} and {len(b)})"
        return path
    return f"{path}: published {a!r}, replayed {b!r}"


# --------------------------------------------------------------------------- luck

def luck_from_events(events, sides: int = 6, into: dict[str, PowerLuck] | None = None
                     ) -> dict[str, PowerLuck]:
    """Hits vs expected hits per power from one turn's events.  A defending side made of
    several powers is counted under ``"a+b"``; dice of an unknown battle under ``"?"``."""
    luck = {} if into is None else into
    battles: dict[str, tuple[str, tuple[str, ...]]] = {}
    for ev in events:
        if isinstance(ev, BattleStarted):
            battles[ev.battle] = (ev.attacker, tuple(ev.defenders))
        elif isinstance(ev, DiceRolled):
            attacker, defenders = battles.get(ev.battle, ("?", ("?",)))
            who = attacker if ev.side == "attacker" else "+".join(defenders) or "?"
            n, hits, p = _trials(ev, sides)
            entry = luck.setdefault(who, PowerLuck(who))
            entry.dice += n
            entry.hits += hits
            entry.expected += n * p
            entry.variance += n * p * (1 - p)
    return luck


def _trials(ev: DiceRolled, sides: int) -> tuple[int, int, float]:
    """(trials, hits among them, the chance of a hit) of one dice event: one trial a die;
    a best-of unit's dice are one trial (its kept face); a Low Luck remainder read from
    several dice (``per_hit`` points a hit) is one trial at ``target / per_hit``."""
    if isinstance(ev, LowLuckBestOfRolled):
        trials = 1 if ev.rolls else 0
        won = int(bool(ev.rolls) and read_number(ev.rolls, sides) <= ev.target)
        return trials, won, ev.target / ev.per_hit
    if isinstance(ev, BestOfRolled):
        return (len(ev.kept), sum(1 for r in ev.kept if r <= ev.target),
                hit_chance(ev.target, sides, ev.dice))
    p = min(max(ev.target, 0), sides) / sides
    return len(ev.rolls), sum(1 for r in ev.rolls if r <= ev.target), p


def _forget_undone(report: AuditReport, tf: TurnFile, counted: dict, sides: int) -> None:
    """After a correction that undoes turns, the luck counts only the turns that stand."""
    from ..model.corrections import UNDO

    undo = [e.edit.turn for e in tf.events if getattr(e, "edit", None) is not None
            and e.edit.action == UNDO]
    if not undo:
        return
    for number in [n for n in counted if n >= min(undo)]:
        del counted[number]
    report.luck = {}
    for events in counted.values():
        luck_from_events(events, sides, report.luck)


def _add_luck(report: AuditReport, tf: TurnFile, sides: int) -> None:
    luck_from_events(tf.events, sides, report.luck)


# --------------------------------------------------------------------------- render

def render_audit(report: AuditReport, console, partial: bool = False) -> None:
    """Print the report with rich: a summary, the luck table, the first failure.  An
    audit that could not replay the rules never reads "OK" alone: "INCOMPLETE", or with
    ``partial`` (the user asked for a partial check) "OK, partial"."""
    from rich.markup import escape
    from rich.panel import Panel
    from rich.table import Table

    summary = Table(title="Audit", show_header=False, title_justify="left")
    summary.add_column("item", style="bold")
    summary.add_column("value")
    summary.add_row("Game directory", escape(str(report.directory)))
    summary.add_row("Game", escape(report.game_id or "?"))
    if report.signer in (None, GAME_MASTER):
        summary.add_row("Game master key", report.gm_fingerprint or "?")
    else:
        summary.add_row("Hosted by", escape(f"{report.power_names.get(report.signer, report.signer)}"
                                            f" (no game master), key {report.gm_fingerprint}"))
    if report.dice_keepers:
        name = lambda k: report.power_names.get(k, k)  # noqa: E731
        summary.add_row("Dice keepers", escape(", ".join(
            f"{name(p)} by {name(k) if k != GAME_MASTER else 'the game master'}"
            for p, k in report.dice_keepers.items())))
    if report.program:
        summary.add_row("Made with", escape(f"{report.program} (engine {report.engine}, "
                                            f"schema {report.schema_version})"))
    summary.add_row("Turn files", f"{report.turns_checked} of {report.turns_found} verified")
    summary.add_row("Signatures", str(report.signatures_checked))
    summary.add_row("Dice", f"{report.dice_checked} recomputed from the revealed seeds")
    if report.replay_note:
        replay = "[yellow]not possible with this program (see the note below)[/]"
    elif report.replay:
        replay = f"{report.turns_replayed} turns re-adjudicated"
    else:
        replay = "skipped"
    summary.add_row("Replay", replay)
    for seen in report.corrections:
        summary.add_row("Correction", escape(
            f"turn {seen.turn} ({seen.file}), by the game master: {'; '.join(seen.edits)} "
            f"-- reason: {seen.reason}"))
    if not report.ok:
        result = "[bold red]FAILED[/]"
    elif report.complete:
        result = "[bold green]OK[/]"
    elif partial:
        result = "[bold green]OK[/], [yellow]partial: the rules were not replayed[/]"
    else:
        result = ("[bold yellow]INCOMPLETE[/]: the rules were not replayed, so the states "
                  "are unchecked (--partial accepts a check without the replay)")
    if report.ok and report.warnings:
        result += f" [yellow]with {len(report.warnings)} warning(s)[/]"
    summary.add_row("Result", result)
    console.print(summary)
    for warning in report.warnings:
        console.print(f"[bold yellow]warning:[/] {escape(warning)}", soft_wrap=True)
    if report.replay_note:
        console.print(f"[bold]note:[/] rules replay not possible: {escape(report.replay_note)}",
                      soft_wrap=True)

    if report.luck:
        table = Table(title="Luck (hits scored vs expected)", title_justify="left")
        for col, justify in (("Power", "left"), ("Dice", "right"), ("Hits", "right"),
                             ("Expected", "right"), ("Difference", "right"), ("z", "right")):
            table.add_column(col, justify=justify)
        for power in sorted(report.luck):
            e = report.luck[power]
            diff = e.difference
            colour = "green" if diff > 0 else "red" if diff < 0 else ""
            name = "+".join(report.power_names.get(k, k) for k in power.split("+"))
            table.add_row(escape(name), str(e.dice), str(e.hits), f"{e.expected:.1f}",
                          f"[{colour}]{diff:+.1f}[/]" if colour else f"{diff:+.1f}",
                          f"{e.z:+.2f}")
        console.print(table)

    if report.failure is not None:
        f = report.failure
        console.print(Panel(f"[bold]{escape(str(f.file))}[/]\ncheck: [bold red]{escape(f.check)}[/]\n"
                            f"{escape(f.detail)}",
                            title="First failure", border_style="red"))


__all__ = ["AuditReport", "AuditUnavailable", "CorrectionSeen", "Failure", "PowerLuck", "luck_from_events", "render_audit",
           "verify_game"]
