"""``pbem odds --attacker-tech/--defender-tech``: the technologies a side holds change its
units as they do in a game (``engine.technology.effective_type``), checked against closed
forms of one-on-one battles worked out by hand."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from adjudicator.cli import main


def odds(capsys, *args) -> tuple[int, dict, str]:
    try:
        code = main(["odds", *args, "--ruleset", "global1940", "--json"])
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, (json.loads(out.out) if out.out.strip() else {}), out.err


def duel(p: Fraction, q: Fraction) -> tuple[Fraction, Fraction, Fraction]:
    """One unit each, both firing every round, hitting with ``p`` and ``q``: (attacker
    wins, both destroyed, defender wins)."""
    ends = 1 - (1 - p) * (1 - q)
    return p * (1 - q) / ends, p * q / ends, (1 - p) * q / ends


@pytest.mark.parametrize("tech", [None, "heavy bombers", "Heavy-Bomber", "heavy_bombers"])
def test_heavy_bombers_roll_two_dice_and_keep_the_better(capsys, tech):
    # A strategic bomber attacks at 4: one die hits 4/6, the better of two 1 - (2/6)^2 = 8/9
    # [L1210]; the infantry defends at 2.
    code, data, _ = odds(capsys, "1 bmr", "vs", "1 inf", *(("--attacker-tech", tech) if tech else ()))
    assert code == 0
    p = Fraction(8, 9) if tech else Fraction(4, 6)
    wins, both, held = duel(p, Fraction(2, 6))
    exact = data["exact"]
    assert exact["attacker_wins"] == pytest.approx(float(wins), abs=1e-12)
    assert exact["both_destroyed"] == pytest.approx(float(both), abs=1e-12)
    assert exact["defender_wins"] == pytest.approx(float(held), abs=1e-12)
    assert ("the attacker holds heavy bombers" in data["notes"]) == bool(tech)


def test_super_submarines_attack_at_three(capsys):
    # A destroyer cancels the submarine's surprise strike, so both fire together: the
    # submarine at 2, or 3 with Super Submarines [L1192]; the destroyer defends at 2.
    for tech, attack in ((None, 2), ("super subs", 3)):
        code, data, _ = odds(capsys, "1 sub", "vs", "1 dd", "--sea",
                             *(("--attacker-tech", tech) if tech else ()))
        assert code == 0
        wins, both, held = duel(Fraction(attack, 6), Fraction(2, 6))
        assert data["exact"]["attacker_wins"] == pytest.approx(float(wins), abs=1e-12)
        assert data["exact"]["defender_wins"] == pytest.approx(float(held), abs=1e-12)


def test_radar_guns_hit_on_two(capsys):
    # The AA gun fires once, before the battle, at the one fighter: it hits on 1, or on 2
    # with Radar [L1200].  After that the battle is the same, so the attacker's chance of
    # winning scales by what it keeps of the fighter: (4/6) / (5/6).
    _, plain, _ = odds(capsys, "1 ftr", "vs", "1 aa, 1 inf")
    _, radar, _ = odds(capsys, "1 ftr", "vs", "1 aa, 1 inf", "--defender-tech", "radar")
    assert radar["exact"]["attacker_wins"] == pytest.approx(
        plain["exact"]["attacker_wins"] * 4 / 5, abs=1e-12)
    assert "the defender holds radar" in radar["notes"]


def test_a_technology_the_defender_holds_does_not_change_the_attacker(capsys):
    _, plain, _ = odds(capsys, "1 bmr", "vs", "1 inf")
    _, tech, _ = odds(capsys, "1 bmr", "vs", "1 inf", "--defender-tech", "heavy bombers")
    assert tech["exact"]["attacker_wins"] == pytest.approx(plain["exact"]["attacker_wins"], abs=1e-15)
    assert "the defender holds heavy bombers" in tech["notes"]


def test_unknown_technology_says_the_closest(capsys):
    code, _, err = odds(capsys, "1 bmr", "vs", "1 inf", "--attacker-tech", "radr")
    assert code != 0
    assert "unknown technology 'radr'" in err and "did you mean 'radar'" in err
    assert "Traceback" not in err


def test_an_edition_without_research_refuses_technologies(capsys):
    try:
        code = main(["odds", "1 bmr", "vs", "1 inf", "--attacker-tech", "heavy bombers"])
    except SystemExit as exc:
        code = exc.code
    assert code != 0
    assert "has no technologies" in capsys.readouterr().err
