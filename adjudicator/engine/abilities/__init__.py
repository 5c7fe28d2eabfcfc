"""Named abilities: one module per ability (or per small family of them), each registered
under the name ``units.toml`` uses.  Importing this package registers them all.  See
``base`` for the hooks through which the engine runs them."""

from . import (  # noqa: F401  (imported to register the abilities)
    aa_fire, battle_rules, bombard, factory, movement_rules, strategic_bomber, submarine,
    support,
)
from .base import Ability, check_unit, get, hooks, known, normalise_params, register

__all__ = ["Ability", "check_unit", "get", "hooks", "known", "normalise_params", "register"]
