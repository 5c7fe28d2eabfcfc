"""A second edition the engine has never seen: tests/editions/tidewar, whose rules live in
tests/tidewar_rules.py and reach the engine only through the hooks of the whole turn
(``engine.turn_rules``, income items, steps, raid effects, plug-in order kinds).  It is
registered only here; nothing in the package knows it.  Every hook is used: an owned sea
zone captured on entry, a trigger after capture, a persistent per-unit flag that changes a
move range, per-power and per-edition state, an income item that rolls dice into a second
economy, a non-playing owner whose land may not be entered, a standing order that is not
``defend``, a round-end step, placement capacity by origin, a raid on the treasury, a power
moving units it does not own, placement with no factory, casualties from outside a battle."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from adjudicator import editions
from adjudicator.engine import adjudicate, check
from adjudicator.engine.combat import BattleSetup, BattleUnit
from adjudicator.engine.combat.odds import battle_odds, monte_carlo
from adjudicator.io.codec import decode_state, encode_state
from adjudicator.io.parser import parse_orders
from adjudicator.model.dice import FixedDice
from adjudicator.model.events import (
    Captured, DiceRolled, EconomyIncome, IncomeCollected, TreasuryRaided,
)
from adjudicator.model.state import Unit
from adjudicator.present.report import report_text
from adjudicator.service.games import initial_state, load_game
from adjudicator.service.rules_cases import run_edition

from cli_helpers import pbem

DATA = Path(__file__).parent / "editions" / "tidewar"


@pytest.fixture
def tidewar():
    edition = editions.register(editions.Edition("tidewar", "Tide War", str(DATA),
                                                 plugins=("tidewar_rules",)))
    yield load_game("tidewar")
    editions.unregister(edition.name)


def play(game, state, text, dice=()):
    orders = parse_orders(text, game, power=state.power)
    problems = [p for p in check(game, state, orders) if p.is_error]
    assert problems == []
    return adjudicate(game, state, orders, FixedDice(list(dice)))


def errors(game, state, text):
    orders = parse_orders(text, game, power=state.power)
    return [(p.code, p.line) for p in check(game, state, orders) if p.is_error]


def test_data_gives_economies_nations_and_owned_sea_zones(tidewar):
    state = initial_state(tidewar, "t")
    assert state.ipcs == {"red": 10, "red_fleet": 2, "blue": 10}
    assert state.owners["Toll Lane"] == "blue"          # a sea zone with an owner and a value
    assert tidewar.map["Toll Lane"].ipc == 2
    assert state.owners["Greymoor"] == "grey"           # an owner that does not play
    assert "grey" not in tidewar.ruleset.turn_order
    assert tidewar.projected_income(state.owners, "blue") == 2 + 5 + 2   # the lane's value too


def test_a_warship_takes_a_lane_on_entry_and_the_capture_triggers_rules(tidewar):
    state = initial_state(tidewar, "t")
    # tolls: red holds Toll Lane after its move; one die, a 6 pays the lane's 2 IPCs
    result = play(tidewar, state, "combat:\nmove 2 frg Red Roads -> Toll Lane", dice=[6])
    taken = [e for e in result.events if isinstance(e, Captured)]
    assert [(e.territory, e.by, e.from_power, e.ipc) for e in taken] == [("Toll Lane", "red", "blue", 2)]
    after = result.state
    assert after.owners["Toll Lane"] == "red"
    # on_capture: every taking warship is marked, the taker's count of lanes goes up
    assert {u.flags for u in after.units["Toll Lane"]} == {("lane_keeper",)}
    assert after.extras == {"lanes_taken": {"red": 1}, "turns_played": {"red": 1}}
    # income: territories (5 + 2) into red's main economy, tolls into its second one
    income = next(e for e in result.events if isinstance(e, IncomeCollected))
    assert income.items == (("territories", 7),)
    fleet = next(e for e in result.events if isinstance(e, EconomyIncome))
    assert (fleet.economy, fleet.income, fleet.total) == ("red_fleet", 2, 4)
    assert after.ipcs == {"blue": 10, "red": 17, "red_fleet": 4}
    # the flag and the state are in the turn file and come back from it
    assert decode_state(encode_state(after)) == after
    assert encode_state(after)["units"]["Toll Lane"] == [
        {"type": "frigate", "owner": "red", "count": 2, "flags": ["lane_keeper"]}]


def test_a_flagged_ship_moves_further_and_the_round_end_step_clears_the_flag(tidewar):
    state = initial_state(tidewar, "t")
    flagged = tuple(attrs.evolve(u, flags=("lane_keeper",)) for u in state.units["Red Roads"])
    plain = attrs.evolve(state, units=dict(state.units) | {"Red Roads": state.units["Red Roads"][:1]})
    far = "noncombat:\nmove 1 frg Red Roads -> Toll Lane -> Blue Bay -> Bluehaven"
    assert ("ship_on_land", 2) in errors(tidewar, plain, far)
    three = "noncombat:\nmove 1 frg Red Roads -> Toll Lane -> Blue Bay"
    blue_out = attrs.evolve(state, units={k: v for k, v in state.units.items() if k != "Blue Bay"})
    assert errors(tidewar, blue_out, three + " -> Toll Lane") == [("path_too_long", 2)]
    bonus = attrs.evolve(blue_out, units=dict(blue_out.units) | {"Red Roads": flagged})
    assert errors(tidewar, bonus, three + " -> Toll Lane") == []       # move 2 + 1
    # blue plays last in the round: the round-end step clears every flag
    blue_turn = attrs.evolve(bonus, power="blue")
    result = play(tidewar, blue_turn, "pass", dice=[1])     # blue's toll die for its lane
    assert all(not u.flags for u in result.state.units["Red Roads"])
    assert result.state.round == bonus.round + 1


def test_land_of_a_nation_that_does_not_play_may_not_be_entered(tidewar):
    state = initial_state(tidewar, "t")
    midmarch_red = attrs.evolve(state, owners=state.owners | {"Midmarch": "red"},
                                units=dict(state.units) | {"Midmarch": (Unit("soldier", "red"),)})
    assert errors(tidewar, midmarch_red, "combat:\nmove 1 sol Midmarch -> Greymoor") \
        == [("grey_is_neutral", 2)]


def test_a_standing_toll_order_that_is_not_defend(tidewar):
    state = initial_state(tidewar, "t")
    result = play(tidewar, state, "combat:\nmove 2 frg Red Roads -> Toll Lane\ntoll all: waive")
    assert not any(isinstance(e, EconomyIncome) and e.income for e in result.events)
    assert not any(isinstance(e, DiceRolled) for e in result.events)
    stored = result.state.standing_orders["red"]
    assert stored.choice("toll").value == "waive"
    assert decode_state(encode_state(result.state)) == result.state
    # its documented default is "collect"; a value it does not know is refused
    assert errors(tidewar, state, "toll all: maybe") == [("standing_bad_value", 1)]


def test_placement_capacity_knows_the_origin(tidewar):
    state = initial_state(tidewar, "t")
    # Redholm is worth 5; an original yard places 2 more
    assert errors(tidewar, state, "buy 3 sol\nplace 3 sol Redholm") == []
    state = attrs.evolve(state, ipcs=state.ipcs | {"red": 30})
    assert errors(tidewar, state, "buy 7 sol\nplace 7 sol Redholm") == []
    assert "overbuying" in {c for c, _ in errors(tidewar, state, "buy 8 sol\nplace 8 sol Redholm")}


def test_a_power_may_command_units_it_does_not_own(tidewar):
    """may_command: whoever holds Midmarch moves grey's soldier, in the noncombat move only."""
    state = attrs.evolve(initial_state(tidewar, "t"), power="blue")
    move = "move 1 sol Greymoor -> Greyfell"
    assert errors(tidewar, state, "noncombat:\n" + move) == []
    result = play(tidewar, state, "noncombat:\n" + move, dice=[1])
    assert result.state.units["Greyfell"] == (Unit("soldier", "grey"),)
    assert errors(tidewar, state, "combat:\n" + move) != []
    red = attrs.evolve(state, power="red")       # red does not hold Midmarch
    assert errors(tidewar, red, "noncombat:\n" + move) != []


def test_placement_with_no_factory(tidewar):
    """placement_spaces: one soldier in each territory beside the capital, no yard there."""
    state = attrs.evolve(initial_state(tidewar, "t"), power="blue")
    assert errors(tidewar, state, "buy 1 sol\nplace 1 sol Midmarch") == []
    result = play(tidewar, state, "buy 1 sol\nplace 1 sol Midmarch", dice=[1])
    assert result.state.units["Midmarch"].count(Unit("soldier", "blue")) == 2
    assert errors(tidewar, state, "buy 2 sol\nplace 2 sol Midmarch") != []    # one only
    red = initial_state(tidewar, "t")          # Midmarch is not red's
    assert errors(tidewar, red, "buy 1 sol\nplace 1 sol Midmarch") != []


def test_casualties_from_units_outside_the_battle(tidewar):
    """casualty_pool: blue's frigate hits once; red, defending, loses the soldier aboard its
    barge (its loss order names it) rather than a frigate."""
    state = initial_state(tidewar, "t")
    barge = next(u for u in state.units["Red Roads"] if u.type == "barge")
    loaded = tuple(u for u in state.units["Red Roads"] if u.type != "barge") + (
        attrs.evolve(barge, cargo=(Unit("soldier", "red"),)),)
    state = attrs.evolve(state, power="blue", units=dict(state.units) | {
        "Red Roads": loaded, "Toll Lane": (Unit("frigate", "blue"),)},
        standing_orders=state.standing_orders)
    state = attrs.evolve(state, units={k: v for k, v in state.units.items() if k != "Blue Bay"})
    defend = play(tidewar, attrs.evolve(state, power="red"), "defend all: losses sol, frg",
                  dice=[6]).state
    state = attrs.evolve(state, standing_orders=defend.standing_orders)
    # round 1: blue's frigate hits (1); red's two frigates miss (6, 6); round 2: blue misses
    # (6), red hits (1, 6): blue's frigate is sunk
    result = play(tidewar, state, "combat:\nmove 1 frg Toll Lane -> Red Roads",
                  dice=[1, 6, 6, 6, 1, 6, 1])
    after = {u.type for u in result.state.units["Red Roads"] if u.owner == "red"}
    assert after == {"frigate", "barge"}
    assert sum(u.type == "frigate" for u in result.state.units["Red Roads"]) == 2
    assert all(not u.cargo for u in result.state.units["Red Roads"])


def test_a_raid_takes_ipcs_from_the_treasury(tidewar):
    state = initial_state(tidewar, "t")
    result = play(tidewar, state, "combat:\nmove 1 bmb Redholm -> Midmarch -> Bluehaven\n"
                  "bomb Bluehaven with 1 bmb", dice=[4])
    raid = next(e for e in result.events if isinstance(e, TreasuryRaided))
    assert (raid.power, raid.rolls, raid.lost, raid.total) == ("blue", (4,), 4, 6)
    assert result.state.ipcs["blue"] == 6
    assert not any(u.damage for u in result.state.units["Bluehaven"])
    assert "Red bombs Bluehaven: Blue loses 4 IPCs (6 left)" in report_text(result.events, tidewar)


def test_after_battle_writes_the_editions_state(tidewar):
    state = initial_state(tidewar, "t")
    units = dict(state.units) | {"Toll Lane": (Unit("frigate", "blue"),)}
    state = attrs.evolve(state, units=units)
    # one round: red 2 frigates @2 miss (5, 6); blue frigate @2 hits (1); red retreats? no:
    # the battle goes on until one side is gone -- red misses again, blue hits again.
    result = play(tidewar, state, "combat:\nmove 2 frg Red Roads -> Toll Lane",
                  dice=[5, 6, 1, 5, 1])
    assert result.state.owners["Toll Lane"] == "blue"
    assert result.state.extras["lanes_held"] == ["Toll Lane"]


def test_the_report_reads_the_events(tidewar):
    state = initial_state(tidewar, "t")
    result = play(tidewar, state, "combat:\nmove 2 frg Red Roads -> Toll Lane", dice=[6])
    text = report_text(result.events, tidewar, state, result.state)
    assert "Red rolls 6 for its tolls: 2 IPCs to red fleet" in text       # an economy in words
    assert "Red collects 2 IPCs in its red fleet economy (4 now)" in text


def test_exact_odds_of_its_sea_battle(tidewar):
    """1 frigate (attack 2) against 1 frigate (defence 2): each round both hit with 1/3.
    P(attacker wins) = (1/3)(2/3) / (1 - (2/3)^2) = 2/5, a draw 1/5, the defender 2/5."""
    units = tidewar.ruleset.units
    setup = BattleSetup("b", "Toll Lane", True, "red",
                        (BattleUnit(1, units["frigate"], "red"),),
                        (BattleUnit(2, units["frigate"], "blue"),),
                        stages=tidewar.ruleset.plan.battle_stages, unit_types=units)
    odds = battle_odds(setup)
    assert odds.attacker_wins == pytest.approx(2 / 5, abs=1e-12)
    assert odds.defender_wins == pytest.approx(2 / 5, abs=1e-12)
    sampled = monte_carlo(setup, 20_000, seed=1)
    assert abs(sampled.attacker_wins - 2 / 5) < 4 * sampled.stderr["attacker_wins"]


def test_its_rules_cases_pass(tidewar):
    results = run_edition("tidewar", DATA / "cases")
    assert len(results) >= 3
    assert [r.failures for r in results if not r.ok] == []


def test_the_cli_plays_signs_verifies_and_reports_it(tidewar, tmp_path, capsys):
    game = tmp_path / "g"
    code, out = pbem(capsys, "new", game, "--ruleset", "tidewar", "--demo-seeds")
    assert code == 0, out
    red = tmp_path / "red.txt"
    red.write_text("combat:\nmove 2 frg Red Roads -> Toll Lane\ntoll all: collect\n",
                   encoding="utf-8")
    report = tmp_path / "report.txt"
    code, out = pbem(capsys, "process", red, "-g", game, "--demo-seeds", "--report", report)
    assert code == 0, out
    text = report.read_text(encoding="utf-8")
    assert "Toll Lane" in text and "red fleet" in text
    blue = tmp_path / "blue.txt"
    blue.write_text("noncombat:\nmove 1 sol Bluehaven -> Midmarch\n", encoding="utf-8")
    code, out = pbem(capsys, "process", blue, "-g", game, "--demo-seeds")
    assert code == 0, out
    code, out = pbem(capsys, "verify", game)
    assert code == 0, out
    code, out = pbem(capsys, "show", "-g", game)
    assert code == 0, out
    assert "Toll Lane" in out


def test_a_barge_carries_one_wagon_or_two_other_units(tidewar):
    """``cargo = { slots = 2, large_size = 2 }``: a large unit takes both slots."""
    state = initial_state(tidewar, "t")
    assert errors(tidewar, state, "noncombat:\nload 2 sol Redholm -> Red Roads") == []
    assert errors(tidewar, state, "noncombat:\nload 1 wgn Redholm -> Red Roads") == []
    assert errors(tidewar, state, "noncombat:\nload 1 wgn, 1 sol Redholm -> Red Roads") \
        == [("no_transport_room", 2)]


def test_rules_and_odds_commands_know_it(tidewar, capsys):
    code, out = pbem(capsys, "rules", "--ruleset", "tidewar")
    assert code == 0, out
    flat = " ".join(out.split())
    assert "rule sea_lanes:" in flat
    assert "standing order toll: one of collect, waive; default collect." in flat
    code, out = pbem(capsys, "odds", "--ruleset", "tidewar", "--sea", "1 frg", "vs", "1 frg")
    assert code == 0, out
    assert "40.0" in out          # 2/5, as in test_exact_odds_of_its_sea_battle


def test_the_engine_refuses_unknown_rules_and_raid_effects(tmp_path):
    """Data naming an edition rule or a raid effect nobody registered is refused, saying which."""
    import shutil
    from adjudicator.model.errors import DataError
    copy = tmp_path / "tidewar2"
    shutil.copytree(DATA, copy)
    game_toml = copy / "game.toml"
    text = game_toml.read_text(encoding="utf-8")
    game_toml.write_text(text.replace('raid = "treasury"', 'raid = "plunder"')
                         .replace('"barge_ballast"]', '"barge_ballast", "mystery"]'),
                         encoding="utf-8")
    with pytest.raises(DataError) as found:
        load_game(str(copy))
    assert "unknown rule 'mystery'" in str(found.value)
    assert "unknown raid effect 'plunder'" in str(found.value)
