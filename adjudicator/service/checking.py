"""Check a power's orders against the current position and describe the result as text.

This is what ``pbem check`` does, as a function: every syntax error (line, column,
suggestion), every rules problem found on the lines that parsed, and the exact odds of
each battle the combat moves would start.  ``present.check_view.check_text`` turns the
result into the plain text a reply mail carries.
"""

from __future__ import annotations

import attrs

from ..engine.combat import BattleSetup
from ..engine import check, planned_battles
from ..engine.combat.odds import BattleOdds, battle_odds
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
                 names=None, notes: list | None = None) -> CheckResult:
    """Every problem with ``text`` as orders of the power to move in ``state``; with
    ``odds``, also the exact odds of the planned battles when there is no error.
    ``names``: an ``io.names.Names`` of ``game`` to reuse (building one takes a while)."""
    try:
        orders, syntax_errors = parse_orders_partial(text, game, power=state.power, names=names,
                                                     notes=notes)
    except OrdersSyntaxError as err:   # e.g. a power header naming another power
        return CheckResult(state.power, OrderSet(power=state.power), (err,), ())
    problems = tuple(check(game, state, orders))
    result = CheckResult(state.power, orders, tuple(syntax_errors), problems)
    if odds and result.ok:
        battles = tuple(PlannedBattle(s, battle_odds(s, sides=game.ruleset.dice_sides))
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
