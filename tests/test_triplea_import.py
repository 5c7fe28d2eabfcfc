"""``pbem new DIR --from-triplea MAP.xml``: a game from a TripleA game file, played as the
bundled edition whose map it matches, starting from the file's own position; every rule it
cannot carry is listed.  Uses the TripleA files of the shared reference folder (never copied
into the project); skips when they are absent."""

from __future__ import annotations

from collections import Counter

import pytest

from adjudicator.cli import main
from adjudicator.model.errors import PbemError
from adjudicator.service.triplea_import import from_triplea

from reference_sources import TRIPLEA_MAPS

V6_1941 = TRIPLEA_MAPS / "WW2v6_1941.xml"
EUROPE = TRIPLEA_MAPS / "europe_AAE.xml"


@pytest.fixture(autouse=True)
def _reference_files():
    if not V6_1941.is_file():
        pytest.skip(f"TripleA reference files not found: {TRIPLEA_MAPS}")


def _units(state, space, power):
    return Counter(u.type for u in state.units.get(space, ()) if u.owner == power)


def test_1941_file_is_played_as_aa1941_from_its_own_position():
    start = from_triplea(V6_1941, "g")
    assert (start.ruleset, start.matched, start.territories) == ("aa1941", 120, 120)
    # The one setup difference tests/test_map_data.py documents: TripleA's v6 file starts
    # the USSR with 6 infantry in Russia where the rulebook has 3.  The file's count is used.
    assert _units(start.initial, "Russia", "ussr")["infantry"] == 6
    assert start.initial.owners["Germany"] == "germany"
    assert start.initial.ipcs["ussr"] == 7       # the file: resourceGiven Russians PUs 7
    lines = start.not_carried
    assert "5 techAttachments: not carried" in lines              # techs
    assert any(line.startswith("rule 'Kamikaze Airplanes' = false") for line in lines)
    assert not any("mapName" in line for line in lines)           # metadata, not a rule
    assert not any(line.startswith("units ") for line in lines)   # every unit was placed


def test_low_luck_property_becomes_the_option(tmp_path):
    text = V6_1941.read_text(encoding="utf-8")
    assert '<property name="Low Luck" value="false"' in text
    copy = tmp_path / "ll.xml"
    copy.write_text(text.replace('<property name="Low Luck" value="false"',
                                 '<property name="Low Luck" value="true"'), encoding="utf-8")
    start = from_triplea(copy, "g")
    assert start.game.ruleset.options["low_luck"] is True
    assert from_triplea(V6_1941, "g").game.ruleset.options.get("low_luck", False) is False
    assert not any(line.startswith("rule 'Low Luck' ") for line in start.not_carried)


def test_a_map_no_edition_carries_is_refused():
    with pytest.raises(PbemError, match=r"matches no edition pbem carries: the closest, "
                                        r"\w+, has \d+ of its 96 territories"):
        from_triplea(EUROPE, "g")


def test_not_a_triplea_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text("<game><not closed>")
    with pytest.raises(PbemError, match="cannot read TripleA file"):
        from_triplea(bad, "g")


def test_pbem_new_from_triplea_end_to_end(tmp_path, capsys):
    game = tmp_path / "v6"
    assert main(["new", str(game), "--from-triplea", str(V6_1941), "--demo-seeds"]) == 0
    out = capsys.readouterr().out
    assert "From the TripleA game World War II v6 1941" in out
    assert "Not carried (" in out and "techAttachments: not carried" in out
    assert main(["verify", str(game)]) == 0                          # the recorded start verifies
    capsys.readouterr()
    assert main(["show", "-g", str(game), "--power", "ussr"]) == 0
    assert "6 Infantry" in capsys.readouterr().out

    elsewhere = tmp_path / "europe"
    assert main(["new", str(elsewhere), "--from-triplea", str(EUROPE)]) == 2
    assert "matches no edition" in capsys.readouterr().err
    assert not elsewhere.exists()                                    # nothing written
