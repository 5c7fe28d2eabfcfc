"""``tournament verify`` of a tournament recorded under one openskill/networkx version
passes under another.  The other versions are installed with pip into a folder put first on
PYTHONPATH of a child process (or taken from $PBEM_OTHER_LIBRARIES); the test skips, saying
so, when pip cannot fetch them.  The ratings use a model whose numbers differ between
openskill 6.0 and 6.2, so the version check of standings.json is exercised."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from adjudicator.service.tournament import organiser
from adjudicator.service.tournament.verify import verify_tournament

from tournament_helpers import START, make_tournament, scripted_orders, send

#: two released versions of each library; the child runs whichever is not installed here
VERSIONS = {"openskill": ("6.0.0", "6.2.0"), "networkx": ("3.0", "3.6.1")}
HOUR = dt.timedelta(hours=1)
CHILD = """
import datetime as dt, json, sys
from importlib.metadata import version
from adjudicator.service.tournament import organiser
from adjudicator.service.tournament.verify import verify_tournament
action, tdir = sys.argv[1], sys.argv[2]
if action == "pair":
    organiser.pair(tdir, dt.datetime.fromisoformat(sys.argv[3]))
elif action == "record":
    organiser.standings(tdir, record=True)
audit = verify_tournament(tdir)
print(json.dumps({"versions": {n: version(n) for n in ("openskill", "networkx")},
                  "problems": [str(p) for p in audit.problems], "notes": audit.notes}))
"""


def _other(name: str) -> str:
    a, b = VERSIONS[name]
    return b if version(name) == a else a


@pytest.fixture(scope="module")
def other_libraries(tmp_path_factory) -> Path:
    if os.environ.get("PBEM_OTHER_LIBRARIES"):
        return Path(os.environ["PBEM_OTHER_LIBRARIES"])
    target = tmp_path_factory.mktemp("other-libraries")
    wanted = [f"{name}=={_other(name)}" for name in VERSIONS]
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--target", str(target), *wanted],
                          capture_output=True, text=True, timeout=300)
    if done.returncode:
        pytest.skip(f"pip could not install {wanted}: {done.stderr.strip()[-300:]}")
    return target


def _under_other(libraries: Path, *args) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(libraries), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-c", CHILD, *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _play_round(tdir: Path, now: dt.datetime) -> dt.datetime:
    """Start the paired round; every game ends by the first player's concession."""
    organiser.start(tdir, now)
    for s in organiser.status(tdir, now):
        if s.state == "running":
            now += HOUR
            send(tdir, s.game, scripted_orders(tdir, s.game, concede=True), {}, s.player, now)
    return now + HOUR


def test_verify_passes_under_other_openskill_and_networkx(tmp_path, other_libraries):
    tdir, _private = make_tournament(tmp_path, 6, format__rounds="2",
                                     ratings__model='"thurstone_mosteller_part"')
    organiser.pair(tdir, START)
    now = _play_round(tdir, START + HOUR)
    child = _under_other(other_libraries, "pair", tdir, now.isoformat())   # round 2 there
    assert child["versions"] == {n: _other(n) for n in VERSIONS}
    assert child["problems"] == []
    _play_round(tdir, now + HOUR)
    organiser.standings(tdir, record=True)                                 # recorded here
    here = verify_tournament(tdir)
    assert here.ok and here.standings_checked and not here.notes, (here.problems, here.notes)
    child = _under_other(other_libraries, "verify", tdir)
    assert child["problems"] == [], child
    assert any("ratings were recorded with openskill" in n for n in child["notes"]), child

    _under_other(other_libraries, "record", tdir)                          # recorded there
    recorded = json.loads((tdir / "standings.json").read_text())
    assert recorded["ratings_library"] == f"openskill {_other('openskill')}"
    here = verify_tournament(tdir)
    assert here.ok, here.problems
    assert any(f"recorded with openskill {_other('openskill')}" in n for n in here.notes)
