"""Global 1940's economy plug-ins beyond the rules cases (maps/global1940/cases/): the
allocation of convoy losses (a maximum flow, digest §6.7 [AMBIGUITY]) against a brute
force, and clear messages for bad [[objective]] data."""

from __future__ import annotations

import itertools
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine.convoy_disruption import max_flow
from adjudicator.io.paths import MAPS_DIR
from adjudicator.model.errors import DataError
from adjudicator.service.games import load_game

ZONES, LANDS = ("z1", "z2", "z3"), ("a", "b", "c")


def brute_force(supply, demand, links) -> int:
    """The largest total loss, trying every split of every zone's loss over its land."""
    best = 0
    choices = []
    for z, amount in supply.items():
        lands = links[z]
        splits = [s for s in itertools.product(range(amount + 1), repeat=len(lands))
                  if sum(s) <= amount]
        choices.append([(z, dict(zip(lands, s))) for s in splits])
    for combo in itertools.product(*choices):
        taken = dict.fromkeys(demand, 0)
        for _, split in combo:
            for t, n in split.items():
                taken[t] += n
        if all(taken[t] <= demand[t] for t in demand):
            best = max(best, sum(taken.values()))
    return best


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=3, max_size=3),
       st.lists(st.integers(0, 3), min_size=3, max_size=3),
       st.lists(st.lists(st.booleans(), min_size=3, max_size=3), min_size=3, max_size=3))
def test_convoy_losses_are_as_large_as_the_caps_allow(supply_v, demand_v, adjacent):
    supply = dict(zip(ZONES, supply_v))
    demand = dict(zip(LANDS, demand_v))
    links = {z: tuple(t for t, on in zip(LANDS, row) if on) for z, row in zip(ZONES, adjacent)}
    sent = max_flow(supply, demand, links)
    assert all(0 <= sent[z] <= supply[z] for z in ZONES)
    assert all(sent[z] == 0 for z in ZONES if not links[z])
    assert sum(sent.values()) == brute_force(supply, demand, links)


def test_the_worked_example_allocation():
    """SZ 109 rolls 9 capped at 8 (United Kingdom 6 + Scotland 2); SZ 119 then costs nothing
    [L1121-L1127]."""
    sent = max_flow({"109": 8, "119": 2}, {"United Kingdom": 6, "Scotland": 2},
                    {"109": ("Scotland", "United Kingdom"), "119": ("Scotland",)})
    assert sum(sent.values()) == 8


@pytest.fixture
def g40_copy(tmp_path):
    folder = tmp_path / "global1940"
    shutil.copytree(MAPS_DIR / "global1940", folder)
    return folder


def _with_objective(folder, text: str):
    game_toml = folder / "game.toml"
    game_toml.write_text(game_toml.read_text(encoding="utf-8") + "\n" + text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("text, message", [
    ('[[objective]]\nname = "x"\npower = "spain"\nvalue = 5\ncondition = { controls = ["Egypt"] }\n',
     "unknown power 'spain'"),
    ('[[objective]]\nname = "x"\npower = "italy"\nvalue = 5\ncondition = { controls = ["Atlantis"] }\n',
     "unknown territory 'Atlantis'"),
    ('[[objective]]\nname = "x"\npower = "italy"\nvalue = 5\ncondition = { at_peace = ["uk"] }\n',
     "needs exactly one of"),
    ('[[objective]]\nname = "x"\npower = "italy"\nvalue = 5\n'
     'condition = { units = ["Egypt"], owner = "neighbours" }\n', "owner must be one of"),
    ('[[objective]]\nname = "x"\npower = "italy"\nvalue = 5\neconomy = "uk_pacific"\n'
     'condition = { controls = ["Egypt"] }\n', "has no economy 'uk_pacific'"),
    ('[[objective]]\nname = "germany_egypt"\npower = "italy"\nvalue = 5\n'
     'condition = { controls = ["Egypt"] }\n', "defined twice"),
])
def test_bad_objective_data_is_refused_with_its_place(g40_copy, text, message):
    with pytest.raises(DataError) as found:
        load_game(str(_with_objective(g40_copy, text)))
    assert message in str(found.value)


def test_every_nation_but_france_has_objectives_and_every_one_is_known():
    game = load_game("global1940")
    owners = {o.power for o in game.ruleset.objectives}
    assert owners == set(game.ruleset.powers) - {"france"}
    counts = {p: sum(o.power == p for o in game.ruleset.objectives) for p in owners}
    # digest §4.5: Germany's six lines, the USSR 3, Japan 4, the USA 5, China 1, UK 2, Italy 4, ANZAC 2
    assert counts == {"germany": 6, "ussr": 3, "japan": 4, "usa": 5, "china": 1, "uk": 2,
                      "italy": 4, "anzac": 2}


@pytest.mark.parametrize("line, message", [
    ("relation japan usa: peace", "a relation is war, allied or neutral"),
    ("relation japan: war", "expected 'relation OWNER OWNER: war|allied|neutral'"),
    ("history japan: French Indo China", "expected 'history POWER KEY: a, b'"),
])
def test_bad_relation_and_history_lines_say_where(line, message):
    from adjudicator.io.rules_cases import parse_cases
    from adjudicator.service.rules_cases import run_case
    (case,) = parse_cases(f"case x: y\nposition empty\n{line}\nexpect valid\n", "bad.txt")
    result = run_case(case, "global1940")
    assert not result.ok and "bad.txt:3" in result.failures[0] and message in result.failures[0]


def test_relation_and_history_lines_build_the_state():
    from adjudicator.io.rules_cases import parse_cases
    from adjudicator.service.rules_cases import build_position
    (case,) = parse_cases("case x: y\nposition empty\nrelation usa japan: war\n"
                          "history japan attacked: French Indo China, Siam\n"
                          "owner Sweden: pro_allies\nipcs uk_pacific 3\nexpect valid\n", "ok.txt")
    state = build_position(load_game("global1940"), case)
    assert state.relations["japan|usa"] == "war"
    assert state.extras["attacked"] == {"japan": ["French Indo China", "Siam"]}
    assert state.owners["Sweden"] == "pro_allies"
    assert state.ipcs["uk_pacific"] == 3
