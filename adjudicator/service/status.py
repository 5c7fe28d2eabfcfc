"""``pbem status``: whose turn it is, since when, and what the last turn did, read from a
game directory without loading the mail machinery or the engine."""

from __future__ import annotations

from pathlib import Path

import attrs

from ..io.layout import game_file_path, list_turns
from ..model.errors import StateFileError
from . import gamedir


@attrs.frozen
class Status:
    game_id: str
    turn_number: int            # the next turn's number
    round: int
    to_move: str                # power key
    since: float                # when the last turn (or the game) was published (mtime)
    winner: str | None
    last_turn: int | None
    last_power: str | None
    battles: int = 0
    battles_won: int = 0
    captured: tuple[str, ...] = ()
    correction: str | None = None   # the last turn is a game master's correction: its reason
    game_file: object = attrs.field(default=None, eq=False, repr=False)   # the GameFile read


def game_status(game_dir) -> Status:
    """The game's status; the last turn's events are read as plain data
    (``turnfile.read_turn_brief``: no event class is made)."""
    from ..io.turnfile import read_turn_brief
    game_dir = Path(game_dir)
    gf, _ = gamedir.read_game(game_dir)
    turns = list_turns(game_dir)
    if not turns:
        st = gf.initial_state
        return Status(gf.game_id, st.turn_number, st.round, st.power,
                      game_file_path(game_dir).stat().st_mtime, st.winner, None, None,
                      game_file=gf)
    n, power, path = turns[-1]
    tf, events = read_turn_brief(path)

    def texts(kind: str, field: str) -> list[str]:
        found = [e.get(field) for e in events if e["kind"] == kind]
        if not all(isinstance(x, str) for x in found):
            raise StateFileError(f"turn file {path}: a '{kind}' event's {field} is not a text")
        return found

    outcomes = texts("battle_ended", "outcome")
    return Status(gf.game_id, tf.state.turn_number, tf.state.round, tf.state.power,
                  path.stat().st_mtime, tf.state.winner, n, power, len(outcomes),
                  outcomes.count("attacker_wins"), tuple(texts("captured", "territory")),
                  next(iter(texts("corrected", "reason")), None), game_file=gf)
