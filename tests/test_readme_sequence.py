"""The README's "A game by email" block works exactly as written on a fresh machine.

The commands are read out of README.md (so the test follows the README) and run one by one
by a real shell, with HOME set to an empty folder (no ~/.ssh yet), no ssh-agent, no
terminal, and ``pbem`` from this environment.  The only file a user brings is the orders
file the block names; it is the bundled example's Soviet orders."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from adjudicator.io.paths import EXAMPLE_DIR

ROOT = Path(__file__).resolve().parent.parent
SECTION = "## A game by email"


def readme_commands() -> list[str]:
    """The commands of the first ``sh`` block under the section, comments removed."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split(SECTION, 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    commands = []
    for line in block.splitlines():
        command = re.split(r"\s+#", line, maxsplit=1)[0].strip()
        if command and not command.startswith("#"):
            commands.append(command)
    return commands


def test_readme_block_is_what_this_test_runs():
    commands = readme_commands()
    assert commands[0].startswith("pbem keys new ~/.ssh/")
    assert any(c.startswith("pbem process ") and "--key" not in c for c in commands)
    assert all(c.startswith("pbem ") for c in commands)


def test_readme_game_by_email_on_a_fresh_machine(tmp_path):
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    commands = readme_commands()
    orders_files = {tok for c in commands if c.split()[1] in ("check", "process")
                    for tok in c.split() if tok.endswith(".txt")}
    for name in orders_files:   # what the player mailed: the example's first orders
        shutil.copy(EXAMPLE_DIR / "orders" / "01-ussr.txt", work / name)

    env = {k: v for k, v in os.environ.items()
           if k not in ("SSH_AUTH_SOCK", "SSH_AGENT_PID", "PBEM_DEBUG")}
    env.update(HOME=str(home), COLUMNS="200",
               PATH=str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", ""))
    copies: set[str] = set()
    for command in commands:
        words = command.split()
        if words[1] == "compare":     # two copies of the game the player received
            copies.update(words[2:4])
            for copy in words[2:4]:
                if not (work / copy).exists():
                    game = next(p.parent for p in work.glob("*/game.json"))
                    shutil.copytree(game, work / copy, ignore=shutil.ignore_patterns(".secret"))
        result = subprocess.run(["bash", "-c", command], cwd=work, env=env,
                                stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                timeout=300)
        assert result.returncode == 0, (command, result.stdout[-2000:], result.stderr)
        assert "Traceback" not in result.stderr

    ssh = home / ".ssh"
    key = next(p for p in ssh.iterdir() if p.suffix != ".pub")
    assert stat.S_IMODE(ssh.stat().st_mode) == 0o700
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    games = [p.parent for p in work.glob("*/game.json") if p.parent.name not in copies]
    assert len(games) == 1
    assert (games[0] / "turns" / "0001-ussr.json").is_file()
    assert (games[0] / "turns" / "0001-ussr.json.sig").is_file()
    reports = [tok for c in commands for tok in c.split() if tok.endswith(".html")]
    assert reports and all((work / r).is_file() for r in reports)
