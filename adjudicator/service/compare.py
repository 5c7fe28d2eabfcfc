"""Compare two copies of a game: the first published file where they diverge, with the
game master's signature of each version as the proof of equivocation.

The files are compared in chain order -- game.json, then the turn files by number -- by
their exact bytes.  Two copies that agree up to the end of the shorter one are not a
proof of anything (one may simply be older), but the difference is reported.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from ..io import keys, sshsig
from ..io.layout import GAME_FILE, list_turns, sig_path
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


def _gm_key(directory: Path) -> str | None:
    try:
        data = read_regular(directory / GAME_FILE, "game file", MAX_JSON_BYTES, PbemError)
        key = parse_json_bytes(data, directory / GAME_FILE, "game file").get("game_master")
        return key if isinstance(key, str) else None
    except PbemError:
        return None


def _version(path: Path, gm_key: str | None) -> Version:
    data = read_regular(path, "file", MAX_JSON_BYTES, PbemError)
    digest = file_digest(data)
    try:
        sig = read_regular(sig_path(path), "signature file", MAX_SIGNATURE_BYTES,
                           PbemError).decode("ascii", "replace")
    except PbemError as exc:
        return Version(path, digest, "", None, str(exc))
    try:
        if gm_key is None:
            raise PbemError("the copy's game.json names no game master key")
        sshsig.verify(data, sig, gm_key, sshsig.NAMESPACE_TURN, strict=True)
    except PbemError as exc:
        return Version(path, digest, sig, None, f"the signature does not verify: {exc}")
    return Version(path, digest, sig, keys.fingerprint(gm_key), None)


def compare_games(first_dir, second_dir) -> Comparison:
    """The first file, in chain order, whose bytes differ between the two copies."""
    first_dir, second_dir = Path(first_dir), Path(second_dir)
    a, b = _files(first_dir), _files(second_dir)
    key_a, key_b = _gm_key(first_dir), _gm_key(second_dir)
    compared = 0
    for (name_a, path_a), (name_b, path_b) in zip(a, b):
        compared += 1
        data_a = read_regular(path_a, "file", MAX_JSON_BYTES, PbemError)
        data_b = read_regular(path_b, "file", MAX_JSON_BYTES, PbemError)
        if data_a != data_b:
            return Comparison(compared, _version(path_a, key_a), _version(path_b, key_b))
    longer = None
    if len(a) != len(b):
        more, fewer = (first_dir, second_dir) if len(a) > len(b) else (second_dir, first_dir)
        longer = (f"{more} has {abs(len(a) - len(b))} more turn file(s) than {fewer}; they "
                  f"agree up to the end of {fewer} (it is older, or turns were withheld)")
    return Comparison(compared, longer=longer)
