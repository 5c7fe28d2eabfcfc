"""The report's section for Taktyczne Starcie's war on the main map (issue 27,
present/taktyczne_war_report.py): each subsystem's events under its heading, each reaction
followed by why it fired (contract 5: the standing order's text, or the default), nothing
shown twice, every event of the issue's model modules with its sentence; and the HTML page
in a real headless chromium at a phone's 390 px."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import shutil

import attrs
import pytest

import helpers

from adjudicator.io.loader import initial_state
from adjudicator.model.events import Event
from adjudicator.model.ts_mines import MineRevealMissed, MinesFired
from adjudicator.model.ts_nuclear import NuclearBlast
from adjudicator.model.ts_objects import ObjectDestroyed
from adjudicator.present.report import report_html, report_text
from adjudicator.present.taktyczne_war_report import WAR_MODULES, war_lines
from adjudicator.present.wording import EVENT_TEXTS, standing_text
from adjudicator.service.games import load_game

COMMITMENT = "sha256." + "3f" * 32
EVENTS = [MinesFired("16", "blue", ("C5d",), ("tank_2", "tank_2"), f"minefield 16: {COMMITMENT}"),
          MineRevealMissed("24", "blue", 3),
          NuclearBlast("22", "full", "missile", "red", ("15", "16", "21", "22", "23", "24"),
                       {"22": {"tank_3": 2}, "16": {"lrg": 1}}),
          ObjectDestroyed("22", "factory", "blue", "red", "blast")]

needs_browser = pytest.mark.skipif(
    shutil.which("chromium") is None and shutil.which("chromium-browser") is None
    and not os.environ.get("CHROMIUM"), reason="needs a headless chromium")


@pytest.fixture(scope="module")
def game():
    return load_game("taktyczne", {"players": 2})


def test_each_subsystem_has_its_heading_and_its_sentences_in_the_order_they_happened(game):
    text = report_text(EVENTS, game)
    mines, nuclear, objects = (text.index(h + " ─") for h in ("Mines", "Nuclear weapons", "Objects destroyed"))
    assert mines < nuclear < objects
    assert "Blue's mines in 16 went off on C5d, destroying 2 Tank IIs" in text
    assert "the 3 mines in 24 are lost" in text
    flat = " ".join(text.split())
    assert ("a nuclear explosion (a missile) over 22 and its bordering and tangent areas 15, 16, 21, 23, 24: "
            "destroys 1 Long-range gun in 16; 2 Tank IIIs in 22") in flat
    assert "Blue's factory in 22 destroyed (by the blast)" in flat
    assert "Other events" not in text                       # nothing shown twice


def test_a_reaction_says_which_standing_order_fired_it_or_that_the_default_did(game):
    lines = [(indent, line) for _title, _style, indent, line in war_lines(game, EVENTS)]
    fired = lines.index((2, "Blue's mines in 16 went off on C5d, destroying 2 Tank IIs"))
    assert lines[fired + 1] == (4, "why: Blue's standing order «minefield 16: sha256.3f3f3f3f3f3f…»")
    missed = lines.index((2, "Blue did not reveal the mine layout in time: the 3 mines in 24 are lost"))
    assert lines[missed + 1] == (4, "why: Blue wrote no standing order for it: the default (mines lost)")
    assert not any(line.startswith("why") for _i, line in lines[missed + 2:])   # a blast is no reaction


def test_the_why_of_a_standing_order_and_of_a_default():
    assert standing_text("Red", "react lrg 24: fire at tanks, aa") == "Red's standing order «react lrg 24: fire at tanks, aa»"
    assert standing_text("Red", "default") == "Red wrote no standing order for it: the default"
    assert standing_text("Red", "default: nearest_base") == (
        "Red wrote no standing order for it: the default (nearest base)")
    assert standing_text("Red", "rule (every AA gun fires at each overflight, L23.61)") == (
        "no choice for Red: the rule (every AA gun fires at each overflight, L23.61)")


def _issue_events():
    """Every event class of issue 27's model modules that exist so far."""
    found = []
    for name in WAR_MODULES:
        try:
            module = importlib.import_module(f"adjudicator.model.{name}")
        except ModuleNotFoundError:
            continue
        found += [cls for _n, cls in inspect.getmembers(module, inspect.isclass)
                  if issubclass(cls, Event) and cls.__module__ == module.__name__ and attrs.fields(cls)]
    return found


def test_every_event_of_the_issue_has_its_sentence_and_leaves_the_why_to_the_report():
    classes = _issue_events()
    assert {"ts_nuclear_blast", "ts_object_destroyed", "ts_mines_fired"} <= {c.kind for c in classes}
    for cls in classes:
        assert cls.kind in EVENT_TEXTS, cls
        assert "{standing}" not in EVENT_TEXTS[cls.kind], cls     # the why line says it
        if "standing" in attrs.fields_dict(cls):
            assert "power" in attrs.fields_dict(cls), cls           # contract 5: who reacted


@needs_browser
def test_the_html_report_of_a_nuclear_turn_fits_a_phone_with_its_blast_on_the_board(game, tmp_path):
    screens = helpers.script("screenshot_report")
    start = attrs.evolve(initial_state(game, "war"), round=2)
    after = attrs.evolve(start, owners={"22": "blue", "54": "red"})
    page = tmp_path / "report.html"
    page.write_text(report_html(EVENTS, game, start, after), encoding="utf-8")
    probe = """(() => ({
      viewport: window.innerWidth,
      scroll_width: document.documentElement.scrollWidth,
      phone_text: [...document.querySelectorAll('.report.phone pre')].map(p => p.innerText).join(''),
      phone_pre_width: Math.max(...[...document.querySelectorAll('.report.phone')]
          .map(p => p.scrollWidth - p.clientWidth)),
      blast_areas: [...document.querySelectorAll('figure .blast-area')].map(e => e.dataset.space),
      sign_px: Math.round(document.querySelector('figure g.blast').getBoundingClientRect().width),
    }))()"""
    with screens.browser_session() as b:
        b.open(page.resolve().as_uri(), screens.PHONE, mobile=True)
        found = b.evaluate(probe)
        b.screenshot(tmp_path / "phone.png")
    assert found["scroll_width"] <= found["viewport"] == 390, json.dumps(found)
    assert found["phone_pre_width"] <= 0, json.dumps(found)            # the phone layout's lines fit
    text = " ".join(found["phone_text"].split())
    assert "why: Blue's standing order «minefield 16: sha256.3f3f3f3f3f3f…»" in text
    assert "a nuclear explosion (a missile) over 22 and its bordering and tangent areas 15, 16, 21, 23, 24" in text
    assert sorted(found["blast_areas"]) == ["15", "16", "21", "22", "23", "24"]
    assert found["sign_px"] > 0


@needs_browser
@pytest.mark.parametrize("turn, says", [
    (22, ["Mines", "why: Yellow's standing order «minefield S25: sha256_"]),
    (24, ["Long-range guns", "why: Blue wrote no standing order for it: the default (react lrg: fire)"]),
    (25, ["Air strikes", "Battle turn 1 over S05", "a nuclear explosion (a missile) over 52"]),
    (27, ["why: Blue wrote no standing order for it: the default (antimissile: reach)"]),
])
def test_the_examples_war_turns_read_on_a_phone(tmp_path, turn, says):
    """The bundled example's reports of its war turns (turns/taktyczne-example, issue 27) at
    390 px: no sideways scrolling, the phone layout's lines fit, the war's lines are there."""
    from pathlib import Path
    screens = helpers.script("screenshot_report")
    example = Path(__file__).resolve().parent.parent / "turns" / "taktyczne-example" / "game"
    page = screens.write_report(example, tmp_path, turn)
    probe = """(() => ({
      viewport: window.innerWidth,
      scroll_width: document.documentElement.scrollWidth,
      phone_pre_width: Math.max(...[...document.querySelectorAll('.report.phone')]
          .map(p => p.scrollWidth - p.clientWidth)),
      phone_text: [...document.querySelectorAll('.report.phone pre')].map(p => p.innerText).join(''),
      blasts: document.querySelectorAll('figure .blast-area').length,
    }))()"""
    with screens.browser_session() as b:
        b.open(page.resolve().as_uri(), screens.PHONE, mobile=True)
        found = b.evaluate(probe)
        b.screenshot(tmp_path / "phone.png")
    assert found["scroll_width"] <= found["viewport"] == 390, json.dumps({**found, "phone_text": ""})
    assert found["phone_pre_width"] <= 0, json.dumps({**found, "phone_text": ""})
    text = " ".join(found["phone_text"].split())
    for line in says:
        assert line in text, (line, text)
    assert (found["blasts"] > 0) == (turn == 25)


def test_the_pages_summary_of_the_turn_names_the_wars_blows(game):
    from adjudicator.present.report import page_heading
    lines = page_heading(EVENTS, game).lines
    assert "Blue's mines in 16 went off on C5d, destroying 2 Tank IIs" in lines
    assert any(line.startswith("a nuclear explosion (a missile) over 22") for line in lines)
    assert not any("factory" in line for line in lines)             # the detail stays below


def test_an_air_strikes_sentences_agree_with_their_numbers_and_name_objects_in_words(game):
    """One bomber bombs and flies home (not "bombers bomb", "1 Bomber fly"); one battle turn
    is not "turn(s)"; a bombed shipyard is named as the report names objects, not by its key."""
    from adjudicator.model.ts_strike import Shot, StrikeEnded, StrikeHome, StrikeVolley
    from adjudicator.present.wording import event_text
    volley = StrikeVolley("S05", 1, "blue", "bombers", (Shot("bomber", "warship_1", 4, "even", True),))
    assert event_text(volley, game) == "Blue's bomber bombs Warship I: 4, a hit (an even roll needed)"
    two = attrs.evolve(volley, shots=volley.shots * 2)
    assert event_text(two, game).startswith("Blue's bombers bomb Warship I: 4, a hit")
    ended = StrikeEnded("23", "blue", "red", 1, "bombs_spent", {}, {"tank_1": 1}, ("shipyard S05",))
    assert event_text(ended, game) == (
        "the strike on 23 ends after 1 battle turn (the bombs are spent): Blue loses nothing; "
        "Red loses 1 Tank I and the shipyard over S05")
    assert event_text(StrikeHome("23", "blue", "24", {"bomber": 1}), game) == (
        "Blue's 1 Bomber flies home from 23 and lands at 24")
    assert event_text(StrikeHome("23", "blue", "24", {"bomber": 2}), game) == (
        "Blue's 2 Bombers fly home from 23 and land at 24")


def test_a_defaults_why_names_the_standing_choice_as_a_player_writes_it():
    """"react lrg: fire" (the choice's key is lrg_react), "antimissile: reach" (the event's
    default names only the value), "air defence: target ..." without doubled brackets."""
    assert standing_text("Blue", "default: lrg_react fire") == (
        "Blue wrote no standing order for it: the default (react lrg: fire)")
    assert standing_text("Blue", "default: reach", "antimissile") == (
        "Blue wrote no standing order for it: the default (antimissile: reach)")
    assert standing_text("Blue", "default: air_defence (target aa, fighters; bombers bomb)") == (
        "Blue wrote no standing order for it: the default (air defence: target aa, fighters; bombers bomb)")
    assert standing_text("Blue", "default: nearest_base") == (
        "Blue wrote no standing order for it: the default (nearest base)")
