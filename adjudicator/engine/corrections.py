"""Apply a game master's correction (``model.corrections``) to the position: a pure
function of the state, the correction and the earlier positions, like a turn.

The corrected position counts as one power-turn played (its ``turn_number`` goes up by
one), so the correction has its own turn file in the hash chain; the power to move and
the round stay as they are, except after an ``undo``, which restores the whole position
before the turn it names (whose power then moves again).
"""

from __future__ import annotations

from typing import Callable

import attrs

from ..model.corrections import IPCS, OWNER, SET, UNDO, Correction, Edit
from ..model.errors import PbemError
from ..model.events import Corrected
from ..model.game import Game
from ..model.state import GameState, Unit
from .turn import TurnResult


class CorrectionRefused(PbemError):
    """The correction cannot be applied to this position (a name it does not have, a
    turn that was not played)."""


def apply_correction(game: Game, state: GameState, correction: Correction,
                     position_before: Callable[[int], GameState]) -> TurnResult:
    """The position after ``correction`` and one ``Corrected`` event per edit.
    ``position_before(n)``: the position in which turn ``n`` was played (an ``undo``)."""
    new, events = state, []
    for edit in correction.edits:
        new = _apply(game, new, state, edit, position_before)
        events.append(Corrected(edit, correction.reason))
    return TurnResult(attrs.evolve(new, turn_number=state.turn_number + 1), tuple(events))


def _apply(game: Game, new: GameState, state: GameState, edit: Edit,
           position_before: Callable[[int], GameState]) -> GameState:
    if edit.action == UNDO:
        if not 1 <= edit.turn < state.turn_number:
            raise CorrectionRefused(f"undo to turn {edit.turn}: the turns played are 1 to "
                                    f"{state.turn_number - 1}")
        return position_before(edit.turn)
    if edit.action == SET:
        _known(game, "space", edit.target, game.map.territories)
        units = dict(new.units)
        placed = []
        for owner, counts in sorted(edit.units.items()):
            _known(game, "power", owner, game.ruleset.powers)
            for unit, count in sorted(counts.items()):
                _known(game, "unit", unit, game.ruleset.units)
                placed.extend(Unit(unit, owner) for _ in range(count))
        if placed:
            units[edit.target] = tuple(placed)
        else:
            units.pop(edit.target, None)
        return attrs.evolve(new, units=units)
    if edit.action == IPCS:
        if edit.target not in new.ipcs:
            raise CorrectionRefused(f"ipcs {edit.target}: no such treasury (treasuries: "
                                    f"{', '.join(sorted(new.ipcs))})")
        return attrs.evolve(new, ipcs={**new.ipcs, edit.target: edit.amount})
    if edit.action == OWNER:
        territory = _known(game, "space", edit.target, game.map.territories)
        if not territory.is_land:
            raise CorrectionRefused(f"owner {edit.target}: a sea zone has no owner")
        owners = dict(new.owners)
        if edit.power:
            _known(game, "power", edit.power, game.ruleset.powers)
            owners[edit.target] = edit.power
        else:
            owners.pop(edit.target, None)
        return attrs.evolve(new, owners=owners)
    raise CorrectionRefused(f"unknown correction {edit.action!r}")


def _known(game: Game, kind: str, key: str, table: dict):
    if key not in table:
        raise CorrectionRefused(f"{key!r} is not a {kind} of {game.ruleset.title}")
    return table[key]
