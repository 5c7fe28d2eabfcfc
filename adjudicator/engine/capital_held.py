"""Victory by holding an enemy capital until your next turn (Axis & Allies Europe, digest §1.5
[L94-L100], §8 #14): rule ``capital_held``.

At the end of Germany's turn the rule records (persistent state ``berlin_held_by_allies``)
whether the Allies hold its capital after Germany had its turn to retake it.  The Allies'
victory conditions read it (``{state = "berlin_held_by_allies"}``) after each Allied turn:
Berlin held through a German turn, with the Allied capitals held, wins at the end of any
Allied turn (say when the USSR frees Moscow later), not only at the end of Germany's."""

from __future__ import annotations

from .turn_rules import Rule, declare_state, register_rule

HELD = declare_state("berlin_held_by_allies", bool)
WATCHED = "germany"


@register_rule
class CapitalHeld(Rule):
    name = "capital_held"
    doc = "Records, at the end of Germany's turn, whether the Allies still hold its capital."

    def at_step(self, ctx, point, step):
        if point != "end" or step != "collect_income" or ctx.power != WATCHED:
            return
        board = ctx.board
        capital = board.rules.powers[WATCHED].capital
        board.write_state(HELD, bool(board.enemy_of(WATCHED, board.owners.get(capital))))
