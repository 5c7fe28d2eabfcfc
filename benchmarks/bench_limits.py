"""The largest orders files the limits accept: how long ``pbem check`` takes on them.

    python benchmarks/bench_limits.py [REPEATS]

Builds orders files at the limits of ``adjudicator/io/orders_text.py`` (32 KiB, 500
lines, 500-character lines, 50 errors) in several shapes -- valid orders, syntax errors,
misspelt names (each asking for a "did you mean" suggestion), a few maximal lines,
comments -- and times what ``pbem check`` does with them (read the orders, parse, check
the rules; no odds) on the 1941 start position, plus peak memory (tracemalloc).  The goal
(issue 8): every accepted file is checked in under 1 s.  A script, not a test.
"""

from __future__ import annotations

import statistics
import sys
import time
import tracemalloc

from adjudicator.engine.turn import check
from adjudicator.io import orders_text
from adjudicator.io.loader import initial_state, load_game
from adjudicator.io.parser import parse_orders_partial
from adjudicator.model.errors import OrdersSyntaxError

LIMIT_BYTES = orders_text.MAX_ORDERS_BYTES
LIMIT_LINES = orders_text.MAX_LINES
LINE_CHARS = orders_text.MAX_LINE_CHARS


def fill(lines: list[str], header: str = "power: USSR\n") -> str:
    """``header`` then ``lines`` repeated up to the byte and line limits."""
    out, size, count = [header], len(header.encode()), header.count("\n")
    i = 0
    while True:
        line = lines[i % len(lines)] + "\n"
        if size + len(line.encode()) > LIMIT_BYTES or count + 1 > LIMIT_LINES:
            break
        out.append(line)
        size += len(line.encode())
        count += 1
        i += 1
    return "".join(out)


def shapes() -> dict[str, str]:
    long_name = ("Karelia " * 70)[:LINE_CHARS - 40].strip()
    return {
        "mixed valid orders": fill([
            "buy 1 inf", "defend all: losses inf, tank, ftr", "battle Ukraine: retreat to "
            "Russia if attackers < 3; losses inf, tank", "place 1 inf Russia",
            "combat:", "move 1 inf Karelia -> Archangel", "noncombat:",
            "move 1 inf Russia -> Caucasus"]),
        "long valid moves": fill(["move 3 inf, 1 tank, 1 ftr Russia -> Caucasus -> Ukraine"],
                                 header="power: USSR\ncombat:\n"),
        "battle directives": fill(["battle Ukraine: retreat to Russia if attackers < 3; "
                                   "losses inf, tank"]),
        "long paths (460 chars)": fill(["move 1 ftr Russia" + " -> Caucasus -> Russia" * 20],
                                       header="power: USSR\ncombat:\n"),
        "many unit groups (70)": fill(["buy " + ", ".join(["1 inf"] * 70)]),
        "densest tokens": fill(["buy " + ",".join(["1 dd"] * 99)]),
        "syntax errors": fill(["this is not an order at all, not even close: %%% &&& ((("]),
        "misspelt names": fill(["move 2 inf Karellia -> Archangle -> Novosibirsk -> Evenki"]),
        "maximal lines (500 chars)": fill([f"move 1 inf {long_name} -> {long_name[:20]}"]),
        "long unknown words": fill(["buy 1 " + "x" * (LINE_CHARS - 10)]),
        "comments only": fill(["# " + "a comment " * 6]),
        "blank lines": fill([""]),
    }


def run_check(game, state, text: str) -> int:
    try:
        orders, errors = parse_orders_partial(text, game, power=state.power)
    except OrdersSyntaxError:          # over a whole-file limit
        return 1
    problems = check(game, state, orders)
    return len(errors) + sum(p.severity == "error" for p in problems)


def main(repeats: int = 5) -> None:
    game = load_game("aa1941")
    state = initial_state(game, "bench")
    print(f"limits: {LIMIT_BYTES} bytes, {LIMIT_LINES} lines, {LINE_CHARS} characters a line, "
          f"{orders_text.MAX_ERRORS} errors")
    worst = 0.0
    for name, text in shapes().items():
        orders_text.check_size(text)            # accepted: within the whole-file limits
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            errors = run_check(game, state, text)
            times.append(time.perf_counter() - t0)
        tracemalloc.start()
        run_check(game, state, text)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        median = statistics.median(times)
        worst = max(worst, max(times))
        print(f"{name:28s} {len(text.encode()):6d} B {text.count(chr(10)):5d} lines "
              f"{errors:4d} errors  median {median * 1000:7.1f} ms  max {max(times) * 1000:7.1f} ms"
              f"  peak {peak / 1e6:5.1f} MB")
    over = "x" * (LIMIT_BYTES + 1)
    t0 = time.perf_counter()
    run_check(game, state, over)
    print(f"{'over the byte limit':28s} refused in {(time.perf_counter() - t0) * 1000:.2f} ms")
    print(f"slowest accepted file: {worst * 1000:.0f} ms "
          f"({'under' if worst < 1 else 'OVER'} the 1 s goal)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
