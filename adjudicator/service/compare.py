"""Compare two copies of a game: the first published file where they diverge, with the
signature of each version as the proof of equivocation -- by the game master, or in a
game with dice keepers by the keeper of that turn (a keeper who signs two different
files for one turn has forked the game: one of them may open another commitment later).

The files are compared in chain order -- game.json, then the turn files by number -- by
their exact bytes.  Two copies that agree up to the end of the shorter one are not a
proof of anything (one may simply be older), but the difference is reported.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from ..io import keys, sshsig
from ..io.layout import GAME_FILE, TURN_RE, list_turns, sig_path
from ..io.limits import MAX_JSON_BYTES, MAX_SIGNATURE_BYTES
from ..io.storage import parse_json_bytes, read_regular
from ..io.turnfile import file_digest
from ..model.errors import PbemError


@attrs.frozen
class Version:
    """One copy's version of a file: its digest, the armored signature, and who signed it
    (the fingerprint of the key the signature verifies with, or why it does not)."""

    path: Path
    digest: str
    signature: str
    signed_by: str | None
    problem: str | None
    role: str = "the game master"         # who must sign the file: game master, host, keeper


@attrs.frozen
class Comparison:
    files_compared: int
    first: Version | None = None          # the diverging file, as in the first copy
    second: Version | None = None         # ... and as in the second
    longer: str | None = None             # a note when one copy has more turns

    @property
    def diverged(self) -> bool:
        return self.first is not None

    @property
    def proof(self) -> bool:
        """Both versions carry a valid signature by the same game master key."""
        return (self.diverged and self.first.problem is None and self.second.problem is None
                and self.first.signed_by == self.second.signed_by)


def _files(directory: Path) -> list[tuple[str, Path]]:
    if not (directory / GAME_FILE).is_file():
        raise PbemError(f"{directory} is not a game directory (no {GAME_FILE})")
    return [(GAME_FILE, directory / GAME_FILE)] + [
        (path.relative_to(directory).as_posix(), path) for _, _, path in list_turns(directory)]


def _game_raw(directory: Path) -> dict:
    try:
        data = read_regular(directory / GAME_FILE, "game file", MAX_JSON_BYTES, PbemError)
        raw = parse_json_bytes(data, directory / GAME_FILE, "game file")
        return raw if isinstance(raw, dict) else {}
    except PbemError:
        return {}


def _signer_of(raw: dict, path: Path) -> tuple[str | None, str]:
    """(the key line that must sign ``path`` according to the copy's game.json, the role)."""
    from .gamedir import game_signing_key
    match = TURN_RE.match(path.name)
    if match is None:                                     # game.json
        signer = raw.get("signer", "game_master")
        return game_signing_key(raw), ("the game master" if signer == "game_master"
                                       else f"the host ({signer})")
    power = match.group(2)
    keepers = raw.get("dice_keepers") if isinstance(raw.get("dice_keepers"), dict) else {}
    keeper = keepers.get(power, "game_master")
    if keeper == "game_master":
        key = raw.get("game_master")
        return (key if isinstance(key, str) else None), "the game master"
    key = game_signing_key({"signer": keeper, "players": raw.get("players")})
    return key, f"{power}'s dice keeper ({keeper})"


def _version(path: Path, gm_key: str | None, role: str = "the game master") -> Version:
    data = read_regular(path, "file", MAX_JSON_BYTES, PbemError)
    digest = file_digest(data)
    try:
        sig = read_regular(sig_path(path), "signature file", MAX_SIGNATURE_BYTES,
                           PbemError).decode("ascii", "replace")
    except PbemError as exc:
        return Version(path, digest, "", None, str(exc), role)
    try:
        if gm_key is None:
            raise PbemError(f"the copy's game.json names no key for {role}")
        sshsig.verify(data, sig, gm_key, sshsig.NAMESPACE_TURN, strict=True)
    except PbemError as exc:
        return Version(path, digest, sig, None, f"the signature does not verify: {exc}", role)
    return Version(path, digest, sig, keys.fingerprint(gm_key), None, role)


def compare_games(first_dir, second_dir) -> Comparison:
    """The first file, in chain order, whose bytes differ between the two copies."""
    first_dir, second_dir = Path(first_dir), Path(second_dir)
    a, b = _files(first_dir), _files(second_dir)
    raw_a, raw_b = _game_raw(first_dir), _game_raw(second_dir)
    compared = 0
    for (name_a, path_a), (name_b, path_b) in zip(a, b):
        compared += 1
        data_a = read_regular(path_a, "file", MAX_JSON_BYTES, PbemError)
        data_b = read_regular(path_b, "file", MAX_JSON_BYTES, PbemError)
        if data_a != data_b:
            return Comparison(compared, _version(path_a, *_signer_of(raw_a, path_a)),
                              _version(path_b, *_signer_of(raw_b, path_b)))
    longer = None
    if len(a) != len(b):
        more, fewer = (first_dir, second_dir) if len(a) > len(b) else (second_dir, first_dir)
        longer = (f"{more} has {abs(len(a) - len(b))} more turn file(s) than {fewer}; they "
                  f"agree up to the end of {fewer} (it is older, or turns were withheld)")
    return Comparison(compared, longer=longer)
