"""Every key of tournament.toml is documented once, in the template ``pbem tournament new``
writes, and docs/tournament.md's "Every setting" table is that documentation."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from adjudicator.model.errors import PbemError
from adjudicator.service.tournament import config

DOCS = Path(__file__).resolve().parent.parent / "docs" / "tournament.md"


def test_the_docs_table_is_the_templates_documentation():
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("| key | default | meaning |")
    end = text.find("\n\n", start)
    assert text[start:None if end < 0 else end + 1] == config.docs_table(), (
        "docs/tournament.md's 'Every setting' table differs from the tournament.toml "
        "template's comments: paste config.docs_table() into it")


def test_every_known_key_is_in_the_template_with_a_meaning():
    table = config.docs_table()
    for section, names in config.KNOWN_KEYS.items():
        for name in names:
            if name in config.KNOWN_KEYS or name == "options":
                assert f"| **`[{name}]`** |" in table, name
                continue
            key = f"{section}.{name}" if section else name
            row = next((r for r in table.splitlines() if r.startswith(f"| `{key}` |")), None)
            assert row is not None, key
            assert row.rsplit("|", 2)[1].strip(), f"{key} has no meaning"


def _parse(extra: str):
    base = 'name = "Cup"\nid = "cup"\nruleset = "aa1941"\n'
    return config.parse_config(config._dates_as_text(tomllib.loads(base + extra)))


def test_schedule_and_report_url_are_read_and_checked():
    cfg = _parse('report_url = "https://league.example/{tournament}/{game}/report.html"\n'
                 '[schedule]\nstart = 2026-03-02\nround_days = 14\n')
    assert cfg.schedule.start.isoformat() == "2026-03-02T00:00:00+00:00"
    assert cfg.schedule.round_days == 14
    assert _parse('[schedule]\nstart = "2026-03-02T18:30Z"\n').schedule.start.hour == 18
    assert _parse("").schedule.start is None and _parse("").report_url == ""
    for bad, why in (('[schedule]\nstart = "next monday"\n', "schedule.start"),
                     ('[schedule]\nstart = "2026-03-02T18:30"\n', "UTC time"),
                     ('[schedule]\nround_days = -1\n', "round_days"),
                     ('report_url = "ftp://x/{game}"\n', "http"),
                     ('report_url = "https://x/{gmae}"\n', "{gmae}"),
                     ('report_url = "https://x/{game"\n', "unclosed")):
        with pytest.raises(PbemError, match=re.escape(why)):
            _parse(bad)
