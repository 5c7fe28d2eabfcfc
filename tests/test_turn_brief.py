"""``pbem status`` reads the last turn's events as plain data (``turnfile.read_turn_brief``,
issue 24: no event class made): what it finds is what the full decoding finds, for every
turn of the example games, and a brief of a damaged file is refused as the full read is."""

from __future__ import annotations

import json
import shutil

import pytest

from adjudicator.engine import neutrals, politics, victory  # noqa: F401  (plug-ins' events)
from adjudicator.io import paths
from adjudicator.io.layout import list_turns
from adjudicator.io.turnfile import read_turn_brief, read_turn_file
from adjudicator.model.errors import StateFileError
from adjudicator.model.events import BattleEnded, Captured, Corrected
from adjudicator.service.status import game_status

EXAMPLES = sorted(paths.ROOT.glob("turns/*-example/game"))


def test_every_example_turn_reads_the_same_briefly():
    assert len(EXAMPLES) >= 5
    seen = 0
    for game in EXAMPLES:
        for _, _, path in list_turns(game):
            full, _ = read_turn_file(path)
            brief, events = read_turn_brief(path)
            assert brief.state == full.state and brief.seed == full.seed
            assert [e["kind"] for e in events] == [e.kind for e in full.events]
            ended = [e for e in full.events if isinstance(e, BattleEnded)]
            assert [e["outcome"] for e in events if e["kind"] == "battle_ended"] \
                == [e.outcome for e in ended]
            assert [e["territory"] for e in events if e["kind"] == "captured"] \
                == [e.territory for e in full.events if isinstance(e, Captured)]
            seen += bool(ended)
    assert seen >= 5          # turns with battles were among them


def test_status_counts_the_last_turns_battles():
    """aa1941's turn 5 (USA): one battle, the attacker did not win it (checked by hand in
    the turn's report: the American attack on the Japanese fleet in SZ 50 fails)."""
    game = paths.ROOT / "turns" / "aa1941-example" / "game"
    tf, _ = read_turn_file(list_turns(game)[-1][2])
    ended = [e for e in tf.events if isinstance(e, BattleEnded)]
    st = game_status(game)
    assert (st.last_turn, st.battles, st.battles_won) == (5, len(ended), 0)
    assert st.correction is None and not any(isinstance(e, Corrected) for e in tf.events)


def _damaged(tmp_path, change) -> object:
    src = list_turns(paths.ROOT / "turns" / "aa1941-example" / "game")[-1][2]
    raw = json.loads(src.read_bytes())
    change(raw)
    out = tmp_path / src.name
    out.write_text(json.dumps(raw), encoding="utf-8")
    return out


@pytest.mark.parametrize("change, words", [
    (lambda raw: raw.update(events=[{"no_kind": 1}]), "each with a 'kind'"),
    (lambda raw: raw.update(events="none"), "each with a 'kind'"),
    (lambda raw: raw.update(seed="xyz"), "seed is not 64 lowercase hex digits"),
    (lambda raw: raw["state"].update(round="two"), "round"),
])
def test_a_damaged_turn_file_is_refused_briefly(tmp_path, change, words):
    path = _damaged(tmp_path, change)
    with pytest.raises(StateFileError, match=words):
        read_turn_brief(path)


def test_status_refuses_an_event_field_it_reads_that_is_not_text(tmp_path):
    game = tmp_path / "game"
    shutil.copytree(paths.ROOT / "turns" / "aa1941-example" / "game", game)
    last = list_turns(game)[-1][2]
    raw = json.loads(last.read_bytes())
    raw["events"].append({"kind": "captured", "territory": 7})
    last.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(StateFileError, match="'captured' event's territory is not a text"):
        game_status(game)
