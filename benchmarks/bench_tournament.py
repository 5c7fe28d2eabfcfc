"""Tournament speed: standings and ratings of a 1,000-game tournament, and the tick over
200 running games.

    python benchmarks/bench_tournament.py [GAMES] [RUNNING]   (defaults 1000 and 200;
                                                               targets: under 1 s each)

1. Standings and ratings: GAMES finished results of a Swiss league (4 games a round per
   ten players, random wins, draws and bids) recomputed from scratch: openskill ratings
   in game order, then the table with every tiebreak the config offers.  Also times
   reading one game's result from its files (``summarize_game``, a 5-turn game), which a
   cold ``pbem tournament standings`` does once per game.
2. The tick: a tournament with RUNNING games started (2 x RUNNING players), then
   ``organiser.tick`` at a time when nothing is due (the cron case), and at a time when
   every game's reminder is due (RUNNING notices written).  An NMR turn is timed on its
   own: it is a full ``process_turn`` (verify the game, adjudicate, sign, publish).
A script, not a test.
"""

from __future__ import annotations

import datetime as dt
import random
import sys
import tempfile
import time
from pathlib import Path

from adjudicator.service.tournament import organiser
from adjudicator.service.tournament.config import TIEBREAKS, parse_config, template
from adjudicator.service.tournament.ratings import compute_ratings
from adjudicator.service.tournament.results import GameResult, summarize_game
from adjudicator.service.tournament.standings import compute_standings

import tomllib

START = dt.datetime(2026, 1, 1, 12, tzinfo=dt.timezone.utc)


def _best(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def bench_standings(games: int) -> None:
    raw = tomllib.loads(template("Bench", "bench", "aa1941"))
    raw["scoring"]["tiebreaks"] = list(TIEBREAKS)
    cfg = parse_config(raw)
    rng = random.Random(7)
    players = [f"p{i:03d}" for i in range(max(10, games // 4))]
    results = []
    per_round = len(players) // 2
    for n in range(games):
        rnd = n // per_round + 1
        a, b = rng.sample(players, 2)
        winner = rng.choice([a, b, a, b, None])
        results.append(GameResult(f"g{n:05d}", rnd, {"Axis": a, "Allies": b},
                                  rng.randint(0, 20), "Allies", True, winner))

    def recompute():
        ratings, _ = compute_ratings(players, results, cfg.ratings)
        compute_standings(players, results, [], cfg, ratings)
    seconds = _best(recompute)
    print(f"standings + ratings, {games} games, {len(players)} players, "
          f"{len(cfg.scoring.tiebreaks)} tiebreaks: {seconds * 1000:.0f} ms "
          f"({'under' if seconds < 1 else 'OVER'} the 1 s target)")


def bench_tick(running: int) -> None:
    with tempfile.TemporaryDirectory(prefix="pbem-bench-tournament-") as tmp:
        tdir = Path(tmp) / "bench"
        organiser.new_tournament(tdir, "Bench", "aa1941", START)
        for i in range(2 * running):
            organiser.add_player(tdir, f"Player {i}", f"p{i}@example.org", None, START,
                                 pid=f"p{i:04d}")
        t = time.perf_counter()
        organiser.pair(tdir, START)
        paired = time.perf_counter() - t
        t = time.perf_counter()
        organiser.start(tdir, START)
        started = time.perf_counter() - t
        print(f"setup: Swiss pairing of {2 * running} players {paired:.2f} s, "
              f"{running} games created {started:.1f} s")
        organiser.tick(tdir, START)                         # settings announced once
        quiet = START + dt.timedelta(hours=1)
        seconds = _best(lambda: organiser.tick(tdir, quiet), 3)
        print(f"tick over {running} running games, nothing due: {seconds * 1000:.0f} ms "
              f"({'under' if seconds < 1 else 'OVER'} the 1 s target)")
        t = time.perf_counter()
        report = organiser.tick(tdir, START + dt.timedelta(hours=71))
        seconds = time.perf_counter() - t
        print(f"tick over {running} running games, {len(report.reminders)} reminders "
              f"written: {seconds * 1000:.0f} ms")
        ctx = organiser.open_tournament(tdir)
        game = sorted(ctx.tdir.path("games").iterdir())[0].name
        t = time.perf_counter()
        organiser.extend(tdir, game, 1, START, reason="bench")
        report = organiser.tick(tdir, START + dt.timedelta(hours=200))
        seconds = time.perf_counter() - t
        print(f"tick with {len(report.nmrs)} NMR turns and {len(report.extensions)} grace "
              f"extensions: {seconds:.1f} s ({seconds / max(1, len(report.nmrs)) * 1000:.0f} "
              f"ms per NMR turn, a full process_turn each)")
        sides = {k: p.side for k, p in ctx.game.ruleset.powers.items()}
        gdir = ctx.tdir.game_dir(game)
        seconds = _best(lambda: summarize_game(gdir, sides, ctx.cfg))
        print(f"one game's result read from its files: {seconds * 1000:.1f} ms")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    running = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    bench_standings(games)
    bench_tick(running)


if __name__ == "__main__":
    main()
