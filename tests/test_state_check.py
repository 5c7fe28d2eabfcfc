"""A state read from a file is refused when it breaks the map or the unit rules."""

from __future__ import annotations

from adjudicator.model.state import Unit
from adjudicator.engine.state_check import state_problems
from helpers import game_1941, position, start_state, units


def test_the_starting_state_is_sane():
    assert state_problems(game_1941(), start_state()) == []


def test_every_kind_of_nonsense_is_reported():
    game = game_1941()
    overloaded = Unit("transport", "uk", (Unit("tank", "uk"), Unit("tank", "uk")))
    state = position(place={"Sea Zone 4": units("1 infantry", "ussr"),
                            "Germany": units("1 battleship", "germany"),
                            "Turkey": units("1 infantry", "ussr"),
                            "Sea Zone 7": (overloaded,)},
                     owners={"Sea Zone 6": "uk"}, ipcs={"japan": -3})
    problems = state_problems(game, state)
    for expected in ("Infantry at sea in Sea Zone 4 (land units at sea must be cargo)", "Battleship on land in Germany",
                     "Infantry in impassable Turkey", "Transport in Sea Zone 7 is over capacity",
                     "Sea Zone 6 cannot have an owner", "japan has negative IPCs (-3)"):
        assert expected in problems, (expected, problems)
    assert len(problems) == 6
