"""Rows of the sweep played out together (engine/combat/sweeprows.py, issue 24) against the
same sweep playing every row alone, the calculator before the batches: random land battles
with AA guns of Spring 1942 (a die aimed at each aircraft) and Global 1940 (three dice a
gun, the attacker choosing the losses), with bombardment and retreats, and random sea
battles (several target classes: the rows are then played one by one; by default a sea
battle's last bucket is played by levels, tests/test_odds_levels.py), to 1e-12.
Both are also checked against the state chain by tests/test_odds_first_round.py and
tests/test_odds_sea.py."""

from __future__ import annotations

import itertools

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from test_combat import Army, sea
from test_odds_first_round import GAMES, aa_battles
from test_odds_levels import assert_close
from test_odds_sea import fleets
from test_odds_sweep import assert_same

from adjudicator.engine.combat import BattleSetup, BattleUnit
from adjudicator.engine.combat.board import Board
from adjudicator.engine.combat.odds import DEFAULT_PRUNE, _summarize
from adjudicator.engine.combat.sweep import Sweep
from adjudicator.engine.combat.sweeprows import BatchRows


def row_by_row(setup, sides=6):
    """The odds of ``setup`` with every row of the sweep played alone."""
    board = Board(setup)
    sweep = Sweep(board, sides, DEFAULT_PRUNE, batch=False, levels=False)
    sweep.run()
    return _summarize(board, sweep, None)


@pytest.fixture
def paths(monkeypatch):
    """How often rows were played together, and whether their operators could be built
    together ("fast") or not ("slow")."""
    seen = {"rows": 0, "fast": 0, "slow": 0}
    rows, fast = BatchRows._rows, BatchRows._stack_fast

    def count_rows(self, b, batch):
        seen["rows"] += 1
        return rows(self, b, batch)

    def count_fast(self, *args):
        out = fast(self, *args)
        seen["fast" if out is not None else "slow"] += 1
        return out

    monkeypatch.setattr(BatchRows, "_rows", count_rows)
    monkeypatch.setattr(BatchRows, "_stack_fast", count_fast)
    return seen


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=aa_battles("aa1942"))
def test_1942_aa_battles_together_as_alone(setup):
    assert_same(setup, reference=row_by_row)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=aa_battles("global1940"))
def test_global_aa_battles_together_as_alone(setup):
    assert_same(setup, reference=row_by_row)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=aa_battles())
def test_low_luck_aa_battles_together_as_alone(setup):
    assert_same(attrs.evolve(setup, low_luck=True), reference=row_by_row)


def together(setup, sides=6):
    """The odds of ``setup`` with the rows of the last bucket played together where they
    can (a sea battle is played by levels by default: not here)."""
    board = Board(setup)
    sweep = Sweep(board, sides, DEFAULT_PRUNE, levels=False)
    sweep.run()
    return _summarize(board, sweep, None)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=fleets())
def test_sea_battles_together_as_alone(setup):
    assert_close(setup, first=row_by_row, second=together)


def test_rows_together_in_land_battles_alone_at_sea(paths):
    """An AA battle plays rows together with operators built together; a sea battle with
    submarines, aircraft and ships (hits of several classes) finds that it cannot and plays
    its rows one by one."""
    game = GAMES["aa1942"]
    units = game.ruleset.units
    uid = itertools.count(1)

    def mix(owner, **kinds):
        return tuple(BattleUnit(next(uid), units[k], owner) for k, n in kinds.items()
                     for _ in range(n))

    land = BattleSetup("x", "x", False, "germany",
                       mix("germany", infantry=4, tank=2, fighter=3, bomber=1),
                       mix("russia", infantry=6, artillery=1),
                       stages=game.ruleset.plan.battle_stages,
                       support=((), mix("russia", aa_gun=1)), unit_types=units)
    assert_same(land, reference=row_by_row)
    assert paths["rows"] and paths["fast"]
    army = Army()
    fleet = sea(army.side("germany", "2 submarine", "1 destroyer", "1 carrier", "2 fighter",
                          "1 battleship"),
                army.side("ussr", "2 submarine", "2 destroyer", "1 battleship", "1 carrier",
                          "2 fighter"))
    assert_close(fleet, first=row_by_row, second=together)
    assert paths["slow"]
