"""The README's dice-keeper block ("A game with no game master") works as written on a fresh
machine: two players' keys, the join, the host's game, the status, Al's orders signed with
ssh-keygen and played by their keeper, Al's copy verified.  Like test_readme_sequence, the
commands are read out of README.md and run by a real shell with an empty HOME."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.io.paths import EXAMPLE_DIR
from test_readme_sequence import ROOT, readme_commands  # noqa: F401 - ROOT documents the source

SECTION = "## A game with no game master: dice keepers"


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")
def test_readme_keeper_block_on_a_fresh_machine(tmp_path, monkeypatch):
    import test_readme_sequence
    monkeypatch.setattr(test_readme_sequence, "SECTION", SECTION)
    commands = readme_commands()
    assert commands[0].startswith("pbem keys new") and commands[-1].startswith("pbem verify")
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    # the orders Al writes: the example's Soviet turn, with the headers signed orders need
    (work / "ussr-r1.txt").write_bytes(b"game: club1\nturn: 1\n"
                                       + (EXAMPLE_DIR / "orders" / "01-ussr.txt").read_bytes())
    env = {k: v for k, v in os.environ.items()
           if k not in ("SSH_AUTH_SOCK", "SSH_AGENT_PID", "PBEM_DEBUG")}
    env.update(HOME=str(home), COLUMNS="200",
               PATH=str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", ""))
    outputs = []
    for command in commands:
        result = subprocess.run(["bash", "-c", command], cwd=work, env=env,
                                stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                timeout=300)
        assert result.returncode == 0, (command, result.stdout[-2000:], result.stderr)
        assert "Traceback" not in result.stderr
        outputs.append(result.stdout)
    status = " ".join(outputs[commands.index(next(c for c in commands
                                                  if c.startswith("pbem keeper status")))].split())
    assert "Soviet Union kept by Germany" in status and "(you)" in status
    verify = " ".join(outputs[-1].split())
    assert "Hosted by" in verify and "OK" in verify
    assert (work / "al" / "club1" / "turns" / "0001-ussr.json").is_file()
