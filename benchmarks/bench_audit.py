"""Issue 24's audit figures, as same-run ratios: ``pbem verify`` of a long game against a
short one (goal: the 200-turn game below 3x the 5-turn game, CPU including start-up), and
the replay per turn against a baseline checkout (``--baseline DIR``, e.g. ``git worktree
add /tmp/base main``).

    python benchmarks/bench_audit.py [--turns 200] [--short 5] [--repeat 3] [--baseline DIR]
                                     [--games DIR] [--ruleset aa1941]

Issue 22's Global 1940 figure: ``--ruleset global1940 --turns 135 --short 9`` (15 rounds of
nine military turns, the UK's two economies moving as one, against one round; goal: below 2 s).

Both games are played by benchmarks/long_game.py (in ``--games DIR`` if given, kept and
reused, else in a temporary folder).  Each figure is the best of ``--repeat`` fresh
processes, the versions interleaved: ``pbem verify`` as a whole (the child's CPU time), and
inside one process, after a first warm-up audit, the audit with and without the replay, and
the replay's own time per turn (``audit._replay``: re-adjudication, re-encoding, compare).
A script, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

CLI = """
import sys
sys.path.insert(0, sys.argv[1])
from adjudicator.cli import main
sys.exit(main(["verify", sys.argv[2]]))
"""

INSIDE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from adjudicator.service import audit
from adjudicator.service.games import load_game
games = {}
def load(name, **kw):
    return games.setdefault((name, str(kw)), load_game(name, **kw))
audit.verify_game(sys.argv[2], load)              # warm-up: imports, rules, grammar
spent = [0.0]
replay = audit._replay                            # re-adjudicate, re-encode, compare
def timed(*args, **kw):
    t0 = time.process_time()
    try:
        return replay(*args, **kw)
    finally:
        spent[0] += time.process_time() - t0
audit._replay = timed
out = {}
for with_replay in (False, True):
    t0 = time.process_time()
    report = audit.verify_game(sys.argv[2], load, replay=with_replay)
    out[str(with_replay)] = time.process_time() - t0
    assert report.ok, report.failure
out["replay"] = spent[0] / max(report.turns_replayed, 1)
print(json.dumps(out))
"""


def child_cpu(args: list[str], cwd: Path, pycache: Path) -> tuple[float, str]:
    """CPU seconds (user + system) of a fresh interpreter running ``args``, and its output.
    Bytecode is written, to ``pycache`` (a baseline checkout may be read-only or have none,
    and PYTHONDONTWRITEBYTECODE would make it compile every module every time)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd,
                          env={**env, "PYTHONPYCACHEPREFIX": str(pycache)})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args[:2])} failed:\n{done.stdout[-1500:]}{done.stderr[-1500:]}")
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime), done.stdout


def games(folder: Path, sizes: list[int], ruleset: str = "aa1941") -> dict[int, Path]:
    from long_game import make_long_game
    out = {}
    for n in sizes:
        path = folder / (f"long-{n}" if ruleset == "aa1941" else f"long-{ruleset}-{n}")
        if not (path / "turns").is_dir():
            print(f"playing a {n}-turn {ruleset} game in {path} ...", flush=True)
            make_long_game(path, n, ruleset)
        out[n] = path
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("--short", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline", metavar="DIR", help="a checkout of the version to compare")
    ap.add_argument("--games", metavar="DIR", help="keep the played games here (reused)")
    ap.add_argument("--ruleset", default="aa1941", help="the edition the games are played in")
    args = ap.parse_args(argv)
    versions = [("now", ROOT)] + ([("base", Path(args.baseline).resolve())]
                                  if args.baseline else [])
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.games) if args.games else Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        played = games(folder, [args.short, args.turns], args.ruleset)
        cli: dict[tuple[str, int], float] = {}
        inside: dict[str, dict] = {}
        for label, root in versions:          # bytecode written before the clock starts
            child_cpu(["-c", CLI, str(root), str(played[args.short])], root, Path(tmp) / label)
        for _ in range(args.repeat):
            for label, root in versions:
                cache = Path(tmp) / label
                for n, path in played.items():
                    t, _out = child_cpu(["-c", CLI, str(root), str(path)], root, cache)
                    cli[label, n] = min(t, cli.get((label, n), t))
                _t, out = child_cpu(["-c", INSIDE, str(root), str(played[args.turns])], root,
                                    cache)
                got = json.loads(out.splitlines()[-1])
                best = inside.get(label)
                inside[label] = {k: min(v, best[k]) if best else v for k, v in got.items()}
    long_, short = args.turns, args.short
    print(f"== pbem verify of {args.ruleset} games, CPU s (best of {args.repeat}, fresh process "
          f"each, start-up included)")
    print(f"{'version':<8} {f'{short} turns':>10} {f'{long_} turns':>10} "
          f"{f'{long_}/{short}':>9}  (goal < 3)")
    for label, _root in versions:
        a, b = cli[label, short], cli[label, long_]
        print(f"{label:<8} {a:>10.3f} {b:>10.3f} {b / a:>9.2f}")
    print(f"== inside one process, {long_} turns, after a warm-up audit")
    print(f"{'version':<8} {'no replay s':>12} {'replay s':>9} {'replay ms/turn':>15}")
    for label, _root in versions:
        r = inside[label]
        print(f"{label:<8} {r['False']:>12.3f} {r['True']:>9.3f} {r['replay'] * 1e3:>15.2f}")
    if args.baseline:
        now, base = inside["now"], inside["base"]
        print(f"base/now: pbem verify of {long_} turns {cli['base', long_] / cli['now', long_]:.2f}, "
              f"audit without replay {base['False'] / now['False']:.2f}, "
              f"replay per turn {base['replay'] / now['replay']:.2f} (goal >= 3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
