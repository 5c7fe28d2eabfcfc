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


def describe_battles(game: Game, battles, threshold: float = 0.5) -> list[str]:
    """The planned battles as a plain-text table plus a warning per risky attack."""
    if not battles:
        return []
    rows = [("Battle", "Attackers", "Defenders", "Success", "Held", "TUV swing")]
    for b in battles:
        rows.append((b.setup.space, _counts(game, b.setup.attackers),
                     _counts(game, b.setup.defenders), f"{100 * b.success:.1f}%",
                     f"{100 * (b.odds.defender_wins + b.odds.stalemate):.1f}%",
                     f"{b.odds.tuv_swing:+.1f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["Battles these orders start (exact odds, each as if fought first; "
             "Held = the defender keeps the space):"]
    for r in rows:
        lines.append("  " + "  ".join(c.ljust(w) if i < 3 else c.rjust(w)
                                      for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    for b in battles:
        if b.success < threshold:
            lines.append(f"warning: the attack on {b.setup.space} succeeds only "
                         f"{100 * b.success:.1f}% of the time")
    return lines


def check_text(game: Game, state: GameState, result, source: str = "orders") -> str:
    """A check result (``service.checking.CheckResult``) as the text ``pbem check``
    prints, without colours."""
    lines = [f"{source}: error: {e}" for e in result.syntax_errors]
    for p in result.problems:
        where = f"{source}:{p.line}: " if p.line else f"{source}: "
        lines.append(f"{where}{p.severity}: {problem_text(p, game)}")
    lines += describe_battles(game, result.battles)
    name = game.ruleset.powers[state.power].name
    if result.ok:
        lines.append(f"OK: orders for {name}, round {state.round}, are valid.")
    else:
        note = " (rules were checked on the lines that parsed)" if result.syntax_errors else ""
        lines.append(f"{result.error_count} error(s): the orders would be rejected{note}.")
    return "\n".join(lines) + "\n"


