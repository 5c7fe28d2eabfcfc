"""Kamikaze strikes (Global 1940 digest §6.3.1, seed 004 [L820-L826]): battle kind
``kamikaze`` (listed first: strikes are declared at the start of conduct combat and resolved
before the affected battles) and the standing order kind ``kamikaze``.

The power the option ``kamikaze_power`` names (Japan) has ``kamikaze_tokens`` strikes for
the game (6).  When the phasing power, at war with it, attacks its units in a sea zone tagged
``kamikaze`` or launches an amphibious assault from one, that power strikes there with as
many tokens as its standing order ``kamikaze <zone|all>: N`` says (default 0: tokens are not
spent unless the player says so), at most the tokens left.  Each strike is one die at the
attacking power's surface warships there, the most valuable first, one strike per ship and
round again from the top; ``N on <type>`` aims every strike at one ship of that type there
(the most damaged, then the most valuable: several strikes may take the same ship [L824]),
else as before when none is there; a 1 or 2 hits the ship it was aimed at: an undamaged capital ship
(``two_hits``) is damaged, any other ship sunk.  A strike in a zone forbids shore
bombardment from it, hit or miss.  Tokens spent are kept in the state
(``kamikaze_used``)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

from ..model.events import BattleEnded, BattleStarted, Casualties, DiceRolled
from .battles import battle_kind, fight_kind, keeps_damage, losses_before
from .turn_rules import declare_standing, declare_state, standing_choice
from .working import count_types

KAMIKAZE_TAG = "kamikaze"
HIT_ON = 2                                  # [L824]
USED = declare_state("kamikaze_used", int, per_power=True)
MOST_STRIKES = 6


def parse_value(value: str) -> tuple[int, str] | None:
    """``"N"`` or ``"N on <unit type>"`` -> (N, type or ""), or None."""
    words = value.split()
    if not words or not words[0].isdigit() or not 0 <= int(words[0]) <= MOST_STRIKES:
        return None
    if len(words) == 1:
        return int(words[0]), ""
    if len(words) == 3 and words[1] == "on":
        return int(words[0]), words[2]
    return None


def check_value(ctx, power: str, value: str):
    parsed = parse_value(value)
    if parsed is None:
        return "kamikaze_bad_value", {"value": value, "most": MOST_STRIKES}
    target = ctx.board.rules.units.get(parsed[1]) if parsed[1] else None
    if parsed[1] and (target is None or not target.has("surface_warship")):
        return "kamikaze_not_warship", {"target": parsed[1]}
    return None


KAMIKAZE = declare_standing(
    "kamikaze", "0", (),
    "How many kamikaze strikes the power makes in a kamikaze zone where it is attacked or "
    "from which an amphibious assault is launched, and at which ship: 'kamikaze all: 2', "
    "'kamikaze SZ 6: 3 on carrier' (every strike at one carrier there) (default 0; at most "
    "the tokens left; without a ship named, the most valuable ships first, one strike each).",
    check=check_value)


def _striker(ctx) -> str | None:
    power = ctx.board.rules.option("kamikaze_power", "")
    return power if power and ctx.board.enemy_of(ctx.power, power) else None


def tokens_left(board, power: str) -> int:
    return int(board.rules.option("kamikaze_tokens", 0)) - board.read_state(USED, power, 0)


@battle_kind("kamikaze")
def _strikes(ctx, order):
    """Kamikaze zones where the phasing power attacks the striker's units or launches an
    amphibious assault, in zone order."""
    board = ctx.board
    striker = _striker(ctx)
    if striker is None:
        return []
    landing_zones = {landing.zone for landing in ctx.landings}
    found = []
    for zone in sorted(z.key for z in board.map.seas() if KAMIKAZE_TAG in z.tags):
        here = board.at(zone)
        if not any(p.owner == ctx.power for p in here):
            continue
        if zone in landing_zones or any(p.owner == striker for p in here):
            found.append((zone, "kamikaze"))
    return found


def _aims(ctx, zone: str):
    """``(striker, the attacker's surface warships there, the ship each strike is aimed
    at)`` in ``zone``, or None when no strike is made there."""
    board = ctx.board
    striker = _striker(ctx)
    if striker is None:
        return None
    wanted, aimed = parse_value(standing_choice(ctx, striker, KAMIKAZE.name, zone)) or (0, "")
    n = min(wanted, tokens_left(board, striker))
    ships = sorted((p for p in board.at(zone) if p.owner == ctx.power
                    and board.utype(p).has("surface_warship")),
                   key=lambda p: (-board.utype(p).cost, p.uid))
    named = sorted((p for p in ships if p.type == aimed), key=lambda p: (-p.damage, ships.index(p)))
    if n <= 0 or not ships:
        return None
    return striker, ships, ([named[0]] * n if named else [ships[i % len(ships)] for i in range(n)])


def _strike_losses(board, aims, hits) -> tuple[list, list]:
    """(ships sunk, ships damaged) by the strikes that ``hits``, in order: an undamaged
    capital ship is damaged, any other ship (or a damaged one) sunk; a strike at a ship
    already sunk is lost."""
    killed: list = []
    damaged: list = []
    for ship, hit in zip(aims, hits):
        if not hit or any(p is ship for p in killed):
            continue
        if keeps_damage(board.utype(ship)) and not ship.damage \
                and not any(p is ship for p in damaged):
            damaged.append(ship)
        else:
            damaged = [p for p in damaged if p is not ship]
            killed.append(ship)
    return killed, damaged


@losses_before("kamikaze")
def strike_odds(ctx, zone: str) -> tuple[tuple[float, tuple[int, ...], tuple[int, ...]], ...]:
    """Every way the strikes in ``zone`` can fall, with its probability: (probability, uids
    sunk, uids damaged), for the odds of the sea battle they precede."""
    planned = _aims(ctx, zone)
    if planned is None:
        return ()
    aims = planned[2]
    hit = Fraction(HIT_ON, ctx.board.rules.dice_sides)
    ways: Counter = Counter()
    for hits in itertools.product((False, True), repeat=len(aims)):
        killed, damaged = _strike_losses(ctx.board, aims, hits)
        weight = math.prod(hit if h else 1 - hit for h in hits)
        ways[(tuple(sorted(p.uid for p in killed)), tuple(sorted(p.uid for p in damaged)))] += weight
    return tuple((float(w), killed, damaged) for (killed, damaged), w in sorted(ways.items()))


@fight_kind("kamikaze")
def fight_kamikaze(ctx, zone: str, dice, run) -> None:
    board = ctx.board
    planned = _aims(ctx, zone)
    if planned is None:
        return
    striker, ships, aims = planned
    n = len(aims)
    battle = f"{zone} (kamikaze)"
    ctx.emit(BattleStarted(battle, zone, "kamikaze", ctx.power, (striker,), count_types(ships), {}))
    run.fought_zones.add(zone)              # no shore bombardment from here [L826]
    board.write_state(USED, board.read_state(USED, striker, 0) + n, striker)
    if ctx.checking or dice is None:
        return
    faces = tuple(dice.roll(n, f"{battle} strikes"))
    killed, damaged = _strike_losses(board, aims, [face <= HIT_ON for face in faces])
    ctx.emit(DiceRolled(battle, 1, "kamikaze", "defender", "kamikaze", HIT_ON, faces,
                        sum(face <= HIT_ON for face in faces)))
    for ship in damaged:
        ship.damage = 1
    for ship in killed:
        board.remove(ship)
    if killed or damaged:
        ctx.emit(Casualties(battle, 1, "attacker", count_types(killed), count_types(damaged)))
    # The strikes end before the battle they precede: "attacker_wins" while any of the
    # attacker's units is left in the zone (the attack goes on).
    tuv = sum(board.utype(p).cost for p in killed)
    goes_on = any(p.owner == ctx.power for p in board.at(zone))
    ctx.emit(BattleEnded(battle, zone, "attacker_wins" if goes_on else "defender_wins", 1,
                         count_types(killed), {}, tuv, 0, -tuv))
