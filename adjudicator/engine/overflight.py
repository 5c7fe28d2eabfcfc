"""AA fire at aircraft flying over (Axis & Allies Europe, digest §4.2 [L359, L705, L711-L715],
§5.3.2 F [L415], §8 #2, #3): rule ``aa_overflight``.

* In the combat move, enemy AA fires once at each aircraft that flies over its territory:
  every territory of the path between the start and the destination (the destination's AA
  fires in its battle).  One die per aircraft however many guns are there [L383, L713],
  hit on the gun's ``aa_fire`` value; the attacker chooses the aircraft lost [L381]: the
  cheapest first.  There is no AA fire in the noncombat move [L659].
* Aircraft that retreated from a battle are fired on by the AA of every enemy territory
  they cross on their way to land (their noncombat flight) [L415].

An aircraft shot down is removed before any battle.  Each shot is a one-round "battle" of
its own, ``<territory> (overflight)``, of type ``overflight`` (started, dice at step ``aa``,
casualties, ended), so reports and accounts read it like any other."""

from __future__ import annotations

from ..model.events import BattleEnded, BattleStarted, Casualties, DiceRolled
from ..model.units import Domain
from .battles import RETREATED, anti_aircraft
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
        return [p for p in air if RETREATED in p.marks]
    return []


def lose_cheapest(board, pieces: list, hits: int) -> list:
    """Remove the ``hits`` cheapest of ``pieces`` (the attacker's choice of losses when it
    gives none [L381]); returns them."""
    lost = sorted(pieces, key=lambda p: (board.utype(p).cost, p.uid))[:hits]
    for p in lost:
        board.remove(p)
    return lost


def fire_over(ctx, space: str, aircraft: list) -> None:
    """The AA of ``space`` fires one die at each of ``aircraft``; the hits are lost."""
    board = ctx.board
    guns = anti_aircraft(ctx, space)
    if not guns or not aircraft or ctx.dice is None:
        return
    gun = board.utype(guns[0])
    value = int(gun.param("aa_fire", "value", 1))
    battle = f"{space} (overflight)"
    defenders = tuple(p for p in board.rules.turn_order if any(g.owner == p for g in guns))
    ctx.emit(BattleStarted(battle, space, "overflight", ctx.power, defenders,
                           count_types(aircraft), count_types(guns)))
    rolls = tuple(ctx.dice.roll(len(aircraft), f"{battle} round 1 defender aa {gun.key}"))
    hits = sum(1 for r in rolls if r <= value)
    ctx.emit(DiceRolled(battle, 1, "aa", "defender", gun.key, value, rolls, hits))
    lost = lose_cheapest(board, aircraft, hits)
    if lost:
        ctx.emit(Casualties(battle, 1, "attacker", count_types(lost)))
    tuv = sum(board.utype(p).cost for p in lost)
    ctx.emit(BattleEnded(battle, space, "attacker_wins" if len(lost) < len(aircraft)
                         else "defender_wins", 1, count_types(lost), {}, tuv, 0, -tuv))


@register_rule
class AAOverflight(Rule):
    name = OPTION
    doc = ("Enemy AA fires one die at each aircraft flying over its territory in the combat "
           "move, and at aircraft flying home from a retreat.")

    def on_enter(self, ctx, pieces, space, path, phase):
        if not ctx.board.rules.option(OPTION, True):
            return
        fire_over(ctx, space, _fired_on(ctx, pieces, space, path, phase))
