"""Standing defence orders persist in the game state from one turn to the next (PBEM,
docs/orders.md).  The rules cases (maps/aa1941/cases, 1941-combat-07 and 1941-orders-05)
play one turn each; this test chains two turns through the state the engine writes."""

from __future__ import annotations

from attrs import evolve

from adjudicator.model.events import Casualties
from helpers import SideDice, kinds, play, position, units

HIT, MISS = 1, 6


def test_standing_orders_are_stored_and_used_by_the_defender():
    state = position(power="germany", place={"West Russia": units("1 infantry, 1 tank", "germany")})
    after = play("defend West Russia: losses tank, inf", state, SideDice(MISS, MISS)).state
    assert after.standing_orders["germany"].for_space("West Russia").loss_order == ("tank", "infantry")
    soviet_turn = evolve(after, power="ussr")
    result = play("combat:\nmove 1 inf Karelia -> West Russia", soviet_turn, SideDice(HIT, MISS))
    first = [c for c in kinds(result.events, Casualties) if c.side == "defender"][0]
    assert first.killed == {"tank": 1}
