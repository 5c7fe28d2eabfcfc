"""The rules of the test edition tests/editions/tidewar, plugged in from outside the package
through the turn's hooks (``adjudicator.engine.turn_rules``).  Nothing in the adjudicator
knows these names.

* ``sea_lanes`` (edition rule): a sea zone with an owner and a value (a "lane") is taken by
  an enemy warship that enters it in the combat move when no unit of its owner's side is
  there (``on_enter``); on capture (``on_capture``, a trigger) every warship of the taker
  there is marked ``lane_keeper`` (a persistent per-unit flag) and the taker's count of
  lanes taken (per-power persistent state) goes up; a ``lane_keeper`` moves one space
  further (``move_bonus``); after a sea battle the defender won in a lane its owner holds,
  the lane counts as "held" (``after_battle``, per-edition state).  Original yards place two
  more units (``placement_capacity``).  At the end of every income step (``at_step``) the
  power's count of turns played goes up.
* ``grey_neutrality`` (edition rule): grey's land (a nation that does not play) may not be
  entered by anyone but grey's own units (``may_enter``).
* ``grey_levies`` (edition rule): whoever holds Midmarch may move grey's soldiers (within
  grey's land) in the noncombat move, though grey is not its ally (``may_command``).
* ``border_levies`` (edition rule): a power places one new soldier with no yard in each
  territory it holds that borders its capital (``placement_spaces``).
* ``barge_ballast`` (edition rule): in a sea battle the defender may lose the cargo aboard
  its barges, though cargo is not in the battle (``casualty_pool``).
* ``tolls`` (income item, rolls dice): one die per lane the power controls; each 4 or more
  pays the lane's value into the power's last economy (red: ``red_fleet``) -- unless the
  power's standing ``toll`` order says ``waive``.
* ``toll`` (a standing order kind that is not ``defend``): ``toll all: waive`` /
  ``toll all: collect``; default ``collect``.
* ``tide_turns`` (a round-end step): the last power's turn of every round ends with the
  tide: every lane flag is cleared.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from adjudicator.engine.capture import take_territory
from adjudicator.engine.income import IncomeContext, item
from adjudicator.engine.steps import step
from adjudicator.engine.turn_rules import (
    Rule, declare_flag, declare_standing, declare_state, register_rule, standing_choice,
)
from adjudicator.io.order_kinds import STANDING, STANDING_ISSUER, kind, standing_syntax
from adjudicator.model.events import Event
from adjudicator.model.orders import StandingChoice
from adjudicator.present import wording

KEEPER = declare_flag("lane_keeper")
LANES_TAKEN = declare_state("lanes_taken", int, per_power=True)
LANES_HELD = declare_state("lanes_held", list)
TURNS = declare_state("turns_played", int, per_power=True)
TOLL = declare_standing("toll", "collect", ("collect", "waive"),
                        "Whether the power collects its lanes' tolls (default: collect).")


@attrs.frozen
class TollsRolled(Event):
    """The ``tolls`` income item's dice for ``power``: what they paid into ``economy``."""

    kind: ClassVar[str] = "tolls_rolled"
    power: str
    economy: str
    rolls: tuple[int, ...]
    paid: int


wording.EVENT_TEXTS["tolls_rolled"] = "{power} rolls {rolls} for its tolls: {paid} IPCs to {economy}"
wording.PROBLEMS["grey_is_neutral"] = "{space} belongs to a nation that does not play: no one may enter it"


def _lane(board, space: str) -> bool:
    t = board.map[space]
    return t.is_sea and t.original_owner is not None


@register_rule
class SeaLanes(Rule):
    name = "sea_lanes"
    doc = "Lanes (sea zones with an owner and a value) are taken by an enemy warship entering them."

    def on_enter(self, ctx, pieces, space, path, phase):
        board = ctx.board
        if phase != "combat" or space != path[-1] or not _lane(board, space):
            return
        owner = board.owners.get(space)
        warships = [p for p in pieces if board.utype(p).has("surface_warship")]
        if warships and board.enemy_of(ctx.power, owner) and not [
                p for p in board.at(space) if board.allied(owner, p.owner)]:
            take_territory(ctx, space)

    def on_capture(self, ctx, space, new_owner, previous):
        board = ctx.board
        if not _lane(board, space):
            return
        for p in board.at(space):
            if p.owner == new_owner and board.utype(p).has("surface_warship"):
                board.set_flag(p, KEEPER)
        board.write_state(LANES_TAKEN, board.read_state(LANES_TAKEN, new_owner, 0) + 1,
                          power=new_owner)

    def move_bonus(self, board, piece, phase):
        return 1 if KEEPER in piece.flags else 0

    def after_battle(self, ctx, space, outcome):
        board = ctx.board
        if _lane(board, space) and outcome != "attacker_wins":
            held = sorted(set(board.read_state(LANES_HELD, default=[])) | {space})
            board.write_state(LANES_HELD, held)

    def placement_capacity(self, ctx, space, owner, origin, unit_type, base):
        return base + 2 if origin == owner else base

    def at_step(self, ctx, point, step):
        """A trigger point: at the end of collecting income, count the power's turns."""
        if point == "end" and step == "collect_income":
            board = ctx.board
            board.write_state(TURNS, board.read_state(TURNS, ctx.power, 0) + 1, power=ctx.power)


@register_rule
class GreyNeutrality(Rule):
    name = "grey_neutrality"
    doc = "Land of a nation that does not play may not be entered."

    def may_enter(self, ctx, piece, space, path, phase):
        board = ctx.board
        owner = board.owners.get(space)
        if board.map[space].is_land and owner in board.rules.nations and piece.owner != owner:
            return "grey_is_neutral"
        return None


@register_rule
class GreyLevies(Rule):
    name = "grey_levies"
    doc = "Whoever holds Midmarch may move grey's soldiers in the noncombat move."

    def may_command(self, board, power, piece, phase):
        return piece.owner == "grey" and board.owners.get("Midmarch") == power \
            and phase == "noncombat"


@register_rule
class BorderLevies(Rule):
    name = "border_levies"
    doc = "One soldier placed with no yard in each territory a power holds beside its capital."

    def placement_spaces(self, ctx, power, unit_type):
        board = ctx.board
        if unit_type not in (None, "soldier"):
            return {}
        capital = board.rules.powers[power].capital
        return {s: 1 for s in sorted(board.map.neighbours(capital))
                if board.owners.get(s) == power and board.map[s].is_land}


@register_rule
class BargeBallast(Rule):
    name = "barge_ballast"
    doc = "In a sea battle the defender may lose the cargo aboard its barges."

    def casualty_pool(self, ctx, space, side, fighting):
        board = ctx.board
        if side != "defender" or not board.map[space].is_sea:
            return []
        return [(c, 0) for p in fighting if p.owner != ctx.power and p.type == "barge"
                for c in board.cargo_of(p)]


@item("tolls", projected=False)
def tolls(inc: IncomeContext):
    """One die per lane the power holds; a 4 or more pays the lane's value to its last
    economy.  Nothing when its standing ``toll`` order says ``waive``."""
    if inc.ctx is None or standing_choice(inc.ctx, inc.power, TOLL.name) == "waive":
        return []
    lanes = sorted(s for s, o in inc.owners.items()
                   if o == inc.power and _lane(inc.ctx.board, s))
    rolls = inc.roll(len(lanes), f"{inc.power} tolls")
    paid = sum(inc.game.map[lane].ipc for lane, r in zip(lanes, rolls) if r >= 4)
    economy = inc.economies[-1]
    if rolls:
        inc.ctx.emit(TollsRolled(inc.power, economy, rolls, paid))
    return [(economy, paid)]


@step("tide_turns")
def tide_turns(ctx, dice) -> None:
    """At the end of every round the tide clears every lane keeper's flag."""
    board = ctx.board
    for piece in list(board.pieces.values()):
        if KEEPER in piece.flags:
            board.set_flag(piece, KEEPER, on=False)


# -- the "toll" order kind: grammar fragment, model, reading, writing, and what uses it --------

@attrs.frozen
class TollOrder(StandingChoice):
    kind: ClassVar[str] = "toll"


TOLL_GRAMMAR = """
toll: TOLL name _COLON name
TOLL.2: /toll\\b/i
"""


build_toll, write_toll = standing_syntax("toll", TollOrder)
kind("toll", ["TOLL"], ["toll"], "toll all: waive", {"WORD", "INT", "_COLON", "$END"},
     STANDING, grammar=TOLL_GRAMMAR, model=TollOrder, issuer=STANDING_ISSUER,
     engine=["turn_rules.check_standing_choices", "tidewar_rules.tolls"],
     problems=["standing_unknown", "standing_bad_value"],
     report="standing orders")(build_toll)(write_toll)
