"""The engine layer: the pure adjudication core.

``check(game, state, orders)`` lists every problem; ``adjudicate(game, state, orders,
dice)`` plays the turn; ``planned_battles`` gives the battles a set of orders would start
(for the odds).  The turn steps are in ``steps``, the battle engine in ``combat``, the
named abilities in ``abilities``."""

from .turn import OrdersRejected, TurnResult, adjudicate, check, planned_battles

__all__ = ["OrdersRejected", "TurnResult", "adjudicate", "check", "planned_battles"]
