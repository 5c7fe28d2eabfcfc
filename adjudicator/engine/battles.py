"""Conduct combat: find the battles the combat moves started, fight them in order
(amphibious assaults first), and apply the results to the working board (digest §5.3).

In check mode battles are settled optimistically (every attacking die hits, every
defending die misses), which is also the rulebook's test for a landing plan."""

from __future__ import annotations

import attrs

from .capture import take_territory
from .context import Landing, TurnContext
from ..model.dice import DiceSource
from ..model.events import AircraftLost, BattleEnded, BattleStarted, Landed
from ..model.orders import SubmergePolicy
from ..model.rules import Ability, Domain
from ..model.state import Unit
from .working import Piece, count_types


def start_hostile_zones(ctx: TurnContext) -> frozenset[str]:
    """Sea zones holding enemy surface warships (call before any move of the turn)."""
    board = ctx.board
    return frozenset(z.key for z in board.map.seas() if board.hostile_zone(z.key))


def sea_battle_needed(ctx: TurnContext, zone: str) -> bool:
    """Whether the phasing power fights in ``zone`` (digest §5.2, §5.3.1 step 1, §6.5-6.6).

    Always where enemy surface warships make the zone hostile, or where a ``battle`` line
    names it.  Where only enemy subs and transports are: lone transports are destroyed
    automatically by any unit that ended its combat move there; otherwise a unit that ended
    its combat move there attacks, except an amphibious assault's ships (which may ignore
    subs) and ships that only left a hostile zone to avoid a battle (case 3).
    """
    board = ctx.board
    mine = [p for p in board.at(zone) if p.owner == ctx.power]
    enemies = board.enemies_at(zone)
    if not mine or not enemies:
        return False
    if board.hostile_zone(zone) or ctx.orders.directive_for(zone) is not None:
        return True
    movers = [p for p in mine if "combat" in p.moved_in
              and not board.utype(p).has(Ability.CARRIES_LAND)]
    if not movers:
        return False
    if all(board.utype(e).has(Ability.DEFENCELESS) for e in enemies):
        return True
    if any(landing.zone == zone for landing in ctx.landings):
        return False
    return any(p.start_space not in ctx.hostile_at_start for p in movers)


def land_battle_needed(ctx: TurnContext, territory: str) -> bool:
    board = ctx.board
    if not board.is_enemy_territory(territory):
        return False
    attackers = [p for p in board.at(territory) if p.owner == ctx.power]
    return bool(attackers) or any(l.target == territory for l in ctx.landings)


def battle_needed(ctx: TurnContext, space: str) -> bool:
    """Whether the combat moves start a battle (or a capture) in ``space``."""
    if ctx.board.map[space].is_sea:
        return sea_battle_needed(ctx, space)
    return land_battle_needed(ctx, space)


def battle_order(ctx: TurnContext) -> list[tuple[str, str]]:
    """[(space, "sea"|"land")] in the order they are fought (digest §5.3): for each
    amphibious target, in the order declared, the sea battle of every zone its cargo comes
    from, then its land battle; then every other battle by the first order line naming it."""
    board = ctx.board
    order: list[tuple[str, str]] = []
    for landing in ctx.landings:
        for feeder in ctx.landings:
            if feeder.target == landing.target and (feeder.zone, "sea") not in order:
                order.append((feeder.zone, "sea"))
        if (landing.target, "land") not in order:
            order.append((landing.target, "land"))
    rest = []
    for space in board.map.territories:
        kind = "sea" if board.map[space].is_sea else "land"
        if (space, kind) not in order and battle_needed(ctx, space):
            rest.append((ctx.attack_lines.get(space, 10**9), space, kind))
    order.extend((space, kind) for _, space, kind in sorted(rest))
    return order


def conduct_combat(ctx: TurnContext, dice: DiceSource | None) -> None:
    """Fight every battle in order.  Cargo goes ashore just before its target's land
    battle, from every zone whose sea battle the attacker won (or that had none); if a sea
    part fails, the others still fight the land battle (digest §5.3.1 step 3)."""
    failed_zones: set[str] = set()
    for space, kind in battle_order(ctx):
        if kind == "sea":
            if sea_battle_needed(ctx, space) and fight(ctx, space, dice) != "attacker_wins":
                failed_zones.add(space)
            continue
        for landing in ctx.landings:
            if landing.target == space and landing.zone not in failed_zones:
                go_ashore(ctx, landing)
        if land_battle_needed(ctx, space):
            fight(ctx, space, dice)
    land_displaced_defenders(ctx)


def go_ashore(ctx: TurnContext, landing: Landing) -> None:
    """Cargo whose transport survived the sea battle lands in the target territory."""
    board = ctx.board
    for uid in landing.cargo:
        piece = board.pieces.get(uid)
        if piece is None or piece.carried_by is None:
            continue
        transport = board.pieces.get(piece.carried_by)
        if transport is None or transport.retreated:
            continue
        piece.carried_by = None
        piece.space = landing.target
        piece.seaborne = True
        piece.came_from = landing.zone


# -- one battle -------------------------------------------------------------------------------

def _cargo_units(ctx: TurnContext, piece: Piece, fighting: set[int]) -> tuple[Unit, ...]:
    return tuple(Unit(c.type, c.owner) for c in ctx.board.cargo_of(piece) if c.uid not in fighting)


def participants(ctx: TurnContext, space: str) -> tuple[list[Piece], list[Piece]]:
    board = ctx.board
    is_sea = board.map[space].is_sea
    attackers = [p for p in board.at(space) if p.owner == ctx.power and not p.launched]
    if is_sea:
        attackers = [p for p in attackers if board.utype(p).domain != Domain.LAND]
    # Defending fighters aboard carriers fight as air units (digest §4.10).
    defenders = [p for p in board.at(space, include_cargo=True)
                 if board.enemy_of(ctx.power, p.owner)
                 and (p.carried_by is None or board.utype(p).domain == Domain.AIR)]
    return attackers, defenders


def retreat_options(ctx: TurnContext, space: str, attackers: list[Piece]) -> tuple[str, ...]:
    """Where the attacker may retreat (digest §5.3.2 condition B, §5.3.1 step 5): an
    adjacent space an attacking land or sea unit came from -- friendly now for land units,
    friendly at the start of the turn for ships; sea-borne units never retreat.  Aircraft
    retreat where they are and land in noncombat, so an attack with aircraft always has
    ``space`` itself as a last option."""
    board = ctx.board
    if board.map[space].is_sea:
        found = {p.came_from for p in attackers
                 if board.utype(p).domain == Domain.SEA and p.came_from
                 and p.came_from != space and p.came_from not in ctx.hostile_at_start}
    else:
        found = {p.came_from for p in attackers
                 if board.utype(p).domain == Domain.LAND and not p.seaborne and p.came_from
                 and board.is_friendly_territory(p.came_from)}
    if not found and any(board.utype(p).domain == Domain.AIR for p in attackers):
        found = {space}
    return tuple(sorted(found))


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


def battle_setup(ctx: TurnContext, space: str, attackers: list[Piece], defenders: list[Piece]):
    """The combat engine's view of the battle in ``space``, with both sides' instructions."""
    from .combat import BattleSetup, BattleUnit
    board = ctx.board
    fighting = {p.uid for p in defenders}
    directive = ctx.orders.directive_for(space)
    defence = defender_orders(ctx, space, defenders)
    return BattleSetup(
        battle_id=space, space=space, is_sea=board.map[space].is_sea, attacker=ctx.power,
        attackers=tuple(BattleUnit(p.uid, board.utype(p), p.owner, _cargo_units(ctx, p, set()),
                                   p.seaborne, p.came_from) for p in attackers),
        defenders=tuple(BattleUnit(p.uid, board.utype(p), p.owner, _cargo_units(ctx, p, fighting),
                                   False, None) for p in defenders),
        attacker_loss_order=directive.loss_order if directive else (),
        defender_loss_order=defence.loss_order if defence else (),
        retreat=directive.retreat if directive else (),
        retreat_options=retreat_options(ctx, space, attackers),
        attacker_subs=directive.subs if directive else None,
        defender_submerge=(defence.submerge if defence and defence.submerge else SubmergePolicy.LOSING),
        unit_types=board.rules.units,
    )


def roll_battle(ctx: TurnContext, space: str, attackers: list[Piece], defenders: list[Piece],
                dice: DiceSource):
    from .combat import resolve_battle
    setup = battle_setup(ctx, space, attackers, defenders)
    return resolve_battle(setup, dice, names=power_names(ctx))


def launch_carried_fighters(ctx: TurnContext, zone: str) -> None:
    """The attacker's own fighters riding on its carriers take off before a sea battle:
    they do not fight, and they survive the carrier to land in noncombat (digest §4.6,
    [L695]).  Allied fighters aboard stay cargo and go down with the carrier."""
    board = ctx.board
    for carrier in board.at(zone):
        if carrier.owner == ctx.power and board.utype(carrier).has(Ability.CARRIES_AIR):
            for piece in board.cargo_of(carrier):
                if piece.owner == ctx.power and board.utype(piece).domain == Domain.AIR:
                    piece.carried_by = None
                    piece.launched = True


def can_capture(ctx: TurnContext, pieces: list[Piece]) -> bool:
    """Only land units that may capture take territory (digest §4.3, §5.3.2 step 7)."""
    board = ctx.board
    return any(p.uid in board.pieces and board.utype(p).domain == Domain.LAND
               and not board.utype(p).has(Ability.CANNOT_CAPTURE) for p in pieces)


def fight(ctx: TurnContext, space: str, dice: DiceSource | None) -> str:
    board = ctx.board
    is_sea = board.map[space].is_sea
    if is_sea:
        launch_carried_fighters(ctx, space)
    attackers, defenders = participants(ctx, space)
    if not attackers:            # e.g. a landing whose sea part failed, with no one else
        return "defender_wins"
    if not defenders:
        if not is_sea and can_capture(ctx, attackers):
            take_territory(ctx, space)
        return "attacker_wins"
    defending_powers = tuple(p for p in board.rules.turn_order if any(d.owner == p for d in defenders))
    ctx.emit(BattleStarted(space, space, "sea" if is_sea else "land", ctx.power, defending_powers,
                           count_types(attackers), count_types(defenders)))
    for p in attackers + defenders:
        p.fought = True
    if ctx.checking or dice is None:
        survivors_a = {p.uid for p in attackers}
        survivors_d: set[int] = set()
        outcome, retreated_to, events, retreated = "attacker_wins", None, [], set()
    else:
        result = roll_battle(ctx, space, attackers, defenders, dice)
        survivors_a = {u.uid for u in result.attackers}
        survivors_d = {u.uid for u in result.defenders}
        outcome, retreated_to, events = result.outcome, result.retreated_to, list(result.events)
        retreated = set(result.retreated)
    # Detach surviving fighters from defending carriers that sank, then remove the dead.
    for p in defenders:
        if p.uid in survivors_d and p.carried_by is not None:
            carrier = board.pieces.get(p.carried_by)
            if carrier is None or carrier.uid not in survivors_d:
                p.carried_by = None
    for p in attackers + defenders:
        if p.uid not in survivors_a | survivors_d and p.uid in board.pieces:
            board.remove(p)
    for p in attackers:
        if p.uid in retreated and p.uid in board.pieces:
            p.retreated = True
            if board.utype(p).domain != Domain.AIR:   # aircraft stay and land in noncombat
                p.space = retreated_to
                for c in board.cargo_of(p):
                    c.space = retreated_to
    captured = not is_sea and outcome == "attacker_wins" and can_capture(ctx, attackers)
    for event in events:
        if isinstance(event, BattleEnded) and captured:
            event = attrs.evolve(event, summary=capture_summary(ctx, event, space))
        ctx.emit(event)
    if captured:
        take_territory(ctx, space)
    return outcome


def capture_summary(ctx: TurnContext, ended: BattleEnded, space: str) -> str:
    """TripleA's one-liner: "Germany wins, taking Karelia; TUV swing 9"."""
    rounds = f"{ended.rounds} round{'s' if ended.rounds != 1 else ''}"
    return f"{ctx.name(ctx.power)} wins, taking {space} after {rounds}; TUV swing {ended.tuv_swing:+d}"


def power_names(ctx: TurnContext) -> dict[str, str]:
    return {k: p.name for k, p in ctx.game.ruleset.powers.items()}


# -- defending aircraft left without a deck ----------------------------------------------------

def land_displaced_defenders(ctx: TurnContext) -> None:
    """Defending fighters whose carrier sank: another carrier with room in the same zone,
    else one move to a friendly territory or carrier, else lost (digest §4.6, §5.4).
    Done after all battles and before the attacker's noncombat move."""
    board = ctx.board
    for piece in sorted(board.pieces.values(), key=lambda p: p.uid):
        if (piece.owner == ctx.power or piece.carried_by is not None
                or board.utype(piece).domain != Domain.AIR or board.map[piece.space].is_land):
            continue
        zone = piece.space
        deck = find_deck(ctx, piece, zone)
        if deck is not None:
            piece.carried_by = deck.uid
            continue
        for n in sorted(board.map.neighbours(zone)):
            t = board.map[n]
            if t.is_land and not t.impassable and board.allied(piece.owner, board.owners.get(n)):
                piece.space = n
                ctx.emit(Landed(piece.owner, {piece.type: 1}, (zone, n), "carrier sunk"))
                break
            if t.is_sea:
                deck = find_deck(ctx, piece, n)
                if deck is not None:
                    piece.space = n
                    piece.carried_by = deck.uid
                    ctx.emit(Landed(piece.owner, {piece.type: 1}, (zone, n), "carrier sunk"))
                    break
        else:
            board.remove(piece)
            ctx.emit(AircraftLost(piece.owner, zone, {piece.type: 1}, "carrier sunk, nowhere to land"))


def find_deck(ctx: TurnContext, piece: Piece, zone: str) -> Piece | None:
    board = ctx.board
    if not board.utype(piece).has(Ability.CARRIER_BASED):
        return None
    decks = [c for c in board.at(zone) if board.utype(c).has(Ability.CARRIES_AIR)
             and board.allied(c.owner, piece.owner) and board.can_carry(c, piece)]
    decks.sort(key=lambda c: (c.owner != piece.owner, c.uid))
    return decks[0] if decks else None



def planned_setups(ctx: TurnContext) -> list:
    """The battles the combat moves would start, as the combat engine would see them if
    each were fought first (amphibious cargo counted as landed).  For odds in ``check``."""
    setups = []
    board = ctx.board
    for space, kind in battle_order(ctx):
        attackers, defenders = participants(ctx, space)
        if kind == "land":
            for landing in ctx.landings:
                if landing.target == space:
                    cargo = [board.pieces[uid] for uid in landing.cargo if uid in board.pieces]
                    for piece in cargo:
                        piece.seaborne = True
                    attackers = attackers + cargo
        if attackers and defenders:
            setups.append(battle_setup(ctx, space, attackers, defenders))
    return setups
