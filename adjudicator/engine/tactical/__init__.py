"""Taktyczne Starcie's tactical battle board (issue 26): the board's geometry
(``geometry``), its rules (``battle.BoardBattle``) and the plan interpreter that plays a
battle by the sides' plans (``plan.fight``).  Pure: dice come from the caller."""

from .battle import Aim, BoardBattle
from .plan import PLAN_INTERPRETER_VERSION, deploy, fight, play_turn

__all__ = ["Aim", "BoardBattle", "PLAN_INTERPRETER_VERSION", "deploy", "fight", "play_turn"]
