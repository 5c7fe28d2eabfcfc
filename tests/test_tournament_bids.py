"""Sealed bids and the bid phase: no bid is visible before both are committed (property
test over any order of commits and reveals), openings must open their commitments, the
lower bid plays the Allies, and the bid placement obeys the declared policy."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from adjudicator.io.loader import initial_state
from adjudicator.model.errors import PbemError
from adjudicator.model.units import Domain
from adjudicator.service.games import load_game
from adjudicator.service.tournament import organiser
from adjudicator.service.tournament.bids import (
    BidBox, BidPlacement, bid_problems, commitment, parse_bid_orders,
)
from adjudicator.service.tournament.config import BidPolicy
from adjudicator.service.tournament.verify import verify_tournament

from tournament_helpers import START, make_tournament

GAME = load_game("aa1941")
START_STATE = initial_state(GAME, "g")
PLAYERS = ("amy", "boris")

step = st.tuples(st.sampled_from(["commit", "reveal", "forged"]), st.sampled_from(PLAYERS),
                 st.integers(0, 40))


@settings(max_examples=200, deadline=None)
@given(st.lists(step, max_size=12), st.sampled_from(["a" * 32, "b" * 32]))
def test_no_bid_is_visible_before_both_are_committed(steps, nonce):
    box = BidBox("cup", "cup-r1-01", PLAYERS)
    amounts = {}
    for action, player, amount in steps:
        before = box
        try:
            if action == "commit":
                box = box.commit(player, commitment("cup", box.game, player, amount, nonce))
                amounts[player] = amount
            elif action == "reveal":
                box = box.reveal(player, amounts.get(player, amount), nonce, max_bid=60)
            else:                                   # opening with another amount
                box = box.reveal(player, amounts.get(player, amount) + 1, nonce, max_bid=60)
        except PbemError:
            box = before
        both_committed = all(p in box.commitments for p in PLAYERS)
        if not both_committed:
            assert not box.reveals                          # nothing opened yet
            assert box.visible() == {p: None for p in PLAYERS}
            assert box.outcome() is None
        if box.reveals:
            assert both_committed
        for p, opening in box.reveals.items():              # only true openings accepted
            assert opening.amount == amounts[p]
        if box.visible()[PLAYERS[0]] is not None:
            assert set(box.reveals) == set(PLAYERS)
    if box.outcome() is not None:
        bidder, bid = box.outcome()
        assert bid == min(amounts.values()) and amounts[bidder] == bid


def test_a_reveal_before_both_commitments_is_refused():
    box = BidBox("cup", "g", PLAYERS).commit("amy", commitment("cup", "g", "amy", 9, "c" * 32))
    with pytest.raises(PbemError, match="before both are committed"):
        box.reveal("amy", 9, "c" * 32, 60)
    with pytest.raises(PbemError, match="cannot be changed"):
        box.commit("amy", commitment("cup", "g", "amy", 3, "c" * 32))
    box = box.commit("boris", commitment("cup", "g", "boris", 12, "d" * 32))
    with pytest.raises(PbemError, match="do not open"):
        box.reveal("boris", 11, "d" * 32, 60)
    box = box.reveal("amy", 9, "c" * 32, 60)
    assert box.visible() == {"amy": None, "boris": None}     # one opening shows nothing
    box = box.reveal("boris", 12, "d" * 32, 60)
    assert box.visible() == {"amy": 9, "boris": 12} and box.outcome() == ("amy", 9)


def test_equal_bids_are_split_by_both_nonces():
    winners = set()
    for n in range(16):
        na, nb = f"{n:032x}", f"{n + 100:032x}"
        box = BidBox("cup", "g", PLAYERS)
        box = box.commit("amy", commitment("cup", "g", "amy", 5, na))
        box = box.commit("boris", commitment("cup", "g", "boris", 5, nb))
        box = box.reveal("amy", 5, na, 60).reveal("boris", 5, nb, 60)
        winners.add(box.outcome())
    assert winners == {("amy", 5), ("boris", 5)}


# --------------------------------------------------------------------------- placement

ALLIES = [k for k, p in GAME.ruleset.powers.items() if p.side == "Allies"]
BUYABLE = sorted(k for k, u in GAME.ruleset.units.items() if u.buyable)
SPACES = sorted(GAME.map.territories)


def _violations(placements, policy, amount):
    """The policy, written out independently of bids.bid_problems."""
    bad = []
    per_space = {}
    cost = 0
    for p in placements:
        unit, terr = GAME.ruleset.units[p.unit], GAME.map[p.space]
        owner = START_STATE.owners.get(p.space)
        cost += unit.cost * p.count
        per_space[p.space] = per_space.get(p.space, 0) + p.count
        if GAME.ruleset.powers[p.power].side != "Allies":
            bad.append("side")
        if unit.domain == Domain.SEA:
            ships = any(u.owner == p.power and GAME.ruleset.units[u.type].domain == Domain.SEA
                        for u in START_STATE.units_at(p.space))
            if not terr.is_sea or (policy.naval_only_with_ships and not ships):
                bad.append("naval")
        else:
            if terr.is_sea or owner is None:
                bad.append("land")
            elif policy.owned_at_start and GAME.ruleset.powers[owner].side != "Allies":
                bad.append("owned")
            elif policy.own_nationality and owner != p.power:
                bad.append("nationality")
        if unit.domain == Domain.AIR and not policy.allow_air:
            bad.append("air")
    if policy.max_units_per_territory and any(n > policy.max_units_per_territory
                                              for n in per_space.values()):
        bad.append("per territory")
    if cost > amount:
        bad.append("cost")
    return bad


placement = st.builds(lambda line, power, unit, count, space:
                      BidPlacement(line, power, unit, count, space),
                      st.integers(1, 9), st.sampled_from(ALLIES + ["germany"]),
                      st.sampled_from(BUYABLE), st.integers(1, 2), st.sampled_from(SPACES))
policy = st.builds(BidPolicy, max=st.just(60), max_units_per_territory=st.integers(0, 2),
                   owned_at_start=st.booleans(), own_nationality=st.booleans(),
                   naval_only_with_ships=st.booleans(), allow_air=st.booleans())


@settings(max_examples=300, deadline=None)
@given(st.lists(placement, max_size=5), policy, st.integers(0, 40))
def test_bid_placement_obeys_the_policy(placements, policy, amount):
    problems = bid_problems(placements, GAME, START_STATE, policy, "Allies", amount)
    assert bool(problems) == bool(_violations(placements, policy, amount)), problems


def test_bid_orders_are_read_with_their_powers():
    text = ("# our bid\nbid: place 1 inf Karelia\nbid uk: place 1 dd SZ 7\n\n"
            "bid usa: place 1 inf Eastern United States")
    placements = parse_bid_orders(text, GAME, "Allies")
    assert [(p.line, p.power, p.unit, p.space) for p in placements] == [
        (2, "", "infantry", "Karelia"), (3, "uk", "destroyer", "Sea Zone 7"),
        (5, "usa", "infantry", "Eastern United States")]
    with pytest.raises(PbemError, match="line 1: not a bid line"):
        parse_bid_orders("place 1 inf Karelia", GAME, "Allies")
    with pytest.raises(PbemError, match="not on the Allies side"):
        parse_bid_orders("bid germany: place 1 inf Germany", GAME, "Allies")


# --------------------------------------------------------------------------- the whole flow

def test_sides_by_bid_from_seal_to_a_verified_game(tmp_path):
    tdir, _ = make_tournament(tmp_path, 2, sides__method='"bid"', format__rounds="1",
                              bid__max="30")
    plan = organiser.pair(tdir, START)
    (pairing,) = plan.pairings
    assert pairing.sides is None and organiser.start(tdir, START) == []
    a, b = pairing.players
    organiser.bid_commit(tdir, pairing.game, a, commitment("cup", pairing.game, a, 9, "e" * 32),
                         START)
    with pytest.raises(PbemError, match="before both"):
        organiser.bid_reveal(tdir, pairing.game, a, 9, "e" * 32, START)
    organiser.bid_commit(tdir, pairing.game, b, commitment("cup", pairing.game, b, 14, "f" * 32),
                         START)
    organiser.bid_reveal(tdir, pairing.game, a, 9, "e" * 32, START)
    organiser.bid_reveal(tdir, pairing.game, b, 14, "f" * 32, START)
    assert organiser.start(tdir, START) == []              # the bid is not placed yet
    with pytest.raises(PbemError, match="at most 1 per territory"):
        organiser.bid_place(tdir, pairing.game, "bid: place 2 inf Karelia", START)
    organiser.bid_place(tdir, pairing.game,
                        "bid: place 1 inf Karelia\nbid: place 1 inf Archangel\n"
                        "bid: place 1 inf India", START)
    assert organiser.start(tdir, START) == [pairing.game]
    ctx = organiser.open_tournament(tdir)
    sides, bid = organiser.sides_of(ctx, pairing)
    assert sides == {"Axis": b, "Allies": a} and bid == 9
    from adjudicator.service.gamedir import read_game
    gf, _ = read_game(ctx.tdir.game_dir(pairing.game))
    counts = gf.initial_state.unit_counts()
    assert counts[("ussr", "infantry")] == START_STATE.unit_counts()[("ussr", "infantry")] + 2
    assert counts[("uk", "infantry")] == START_STATE.unit_counts()[("uk", "infantry")] + 1
    audit = verify_tournament(tdir)
    assert audit.ok, audit.problems
    # a placement changed after the game started no longer matches its starting position
    (tdir / "bids" / pairing.game / "placement.txt").write_text("bid: place 1 inf Karelia\n")
    audit = verify_tournament(tdir)
    assert [(p.file, p.check) for p in audit.problems] == [
        (f"games/{pairing.game}/game.json", "bids")]
