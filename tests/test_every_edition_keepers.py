"""Dice keepers for every edition (issue 22: "keepers ... work for it"): a game of two
players with no game master, each side's dice kept by the other, played for a whole round
of the edition's turn order (the first turn from its bundled example), each turn processed
in its keeper's copy and shared, and both copies verify."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from adjudicator.io import keys, sshsig
from adjudicator.service import gamedir, keeper_join
from adjudicator.service.audit import verify_game
from adjudicator.service.games import load_game

from keeper_helpers import EMAIL, make_keys, share

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("edition", ["aa1942", "europe1999", "global1940"])
def test_a_keeper_game_plays_a_round_and_verifies(edition, tmp_path):
    game = load_game(edition)
    rules = game.ruleset
    game_id = f"keepers-{edition}"
    sides = sorted({rules.side_of(p) for p in rules.turn_order})
    bea_side = sides[0]
    bea_powers = [p for p in rules.turn_order if rules.side_of(p) == bea_side]
    al_powers = [p for p in rules.turn_order if p not in bea_powers]
    key = make_keys(tmp_path)
    demo = gamedir.demo_seeds(f"{edition}-example")
    bea, al = tmp_path / "bea", tmp_path / "al"
    join = keeper_join.read_join(keeper_join.join_game(
        bea, game, game_id, key["bea"], bea_powers, email=EMAIL["bea"], name="Bea", seeds=demo))
    players = {p: {"key": str(key["al"]) + ".pub", "email": EMAIL["al"], "name": "Al"}
               for p in al_powers}
    gamedir.create_game(al, game, game_id, gm_key_path=key["al"], players=players,
                        joins=[join], host=al_powers[0], seeds=demo, created="2026-03-01")
    for name in ("game.json", "game.json.sig"):
        shutil.copy(al / name, bea / name)
    dirs = {"al": al, "bea": bea}
    side_of = {**{p: "al" for p in al_powers}, **{p: "bea" for p in bea_powers}}
    # the first turn from the example (the position it was written for), then the others
    # pass: the keepers' dice are bound to the movers' signatures, so later example orders
    # would meet other positions than their own
    first = sorted((ROOT / "turns" / f"{edition}-example" / "orders").glob("*.txt"))[0]
    played = 0
    for index in range(len(rules.turn_order)):
        state, _ = gamedir.current_state(al)
        who = side_of[state.power]
        body = first.read_bytes() if index == 0 else b"pass\n"
        text = f"game: {game_id}\nturn: {state.turn_number}\n".encode() + body
        sig = sshsig.sign(text, keys.load_private_key(tmp_path / "keys" / who),
                          sshsig.NAMESPACE_ORDERS)
        gf, _ = gamedir.read_game(al)
        keeper = dirs[side_of[gf.dice_keepers[state.power]]]
        assert keeper != dirs[who], "a power's dice are kept by the other side"
        gamedir.process_turn(keeper, game, text, orders_signature=sig, seeds=demo)
        for other in dirs.values():
            if other != keeper:
                share(keeper, other)
        played += 1
    assert played == len(rules.turn_order)
    for directory in dirs.values():
        report = verify_game(directory, load_game)
        assert report.ok, report.failure
