"""Check a power's orders against the current position and describe the result as text.

This is what ``pbem check`` does, as a function: every syntax error (line, column,
suggestion), every rules problem found on the lines that parsed, and the exact odds of
each battle the combat moves would start.  ``describe_check`` turns the result into the
plain text a reply mail carries.
"""

from __future__ import annotations

import attrs

from ..engine.combat import BattleSetup
from ..engine.odds import BattleOdds, battle_odds
from ..engine.turn import Problem, check, planned_battles
from ..io.parser import parse_orders_partial
from ..model.errors import OrdersSyntaxError, PbemError
from ..model.game import Game
from ..model.orders import OrderSet
from ..model.state import GameState


@attrs.frozen
class PlannedBattle:
    setup: BattleSetup
    odds: BattleOdds

    @property
    def success(self) -> float:
        """What counts as success for the attacker: taking a territory, clearing a zone."""
        return self.odds.attacker_wins if self.setup.is_sea else self.odds.captured


@attrs.frozen
class CheckResult:
    power: str
    orders: OrderSet
    syntax_errors: tuple[OrdersSyntaxError, ...]
    problems: tuple[Problem, ...]
    battles: tuple[PlannedBattle, ...] = ()

    @property
    def error_count(self) -> int:
        return len(self.syntax_errors) + sum(p.severity == "error" for p in self.problems)

    @property
    def ok(self) -> bool:
        return self.error_count == 0


def check_orders(game: Game, state: GameState, text: str, *, odds: bool = True,
                 names=None) -> CheckResult:
    """Every problem with ``text`` as orders of the power to move in ``state``; with
    ``odds``, also the exact odds of the planned battles when there is no error.
    ``names``: an ``io.names.Names`` of ``game`` to reuse (building one takes a while)."""
    try:
        orders, syntax_errors = parse_orders_partial(text, game, power=state.power, names=names)
    except OrdersSyntaxError as err:   # e.g. a power header naming another power
        return CheckResult(state.power, OrderSet(power=state.power), (err,), ())
    problems = tuple(check(game, state, orders))
    result = CheckResult(state.power, orders, tuple(syntax_errors), problems)
    if odds and result.ok:
        battles = tuple(PlannedBattle(s, battle_odds(s, sides=game.ruleset.dice_sides))
                        for s in planned_battles(game, state, orders))
        result = attrs.evolve(result, battles=battles)
    return result


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


def describe_check(game: Game, state: GameState, result: CheckResult,
                   source: str = "orders") -> str:
    """``result`` as the text ``pbem check`` prints, without colours."""
    lines = [f"{source}: error: {e}" for e in result.syntax_errors]
    for p in result.problems:
        where = f"{source}:{p.line}: " if p.line else f"{source}: "
        lines.append(f"{where}{p.severity}: {p.message}")
    lines += describe_battles(game, result.battles)
    name = game.ruleset.powers[state.power].name
    if result.ok:
        lines.append(f"OK: orders for {name}, round {state.round}, are valid.")
    else:
        note = " (rules were checked on the lines that parsed)" if result.syntax_errors else ""
        lines.append(f"{result.error_count} error(s): the orders would be rejected{note}.")
    return "\n".join(lines) + "\n"


def first_error(result: CheckResult) -> str:
    """A one-line summary of why ``result`` is not ok (for logs)."""
    if result.syntax_errors:
        return str(result.syntax_errors[0]).splitlines()[0]
    for p in result.problems:
        if p.severity == "error":
            return str(p)
    raise PbemError("the orders have no error")
