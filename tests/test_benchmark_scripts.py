"""Every benchmark script still runs (at its smallest size), so the figures can be re-measured.

The scripts time nothing here: a benchmark is measured by running it by hand, never by a timed
test.  This only catches a script left behind by a change of the code it measures.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from adjudicator.io import paths

BENCHMARKS = paths.ROOT / "benchmarks"

# script, smallest arguments, a phrase its report must contain
RUNS = [
    ("bench_aa_factoring.py", ["--small"], "mixture / no-gun"),
    ("bench_audit.py", ["--turns", "3", "--short", "1", "--repeat", "1"], "replay ms/turn"),
    ("bench_editions.py", ["--repeat", "1"], "30v30 odds ms"),
    ("bench_issue11.py", ["--turns", "4", "--repeat", "1"], "pbem verify of 4 turns"),
    ("bench_issue24.py", ["--repeat", "1", "--only", "30v30", "--floor"], "rule functions alone"),
    ("bench_keepers.py", ["1"], "dice keepers"),
    ("bench_limits.py", ["1"], "slowest accepted file"),
    ("bench_mail.py", ["5"], "5 of 5 check requests answered"),
    ("bench_odds.py", ["--runs", "10", "--repeat", "1", "--max-size", "2"], "ms"),
    ("bench_parse.py", ["1"], "ms"),
    ("bench_startup.py", ["--repeat", "1"], "x bare"),
    ("bench_svg.py", ["1", "aa1942"], "ms"),
    ("bench_tournament.py", ["20", "5"], "ms"),
    ("bench_turn.py", ["1"], "ms"),
    ("bench_verify.py", ["--turns", "3", "--dice", "10", "--repeat", "1"], "ms"),
]


@pytest.mark.parametrize("script, args, phrase", RUNS, ids=[r[0] for r in RUNS])
def test_benchmark_script_runs(script, args, phrase):
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args], cwd=paths.ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert phrase in done.stdout, done.stdout[-2000:]


def test_every_benchmark_script_is_run_here():
    assert {p.name for p in BENCHMARKS.glob("bench_*.py")} <= {script for script, _, _ in RUNS}


@pytest.mark.skipif(not shutil.which("valgrind"), reason="needs valgrind")
def test_startup_instructions_run():
    """``bench_startup.py --instructions``: valgrind's instruction counts instead of CPU."""
    done = subprocess.run([sys.executable, str(BENCHMARKS / "bench_startup.py"), "--instructions",
                           "--only", "version"], cwd=paths.ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "instructions (M" in done.stdout and "--version" in done.stdout, done.stdout[-2000:]
