"""A long game for the benchmarks (issue 11): a few hundred turns of plausible orders on the
real engine, with real battles, played through ``gamedir.process_turn`` so that every file a
real game has is there.

    python benchmarks/long_game.py DIR [--turns 200] [--ruleset aa1941]

Each power, each turn: buys infantry (and a tank when it can) with its IPCs and places them
at its factories; attacks every neighbouring territory of a power it is at war with where its
land units there outnumber the defenders (leaving one unit behind), sending all but one unit
from each neighbouring territory; and moves idle land units one step towards the nearest
enemy.  Where the edition has politics (Global 1940) it also declares war, from its third
round, on every enemy power it is still at peace with, and leaves neutral nations' lands
alone ("enemy" is always a power it is at war with *now*).  Orders the rules refuse (a
declaration too early, a factory too damaged...) are dropped line by line until ``check``
accepts the rest, so every turn is legal.  Deterministic: demo seeds, no randomness of its own.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.engine.turn import check  # noqa: E402
from adjudicator.model.rules import WAR  # noqa: E402
from adjudicator.io.parser import parse_orders  # noqa: E402
from adjudicator.service import gamedir  # noqa: E402
from adjudicator.service.games import load_game  # noqa: E402

LAND_MOVERS = ("infantry", "mech_infantry", "artillery", "tank")
DECLARE_FROM_ROUND = 3          # politics: declare war on the enemies still at peace from here


def _side(game, power):
    return game.ruleset.powers[power].side if power in game.ruleset.powers else None


def _at_war(game, state, power, owner) -> bool:
    """Whether ``power`` is at war with ``owner`` now (the sides, and Global's war states)."""
    return game.ruleset.relation(power, owner, state.relations) == WAR


def _factory_room(game, state, space) -> int:
    """Units a turn the factory in ``space`` may place (its edition's capacity, else the
    territory's worth); damage is left to ``check``."""
    types = game.ruleset.units
    for u in state.units_at(space):
        if u.owner == state.power and u.type in types and types[u.type].has("factory"):
            return types[u.type].param("factory", "units") or max(game.map[space].ipc, 1)
    return 0


def _land_units(state, space, power):
    return Counter(u.type for u in state.units_at(space)
                   if u.owner == power and u.type in LAND_MOVERS)


def _enemy_count(game, state, space, power):
    types = game.ruleset.units
    return sum(1 for u in state.units_at(space)
               if _at_war(game, state, power, u.owner) and not types[u.type].has("factory"))


def _distance_to_enemy(game, state, power):
    """Land steps from each land territory to the nearest enemy-held one."""
    gmap = game.map
    start = [k for k, t in gmap.territories.items() if t.is_land and not t.impassable
             and k in state.owners and _at_war(game, state, power, state.owners[k])]
    dist = {k: 0 for k in start}
    queue = deque(start)
    while queue:
        here = queue.popleft()
        for nb in gmap.neighbours(here):
            t = gmap[nb]
            if t.is_land and not t.impassable and nb not in dist:
                dist[nb] = dist[here] + 1
                queue.append(nb)
    return dist


def plan_orders(game, state) -> list[str]:
    """Plausible orders for the power to move, as order lines."""
    power = state.power
    gmap = game.map
    mine = [k for k, owner in sorted(state.owners.items())
            if owner == power and gmap[k].is_land]
    room = {k: n for k in mine if (n := _factory_room(game, state, k))}
    factories = list(room)
    ipcs = state.ipcs.get(game.ruleset.powers[power].economy.key, 0)
    lines, places = _declarations(game, state), []
    tanks = 1 if ipcs >= 14 and factories else 0
    infantry = min((ipcs - 5 * tanks) // 3, sum(room.values()) - tanks)
    if infantry + tanks > 0:
        lines.append(f"buy {infantry} infantry" + (f", {tanks} tank" if tanks else ""))
        left_inf, left_tank = infantry, tanks
        for k in factories:
            here_tank = min(left_tank, room[k])
            here_inf = min(left_inf, room[k] - here_tank)
            parts = ([f"{here_inf} infantry"] if here_inf else []) + \
                    ([f"{here_tank} tank"] if here_tank else [])
            if parts:
                places.append(f"place {', '.join(parts)} {k}")
            left_inf -= here_inf
            left_tank -= here_tank
    used: Counter = Counter()
    combat = []
    for target, t in sorted(gmap.territories.items()):
        if not t.is_land or t.impassable or target not in state.owners:
            continue
        if not _at_war(game, state, power, state.owners[target]):
            continue
        sources = [k for k in sorted(gmap.neighbours(target)) if k in mine]
        force = {k: _land_units(state, k, power) for k in sources}
        total = sum(sum(c.values()) - 1 for c in force.values() if sum(c.values()) > 1)
        if total <= 0 or total < 2 * _enemy_count(game, state, target, power) + 1:
            continue
        for k in sources:
            keep = 1
            for utype, n in sorted(force[k].items()):
                n -= used[(k, utype)]
                go = max(0, n - keep)
                keep = max(0, keep - n)
                if go:
                    combat.append(f"move {go} {utype} {k} -> {target}")
                    used[(k, utype)] += go
    if combat:
        lines += ["combat:"] + combat
    dist = _distance_to_enemy(game, state, power)
    moves = []
    for k in mine:
        spare = _land_units(state, k, power)
        here = dist.get(k)
        if here is None or here <= 1:
            continue
        step = min((nb for nb in gmap.neighbours(k) if nb in mine and dist.get(nb, 99) < here),
                   default=None)
        if step is None:
            continue
        for utype, n in sorted(spare.items()):
            n -= used[(k, utype)]
            if n > 1:
                moves.append(f"move {n - 1} {utype} {k} -> {step}")
    if moves or places:
        lines += ["noncombat:"] + moves + places
    return lines


def _declarations(game, state) -> list[str]:
    """``declare war on`` the enemy powers still at peace with the power to move, from its
    ``DECLARE_FROM_ROUND``th round, in editions with politics (nothing elsewhere)."""
    rules, power = game.ruleset, state.power
    if not rules.starting_relations or state.round < DECLARE_FROM_ROUND:
        return []
    peace = [p for p in rules.powers if rules.side_of(p) != rules.side_of(power)
             and not _at_war(game, state, power, p)]
    return [f"declare war on {p}" for p in peace]


def acceptable_orders(game, state, lines: list[str]) -> str:
    """``lines`` without the orders ``check`` refuses ("pass" if nothing is left)."""
    for _ in range(len(lines) + 1):
        text = "\n".join(lines) + "\n" if any(not x.endswith(":") for x in lines) else "pass\n"
        try:
            orders = parse_orders(text, game, power=state.power)
        except Exception:                       # noqa: BLE001 - drop the last order and retry
            lines = lines[:-1]
            continue
        bad = {p.line for p in check(game, state, orders) if p.is_error}
        if not bad:
            return text
        if 0 in bad:
            return "pass\n"
        lines = [x for i, x in enumerate(lines, 1) if i not in bad]
    return "pass\n"


def make_long_game(directory: Path, turns: int, ruleset: str = "aa1941",
                   progress=None) -> int:
    """Play ``turns`` turns into a new game in ``directory``; returns the turns played (fewer
    if the game ended)."""
    game = load_game(ruleset)
    seeds = gamedir.demo_seeds("long-game")
    gamedir.create_game(directory, game, "long-game", created="2026-01-01", seeds=seeds)
    state = gamedir.current_state(directory)[0]
    for n in range(turns):
        if state.winner is not None:
            return n
        text = acceptable_orders(game, state, plan_orders(game, state))
        tf = gamedir.process_turn(directory, game, text.encode("utf-8"), seeds=seeds)
        state = tf.state
        if progress:
            progress(n + 1, text)
    return turns


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("directory", type=Path)
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("--ruleset", default="aa1941")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    battles = Counter()

    def progress(n, text):
        battles["combat moves"] += sum(1 for x in text.splitlines() if "->" in x)
        if n % 25 == 0:
            print(f"  turn {n}: {time.perf_counter() - started:.1f} s", flush=True)

    played = make_long_game(args.directory, args.turns, args.ruleset, progress)
    print(f"{played} turns in {time.perf_counter() - started:.1f} s "
          f"({battles['combat moves']} moves)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
