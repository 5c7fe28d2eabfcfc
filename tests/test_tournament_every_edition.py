"""A tournament with sealed bids and Low Luck for the editions beyond 1941 (issues 18 and
22: tournaments "work for it"): two players bid, the lower bid plays the Allies and places
its bid, the game starts with the bid units and the Low Luck option, its first turn is
played, and ``tournament verify`` replays everything."""

from __future__ import annotations

import pytest

from adjudicator.io.loader import initial_state
from adjudicator.service import gamedir
from adjudicator.service.games import load_game
from adjudicator.service.tournament import organiser
from adjudicator.service.tournament.bids import commitment
from adjudicator.service.tournament.verify import verify_tournament

from tournament_helpers import START, make_tournament


@pytest.mark.parametrize("edition", ["aa1942", "europe1999", "global1940"])
def test_a_bid_tournament_with_low_luck(edition, tmp_path):
    tdir, _ = make_tournament(tmp_path, 2, ruleset=edition, sides__method='"bid"',
                              format__rounds="1", bid__max="30")
    toml = tdir / "tournament.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        "[options]", "[options]\nlow_luck = true\n", 1), encoding="utf-8")
    organiser.tick(tdir, START)
    game = load_game(edition)
    (pairing,) = organiser.pair(tdir, START).pairings
    a, b = pairing.players
    organiser.bid_commit(tdir, pairing.game, a, commitment("cup", pairing.game, a, 3, "e" * 32),
                         START)
    organiser.bid_commit(tdir, pairing.game, b, commitment("cup", pairing.game, b, 8, "f" * 32),
                         START)
    organiser.bid_reveal(tdir, pairing.game, a, 3, "e" * 32, START)
    organiser.bid_reveal(tdir, pairing.game, b, 8, "f" * 32, START)
    ally = next(p for p in game.ruleset.turn_order if game.ruleset.side_of(p) == "Allies")
    capital = game.ruleset.powers[ally].capital
    organiser.bid_place(tdir, pairing.game, f"bid: place 1 inf {capital}", START)
    assert organiser.start(tdir, START) == [pairing.game]
    ctx = organiser.open_tournament(tdir)
    sides, bid = organiser.sides_of(ctx, pairing)
    assert sides == {"Allies": a, "Axis": b} and bid == 3
    gdir = ctx.tdir.game_dir(pairing.game)
    gf, _ = gamedir.read_game(gdir)
    assert gf.options.get("low_luck") is True
    start = initial_state(game, "x").unit_counts()
    assert gf.initial_state.unit_counts()[(ally, "infantry")] == start[(ally, "infantry")] + 1
    state, _ = gamedir.current_state(gdir)
    played = load_game(edition, gf.options)
    gamedir.process_turn(gdir, played, b"pass\n")
    audit = verify_tournament(tdir)
    assert audit.ok, audit.problems
    assert gamedir.current_state(gdir)[0].turn_number == state.turn_number + 1
