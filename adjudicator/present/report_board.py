"""The board picture of a turn: the position after it, with its moves, battles and captures
drawn on it, as a figure for the HTML report or a standalone SVG for the result mail."""

from __future__ import annotations

from collections.abc import Sequence

from ..model.events import Event, TurnStarted
from ..model.game import Game
from ..model.state import GameState
from .board_svg import BoardOptions, board_svg


# How much larger than its own units the zoomed board is drawn: unit counts (9 units high)
# become 13 px, labels 15 px or more.
ZOOM = 1.5


def board_figure(events: Sequence[Event], game: Game, state_after: GameState | None) -> str:
    """An HTML ``<figure>`` with the board after the turn, or "" when the edition has no
    geometry or the position after the turn is unknown.  The whole board fits the page; a
    tap or click (a checkbox, no script: it works where mail clients strip scripts) shows it
    at ``ZOOM`` times its own size in a box that pans, and another tap fits it again."""
    if game.geometry is None or state_after is None:
        return ""
    svg = board_svg(game, state_after, events, BoardOptions(title=_title(events, game), width="100%"))
    zoomed = round(game.geometry.width * ZOOM)
    return ('<input type="checkbox" id="board-zoom" class="zoom-toggle" '
            'aria-label="show the board at full size">'
            f'<label for="board-zoom" class="board" style="--zoomed:{zoomed}px">'
            f'<figure>{svg}</figure>'
            '<span class="hint">Tap or click the board to zoom in (then drag to pan); '
            'again to see all of it.</span></label>')


def board_after_turn(events: Sequence[Event], game: Game, state_after: GameState | None) -> str | None:
    """The board after the turn with its arrows, as a standalone SVG document (None when
    the edition has no geometry or the position is unknown): the picture mailed with a result."""
    if game.geometry is None or state_after is None:
        return None
    return board_svg(game, state_after, events, BoardOptions(title=_title(events, game)))


def _title(events: Sequence[Event], game: Game) -> str:
    started = next((ev for ev in events if isinstance(ev, TurnStarted)), None)
    title = game.ruleset.title or game.game_id
    if started is not None:
        power = game.ruleset.powers.get(started.power)
        name = power.name if power else started.power
        possessive = name + ("'" if name.endswith("s") else "'s")
        title += f": the board after {possessive} turn (round {started.round})"
    return title
