"""``pbem rules`` speaks to players: each ruling in plain words, its sources behind --sources."""

from __future__ import annotations

import re

import pytest

from adjudicator.present.rulings import plain_ruling
from adjudicator.service.games import load_game
from tests.cli_helpers import pbem

SOURCE_NOTE = re.compile(r"\[L\d|§|\[FLAG\]|\bdigest §")


@pytest.mark.parametrize("written, plain", [
    ("Starting IPCs are the seed's 7/12/12/9/17 [L37-L43, L67-L69]; each equals the sum.",
     "Starting IPCs are the seed's 7/12/12/9/17; each equals the sum."),
    ("AA gun: it is never a casualty [L747] (digest §4.3 [FLAG]; TripleA gives none either).",
     "AA gun: it is never a casualty."),
    ("An island is a land territory with no land neighbour (seed [L151-L153]: a territory in "
     "or surrounded by sea zones).", "An island is a land territory with no land neighbour."),
    ("[L354]'s 'will be shot down' means they are fired upon (digest §5.2 [FLAG]).",
     "The rulebook's 'will be shot down' means they are fired upon."),
    ("A battle ends with no winner (aircraft against submarines) when nobody can hit.",
     "A battle ends with no winner (aircraft against submarines) when nobody can hit."),
])
def test_plain_ruling_drops_source_notes_and_keeps_the_rule(written, plain):
    assert plain_ruling(written) == plain


@pytest.mark.parametrize("edition", ["aa1941", "aa1942"])
def test_every_ruling_reads_without_its_sources(edition):
    for ruling in load_game(edition).ruleset.rulings:
        plain = plain_ruling(ruling)
        assert not SOURCE_NOTE.search(plain), plain
        assert plain[:1].isupper() and plain.endswith((".", ")")), plain
        assert "()" not in plain and " ," not in plain and "'s '" not in plain[:4], plain
        assert len(plain) >= 0.4 * len(ruling), (ruling, plain)     # the rule is still there


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("edition", ["aa1941", "aa1942"])
def test_rules_command_plain_by_default_sources_on_request(edition, capsys):
    rulings = load_game(edition).ruleset.rulings
    code, out = pbem(capsys, "rules", "--ruleset", edition, "--no-color")
    assert code == 0
    flat = _flat(out)
    assert not SOURCE_NOTE.search(out)
    assert "pbem rules --sources" in flat
    for ruling in rulings:
        assert _flat(plain_ruling(ruling)) in flat
    code, out = pbem(capsys, "rules", "--ruleset", edition, "--sources", "--no-color")
    assert code == 0
    flat = _flat(out)
    for ruling in rulings:
        assert _flat(ruling) in flat
    assert "[L" in out
