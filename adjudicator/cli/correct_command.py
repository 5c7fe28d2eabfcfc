"""``pbem correct``: the game master's fix for a mistaken turn, published as a signed
correction turn that ``pbem verify`` replays and shows with its reason
(``service.corrections``; the text format: ``io.corrections``)."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from ..model.errors import PbemError
from .common import EXIT_OK, game_option, load_game_dir
from .signing import add_key_options, gm_signing_key


def cmd_correct(args, console: Console) -> int:
    from ..io.corrections import correction_text
    from ..present.report import render_report
    from ..service import gamedir
    from ..service.corrections import correct_game

    game, state = load_game_dir(args.game, f"correct -g {args.game} ...")
    edits = []
    if args.undo_last:
        if state.turn_number <= 1:
            raise PbemError("--undo-last: no turn has been played yet")
        edits.append(f"undo to turn {state.turn_number - 1}")
    if args.undo_to is not None:
        edits.append(f"undo to turn {args.undo_to}")
    edits += [f"set {text}" for text in args.set or ()]
    edits += [f"ipcs {text}" for text in args.ipcs or ()]
    edits += [f"owner {text}" for text in args.owner or ()]
    if not edits:
        raise PbemError("say what to correct: --undo-last, --undo-to N, --set 'SPACE: N POWER "
                        "UNIT, ...', --ipcs 'POWER N' or --owner 'TERRITORY POWER'")
    if not args.reason.strip():
        raise PbemError("--reason must say why the game is corrected (players see it)")
    text = correction_text(state.game_id, state.turn_number, edits, args.reason)
    source = args.key or gamedir.gm_key_location(args.game)
    key = gm_signing_key(source, args) if source is not None else None
    seeds = gamedir.demo_seeds(state.game_id) if args.demo_seeds else None
    turn = correct_game(args.game, game, text, gm_key=key, seeds=seeds)
    render_report(turn.events, game, console, state_before=state, state_after=turn.state)
    console.print(f"Published the correction as turn {turn.turn_number} "
                  f"(turns/{turn.turn_number:04d}-{escape(turn.power)}.json); 'pbem verify' "
                  "shows it with its reason.", soft_wrap=True, highlight=False)
    console.print(escape(_mail_it(args.game, turn.turn_number)), soft_wrap=True,
                  highlight=False)
    return EXIT_OK


def _mail_it(game_dir: str, turn_number: int) -> str:
    """Mail the correction like a turn when the game has mail settings; what was done."""
    from pathlib import Path

    from ..service.mail.config import CONFIG_FILE, load_config
    from ..service.mail.runner import GameMaster
    from .mail_command import mail_renderers

    if not (Path(game_dir) / CONFIG_FILE).exists():
        return ("Send the new turn file, its signature and orders file to every player "
                "like any turn (no mail.toml here).")
    result = GameMaster(game_dir, load_config(game_dir), renderers=mail_renderers()
                        ).mail_turn(turn_number)
    if result.failed:
        return (f"Mailed to the players' outbox; {len(result.failed)} not sent yet (the next "
                "'pbem mail run' retries).")
    return "Mailed to every player with the turn's files, like any turn."


def register(sub) -> None:
    p = sub.add_parser("correct", help="game master: correct a mistaken turn with a signed "
                                       "correction turn (undo, set units, IPCs, owners)")
    game_option(p)
    p.add_argument("--undo-last", action="store_true",
                   help="restore the position before the last turn (that power moves again)")
    p.add_argument("--undo-to", type=int, metavar="N",
                   help="restore the position before turn N")
    p.add_argument("--set", action="append", metavar="'SPACE: N POWER UNIT, ...'",
                   help="set the units in a space ('empty' clears it); repeatable")
    p.add_argument("--ipcs", action="append", metavar="'POWER N'",
                   help="set a power's IPCs; repeatable")
    p.add_argument("--owner", action="append", metavar="'TERRITORY POWER'",
                   help="set who controls a territory ('neutral': nobody); repeatable")
    p.add_argument("--reason", required=True,
                   help="why: published in the correction turn, shown by report and verify")
    p.add_argument("--demo-seeds", action="store_true",
                   help="draw the next seed predictably (only for games created with --demo-seeds)")
    add_key_options(p, "the game master's key (default: the key the game was created with)")
    p.set_defaults(func=cmd_correct)
