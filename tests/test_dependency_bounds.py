"""The declared dependency bounds stay honest: constraints/lowest.txt pins exactly
pyproject's lower bounds (CI's lowest-versions leg installs it and runs the audit tests), the
libraries whose numbers or bytes an audit replays have an upper bound below their next major,
and the current release has a constraints (lock) file within those bounds."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import helpers
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

import adjudicator

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
RUNTIME = {canonicalize_name(r.name): r for r in map(Requirement, PYPROJECT["dependencies"])}
OPTIONAL = {canonicalize_name(r.name): r
            for r in map(Requirement, PYPROJECT["optional-dependencies"]["keyring"])}
#: what an audit replays: state-file bytes (cattrs), order parsing (lark), odds (numpy),
#: pairings (networkx), ratings (openskill)
AUDITED = ("cattrs", "lark", "numpy", "networkx", "openskill")


def _pins(path: Path) -> dict[str, Version]:
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"{path.name}: {line!r} is not name==version"
            pins[canonicalize_name(name)] = Version(version)
    return pins


def _floor(req: Requirement) -> Version:
    floors = [Version(s.version) for s in req.specifier if s.operator == ">="]
    assert len(floors) == 1, f"{req}: one '>=' lower bound"
    return floors[0]


def test_every_dependency_has_a_lower_bound_and_lowest_txt_pins_it():
    lowest = _pins(ROOT / "constraints" / "lowest.txt")
    assert set(lowest) == set(RUNTIME)
    for name, req in RUNTIME.items():
        assert lowest[name] == _floor(req), name


@pytest.mark.parametrize("name", AUDITED)
def test_audited_libraries_are_bounded_below_their_next_major(name):
    uppers = [Version(s.version) for s in RUNTIME[name].specifier if s.operator == "<"]
    assert uppers, f"{name} has no upper bound"
    assert uppers[0] > _floor(RUNTIME[name])


def test_keyring_is_optional():
    assert "keyring" not in RUNTIME and "keyring" in OPTIONAL


def test_the_release_has_a_lock_file_within_the_bounds():
    lock = _pins(ROOT / "constraints" / f"{adjudicator.__version__}.txt")
    for name, req in {**RUNTIME, **OPTIONAL}.items():
        assert name in lock, f"{name} is not pinned"
        assert req.specifier.contains(lock[name]), f"{name}=={lock[name]} is outside {req}"


def test_cattrs_floor_has_what_the_codec_calls():
    """io/codec.py's newest cattrs call (25.2): present in whatever cattrs is installed."""
    from cattrs.cols import homogenous_tuple_structure_factory
    assert callable(homogenous_tuple_structure_factory)
    assert _floor(RUNTIME["cattrs"]) >= Version("25.2")


def test_lock_script_finds_every_run_time_dependency():
    """scripts/lock_constraints.py walks the installed requirements: every declared
    dependency (and the keyring extra) is in what it would pin, test tools are not."""
    module = helpers.script("lock_constraints")
    pins = module.runtime_closure()
    assert set(RUNTIME) | set(OPTIONAL) <= set(pins)
    assert "pytest" not in pins and "hypothesis" not in pins
    text = module.render("9.9.9", {"lark": "1.2.3"})
    assert text.splitlines()[-1] == "lark==1.2.3" and "constraints/9.9.9.txt" in text
