"""Battle steps: the pluggable parts of a combat round.

An edition's ``battle_stages`` (``TurnPlan``) lists the stages of a round; each stage is a
group of steps that fire together (both sides' dice are drawn from the state at the start
of the stage, so units hit in a stage still fire in it), and casualties are removed at
the end of the stage.  A step is a :class:`BattleStep` registered under its name: the
ordinary fire (``main_fire``) lives in ``combat.steps``; steps that come with an ability
(``surprise_strike``, ``aa_fire``, ``bombardment``) live in that ability's module.
"""

from __future__ import annotations

from typing import ClassVar

from .model import Side, SideSummary, Volley

_STEPS: dict[str, "BattleStep"] = {}


class BattleStep:
    """One kind of fire in a combat round.

    ``first_round_only``: the step fires only in round 1 (AA fire, bombardment).
    ``volleys`` returns the volleys of one side; ``claims`` says whether a slot fires in
    this step *instead of* the ordinary fire of the same round: from the slot and the
    enemy alone (the answer is kept per side and enemy, ``steps.claimed_slots``)."""

    name: ClassVar[str] = ""
    first_round_only: ClassVar[bool] = False

    def volleys(self, board, side_idx: int, side: Side, summ: SideSummary,
                enemy: SideSummary) -> list[Volley]:
        return []

    def claims(self, board, slot, side_idx: int, enemy: SideSummary) -> bool:
        return False

    def may_fire(self, board) -> bool:
        """False when the step fires no die in this battle whatever its states (surprise
        strikes on land): the exact odds then skip its stage."""
        return True


def register_step(cls: type[BattleStep]) -> type[BattleStep]:
    _STEPS[cls.name] = cls()
    return cls


def get_step(name: str) -> BattleStep:
    return _STEPS[name]


def known_steps() -> list[str]:
    return sorted(_STEPS)


# Decisions made at the start of a round, before any die (e.g. submarines submerging):
# ``(ability name, decide(board, state) -> (state, changes), may_act)``, run when a unit with
# that ability is in the battle.  ``may_act(board, att_traits, def_traits)`` (optional) is
# False when the decision certainly changes nothing for sides with those traits
# (``rules.SideTraits``); the decision must use it for its own preconditions.
_ROUND_DECISIONS: list[tuple[str, object, object]] = []


def register_round_decision(ability: str, may_act=None):
    def wrap(fn):
        _ROUND_DECISIONS.append((ability, fn, may_act))
        return fn
    return wrap


def round_decisions(board) -> list:
    """``[(decide, may_act), ...]`` for the abilities present in this battle."""
    found = board._decisions
    if found is None:
        present = {t for side in board.slots for s in side for t in s.tags}
        found = board._decisions = [(fn, may_act) for ability, fn, may_act in _ROUND_DECISIONS
                                    if ability in present]
    return found
