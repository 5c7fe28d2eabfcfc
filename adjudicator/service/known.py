"""Turn digests a player recorded, to catch a game master who shows different histories
to different players (equivocation) or withholds the latest turns.

A *known file* is plain UTF-8 text, one line per published file a player received and
verified, ``#`` starting a comment::

    # GAME_ID PATH DIGEST
    club-2026-03 game.json sha256:5f1c...
    club-2026-03 turns/0001-ussr.json sha256:0b9e...

``pbem verify DIR --record FILE`` appends a line for every file it verified that the
file does not list yet; ``pbem verify DIR --known FILE`` checks that every file listed
for this game is in the copy, with the same digest.  One file may hold many games.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from ..io.limits import MAX_KNOWN_BYTES
from ..io.storage import read_regular, write_atomic
from ..model.errors import PbemError

HEADER = "# pbem known files: GAME_ID PATH DIGEST (pbem verify --record / --known)\n"
_LINE_RE = re.compile(r"^(\S+) ((?:game\.json)|(?:turns/[0-9]{4,}-[A-Za-z0-9_-]+\.json)) "
                      r"(sha256:[0-9a-f]{64})$")


@attrs.frozen
class KnownFile:
    """One recorded file: which game, its path in the game directory, its digest."""

    game_id: str
    path: str
    digest: str


def read_known(path) -> list[KnownFile]:
    """The entries of a known file (``PbemError`` naming the line of a malformed one);
    a missing file has none."""
    path = Path(path)
    if not path.exists():
        return []
    try:
        text = read_regular(path, "known file", MAX_KNOWN_BYTES, PbemError).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PbemError(f"known file {path}: not UTF-8 (byte {exc.start})") from None
    entries = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r").split("#", 1)[0].strip()
        if not line:
            continue
        match = _LINE_RE.match(" ".join(line.split()))
        if match is None:
            raise PbemError(f"known file {path}, line {number}: expected 'GAME_ID PATH "
                            f"sha256:<hex>', found {line[:80]!r}")
        entries.append(KnownFile(*match.groups()))
    return entries


def compare_known(game_id: str, verified: list[tuple[str, str]],
                  known: list[KnownFile]) -> list[str]:
    """Problems with a verified copy of the game ``game_id`` (``verified``: the (path,
    digest) of every file that passed the audit) against the recorded files."""
    have = dict(verified)
    problems = []
    if not any(entry.game_id == game_id for entry in known):
        others = sorted({entry.game_id for entry in known})
        problems.append(
            f"nothing to compare: the known-files list records no file of the game "
            f"{game_id!r}" + (f" (it records {', '.join(map(repr, others[:5]))}"
                              f"{', ...' if len(others) > 5 else ''}): a game re-made under "
                              "a new id, or the wrong list" if others else ""))
    for entry in known:
        if entry.game_id != game_id:
            continue
        digest = have.get(entry.path)
        if digest is None:
            problems.append(
                f"withheld: you recorded {entry.path} ({entry.digest}), but this copy does "
                "not have it (or it did not verify): the game master may be hiding turns")
        elif digest != entry.digest:
            problems.append(
                f"equivocation: you recorded {entry.path} with digest {entry.digest}, this "
                f"copy has {digest}: two different versions were published (keep both; "
                "'pbem compare' shows the signed proof)")
    return problems


def record(path, game_id: str, verified: list[tuple[str, str]]) -> int:
    """Append the verified files not yet recorded for ``game_id`` (a file recorded with
    another digest is left as it is: ``compare_known`` reports it).  Returns how many
    lines were added.  The file is rewritten atomically."""
    path = Path(path)
    known = read_known(path)
    recorded = {(k.game_id, k.path) for k in known}
    new = [f"{game_id} {p} {d}\n" for p, d in verified if (game_id, p) not in recorded]
    if not new:
        return 0
    if any(c.isspace() for c in game_id):
        raise PbemError(f"cannot record game id {game_id!r}: it contains spaces")
    old = read_regular(path, "known file", MAX_KNOWN_BYTES, PbemError) if path.exists() \
        else HEADER.encode("utf-8")
    if old and not old.endswith(b"\n"):
        old += b"\n"
    data = old + "".join(new).encode("utf-8")
    if len(data) > MAX_KNOWN_BYTES:
        raise PbemError(f"known file {path} would exceed {MAX_KNOWN_BYTES} bytes")
    write_atomic(path, data, overwrite=True)
    return len(new)
