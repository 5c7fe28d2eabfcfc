"""PBEM adjudicator for Axis & Allies-family games.

The core (``rules``, ``board``, ``state``, ``orders``, ``combat``, ``turn``) is pure:
``adjudicate(state, orders, dice) -> (new_state, events)``.  Files, signing, the report
and the CLI sit around it.
"""

__version__ = "0.1.0"
