"""The fork evidence a copy keeps in ``forks/``: two versions of one turn, each validly
signed by that turn's keeper (or game master) -- proof that the signer equivocated.

``pbem mail fetch`` and ``pbem mail run`` store both versions there when a second one
arrives (``mail/player.py``), and say so once; ``pbem verify`` reads the folder again
(``proven_forks``) so that the proof is reported every time the copy is checked, not
only in the mail pass that found it.  Files: ``NNNN-<power>.<12 hex of the turn file's
sha256>.json``, ``.json.sig`` and ``.txt`` (the orders).
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from ..io import sshsig
from ..io.limits import MAX_JSON_BYTES, MAX_SIGNATURE_BYTES
from ..io.storage import read_regular
from ..io.turnfile import GameFile, file_digest, keeper_of, signer_key
from ..model.errors import PbemError

FORKS_DIR = "forks"
MAX_FILES = 300                    # a folder of evidence, not a dump: at most this many read
_NAME = re.compile(r"^(\d{4})-([a-z][a-z0-9_]{0,39})\.([0-9a-f]{12})\.json$")


@attrs.frozen
class Fork:
    turn: int
    power: str
    signer: str                    # who signed both versions (keeper_of the power)
    files: tuple[str, ...]         # the versions' turn files, relative to the copy


def proven_forks(directory, gf: GameFile) -> list[Fork]:
    """Turns of which ``forks/`` holds at least two different versions, each signed with
    the key of the power's keeper.  Unreadable, renamed or unsigned files prove nothing
    and are skipped."""
    folder = Path(directory) / FORKS_DIR
    if not folder.is_dir():
        return []
    versions: dict[tuple[int, str], list[str]] = {}
    for entry in sorted(folder.iterdir())[:MAX_FILES]:
        m = _NAME.match(entry.name)
        if not m:
            continue
        number, power, short = int(m.group(1)), m.group(2), m.group(3)
        key = signer_key(gf, keeper_of(gf, power))
        if key is None:
            continue
        try:
            data = read_regular(entry, "fork evidence", MAX_JSON_BYTES)
            sig = read_regular(entry.with_name(entry.name + ".sig"), "fork evidence",
                               MAX_SIGNATURE_BYTES)
            if file_digest(data)[7:19] != short:
                continue
            sshsig.verify(data, sig, key, sshsig.NAMESPACE_TURN, strict=True)
        except PbemError:
            continue
        versions.setdefault((number, power), []).append(f"{FORKS_DIR}/{entry.name}")
    return [Fork(n, p, keeper_of(gf, p), tuple(files))
            for (n, p), files in sorted(versions.items()) if len(files) >= 2]
