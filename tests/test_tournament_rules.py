"""The pure parts of tournaments: deadlines (time is an argument), pairings, standings
with tiebreaks, ratings, result lines, settings; and the nmr / concede statements in the
engine and the game audit."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from adjudicator.engine.turn import adjudicate, check
from adjudicator.io import keys
from adjudicator.io.hmac_dice import HmacDice
from adjudicator.io.parser import parse_orders
from adjudicator.model.errors import PbemError
from adjudicator.model.events import NoMovesReceived, VictoryDeclared
from adjudicator.service import gamedir
from adjudicator.service.audit import verify_game
from adjudicator.service.games import load_game
from adjudicator.service.tournament import deadlines as dl, pairing
from adjudicator.service.tournament.config import parse_config, settings_changes, template
from adjudicator.service.tournament.ratings import compute_ratings
from adjudicator.service.tournament.results import GameResult, result_line
from adjudicator.service.tournament.standings import compute_standings

import tomllib

T0 = dt.datetime(2025, 3, 1, 12, tzinfo=dt.timezone.utc)
H = dt.timedelta(hours=1)
CFG = parse_config(tomllib.loads(template("Cup", "cup", "aa1941")))


def _cfg(**deadlines):
    raw = tomllib.loads(template("Cup", "cup", "aa1941"))
    raw["deadlines"].update(deadlines)
    return parse_config(raw)


# --------------------------------------------------------------------------- settings

def test_every_setting_is_documented_and_checked():
    from adjudicator.service.tournament.config import KNOWN_KEYS
    raw = tomllib.loads(template("Cup", "cup", "aa1941"))
    documented = {"": set(raw)} | {k: set(v) for k, v in raw.items()
                                   if isinstance(v, dict) and k != "options"}
    assert documented == KNOWN_KEYS                 # the template shows every key
    assert parse_config(raw).deadlines.turn_hours == 72
    raw["deadlines"]["turn_hourz"] = 3
    with pytest.raises(PbemError, match="unknown setting.*deadlines.turn_hourz"):
        parse_config(raw)
    raw = tomllib.loads(template("Cup", "cup", "aa1941"))
    raw["scoring"]["tiebreaks"] = ["buchholz", "coin_flip"]
    with pytest.raises(PbemError, match="scoring.tiebreaks"):
        parse_config(raw)
    new = dict(raw, deadlines=dict(raw["deadlines"], turn_hours=48))
    assert settings_changes(raw, new) == ["deadlines.turn_hours: 72 -> 48"]


# --------------------------------------------------------------------------- deadlines

def test_deadline_moves_with_extensions_and_pauses():
    clock = dl.TurnClock("g", 3, "uk", "amy", T0)
    assert dl.deadline(clock, CFG, dl.Ledger()) == T0 + 72 * H
    ledger = dl.Ledger(extensions=(dl.Extension("g", 3, 10, "organiser"),
                                   dl.Extension("g", 2, 99, "organiser"),
                                   dl.Extension("other", 3, 99, "organiser")))
    assert dl.deadline(clock, CFG, ledger) == T0 + 82 * H
    # a pause inside the turn's time adds its length; one after the deadline adds nothing
    pause = dl.Pause("amy", T0 + 10 * H, T0 + 34 * H, ("g",))
    late = dl.Pause("amy", T0 + 200 * H, T0 + 300 * H, ("g",))
    assert dl.deadline(clock, CFG, dl.Ledger(pauses=(pause, late))) == T0 + 96 * H
    # another player's pause, or one for another game, changes nothing
    assert dl.deadline(clock, CFG, dl.Ledger(pauses=(dl.Pause("boris", T0, T0 + 50 * H, ("g",)),
                                                     dl.Pause("amy", T0, T0 + 50 * H, ("x",)))
                                             )) == T0 + 72 * H


def test_the_tick_reminds_once_extends_then_plays_the_nmr_at_the_deadline():
    cfg = _cfg(reminders=[24, 4], grace_extensions=1, grace_hours=12, late_notice_hour=-1)
    clock = dl.TurnClock("g", 1, "ussr", "amy", T0)
    ledger = dl.Ledger()
    assert dl.due(T0 + 47 * H, [clock], cfg, ledger) == []
    (remind,) = dl.due(T0 + 69 * H, [clock], cfg, ledger)      # late tick: one reminder
    assert isinstance(remind, dl.Remind) and remind.hours == 4
    ledger = dl.Ledger(reminded=frozenset(("g", 1, h)
                                          for h in dl.reminded_thresholds(remind, cfg)))
    assert dl.due(T0 + 70 * H, [clock], cfg, ledger) == []
    assert dl.due(T0 + 72 * H - dt.timedelta(seconds=1), [clock], cfg, ledger) == []
    (grace,) = dl.due(T0 + 72 * H, [clock], cfg, ledger)
    assert isinstance(grace, dl.Grace) and grace.deadline == T0 + 72 * H
    ledger = dl.Ledger(extensions=(dl.Extension("g", 1, 12, "grace", "amy", auto=True),),
                       reminded=ledger.reminded)
    assert dl.is_late(clock, cfg, ledger, T0 + 73 * H).overdue is False   # late, in grace
    assert dl.due(T0 + 84 * H - dt.timedelta(seconds=1), [clock], cfg, ledger) == []
    (nmr,) = dl.due(T0 + 90 * H, [clock], cfg, ledger)
    assert nmr == dl.PlayNmr("g", 1, "ussr", "amy", T0 + 84 * H)       # stamped: the deadline


def test_wait_policy_and_the_daily_late_notice():
    raw = tomllib.loads(template("Cup", "cup", "aa1941"))
    raw["nmr"]["policy"] = "wait"
    raw["deadlines"].update(grace_extensions=0, late_notice_hour=9)
    cfg = parse_config(raw)
    clocks = [dl.TurnClock("g", 1, "ussr", "amy", T0), dl.TurnClock("h", 2, "uk", "boris", T0)]
    morning = T0 + 100 * H - 9 * H                                      # 2025-03-05 07:00
    assert dl.due(morning.replace(hour=8), clocks, cfg, dl.Ledger()) == []
    (notice,) = dl.due(morning.replace(hour=10), clocks, cfg, dl.Ledger())
    assert isinstance(notice, dl.LateNotice) and notice.day == "2025-03-05"
    assert [(x.player, x.overdue) for x in notice.late] == [("amy", True), ("boris", True)]
    sent = dl.Ledger(late_notices=frozenset({"2025-03-05"}))
    assert dl.due(morning.replace(hour=20), clocks, cfg, sent) == []
    assert dl.due(morning.replace(hour=10) + 24 * H, clocks, cfg, sent) != []


def test_a_pause_must_fit_the_absence_budget():
    cfg = _cfg(absence_days=7)
    used = dl.Ledger(pauses=(dl.Pause("amy", T0, T0 + 5 * 24 * H, ("g",)),))
    dl.check_pause(dl.Pause("amy", T0, T0 + 2 * 24 * H, ("g", "h")), cfg, used)
    with pytest.raises(PbemError, match="2 of 7 days of absence left in g"):
        dl.check_pause(dl.Pause("amy", T0, T0 + 3 * 24 * H, ("g",)), cfg, used)
    with pytest.raises(PbemError, match="end after it starts"):
        dl.check_pause(dl.Pause("amy", T0, T0, ("g",)), cfg, dl.Ledger())


# --------------------------------------------------------------------------- pairings

@settings(max_examples=60, deadline=None)
@given(st.integers(4, 24), st.integers(0, 10_000))
def test_swiss_pairings_never_rematch_and_keep_sides_within_one(count, seed):
    rng = random.Random(seed)
    players = [f"p{i:02d}" for i in range(count)]
    scores = dict.fromkeys(players, 0.0)
    history, byes = [], []
    for round_no in range(1, count.bit_length()):        # the usual Swiss size: 2^rounds
        plan = pairing.swiss_round("t", round_no, players, scores, history, byes,
                                   ("Axis", "Allies"))
        assert len(plan.byes) == count % 2 and not set(plan.byes) & set(byes)
        assert sorted([x for p in plan.pairings for x in p.players] + list(plan.byes)) \
            == sorted(players)
        assert Counter(x for p in plan.pairings for x in p.players).most_common(1)[0][1] == 1
        for p in plan.pairings:
            winner = rng.choice(p.players + (None,))
            for x in p.players:
                scores[x] += 0.5 if winner is None else float(winner == x)
        history += plan.pairings
        byes += plan.byes
        assert len({frozenset(p.players) for p in history}) == len(history)
        balance = pairing.side_balance(history, "Axis")
        assert max(abs(v) for v in balance.values()) <= 1


def test_swiss_pairs_equal_scores_next_to_each_other():
    players = ["a", "b", "c", "d", "e", "f"]
    scores = {"a": 2, "b": 0, "c": 2, "d": 1, "e": 1, "f": 0}
    plan = pairing.swiss_round("t", 3, players, scores, [], [])
    assert sorted(sorted(p.players) for p in plan.pairings) == [["a", "c"], ["b", "f"],
                                                                ["d", "e"]]


def test_swiss_tie_between_equal_pairings_goes_to_the_top_players_best_partner():
    """a and b have met; a-c + b-d and a-d + b-c are equally good (ranking distances 2+2 and
    3+1): our rule, not networkx's search order, picks a-c (a's best-ranked partner)."""
    players = ["a", "b", "c", "d"]
    history = [pairing.Pairing("t-r1-01", 1, ("a", "b"))]
    plan = pairing.swiss_round("t", 2, players, dict.fromkeys(players, 0.0), history, [])
    assert [p.players for p in plan.pairings] == [("a", "c"), ("b", "d")]


def _brute_force_matching(n, edges):
    """Every matching; the most pairs, then the most weight, then the earliest edges."""
    index = {(i, j): k for k, (i, j, _w) in enumerate(sorted(edges))}
    weight = {(i, j): w for i, j, w in edges}
    best = None

    def walk(free, chosen):
        nonlocal best
        key = (len(chosen), sum(weight[e] for e in chosen),
               [-k for k in sorted(index[e] for e in chosen)])
        if best is None or key > best[0]:
            best = (key, set(chosen))
        if not free:
            return
        first, rest = free[0], free[1:]
        walk(rest, chosen)                                 # first stays unmatched
        for other in rest:
            edge = (first, other)
            if edge in weight:
                walk([x for x in rest if x != other], chosen + [edge])

    walk(list(range(n)), [])
    return best[1]


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 7), st.data())
def test_swiss_matching_is_the_unique_one_our_rule_names(n, data):
    """With weights full of ties, the matching is the one the rule defines (checked against
    every matching), so no library's internals can choose between equal pairings."""
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    present = data.draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    weights = data.draw(st.lists(st.integers(-2, 2), min_size=len(pairs), max_size=len(pairs)))
    edges = [(i, j, w) for (i, j), keep, w in zip(pairs, present, weights) if keep]
    found = pairing.best_matching(n, edges)
    expected = _brute_force_matching(n, edges)
    weight = {(i, j): w for i, j, w in edges}
    assert len(found) == len(expected)
    assert sum(weight[e] for e in found) == sum(weight[e] for e in expected)
    assert found == expected


@pytest.mark.parametrize("count", [2, 3, 4, 5, 8, 9])
def test_round_robin_meets_everyone_once_with_even_sides(count):
    players = [f"p{i}" for i in range(count)]
    met, axis = Counter(), Counter()
    for r in range(1, pairing.round_robin_rounds(players) + 1):
        plan = pairing.round_robin_round("t", r, players, ("Axis", "Allies"))
        for p in plan.pairings:
            met[frozenset(p.players)] += 1
            axis[p.sides["Axis"]] += 1
    assert len(met) == count * (count - 1) // 2 and set(met.values()) == {1}
    games = count - 1
    assert all(abs(2 * axis[p] - games) <= 1 for p in players)


def test_ladder_challenges_and_places():
    ladder = ["a", "b", "c", "d", "e"]
    pairing.check_challenge(ladder, "e", "b", [], 3, 1)
    with pytest.raises(PbemError, match="may challenge only"):
        pairing.check_challenge(ladder, "e", "a", [], 3, 1)
    open_game = pairing.Pairing("g", 1, ("b", "c"))
    with pytest.raises(PbemError, match="open challenge"):
        pairing.check_challenge(ladder, "e", "b", [open_game], 3, 1)
    assert pairing.ladder_order(ladder, [("e", "b", "e"), ("d", "a", "a")]) == \
        ["a", "e", "b", "c", "d"]


# --------------------------------------------------------------------------- standings

def _result(game, rnd, axis, allies, winner, bid=0):
    return GameResult(game, rnd, {"Axis": axis, "Allies": allies}, bid, "Allies", True, winner)


def test_standings_tiebreaks_buchholz_then_head_to_head():
    results = [_result("g1", 1, "a", "b", "a"), _result("g2", 1, "c", "d", "c"),
               _result("g3", 2, "b", "c", "c"), _result("g4", 2, "d", "a", "a"),
               _result("g5", 3, "b", "d", None)]
    rows = compute_standings(["a", "b", "c", "d"], results, [], CFG)
    table = [(r.place, r.player, r.score, r.tiebreaks["buchholz"]) for r in rows]
    # a and c: 2 points; Buchholz a = b 0.5 + d 0.5, c = d 0.5 + b 0.5: equal; head-to-head:
    # they never met; Sonneborn-Berger equal; wins equal: they share first place
    assert table[:2] == [("1=", "a", 2.0, 1.0), ("1=", "c", 2.0, 1.0)]
    assert [r.player for r in rows[2:]] == ["b", "d"] and rows[2].place == "3="
    results.append(_result("g6", 4, "a", "c", "c"))
    rows = compute_standings(["a", "b", "c", "d"], results, [], CFG)
    assert [r.player for r in rows][:1] == ["c"]
    byes = compute_standings(["a", "b"], [], [(1, "b")], CFG)
    assert [(r.player, r.score, r.byes) for r in byes] == [("b", 1.0, 1), ("a", 0.0, 0)]


def test_ratings_follow_the_results_and_a_draw_is_even():
    results = [_result(f"g{i}", i, "a", "b", "a") for i in range(1, 6)]
    ratings, steps = compute_ratings(["a", "b"], results, CFG.ratings)
    assert ratings["a"].mu > 25 > ratings["b"].mu and len(steps) == 10
    ratings, _ = compute_ratings(["a", "b"], [_result("g", 1, "a", "b", None)], CFG.ratings)
    assert ratings["a"].mu == pytest.approx(ratings["b"].mu)


def test_result_lines_as_players_post_them():
    names = {"a": "Amy", "b": "Boris"}
    assert result_line(_result("g", 1, "a", "b", "a", bid=10), names) == \
        "Amy (Axis) defeats Boris (Allies +10)"
    assert result_line(_result("g", 1, "a", "b", "b", bid=10), names) == \
        "Boris (Allies +10) defeats Amy (Axis)"
    assert result_line(_result("g", 1, "a", "b", None), names) == \
        "Amy (Axis) draws with Boris (Allies)"


# --------------------------------------------------------------------------- the engine

GAME = load_game("aa1941")


def test_nmr_plays_no_purchase_no_moves_and_collects_income():
    from adjudicator.io.loader import initial_state
    state = initial_state(GAME, "g")
    orders = parse_orders("power: Soviet Union\nnmr 2025-03-04T12:00:00Z\n", GAME, "ussr")
    dice = HmacDice(b"\1" * 32, "g", 1, "sha256:" + "0" * 64)
    result = adjudicate(GAME, state, orders, dice)
    nmr = [e for e in result.events if isinstance(e, NoMovesReceived)]
    assert nmr == [NoMovesReceived("ussr", "2025-03-04T12:00:00Z")]
    assert result.state.unit_counts() == state.unit_counts()             # nothing bought
    assert {s: sorted(u.type for u in us) for s, us in result.state.units.items()} == \
        {s: sorted(u.type for u in us) for s, us in state.units.items()}   # nothing moved
    assert result.state.power == "germany"
    income = GAME.territory_value(state.owners, "ussr")
    assert result.state.ipcs["ussr"] == state.ipcs["ussr"] + income
    from adjudicator.present.report import report_text
    assert "No moves received by 2025-03-04T12:00:00Z" in report_text(result.events, GAME)
    mixed = parse_orders("power: Soviet Union\nnmr\nbuy 1 inf\n", GAME, "ussr")
    assert [p.code for p in check(GAME, state, mixed) if p.is_error] == ["nmr_with_orders"]


def test_concede_ends_the_game_for_the_other_side():
    from adjudicator.io.loader import initial_state
    state = initial_state(GAME, "g")
    dice = HmacDice(b"\1" * 32, "g", 1, "sha256:" + "0" * 64)
    result = adjudicate(GAME, state, parse_orders("concede\n", GAME, "ussr"), dice)
    assert result.state.winner == "Axis"
    assert VictoryDeclared("Axis", "concession", ()) in result.events


def test_an_nmr_needs_no_signature_but_other_orders_still_do(tmp_path):
    keys.new_keypair(tmp_path / "ivan", "ivan")
    gdir = tmp_path / "game"
    gamedir.create_game(gdir, GAME, "g1", players={"ussr": str(tmp_path / "ivan.pub")})
    with pytest.raises(PbemError, match="must be signed"):
        gamedir.process_turn(gdir, GAME, "power: ussr\npass\n")
    with pytest.raises(PbemError, match="must be signed"):
        gamedir.process_turn(gdir, GAME, "power: ussr\nnmr\nbuy 1 inf\n")
    tf = gamedir.process_turn(gdir, GAME, "power: ussr\nnmr 2025-03-04T12:00Z\n")
    assert tf.orders_signature is None
    text = "game: g1\nturn: 2\npower: germany\npass\n"
    gamedir.process_turn(gdir, GAME, text)                       # germany has no key
    report = verify_game(gdir)
    assert report.ok and report.turns_replayed == 2
