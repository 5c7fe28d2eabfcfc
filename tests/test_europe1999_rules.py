"""Europe 1999's battle plug-ins against closed forms, in the exact odds and the dice
driver's Monte Carlo (they share the battle pipeline): the attacker-only first strike, the
unaimed AA fire whose losses the attacker chooses, and submerging that a destroyer does not
prevent.  Rules from ../shared/rules/aa-europe-1999.md (seed 001)."""

from __future__ import annotations

import pytest

from adjudicator.engine.combat import BattleSetup, BattleUnit
from adjudicator.engine.combat.odds import battle_odds, monte_carlo
from adjudicator.model.orders import SubmergePolicy
from adjudicator.service.games import load_game


@pytest.fixture(scope="module")
def game():
    return load_game("europe1999")


def setup(game, attackers, defenders, is_sea=True, **kw) -> BattleSetup:
    units = game.ruleset.units
    uid = iter(range(1, 100))
    side = lambda keys, owner: tuple(BattleUnit(next(uid), units[k], owner) for k in keys)  # noqa: E731
    return BattleSetup("b", "Celtic Sea" if is_sea else "East Poland", is_sea, "germany",
                       side(attackers, "germany"), side(defenders, "uk"),
                       stages=game.ruleset.plan.battle_stages, unit_types=units, **kw)


def test_attacking_submarine_strikes_first(game):
    """1 sub (first strike at 2) attacks 1 transport (defence 1) [L433-L437]: each round
    the sub hits first with 1/3; if it misses the transport hits with 1/6.  P(attacker
    wins) = (1/3) / (1 - (2/3)(5/6)) = 3/4; both destroyed is impossible."""
    s = setup(game, ["submarine"], ["transport"])
    odds = battle_odds(s)
    assert odds.attacker_wins == pytest.approx(3 / 4, abs=1e-12)
    assert odds.defender_wins == pytest.approx(1 / 4, abs=1e-12)
    assert odds.both_destroyed == pytest.approx(0, abs=1e-12)
    sampled = monte_carlo(s, 20_000, seed=1)
    assert abs(sampled.attacker_wins - 3 / 4) < 4 * sampled.stderr["attacker_wins"]


def test_defending_submarine_fires_with_the_others(game):
    """1 destroyer (3) attacks 1 sub (2) that never submerges [L785]: simultaneous fire,
    1/2 against 1/3.  Per round: attacker alone 1/3, defender alone 1/6, both 1/6, none
    1/3.  P = 1/2, 1/4, 1/4."""
    s = setup(game, ["destroyer"], ["submarine"], defender_submerge=SubmergePolicy.NEVER)
    odds = battle_odds(s)
    assert odds.attacker_wins == pytest.approx(1 / 2, abs=1e-12)
    assert odds.defender_wins == pytest.approx(1 / 4, abs=1e-12)
    assert odds.both_destroyed == pytest.approx(1 / 4, abs=1e-12)


def test_a_destroyer_cancels_the_first_strike(game):
    """1 sub attacks 1 destroyer: no first strike, the sub fires with the others [L439]:
    1/3 against 1/2 at once.  P(attacker wins) = (1/3)(1/2) / (1 - (2/3)(1/2)) = 1/4, and
    both destroyed (1/3)(1/2) / (2/3) = 1/4."""
    s = setup(game, ["submarine"], ["destroyer"])
    odds = battle_odds(s)
    assert odds.attacker_wins == pytest.approx(1 / 4, abs=1e-12)
    assert odds.both_destroyed == pytest.approx(1 / 4, abs=1e-12)


def test_a_destroyer_does_not_stop_submerging(game):
    """A defending sub with the policy 'always' submerges at once even against a
    destroyer [L439, L457]: nothing is lost on either side."""
    s = setup(game, ["destroyer"], ["submarine"], defender_submerge=SubmergePolicy.ALWAYS)
    odds = battle_odds(s)
    assert odds.attacker_wins == pytest.approx(1, abs=1e-12)
    assert odds.defender_tuv_lost == pytest.approx(0, abs=1e-12)
    assert odds.attacker_tuv_lost == pytest.approx(0, abs=1e-12)


def test_aa_losses_follow_the_attackers_loss_order(game):
    """A fighter (12) and a bomber (15) fly into a territory held only by an AA gun: the AA
    rolls 2 unaimed dice at 1 [L711] and the attacker chooses the losses [L381].  Bombers
    first: expected TUV lost 15 * 11/36 + 12 * 1/36 = 177/36; fighters first: 147/36.  (Dice
    aimed at an aircraft each, the 1942 rule, would give 27/6 for both.)"""
    units = game.ruleset.units
    aa = ((), (BattleUnit(99, units["aa_gun"], "uk"),))
    for order, expected in ((("bomber", "fighter"), 177 / 36), (("fighter", "bomber"), 147 / 36)):
        s = setup(game, ["fighter", "bomber"], [], is_sea=False, attacker_loss_order=order, support=aa)
        assert battle_odds(s).attacker_tuv_lost == pytest.approx(expected, abs=1e-12), order


def test_converted_units_stay_frozen_until_the_next_soviet_turn(game):
    """§5.5.2 [L665]: units the USSR converts cannot move until its next turn; then they can."""
    import attrs

    from adjudicator.engine.turn import adjudicate, check
    from adjudicator.io.parser import parse_orders
    from adjudicator.model.dice import SideDice
    from adjudicator.model.state import Unit
    from adjudicator.service.games import initial_state

    state = initial_state(game, "gpw")
    moscow = state.units["Moscow"]
    infantry = sum(1 for u in moscow if u.type == "infantry" and u.owner == "ussr")
    state = attrs.evolve(state, power="ussr", round=1,             # past the pre-game round
                         units={**state.units, "Moscow": moscow + (Unit("infantry", "uk"),)})
    move_all = f"noncombat:\nmove {infantry + 1} inf Moscow -> Russia\n"
    convert = "noncombat:\nconvert 1 inf Moscow\n"
    problems = check(game, state, parse_orders(convert + f"move {infantry + 1} inf Moscow -> Russia\n",
                                               game, power="ussr"))
    assert [p.code for p in problems] == ["unit_frozen"]
    state = adjudicate(game, state, parse_orders(convert, game, power="ussr"), SideDice(6, 6)).state
    assert sum(1 for u in state.units["Moscow"] if "frozen" in u.flags and u.owner == "ussr") == 1
    for power in ("uk", "usa", "germany"):
        state = adjudicate(game, state, parse_orders("pass\n", game, power=power), SideDice(6, 6)).state
    assert state.power == "ussr"
    assert check(game, state, parse_orders(move_all, game, power="ussr")) == []


def test_allies_win_when_berlin_held_through_germanys_turn_and_moscow_is_freed_later(game):
    """§1.5 [L98], §8 #14: Berlin taken and held through Germany's turn; the Allies win as
    soon as their capitals are all theirs again, at the end of the Soviet turn that frees
    Moscow (eur99-hook-win-01, which a case position cannot write: it needs the history)."""
    import attrs

    from adjudicator.engine.turn import adjudicate
    from adjudicator.io.parser import parse_orders
    from adjudicator.model.dice import SideDice
    from adjudicator.model.state import Unit
    from adjudicator.service.games import initial_state

    state = initial_state(game, "win")
    units = {k: v for k, v in state.units.items() if k not in ("Germany", "Moscow", "Russia")}
    units.update({"Germany": (Unit("infantry", "uk"),) * 2, "Moscow": (Unit("infantry", "germany"),),
                  "Russia": (Unit("infantry", "ussr"),) * 3})
    state = attrs.evolve(state, power="germany", round=1, units=units,   # past the pre-game round
                         owners={**state.owners, "Germany": "uk", "Moscow": "germany"})
    state = adjudicate(game, state, parse_orders("pass\n", game, power="germany"), SideDice(6, 6)).state
    assert state.extras["berlin_held_by_allies"] is True and state.winner is None   # Moscow is German
    orders = parse_orders("combat:\nmove 3 inf Russia -> Moscow\n", game, power="ussr")
    after = adjudicate(game, state, orders, SideDice(1, 6)).state
    assert after.owners["Moscow"] == "ussr" and after.winner == "Allies"
    # without a German turn in between, taking Berlin wins nothing (eur99-win-07)
    fresh = attrs.evolve(state, extras={})
    assert adjudicate(game, fresh, orders, SideDice(1, 6)).state.winner is None


def test_the_middle_east_is_a_nation_of_the_allies_at_war_with_germany(game):
    """§5.8.2 [L222, L695]: independent states occupied by the Allies, taken by Germany:
    a nation with a side is allied with that side and at war with the other; a nation
    without one (Global 1940's neutrals) is neutral towards everybody."""
    from adjudicator.model.rules import ALLIED, NEUTRAL, WAR

    rules = game.ruleset
    assert rules.nations["middle_east"].side == "Allies"
    assert rules.relation("germany", "middle_east") == rules.relation("middle_east", "germany") == WAR
    assert {rules.relation(p, "middle_east") for p in ("uk", "usa", "ussr")} == {ALLIED}
    assert rules.relation("germany", "uk") == WAR and rules.relation("uk", "usa") == ALLIED
    g40 = load_game("global1940").ruleset
    assert {g40.relation(p, "strict_neutral") for p in g40.powers} == {NEUTRAL}
    assert {t.key for t in game.map.land() if t.original_owner == "middle_east"} == {
        "Egypt", "Iran", "Iraq", "Palestine", "Syria", "Trans-Jordan"}


def test_a_new_game_starts_with_the_pregame_round(game):
    """§1.4 [L250-L251]: the special cash is spent before round 1: a new Europe game starts
    in round 0 with Germany, whose turn runs only the pre-game steps; editions without a
    pre-game round start in round 1."""
    import attrs

    from adjudicator.engine.turn import turn_steps
    from adjudicator.service.games import initial_state

    state = initial_state(game, "new")
    assert (state.round, state.power) == (0, "germany")
    assert turn_steps(game, state) == ("special_cash_purchase", "special_cash_placement")
    assert "purchase" in turn_steps(game, attrs.evolve(state, round=1))
    aa1941 = load_game("aa1941")
    assert initial_state(aa1941, "new").round == 1
