"""What every command costs before it does anything (issue 24): CPU time of `pbem` commands
on the bundled 1941 example, each as a ratio to a bare ``python -c pass`` measured in the
same run, interleaved (the runs take turns, so a busy machine slows all of them alike).

    python benchmarks/bench_startup.py [--repeat 7] [--no-bytecode] [--baseline DIR] [--only WORD]
                                       [--instructions]

CPU is user + system time of the child process (``resource.getrusage``), the median of
``--repeat`` runs.  Unless ``--no-bytecode``, each version's package is compiled first
(``compileall``: with ``PYTHONDONTWRITEBYTECODE`` set, a checkout never gets its ``.pyc``
otherwise, and every run would compile it).  ``--no-bytecode`` runs every command with
``-B`` and an empty ``PYTHONPYCACHEPREFIX``: what the first run after an install that
compiled nothing costs.  The commands use a cache folder of their own
(``PBEM_CACHE_DIR``), filled by an untimed first run of each: what every run after the
first of a game sees, whatever other processes do to the user's.
``--baseline DIR``: also time the same commands with the package found in DIR (e.g. a
checkout of the previous version), for a before/after ratio.  ``--only WORD`` (repeatable):
only the commands whose label contains WORD.  ``--instructions``: instructions executed
(valgrind ``--tool=cachegrind --cache-sim=no``, one run of each, after the untimed one)
instead of CPU time: they do not move with the machine's load.  Target: each under 5x bare.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "turns" / "aa1941-example"


def commands(game: Path, work: Path) -> list[tuple[str, list[str]]]:
    orders = EXAMPLE / "orders" / "01-ussr.txt"
    return [
        ("--version", ["--version"]),
        ("status", ["status", "-g", str(game)]),
        ("show", ["show", "-g", str(game), "--no-color"]),
        ("check --no-odds", ["check", str(orders), "-g", str(work), "--no-odds"]),
        ("check", ["check", str(orders), "-g", str(work)]),
        ("odds 3 inf, 1 tank vs 4 inf", ["odds", "3 inf, 1 tank", "vs", "4 inf"]),
        ("process (new game)", ["process", str(orders), "-g", "{fresh}", "--demo-seeds"]),
    ]


# runs ``pbem`` from the checkout given as the first argument, whatever is installed
# (an editable install's import hook would otherwise win over PYTHONPATH)
LAUNCH = ("import runpy, sys\n"
          "sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f)]\n"
          "sys.path.insert(0, sys.argv.pop(1))\n"
          "sys.argv[0] = 'pbem'\n"
          "runpy.run_module('adjudicator', run_name='__main__', alter_sys=True)\n")


FAILED: set[str] = set()      # commands that exited with an error (their figure is not the work's)
VALGRIND = ("valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null")


def instructions_of(argv: list[str], env: dict, name: str = "") -> float:
    """Instructions executed by ``argv`` (valgrind's "I refs"), in millions."""
    done = subprocess.run([*VALGRIND, *argv], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, env=env, check=False)
    if done.returncode:
        FAILED.add(name)
    refs = next(line for line in done.stderr.splitlines() if "I   refs:" in line
                or "I refs:" in line)
    return int(refs.split(":")[1].replace(",", "")) / 1e6


def cpu_of(argv: list[str], env: dict, name: str = "") -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                          check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        FAILED.add(name)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def new_game(tmp: Path, py: str, env: dict) -> Path:
    """A new 1941 game with its game master's ``.secret/`` (made once, not timed): what
    ``pbem process`` needs to play a turn (the published example has no secrets)."""
    out = tmp / "new"
    subprocess.run([py, "-c", LAUNCH, str(ROOT), "new", str(out), "--demo-seeds"],
                   stdout=subprocess.DEVNULL, env=env, check=True)
    return out


def fresh_game(proto: Path, tmp: Path, n: int) -> Path:
    """A copy of the new game before its first turn (``pbem process`` writes into it)."""
    out = tmp / f"fresh{n}"
    shutil.copytree(proto, out)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--no-bytecode", action="store_true")
    ap.add_argument("--baseline", metavar="DIR", help="a checkout of the version to compare")
    ap.add_argument("--only", metavar="WORD", action="append",
                    help="only the commands whose label contains WORD")
    ap.add_argument("--instructions", action="store_true",
                    help="instructions executed (valgrind), one run each, not CPU time")
    args = ap.parse_args(argv)
    measure = instructions_of if args.instructions else cpu_of
    if args.instructions:
        if not shutil.which("valgrind"):
            ap.error("--instructions needs valgrind")
        args.repeat = 1
    py = sys.executable
    env = dict(os.environ, NO_COLOR="1")
    flags = ["-B"] if args.no_bytecode else []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        env["PBEM_CACHE_DIR"] = str(tmp / "cache")
        if args.no_bytecode:
            env["PYTHONPYCACHEPREFIX"] = str(tmp / "nocache")   # no .pyc to be found
        work = tmp / "work"
        shutil.copytree(EXAMPLE / "game", work)
        for p in (work / "turns").glob("*"):
            p.unlink()
        for p in (work / "orders").glob("*"):
            p.unlink()
        versions = [("now", ROOT)] + ([("baseline", Path(args.baseline).resolve())]
                                      if args.baseline else [])
        cmds = [(name, words) for name, words in commands(EXAMPLE / "game", work)
                if not args.only or any(w in name for w in args.only)]
        times: dict[tuple[str, str], list[float]] = {}
        made = 0
        if not args.no_bytecode:
            for _, root in versions:
                subprocess.run([py, "-m", "compileall", "-q", str(root / "adjudicator")],
                               stdout=subprocess.DEVNULL, check=True)
        proto = new_game(tmp, py, env)
        for label, root in versions:              # untimed: fills the cache folder
            for name, words in cmds:
                if "{fresh}" in words:
                    made += 1
                    words = [str(fresh_game(proto, tmp, made)) if w == "{fresh}" else w
                             for w in words]
                cpu_of([py, *flags, "-c", LAUNCH, str(root), *words], env)
        for _ in range(args.repeat):
            times.setdefault(("bare", ""), []).append(measure([py, *flags, "-c", "pass"], env))
            for label, root in versions:
                for name, words in cmds:
                    if "{fresh}" in words:
                        made += 1
                        words = [str(fresh_game(proto, tmp, made)) if w == "{fresh}" else w
                                 for w in words]
                    argv = [py, *flags, "-c", LAUNCH, str(root), *words]
                    times.setdefault((label, name), []).append(
                        measure(argv, env, f"{label}: {name}"))
    bare = statistics.median(times[("bare", "")])
    unit, scale = ("M", 1) if args.instructions else ("ms", 1e3)
    what = ("instructions (M, valgrind, one run" if args.instructions
            else f"CPU ms (median of {args.repeat}, interleaved")
    print(f"== startup: {what}{', no bytecode' if args.no_bytecode else ''});"
          f" python -c pass: {bare * scale:.0f} {unit}")
    head = f"{'command':<30} {unit:>6} {'x bare':>7}"
    if args.baseline:
        head += f" {'baseline ' + unit:>12} {'x bare':>7} {'before/now':>11}"
    print(head)
    for name, _ in cmds:
        now = statistics.median(times[("now", name)])
        line = f"{name:<30} {now * scale:>6.0f} {now / bare:>7.1f}"
        if args.baseline:
            old = statistics.median(times[("baseline", name)])
            line += f" {old * scale:>12.0f} {old / bare:>7.1f} {old / now:>11.2f}"
        print(line, flush=True)
    for name in sorted(FAILED):
        print(f"warning: {name} exited with an error status", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
