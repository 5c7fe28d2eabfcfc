"""Where the team's shared rules sources are: the seed rulebooks and the TripleA map data.

They are never copied into the project; tests that cross-check against them look for the shared
folder in $PBEM_SHARED, else beside the checkout or further up (a worktree sits deeper), and skip
with the path they tried when it is absent.
"""

from __future__ import annotations

import os
from pathlib import Path

from adjudicator.io import paths


def _shared() -> Path:
    if os.environ.get("PBEM_SHARED"):
        return Path(os.environ["PBEM_SHARED"])
    for parent in paths.ROOT.parents:
        if (parent / "shared" / "reference").is_dir():
            return parent / "shared"
    return paths.ROOT.parent / "shared"


SHARED = _shared()
TRIPLEA_MAPS = SHARED / "reference" / "triplea-maps"
SEEDS = SHARED / "seeds"
