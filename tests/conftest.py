"""Shared fixtures for the example-game and CLI tests."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

import helpers

from adjudicator.io import paths

ROOT = Path(__file__).resolve().parent.parent
# The user-level config directory (platformdirs: XDG on Linux) is an empty folder of the test
# run, for in-process commands and child processes alike: a developer's own
# ~/.config/pbem/mail.toml never leaks into a test.
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="pbem-test-config-")
EXAMPLE_DIR = paths.EXAMPLE_DIR          # through the resolver, like the package
assert EXAMPLE_DIR == ROOT / "turns" / "aa1941-example", "tests run from a checkout"
EXAMPLE_ORDERS = sorted((EXAMPLE_DIR / "orders").glob("*.txt"))
PUBLISHED_GAME = EXAMPLE_DIR / "game"


def snapshot(directory) -> dict[str, bytes]:
    """Every file under ``directory``, hidden ones included: relative path -> bytes."""
    directory = Path(directory)
    return {p.relative_to(directory).as_posix(): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.fixture(scope="session")
def regenerate():
    """scripts/regenerate_example.py, imported as a module."""
    return helpers.script("regenerate_example")


@pytest.fixture(autouse=True, scope="session")
def _pieces_take_no_stray_attributes():
    """A ``Piece`` is a plain dict class (built fast, every turn, twice): a stray
    ``piece.fought = True`` would pass silently where a per-turn mark belongs in
    ``Piece.marks``.  In the tests, setting anything but a declared field or property fails."""
    import attrs

    from adjudicator.engine.working import Piece
    allowed = {f.name for f in attrs.fields(Piece)} | {
        name for name, value in vars(Piece).items() if isinstance(value, property)}
    original = Piece.__setattr__

    def guarded(self, name, value):
        if name not in allowed:
            raise AttributeError(f"Piece has no field {name!r} (a mark for this turn goes in "
                                 "Piece.marks, a lasting one in Piece.flags)")
        original(self, name, value)

    Piece.__setattr__ = guarded
    yield
    Piece.__setattr__ = original


@pytest.fixture(autouse=True, scope="session")
def _tournament_announcements_in_words():
    """The tournament service's announcements get the presentation layer's words, as every
    ``pbem tournament`` command installs them (tests also call the service directly)."""
    from adjudicator.cli.tournament_writers import use_tournament_writers
    use_tournament_writers()


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    """A user's cache folder of the test's own (``io.usercache``), looked for afresh before
    and after."""
    from adjudicator.io import usercache
    folder = tmp_path / "cache"
    monkeypatch.setenv("PBEM_CACHE_DIR", str(folder))
    monkeypatch.delenv("PBEM_NO_CACHE", raising=False)
    usercache.forget()
    yield folder
    usercache.forget()
