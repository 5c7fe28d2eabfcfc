#!/usr/bin/env python3
"""Regenerate the published example games, turns/<ruleset>-example/game/.

Plays every orders file in turns/<ruleset>-example/orders/ (in name order) into a fresh game
directory with demo seeds, exactly as ``pbem demo --ruleset <ruleset>`` does, and publishes
the result: game.json, turns/, orders/ and every .sig -- never .secret/, which is deleted.

Run it after any change to the engine, the map data or the example orders::

    python scripts/regenerate_example.py                # rewrite every example's game/
    python scripts/regenerate_example.py aa1942         # only turns/aa1942-example/game/
    python scripts/regenerate_example.py --check        # exit 1 if a committed game is stale

The output is reproducible byte for byte: the seeds come from ``gamedir.demo_seeds`` (of the
example's game id, its folder name), the game master key is derived from a public label
(``demo_gm_key``), and Ed25519 signatures are deterministic.  Both are public, so an
example proves how the files fit together, not who wrote them: never use either for a real
game.  Editing an orders file, even a comment, changes its digest and so every die of that
turn and the turns after it.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import tempfile
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_EXAMPLE = "aa1941"


def demo_gm_key(game_id: str = f"{DEFAULT_EXAMPLE}-example") -> Ed25519PrivateKey:
    """An example's game master key, derived from a public label (demos only)."""
    return Ed25519PrivateKey.from_private_bytes(
        hashlib.sha256(f"pbem-demo-gm-key|{game_id}".encode()).digest())


def find_example(ruleset: str = DEFAULT_EXAMPLE):
    from adjudicator.service import examples
    return examples.example(ruleset)


def play_example(out: Path, ruleset: str = DEFAULT_EXAMPLE) -> Path:
    """Play the example of ``ruleset`` into the new directory ``out`` and remove its
    .secret/.  Raises ``PbemError`` if an orders file does not check clean."""
    from adjudicator.io import layout
    from adjudicator.model.errors import PbemError
    from adjudicator.service import examples

    chosen = find_example(ruleset)
    out = Path(out)
    for played in examples.play(chosen, out, gm_key=demo_gm_key(chosen.game_id)):
        if played.turn is None:
            raise PbemError(f"{played.path.name} does not check clean: "
                            + "; ".join(f"line {p.line}: {p.code} {dict(p.params)}" for p in played.errors))
    shutil.rmtree(out / layout.SECRET_DIR)
    return out


def tree(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` (relative path -> bytes)."""
    directory = Path(directory)
    return {p.relative_to(directory).as_posix(): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def regenerate(ruleset: str, out: Path | None, check: bool) -> int:
    """Rebuild (or with ``check`` only compare) one example; returns the exit status."""
    chosen = find_example(ruleset)
    out = (out or chosen.published).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=".regenerate-", dir=out.parent) as tmp:
        fresh = play_example(Path(tmp) / "game", ruleset)
        seconds = time.perf_counter() - started
        if check:
            if out.is_dir() and tree(out) == tree(fresh):
                print(f"{out} is up to date ({seconds:.1f} s)")
                return 0
            print(f"{out} is stale: run python scripts/regenerate_example.py {ruleset}",
                  file=sys.stderr)
            return 1
        if out.exists():
            shutil.rmtree(out)
        fresh.rename(out)
    print(f"wrote {out} in {seconds:.1f} s: " + ", ".join(sorted(tree(out))))
    return 0


def main(argv: list[str] | None = None) -> int:
    from adjudicator.service import examples

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("examples", nargs="*", metavar="RULESET",
                        help="which examples (default: every bundled one: "
                             + ", ".join(e.ruleset for e in examples.bundled()) + ")")
    parser.add_argument("--out", type=Path,
                        help="where to publish (only with one example; default its game/)")
    parser.add_argument("--check", action="store_true",
                        help="only compare with the published directory; exit 1 if it differs")
    args = parser.parse_args(argv)
    chosen = args.examples or [e.ruleset for e in examples.bundled()]
    if args.out is not None and len(chosen) != 1:
        parser.error("--out needs exactly one example")
    from adjudicator.model.errors import PbemError
    status = 0
    for ruleset in chosen:
        try:
            status = max(status, regenerate(ruleset, args.out, args.check))
        except PbemError as exc:
            print(f"{ruleset}: {exc}", file=sys.stderr)
            status = 2
    return status


if __name__ == "__main__":
    sys.exit(main())
