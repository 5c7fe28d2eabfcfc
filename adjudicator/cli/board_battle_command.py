"""``pbem show --battle``: a board battle of a turn (Taktyczne Starcie), replayed in the
terminal move by move, or drawn with ``--svg``/``--png`` a picture per battle turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.errors import PbemError
from .common import EXIT_OK, chosen_turn
from .markup import escape

if TYPE_CHECKING:
    from rich.console import Console


def battle_options(p) -> None:
    p.add_argument("--battle", metavar="AREA",
                   help="a board battle of the turn (Taktyczne Starcie): the area it was fought in "
                        "(e.g. 34), or #N for the turn's N-th; replayed in the terminal, or drawn "
                        "with --svg/--png")
    p.add_argument("--turn", type=int, metavar="N",
                   help="with --battle: the turn it was fought in (default: the last)")


def show_board_battle(args, console: Console, game) -> int:
    from ..io.turnfile import read_turn_file
    from ..present.board_battle_replay import battle_title, board_rules_of, find_board_battle
    from ..present.report_board_battles import board_battle_panel
    from ..present.wording import power_name
    rules = board_rules_of(game)
    if rules is None:
        raise PbemError(f"{game.ruleset.title or game.game_id} fights no battles on a board: "
                        "--battle is for Taktyczne Starcie")
    if args.json:
        raise PbemError("--json prints the position; --battle replays a board battle: give one")
    turns, index = chosen_turn(args.game, args.turn)
    wanted = turns[index][0]
    events = read_turn_file(turns[index][2])[0].events
    try:
        battle = find_board_battle(events, args.battle)
    except LookupError as err:
        waiting = live_battle_waiting(turns[index][2], args.battle)
        if waiting is None:
            raise PbemError(f"{args.game}, turn {wanted}: {err}") from None
        return show_live_battle(args, console, game, rules, waiting)
    if not (args.svg or args.png):
        console.print(board_battle_panel(game, battle))
        return EXIT_OK
    title = f"{battle_title(battle, lambda key: power_name(game, key))} (turn {wanted})"
    return save_replay(args, console, rules, battle.board_events, title)


def save_replay(args, console: Console, rules, events, title: str) -> int:
    """The board battle's ``events`` drawn (``--svg``/``--png``), a frame per battle turn."""
    from ..io.storage import write_atomic
    from ..present.board_battle_svg import board_replay_svg
    from .pictures import picture_targets, to_png
    svg_path, png_path = picture_targets(args)
    svg = board_replay_svg(rules, events, title)
    png = to_png(svg) if png_path else None
    for path, data in ((svg_path, svg.encode("utf-8")), (png_path, png)):
        if path is not None:
            write_atomic(path, data, overwrite=True)
            console.print(f"Board battle saved to {escape(str(path))}")
    return EXIT_OK


def live_battle_waiting(path, area: str):
    """The live board battle (``LiveBattle``) in ``area`` that the turn file at ``path``
    left waiting for its next battle turn, with the attacker's battle turn that waits for
    the defender's mine openings (the state ``ts_mine_openings``, else ``{}``); or None."""
    from ..engine.taktyczne.live import LiveStateError, from_plain
    from ..engine.taktyczne.live_turn import LIVE_BATTLE, OPENINGS
    from ..io.turnfile import read_turn_file
    extras = read_turn_file(path)[0].state.extras
    kept = extras.get(LIVE_BATTLE)
    if not kept:
        return None
    try:
        battle = from_plain(kept.get("battle"))
    except LiveStateError as err:
        raise PbemError(f"{path}: {err}") from None
    if battle.area.casefold() != area.strip().casefold():
        return None
    openings = extras.get(OPENINGS)
    return battle, openings if isinstance(openings, dict) else {}


def show_live_battle(args, console: Console, game, rules, waiting) -> int:
    """A live battle waiting for a battle turn (or for the mine openings an attacker's
    battle turn needs): the board now in the terminal, or the battle so far drawn with
    ``--svg``/``--png``."""
    from ..present.live_battle_view import live_battle_text
    from ..present.wording import power_name
    battle, openings = waiting
    if not (args.svg or args.png):
        console.print(escape(live_battle_text(rules, battle, lambda key: power_name(game, key),
                                              openings)),
                      highlight=False, soft_wrap=True)
        return EXIT_OK
    title = (f"{power_name(game, battle.attacker)} attacks {power_name(game, battle.defender)} "
             f"in {battle.area}: the live battle so far")
    return save_replay(args, console, rules, battle.events, title)
