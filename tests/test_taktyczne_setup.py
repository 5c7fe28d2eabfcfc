"""Taktyczne Starcie's drawn setup (issue 26), written from the text's sentences (L19.1-L19.14
of ../shared/seeds/003_876acb9d68787626.txt, split as the digest
../shared/rules/taktyczne-starcie.md §0.1 says) and the rulings in engine/taktyczne/setup.py."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine.taktyczne.balance import exclusion
from adjudicator.engine.taktyczne.setup import DRAW_CAP, draw_setup
from adjudicator.io.taktyczne_data import load_main_map
from adjudicator.model import taktyczne
from adjudicator.model.dice import FixedDice, SeededDice
from adjudicator.model.errors import DataError
from adjudicator.model.taktyczne import (CapitalAssigned, CapitalRolled, OrderRolled,
                                         StartGranted, TurnOrderSet)
from adjudicator.present.wording import SETUP_EVENT_TEXTS, setup_event_text

MAP = load_main_map()


def test_highest_roll_moves_first_and_lowest_last():
    # L19.1-L19.2; then capitals in that order: 11, 33, 55 are far apart
    dice = FixedDice([3, 6, 1, 1, 1, 3, 3, 5, 5])
    setup, events = draw_setup(MAP, ["ann", "bob", "cy"], dice, 12)
    assert setup.order == ("bob", "ann", "cy")
    assert setup.capitals == {"bob": "11", "ann": "33", "cy": "55"}
    assert events[0] == OrderRolled(round=1, rolls=(("ann", 3), ("bob", 6), ("cy", 1)))
    assert events[1] == TurnOrderSet(order=("bob", "ann", "cy"))
    assert dice.remaining == 0


def test_a_tie_is_rolled_again_among_the_tied_only():
    # G5: ann and bob tie on 4 and roll again; cy's 2 keeps her last
    dice = FixedDice([4, 4, 2, 1, 5, 1, 1, 3, 3, 5, 5])
    setup, events = draw_setup(MAP, ["ann", "bob", "cy"], dice, 12)
    assert setup.order == ("bob", "ann", "cy")
    assert events[1] == OrderRolled(round=2, rolls=(("ann", 1), ("bob", 5)))


def test_the_later_drawer_rolls_again_on_a_drawn_number():
    # L19.10: two players draw the same number: the second one re-rolls
    dice = FixedDice([6, 1, 2, 3, 2, 3, 5, 5])
    setup, events = draw_setup(MAP, ["ann", "bob"], dice, 12)
    assert setup.capitals == {"ann": "23", "bob": "55"}
    rolled = [e for e in events if isinstance(e, CapitalRolled)]
    assert rolled[1] == CapitalRolled(player="bob", dice=(2, 3), area="23", outcome="taken",
                                      other="ann")


@pytest.mark.parametrize("relation", ["bordering", "tangent"])
def test_an_area_bordering_or_touching_a_capital_is_rolled_again(relation):
    # L19.11: bordering or tangent to another player's capital: draw again
    first = "23"
    near = sorted((MAP.bordering(first) if relation == "bordering" else MAP.tangent_to(first))
                  & set(MAP.land))[0]
    far = next(a for a in MAP.land if a not in exclusion(MAP, first))
    dice = FixedDice([6, 1, *map(int, first), *map(int, near), *map(int, far)])
    setup, events = draw_setup(MAP, ["ann", "bob"], dice, 12)
    assert setup.capitals["bob"] == far
    assert CapitalRolled(player="bob", dice=(int(near[0]), int(near[1])), area=near,
                         outcome="near", other="ann") in events


def test_twelve_points_and_a_free_factory_in_the_capital():
    # L19.12-L19.14, L27.7
    setup, events = draw_setup(MAP, ["ann", "bob"], FixedDice([6, 1, 1, 1, 6, 6]), 12)
    assert setup.points == {"ann": 12, "bob": 12}
    assert setup.factories == setup.capitals == {"ann": "11", "bob": "66"}
    assert events[-2:] == [StartGranted(player="ann", points=12, factory="11"),
                           StartGranted(player="bob", points=12, factory="66")]


def test_the_draw_cap_gives_the_lowest_free_area():
    # ruling draw_cap: a player who never rolls a free area takes the lowest free one
    dice = FixedDice([6, 1, 1, 1] + [1, 1] * DRAW_CAP)
    setup, events = draw_setup(MAP, ["ann", "bob"], dice, 12)
    lowest = next(a for a in MAP.land if a not in exclusion(MAP, "11"))
    assert setup.capitals["bob"] == lowest
    assert events[-3] == CapitalAssigned(player="bob", area=lowest, rolls=DRAW_CAP)


def test_two_to_four_different_players_and_six_sided_dice():
    for players in (["ann"], ["a", "b", "c", "d", "e"], ["ann", "ann"]):
        with pytest.raises(DataError, match="2 to 4"):
            draw_setup(MAP, players, SeededDice(1), 12)
    with pytest.raises(DataError, match="six-sided"):
        draw_setup(MAP, ["ann", "bob"], SeededDice(1, sides=8), 12)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 4))
def test_any_draw_gives_far_apart_capitals_in_a_full_order(seed, count):
    players = [f"p{i}" for i in range(count)]
    dice = SeededDice(seed)
    setup, events = draw_setup(MAP, players, dice, 12)
    assert sorted(setup.order) == players
    capitals = list(setup.capitals.values())
    assert len(set(capitals)) == count
    for a in capitals:
        assert not (exclusion(MAP, a) - {a}) & set(capitals)
    accepted = [e for e in events if isinstance(e, CapitalRolled) and e.outcome == "capital"]
    assert [e.player for e in accepted] == list(setup.order)
    for event in events:
        assert "?" not in setup_event_text(event)


def test_every_setup_event_has_its_words():
    kinds = {cls.kind for cls in vars(taktyczne).values()
             if isinstance(cls, type) and attrs.has(cls) and issubclass(cls, taktyczne.SetupEvent)
             and cls is not taktyczne.SetupEvent}
    assert kinds == set(SETUP_EVENT_TEXTS)


def test_the_verifiable_dice_replay_the_same_start():
    # the setup asks the game's dice for every die, so a verifier replays it from the seed
    from adjudicator.io.hmac_dice import HmacDice

    def drawn():
        dice = HmacDice("00" * 32, "ts-game", 0, "00" * 32)
        return (*draw_setup(MAP, ["ann", "bob", "cy", "dee"], dice, 12), dice.log)

    setup, events, log = drawn()
    assert drawn()[:2] == (setup, events)
    capital_dice = [e.dice for e in events if isinstance(e, CapitalRolled)]
    assert capital_dice == [tuple(faces) for purpose, faces in log if "capital" in purpose]
    order_dice = [f for e in events if isinstance(e, OrderRolled) for _, f in e.rolls]
    assert order_dice == [faces[0] for purpose, faces in log if "turn order" in purpose]
