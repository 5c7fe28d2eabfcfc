#!/usr/bin/env python3
"""Regenerate the published example game, turns/aa1941-example/game/.

Plays every orders file in turns/aa1941-example/orders/ (in name order) into a fresh game
directory with demo seeds, exactly as ``pbem demo`` does, and publishes the result:
game.json, turns/, orders/ and every .sig -- never .secret/, which is deleted.

Run it after any change to the engine, the map data or the example orders::

    python scripts/regenerate_example.py            # rewrite turns/aa1941-example/game/
    python scripts/regenerate_example.py --check    # exit 1 if the committed game is stale

The output is reproducible byte for byte: the seeds come from ``gamedir.demo_seeds`` and
the game master key is derived from a public label (``demo_gm_key``), and Ed25519
signatures are deterministic.  Both are public, so the example proves how the files fit
together, not who wrote them: never use either for a real game.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
import tempfile
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "turns" / "aa1941-example"
ORDERS = EXAMPLE / "orders"
PUBLISHED = EXAMPLE / "game"
GAME_ID = "aa1941-example"
RULESET = "aa1941"
CREATED = "2026-01-01"


def demo_gm_key(game_id: str = GAME_ID) -> Ed25519PrivateKey:
    """The example's game master key, derived from a public label (demos only)."""
    return Ed25519PrivateKey.from_private_bytes(
        hashlib.sha256(f"pbem-demo-gm-key|{game_id}".encode()).digest())


def orders_files(orders_dir: Path = ORDERS) -> list[Path]:
    files = sorted(Path(orders_dir).glob("*.txt"))
    if not files:
        raise SystemExit(f"no orders files in {orders_dir}")
    return files


def play_example(out: Path, orders_dir: Path = ORDERS) -> Path:
    """Play the example into the new directory ``out`` and remove its .secret/.
    Raises ``PbemError`` if an orders file does not check clean."""
    from adjudicator.service import gamedir
    from adjudicator.io import layout
    from adjudicator.model.errors import PbemError
    from adjudicator.service.games import load_game
    from adjudicator.io.parser import parse_orders
    from adjudicator.engine.turn import check

    out = Path(out)
    game = load_game(RULESET)
    seeds = gamedir.demo_seeds(GAME_ID)
    key = demo_gm_key()
    gamedir.create_game(out, game, GAME_ID, gm_key_path=key, created=CREATED, seeds=seeds)
    for path in orders_files(orders_dir):
        data = path.read_bytes()
        state, _ = gamedir.current_state(out)
        orders = parse_orders(data.decode("utf-8"), game, power=state.power)
        errors = [p for p in check(game, state, orders) if p.severity == "error"]
        if errors:
            raise PbemError(f"{path.name} does not check clean: "
                            + "; ".join(f"line {p.line}: {p.message}" for p in errors))
        gamedir.process_turn(out, game, data, gm_key=key, seeds=seeds)
    shutil.rmtree(out / layout.SECRET_DIR)
    return out


def tree(directory: Path) -> dict[str, bytes]:
    """Every file under ``directory`` (relative path -> bytes)."""
    directory = Path(directory)
    return {p.relative_to(directory).as_posix(): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=PUBLISHED,
                        help=f"where to publish (default {PUBLISHED.relative_to(ROOT)})")
    parser.add_argument("--check", action="store_true",
                        help="only compare with the published directory; exit 1 if it differs")
    args = parser.parse_args(argv)

    out: Path = args.out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".regenerate-", dir=out.parent) as tmp:
        fresh = play_example(Path(tmp) / "game")
        if args.check:
            if out.is_dir() and tree(out) == tree(fresh):
                print(f"{out} is up to date")
                return 0
            print(f"{out} is stale: run python scripts/regenerate_example.py", file=sys.stderr)
            return 1
        if out.exists():
            shutil.rmtree(out)
        fresh.rename(out)
    print(f"wrote {out}: " + ", ".join(sorted(tree(out))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
