"""docs/global1940-coverage.md names every G40 row of the capability matrix, only real cases,
and cases that pass; its count of rows done is the table's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.service.rules_cases import edition_cases, run_case
from reference_sources import SHARED

ROOT = Path(__file__).resolve().parent.parent
COVERAGE = ROOT / "docs" / "global1940-coverage.md"
NEEDS = SHARED / "design" / "editions-needs.md"
ROW = re.compile(r"^\| ([A-G]\d\d) \|")
STATUSES = ("done", "partly", "research")


def _rows() -> dict[str, list[str]]:
    """Row id -> its cells (capability, status, where, cases)."""
    rows = {}
    for line in COVERAGE.read_text(encoding="utf-8").splitlines():
        if m := ROW.match(line):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            rows[m.group(1)] = cells[1:]
    return rows


def _cases(cell: str) -> list[str]:
    return [c.strip() for c in cell.split(",") if c.strip()]


def test_every_row_has_a_status_and_cases():
    rows = _rows()
    assert rows
    for row, (_, status, where, cases) in rows.items():
        assert status in STATUSES, row
        if status == "research":
            assert "engine/research.py" in where, f"{row}: name the optional rule's module"
        assert _cases(cases), f"{row} names no case"
        if status == "partly":
            assert "not built" in where, f"{row}: say what is not built"


def test_the_count_is_the_tables():
    statuses = [cells[1] for cells in _rows().values()]
    text = COVERAGE.read_text(encoding="utf-8")
    done, partly = statuses.count("done"), statuses.count("partly")
    required = done + partly
    assert f"**{done} of {required} required rows done, {partly} partly; the " \
           f"{statuses.count('research')} optional rows are research.**" in text


def test_every_named_case_exists_and_passes():
    cases = {c.name: c for c in edition_cases("global1940")}
    named = {c for cells in _rows().values() for c in _cases(cells[3])}
    assert named and named <= set(cases), sorted(named - set(cases))
    failed = {}
    for name in sorted(named):
        result = run_case(cases[name], "global1940")
        if not result.ok:
            failed[name] = result.failures
    assert not failed, failed


def test_every_g40_row_is_listed():
    if not NEEDS.is_file():
        pytest.skip(f"{NEEDS} is not beside the checkout")
    wanted = {}
    for line in NEEDS.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 6 and re.fullmatch(r"[A-G]\d\d", cells[1]) and cells[5] in ("✔", "opt"):
            wanted[cells[1]] = cells[5]
    assert len(wanted) == 89
    rows = _rows()
    assert set(wanted) == set(rows), sorted(set(wanted) ^ set(rows))
    # the optional rows are the research ones; no required row is left to research
    assert {r for r, kind in wanted.items() if kind == "opt"} == \
        {r for r, cells in rows.items() if cells[1] == "research"}
