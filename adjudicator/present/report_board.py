"""The board picture inside the HTML report: the position after the turn, with the turn's
moves, battles and captures drawn on it."""

from __future__ import annotations

from collections.abc import Sequence

from ..model.events import Event, TurnStarted
from ..model.game import Game
from ..model.state import GameState
from .board_svg import BoardOptions, board_svg


def board_figure(events: Sequence[Event], game: Game, state_after: GameState | None) -> str:
    """An HTML ``<figure>`` with the board after the turn, or "" when the edition has no
    geometry or the position after the turn is unknown."""
    if game.geometry is None or state_after is None:
        return ""
    started = next((ev for ev in events if isinstance(ev, TurnStarted)), None)
    title = game.ruleset.title or game.game_id
    if started is not None:
        power = game.ruleset.powers.get(started.power)
        name = power.name if power else started.power
        possessive = name + ("'" if name.endswith("s") else "'s")
        title += f": the board after {possessive} turn (round {started.round})"
    svg = board_svg(game, state_after, events, BoardOptions(title=title, width="100%"))
    return f'<figure style="margin:0 0 1.5em 0;max-width:2000px">{svg}</figure>'


def with_board(html: str, events: Sequence[Event], game: Game, state_after: GameState | None) -> str:
    """``html`` (a whole page) with the board figure placed at the top of its body."""
    figure = board_figure(events, game, state_after)
    if not figure or "<body>" not in html:
        return html
    return html.replace("<body>", "<body>\n" + figure, 1)
