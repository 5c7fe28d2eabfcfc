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
