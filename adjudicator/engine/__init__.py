"""The engine layer: the pure adjudication core.

``check(game, state, orders)`` lists every problem; ``adjudicate(game, state, orders,
dice)`` plays the turn; ``planned_battles`` gives the battles a set of orders would start
(for the odds).  The turn steps are in ``steps``, the battle engine in ``combat``, the
named abilities in ``abilities``."""

__all__ = ["OrdersRejected", "TurnResult", "adjudicate", "check", "planned_battles"]


def __getattr__(name: str):
    """The turn's entry points, imported on first use: importing ``engine.combat`` alone
    (the odds) does not load every turn step."""
    if name in __all__:
        from . import turn
        return getattr(turn, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
