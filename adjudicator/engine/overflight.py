"""AA fire at aircraft flying over (Axis & Allies Europe, digest §4.2 [L359, L705, L711-L715],
§5.3.2 F [L415], §8 #2, #3): rule ``aa_overflight``.

* In the combat move, enemy AA fires once at each aircraft that flies over its territory:
  every territory of the path between the start and the destination (the destination's AA
  fires in its battle).  One die per aircraft however many guns are there [L383, L713],
  hit on the gun's ``aa_fire`` value; the attacker chooses the aircraft lost [L381]: the
  cheapest first.  There is no AA fire in the noncombat move [L659].
* Aircraft that retreated from a battle are fired on by the AA of every enemy territory
  they cross on their way to land (their noncombat flight) [L415].

An aircraft shot down is removed before any battle; the dice and losses are events of the
territory fired from (step ``aa``, round 0)."""

from __future__ import annotations

from ..model.events import Casualties, DiceRolled
from ..model.units import Domain
from .battles import anti_aircraft
from .turn_rules import Rule, register_rule
from .working import count_types

OPTION = "aa_overflight"


def _fired_on(ctx, pieces, space: str, path, phase: str) -> list:
    """The aircraft of ``pieces`` that the AA of ``space`` fires at on this path."""
    board = ctx.board
    air = [p for p in pieces if p.uid in board.pieces and board.utype(p).domain == Domain.AIR]
    if phase == "combat":
        return air if space != path[-1] else []
    if phase == "noncombat":
        return [p for p in air if p.retreated]
    return []


def fire_over(ctx, space: str, aircraft: list) -> None:
    """The AA of ``space`` fires one die at each of ``aircraft``; the hits are lost."""
    board = ctx.board
    guns = anti_aircraft(ctx, space)
    if not guns or not aircraft or ctx.dice is None:
        return
    gun = board.utype(guns[0])
    value = int(gun.param("aa_fire", "value", 1))
    rolls = tuple(ctx.dice.roll(len(aircraft), f"overflight {space} round 0 defender aa {gun.key}"))
    hits = sum(1 for r in rolls if r <= value)
    ctx.emit(DiceRolled(space, 0, "aa", "defender", gun.key, value, rolls, hits))
    if not hits:
        return
    lost = sorted(aircraft, key=lambda p: (board.utype(p).cost, p.uid))[:hits]
    for p in lost:
        board.remove(p)
    ctx.emit(Casualties(space, 0, "attacker", count_types(lost)))


@register_rule
class AAOverflight(Rule):
    name = OPTION
    doc = ("Enemy AA fires one die at each aircraft flying over its territory in the combat "
           "move, and at aircraft flying home from a retreat.")

    def on_enter(self, ctx, pieces, space, path, phase):
        if not ctx.board.rules.option(OPTION, True):
            return
        fire_over(ctx, space, _fired_on(ctx, pieces, space, path, phase))
