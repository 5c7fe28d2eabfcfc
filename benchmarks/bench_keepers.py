"""What dice keepers cost: the bundled example round published by a game master, and the
same round in a game with no game master, each turn processed in its keeper's copy (demo
seeds and keys derived from labels, so that the example's orders fit every run).

    python benchmarks/bench_keepers.py [REPEATS]

Prints, median over REPEATS runs: creating the game (with the keeper's join), processing
each turn (``gamedir.process_turn``: the audit of the published files, the adjudication,
the signature) and ``pbem verify`` of the whole game.  A script, not a test.
"""

from __future__ import annotations

import hashlib
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from adjudicator.io import keys, sshsig
from adjudicator.io.layout import ORDERS_DIR, TURNS_DIR
from adjudicator.io.paths import TURNS_DIR as EXAMPLES
from adjudicator.io.storage import write_atomic
from adjudicator.service import gamedir, keeper_join
from adjudicator.service.audit import verify_game
from adjudicator.service.games import load_game

ALLIES, AXIS = ("ussr", "uk", "usa"), ("germany", "japan")
ORDERS = sorted((EXAMPLES / "aa1941-example" / "orders").glob("*.txt"))


def _key(path: Path) -> Path:
    """A player key derived from a label, as the keeper tests do: the dice are bound to the
    mover's signature, so only these keys (with demo seeds) roll the dice the example's
    later orders were written for."""
    key = Ed25519PrivateKey.from_private_bytes(
        hashlib.sha256(f"pbem-test-key|{path.name}".encode()).digest())
    keys.make_private_dirs(path.parent)
    write_atomic(path, key.private_bytes(Encoding.PEM, PrivateFormat.OpenSSH, NoEncryption()),
                 mode=0o600)
    write_atomic(path.with_name(path.name + ".pub"),
                 (keys.public_key_line(key, path.name) + "\n").encode())
    return path


def _share(src: Path, dest: Path) -> None:
    for sub in (TURNS_DIR, ORDERS_DIR):
        (dest / sub).mkdir(exist_ok=True)
        for p in (src / sub).iterdir():
            if not p.name.startswith(".") and not (dest / sub / p.name).exists():
                shutil.copy(p, dest / sub / p.name)


def game_master_round(base: Path, game) -> dict[str, float]:
    t0 = time.perf_counter()
    gid = "aa1941-example"                  # the example's own game id and demo seeds
    gamedir.create_game(base / "gm", game, gid, created="2026-01-01",
                        seeds=gamedir.demo_seeds(gid))
    out = {"create": time.perf_counter() - t0, "process": 0.0}
    for path in ORDERS:
        t0 = time.perf_counter()
        gamedir.process_turn(base / "gm", game, path.read_bytes(),
                             seeds=gamedir.demo_seeds(gid))
        out["process"] += time.perf_counter() - t0
    t0 = time.perf_counter()
    assert verify_game(base / "gm", load_game).ok
    out["verify"] = time.perf_counter() - t0
    return out


def keeper_round(base: Path, game) -> dict[str, float]:
    gid = "club-keepers"                    # as in tests/keeper_helpers.py
    demo = gamedir.demo_seeds(gid)
    al, bea = _key(base / "keys" / "al"), _key(base / "keys" / "bea")
    t0 = time.perf_counter()
    join = keeper_join.read_join(keeper_join.join_game(base / "bea", game, gid, bea,
                                                       list(AXIS), seeds=demo))
    players = {p: {"key": str(al) + ".pub"} for p in ALLIES}
    gamedir.create_game(base / "al", game, gid, gm_key_path=al, players=players,
                        joins=[join], host="ussr", created="2026-03-01",
                        seeds=demo)
    for name in ("game.json", "game.json.sig"):
        shutil.copy(base / "al" / name, base / "bea" / name)
    out = {"create": time.perf_counter() - t0, "process": 0.0}
    dirs = {"al": base / "al", "bea": base / "bea"}
    gf, _ = gamedir.read_game(dirs["al"])
    side = {**{p: "al" for p in ALLIES}, **{p: "bea" for p in AXIS}}
    signing = {"al": keys.load_private_key(al), "bea": keys.load_private_key(bea)}
    for n, path in enumerate(ORDERS, start=1):
        state, _ = gamedir.current_state(dirs["al"])
        text = f"game: {gid}\nturn: {n}\n".encode() + path.read_bytes()
        sig = sshsig.sign(text, signing[side[state.power]], sshsig.NAMESPACE_ORDERS)
        keeper = dirs[side[gf.dice_keepers[state.power]]]
        t0 = time.perf_counter()
        gamedir.process_turn(keeper, game, text, orders_signature=sig, seeds=demo)
        out["process"] += time.perf_counter() - t0
        for d in dirs.values():
            if d != keeper:
                _share(keeper, d)
    t0 = time.perf_counter()
    report = verify_game(dirs["bea"], load_game)
    assert report.ok, report.failure
    out["verify"] = time.perf_counter() - t0
    return out


def main(repeats: int = 5) -> None:
    game = load_game("aa1941")
    results = {"game master": [], "dice keepers": []}
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            results["game master"].append(game_master_round(Path(tmp), game))
        with tempfile.TemporaryDirectory() as tmp:
            results["dice keepers"].append(keeper_round(Path(tmp), game))
    print(f"example round ({len(ORDERS)} turns), median of {repeats}, ms:")
    print(f"  {'':<13} {'create':>8} {'process/turn':>13} {'verify':>8}")
    for label, runs in results.items():
        med = {k: statistics.median(r[k] for r in runs) * 1000 for k in runs[0]}
        print(f"  {label:<13} {med['create']:8.1f} {med['process'] / len(ORDERS):13.1f} "
              f"{med['verify']:8.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
