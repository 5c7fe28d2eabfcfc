"""PBEM adjudicator for Axis & Allies-family games.

The core (``rules``, ``board``, ``state``, ``orders``, ``combat``, ``turn``) is pure:
``adjudicate(state, orders, dice) -> (new_state, events)``.  Files, signing, the report
and the CLI sit around it.
"""

__version__ = "0.2.0"
# The adjudication version: changes only when adjudication output (dice use, events, states)
# changes, so a game can be replayed by every release with the same ENGINE_VERSION.
ENGINE_VERSION = "2"

__all__ = ["adjudicate", "__version__", "ENGINE_VERSION"]


def __getattr__(name: str):
    """``from adjudicator import adjudicate``: the engine's typed public entry point, imported
    only when asked for (``pbem --version`` stays light)."""
    if name == "adjudicate":
        from .engine.turn import adjudicate
        return adjudicate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
