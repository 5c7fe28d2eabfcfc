"""docs/europe1999-coverage.md names every Eur99 row of the capability matrix and only real cases."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reference_sources import SHARED

ROOT = Path(__file__).resolve().parent.parent
COVERAGE = ROOT / "docs" / "europe1999-coverage.md"
CASES = ROOT / "maps" / "europe1999" / "cases"
NEEDS = SHARED / "design" / "editions-needs.md"
ROW = re.compile(r"^\| ([A-G]\d\d) \|")


def _coverage_rows() -> dict[str, str]:
    rows = {}
    for line in COVERAGE.read_text(encoding="utf-8").splitlines():
        if m := ROW.match(line):
            rows[m.group(1)] = line.rstrip().rstrip("|").rsplit("|", 1)[1]
    return rows


def test_every_named_case_exists():
    ids = {
        m.group(1)
        for f in CASES.glob("*.txt")
        for m in re.finditer(r"^case (\S+):", f.read_text(encoding="utf-8"), re.M)
    }
    named = {c.strip() for cell in _coverage_rows().values() for c in cell.split(",") if c.strip()}
    assert named and named <= ids, sorted(named - ids)


def test_every_eur99_row_is_listed():
    if not NEEDS.is_file():
        pytest.skip(f"{NEEDS} is not beside the checkout")
    wanted = set()
    for line in NEEDS.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) > 5 and re.fullmatch(r"[A-G]\d\d", cells[1]) and cells[4] in ("✔", "opt"):
            wanted.add(cells[1])
    assert len(wanted) >= 53
    assert wanted <= set(_coverage_rows()), sorted(wanted - set(_coverage_rows()))
