"""Fuzz the turn engine with random orders: many games of random (often illegal) orders;
those that pass ``check`` are adjudicated with random dice.  Any exception is a bug;
IPCs must never go negative.

    python scripts/fuzz_turns.py SECONDS [FIRST_SEED]

Not a test (it runs for as long as it is told); run it after changing the engine.
"""
import random
import sys
import time
import traceback

from adjudicator.service.games import initial_state, load_game
from adjudicator.engine.turn import check, adjudicate
from adjudicator.io.parser import parse_orders
from adjudicator.model.dice import SeededDice
from adjudicator.engine.working import WorkingBoard
from adjudicator.model.rules import Domain

game = load_game()
m = game.map
units = game.ruleset.units

def random_orders(state, rng):
    board = WorkingBoard(game, state)
    power = state.power
    lines = []
    mine = [p for p in board.pieces.values() if p.owner == power]
    # buy
    ipcs = state.ipcs.get(power, 0)
    if rng.random() < 0.8 and ipcs >= 3:
        k = rng.choice([k for k in units if units[k].cost <= ipcs])
        lines.append(f"buy 1 {k}")
        buy = k
    else:
        buy = None
    for phase in ("combat", "noncombat"):
        lines.append(f"{phase}:")
        for _ in range(rng.randint(0, 14)):
            p = rng.choice(mine) if mine else None
            if p is None: break
            ut = units[p.type]
            r = rng.random()
            if ut.domain == Domain.LAND and r < 0.2:
                zones = m.coastal_zones(p.space) if m[p.space].is_land else []
                if zones:
                    z = rng.choice(zones)
                    lines.append(f"load 1 {p.type} {p.space} -> {z}")
                    continue
            if ut.cargo and ut.domain == Domain.SEA and r < 0.3:
                lands = [n for n in m.neighbours(p.space) if m[n].is_land]
                if lands:
                    lines.append(f"unload 1 infantry {p.space} -> {rng.choice(lands)}")
                    continue
            path = [p.space]
            for _ in range(rng.randint(1, max(1, ut.move))):
                path.append(rng.choice(sorted(m.neighbours(path[-1]))))
            lines.append(f"move 1 {p.type} {' -> '.join(path)}")
        if phase == "combat" and rng.random() < 0.5:
            t = rng.choice(list(m.territories))
            lines.append(f"battle {t}: retreat if attackers < {rng.randint(1,4)}")
    if buy:
        f = [t.key for t in m.land() if t.factory and state.owners.get(t.key) == power]
        if f:
            sp = rng.choice(f + [z for x in f for z in m.coastal_zones(x)])
            lines.append(f"place 1 {buy} {sp}")
    if rng.random() < 0.3:
        lines.append(f"defend all: losses infantry, tank; submerge {rng.choice(['never','always','losing'])}")
    return "\n".join(lines)

def run(seed, turns=40):
    rng = random.Random(seed)
    state = initial_state(game, f"fuzz{seed}")
    accepted = 0
    for t in range(turns):
        if state.winner: break
        best = None
        for attempt in range(30):
            text = random_orders(state, rng)
            try:
                o = parse_orders(text, game, power=state.power)
            except Exception as e:
                if type(e).__name__ != "OrdersError":
                    print("PARSE CRASH", seed, t, repr(e)); print(text); raise
                continue
            probs = check(game, state, o)
            if not any(p.severity == "error" for p in probs):
                best = o; break
        if best is None:
            best = parse_orders("pass", game, power=state.power)
        else:
            accepted += 1
        try:
            res = adjudicate(game, state, best, SeededDice(rng.random()))
        except Exception:
            print("ADJ CRASH", seed, t); print(best.source); traceback.print_exc(); raise
        for k, v in res.state.ipcs.items():
            assert v >= 0
        state = res.state
    return accepted

if __name__ == "__main__":
    start = time.time()
    first = n = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    total = 0
    while time.time() - start < float(sys.argv[1]):
        total += run(n)
        n += 1
    print(f"games {n - first}, accepted random orders {total}, no crash")
