"""Turn mails stay light (issue 23: they were 700-970 KB each): under 150 KB for each
edition with a board, the report (with the board) zipped whole, the turn's signed files
attached as they are."""

from __future__ import annotations

import email
import email.policy
import io
import time
import zipfile

import pytest

from adjudicator.service import gamedir
from adjudicator.service.games import load_game
from adjudicator.service.mail.outbox import Outbox
from adjudicator.service.mail.players import Player
from adjudicator.service.mail.results import queue_turn_results
from mail_helpers import RENDERERS


@pytest.mark.parametrize("ruleset", ["aa1941", "aa1942"])
def test_a_turn_mail_is_under_150_kb_and_carries_the_whole_report(tmp_path, ruleset):
    directory, game = tmp_path / "g", load_game(ruleset)
    gamedir.create_game(directory, game, "g1", created="2026-03-01",
                        seeds=gamedir.demo_seeds("g1"))
    state, _ = gamedir.current_state(directory)
    gamedir.process_turn(directory, game, f"power: {state.power}\npass\n",
                         seeds=gamedir.demo_seeds("g1"))
    outbox = Outbox(directory / ".mail")
    assert queue_turn_results(directory=directory, game=game, game_id="g1", turn_number=1,
                              players={state.power: Player(state.power, "a@example.org")},
                              outbox=outbox, renderers=RENDERERS, sender="gm@example.org",
                              sender_name="GM", now=time.time()) == 1
    [path] = (directory / ".mail" / "outbox").glob("turn-*.eml")
    assert path.stat().st_size < 150 * 1024
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    parts = {p.get_filename(): p.get_content() for p in msg.iter_attachments()}
    turn = f"0001-{state.power}"
    assert parts[f"{turn}.json"] == (directory / "turns" / f"{turn}.json").read_bytes()
    with zipfile.ZipFile(io.BytesIO(parts[f"report-{turn}.zip"])) as archive:
        html = archive.read(f"report-{turn}.html").decode("utf-8")
    assert "<svg" in html and "</html>" in html
