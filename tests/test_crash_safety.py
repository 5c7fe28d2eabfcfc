"""No crash leaves a game stuck (issue 8).

``pbem process`` runs in a forked child that is killed (``os._exit``, no clean-up) just
before, and in a second run just after, each file-system call it makes -- every one of
them, counted through the facade ``adjudicator.io.fs`` (in a fresh subprocess, as at one
call before and one after: ``PBEM_CRASH_BEFORE`` / ``PBEM_CRASH_AFTER``).  After each
crash the next ``pbem process`` with the same orders either says the turn is done or
completes it, ``pbem verify`` passes, and the published
files are byte for byte those of a run that never crashed.

Issue 20: the same with ``KeyboardInterrupt`` (Ctrl-C) and ``OSError(EIO)`` raised at
every one of those calls, before and after it (``PBEM_CRASH_RAISE``): the program's own
clean-up runs then, and must leave a game the next ``pbem process`` finishes -- rolled
forward once the turn file is linked, rolled back before.

Both publication paths are crashed: the game master's, and a dice keeper's (issue 12: a
game without a game master, Germany's turn processed in the copy of the player who keeps
its dice, with that player's key and seed file ``.secret/next-seed-uk``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

from adjudicator.cli import main
from adjudicator.io import fs, hmac_dice, layout, turnfile
from adjudicator.service.games import load_game
from adjudicator.service import gamedir
from adjudicator.service.audit import verify_game
from adjudicator.cli.common import EXIT_INPUT, EXIT_INTERRUPTED
from conftest import EXAMPLE_ORDERS

GAME_ID = "crash-test"
ORDERS = EXAMPLE_ORDERS[1]          # Germany's turn: fights three battles
RUN = "import sys; from adjudicator.cli import main; sys.exit(main())"


def game_master_template(base: Path) -> tuple[Path, list[str], str]:
    """(a game after the Soviet turn, the extra process arguments, the seed file that
    must open the last turn's next commitment)."""
    template = base / "template"
    game = load_game("aa1941")
    seeds = gamedir.demo_seeds(GAME_ID)
    gamedir.create_game(template, game, GAME_ID, created="2026-01-01", seeds=seeds)
    gamedir.process_turn(template, game, EXAMPLE_ORDERS[0].read_bytes(), seeds=seeds)
    return template, [str(ORDERS)], layout.SEED_FILE


def keeper_template(base: Path) -> tuple[Path, list[str], str]:
    """A game without a game master after the Soviet turn: Al's copy, who keeps Germany's
    dice as the UK, and Bea's signed German orders."""
    from keeper_helpers import keeper_game, play_turns, signed_orders
    dirs = keeper_game(base / "players")
    play_turns(base / "players", dirs, 1)
    text, sig = signed_orders(base / "players", "bea", 2, ORDERS)
    (base / "germany.txt").write_bytes(text)
    (base / "germany.txt.sig").write_text(sig)
    return dirs["al"], [str(base / "germany.txt"), "--signature",
                        str(base / "germany.txt.sig")], layout.seed_file("uk")


SCENARIOS = {"game master": game_master_template, "dice keeper": keeper_template}


def published(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes()
            for p in sorted(directory.rglob("*"))
            if p.is_file() and layout.SECRET_DIR not in p.parts}


MODES = ("exit", *fs.RAISE_MODES)      # os._exit, KeyboardInterrupt, OSError(EIO)


def pbem_subprocess(directory: Path, args: list[str], mode: str = "exit",
                    **crash) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update({f"PBEM_CRASH_{k.upper()}": str(v) for k, v in crash.items()})
    if mode != "exit":
        env["PBEM_CRASH_RAISE"] = mode
    env["COLUMNS"] = "200"
    return subprocess.run([sys.executable, "-c", RUN, "process", *args, "-g",
                           str(directory), "--demo-seeds"], env=env, capture_output=True,
                          text=True, timeout=120)


def pbem_forked(directories: list[Path], args: list[str], when: str,
                ns: range) -> list[tuple[int, bool, str]]:
    """``pbem process`` in forked children of this process, one per directory, the one
    for ``n`` killed by ``os._exit`` (no clean-up) {when} file-system call ``n``: the crash
    of a subprocess, run side by side, without a fresh interpreter's start-up per crash
    point.  (exit code, crashed, stderr) of each; ``pbem_subprocess`` crashes the same way
    through the environment (checked in the test)."""
    pids = []
    for directory, n in zip(directories, ns):
        log = directory.with_name(directory.name + ".log")
        pid = os.fork()
        if pid == 0:                                 # the child: never returns
            code = 70
            try:
                fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                os.dup2(fd, 1)
                os.dup2(fd, 2)
                sys.stdout = sys.stderr = open(2, "w", buffering=1, closefd=False)
                os.environ["COLUMNS"] = "200"
                fs._calls, fs._raise, fs._raised = 0, "", False
                fs._before, fs._after = (n, 0) if when == "before" else (0, n)
                code = main(["process", *args, "-g", str(directory), "--demo-seeds"])
                sys.stdout.flush()
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(code)
        pids.append((pid, log))
    runs = []
    for pid, log in pids:
        code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        runs.append((code, code == fs.CRASH_STATUS, log.read_text(errors="replace")))
        log.unlink()
    return runs


@pytest.fixture(scope="module", params=sorted(SCENARIOS))
def scenario(request, tmp_path_factory):
    """A game after the Soviet turn (the template), and the files a clean German turn
    publishes (the reference)."""
    base = tmp_path_factory.mktemp("crash")
    template, args, seed_name = SCENARIOS[request.param](base)
    clean = base / "clean"            # published_reference() reads it
    shutil.copytree(template, clean, symlinks=True)
    result = pbem_subprocess(clean, args)
    assert result.returncode == 0, result.stderr
    return template, published(clean), base, args, seed_name


def disk_state(directory: Path) -> tuple:
    """Every file (name, mode, bytes), .secret/ included, with the random part of temporary
    names masked: two crashes that leave the same disk state (after call N = before call
    N+1, or around an fsync) are one case."""
    return tuple((re.sub(r"\.[0-9a-f]{8}\.tmp$", ".*.tmp", p.relative_to(directory).as_posix()),
                  p.stat().st_mode, p.read_bytes())
                 for p in sorted(directory.rglob("*")) if p.is_file())


def published_reference(base: Path) -> dict[str, bytes]:
    return published(base / "clean")


def recover_and_check(directory: Path, capsys, where: str, args: list[str], seed_name: str) -> str:
    """The next pbem process after a crash: done or completed, then everything verifies."""
    code = main(["process", *args, "-g", str(directory), "--demo-seeds"])
    out = capsys.readouterr()
    assert code == 0, f"{where}: {out.out}{out.err}"
    text = " ".join(out.out.split())
    outcome = "done" if "turn 2 (germany) was already processed" in text else "completed"
    report = verify_game(directory, load_game)
    assert report.ok, f"{where}: {report.failure}"
    assert report.turns_checked == 2 == report.turns_replayed
    assert not [p for p in directory.rglob("*.tmp")], where
    last, _ = turnfile.read_turn_file(layout.list_turns(directory)[-1][2])
    seed = (directory / layout.SECRET_DIR / seed_name).read_text().strip()
    assert hmac_dice.commitment(bytes.fromhex(seed)) == last.next_commitment, where
    return outcome


def pbem_in_process(directory: Path, args: list[str], mode: str, capsys,
                    monkeypatch, **crash) -> tuple[int, bool, str]:
    """``pbem process`` in this process, raising ``mode`` (KeyboardInterrupt or EIO) at the
    call ``crash`` names: the program's own clean-up runs, as under Ctrl-C or a failing disk,
    without a fresh interpreter's start-up per crash point.  (exit code, raised, stderr)"""
    monkeypatch.setattr(fs, "_calls", 0)
    monkeypatch.setattr(fs, "_before", crash.get("before", 0))
    monkeypatch.setattr(fs, "_after", crash.get("after", 0))
    monkeypatch.setattr(fs, "_raise", mode)
    monkeypatch.setattr(fs, "_raised", False)
    code = main(["process", *args, "-g", str(directory), "--demo-seeds"])
    raised = fs._raised
    monkeypatch.setattr(fs, "_before", 0)
    monkeypatch.setattr(fs, "_after", 0)
    out = capsys.readouterr()
    return code, raised, out.out + out.err


def crash_runs(template: Path, base: Path, when: str, args: list[str],
               mode: str = "exit", capsys=None, monkeypatch=None) -> tuple[int, dict[int, Path]]:
    """Run ``pbem process`` crashing {when} call 1, 2, ... until a run gets past the last
    call.  Returns (number of calls, crashed directories by N).  ``mode``: how it crashes
    (``MODES``): ``exit`` kills a forked child (in parallel batches); a raised exception runs
    in this process and must end the run with a plain message (Ctrl-C: the interrupted
    status; EIO: an error), never a traceback."""
    workers = max(2, os.cpu_count() or 2) if mode == "exit" else 1
    crashed: dict[int, Path] = {}
    first = 1
    while True:
        batch = range(first, first + workers)
        for n in batch:
            shutil.copytree(template, base / f"{mode}-{when}-{n}", symlinks=True)
        if mode == "exit":
            runs = pbem_forked([base / f"{mode}-{when}-{n}" for n in batch], args, when, batch)
        else:
            runs = [pbem_in_process(base / f"{mode}-{when}-{n}", args, mode, capsys,
                                    monkeypatch, **{when: n}) for n in batch]
        for n, (code, hit, text) in zip(batch, runs):
            if mode != "exit":    # the exception may be absorbed (exit 0) by a best-effort step
                assert code in (0, EXIT_INTERRUPTED, EXIT_INPUT), text
            if hit:
                assert "Traceback" not in text
                assert "internal error" not in text
                crashed[n] = base / f"{mode}-{when}-{n}"
                continue
            assert code == 0, text      # n is past the last call
            assert published(base / f"{mode}-{when}-{n}") == published_reference(base)
            assert sorted(crashed) == list(range(1, n))
            return n - 1, crashed
        first += workers


@pytest.mark.parametrize("mode", MODES)
def test_a_crash_at_any_file_system_call_never_leaves_the_game_stuck(scenario, mode, capsys,
                                                                    monkeypatch):
    template, reference, base, args, seed_name = scenario
    outcomes, seen, calls = {}, {}, {}
    for when in ("before", "after"):
        calls[when], crashed = crash_runs(template, base, when, args, mode, capsys, monkeypatch)
        if mode == "exit":    # the environment's crash point, in a fresh interpreter: the same
            n = (calls[when] + 1) // 2
            fresh = base / f"subprocess-{when}-{n}"
            shutil.copytree(template, fresh, symlinks=True)
            assert pbem_subprocess(fresh, args, **{when: n}).returncode == fs.CRASH_STATUS
            assert disk_state(fresh) == disk_state(crashed[n]), f"{when} call {n}"
            shutil.rmtree(fresh)
        for n, directory in sorted(crashed.items()):
            state = disk_state(directory)
            if state not in seen:       # the same state recovers the same way: check once
                where = f"{mode} {when} call {n}"
                seen[state] = recover_and_check(directory, capsys, where, args, seed_name)
                assert published(directory) == reference, where
            outcomes[(when, n)] = seen[state]
            shutil.rmtree(directory)
    # every call was a crash point, before and after, and both outcomes occurred
    assert calls["before"] == calls["after"] >= 20
    print(f"{calls['before']} file-system calls, {2 * calls['before']} crash points, "
          f"{len(seen)} distinct states after a crash")
    assert len(outcomes) == 2 * calls["before"]
    assert set(outcomes.values()) == {"done", "completed"}
    # the turn is published exactly when the crash came after the turn file's link
    done = sorted(n for (when, n), o in outcomes.items() if when == "before" and o == "done")
    assert done == list(range(done[0], calls["before"] + 1))


def test_a_half_published_turn_is_rolled_back_not_stuck(scenario, capsys):
    """The stuck state of issue 8: the orders file and the signature were renamed into
    place, the turn file was not.  verify explains it; the next process repairs it."""
    template, reference, base, args, seed_name = scenario
    directory = base / "half"
    shutil.copytree(template, directory, symlinks=True)
    (directory / "orders" / "0002-germany.txt").write_bytes(Path(args[0]).read_bytes())
    (directory / "turns" / "0002-germany.json.sig").write_text("half\n")
    (directory / "turns" / ".0002-germany.json.1234abcd.tmp").write_text("{")
    report = verify_game(directory, load_game)
    assert report.failure.check == "files"
    assert re.search(r"interrupted.*next 'pbem process' rolls it back", report.failure.detail)
    assert recover_and_check(directory, capsys, "half-published", args,
                             seed_name) == "completed"
    assert published(directory) == reference
