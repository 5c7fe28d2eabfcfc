"""The battle engine: one battle, round by round (rules digests §5.3).  Pure: no I/O, no
randomness of its own (dice come from an injected ``DiceSource``).

* ``model``: the values (``BattleSetup``, ``BattleState``, ``BattleResult``...);
* ``board``: slots of interchangeable units, target classes, per-battle caches;
* ``stepbase``/``steps``: the pluggable battle steps an edition's stages list (ordinary
  fire here; surprise strike, AA fire, bombardment come with their abilities);
* ``casualties``: who takes the hits; ``rules``: when a battle ends, retreats;
* ``driver``: fights a battle with dice; ``odds``: the exact outcome distribution, from
  the same functions.
"""

from ..abilities import aa_fire, bombard, submarine  # noqa: F401  (register their battle steps)
from .board import AIMED, NO_AIR, NO_ANS, ONLY_AIR, Board, Slot
from .casualties import apply_hits, apply_side_hits, hits_by_class
from .driver import resolve_battle, run_battle
from .model import (
    ATT, DEF, HARD_ROUND_CAP, OUTCOMES, SIDE_NAMES, BattleResult, BattleSetup, BattleState,
    BattleUnit, Change, Side, SideSummary, Volley,
)
from .rules import decide_before_round, end_of_round, settle
from .steps import all_volleys, stage_volleys

__all__ = [
    "AIMED", "NO_AIR", "NO_ANS", "ONLY_AIR", "Board", "Slot", "apply_hits", "apply_side_hits",
    "hits_by_class", "resolve_battle", "run_battle", "ATT", "DEF", "HARD_ROUND_CAP",
    "OUTCOMES", "SIDE_NAMES", "BattleResult", "BattleSetup", "BattleState", "BattleUnit",
    "Change", "Side", "SideSummary", "Volley", "decide_before_round", "end_of_round", "settle",
    "all_volleys", "stage_volleys",
]
