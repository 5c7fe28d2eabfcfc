"""Which program, engine and rules a game was played with, and whether this installation
can replay it.

A game records ``engine`` (``adjudicator.ENGINE_VERSION``: changes only when adjudication
output changes) and ``rules_hash`` (the edition's data files and the grammar).  Only an
installation with the same engine and the same rules reproduces its turns byte for byte;
any other can still check its signatures, chain, seeds and dice.  ``program`` names the
release that wrote a file, so a user can be told which one to install.
"""

from __future__ import annotations

import re

from .. import ENGINE_VERSION, __version__

PACKAGE = "pbem-adjudicator"
PROGRAM = f"{PACKAGE} {__version__}"
LEGACY_PROGRAM = f"{PACKAGE} 0.1.0"      # schema 1 files were written only by 0.1.0

_PROGRAM_RE = re.compile(r"^" + re.escape(PACKAGE) + r" ([0-9A-Za-z.+!-]{1,40})$")


def release(program: str) -> str | None:
    """``"pbem-adjudicator 0.1.0"`` -> ``"0.1.0"`` (None if it names no release)."""
    match = _PROGRAM_RE.match(program or "")
    return match.group(1) if match else None


def pinned(program: str, command: str) -> str:
    """A command line that runs ``pbem <command>`` with the release ``program`` names."""
    version = release(program)
    if version is None:
        return f"the program that wrote it ({program!r}) with: pbem {command}"
    return f"pipx run --spec {PACKAGE}=={version} pbem {command}"


def mismatch(engine: str, rules_hash: str, current_rules_hash: str) -> str | None:
    """Why this installation cannot replay a game with ``engine`` and ``rules_hash``
    (None: it can)."""
    if engine != ENGINE_VERSION:
        return (f"the game was adjudicated by engine version {engine}; this program "
                f"({PROGRAM}) has engine version {ENGINE_VERSION}")
    if rules_hash != current_rules_hash:
        return (f"the game was played with rules {rules_hash}; the map data and grammar "
                f"installed here hash to {current_rules_hash}")
    return None
