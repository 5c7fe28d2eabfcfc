"""Check a power's orders against the current position and describe the result as text.

This is what ``pbem check`` does, as a function: every syntax error (line, column,
suggestion), every rules problem found on the lines that parsed, and the odds of each
battle the combat moves would start (exact, or an estimate with its error bound when the
exact odds would take over a second: ``quick_odds``).  ``present.check_view.check_text`` turns the
result into the plain text a reply mail carries.
"""

from __future__ import annotations

import attrs

from ..engine.combat import BattleSetup
from ..engine import check, planned_battles
from ..engine.combat.odds import BattleOdds
from ..model.problems import Problem
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
                 names=None, notes: list | None = None,
                 exact_odds: bool = False) -> CheckResult:
    """Every problem with ``text`` as orders of the power to move in ``state``; with
    ``odds``, also the odds of the planned battles when there is no error (exact, or
    with ``exact_odds`` False an estimate where the exact odds would make us wait).
    ``names``: an ``io.names.Names`` of ``game`` to reuse (building one takes a while)."""
    try:
        orders, syntax_errors = parse_orders_partial(text, game, power=state.power, names=names,
                                                     notes=notes)
    except OrdersSyntaxError as err:   # e.g. a power header naming another power
        return CheckResult(state.power, OrderSet(power=state.power), (err,), ())
    problems = tuple(check(game, state, orders))
    result = CheckResult(state.power, orders, tuple(syntax_errors), problems)
    if odds and result.ok:
        from .quick_odds import check_odds
        battles = tuple(PlannedBattle(s, check_odds(s, game.ruleset.dice_sides,
                                                    exact=exact_odds))
                        for s in planned_battles(game, state, orders))
        result = attrs.evolve(result, battles=battles)
    return result


def first_error(result: CheckResult) -> str:
    """A one-line summary of why ``result`` is not ok (for logs)."""
    if result.syntax_errors:
        return str(result.syntax_errors[0]).splitlines()[0]
    for p in result.problems:
        if p.severity == "error":
            return f"line {p.line}: {p.code}"
    raise PbemError("the orders have no error")
