"""Global 1940's neutral territories (digest §2.5-§2.6, §3.7 [L331-L371, L433-L435, L548,
L580]): rules ``neutral_entry`` and ``mongolian_pact``.

A neutral is land owned by a ``[[nation]]`` (an owner that does not play).  Its printed army
is the territory's tag ``neutral_army:N`` (infantry).  A nation with a ``side`` is a friendly
neutral to that side's powers (pro-Axis, pro-Allies; the Dutch are the UK's and ANZAC's
only); a nation allied with nobody is a strict neutral; the relation of a power to a nation
(``GameState.relations``) turns strict neutrals to a side.

* Friendly neutral: never attacked, never flown over; land units (infantry, artillery,
  mechanized infantry, tanks: land units that attack) of a power at war move into it, not
  through it, in noncombat move; the first such power takes it and places its army as its
  own infantry, which move from its next turn.
* Unfriendly or strict neutral: attacked in combat move, never passed through; its army is
  placed (owned by the nation, never moving) when it is first attacked; an attack on a strict
  neutral turns every remaining strict neutral to the attacker's enemies (Mongolia turns
  pro-Axis only when the USSR attacks it).  Land once taken from a neutral is only captured,
  never liberated, and has no original owner to build a major factory.
* Aircraft never enter a neutral's land (nor land taken from one this turn) unless attacking it.
* The Soviet-Mongolian pact: a Japanese attack on Soviet land next to Mongolia brings every
  Mongolian territory not pro-Axis to the USSR with its army at the end of Japan's conduct
  combat, unless the USSR attacked Korea or Japanese land next to Mongolia first.
"""

from __future__ import annotations

from ..model.events import MongoliaJoined, NeutralArmyRaised, NeutralJoined, NeutralsTurned
from ..model.rules import ALLIED
from ..model.units import Domain
from .capture import set_owner
from .politics import PAIRED, neutral_here, at_war
from .turn_rules import Rule, declare_state, register_rule

ARMY_TAG = "neutral_army:"
ARMY_UNIT = "infantry"
DUTCH = "dutch"
MONGOLIA = "mongolia"
STRICT = ("strict_neutral", MONGOLIA)      # the nations that are strict neutrals at the start
PACT_EXCEPTION = "Korea"                   # [L435]

RAISED = declare_state("neutral_armies_raised", list)
TURNED = declare_state("neutrals_turned", dict)        # nation -> the side it turned to
PACT = declare_state("mongolia_pact", str)             # "" | "void" | "joined"


def army_size(board, space: str) -> int:
    for tag in board.map[space].tags:
        if tag.startswith(ARMY_TAG):
            return int(tag[len(ARMY_TAG):])
    return 0


def nation_of(board, space: str) -> str | None:
    """The nation (owner that does not play) holding ``space``, or None."""
    owner = board.owners.get(space)
    return owner if owner in board.rules.nations else None


def _raise_army(ctx, space: str, nation: str) -> None:
    board = ctx.board
    raised = list(board.read_state(RAISED, default=[]))
    if space in raised:
        return
    board.write_state(RAISED, sorted(raised + [space]))
    count = army_size(board, space)
    for _ in range(count):
        board.add_new(ARMY_UNIT, nation, space)
    ctx.emit(NeutralArmyRaised(space, nation, {ARMY_UNIT: count} if count else {}))


def _turn_strict(ctx, nation: str) -> None:
    """An attack on a strict neutral turns every strict neutral to the other side."""
    board = ctx.board
    turned = dict(board.read_state(TURNED, default={}))
    if nation not in STRICT or nation in turned:
        return
    side = next(s for s in (p.side for p in board.rules.powers.values())
                if s != board.rules.side_of(ctx.power))
    joining = [n for n in STRICT if n not in turned
               and (n != MONGOLIA or side != "Axis" or (ctx.power == "ussr" and nation == MONGOLIA))]
    for n in joining:
        turned[n] = side
        for key, power in board.rules.powers.items():
            if power.side == side:
                board.set_relation(key, n, ALLIED)
        ctx.emit(NeutralsTurned(n, side, ctx.power))
    board.write_state(TURNED, dict(sorted(turned.items())))


def _take_over(ctx, space: str, nation: str, event=NeutralJoined) -> None:
    """``ctx.power`` (or the USSR, for the pact) takes a neutral's land with its army:
    the survivors of an earlier attack, else the printed army, as its own units."""
    board = ctx.board
    power = "ussr" if event is MongoliaJoined else ctx.power
    set_owner(ctx, space, power, nation, False)
    if nation == DUTCH:
        return
    raised = list(board.read_state(RAISED, default=[]))
    if space not in raised:
        board.write_state(RAISED, sorted(raised + [space]))
        army = [board.add_new(ARMY_UNIT, power, space) for _ in range(army_size(board, space))]
    else:
        army = [p for p in board.at(space) if p.owner == nation]
    units: dict[str, int] = {}
    for piece in army:
        piece.owner = power
        piece.moved_in.update(("combat", "noncombat"))     # they move from its next turn
        units[piece.type] = units.get(piece.type, 0) + 1
    ctx.emit(event(space, power, units))


@register_rule
class NeutralEntry(Rule):
    name = "neutral_entry"
    doc = ("Neutral territories: friendly ones entered in noncombat move, others attacked "
           "and their armies placed; strict neutrals turn; no overflight; Dutch land.")

    def may_enter(self, ctx, piece, space, path, phase):
        board = ctx.board
        t = board.map[space]
        if not t.is_land:
            return None
        nation = nation_of(board, space)
        start = board.start_owners.get(space)
        ut = board.utype(piece)
        power = piece.owner
        final = space == path[-1]
        if nation == DUTCH and power == "japan" and not all(at_war(board, power, p) for p in PAIRED):
            return "dutch_needs_war"
        if ut.domain == Domain.AIR:
            if power in PAIRED and DUTCH in (nation, start):
                return None                 # the UK and ANZAC move freely in Dutch land
            attacking = (phase == "combat" and final and nation is not None
                         and not board.allied(power, nation))
            neutral = nation is not None or start in board.rules.nations
            return "neutral_overflight" if neutral and not attacking else None
        if nation is None:
            return None
        if nation == DUTCH:
            if board.allied(power, nation):
                if power not in PAIRED:
                    return "dutch_uk_anzac_only"
                return "friendly_neutral" if phase == "combat" else None
            return None if final else "neutral_not_through"
        if neutral_here(board, power, space):
            return "neutral_power_stays_home"
        if not final:
            return "neutral_not_through"
        if board.allied(power, nation):
            if phase == "combat":
                return "friendly_neutral"
            if ut.domain != Domain.LAND or ut.attack <= 0:
                return "neutral_entry_units"
        return None

    def on_enter(self, ctx, pieces, space, path, phase):
        board = ctx.board
        nation = nation_of(board, space)
        if nation is None or space != path[-1]:
            return
        if board.allied(ctx.power, nation):
            if phase == "noncombat" and any(board.utype(p).domain == Domain.LAND for p in pieces):
                _take_over(ctx, space, nation)
            return
        if phase == "combat":
            if nation != DUTCH:
                _raise_army(ctx, space, nation)
            _turn_strict(ctx, nation)


@register_rule
class MongolianPact(Rule):
    name = "mongolian_pact"
    doc = ("A Japanese attack on Soviet land next to Mongolia brings Mongolia to the USSR "
           "at the end of Japan's conduct combat [L433-L435].")

    def on_enter(self, ctx, pieces, space, path, phase):
        board = ctx.board
        if phase != "combat" or space != path[-1] or board.read_state(PACT, default=""):
            return
        next_to_mongolia = any(board.owners.get(n) == MONGOLIA for n in board.map.neighbours(space))
        owner = board.owners.get(space)
        if ctx.power == "japan" and owner == "ussr" and next_to_mongolia:
            ctx.mechanic("mongolia_pact_called", list).append(space)
        elif ctx.power == "ussr" and MONGOLIA not in board.read_state(TURNED, default={}) \
                and (space == PACT_EXCEPTION or (owner == "japan" and next_to_mongolia)):
            board.write_state(PACT, "void")

    def at_step(self, ctx, point, step):
        board = ctx.board
        if (point, step) != ("end", "conduct_combat") or not ctx.mechanic("mongolia_pact_called", list) \
                or board.read_state(PACT, default=""):
            return
        if board.read_state(TURNED, default={}).get(MONGOLIA) == "Axis":
            return
        for key in sorted(k for k, o in board.owners.items() if o == MONGOLIA):
            _take_over(ctx, key, MONGOLIA, MongoliaJoined)
        board.write_state(PACT, "joined")
