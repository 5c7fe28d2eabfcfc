"""Build the project's wheel from a copy of the sources (as ``pip install .`` would) and
install it, without its dependencies, into a folder: the package as a user gets it, with
the ``pbem`` entry point pip writes.  Shared by tests/test_install.py and the README
walk-through (tests/test_readme_sequence.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from adjudicator.io import paths

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE")
PACKAGE_DIRS = ("adjudicator", *paths.DATA_FOLDERS)


def copy_sources(src: Path) -> Path:
    """The files a wheel is built from, copied to ``src`` (no caches, no stale data/)."""
    src.mkdir(parents=True)
    for name in SOURCES:
        shutil.copy2(ROOT / name, src / name)
    for name in PACKAGE_DIRS:
        shutil.copytree(ROOT / name, src / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "data"))
    return src


def build_wheel(src: Path, dist: Path) -> Path:
    """``pip wheel`` of ``src`` (with build isolation, as ``pip install .``) into ``dist``."""
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir",
         str(dist), str(src)],
        capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    wheels = list(dist.glob("pbem_adjudicator-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def install_wheel(wheel: Path, target: Path) -> Path:
    """``pip install --target`` of the wheel alone (its dependencies come from this
    environment); returns the folder holding the installed ``pbem`` script.  Run it with
    ``PYTHONPATH=target``."""
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--target", str(target), str(wheel)],
        capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    scripts = target / "bin"
    assert (scripts / "pbem").is_file(), sorted(p.name for p in target.iterdir())
    return scripts
