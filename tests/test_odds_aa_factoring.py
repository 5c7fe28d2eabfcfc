"""AA fire as a mixture (issue 24): Spring 1942's gun rolls one die at each attacking
aircraft before round 1 and its hits are removed at once [L739-L747], so a battle with the
gun is, for every AA result (fighters lost ``f``, bombers lost ``b``, with chance
``Bin(f; F, 1/6) Bin(b; B, 1/6)``), the battle without the gun started from the attackers
left.  The calculator's odds with the gun equal that mixture of its odds without it, on
random small battles (benchmarks/bench_aa_factoring.py times both ways on the large
battle of benchmarks/bench_issue24.py)."""

from __future__ import annotations

import itertools
from math import comb

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine.combat import BattleSetup, BattleUnit
from adjudicator.engine.combat.model import OUTCOMES
from adjudicator.engine.combat.odds import battle_odds
from adjudicator.service.games import load_game

GAME = load_game("aa1942")
UNITS = GAME.ruleset.units


def battle(land: dict, air: dict, dfn: dict, guns: int) -> BattleSetup:
    uid = itertools.count(1)

    def side(owner, mix):
        return tuple(BattleUnit(next(uid), UNITS[k], owner) for k, n in mix.items()
                     for _ in range(n))

    return BattleSetup("x", "x", False, "germany", side("germany", {**land, **air}),
                       side("russia", dfn), stages=GAME.ruleset.plan.battle_stages,
                       support=((), side("russia", {"aa_gun": guns})), unit_types=UNITS)


def aa_results(air: dict):
    """(aircraft left per type, chance) for every result of one die at each aircraft,
    hitting on 1 (the gun's ``aa_fire`` value in maps/aa1942)."""
    p = UNITS["aa_gun"].param("aa_fire", "value", 1) / 6
    out = [({}, 1.0)]
    for kind, n in air.items():
        out = [({**left, kind: n - k}, w * comb(n, k) * p ** k * (1 - p) ** (n - k))
               for left, w in out for k in range(n + 1)]
    return out


counts = st.integers(0, 2)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(land=st.fixed_dictionaries({"infantry": counts, "artillery": counts, "tank": counts}),
       air=st.fixed_dictionaries({"fighter": st.integers(1, 3), "bomber": counts}),
       dfn=st.fixed_dictionaries({"infantry": st.integers(1, 3), "tank": counts,
                                  "fighter": counts}),
       method=st.sampled_from(["sweep", "chain"]))
def test_the_gun_battle_is_the_mixture_of_post_aa_battles(land, air, dfn, method):
    gun = battle_odds(battle(land, air, dfn, 1), method=method)
    parts = [(w, battle_odds(battle(land, left, dfn, 0), method=method))
             for left, w in aa_results(air)]
    assert abs(sum(w for w, _ in parts) - 1.0) < 1e-15
    slack = 1e-12 + gun.pruned + sum(w * o.pruned for w, o in parts)
    for field in (*OUTCOMES, "captured"):
        mixed = sum(w * o.outcome(field) for w, o in parts)
        assert abs(gun.outcome(field) - mixed) <= slack, field
    # the aircraft the gun shoots down count in the attacker's losses
    tuv = sum(w * o.attacker_tuv_lost for w, o in parts)
    lost_to_aa = sum(w * sum((air[k] - left[k]) * UNITS[k].cost for k in air)
                     for left, w in aa_results(air))
    assert abs(gun.attacker_tuv_lost - (tuv + lost_to_aa)) <= 1e-9


def test_a_gun_costs_the_attacker():
    """Sanity of the mixture's weights: the gun lowers the attacker's chances."""
    land, air, dfn = {"infantry": 2, "tank": 1}, {"fighter": 2, "bomber": 1}, {"infantry": 3}
    assert battle_odds(battle(land, air, dfn, 1)).attacker_wins < \
        battle_odds(battle(land, air, dfn, 0)).attacker_wins
