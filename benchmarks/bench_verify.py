"""Benchmark the audit and the dice.

    python benchmarks/bench_verify.py [GAME_DIR] [--turns N] [--dice N] [--no-replay]

With GAME_DIR: time ``audit.verify_game`` on it (real loader, parser and engine unless
--no-replay).  Without: build a demo game with a stub engine (N turns, --dice dice each)
in a temporary directory and time that.  Then measure HmacDice throughput.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.service import audit, gamedir  # noqa: E402
from adjudicator.model.board import GameMap, Territory  # noqa: E402
from adjudicator.model.events import BattleStarted, DiceRolled  # noqa: E402
from adjudicator.model.game import Game  # noqa: E402
from adjudicator.io.hmac_dice import HmacDice  # noqa: E402
from adjudicator.model.orders import OrderSet  # noqa: E402
from adjudicator.model.rules import Domain, Power, Ruleset, UnitType  # noqa: E402
from adjudicator.model.state import GameState, Unit  # noqa: E402
from adjudicator.engine.turn import TurnResult  # noqa: E402


# --------------------------------------------------------------------------- demo game

def demo_game() -> Game:
    units = {"infantry": UnitType("infantry", "Infantry", Domain.LAND, 3, 1, 2, 1)}
    powers = {p: Power(p, p.title(), side, p, p, 30)
              for p, side in (("ussr", "Allies"), ("germany", "Axis"), ("uk", "Allies"),
                              ("japan", "Axis"), ("usa", "Allies"))}
    ruleset = Ruleset("bench", "Benchmark", tuple(powers), units, powers, ())
    terr = {f"t{i}": Territory(f"t{i}", False, 2, list(powers)[i % 5]) for i in range(60)}
    game_map = GameMap("benchmap", terr, {k: frozenset() for k in terr})
    return Game(ruleset, game_map, (), "sha256:" + hashlib.sha256(b"bench").hexdigest())


def demo_state(game: Game) -> GameState:
    powers = game.ruleset.turn_order
    units = {k: tuple(Unit("infantry", t.original_owner) for _ in range(5))
             for k, t in game.map.territories.items()}
    return GameState("bench-game", "benchmap", 1, powers[0],
                     {k: t.original_owner for k, t in game.map.territories.items()},
                     units, {p: 30 for p in powers})


def make_stub(dice_per_turn: int):
    def parse(text, game, power=None):
        return OrderSet(power=power, source=text)

    def adjudicate(game, state, orders, dice):
        order = game.ruleset.turn_order
        i = order.index(state.power)
        events, left, battle_no = [], dice_per_turn, 0
        while left > 0:
            battle = f"b{battle_no}"
            battle_no += 1
            events.append(BattleStarted(battle, "t0", "land", state.power,
                                        (order[(i + 1) % len(order)],), {"infantry": 6},
                                        {"infantry": 6}))
            for side, target in (("attacker", 1), ("defender", 2)):
                n = min(6, left)
                left -= n
                if n:
                    rolls = dice.roll(n, f"{battle} {side}")
                    events.append(DiceRolled(battle, 1, "attack", side, "infantry", target,
                                             tuple(rolls), sum(r <= target for r in rolls)))
        nxt = (i + 1) % len(order)
        new = GameState(state.game_id, state.map_id, state.round + (nxt == 0), order[nxt],
                        state.owners, state.units, state.ipcs, state.standing_orders, None,
                        state.turn_number + 1)
        return TurnResult(new, tuple(events))

    return parse, adjudicate


def build_demo(directory: Path, turns: int, dice_per_turn: int):
    game = demo_game()
    parse, adjudicate = make_stub(dice_per_turn)
    gamedir.create_game(directory, game, "bench-game", None, "2024-01-01",
                        initial=demo_state(game))
    for t in range(turns):
        gamedir.process_turn(directory, game, f"orders for turn {t + 1}\n", parse=parse,
                             adjudicate=adjudicate)
    return game, parse, adjudicate


# --------------------------------------------------------------------------- main

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game_dir", nargs="?", help="game directory to verify (default: a demo)")
    ap.add_argument("--turns", type=int, default=100, help="demo: number of turns")
    ap.add_argument("--dice", type=int, default=200, help="demo: dice per turn")
    ap.add_argument("--no-replay", action="store_true", help="skip re-adjudication")
    ap.add_argument("--repeat", type=int, default=3, help="timing repetitions (best is shown)")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        if args.game_dir:
            directory = Path(args.game_dir)
            kwargs = {}
        else:
            directory = Path(tmp) / "demo"
            t0 = time.perf_counter()
            game, parse, adjudicate = build_demo(directory, args.turns, args.dice)
            print(f"built demo: {args.turns} turns x {args.dice} dice in "
                  f"{time.perf_counter() - t0:.2f} s ({directory})")
            kwargs = {"load_game": lambda name: game, "parse": parse, "adjudicate": adjudicate}
        best, report = float("inf"), None
        for _ in range(max(1, args.repeat)):
            t0 = time.perf_counter()
            report = audit.verify_game(directory, replay=not args.no_replay, **kwargs)
            best = min(best, time.perf_counter() - t0)
        status = "OK" if report.ok else f"FAILED: {report.failure}"
        turns = max(report.turns_checked, 1)
        print(f"verify_game: {best:.3f} s for {report.turns_checked} turns, "
              f"{report.dice_checked} dice, {report.signatures_checked} signatures "
              f"({1000 * best / turns:.2f} ms/turn, replay={'off' if args.no_replay else 'on'}) "
              f"-> {status}")

    dice = HmacDice(bytes(32), "bench", 1, bytes(32))
    for batch in (1, 10, 1000):
        n = 1_000_000 if batch > 1 else 200_000
        t0 = time.perf_counter()
        for _ in range(n // batch):
            dice.faces(batch)
        dt = time.perf_counter() - t0
        print(f"HmacDice: {n / dt:,.0f} dice/s (batches of {batch})")
    return 0 if report is None or report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
