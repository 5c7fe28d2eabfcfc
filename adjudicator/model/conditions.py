"""Conditions: one small declarative language for victory, objectives and restrictions.

A condition is a plain value (from the edition's TOML) evaluated by
``adjudicator.engine.conditions``.  Shapes (all keys lower case):

* ``{controls = <territories>, count = N, by = "side"|"power"}`` -- the subject controls at
  least ``count`` (default: all) of ``territories``: a list of territory names, or a tag
  (``"victory_cities"``, ``"capitals"``, ``"all_spaces"`` (every land and sea space), or any
  name in a territory's ``tags``).
* ``{all = [c1, c2, ...]}``, ``{any = [...]}``, ``{not = c}`` -- combinations.
* ``{round_at_least = N}`` -- the game has reached round ``N``.
* ``{state = "<key>"}`` -- an edition's persistent value ``key`` (``GameState.extras``,
  written by its rules) is set and true.

Territories are a list of names, a tag, or ``{original = <owner(s)>, without_tag = <tag>}``
(the land those owners' emblems mark: the owner at the start, or the tag
``original_owner:<key>``).  ``controls`` takes ``by = "side"|"power"|"other_side"|<owner>``.
The shapes below read the board (units, relations, per-power history) and hold for a power:

* ``{at_war_with = [powers] | "anyone", count = N}`` -- at war with ``count`` (default:
  all of the list, or 1 of "anyone") of them (``GameState.relations`` over the sides).
* ``{units = <territories>, owner = "power"|"friends"|"foes", types = [...],
  domain = "land"|"sea"|"air", count = N}`` -- at least ``count`` (default 1) such units
  there (cargo counted); ``friends`` are the other powers of the subject's side, ``foes``
  the powers of another side.  Absent units: ``{not = {units = ...}}``.
* ``{attacked = <territories>}`` -- the power has attacked one of them this game (rule
  ``attack_history``).
* ``{declared_unprovoked_on = [powers]}`` -- the power has made an unprovoked declaration
  of war on one of them (per-power state ``unprovoked_declarations``).

Once-only: an :class:`Objective` with ``once = true`` pays the first time its condition holds.

The subject (a side or a power) is given by the rule that holds the condition.
"""

from __future__ import annotations

from typing import Any

import attrs

from .reprs import attrs_repr

Condition = dict[str, Any]

CHECK_END_OF_ROUND = "end_of_round"


@attrs.frozen(repr=False)
class VictoryRule:
    """``side`` wins when ``condition`` holds at ``check``: ``"end_of_round"`` or
    ``"after:<power>"`` (the end of that power's turn).  ``held``, when given, must
    moreover have held for a complete round: at the end of every turn since the end of the
    same power's turn a round before (Global 1940's "for one complete round"; the engine
    keeps the count of turns in the state ``victory_held``)."""

    __repr__ = attrs_repr
    side: str
    check: str
    condition: Condition = attrs.field(eq=False, hash=False)
    name: str = "victory"
    held: Condition | None = attrs.field(default=None, eq=False, hash=False)

    def checked_after(self, power: str, last_in_round: bool) -> bool:
        if self.check == CHECK_END_OF_ROUND:
            return last_in_round
        return self.check == f"after:{power}"


@attrs.frozen(repr=False)
class Objective:
    """A national objective (Global 1940 [L451-L589]): ``power`` collects ``value`` IPCs
    (into ``economy``, default its first) in its Collect Income while ``condition`` holds;
    ``per_territory``: ``value`` for each territory the condition counted; ``once``: only
    the first time it holds in the game."""

    __repr__ = attrs_repr
    name: str
    power: str
    value: int
    condition: Condition = attrs.field(eq=False, hash=False)
    economy: str = ""
    per_territory: bool = False
    once: bool = False
