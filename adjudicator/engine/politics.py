"""Global 1940's politics (digest §4.1-§4.4 [L439-L747]): rules ``declarations`` and
``political_limits`` and the order ``declare war on <power>, ...``.

The war state between two powers is ``GameState.relations`` (``"neutral"``: not at war),
changed only through ``WorkingBoard.set_relation``.  Two powers not at war ignore each other
(``WorkingBoard.enemy_of``); ``political_limits`` keeps them out of each other's land and
applies the restrictions of neutral powers and the US, Soviet and Japanese limits.

Declarations are taken at the start of the declarer's combat move, before any unit moves
[L659]; who may declare on whom, and whether a declaration is provoked, follows [L449-L599]
(see ``_permission``).  The history is kept in the edition's state: ``war_declarations``
("declarer>target:provoked|unprovoked"), ``war_triggers`` (what another nation did that
opens a declaration: London or North America captured, China entered) and
``japan_unprovoked_declaration`` (Japan declared unprovoked on the UK or ANZAC: its 10-IPC
objective is lost [L451], the USA may declare [L516]); Japan's attack on French
Indo-China, which loses the same objective, is the generic attack history (rule
``attack_history``, engine/objectives.py).  The USA entering the war upgrades its mainland
factories [L429]."""

from __future__ import annotations

from ..model.events import AtWar, DeclarationDeferred, FactoriesUpgraded, WarDeclared
from ..model.rules import NEUTRAL, WAR
from ..model.units import Domain
from .conditions import original_owner
from .turn_rules import Rule, declare_state, register_rule

# The powers the political rules name [L449-L599].
EUROPEAN_AXIS = ("germany", "italy")
PAIRED = ("uk", "anzac")            # a declaration on (or by) one of them is one on (by) both
CHINA = "china"
SOVIET_FREE_ROUND = 4               # the USSR's 4th turn [L474]
US_ENTRY_ROUND = 3                  # the USA's 3rd Collect Income [L516]
US_PATROL_ZONE = "Sea Zone 102"     # US warships' long-range patrols [L516]
JAPAN_WATCHED = ("Western United States", "Alaska")     # [L497]
CHINA_ALSO = ("Kwangtung", "Burma")                     # land China may enter [L383]
PACIFIC_LAST_ZONE = 63              # sea zones 1-63 are the Pacific board, 64 on Europe's
US_MAINLAND = ("Eastern United States", "Central United States", "Western United States")  # [L429]
UPGRADE = ("minor_factory", "major_factory")          # the US factories entering the war [L429]

DECLARATIONS = declare_state("war_declarations", list)
TRIGGERS = declare_state("war_triggers", list)
JAPAN_UNPROVOKED = declare_state("japan_unprovoked_declaration", bool)
# The powers each power declared war on unprovoked, read by the condition
# ``declared_unprovoked_on`` of national objectives (engine/conditions.py).
UNPROVOKED_ON = declare_state("unprovoked_declarations", list, per_power=True)


# -- reading the state -------------------------------------------------------------------------

def at_war(board, a: str, b: str) -> bool:
    return board.rules.relation(a, b, board.relations) == WAR


def not_at_war(board, a: str, b: str) -> bool:
    """Two playing powers that are not at war (relation ``neutral``)."""
    powers = board.rules.powers
    return (a in powers and b in powers and a != b
            and board.rules.relation(a, b, board.relations) == NEUTRAL)


def triggers(board) -> list[str]:
    return list(board.read_state(TRIGGERS, default=[]))


def add_trigger(board, trigger: str) -> None:
    found = triggers(board)
    if trigger not in found:
        board.write_state(TRIGGERS, sorted(found + [trigger]))


def declared(board) -> list[str]:
    return list(board.read_state(DECLARATIONS, default=[]))


def declared_on(board, by: str, on: str) -> bool:
    return any(d.split(":")[0] == f"{by}>{on}" for d in declared(board))


def turn_round(ctx) -> int:
    return ctx.board.round


def is_china(board, space: str) -> bool:
    """Chinese land: China's emblem (original owner, or the tag for land Japan held at the
    start)."""
    t = board.map[space]
    return t.is_land and original_owner(t) == CHINA


def china_may_enter(board, space: str) -> bool:
    return is_china(board, space) or space in CHINA_ALSO


# -- the two boards ------------------------------------------------------------------------------

_BOARDS: dict[int, dict[str, frozenset[str]]] = {}


def boards_of(board, space: str) -> frozenset[str]:
    """The printed board(s) a space lies on ("pacific", "europe"): sea zones by number
    (1-63 Pacific), land by the sea zones it touches, landlocked land by the nearest coast
    (both boards at a tie) -- ruling "Soviet treaties"."""
    gmap = board.map
    found = _BOARDS.get(id(gmap))
    if found is None:
        found = _BOARDS[id(gmap)] = _derive_boards(gmap)
    return found.get(space, frozenset({"pacific", "europe"}))


def _derive_boards(gmap) -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}
    for zone in gmap.seas():
        number = int(zone.key.rsplit(" ", 1)[-1]) if zone.key.rsplit(" ", 1)[-1].isdigit() else 0
        out[zone.key] = frozenset({"pacific" if 0 < number <= PACIFIC_LAST_ZONE else "europe"})
    frontier = {}
    for t in gmap.land():
        seas = {b for n in gmap.neighbours(t.key) if n in out for b in out[n]}
        if seas:
            frontier[t.key] = frozenset(seas)
    out.update(frontier)
    while frontier:
        reached: dict[str, set[str]] = {}
        for key, where in frontier.items():
            for n in gmap.neighbours(key):
                if n not in out and gmap[n].is_land:
                    reached.setdefault(n, set()).update(where)
        frontier = {k: frozenset(v) for k, v in reached.items()}
        out.update(frontier)
    return out


# -- who may declare on whom -------------------------------------------------------------------

def _permission(ctx, power: str, enemy: str) -> tuple[str | None, str]:
    """``(problem code or None, how)``: ``how`` is ``provoked``, ``unprovoked`` or
    ``deferred`` (the USA's 3rd turn: taken at the start of its Collect Income)."""
    board = ctx.board
    rules = board.rules
    if enemy not in rules.powers or rules.side_of(enemy) == rules.side_of(power):
        return "declare_not_enemy", ""
    if at_war(board, power, enemy):
        return "already_at_war", ""
    found = triggers(board)
    axis_on = [p for p in rules.powers if rules.side_of(p) != rules.side_of(power)
               and declared_on(board, p, power)]
    if power == "ussr" and enemy in EUROPEAN_AXIS:
        provoked = any(p in EUROPEAN_AXIS for p in axis_on) or "london_captured" in found
        if provoked:
            return None, "provoked"
        if turn_round(ctx) >= SOVIET_FREE_ROUND:
            return None, "unprovoked"
        return "may_not_declare", ""
    if power == "usa":
        if axis_on or "london_captured" in found or "north_america_captured" in found \
                or board.read_state(JAPAN_UNPROVOKED, default=False):
            return None, "provoked"
        if turn_round(ctx) == US_ENTRY_ROUND:
            return None, "deferred"
        if turn_round(ctx) > US_ENTRY_ROUND:
            return None, "unprovoked"
        return "may_not_declare", ""
    if power == CHINA and enemy in EUROPEAN_AXIS:
        if declared_on(board, enemy, CHINA) or f"china_entered_by:{enemy}" in found:
            return None, "provoked"
        return "may_not_declare", ""
    return None, "unprovoked"


def declare(ctx, power: str, enemy: str, how: str, step: str) -> None:
    """Put ``power`` at war with ``enemy`` (and the UK and ANZAC together), with the events
    and the history."""
    board = ctx.board
    pairs = [(power, enemy)]
    if enemy in PAIRED:
        pairs += [(power, p) for p in PAIRED if p != enemy]
    if power in PAIRED:
        pairs += [(p, enemy) for p in PAIRED if p != power]
    ctx.emit(WarDeclared(power, enemy, how, step))
    history = declared(board) + [f"{power}>{enemy}:{how}"]
    usa_neutral = not board.at_war_with_anyone("usa")
    for a, b in pairs:
        if not at_war(board, a, b):
            if (a, b) != (power, enemy):
                ctx.emit(AtWar(a, b, power))
            board.set_relation(a, b, WAR)
    board.write_state(DECLARATIONS, history)
    if how == "unprovoked":
        done = board.read_state(UNPROVOKED_ON, power) or []
        board.write_state(UNPROVOKED_ON, sorted({*done, enemy}), power)
    if power == "japan" and enemy in PAIRED and how == "unprovoked":
        board.write_state(JAPAN_UNPROVOKED, True)
    if usa_neutral and board.at_war_with_anyone("usa"):
        _upgrade_us_factories(ctx)


def _upgrade_us_factories(ctx) -> None:
    """The USA enters the war: the minor factories of its three mainland territories become
    majors, free of charge, usable at once [L429] (damage kept)."""
    board = ctx.board
    minor, major = UPGRADE
    done = []
    for space in US_MAINLAND:
        for piece in board.at(space):
            if piece.type == minor and piece.owner == "usa":
                piece.type = major
                done.append(space)
    if done:
        ctx.emit(FactoriesUpgraded("usa", tuple(done)))


@register_rule
class Declarations(Rule):
    name = "declarations"
    doc = ("Declarations of war at the start of the declarer's combat move (the USA's 3rd "
           "turn: at the start of its Collect Income), with who may declare on whom.")

    def at_step(self, ctx, point, step):
        if point != "start" or step not in ("combat_move", "collect_income"):
            return
        deferred = ctx.mechanic("deferred_declarations", list)
        if step == "collect_income":
            for enemy in deferred:
                if not at_war(ctx.board, ctx.power, enemy):
                    declare(ctx, ctx.power, enemy, "unprovoked", step)
            return
        for order in ctx.orders.of("declare"):
            for enemy in order.targets:
                code, how = _permission(ctx, ctx.power, enemy)
                if code:
                    ctx.error(order.line, code, power=ctx.power, enemy=enemy)
                elif how == "deferred":
                    deferred.append(enemy)
                    ctx.emit(DeclarationDeferred(ctx.power, enemy))
                else:
                    declare(ctx, ctx.power, enemy, how, step)


# -- movement limits ---------------------------------------------------------------------------

def neutral_here(board, power: str, space: str) -> bool:
    """Whether the neutral-power restrictions bind ``power`` in ``space``: it is at war
    with no one, or (the USSR's treaties [L474]) with no one on the board of ``space``.
    (Also read by rule ``bases``: a neutral power uses no other nation's naval base, and
    no other nation uses its own [L743].)"""
    if power == "ussr":
        wars = set()
        if any(at_war(board, power, p) for p in EUROPEAN_AXIS):
            wars.add("europe")
        if at_war(board, power, "japan"):
            wars.add("pacific")
        return not (wars & boards_of(board, space))
    return not board.at_war_with_anyone(power)


def _two_zones_of(board, lands) -> frozenset[str]:
    near = {n for t in lands for n in board.map.neighbours(t) if board.map[n].is_sea}
    return frozenset(near | {m for n in near for m in board.map.neighbours(n) if board.map[m].is_sea})


@register_rule
class PoliticalLimits(Rule):
    name = "political_limits"
    doc = ("Powers not at war do not enter each other's land or attack each other; neutral "
           "powers stay home; the US, Soviet and Japanese limits while not at war.")

    def may_enter(self, ctx, piece, space, path, phase):
        board = ctx.board
        power = piece.owner
        t = board.map[space]
        final = space == path[-1]
        if t.is_land:
            owner = board.owners.get(space)
            if owner is not None and not_at_war(board, power, owner):
                return "not_at_war"
            if phase == "combat" and final and any(
                    not_at_war(board, power, p.owner) for p in board.at(space)):
                return "not_at_war"
            if owner in board.rules.powers and owner != power:
                if neutral_here(board, power, space):
                    return "neutral_power_stays_home"
                if neutral_here(board, owner, space):
                    return "neutral_power_land"
            if is_china(board, space) and power != CHINA \
                    and board.rules.side_of(power) == board.rules.side_of(CHINA) \
                    and not at_war(board, power, "japan"):
                return "china_closed"
            return None
        if not final or board.utype(piece).domain != Domain.SEA:
            return None
        if power == "japan" and not at_war(board, power, "usa") \
                and space in _two_zones_of(board, JAPAN_WATCHED):
            return "japan_near_usa"
        if power == "usa":
            if not at_war(board, power, "japan") and any(
                    board.owners.get(n) == "japan" for n in board.map.neighbours(space)):
                return "usa_near_japan"
            if not any(at_war(board, power, p) for p in EUROPEAN_AXIS) \
                    and "europe" in boards_of(board, space) \
                    and not any(board.owners.get(n) == power for n in board.map.neighbours(space)) \
                    and not (space == US_PATROL_ZONE and board.utype(piece).has("surface_warship")):
                return "usa_europe_waters"
        return None

    def on_enter(self, ctx, pieces, space, path, phase):
        """A European Axis power's units entering land China may enter let China declare
        war on it [L533]."""
        if ctx.power in EUROPEAN_AXIS and china_may_enter(ctx.board, space) \
                and any(ctx.board.utype(p).domain == Domain.LAND for p in pieces):
            add_trigger(ctx.board, f"china_entered_by:{ctx.power}")

    def on_capture(self, ctx, space, new_owner, previous):
        """London or North American land taken by the Axis opens the USA's (and, London,
        the USSR's) declarations [L474, L516]."""
        rules = ctx.board.rules
        if new_owner not in rules.powers or rules.side_of(new_owner) == rules.side_of("usa"):
            return
        if space == rules.powers["uk"].capital:
            add_trigger(ctx.board, "london_captured")
        if "north_america" in ctx.board.map[space].tags:
            add_trigger(ctx.board, "north_america_captured")
