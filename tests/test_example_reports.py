"""The reports of every turn of the five bundled example games (turns/*-example) read as
sentences: each event is shown in the section of the step that made it, none falls to
"Other events", none is shown twice, and no report shows an event's raw code or parameter
(a key such as ``germany_soviet_trade`` or ``uk_pacific``)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from adjudicator.present.report import report_text
from adjudicator.service import gamedir
from adjudicator.service.games import load_game

TURNS = Path(__file__).resolve().parent.parent / "turns"
EXAMPLES = sorted(p.name for p in TURNS.glob("*-example"))
# A word joined by underscores: a key or a code, never English.  Taktyczne's sealed mine
# commitments (``sha256_<hex>``) are the one key a player reads on purpose.
RAW_KEY = re.compile(r"\b(?!sha256_)[a-z0-9]+(?:_[a-z0-9]+)+\b")
SECTION = re.compile(r"^(\S.*?) ─{3,}$", re.M)
# The panel of orders not carried out quotes each order as the player wrote it.
QUOTED_ORDERS = re.compile(r"^╭─ Orders not carried out.*?^╰", re.M | re.S)


@cache
def reports(example: str) -> tuple[tuple[str, str], ...]:
    """(turn file name, report text) for each turn of ``example``, in order."""
    directory = TURNS / example / "game"
    gf, _ = gamedir.read_game(directory)
    game = load_game(gf.ruleset, gf.options)
    out, before = [], gf.initial_state
    for path in sorted((directory / "turns").glob("*.json")):
        turn = gamedir.read_turn(directory, path, gf)
        out.append((path.name, report_text(turn.events, game, before, turn.state)))
        before = turn.state
    return tuple(out)


def test_every_bundled_example_is_read():
    assert len(EXAMPLES) == 5, EXAMPLES


@pytest.mark.parametrize("example", EXAMPLES)
def test_no_event_of_an_example_falls_to_other_events(example):
    for name, text in reports(example):
        assert "Other events" not in SECTION.findall(text), (name, text[text.find("Other events"):])


@pytest.mark.parametrize("example", EXAMPLES)
def test_no_report_of_an_example_shows_a_raw_code(example):
    for name, text in reports(example):
        found = RAW_KEY.findall(QUOTED_ORDERS.sub("", text))
        assert not found, (name, found)


def test_a_board_battle_is_its_panel_and_not_a_line_again():
    """Taktyczne's board battles (``ts_board_battle``): the panel replays each, and its
    one-line outcome is not listed again under another heading."""
    from adjudicator.present.wording import event_text
    directory = TURNS / "taktyczne-example" / "game"
    gf, _ = gamedir.read_game(directory)
    game = load_game(gf.ruleset, gf.options)
    texts = dict(reports("taktyczne-example"))
    battles = 0
    for name, text in texts.items():
        turn = gamedir.read_turn(directory, directory / "turns" / name, gf)
        for ev in turn.events:
            if ev.kind == "ts_board_battle":
                battles += 1
                assert f"Board battle in {ev.area}" in text, name
                assert event_text(ev, game) not in " ".join(text.split()), name
    assert battles >= 3


def test_the_global_reports_name_national_objectives_and_economies_in_words():
    text = dict(reports("global1940-example"))["0006-uk.json"]
    assert ("national objective (Kwangtung and Malaya held): not met, United Kingdom (UK Pacific "
            "economy) collects nothing") in " ".join(text.split())
    assert "United Kingdom collects 14 IPCs in its UK Pacific economy (18 now)" in text
    assert "United Kingdom's UK Pacific economy pays 13 IPCs of the purchase (4 left)" in text


def test_a_turns_events_sit_under_the_section_of_their_step():
    """Global's objectives and convoy losses under Income, a declaration of war under
    Politics, a scramble under Battles; Europe's special cash under Purchases; Taktyczne's
    live battle turn under Board battles and an elimination under Territory changes."""
    def section_of(example: str, turn: str, words: str) -> str:
        text = dict(reports(example))[turn]
        at = text.index(words)
        return SECTION.findall(text[:at])[-1]

    assert section_of("global1940-example", "0006-uk.json", "convoy disruption in Sea Zone 106") == "Income"
    assert section_of("global1940-example", "0003-japan.json", "Japan declares war on United States") == "Politics"
    assert section_of("global1940-example", "0006-uk.json", "Germany scrambles 3 Fighters") == "Battles"
    assert section_of("europe1999-example", "0001-germany.json", "Germany keeps 3 IPCs") == "Purchases"
    assert section_of("taktyczne-example", "0015-blue.json", "battle turn 1 in S01") == "Board battles"
    assert section_of("taktyczne-example", "0011-blue.json", "Red is eliminated") == "Territory changes"


def test_a_neutral_that_joins_is_one_line_with_its_army():
    """Global's Bulgaria joining Germany: its capture's line names the army that joined, and
    no second line says the same under another heading."""
    flat = " ".join(dict(reports("global1940-example"))["0001-germany.json"].split())
    assert ("Germany is joined by Bulgaria (Pro-Axis Neutral), worth 1 IPC of income, with its "
            "army of 4 Infantry") in flat
    assert "Bulgaria joins Germany" not in flat


def test_a_raid_on_the_treasury_says_what_it_cost_not_that_it_was_shot_down():
    """Europe's raid on a treasury (the bomber got through and rolled 2): the battle's
    outcome names the IPCs lost."""
    text = dict(reports("europe1999-example"))["0006-ussr.json"]
    assert "Soviet Union bombs Germany: Germany loses 2 IPCs (57 left)" in text
    assert "shot down" not in text


def test_taktyczne_reports_count_points_and_name_players_and_attacks():
    """Taktyczne Starcie's treasury is points (L19.12), not IPCs, and its areas have no
    income value to quote; the pregame's draw names the players as the game does; a move
    into an area fought for on the board is an attack in the moves table."""
    texts = dict(reports("taktyczne-example"))
    draw = texts["0001-red.json"]
    assert "Points at start: 12" in draw and "IPCs" not in draw
    assert "turn order, roll 1: Red 5, Blue 3, Green 1, Yellow 1" in draw
    assert "area 15 becomes Red's capital" in draw
    assert "Blue captures 14 (held by no one)" in texts["0017-blue.json"]
    assert "IPCs" not in "".join(texts.values())
    mined = texts["0022-yellow.json"]
    assert "the defender (Yellow) brings 2 mines " in mined and "nothing, 2 mines" not in mined
    assert "Blue builds an anti-missile launcher in 24 for 100 points" in mined
    assert "Blue builds a nuclear silo in 24" in mined
    assert re.search(r"^\s+6\s+attack\s+1 Tank II, 1 Tank III\s+24 → 16", texts["0007-blue.json"], re.M)
    assert re.search(r"^\s+6\s+move\s+1 Long-range gun\s+24 → 16", texts["0021-blue.json"], re.M)
    assert re.search(r"^\s+7\s+attack\s+1 Warship II\s+S01 → S25", texts["0021-blue.json"], re.M)


def test_the_pages_summary_says_what_a_paused_turn_waits_for():
    """The HTML page's lines on the turn (``page_heading``): a live battle's start and its
    battle turns, a battle waiting for a sealed mine layout, an area taken from no one."""
    from adjudicator.present.report import page_heading
    directory = TURNS / "taktyczne-example" / "game"
    gf, _ = gamedir.read_game(directory)
    game = load_game(gf.ruleset, gf.options)

    def lines(name: str) -> tuple[str, ...]:
        return page_heading(gamedir.read_turn(directory, directory / "turns" / name, gf).events, game).lines

    assert any(line.startswith("Blue attacks Yellow in S01 on the sea board, played live by mail")
               for line in lines("0014-blue.json"))
    assert any(line.startswith("battle turn 2 in S01: Yellow (defender) missed the deadline")
               for line in lines("0016-yellow.json"))
    assert any(line.startswith("the battle in S25 needs Yellow's sealed mine layout")
               for line in lines("0021-blue.json"))
    assert "Blue captures 14 (held by no one)" in lines("0017-blue.json")


def _board_text(example: str) -> str:
    """``pbem show``'s tables for the position after ``example``'s last turn."""
    import io

    from rich.console import Console

    from adjudicator.present.board_view import render_board
    directory = TURNS / example / "game"
    gf, _ = gamedir.read_game(directory)
    game = load_game(gf.ruleset, gf.options)
    last = sorted((directory / "turns").glob("*.json"))[-1]
    console = Console(file=io.StringIO(), width=100, record=True, color_system=None)
    render_board(game, gamedir.read_turn(directory, last, gf).state, console)
    return console.export_text()


def test_the_board_tables_name_economies_and_count_taktyczne_in_points():
    """``pbem show``: Global's second economy by name; Taktyczne's treasury in points, its
    areas without an IPC value and its players without a side column of their own keys."""
    assert "34 (UK Pacific 18)" in _board_text("global1940-example")
    text = _board_text("taktyczne-example")
    assert re.search(r"Power\s+Points\s+Income", text) and "Blue — 30 points, income 8" in text
    assert "IPC" not in text and "Side" not in text
    assert not RAW_KEY.findall(text)
