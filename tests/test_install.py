"""Installing like any Python tool: the built wheel ships grammar/, maps/ and turns/ as
package data, the resolver (adjudicator/io/paths.py) finds them in a checkout and in an
installed package, and ``pbem --version`` / ``python -m adjudicator`` work.

The wheel is built here (not only in CI's wheel round) so that a broken build fails the
tests.  Building runs pip with build isolation, as ``pip install .`` does."""

from __future__ import annotations

import email
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import adjudicator
from adjudicator.cli import main
from adjudicator.io import paths
from adjudicator.service.games import load_game

from tests.wheel_build import ROOT, build_wheel, copy_sources


def data_files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` that should ship: relative path -> bytes (hidden
    entries and caches never ship)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(part.startswith(".") or part == "__pycache__" for part in rel.parts):
            continue
        if path.is_file() and path.suffix != ".pyc":
            out[rel.as_posix()] = path.read_bytes()
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """(the wheel, the source copy it was built from).  The copy carries a planted
    ``.secret/`` folder in the example game, which must not ship."""
    work = tmp_path_factory.mktemp("wheel")
    src = copy_sources(work / "src")
    secret = src / "turns" / "aa1941-example" / "game" / ".secret"
    secret.mkdir(exist_ok=True)
    (secret / "gm_ed25519").write_text("not for publication\n")
    return build_wheel(src, work / "dist"), src


def test_wheel_ships_every_data_file_byte_for_byte(built):
    wheel, src = built
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        for folder in paths.DATA_FOLDERS:
            expected = data_files(src / folder)
            assert expected, folder
            for rel, data in expected.items():
                member = f"adjudicator/data/{folder}/{rel}"
                assert member in names, member
                assert zf.read(member) == data, member
        shipped = {n for n in names if n.startswith("adjudicator/data/")}
        assert len(shipped) == sum(len(data_files(src / f)) for f in paths.DATA_FOLDERS)
        assert not [n for n in names if ".secret" in n]
        assert "adjudicator/__main__.py" in names


def test_wheel_metadata_and_entry_point(built):
    wheel, _ = built
    with zipfile.ZipFile(wheel) as zf:
        dist_info = next(n.split("/")[0] for n in zf.namelist() if ".dist-info/" in n)
        meta = email.message_from_bytes(zf.read(f"{dist_info}/METADATA"))
        entry_points = zf.read(f"{dist_info}/entry_points.txt").decode()
    assert meta["Version"] == adjudicator.__version__
    assert "pbem = adjudicator.cli:main" in entry_points
    assert meta["License-Expression"] == "MIT"                # SPDX, not the license table
    assert meta.get_all("License-File") == ["LICENSE"]
    assert "keyring" in meta.get_all("Provides-Extra")
    assert not [r for r in meta.get_all("Requires-Dist") if r.startswith("keyring")
                and "extra ==" not in r]                      # keyring is optional


def test_wheel_ships_license_and_type_marker(built):
    wheel, src = built
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        dist_info = next(n.split("/")[0] for n in names if ".dist-info/" in n)
        assert zf.read(f"{dist_info}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()
        assert "adjudicator/py.typed" in names


def test_public_api_is_typed():
    """``adjudicator.adjudicate`` is the engine's entry point, annotated for type checkers."""
    import inspect

    from adjudicator.engine.turn import adjudicate
    assert adjudicator.adjudicate is adjudicate
    assert (Path(adjudicator.__file__).parent / "py.typed").is_file()
    hints = inspect.get_annotations(adjudicate)
    assert set(hints) == {"game", "state", "orders", "dice", "return"}
    with pytest.raises(AttributeError):
        adjudicator.no_such_name  # noqa: B018


def test_unpacked_wheel_runs_from_anywhere(built, tmp_path):
    """The wheel unpacked as pip would (site-packages = a folder on the path), run from an
    unrelated directory: the data comes from the package, not from this checkout."""
    wheel, _ = built
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(site)

    def run(*args):
        return subprocess.run([sys.executable, *args], cwd=elsewhere, env=env,
                              capture_output=True, text=True, timeout=300)

    probe = run("-c", "import adjudicator.io.paths as p; "
                      "print(p.__file__); print(p.MAPS_DIR); print(p.GRAMMAR_DIR); "
                      "print(p.EXAMPLE_DIR)")
    assert probe.returncode == 0, probe.stderr
    lines = probe.stdout.splitlines()
    assert all(Path(line).is_relative_to(site) for line in lines), lines
    assert Path(lines[1]) == site / "adjudicator" / "data" / "maps"
    result = run("-m", "adjudicator", "demo", "--turns", "1", "--out", str(elsewhere / "demo"))
    assert result.returncode == 0, result.stderr
    assert (elsewhere / "demo" / "turns" / "0001-ussr.json").is_file()
    result = run("-m", "adjudicator", "--version")
    assert result.returncode == 0 and result.stdout.strip() == f"pbem {adjudicator.__version__}"


def test_pip_install_compiles_every_module(built, tmp_path):
    """``pip install`` of the wheel leaves a ``.pyc`` beside every module, also with
    ``PYTHONDONTWRITEBYTECODE`` set (the sessions set it): the first run of an installed
    ``pbem`` compiles nothing (issue 24: without bytecode a command takes 2-4 times as long;
    benchmarks/README.md)."""
    wheel, _ = built
    target = tmp_path / "site"
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--target", str(target), str(wheel)],
        capture_output=True, text=True, timeout=600, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    modules = sorted((target / "adjudicator").rglob("*.py"))
    assert len(modules) > 100
    tag = sys.implementation.cache_tag
    missing = [m for m in modules
               if not (m.parent / "__pycache__" / f"{m.stem}.{tag}.pyc").is_file()]
    assert not missing, [str(m.relative_to(target)) for m in missing[:5]]


def test_checkout_reads_the_top_level_folders():
    """In a checkout (editable install) the single source is the repository's folders."""
    assert paths.MAPS_DIR == ROOT / "maps"
    assert paths.GRAMMAR_DIR == ROOT / "grammar"
    assert paths.TURNS_DIR == ROOT / "turns"
    assert (paths.EXAMPLE_DIR / "orders").is_dir()
    assert not (ROOT / "adjudicator" / "data").exists()   # no second copy in the tree


def test_resolver_rejects_unknown_folders():
    with pytest.raises(ValueError, match="unknown data folder"):
        paths.data_dir("secrets")


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"pbem {adjudicator.__version__}"


def test_python_dash_m(tmp_path):
    result = subprocess.run([sys.executable, "-m", "adjudicator", "rules"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    game = load_game("aa1941")
    assert game.ruleset.title in result.stdout and game.content_hash in result.stdout


def test_changelog_and_license_cover_this_release():
    """Each release has a CHANGELOG section (and constraints/VERSION.txt, checked in
    tests/test_dependency_bounds.py); the license file is the MIT text pyproject names."""
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## [{adjudicator.__version__}]" in changelog
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
