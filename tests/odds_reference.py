"""The tests' oracle for the numpy sweep: the state chain the sweep replaced for large
battles (now ``engine.combat.chain``, which ``battle_odds`` still uses for small ones)."""

from adjudicator.engine.combat.chain import chain_odds as reference_odds

__all__ = ["reference_odds"]
