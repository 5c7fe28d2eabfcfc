"""Low Luck dice (issue 13, docs/low-luck.md): groups, sure hits, the remainder die, its
place in the dice log and the luck table, the exact odds, and a whole game that verifies."""

from __future__ import annotations

import json
import math

import attrs
import pytest
from test_combat import UNITS, Army, land, sea

from adjudicator.engine.combat import BattleSetup, BattleUnit, resolve_battle
from adjudicator.engine.combat.odds import battle_odds, monte_carlo
from adjudicator.model.dice import FixedDice
from adjudicator.model.events import BattleStarted, DiceRolled, LowLuckRolled
from adjudicator.service import gamedir
from adjudicator.service.audit import luck_from_events, verify_game
from adjudicator.service.games import load_game
from adjudicator.io.paths import TURNS_DIR


def low(setup: BattleSetup) -> BattleSetup:
    return attrs.evolve(setup, low_luck=True)


def rolls(result) -> list[LowLuckRolled]:
    found = [e for e in result.events if isinstance(e, DiceRolled)]
    assert all(isinstance(e, LowLuckRolled) for e in found)
    return found


def test_sure_hits_and_one_die_for_the_remainder():
    """2 tanks attack (3 + 3 = 6 points: one sure hit, no die); 5 infantry defend (10
    points: one sure hit and a die hitting on 4 or less, here a 5)."""
    army = Army()
    dice = FixedDice([5] + [1] * 20)
    result = resolve_battle(low(land(army.side("germany", "2 tank"),
                                     army.side("ussr", "5 infantry"),
                                     retreat=(), min_rounds=0)), dice)
    first = [e for e in rolls(result) if e.round == 1]
    att = next(e for e in first if e.side == "attacker")
    dfn = next(e for e in first if e.side == "defender")
    assert (att.units, att.total, att.sure, att.rolls, att.hits) == ({"tank": 2}, 6, 1, (), 1)
    assert (dfn.units, dfn.total, dfn.sure, dfn.target, dfn.rolls, dfn.hits) == (
        {"infantry": 5}, 10, 1, 4, (5,), 1)
    assert all("low luck" in p for p in dice.purposes)
    assert "defender low luck infantry @4" in dice.purposes[0]


def test_groups_follow_the_targets_the_enemy_offers():
    """Submarines cannot hit aircraft: a group of their own against a fleet with aircraft,
    one group with the destroyer against a fleet without."""
    army = Army()
    subs_and_dd = army.side("germany", "2 submarine", "1 destroyer")
    with_air = resolve_battle(low(sea(subs_and_dd, army.side("ussr", "1 destroyer", "1 fighter"))),
                              FixedDice([6] * 40))
    groups = [e.units for e in rolls(with_air) if e.side == "attacker" and e.round == 1]
    assert groups == [{"submarine": 2}, {"destroyer": 1}]
    army = Army()
    without = resolve_battle(low(sea(army.side("germany", "2 submarine", "1 destroyer"),
                                     army.side("ussr", "2 destroyer"))), FixedDice([6] * 40))
    groups = [e.units for e in rolls(without) if e.side == "attacker" and e.round == 1]
    assert groups == [{"submarine": 2, "destroyer": 1}]


def test_aa_fire_is_one_group_per_aircraft_type():
    game = load_game("aa1942")
    u = game.ruleset.units
    att = tuple(BattleUnit(i, u["fighter"], "germany") for i in range(1, 9))
    dfn = (BattleUnit(20, u["infantry"], "russia"),)
    gun = (BattleUnit(30, u["aa_gun"], "russia"),)
    setup = BattleSetup("x", "x", False, "germany", att, dfn, stages=game.ruleset.plan.battle_stages,
                        support=((), gun), unit_types=u, low_luck=True)
    result = resolve_battle(setup, FixedDice([6] * 40))
    aa = [e for e in rolls(result) if e.step == "aa"]
    assert [(e.units, e.total, e.sure, e.target) for e in aa] == [({"fighter": 8}, 8, 1, 2)]


def test_exact_odds_closed_form():
    """2 tanks (6 points) vs 3 infantry (6 points): round 1 costs each side one unit for
    sure; then 1 tank (a die, hit on 3) faces 2 infantry (hit on 4), later 1 (hit on 2).
    By hand: from (1, 2) the battle leaves to (1, 1) with chance 1/5, else the defender
    wins; from (1, 1) the attacker wins 1/2, both die 1/4, the defender wins 1/4."""
    army = Army()
    odds = battle_odds(low(land(army.side("germany", "2 tank"), army.side("ussr", "3 infantry"))))
    assert odds.attacker_wins == pytest.approx(1 / 10, abs=1e-12)
    assert odds.both_destroyed == pytest.approx(1 / 20, abs=1e-12)
    assert odds.defender_wins == pytest.approx(17 / 20, abs=1e-12)
    assert odds.rounds == pytest.approx(1 + 6 / 5 + (1 / 5) * (3 / 2), abs=1e-12)


RUNS = 100_000


def _scenarios():
    army = Army()
    game = load_game("aa1942")
    u = game.ruleset.units
    yield "land", low(land(army.side("germany", "4 infantry", "2 tank", "1 fighter"),
                           army.side("ussr", "5 infantry", "1 fighter")))
    yield "sea", low(sea(army.side("germany", "2 submarine", "1 destroyer", "1 fighter",
                                   "1 battleship"),
                         army.side("ussr", "2 submarine", "1 carrier", "2 fighter",
                                   "1 transport[infantry,infantry]")))
    uid = iter(range(1, 100))
    att = tuple(BattleUnit(next(uid), u[k], "germany") for k in
                ["infantry"] * 3 + ["artillery"] * 2 + ["fighter"] * 2)
    att += tuple(BattleUnit(next(uid), u["infantry"], "germany", seaborne=True) for _ in range(2))
    dfn = tuple(BattleUnit(next(uid), u[k], "russia") for k in ["infantry"] * 4 + ["tank"])
    yield "1942 assault", BattleSetup(
        "x", "x", False, "germany", att, dfn, stages=game.ruleset.plan.battle_stages,
        support=((BattleUnit(next(uid), u["battleship"], "germany"),),
                 (BattleUnit(next(uid), u["aa_gun"], "russia"),)),
        unit_types=u, low_luck=True)


@pytest.mark.parametrize("name, setup", [pytest.param(n, s, id=n) for n, s in _scenarios()])
def test_exact_odds_match_the_dice_driver(name, setup):
    exact = battle_odds(setup)
    mc = monte_carlo(setup, RUNS, seed=name)
    assert abs(exact.total + exact.pruned - 1) < 1e-12
    for field in ("attacker_wins", "defender_wins", "both_destroyed", "stalemate", "captured"):
        p = exact.outcome(field)
        assert abs(mc.outcome(field) - p) <= 3 * math.sqrt(max(p * (1 - p), 0) / RUNS) + 1e-9, field
    for field in ("attacker_tuv_lost", "defender_tuv_lost", "rounds"):
        assert abs(getattr(mc, field) - getattr(exact, field)) <= 3 * mc.stderr[field] + 1e-9


def test_luck_counts_only_the_remainder_dice():
    army = Army()
    result = resolve_battle(low(land(army.side("germany", "2 tank", "1 infantry"),
                                     army.side("ussr", "5 infantry"))), FixedDice([1] * 40))
    events = (BattleStarted("Karelia", "Karelia", "land", "germany", ("ussr",), {}, {}),
              *result.events)
    luck = luck_from_events(events)
    groups = rolls(result)
    att = [e for e in groups if e.side == "attacker"]
    assert luck["germany"].dice == sum(len(e.rolls) for e in att)
    assert luck["germany"].hits == sum(1 for e in att for f in e.rolls if f <= e.target)
    assert luck["germany"].hits < sum(e.hits for e in att)       # the sure hits are not luck
    assert luck["germany"].expected == pytest.approx(sum(e.target / 6 for e in att if e.rolls))


def test_a_low_luck_game_plays_and_verifies(tmp_path):
    game = load_game("aa1941", options={"low_luck": True})
    directory = tmp_path / "ll"
    gamedir.create_game(directory, game, "ll", seeds=gamedir.demo_seeds("ll"))
    info, _ = gamedir.read_game(directory)
    assert info.options["low_luck"] is True
    for path in sorted((TURNS_DIR / "aa1941-example" / "orders").glob("*.txt"))[:2]:
        gamedir.process_turn(directory, game, path.read_bytes())
    report = verify_game(directory, lambda *a, **k: load_game(info.ruleset, options=info.options))
    assert report.ok, report.failure
    kinds = [e["kind"] for p in sorted((directory / "turns").glob("*.json"))
             for e in json.loads(p.read_text())["events"]]
    assert "low_luck_rolled" in kinds and "dice_rolled" not in kinds
    assert UNITS["tank"].cost == 6
