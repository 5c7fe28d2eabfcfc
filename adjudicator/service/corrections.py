"""Game master corrections: the fix for a mistaken turn, published as a signed turn of the
hash chain (``io.corrections`` for its text, ``engine.corrections`` for its effect).

``correct_game`` publishes one exactly as ``pbem process`` publishes a turn (same lock,
same verification first, same crash-safe publication, the game master's seed revealed
and the next one committed); only the parser, the canonical form and the adjudication
differ, and ``correction_rules.rules_for`` gives the audit the same three so that ``pbem verify``
replays a correction and checks its effect byte for byte like any turn.  Only a game
master corrects: a correction is unsigned by any player, and the audit refuses one in a
turn kept by a player (``audit._check_orders``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from ..io.corrections import is_correction_statement, parse_correction
from ..io.layout import list_turns
from ..io.turnfile import GAME_MASTER, TurnFile, keeper_of
from ..model.errors import PbemError
from ..model.state import GameState
from .correction_rules import rules_for


def positions_in(directory, gf) -> Callable[[int], GameState]:
    """``position_before(n)`` read from the published (signed) turn files of a game."""
    from .gamedir import read_turn

    def position_before(number: int) -> GameState:
        state = gf.initial_state
        for found, _power, path in list_turns(directory):
            if found >= number:
                break
            state = read_turn(directory, path, gf).state
        return state
    return position_before


def correct_game(directory, game, text: str, gm_key=None, seeds=None) -> TurnFile:
    """Publish the correction ``text`` as the next turn, signed with the game master's
    key (``gm_key`` and ``seeds``: as for ``gamedir.process_turn``)."""
    from ..engine.turn import adjudicate
    from ..io.parser import format_orders, parse_orders
    from . import gamedir

    directory = Path(directory)
    if not is_correction_statement(text):
        raise PbemError("not a correction: its first line must be 'correction: ...'")
    parse_correction(text, game)              # a malformed correction says so first
    gf, _ = gamedir.read_game(directory)
    state, _last = gamedir.current_state(directory)
    if keeper_of(gf, state.power) != GAME_MASTER:
        raise PbemError("only a game master corrects a game: this turn is kept by "
                        f"{keeper_of(gf, state.power)}, a player (a game with dice keepers "
                        "and no game master cannot be corrected)")
    parse, canonical, apply = rules_for(parse_orders, format_orders, adjudicate,
                                        positions_in(directory, gf))
    return gamedir.process_turn(directory, game, text, parse=parse, canonical=canonical,
                                adjudicate=apply, gm_key=gm_key, seeds=seeds)
