"""Check a power's orders against the current position and describe the result as text.

This is what ``pbem check`` does, as a function: every syntax error (line, column,
suggestion), every rules problem found on the lines that parsed, and the odds of each
battle the combat moves would start (exact, or an estimate with its error bound when the
exact odds would take over a second: ``quick_odds``), and of each board battle
(Taktyczne Starcie: always an estimate, ``board_check``).  ``present.check_view.check_text`` turns the
result into the plain text a reply mail carries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from ..engine.combat import BattleSetup
from ..engine import check, planned_battles
from ..model.problems import Problem
from ..io.orders_text import shown_line
from ..io.parser import parse_orders_partial
from ..model.errors import OrdersSyntaxError, PbemError
from ..model.game import Game
from ..model.orders import OrderSet
from ..model.state import GameState

if TYPE_CHECKING:               # the odds are computed (and their module loaded) on request
    from ..engine.combat.odds import BattleOdds


@attrs.frozen
class PlannedBattle:
    setup: BattleSetup
    odds: BattleOdds

    @property
    def success(self) -> float:
        """What counts as success for the attacker: taking a territory, clearing a zone."""
        return self.odds.attacker_wins if self.setup.is_sea else self.odds.captured


@attrs.frozen
class LineReading:
    """One line of the orders as written and how it was read: the canonical text of each
    order it holds, a header, "ignored: chatter"...; nothing when it could not be read."""

    line: int
    written: str
    read: tuple[str, ...]


@attrs.frozen
class CheckResult:
    power: str
    orders: OrderSet
    syntax_errors: tuple[OrdersSyntaxError, ...]
    problems: tuple[Problem, ...]
    battles: tuple[PlannedBattle, ...] = ()
    reading: tuple[LineReading, ...] = ()
    board_battles: tuple = ()      # service.board_check.PlannedBoardBattle (Taktyczne Starcie)

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
    echo: dict[int, list[str]] = {}
    failed: dict[int, str] = {}
    try:
        orders, syntax_errors = parse_orders_partial(text, game, power=state.power, names=names,
                                                     notes=notes, echo=echo, failed=failed)
    except OrdersSyntaxError as err:   # e.g. a power header naming another power
        return CheckResult(state.power, OrderSet(power=state.power), (err,), ())
    problems = tuple(without_follow_ons(check(game, state, orders), failed))
    result = CheckResult(state.power, orders, tuple(syntax_errors), problems,
                         reading=reading(text, echo))
    if odds and result.ok:
        from .quick_odds import check_odds
        battles = tuple(PlannedBattle(s, check_odds(s, game.ruleset.dice_sides,
                                                    exact=exact_odds))
                        for s in planned_battles(game, state, orders))
        from .board_check import board_battles_with_odds
        result = attrs.evolve(result, battles=battles,
                              board_battles=board_battles_with_odds(game, state, orders))
    return result


def reading(text: str, echo: dict[int, list[str]]) -> tuple[LineReading, ...]:
    """Each line that holds something (not blank, not only a comment), as written and as
    read (``parse_orders_partial``'s ``echo``)."""
    lines = text.lstrip("\ufeff").split("\n")
    return tuple(LineReading(n, shown_line(raw.rstrip("\r")), tuple(echo.get(n, ())))
                 for n, raw in enumerate(lines, start=1)
                 if raw.split("#", 1)[0].strip() or echo.get(n))


# Rules problems that a line which could not be read may cause on the lines that could:
# they are not reported when such a line was meant as that kind of order (the player sees
# the syntax error; "no infantry was bought" after an unreadable buy line would blame them
# for the parser's refusal).
FOLLOW_ONS: dict[str, frozenset[str]] = {
    "buy": frozenset({"not_bought", "all_placed"}),
    "place": frozenset({"units_not_placed", "all_placed"}),
    "move": frozenset({"units_not_there", "no_cargo_to_unload", "cargo_not_unloaded",
                       "no_transport_room", "directive_without_battle", "bombard_no_assault",
                       "bombard_ships_missing", "raid_bombers_missing", "air_no_landing",
                       "air_cannot_land_there", "carrier_duty_unmet"}),
}
FOLLOW_ONS["load"] = FOLLOW_ONS["unload"] = FOLLOW_ONS["move"]
FOLLOW_ONS["bomb"] = frozenset({"raid_bombers_missing"})
FOLLOW_ONS["bombard"] = frozenset({"bombard_ships_missing"})


def without_follow_ons(problems, failed: dict[int, str]) -> list[Problem]:
    """``problems`` less those that the unread lines in ``failed`` (line -> the kind of
    order it was meant as, see ``parse_orders_partial``) may have caused: a missing buy or
    placement anywhere, a missing move on the lines after it (or the turn as a whole)."""
    def caused(p: Problem) -> bool:
        return any(p.code in FOLLOW_ONS.get(kind, ()) and
                   (kind in ("buy", "place") or not p.line or p.line > line)
                   for line, kind in failed.items())
    return [p for p in problems if not caused(p)]


def first_error(result: CheckResult) -> str:
    """A one-line summary of why ``result`` is not ok (for logs)."""
    if result.syntax_errors:
        return str(result.syntax_errors[0]).splitlines()[0]
    for p in result.problems:
        if p.severity == "error":
            return f"line {p.line}: {p.code}"
    raise PbemError("the orders have no error")
