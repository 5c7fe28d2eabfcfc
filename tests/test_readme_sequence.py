"""The README's "A game by email" block works exactly as written on a fresh machine, from
the built wheel.

The commands are read out of README.md (so the test follows the README) and run one by one
by a real shell, with HOME set to an empty folder (no ~/.ssh yet), no ssh-agent, no
terminal, in an empty folder, and ``pbem`` the entry point of the wheel built from this
checkout and installed elsewhere (tests/wheel_build.py).  The user brings nothing: the
orders the block checks and plays come from the installed package (``pbem demo
--copy-orders``)."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.wheel_build import ROOT, build_wheel, copy_sources, install_wheel

SECTION = "## A game by email"
PLACEHOLDERS = ("~/.ssh/pbem_gm", "mygame", "orders", "board.svg", "r1.html", "mine.txt",
                "copy-a", "copy-b", "ORDERS", "DIR", "POWER", "ADDRESS")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """(the folder with the installed ``pbem`` script, the install target)."""
    work = tmp_path_factory.mktemp("readme-wheel")
    wheel = build_wheel(copy_sources(work / "src"), work / "dist")
    target = work / "site"
    return install_wheel(wheel, target), target


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


def readme_section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split(SECTION, 1)[1].split("\n## ", 1)[0]


def test_readme_block_is_what_this_test_runs():
    commands = readme_commands()
    assert commands[0].startswith("pbem keys new ~/.ssh/")
    assert any(c.startswith("pbem process ") and "--key" not in c for c in commands)
    assert any(c.startswith("pbem demo --copy-orders ") for c in commands)
    assert any(c.startswith("pbem player set ") for c in commands)
    assert all(c.startswith(("pbem ", "cp ")) for c in commands)


def test_readme_explains_every_placeholder():
    section = readme_section()
    explained = section.split("```", 2)[2]
    for name in PLACEHOLDERS:
        assert f"`{name}`" in explained, name


def test_readme_links_resolve_inside_the_repository():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in text
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for doc in docs:
        for target in re.findall(r"\]\(([^)#\s]+)", doc.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue
            path = (doc.parent / target).resolve()
            assert path.is_relative_to(ROOT) and path.exists(), (doc.name, target)


def test_readme_game_by_email_on_a_fresh_machine(tmp_path, installed):
    scripts, site = installed
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    commands = readme_commands()
    env = {k: v for k, v in os.environ.items()
           if k not in ("SSH_AUTH_SOCK", "SSH_AGENT_PID", "PBEM_DEBUG", "PYTHONPATH")}
    env.update(HOME=str(home), COLUMNS="200", PYTHONPATH=str(site),
               PATH=str(scripts) + os.pathsep + env.get("PATH", ""))
    which = subprocess.run(["bash", "-c", "command -v pbem; python3 -c 'import adjudicator, "
                            "sys; print(adjudicator.__file__)'"],
                           cwd=work, env={**env, "PATH": str(scripts) + os.pathsep
                                          + str(Path(sys.executable).parent) + os.pathsep
                                          + env["PATH"]},
                           capture_output=True, text=True)
    assert which.stdout.splitlines()[0] == str(scripts / "pbem")
    assert Path(which.stdout.splitlines()[1]).is_relative_to(site)
    for command in commands:
        result = subprocess.run(["bash", "-c", command], cwd=work, env=env,
                                stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                timeout=300)
        assert result.returncode == 0, (command, result.stdout[-2000:], result.stderr)
        assert "Traceback" not in result.stderr

    ssh = home / ".ssh"
    key = next(p for p in ssh.iterdir() if p.suffix != ".pub")
    assert stat.S_IMODE(ssh.stat().st_mode) == 0o700
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    copies = {w for c in commands if c.startswith("pbem compare") for w in c.split()[2:4]}
    games = [p.parent for p in work.glob("*/game.json") if p.parent.name not in copies]
    assert len(games) == 1
    assert (games[0] / "turns" / "0001-ussr.json").is_file()
    assert (games[0] / "turns" / "0001-ussr.json.sig").is_file()
    assert "ivan@example.org" in (games[0] / "addresses.json").read_text()
    reports = [tok for c in commands for tok in c.split() if tok.endswith(".html")]
    assert reports and all((work / r).is_file() for r in reports)


def _doc_units(title: str) -> dict[str, tuple[int, int, int, int]]:
    """The unit table under ``### title`` in docs/rules.md."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    table = text.split(f"### {title}\n", 1)[1].split("\n#", 1)[0]
    rows = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[1].isdigit():
            rows[cells[0]] = tuple(int(c) for c in cells[1:])
    return rows


def test_rules_page_unit_tables_are_the_data():
    from adjudicator.service.games import load_game
    for edition, title in (("aa1941", "Axis & Allies 1941"), ("aa1942", "Axis & Allies Spring 1942")):
        units = load_game(edition).ruleset.units.values()
        data = {u.name: (u.cost, u.attack, u.defense, u.move) for u in units if u.buyable}
        doc = _doc_units(title)
        assert doc == {k: v for k, v in data.items() if k in doc}, edition
        assert set(data) - set(doc) <= {"Industrial Complex"}, edition
