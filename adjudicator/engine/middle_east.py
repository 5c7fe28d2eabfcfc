"""The Middle East in income (Axis & Allies Europe, digest §5.8 [L148-L152, L693-L699]).

* Income item ``territories_outside_middle_east``: the ``territories`` item without the
  land tagged ``middle_east`` (the Allies never count it; Germany is paid for it by the
  Allies, not the bank) and without sea zones (convoy centers are their own item).
* Rule ``middle_east_payment`` (at the end of Germany's income step [L699], §8 #15; a
  transfer between treasuries, not income from the bank): the Allies pay Germany the value
  of the Middle East territories it holds (while it holds its capital), in the order their standing order
  ``middle east: <powers>`` gives (the first Ally in turn order that wrote one; default:
  the United Kingdom, then the United States, then the Soviet Union -- "as Germany
  chooses"); each pays up to what it has and any shortfall is lost.  Every payment is a
  ``MiddleEastPaid`` event.
* Rule ``middle_east_aa`` [L707]: any Ally may move an AA gun that stands in the Middle
  East (``may_command``), but each such gun moves once per round: a gun that moved out of a
  Middle East territory gets the per-unit flag ``moved_this_round`` (``on_enter``) and may
  not move from the Middle East again (``may_enter``) until the flag is cleared at the start
  of the next round (the first power's first step).
"""

from __future__ import annotations

from itertools import permutations
from ..model.events import MiddleEastPaid
from .income import IncomeContext, item
from .turn_rules import Rule, declare_flag, declare_standing, register_rule, standing_choice

MIDDLE_EAST_TAG = "middle_east"
MOVED_THIS_ROUND = declare_flag("moved_this_round")
PAYEE = "germany"                       # the only power paid for the Middle East [L699]
ALLIES = ("uk", "usa", "ussr")          # the default order of payment
PAYERS = declare_standing(
    "middle_east", " ".join(ALLIES),
    tuple(" ".join(p) for n in (1, 2, 3) for p in permutations(ALLIES, n)),
    "Which Allies pay Germany for the Middle East, first to last: 'middle east: usa uk' "
    "(the others after them; default: uk usa ussr).")


@item("territories_outside_middle_east")
def territories_outside_middle_east(inc: IncomeContext) -> int:
    """The values of the land ``power`` controls outside the Middle East."""
    territories = inc.game.map.territories
    return sum(territories[t].ipc for t, owner in inc.owners.items()
               if owner == inc.power and t in territories and territories[t].is_land
               and MIDDLE_EAST_TAG not in territories[t].tags)


def middle_east_value(game, owners, power: str) -> int:
    territories = game.map.territories
    return sum(territories[t].ipc for t, owner in owners.items()
               if owner == power and t in territories and MIDDLE_EAST_TAG in territories[t].tags)


def payment_order(ctx) -> tuple[str, ...]:
    """The Allies in the order they pay: the first Ally (turn order) with a standing order."""
    chosen = PAYERS.default
    for power in ctx.board.rules.turn_order:
        if power in ALLIES:
            standing = ctx.standing_orders.get(power)
            if (standing is not None and standing.choice(PAYERS.name) is not None) or (
                    power == ctx.power and any(c.name == PAYERS.name
                                               for c in ctx.orders.standing_choices)):
                chosen = standing_choice(ctx, power, PAYERS.name)
                break
    first = tuple(chosen.split())
    return first + tuple(p for p in ALLIES if p not in first)


def pay_middle_east(ctx) -> None:
    """The Allies pay ``ctx.power`` (Germany) for the Middle East it holds [L699]."""
    board = ctx.board
    owed = middle_east_value(ctx.game, board.owners, ctx.power)
    if not owed or not board.capital_held_by_owner(ctx.power):
        return
    paid = 0
    for payer in payment_order(ctx):
        if paid >= owed:
            break
        economy = board.rules.powers[payer].economy.key
        amount = min(owed - paid, board.ipcs.get(economy, 0))
        board.ipcs[economy] = board.ipcs.get(economy, 0) - amount
        paid += amount
        if amount:
            ctx.emit(MiddleEastPaid(payer, ctx.power, amount, owed))
    if paid < owed:
        ctx.emit(MiddleEastPaid("allies", ctx.power, 0, owed, owed - paid))
    mine = board.rules.powers[ctx.power].economy.key
    board.ipcs[mine] = board.ipcs.get(mine, 0) + paid


@register_rule
class MiddleEastPayment(Rule):
    name = "middle_east_payment"
    doc = "At the end of Germany's income step the Allies pay it the Middle East value it holds."

    def at_step(self, ctx, point, step):
        if (point == "end" and step == "collect_income" and ctx.power == PAYEE
                and ctx.board.rules.option("middle_east_payment", True)):
            pay_middle_east(ctx)


def _middle_east_gun(board, piece, space: str) -> bool:
    """An AA gun standing in a Middle East territory (land of the ``middle_east`` tag)."""
    return (board.utype(piece).has("aa_fire") and board.map[space].is_land
            and MIDDLE_EAST_TAG in board.map[space].tags)


@register_rule
class MiddleEastAA(Rule):
    name = "middle_east_aa"
    doc = "Any Ally may move an AA gun in the Middle East, but each such gun only once per round."

    def may_command(self, board, power, piece, phase):
        return board.allied(piece.owner, power) and _middle_east_gun(board, piece, piece.space)

    def may_enter(self, ctx, piece, space, path, phase):
        if MOVED_THIS_ROUND in piece.flags and _middle_east_gun(ctx.board, piece, path[0]):
            return "middle_east_aa_moved"
        return None

    def on_enter(self, ctx, pieces, space, path, phase):
        for piece in pieces:
            if _middle_east_gun(ctx.board, piece, path[0]) and MOVED_THIS_ROUND not in piece.flags:
                ctx.board.set_flag(piece, MOVED_THIS_ROUND)

    def at_step(self, ctx, point, step):
        rules = ctx.board.rules
        if (point == "start" and ctx.power == rules.turn_order[0] and rules.plan.steps
                and step == rules.plan.steps[0]):
            for piece in list(ctx.board.pieces.values()):
                if MOVED_THIS_ROUND in piece.flags:
                    ctx.board.set_flag(piece, MOVED_THIS_ROUND, on=False)
