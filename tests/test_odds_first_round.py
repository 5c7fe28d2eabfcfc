"""Exact odds of battles with first-round-only steps (AA fire, bombardment, surprise
strikes; issue 24): the numpy sweep (engine/combat/sweep.py) against the state chain
(tests/odds_reference.py), which runs the same rule functions one state at a time, on random
small battles of Spring 1942 (one AA gun, a die aimed at each aircraft) and Global 1940
(several AA guns of three dice each, the attacker choosing the aircraft lost), with normal
dice and with Low Luck."""

from __future__ import annotations

import itertools

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_odds_sweep import assert_same

from adjudicator.engine.combat import BattleSetup, BattleUnit
from adjudicator.engine.combat.odds import battle_odds
from adjudicator.model.orders import RetreatCondition
from adjudicator.service.games import load_game

GAMES = {key: load_game(key) for key in ("aa1942", "global1940")}
LAND = {"aa1942": ["infantry", "artillery", "tank"],
        "global1940": ["infantry", "mech_infantry", "artillery", "tank"]}
AIR = {"aa1942": ["fighter", "bomber"], "global1940": ["fighter", "tactical_bomber", "bomber"]}
SHIPS = ["battleship", "cruiser"]


@st.composite
def aa_battles(draw, edition: str | None = None) -> BattleSetup:
    """A land battle with attacking aircraft and 1-3 AA guns beside the defenders,
    sometimes an amphibious assault with ships bombarding, sometimes a retreat."""
    key = edition or draw(st.sampled_from(sorted(GAMES)))
    game = GAMES[key]
    units = game.ruleset.units
    uid = itertools.count(1)

    def side(owner, pool, lo, hi, seaborne=False):
        out = []
        for kind, n in draw(st.lists(st.tuples(st.sampled_from(pool), st.integers(1, 2)),
                                     min_size=lo, max_size=hi)):
            out += [BattleUnit(next(uid), units[kind], owner, seaborne=seaborne)
                    for _ in range(n)]
        return tuple(out)

    defender = "russia" if "russia" in game.ruleset.powers else "ussr"
    att = side("germany", AIR[key], 1, 2) + side("germany", LAND[key], 0, 2)
    dfn = side(defender, LAND[key] + AIR[key], 1, 2)
    guns = tuple(BattleUnit(next(uid), units["aa_gun"], defender)
                 for _ in range(draw(st.integers(1, 3))))
    ships: tuple[BattleUnit, ...] = ()
    if draw(st.booleans()):
        att += side("germany", LAND[key], 1, 1, seaborne=True)
        ships = tuple(BattleUnit(next(uid), units[k], "germany")
                      for k in draw(st.lists(st.sampled_from(SHIPS), max_size=2)))
    retreat = (RetreatCondition(after_round=draw(st.integers(1, 2))),) \
        if draw(st.booleans()) else ()
    return BattleSetup("x", "x", False, "germany", att, dfn, retreat=retreat,
                       retreat_options=("Home",) if retreat else (),
                       stages=game.ruleset.plan.battle_stages, support=(ships, guns),
                       unit_types=units)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=aa_battles())
def test_aa_battles_agree_with_the_chain(setup):
    assert_same(setup)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=aa_battles())
def test_low_luck_aa_battles_agree_with_the_chain(setup):
    assert_same(attrs.evolve(setup, low_luck=True))


def test_three_guns_of_three_dice_against_many_aircraft():
    """Global 1940: three guns fire nine dice at twelve aircraft (the attacker chooses the
    losses); the sweep and the chain agree, and more guns cost the attacker more."""
    game = GAMES["global1940"]
    units = game.ruleset.units
    uid = itertools.count(1)

    def mix(owner, **kinds):
        return tuple(BattleUnit(next(uid), units[k], owner) for k, n in kinds.items()
                     for _ in range(n))

    def setup(guns):
        return BattleSetup("x", "x", False, "germany",
                           mix("germany", infantry=3, tank=1, fighter=6, tactical_bomber=4,
                               bomber=2),
                           mix("ussr", infantry=8, tank=2), stages=game.ruleset.plan.battle_stages,
                           support=((), mix("ussr", aa_gun=guns)), unit_types=units)

    wins = []
    for guns in (1, 3):
        assert_same(setup(guns))
        wins.append(battle_odds(setup(guns), method="sweep").attacker_wins)
    assert wins[0] > wins[1]
