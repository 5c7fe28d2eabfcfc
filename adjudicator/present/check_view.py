"""A check result as plain text: every problem in words, and the planned battles' odds as a
table (what ``pbem check`` prints, for reply mails)."""

from __future__ import annotations

from ..model.game import Game
from ..model.state import GameState
from .wording import problem_text


def _counts(game: Game, units) -> str:
    counts: dict[str, int] = {}
    for u in units:
        counts[u.type.key] = counts.get(u.type.key, 0) + 1
    short = lambda k: (game.ruleset.units[k].aliases or (k,))[0]  # noqa: E731
    return ", ".join(f"{n} {short(k)}" for k, n in counts.items())


# The outcome columns of a planned battle: every outcome falls in exactly one, so a row
# adds up to 100%.
OUTCOME_COLUMNS = ("Success", "Held", "Retreat", "Neither")
OUTCOME_LEGEND = ("exact odds, each battle as if fought first; Success = taken (a sea zone: "
                  "cleared), Held = the defender keeps units there, Retreat = the attackers "
                  "retreat, Neither = nobody is left holding it (both sides destroyed, or only "
                  "aircraft survive); each row adds up to 100%; Swing = the TUV the defender is "
                  "expected to lose minus the attacker's")


def outcome_shares(is_sea: bool, odds) -> dict[str, float]:
    """A battle's ``OUTCOME_COLUMNS`` as probabilities (``odds``: a ``BattleOdds``)."""
    success = odds.attacker_wins if is_sea else odds.captured
    return {"Success": success,
            "Held": odds.defender_wins + odds.stalemate,
            "Retreat": odds.attacker_retreats,
            "Neither": odds.both_destroyed + (odds.attacker_wins - success)}


def percentages(shares, decimals: int = 1) -> list[str]:
    """Probabilities that add up to 1 as percentages that add up to exactly 100 when
    shown with ``decimals`` (largest remainder rounding)."""
    unit = 10 ** decimals
    exact = [max(0.0, p) * 100 * unit for p in shares]
    floors = [int(x) for x in exact]
    target = round(sum(exact))
    order = sorted(range(len(exact)), key=lambda i: floors[i] - exact[i])
    for i in order[:max(0, target - sum(floors))]:
        floors[i] += 1
    return [f"{n / unit:.{decimals}f}%" for n in floors]


def describe_battles(game: Game, battles, threshold: float = 0.5) -> list[str]:
    """The planned battles as a plain-text table plus a warning per risky attack."""
    if not battles:
        return []
    rows = [("Battle", "Attackers", "Defenders", *OUTCOME_COLUMNS, "Swing")]
    for b in battles:
        shares = outcome_shares(b.setup.is_sea, b.odds)
        rows.append((b.setup.space, _counts(game, b.setup.attackers),
                     _counts(game, b.setup.defenders), *percentages(shares.values()),
                     f"{b.odds.tuv_swing:+.1f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [f"Battles these orders start ({OUTCOME_LEGEND}):"]
    for r in rows:
        lines.append("  " + "  ".join(c.ljust(w) if i < 3 else c.rjust(w)
                                      for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    for b in battles:
        if b.success < threshold:
            lines.append(f"warning: the attack on {b.setup.space} succeeds only "
                         f"{100 * b.success:.1f}% of the time")
    lines.extend(estimate_notes((b.setup, b.odds) for b in battles))
    return lines


def estimate_notes(results) -> list[str]:
    """A sentence for each battle whose odds count losses before it (kamikaze strikes),
    and for each whose odds are an estimate (``results``: (setup, ``BattleOdds``) pairs):
    how many battles were simulated and how far off the figures may be."""
    lines = []
    for setup, odds in results:
        if setup.before:
            lines.append(f"note: the odds of {setup.space} count the ships the attacker may "
                         f"lose before the battle (kamikaze strikes: a hit on 1 or 2 each)")
        if odds.method == "monte_carlo":
            lines.append(f"note: the odds of {setup.space} are an estimate from {odds.runs} "
                         f"simulated battles (the exact odds would take over a second): each "
                         f"percentage within {100 * odds.error_bound:.1f} points, 95% of the time; "
                         f"--exact-odds computes them exactly")
    return lines


NOT_READ = "not read: see the error below"
MAX_WRITTEN_WIDTH = 44     # the "as written" column of the reading is cut to this width


def reading_lines(reading) -> list[str]:
    """How each line was read (``service.checking.LineReading``s), one row per line:
    the line number, the line as written and its canonical reading (what is published and
    what the dice are bound to); a line that could not be read points at its error."""
    if not reading:
        return []
    shown = [(r.line, r.written.strip(), r.read or (NOT_READ,)) for r in reading]
    width = min(MAX_WRITTEN_WIDTH, max(len(w) for _, w, _ in shown))
    digits = len(str(shown[-1][0]))
    rows = ["How each line was read:"]
    for number, written, read in shown:
        if len(written) > width:
            written = written[:width - 3] + "..."
        for i, text in enumerate(read):
            left = f"{number:>{digits}}  {written:<{width}}" if i == 0 else " " * (digits + 2 + width)
            rows.append(f"  {left}  -> {text}")
    return rows


def check_text(game: Game, state: GameState, result, source: str = "orders") -> str:
    """A check result (``service.checking.CheckResult``) as the text ``pbem check``
    prints, without colours."""
    lines = reading_lines(result.reading)
    lines += [f"{source}: error: {e}" for e in result.syntax_errors]
    for p in result.problems:
        where = f"{source}:{p.line}: " if p.line else f"{source}: "
        lines.append(f"{where}{p.severity}: {problem_text(p, game)}")
    lines += describe_battles(game, result.battles)
    if result.board_battles:                # Taktyczne Starcie's: its board model loads only then
        from .board_check_view import board_battle_lines
        lines += board_battle_lines(game, result.board_battles)
    name = game.ruleset.powers[state.power].name
    if result.ok:
        lines.append(f"OK: orders for {name}, round {state.round}, are valid.")
    else:
        note = " (rules were checked on the lines that parsed)" if result.syntax_errors else ""
        lines.append(f"{result.error_count} error(s): the orders would be rejected{note}.")
    return "\n".join(lines) + "\n"


