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
    awaiting: tuple[str, dict] | None = None    # a paused turn waits for this (``awaiting``)
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
    awaited = awaiting(tf.state.extras)
    return Status(gf.game_id, tf.state.turn_number, tf.state.round, tf.state.power,
                  path.stat().st_mtime, tf.state.winner, n, power, len(outcomes),
                  outcomes.count("attacker_wins"), tuple(texts("captured", "territory")),
                  next(iter(texts("corrected", "reason")), None), awaited, game_file=gf)


# The states a paused turn keeps (Taktyczne Starcie: engine/taktyczne/live_turn.py and
# mines.py), read here as plain data so ``status`` loads no engine.
_OPENINGS, _REVEAL, _LIVE = "ts_mine_openings", "ts_mine_reveal", "live_battle"


def awaiting(extras) -> tuple[str, dict] | None:
    """What a paused turn waits for, from its state: ``(what, values)``, ``what`` one of
    ``mine_openings`` (an attacker's written battle turn waits for the owner of sealed mines
    to open the squares it enters), ``mine_leaves`` / ``mine_reveal`` (a battle waits for a
    sealed layout's leaves or its reveal), ``battle_turn`` (a live battle's next battle
    turn); None when nothing is awaited beyond a turn's orders."""
    def plain(key: str) -> dict:
        found = extras.get(key)
        return found if isinstance(found, dict) else {}

    found = plain(_LIVE).get("battle")
    battle: dict = found if isinstance(found, dict) else {}
    position: dict = battle["position"] if isinstance(battle.get("position"), dict) else {}
    turn = position.get("turn", 0) + 1 if isinstance(position.get("turn", 0), int) else 0
    opening, reveal = plain(_OPENINGS), plain(_REVEAL)
    if opening:
        return "mine_openings", {"power": str(opening.get("power", "")),
                                 "attacker": str(opening.get("attacker", "")),
                                 "area": str(battle.get("area", "")), "turn": turn,
                                 "squares": [str(s) for s in opening.get("squares", [])]}
    if reveal:
        return ("mine_leaves" if reveal.get("leaves") else "mine_reveal",
                {"power": str(reveal.get("power", "")), "area": str(reveal.get("area", ""))})
    if battle:
        return "battle_turn", {"area": str(battle.get("area", "")), "turn": turn}
    return None
