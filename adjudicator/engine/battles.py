"""Conduct combat: find the battles the combat moves started, fight them in the order the
edition gives (``TurnPlan.battle_kinds``: strategic bombing raids, amphibious assaults,
then general combat), and apply the results to the working board (digests §5.3).

In check mode battles are settled optimistically (every attacking die hits, every
defending die misses), which is also the rulebook's test for a landing plan."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from ..model.dice import DiceSource
from ..model.events import AircraftLost, BattleEnded, BattleStarted, Landed
from ..model.orders import ALL, SubmergePolicy
from ..model.state import Unit
from ..model.units import Domain
from .capture import take_territory
from .combat import BattleSetup, BattleUnit, resolve_battle
from .context import Landing, TurnContext
from .raids import RAIDING, fight_raid
from .sharing import may_ride
from .turn_rules import any_hook, declare_flag, hooked, rules_with
from .working import Piece, WorkingBoard, count_types


def start_zones(board: WorkingBoard) -> tuple[frozenset[str], frozenset[str]]:
    """(hostile, contested): the sea zones holding enemy surface warships, and those holding
    any enemy unit (not counting cargo), as ``hostile_zone`` and ``enemies_at`` of each sea
    zone say -- in one pass over the pieces in sea zones, each owner's relation asked once
    (this runs at the start of every turn checked or played)."""
    power, warships = board.power, board.types_with("surface_warship")
    enemy: dict[str, bool] = {}
    hostile, contested = [], []
    for key in _sea_keys(board.map):
        found = False
        for piece in board.on_board(key):
            owner = piece.owner
            is_enemy = enemy.get(owner)
            if is_enemy is None:
                is_enemy = enemy[owner] = board.enemy_of(power, owner)
            if is_enemy:
                if not found:
                    contested.append(key)
                    found = True
                if piece.type in warships:
                    hostile.append(key)
                    break
    return frozenset(hostile), frozenset(contested)


def _sea_keys(game_map) -> tuple[str, ...]:
    """The keys of ``game_map.seas()``, found once for each map."""
    found = _SEA_KEYS.get(id(game_map))
    if found is None or found[0] is not game_map:
        found = _SEA_KEYS[id(game_map)] = (game_map, tuple(z.key for z in game_map.seas()))
    return found[1]


_SEA_KEYS: dict[int, tuple[object, tuple[str, ...]]] = {}    # id -> (the map, its sea keys)


def combatants(ctx: TurnContext, pieces: list[Piece]) -> list[Piece]:
    """The pieces that go on the battle board: not noncombatants, not raiding bombers."""
    board = ctx.board
    return [p for p in pieces if not board.utype(p).has("noncombatant") and RAIDING not in p.marks]


def sea_battle_needed(ctx: TurnContext, zone: str) -> bool:
    """Whether the phasing power fights in ``zone`` (digest §5.2, §5.3.1 step 1, §6.5-6.6).

    Always where enemy surface warships make the zone hostile, or where a ``battle`` line
    names it, or, with ``every_ship_blocks_assault``, where an assault unloads from.
    Where only enemy subs and transports are: lone transports are destroyed
    automatically by any unit that ended its combat move there; otherwise a unit that ended
    its combat move there attacks, except an amphibious assault's ships (which may ignore
    subs) and ships that only left a contested zone to avoid a battle (case 3).
    """
    board = ctx.board
    mine = [p for p in board.at(zone) if p.owner == ctx.power]
    enemies = board.enemies_at(zone)
    if not mine or not enemies:
        return False
    if board.hostile_zone(zone) or ctx.orders.directive_for(zone) is not None:
        return True
    if every_ship_blocks_assault(ctx) and any(l.zone == zone for l in ctx.landings):
        return True
    if any(board.utype(e).domain == Domain.AIR and e.carried_by is None for e in enemies):
        return True             # defending aircraft at sea (scrambled) force the battle
    movers = [p for p in mine if "combat" in p.moved_in
              and not board.utype(p).has("carries_land")]
    if not movers:
        return False
    if all(board.utype(e).has("defenceless") for e in enemies):
        return True
    if any(landing.zone == zone for landing in ctx.landings):
        return False
    return any(p.start_space not in ctx.hostile_at_start for p in movers)


def every_ship_blocks_assault(ctx: TurnContext) -> bool:
    """Option ``assault_clears_every_ship`` (Europe [L563]): any enemy ship in the zone an
    assault unloads from, even a lone transport or submarine, is fought first and must all
    be sunk before the cargo goes ashore.  Off (1941, 1942): an assault's ships may ignore
    enemy subs and transports, and only enemy surface warships stop the unloading."""
    return bool(ctx.board.rules.option("assault_clears_every_ship", False))


def unloading_blocked(ctx: TurnContext, zone: str) -> bool:
    """Whether enemy units left in ``zone`` after its sea battle keep the assault's cargo
    aboard (``every_ship_blocks_assault``)."""
    if every_ship_blocks_assault(ctx):
        return bool(ctx.board.enemies_at(zone, ctx.power))
    return ctx.board.hostile_zone(zone, ctx.power)


def land_battle_needed(ctx: TurnContext, territory: str) -> bool:
    board = ctx.board
    if not board.is_enemy_territory(territory):
        return False
    attackers = combatants(ctx, [p for p in board.at(territory) if p.owner == ctx.power])
    return bool(attackers) or any(l.target == territory for l in ctx.landings)


def battle_needed(ctx: TurnContext, space: str) -> bool:
    """Whether the combat moves start a battle (or a capture) in ``space``."""
    if ctx.board.map[space].is_sea:
        return sea_battle_needed(ctx, space)
    return land_battle_needed(ctx, space)


# Per-turn mechanic (``TurnContext.mechanic``): defending aircraft that left their territory
# to fight at sea (a scramble) -> the territory they fly back to after every battle.
RETURNING_AIR = "returning_air"


BattleKind = Callable[[TurnContext, list[tuple[str, str]]], list[tuple[str, str]]]
Fight = Callable[[TurnContext, str, "DiceSource | None", "CombatRun"], None]

# Per-turn marks (``Piece.marks``) the battles set: a unit that fought a battle this turn
# (it may not move in noncombat, a ship may not bombard, a transport not unload); a fighter
# that took off from its carrier before a sea battle without fighting in it; an attacker
# that retreated; a land unit that came ashore from a transport in an amphibious assault.
FOUGHT, LAUNCHED, RETREATED, SEABORNE = "fought", "launched", "retreated", "seaborne"
AIRBORNE = "airborne"       # came into its battle by air this turn (paratroopers)
# A submarine that submerged in a battle, until the edition's rules clear it (a persistent
# flag, set by Europe's rule step_six: engine/end_of_turn.py).
SUBMERGED = declare_flag("submerged")

# Battle kinds by the names ``[turn] battle_kinds`` lists: each adds its battles, as
# ``(space, fight)`` pairs, to the order so far; ``FIGHTS`` fights one by its fight name.
BATTLE_KINDS: dict[str, BattleKind] = {}
FIGHTS: dict[str, Fight] = {}


def battle_kind(name: str):
    """Decorator: register a battle kind (a function listing its battles in order)."""
    def wrap(fn: BattleKind) -> BattleKind:
        BATTLE_KINDS[name] = fn
        return fn
    return wrap


def fight_kind(name: str):
    """Decorator: register how a battle listed as ``(space, name)`` is fought."""
    def wrap(fn: Fight) -> Fight:
        FIGHTS[name] = fn
        return fn
    return wrap


# How a battle listed as ``(space, name)`` may cost the attacker units before the battle in
# the same space (kamikaze strikes before a sea battle), for the odds of ``planned_setups``:
# a function ``(ctx, space) -> BattleSetup.before``.
LOSSES_BEFORE: dict[str, Callable] = {}


def losses_before(name: str):
    """Decorator: register the random losses a battle kind's fight costs the attacker
    before the battle in its space (``BattleSetup.before``)."""
    def wrap(fn: Callable) -> Callable:
        LOSSES_BEFORE[name] = fn
        return fn
    return wrap


@attrs.define
class CombatRun:
    """What the battles of one conduct-combat step tell each other: sea zones where a
    battle was fought, and those whose sea battle failed (their cargo stays aboard)."""

    failed_zones: set[str] = attrs.field(factory=set)
    fought_zones: set[str] = attrs.field(factory=set)


def battle_order(ctx: TurnContext) -> list[tuple[str, str]]:
    """[(space, "raid"|"sea"|"land")] in the order they are fought: the edition's battle
    kinds in order (``BATTLE_KINDS``)."""
    order: list[tuple[str, str]] = []
    for kind in ctx.board.rules.plan.battle_kinds:
        order.extend(BATTLE_KINDS[kind](ctx, order))
    return order


@battle_kind("strategic_bombing")
def _raids(ctx: TurnContext, order: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Raids, by the first line naming them."""
    return [(space, "raid") for space in sorted(ctx.raids, key=lambda s: ctx.attack_lines.get(s, 10**9))]


@battle_kind("amphibious")
def _amphibious(ctx: TurnContext, order: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """For each amphibious target, in the order declared, the sea battle of every zone its
    cargo comes from, then its land battle."""
    found: list[tuple[str, str]] = []
    for landing in ctx.landings:
        for feeder in ctx.landings:
            if feeder.target == landing.target and (feeder.zone, "sea") not in order + found:
                found.append((feeder.zone, "sea"))
        if (landing.target, "land") not in order + found:
            found.append((landing.target, "land"))
    return found


@battle_kind("general")
def _general(ctx: TurnContext, order: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Every other battle by the first order line naming it."""
    board = ctx.board
    # a battle needs a unit of the phasing power there (not aboard) or a landing
    here = board.spaces_of(ctx.power)
    here.update(landing.target for landing in ctx.landings)
    rest = []
    for space in board.map.territories:
        if space not in here:
            continue
        k = "sea" if board.map[space].is_sea else "land"
        if (space, k) not in order and battle_needed(ctx, space):
            rest.append((ctx.attack_lines.get(space, 10**9), space, k))
    return [(space, k) for _, space, k in sorted(rest)]


def conduct_combat(ctx: TurnContext, dice: DiceSource | None) -> None:
    """Fight every battle in order (``FIGHTS``), then land defending aircraft whose carrier
    sank."""
    run = CombatRun()
    battles = battle_order(ctx)
    if battles:
        ctx.mode_dependent = True           # fought with dice, or won when checking
    for space, kind in battles:
        FIGHTS[kind](ctx, space, dice, run)
    land_displaced_defenders(ctx)


@fight_kind("raid")
def _fight_raid(ctx: TurnContext, space: str, dice: DiceSource | None, run: CombatRun) -> None:
    for p in fight_raid(ctx, space, dice):
        p.marks.add(FOUGHT)


@fight_kind("sea")
def _fight_sea(ctx: TurnContext, space: str, dice: DiceSource | None, run: CombatRun) -> None:
    if sea_battle_needed(ctx, space):
        run.fought_zones.add(space)
        outcome = fight(ctx, space, dice)
        # Transports that stayed (or a stalemate against subs) may still unload:
        # only enemy surface warships make a zone hostile (1941 §3.4, 1942 [L516]).
        if outcome != "attacker_wins" and unloading_blocked(ctx, space):
            run.failed_zones.add(space)


@fight_kind("land")
def _fight_land(ctx: TurnContext, space: str, dice: DiceSource | None, run: CombatRun) -> None:
    """Cargo goes ashore just before its target's land battle, from every zone whose sea
    battle the attacker won, that had none, or that holds no enemy surface warship after
    it (a stalemate of transports); cargo of a transport that retreated or sank stays
    aboard or is lost.  If a sea part fails, the others still fight the land battle
    (digest §5.3.1 step 3)."""
    landed = 0
    for landing in ctx.landings:
        if landing.target == space and landing.zone not in run.failed_zones:
            landed += go_ashore(ctx, landing)
    if land_battle_needed(ctx, space):
        ships = bombarding_ships(ctx, space, run.fought_zones, landed)
        fight(ctx, space, dice, bombard=ships)


def go_ashore(ctx: TurnContext, landing: Landing) -> int:
    """Cargo whose transport survived the sea battle lands in the target territory.
    Returns how many land units went ashore."""
    board = ctx.board
    n = 0
    for uid in landing.cargo:
        piece = board.pieces.get(uid)
        if piece is None or piece.carried_by is None:
            continue
        transport = board.pieces.get(piece.carried_by)
        if transport is None or RETREATED in transport.marks:
            continue
        piece.carried_by = None
        piece.space = landing.target
        piece.marks.add(SEABORNE)
        piece.came_from = landing.zone
        n += 1
    return n


def bombard_per_land_unit(ctx: TurnContext) -> bool:
    """Whether at most one ship bombards per land unit that went ashore (Spring 1942
    [L434]); option ``bombard_one_per_land_unit``, off in Europe, where every battleship
    and destroyer in the zone fires its support shot [L551]."""
    return bool(ctx.board.rules.option("bombard_one_per_land_unit", True))


def bombarding_ships(ctx: TurnContext, target: str, fought_zones: set[str],
                     landed: int) -> list[Piece]:
    """Ships that bombard ``target`` (Spring 1942 §5.3.2 step 2): the phasing power's
    ``bombard`` units in the zones its assault unloaded from, where no sea battle was
    fought, that have not fought or bombarded this turn; at most one per land unit that
    went ashore (``bombard_per_land_unit``).  A ``bombard`` order names which; without one
    every eligible ship does (strongest first)."""
    board = ctx.board
    zones = {l.zone for l in ctx.landings if l.target == target} - fought_zones
    eligible = [p for z in sorted(zones) for p in board.at(z)
                if p.owner == ctx.power and board.utype(p).has("bombard")
                and FOUGHT not in p.marks and p.uid not in ctx.bombarded]
    eligible.sort(key=lambda p: (-board.utype(p).param("bombard", "value", 0), p.uid))
    named = _named_bombarders(ctx, target)
    if named:
        chosen: list[Piece] = []
        for unit_type, count in named.items():
            chosen += [p for p in eligible if p.type == unit_type][:count]
        eligible = chosen                      # in the order named: the first ones fire
    ships = eligible[:landed] if bombard_per_land_unit(ctx) else eligible
    ctx.bombarded.update(p.uid for p in ships)
    return ships


def _named_bombarders(ctx: TurnContext, target: str) -> dict[str, int]:
    """{ship type: count} that the ``bombard`` lines naming ``target`` ask for, added up
    over every such line; empty when none names ships (every eligible ship bombards)."""
    named: dict[str, int] = {}
    for order in ctx.orders.bombards:
        if order.target == target:
            for g in order.units:
                named[g.type] = named.get(g.type, 0) + g.count
    return named


def check_bombard_orders(ctx: TurnContext) -> None:
    """A ``bombard`` order must name an amphibious assault and ships that can bombard it.
    Several lines naming one target add up (the ships they name, the one-ship-per-land-unit
    limit)."""
    board = ctx.board
    named: dict[tuple[str, str], int] = {}     # (target, ship type) -> named so far
    total: dict[str, int] = {}                  # target -> ships named so far
    for order in ctx.orders.bombards:
        zones = {l.zone for l in ctx.landings if l.target == order.target}
        if not zones:
            ctx.error(order.line, "bombard_no_assault", space=order.target)
            continue
        for g in order.units:
            if not board.rules.units[g.type].has("bombard"):
                ctx.error(order.line, "bombard_not_able", unit=g.type)
                continue
            key = (order.target, g.type)
            named[key] = named.get(key, 0) + g.count
            have = sum(1 for z in zones for p in board.at(z)
                       if p.owner == ctx.power and p.type == g.type)
            if have < named[key]:
                ctx.error(order.line, "bombard_ships_missing", unit=g.type, count=named[key],
                          space=order.target, found=have)
        before = total.get(order.target, 0)
        total[order.target] = before + sum(g.count for g in order.units)
        going_ashore = sum(len(l.cargo) for l in ctx.landings if l.target == order.target)
        if total[order.target] > going_ashore >= before and bombard_per_land_unit(ctx):
            ctx.warn(order.line, "bombard_more_than_landing", count=total[order.target],
                     space=order.target, landing=going_ashore)


# -- one battle -------------------------------------------------------------------------------

def _cargo_units(ctx: TurnContext, piece: Piece, fighting: set[int]) -> tuple[Unit, ...]:
    return tuple(Unit(c.type, c.owner) for c in ctx.board.cargo_of(piece) if c.uid not in fighting)


def participants(ctx: TurnContext, space: str) -> tuple[list[Piece], list[Piece]]:
    board = ctx.board
    is_sea = board.map[space].is_sea
    attackers = [p for p in board.at(space) if p.owner == ctx.power and LAUNCHED not in p.marks]
    if is_sea:
        attackers = [p for p in attackers if board.utype(p).domain != Domain.LAND]
    # Defending fighters aboard carriers fight as air units (digest §4.10).
    defenders = [p for p in board.at(space, include_cargo=True)
                 if board.enemy_of(ctx.power, p.owner)
                 and (p.carried_by is None or (board.utype(p).domain == Domain.AIR
                                               and not grounded(ctx, p)))]
    return combatants(ctx, attackers), combatants(ctx, defenders)


def grounded(ctx: TurnContext, piece: Piece) -> bool:
    """An aircraft aboard a damaged carrier: cargo that neither launches nor fights (Global
    1940 [L1540-L1560]; a carrier's damage outlasts a battle only there)."""
    carrier = ctx.board.pieces.get(piece.carried_by) if piece.carried_by is not None else None
    return carrier is not None and bool(carrier.damage)


def anti_aircraft(ctx: TurnContext, space: str) -> list[Piece]:
    """Enemy units in a territory that fire at attacking aircraft (``aa_fire``)."""
    board = ctx.board
    if board.map[space].is_sea:
        return []
    return [p for p in board.at(space) if board.enemy_of(ctx.power, p.owner)
            and board.utype(p).has("aa_fire")]


def land_units_held(ctx: TurnContext, attackers: list[Piece]) -> bool:
    """Whether no attacking land unit may retreat from this land battle: an amphibious
    assault (some attacker came ashore) in an edition whose option
    ``amphibious_overland_retreat`` is off (Europe [L541, L561]: "no land unit may
    retreat, including those that came overland"; aircraft still may).  On by default
    (1941, 1942: units that came overland retreat, sea-borne ones never)."""
    return (not ctx.board.rules.option("amphibious_overland_retreat", True)
            and any(SEABORNE in p.marks for p in attackers))


def partial_retreat_allowed(ctx: TurnContext, unit_types) -> bool:
    """Whether a retreat may take only the units of ``unit_types`` and leave the others
    fighting: option ``partial_retreat`` -- "none" (default: 1941, 1942, where all attacking
    units retreat together) or "aircraft" (Europe [L541, L561], ruling §8 #7: aircraft may
    leave any land battle while the other units fight on)."""
    allowed = ctx.board.rules.option("partial_retreat", "none")
    units = ctx.board.rules.units
    return allowed == "aircraft" and all(units[t].domain == Domain.AIR for t in unit_types)


def retreating_units(ctx: TurnContext, space: str, attackers: list[Piece]) -> set[int] | None:
    """The attackers the battle order's per-unit retreat names ("retreat ftr to UK ..."), by
    uid, the first of each type by uid; None when the retreat is the whole battle's."""
    directive = ctx.orders.directive_for(space)
    if directive is None or not directive.retreat_units or not partial_retreat_allowed(
            ctx, {g.type for g in directive.retreat_units}):
        return None         # (a refused per-unit retreat is an error of the check)
    chosen: set[int] = set()
    for group in directive.retreat_units:
        of_type = [p.uid for p in sorted(attackers, key=lambda p: p.uid)
                   if p.type == group.type and p.uid not in chosen]
        chosen.update(of_type if group.count == ALL else of_type[:group.count])
    return chosen


def retreat_options(ctx: TurnContext, space: str, attackers: list[Piece]) -> tuple[str, ...]:
    """Where the attacker may retreat (digest §5.3.2 condition B, §5.3.1 step 5): an
    adjacent space an attacking land or sea unit came from -- friendly now for land units,
    friendly at the start of the turn for ships; sea-borne units never retreat (nor, with
    ``land_units_held``, any land unit of an amphibious assault).  Aircraft retreat where
    they are and land in noncombat, so an attack with aircraft always has ``space`` itself
    as a last option."""
    board = ctx.board
    if board.map[space].is_sea:
        found = {p.came_from for p in attackers
                 if board.utype(p).domain == Domain.SEA and p.came_from
                 and p.came_from != space and _may_retreat_to_zone(ctx, p.came_from)}
    elif land_units_held(ctx, attackers):
        found = set()
    else:
        found = {p.came_from for p in attackers
                 if board.utype(p).domain == Domain.LAND and SEABORNE not in p.marks and p.came_from
                 and board.is_friendly_territory(p.came_from)}
    if not found and any(board.utype(p).domain == Domain.AIR for p in attackers):
        found = {space}
    return tuple(sorted(found))


def _may_retreat_to_zone(ctx: TurnContext, zone: str) -> bool:
    """Whether ships may retreat into ``zone`` (one an attacking ship came from).  Option
    ``sea_retreat_friendly_at_start`` (default, 1941 and 1942): the zone held no enemy
    surface warship at the start of the turn.  Off (Europe [L473-L477], ruling §8 #6):
    no start condition, but the zone's only enemies now may be submarines that submerged
    (flag ``submerged``)."""
    if ctx.board.rules.option("sea_retreat_friendly_at_start", True):
        return zone not in ctx.hostile_at_start
    return all(SUBMERGED in p.flags for p in ctx.board.enemies_at(zone, ctx.power))


def partial_retreat_options(ctx: TurnContext, space: str, attackers: list[Piece],
                            leaving: set[int]) -> tuple[str, ...]:
    """Where a per-unit retreat may go: aircraft alone stay in ``space`` and fly to the
    order's landing space (or land in the noncombat move); other units as for a whole
    retreat."""
    board = ctx.board
    moving = [p for p in attackers if p.uid in leaving]
    if moving and all(board.utype(p).domain == Domain.AIR for p in moving):
        return (space,)
    return retreat_options(ctx, space, moving)


def defender_orders(ctx: TurnContext, space: str, defenders: list[Piece]):
    """The standing defence order that applies: the space owner's first, then each
    defending power's in turn order (multinational defence, digest §5.3.5)."""
    board = ctx.board
    owner = board.owners.get(space)
    powers = ([owner] if owner else []) + [p for p in board.rules.turn_order
                                            if any(d.owner == p for d in defenders)]
    for power in powers:
        standing = ctx.standing_orders.get(power)
        order = standing.for_space(space) if standing is not None else None
        if order is not None:
            return order
    return None


def _battle_unit(ctx: TurnContext, p: Piece, fighting: set[int], seaborne: bool = False,
                 origin: str | None = None) -> BattleUnit:
    ut = ctx.board.utype(p)
    return BattleUnit(p.uid, ut, p.owner, _cargo_units(ctx, p, fighting), seaborne, origin,
                      damaged=bool(p.damage) and keeps_damage(ut), airborne=AIRBORNE in p.marks)


def keeps_damage(unit_type) -> bool:
    """Whether a ``two_hits`` unit's first hit outlasts its battle (``repair`` other than
    "end_of_battle": Global 1940's capital ships, repaired at a naval base); its
    ``Unit.damage`` is then 1 while damaged."""
    return unit_type.has("two_hits") and \
        unit_type.param("two_hits", "repair", "end_of_battle") != "end_of_battle"


def casualty_pools(ctx: TurnContext, space: str, fighting: list[Piece]
                   ) -> tuple[tuple[BattleUnit, ...], tuple[BattleUnit, ...]]:
    """Per side, the units not in the battle that the side may choose as casualties (the
    edition rules' ``casualty_pool`` hook), as casualty-only battle units."""
    pools: tuple[list[BattleUnit], list[BattleUnit]] = ([], [])
    seen = {p.uid for p in fighting}
    for rule in rules_with(ctx.board.rules, "casualty_pool"):
        for i, side in enumerate(("attacker", "defender")):
            for piece, classes in rule.casualty_pool(ctx, space, side, fighting):
                if piece.uid not in seen:
                    seen.add(piece.uid)
                    unit = _battle_unit(ctx, piece, set())
                    pools[i].append(attrs.evolve(unit, casualty_only=classes))
    return tuple(pools[0]), tuple(pools[1])


def battle_setup(ctx: TurnContext, space: str, attackers: list[Piece], defenders: list[Piece],
                 bombard: list[Piece] = ()) -> BattleSetup:
    """The combat engine's view of the battle in ``space``, with both sides' instructions."""
    board = ctx.board
    fighting = {p.uid for p in defenders}
    directive = ctx.orders.directive_for(space)
    defence = defender_orders(ctx, space, defenders)
    held = land_units_held(ctx, attackers)
    leaving = retreating_units(ctx, space, attackers)
    pools = casualty_pools(ctx, space, attackers + defenders)

    def stays(p: Piece) -> bool:
        """Never retreats: came ashore, held in an assault, or not named by a per-unit retreat."""
        return SEABORNE in p.marks or (held and board.utype(p).domain == Domain.LAND) \
            or (leaving is not None and p.uid not in leaving)
    return BattleSetup(
        battle_id=space, space=space, is_sea=board.map[space].is_sea, attacker=ctx.power,
        attackers=tuple(_battle_unit(ctx, p, set(), stays(p), p.came_from)
                        for p in attackers) + pools[0],
        defenders=tuple(_battle_unit(ctx, p, fighting) for p in defenders) + pools[1],
        attacker_loss_order=directive.loss_order if directive else (),
        defender_loss_order=defence.loss_order if defence else (),
        retreat=directive.retreat if directive else (),
        retreat_options=retreat_options(ctx, space, attackers) if leaving is None
        else partial_retreat_options(ctx, space, attackers, leaving),
        attacker_subs=directive.subs if directive else None,
        defender_submerge=(defence.submerge if defence and defence.submerge else SubmergePolicy.LOSING),
        stages=board.rules.plan.battle_stages,
        support=(tuple(_battle_unit(ctx, p, set()) for p in bombard),
                 tuple(_battle_unit(ctx, p, set()) for p in anti_aircraft(ctx, space))),
        unit_types=board.rules.units,
        low_luck=bool(board.rules.option("low_luck", False)),
        defender_default=board.rules.option("default_losses", "cheapest"),
    )


def launch_carried_fighters(ctx: TurnContext, zone: str) -> None:
    """The attacker's own fighters riding on its carriers take off before a sea battle:
    they do not fight, and they survive the carrier to land in noncombat (digest §4.6,
    [L695]).  Allied fighters aboard stay cargo and go down with the carrier."""
    board = ctx.board
    for carrier in board.at(zone):
        if carrier.owner == ctx.power and board.utype(carrier).has("carries_air") \
                and not carrier.damage:
            for piece in board.cargo_of(carrier):
                if piece.owner == ctx.power and board.utype(piece).domain == Domain.AIR:
                    piece.carried_by = None
                    piece.marks.add(LAUNCHED)


RETREAT_LANDINGS = "retreat_landings"   # per-turn mechanic: aircraft uid -> where it retreats


def retreat_landing(ctx: TurnContext, space: str) -> str | None:
    """Where the aircraft of a per-unit retreat from ``space`` fly to land ("retreat ftr to
    United Kingdom"), unless a noncombat order moves them (``aircraft.land_aircraft``)."""
    directive = ctx.orders.directive_for(space)
    if directive is None or not directive.retreat_units:
        return None
    return next((c.destination for c in directive.retreat if c.destination), None)


def can_capture(ctx: TurnContext, pieces: list[Piece]) -> bool:
    """Only land units that may capture take territory (digest §4.3, §5.3.2 step 7)."""
    board = ctx.board
    return any(p.uid in board.pieces and board.utype(p).domain == Domain.LAND
               and not board.utype(p).has("cannot_capture") for p in pieces)


def fight(ctx: TurnContext, space: str, dice: DiceSource | None,
          bombard: list[Piece] = ()) -> str:
    """Fight the battle in ``space`` (or take it unopposed); then the ``after_battle``
    trigger (edition rules, ``engine.turn_rules``) runs with the outcome."""
    outcome = _fight(ctx, space, dice, bombard)
    for rule in rules_with(ctx.board.rules, "after_battle"):
        rule.after_battle(ctx, space, outcome)
    return outcome


def _fight(ctx: TurnContext, space: str, dice: DiceSource | None,
           bombard: list[Piece] = ()) -> str:
    board = ctx.board
    is_sea = board.map[space].is_sea
    if is_sea:
        launch_carried_fighters(ctx, space)
    attackers, defenders = participants(ctx, space)
    if not attackers:            # e.g. a landing whose sea part failed, with no one else
        return "defender_wins"
    guns = anti_aircraft(ctx, space)
    air_attack = any(board.utype(p).domain == Domain.AIR for p in attackers)
    if not defenders and not (guns and air_attack):
        if not is_sea and can_capture(ctx, attackers):
            take_territory(ctx, space)
        return "attacker_wins"
    defending_powers = tuple(p for p in board.rules.turn_order
                             if any(d.owner == p for d in defenders + guns))
    ctx.emit(BattleStarted(space, space, "sea" if is_sea else "land", ctx.power, defending_powers,
                           count_types(attackers), count_types(defenders)))
    for p in attackers + defenders + list(bombard):
        p.marks.add(FOUGHT)
    if ctx.checking or dice is None:
        survivors_a = {p.uid for p in attackers}
        survivors_d: set[int] = set()
        outcome, retreated_to, events, retreated = "attacker_wins", None, [], set()
        killed: set[int] = set()
    else:
        result = resolve_battle(battle_setup(ctx, space, attackers, defenders, list(bombard)), dice)
        survivors_a = {u.uid for u in result.attackers}
        survivors_d = {u.uid for u in result.defenders}
        outcome, retreated_to, events = result.outcome, result.retreated_to, list(result.events)
        retreated = set(result.retreated)
        killed = set(result.killed)
        for p in attackers + defenders:
            if p.uid in result.damaged and keeps_damage(board.utype(p)):
                p.damage = 1
    # Detach surviving fighters from defending carriers that sank, then remove the dead.
    for p in defenders:
        if p.uid in survivors_d and p.carried_by is not None:
            carrier = board.pieces.get(p.carried_by)
            if carrier is None or carrier.uid not in survivors_d:
                p.carried_by = None
    alive = survivors_a | survivors_d
    for p in attackers + defenders:
        if p.uid not in alive and p.uid in board.pieces:
            board.remove(p)
    for uid in killed:            # units not in the battle taken as casualties (casualty_pool)
        if uid in board.pieces:
            board.remove(board.pieces[uid])
    landing = retreat_landing(ctx, space)
    for p in attackers:
        if p.uid in retreated and p.uid in board.pieces:
            p.marks.add(RETREATED)
            if board.utype(p).domain != Domain.AIR:   # aircraft stay and land in noncombat
                p.space = retreated_to
                for c in board.cargo_of(p):
                    c.space = retreated_to
            elif landing is not None:
                ctx.mechanic(RETREAT_LANDINGS)[p.uid] = landing
    captured = not is_sea and outcome == "attacker_wins" and can_capture(ctx, attackers)
    for event in events:
        if isinstance(event, BattleEnded) and captured:
            event = BattleEnded(event.battle, event.space, event.outcome, event.rounds,
                                event.attacker_lost, event.defender_lost,
                                event.attacker_tuv_lost, event.defender_tuv_lost,
                                event.tuv_swing, True)
        ctx.emit(event)
    if captured:
        take_territory(ctx, space)
    return outcome


# -- defending aircraft left without a deck ----------------------------------------------------

def _may_land(ctx: TurnContext, piece: Piece, zone: str, land: str) -> bool:
    """No ``may_enter`` hook of the edition refuses ``piece`` flying from ``zone`` into
    ``land`` (Global 1940: aircraft never land in a neutral's land, even a friendly one)."""
    board = ctx.board
    ut = board.utype(piece)
    if not any_hook(board.rules, ut, "may_enter"):
        return True
    return not any(rule.may_enter(ctx, piece, land, (zone, land), "noncombat")
                   for rule, _ in hooked(board.rules, (ut,), "may_enter"))


def land_displaced_defenders(ctx: TurnContext) -> None:
    """Defending fighters whose carrier sank: another carrier with room in the same zone,
    else one move to a friendly territory or carrier -- first the spaces their owner's
    standing order names (``defend SZ 5: land SZ 6, Western Europe``), in that order, then
    the others --, else lost (digest §4.6, §5.4).  Aircraft that scrambled there first fly
    back to their territory if their side still holds it (``RETURNING_AIR``).  Done after
    all battles and before the attacker's noncombat move."""
    board = ctx.board
    air = board.types_of_domain(Domain.AIR)
    home = ctx.mechanic(RETURNING_AIR, dict)
    # (what is tested of a piece only changes in its own iteration: filtered up front)
    for piece in sorted([p for p in board.pieces.values()
                         if p.type in air and p.owner != ctx.power and p.carried_by is None
                         and not board.map[p.space].is_land], key=lambda p: p.uid):
        zone = piece.space
        back = home.get(piece.uid)
        if back is not None and board.allied(piece.owner, board.owners.get(back)):
            piece.space = back
            ctx.emit(Landed(piece.owner, {piece.type: 1}, (zone, back), "scrambled"))
            continue
        deck = find_deck(ctx, piece, zone)
        if deck is not None:
            piece.carried_by = deck.uid
            continue
        fly_one_space(ctx, piece, zone, _landing_choices(ctx, piece, zone), "carrier_sunk",
                      "scramble_home_lost" if back is not None else "carrier_sunk")


def fly_one_space(ctx: TurnContext, piece: Piece, start: str, choices: list[str],
                  landed: str, lost: str) -> None:
    """An aircraft that lost its landing place makes one move from ``start``: to the first
    of ``choices`` that is friendly land it may enter or a sea zone with an allied deck for
    it (event ``Landed``, reason ``landed``); with none, it is lost (``AircraftLost``,
    reason ``lost``)."""
    board = ctx.board
    for n in choices:
        t = board.map[n]
        if t.is_land and not t.impassable and board.allied(piece.owner, board.owners.get(n)) \
                and _may_land(ctx, piece, start, n):
            piece.space = n
            break
        deck = find_deck(ctx, piece, n) if t.is_sea else None
        if deck is not None:
            piece.space = n
            piece.carried_by = deck.uid
            break
    else:
        board.remove(piece)
        ctx.emit(AircraftLost(piece.owner, start, {piece.type: 1}, lost))
        return
    ctx.emit(Landed(piece.owner, {piece.type: 1}, (start, piece.space), landed))


def _landing_choices(ctx: TurnContext, piece: Piece, zone: str) -> list[str]:
    """Where a fighter whose carrier sank in ``zone`` may fly, in the order it tries them:
    the spaces its owner's standing order for ``zone`` names (those next to it), then every
    other neighbour in name order."""
    neighbours = sorted(ctx.board.map.neighbours(zone))
    standing = ctx.standing_orders.get(piece.owner)
    order = standing.for_space(zone) if standing is not None else None
    named = [s for s in (order.landing if order else ()) if s in neighbours]
    return named + [n for n in neighbours if n not in named]


def find_deck(ctx: TurnContext, piece: Piece, zone: str) -> Piece | None:
    board = ctx.board
    if not board.utype(piece).has("carrier_based"):
        return None
    decks = [c for c in board.at(zone) if board.utype(c).has("carries_air")
             and may_ride(ctx, c, piece.owner) and board.can_carry(c, piece)]
    decks.sort(key=lambda c: (c.owner != piece.owner, c.uid))
    return decks[0] if decks else None


def planned_setups(ctx: TurnContext) -> list[BattleSetup]:
    """The battles the combat moves would start, as the combat engine would see them if
    each were fought first (amphibious cargo counted as landed, every eligible ship
    bombarding).  For odds in ``check``: only sea and land battles (a raid is not a battle
    of the combat engine); the random losses a kamikaze strike may cause before a sea
    battle are its ``before`` (``LOSSES_BEFORE``)."""
    setups = []
    board = ctx.board
    order = battle_order(ctx)
    before = {space: LOSSES_BEFORE[kind](ctx, space) for space, kind in order
              if kind in LOSSES_BEFORE}
    for space, kind in order:
        if kind not in ("sea", "land"):
            continue
        attackers, defenders = participants(ctx, space)
        bombard: list[Piece] = []
        if kind == "land":
            landed = 0
            for landing in ctx.landings:
                if landing.target == space:
                    cargo = [board.pieces[uid] for uid in landing.cargo if uid in board.pieces]
                    for piece in cargo:
                        piece.marks.add(SEABORNE)
                    attackers = attackers + cargo
                    landed += len(cargo)
            sea_fights = {z for z, k in battle_order(ctx) if k == "sea"}
            bombard = bombarding_ships(ctx, space, sea_fights, landed)
        guns = anti_aircraft(ctx, space)
        if attackers and (defenders or guns):
            setup = battle_setup(ctx, space, attackers, defenders, bombard)
            if before.get(space):
                setup = attrs.evolve(setup, before=before[space])
            setups.append(setup)
    return setups
