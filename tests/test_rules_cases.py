"""Rules conformance as data: every case in maps/<edition>/cases/ (format:
adjudicator/io/rules_cases.py), run against the engine, one test per case."""

from __future__ import annotations

import pytest

from adjudicator import editions
from adjudicator.io.rules_cases import parse_cases
from adjudicator.model.errors import DataError
from adjudicator.service.rules_cases import edition_cases, run_case

CASES = [(name, case) for name in editions.names() for case in edition_cases(name)]


@pytest.mark.parametrize("edition,case", CASES, ids=[c.name for _, c in CASES])
def test_rules_case(edition, case):
    result = run_case(case, edition)
    assert result.ok, f"{case.where} {case.title}:\n  " + "\n  ".join(result.failures)


def test_every_edition_has_cases():
    counts = {name: sum(1 for e, _ in CASES if e == name) for name in editions.names()}
    assert all(counts.values()), counts


def test_a_failing_expectation_is_reported():
    """The runner can fail: a case expecting the wrong outcome is reported with its line."""
    (case,) = parse_cases("""
case wrong: infantry cannot move two spaces
power ussr
orders:
combat:
move 3 inf Archangel -> Karelia -> Eastern Europe
end
expect valid
""", "inline")
    result = run_case(case, "aa1941")
    assert not result.ok and "path_too_long" in result.failures[0]


@pytest.mark.parametrize("text,message", [
    ("expect valid", "expected 'case NAME: title' first"),
    ("case x: y\nexpect nothing", "unknown expectation 'nothing'"),
    ("case x: y\norders:\nbuy 1 inf", "orders: without 'end'"),
    ("case x: y\nround two\nexpect valid", "round takes a number"),
    ("case x: y", "expects nothing"),
])
def test_bad_case_files_say_where(text, message):
    with pytest.raises(DataError, match=message):
        parse_cases(text, "bad.txt")
