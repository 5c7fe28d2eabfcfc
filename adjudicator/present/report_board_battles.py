"""The report's board battles (Taktyczne Starcie): in the terminal and text report a panel
per battle replaying it move by move (``board_battle_replay``); in the HTML report, besides,
the battle drawn a frame per battle turn (``board_battle_svg.board_replay_svg``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from html import escape
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.padding import Padding
from rich.panel import Panel
from rich.text import Text

from ..model.game import Game
from .board_battle_replay import battle_title, board_battles, board_rules_of, replay_lines
from .board_battle_svg import board_replay_svg
from .report_board import ZOOM
from .wording import power_name

LINE_STYLES = {"title": "bold", "turn": "bold", "hit": "bold red", "miss": "dim",
               "mine": "magenta", "end": "bold"}
# Lines under a battle turn's heading are indented; the forces, plans and the end are not.
INDENTED = ("", "hit", "miss", "mine")


def board_battle_panels(console: Console, game: Game, events: Sequence[Any]) -> bool:
    """Print a panel per board battle of ``events``; False when there was none."""
    battles = board_battles(events)
    for battle in battles:
        console.print(board_battle_panel(game, battle))
    return bool(battles)


def board_battle_panel(game: Game, battle: Any) -> Panel:
    name = partial(power_name, game)
    lines = replay_lines(battle, board_rules_of(game), name)
    in_turn = False
    body = []
    for style, line in lines[1:]:
        in_turn = in_turn or style == "turn"
        if style == "end":
            in_turn = False
        text = Text(line, style=LINE_STYLES.get(style, ""))
        body.append(Padding(text, (0, 0, 0, 2)) if in_turn and style in INDENTED else text)
    return Panel(Group(*body), title=Text(lines[0][1], style="bold"), title_align="left",
                 box=box.ROUNDED)


def board_battle_figures(events: Sequence[Any], game: Game) -> str:
    """An HTML ``<figure>`` per board battle, its replay drawn frame by frame (a tap shows it
    at ``ZOOM`` times its own size, as the board's figure; 9-unit piece labels read at 13 px);
    "" without board battles or the board's rules."""
    rules = board_rules_of(game)
    if rules is None:
        return ""
    out = []
    for i, battle in enumerate(board_battles(events), 1):
        title = battle_title(battle, partial(power_name, game))
        svg = board_replay_svg(rules, battle.board_events, title)
        own = re.search(r'width="([0-9.]+)"', svg)
        zoomed = round(float(own.group(1)) * ZOOM) if own else 2000
        out.append(f'<input type="checkbox" id="board-battle-{i}" class="zoom-toggle" '
                   f'aria-label="show board battle {i} at full size">'
                   f'<label for="board-battle-{i}" class="board board-battle" style="--zoomed:{zoomed}px">'
                   f'<figure data-area="{escape(battle.area)}">{svg}</figure>'
                   '<span class="hint">The board battle, a picture per battle turn: tap or click '
                   'to zoom in; again to see all of it.</span></label>')
    return "\n".join(out)
