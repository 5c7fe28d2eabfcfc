"""The board battles a Taktyczne Starcie turn's orders would start, in words, for
``pbem check`` and its reply mails: where, who brings what to the board, both sides'
plans, and the odds, always labelled as the Monte Carlo estimate they are
(``wording.board_odds_text``)."""

from __future__ import annotations

from collections import Counter

from ..model.game import Game
from ..model.plan_text import plan_text
from ..model.tactical import ATTACKER, DEFENDER, BoardForce
from .wording import board_odds_text, power_name, unit_name, units_text


def force_text(game: Game, force: BoardForce) -> str:
    """``2 Tank IIs, 1 Anti-tank gun and 3 mines``."""
    text = units_text(game, dict(Counter(kind for _, kind in force.units)))
    if force.mines:
        text = (text + " and " if force.units else "") + f"{force.mines} mine{'s' * (force.mines != 1)}"
    return text


def board_battle_lines(game: Game, planned, threshold: float = 0.5) -> list[str]:
    """``planned``: ``service.board_check.PlannedBoardBattle`` values; a paragraph each and
    a warning when the attacker's estimated chance is below ``threshold``."""
    if not planned:
        return []
    lines = ["Board battles these orders start (each played as if the battles before it were "
             "won; odds estimated by playing it many times by both plans):"]
    for p in planned:
        battle, odds = p.battle, p.odds
        forces, plans = dict(battle.forces), dict(battle.plans)
        names = {ATTACKER: power_name(game, battle.attacker), DEFENDER: power_name(game, battle.defender)}
        name = lambda key: unit_name(game, key)  # noqa: E731
        lines.append(f"  {battle.area} ({battle.board} board): {names[ATTACKER]}'s "
                     f"{force_text(game, forces.get(ATTACKER, BoardForce()))} against "
                     f"{names[DEFENDER]}'s {force_text(game, forces.get(DEFENDER, BoardForce()))}")
        for side in (ATTACKER, DEFENDER):
            if side in plans:
                lines.append(f"    {names[side]}'s plan: {plan_text(plans[side], name)}")
        lines.append(f"    {board_odds_text(odds)}")
        if odds.wins[ATTACKER] < threshold:
            lines.append(f"    warning: the attack on {battle.area} succeeds only about "
                         f"{100 * odds.wins[ATTACKER]:.0f}% of the time (an estimate)")
    return lines
