"""The sweep's last round bucket played level by level (engine/combat/sweeplevels.py, issue
24: sea battles as fast as land) against the same sweep playing it row by row
(``Sweep(levels=False)``, the calculator before the levels), to 1e-12: random fleets of A&A
1941 (submarines' surprise strike and submerging, aircraft, two-hit battleships, every
submerge choice) with normal dice, certain hits and Low Luck, the 1942 and Global 1940 sea
units, and land battles with AA guns, bombardment and retreats (where the levels are not
the default).  Both are also checked against the state chain by tests/test_odds_sea.py."""

from __future__ import annotations

import itertools

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_odds_first_round import GAMES, aa_battles
from test_odds_sea import fleets
from test_odds_sweep import PROBABILITIES, assert_same

from adjudicator.engine.combat import BattleSetup, BattleUnit
from adjudicator.engine.combat.board import Board
from adjudicator.engine.combat.model import ATT, DEF
from adjudicator.engine.combat.odds import DEFAULT_PRUNE, _summarize
from adjudicator.engine.combat.sweep import Sweep
from adjudicator.engine.combat.sweeplevels import LevelRows


def by_rows(setup, sides=6):
    """The odds of ``setup`` with the last bucket played row by row."""
    board = Board(setup)
    sweep = Sweep(board, sides, DEFAULT_PRUNE, levels=False)
    sweep.run()
    return _summarize(board, sweep, None)


def by_levels(setup, sides=6):
    """The odds of ``setup`` with the last bucket played level by level."""
    board = Board(setup)
    sweep = Sweep(board, sides, DEFAULT_PRUNE, levels=True)
    sweep.run()
    return _summarize(board, sweep, None)


def assert_close(setup, sides=6, first=by_rows, second=by_levels) -> None:
    """Two ways of sweeping (by default rows and levels) agree to 1e-12 plus what both
    pruned (each prunes other pairs)."""
    rows, levels = first(setup, sides), second(setup, sides)
    cut = rows.pruned + levels.pruned
    assert 0 <= levels.pruned < 1e-12
    for field in PROBABILITIES:
        assert abs(rows.outcome(field) - levels.outcome(field)) <= 1e-12 + cut, field
    board = Board(setup)
    tuv = {side: sum(len(s.units) * s.cost for s in board.slots[side]) for side in (ATT, DEF)}
    assert abs(rows.attacker_tuv_lost - levels.attacker_tuv_lost) <= 1e-12 + cut * tuv[ATT]
    assert abs(rows.defender_tuv_lost - levels.defender_tuv_lost) <= 1e-12 + cut * tuv[DEF]
    assert abs(rows.rounds - levels.rounds) <= 1e-12 + cut * 1e3
    for mine, theirs in ((levels.attacker_survivors, rows.attacker_survivors),
                         (levels.defender_survivors, rows.defender_survivors)):
        for comp in set(mine) | set(theirs):
            assert abs(mine.get(comp, 0.0) - theirs.get(comp, 0.0)) <= 1e-12 + cut, comp


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=fleets())
def test_sea_battles_by_levels_as_by_rows(setup):
    assert_close(setup)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=fleets(most=4))
def test_sea_battles_with_certain_hits_by_levels_as_by_rows(setup):
    assert_close(setup, sides=1)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=fleets())
def test_low_luck_sea_battles_by_levels_as_by_rows(setup):
    assert_close(attrs.evolve(setup, low_luck=True))


@st.composite
def later_fleets(draw):
    """A sea battle of Spring 1942 or Global 1940: cruisers, and in Global 1940 tactical
    bombers and carriers whose fighters are lost with them."""
    key = draw(st.sampled_from(["aa1942", "global1940"]))
    game = GAMES[key]
    units = game.ruleset.units
    uid = itertools.count(1)
    ships = [k for k in ("submarine", "destroyer", "cruiser", "battleship", "carrier",
                         "transport") if k in units]

    def fleet(owner, air):
        out = []
        for kind in draw(st.lists(st.sampled_from(ships + air), min_size=1, max_size=5)):
            out.append(BattleUnit(next(uid), units[kind], owner))
        return tuple(out)

    defender = "russia" if "russia" in game.ruleset.powers else "ussr"
    air = [k for k in ("fighter", "tactical_bomber", "bomber") if k in units]
    return BattleSetup("x", "x", True, "germany", fleet("germany", air),
                       fleet(defender, air[:1]), stages=game.ruleset.plan.battle_stages,
                       unit_types=units)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=later_fleets())
def test_1942_and_global_sea_battles_by_levels_as_by_rows(setup):
    assert_close(setup)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=aa_battles())
def test_land_battles_by_levels_as_by_rows(setup):
    """Levels are not the default on land; they must still give the same odds (AA fire,
    bombardment, a retreat after round 1 or 2: more than one bucket played by rows)."""
    assert_close(setup)


def test_sea_battles_are_played_by_levels(monkeypatch):
    """The default for a sea battle: its last bucket by levels."""
    seen = []
    levels = LevelRows._levels

    def count(self):
        seen.append(self)
        return levels(self)

    monkeypatch.setattr(LevelRows, "_levels", count)
    from test_combat import Army, sea
    army = Army()
    fleet = sea(army.side("germany", "2 submarine", "1 destroyer", "1 carrier", "2 fighter",
                          "1 battleship"),
                army.side("ussr", "2 submarine", "2 destroyer", "1 battleship", "1 carrier",
                          "2 fighter"))
    assert_same(fleet)
    assert len(seen) == 1
