"""Invariants of the turn engine over random orders and random dice (hypothesis):
units are conserved except casualties, IPCs never go negative, and the same seed and
orders always give the same result."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.model.dice import SeededDice
from adjudicator.model.events import UnitsCaptured, AircraftLost, Casualties, Placed
from adjudicator.engine.turn import adjudicate, check
from helpers import game_1941, orders, position, start_state

# Soviet opening moves (unit group, path); any subset is legal together.
SOVIET_MOVES = [
    ("{n} inf", "Karelia -> West Russia", 3),
    ("{n} inf", "Archangel -> West Russia", 3),
    ("{n} tank", "Russia -> West Russia", 1),
    ("{n} ftr", "Russia -> West Russia", 1),
    ("{n} inf", "Caucasus -> Ukraine", 3),
    ("{n} tank", "Caucasus -> Ukraine", 1),
]

GERMAN_MOVES = [
    ("{n} inf", "Eastern Europe -> Karelia", 4),
    ("{n} tank", "Eastern Europe -> Karelia", 2),
    ("{n} inf", "West Russia -> Karelia", 3),
    ("{n} ftr", "Germany -> Eastern Europe -> Karelia", 1),
    ("{n} bmr", "Germany -> Eastern Europe -> Karelia", 1),
    ("{n} inf", "Ukraine -> Caucasus", 3),
    ("{n} tank", "Ukraine -> Caucasus", 2),
    ("{n} bb", "SZ 5 -> SZ 6 -> SZ 8", 1),
]


@st.composite
def turn_orders(draw, moves, buy_unit: str, max_buy: int):
    lines = [f"buy {draw(st.integers(0, max_buy))} {buy_unit}"]
    lines.append("combat:")
    targets = set()
    for group, path, most in moves:
        n = draw(st.integers(0, most))
        if n:
            lines.append(f"move {group.format(n=n)} {path}")
            targets.add(path.split("->")[-1].strip())
    for target in sorted(targets):
        threshold = draw(st.integers(0, 4))
        if threshold:
            lines.append(f"battle {target}: retreat if attackers < {threshold}")
    text = "\n".join(lines).replace("buy 0 " + buy_unit, "")
    return text if "move " in text or "buy " in text else text + "\npass"   # nothing: a pass


def accounting(before, result) -> Counter:
    """Expected unit counts after the turn: before + placed - every recorded loss."""
    expected = before.unit_counts()
    power = before.power
    for e in result.events:
        if isinstance(e, Placed):
            for t, n in e.units.items():
                expected[(e.power, t)] += n
        elif isinstance(e, AircraftLost):
            for t, n in e.units.items():
                expected[(e.power, t)] -= n
        elif isinstance(e, UnitsCaptured):            # factories change owner with their land
            for t, n in e.units.items():
                expected[(e.from_power, t)] -= n
                expected[(e.by, t)] += n
    battle_owner = {}
    for e in result.events:
        if type(e).__name__ == "BattleStarted":
            battle_owner[e.battle] = (e.attacker, e.defenders)
        if isinstance(e, Casualties):
            attacker, defenders = battle_owner[e.battle]
            owner = attacker if e.side == "attacker" else defenders[0]
            for t, n in {**e.killed}.items():
                expected[(owner, t)] -= n
            for t, n in e.cargo_lost.items():
                expected[(owner, t)] -= n
    assert power  # the phasing power exists
    return +expected


SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(text=turn_orders(SOVIET_MOVES, "inf", 2), seed=st.integers(0, 2**32))
def test_soviet_turn_conserves_units_and_ipcs(text, seed):
    game = game_1941()
    state = start_state(game)
    parsed = orders(text, state, game)
    assert [p for p in check(game, state, parsed) if p.severity == "error"] == []
    result = adjudicate(game, state, parsed, SeededDice(seed))
    assert +result.state.unit_counts() == accounting(state, result)
    assert all(v >= 0 for v in result.state.ipcs.values())
    again = adjudicate(game, state, parsed, SeededDice(seed))
    assert again == result


@SETTINGS
@given(text=turn_orders(GERMAN_MOVES, "tank", 2), seed=st.integers(0, 2**32))
def test_german_turn_conserves_units_and_ipcs(text, seed):
    game = game_1941()
    state = position(power="germany")
    parsed = orders(text, state, game)
    assert [p for p in check(game, state, parsed) if p.severity == "error"] == []
    result = adjudicate(game, state, parsed, SeededDice(seed))
    assert +result.state.unit_counts() == accounting(state, result)
    assert all(v >= 0 for v in result.state.ipcs.values())
    assert adjudicate(game, state, parsed, SeededDice(seed)) == result


@settings(max_examples=15, deadline=None)
@given(seeds=st.lists(st.integers(0, 2**32), min_size=5, max_size=5))
def test_a_round_of_passes_only_collects_income(seeds):
    game = game_1941()
    state = start_state(game)
    for seed in seeds:
        power = state.power
        before = state.ipcs[power]
        state = adjudicate(game, state, orders("pass", state, game), SeededDice(seed)).state
        assert state.ipcs[power] == before + sum(
            game.map[t].ipc for t, o in state.owners.items() if o == power)
    assert (state.round, state.power) == (2, "ussr")
