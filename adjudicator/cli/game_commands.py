"""Commands on a game directory: new, show, check, process, report, verify, demo."""

from __future__ import annotations

import datetime as _dt
import tempfile
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..model.errors import PbemError
from .pictures import picture_options, wants_picture
from .signing import add_key_options, gm_signing_key
from .common import (
    ruleset_option, positive_int, EXIT_OK, EXIT_REJECTED, check_report_path, check_state, game_of, game_option, load_game_dir, print_problems, read_bytes, read_text, save_report,
)


def cmd_new(args, console: Console) -> int:
    from ..service import gamedir
    from ..service.games import load_game
    if not args.dir.strip():
        raise PbemError("give the directory for the new game, e.g. 'pbem new my-game'")
    game = load_game(args.ruleset)
    game_id = args.id if args.id is not None else Path(args.dir).resolve().name
    if not game_id.strip() or any(c.isspace() or not c.isprintable() for c in game_id):
        raise PbemError(f"the game id {game_id!r} must be a non-empty word without spaces (--id)")
    seeds = gamedir.demo_seeds(game_id) if args.demo_seeds else None
    players = {}
    for item in args.player or ():
        power, sep, key = item.partition("=")
        if not sep or not key:
            raise PbemError(f"--player wants POWER=PUBLIC_KEY_FILE, not {item!r}")
        from ..io.names import Names
        players[Names(game).resolve_power(power)] = key
    key = gm_signing_key(args.key, args) if args.key else None
    path = gamedir.create_game(args.dir, game, game_id, gm_key_path=key,
                               created=_dt.date.today().isoformat(), players=players or None,
                               seeds=seeds, gm_key_source=args.key)
    console.print(f"Created game [bold]{escape(game_id)}[/] ({game.ruleset.title}) in "
                  f"{escape(str(path))}")
    console.print(f"First to play: {game.ruleset.powers[game.ruleset.turn_order[0]].name}. "
                  "Check orders with [bold]pbem check ORDERS -g DIR[/].")
    return EXIT_OK


def cmd_show(args, console: Console) -> int:
    from ..present.board_view import render_board
    game, state = load_game_dir(args.game)
    if wants_picture(args):
        from .pictures import save_board
        from ..io import layout
        from ..io.turnfile import read_turn_file
        turns = layout.list_turns(args.game)
        events = read_turn_file(turns[-1][2])[0].events if turns and not args.no_events else ()
        save_board(console, args, game, state, events)
        return EXIT_OK
    power = None
    if args.power:
        from ..io.names import Names
        power = Names(game).resolve_power(args.power)
    render_board(game, state, console, power=power)
    return EXIT_OK


def cmd_check(args, console: Console) -> int:
    from ..io.parser import parse_orders_partial
    from ..engine import check
    game, state = load_game_dir(args.game)
    text = read_text(args.orders, "orders file")
    notes: list = []
    orders, syntax_errors = parse_orders_partial(text, game, power=state.power, notes=notes)
    # The rules are checked on every line that parsed, so all problems show at once.
    problems = check(game, state, orders)
    for note in notes:             # mail greetings, quotes, signatures skipped on purpose
        console.print(f"[yellow]{escape(args.orders)}:[/] {escape(str(note))}", markup=True,
                      highlight=False, soft_wrap=True)
    for e in syntax_errors:
        console.print(f"[red]{escape(args.orders)}: error:[/] {escape(str(e))}", markup=True,
                      highlight=False, soft_wrap=True)
    print_problems(console, problems, args.orders, game)
    errors = len(syntax_errors) + sum(p.severity == "error" for p in problems)
    if not errors and not args.no_odds:
        from .planning import render_planned_battles
        render_planned_battles(game, state, orders, console, threshold=args.warn_below)
    if errors:
        note = " (rules were checked on the lines that parsed)" if syntax_errors else ""
        console.print(f"[red bold]{errors} error(s)[/]: the orders would be rejected{note}.")
        return EXIT_REJECTED
    console.print(f"[green bold]OK[/]: orders for {game.ruleset.powers[state.power].name}, "
                  f"round {state.round}, are valid.")
    return EXIT_OK


def cmd_process(args, console: Console) -> int:
    from ..service import gamedir
    from ..present.report import render_report
    check_report_path(args.report, args.force)
    game, state = load_game_dir(args.game)
    data = read_bytes(args.orders, "orders file")
    signature = read_text(args.signature, "signature file") if args.signature else None
    seeds = gamedir.demo_seeds(state.game_id) if args.demo_seeds else None
    source = args.key or gamedir.gm_key_location(args.game)
    key = gm_signing_key(source, args) if source is not None else None
    turn = gamedir.process_turn(args.game, game, data, gm_key=key, orders_signature=signature,
                                seeds=seeds)
    render_report(turn.events, game, console, state_before=state, state_after=turn.state)
    if args.report:
        save_report(args.report, turn.events, game, state_before=state, state_after=turn.state,
                     overwrite=args.force)
        console.print(f"Report saved to {escape(args.report)}")
    return EXIT_OK


def cmd_report(args, console: Console) -> int:
    from ..service import gamedir
    from ..present.report import render_report
    from ..io.turnfile import read_turn_file
    check_report_path(args.out, args.force)
    game = game_of(args.game)
    from ..io import layout
    turns = layout.list_turns(args.game)
    if not turns:
        raise PbemError(f"{args.game}: no turn has been processed yet")
    numbers = [n for n, _, _ in turns]
    wanted = args.turn or numbers[-1]
    if wanted not in numbers:
        raise PbemError(f"{args.game}: no turn {wanted} (turns {numbers[0]}-{numbers[-1]} exist)")
    index = numbers.index(wanted)
    turn, _ = read_turn_file(turns[index][2])
    before = (read_turn_file(turns[index - 1][2])[0].state if index
              else gamedir.read_game(args.game)[0].initial_state)
    for st in (before, turn.state):
        check_state(game, st, args.game)
    render_report(turn.events, game, console, state_before=before, state_after=turn.state)
    if args.out:
        save_report(args.out, turn.events, game, state_before=before, state_after=turn.state,
                     overwrite=args.force)
    return EXIT_OK


def _game_to_verify(args) -> str:
    """The directory ``pbem verify`` audits: ``-g DIR`` or the positional (kept for
    compatibility), refused as a usage error when it is plainly not a game -- an audit
    that "FAILED" reads as evidence of cheating."""
    from ..io.layout import GAME_FILE, TURN_RE, TURNS_DIR
    if args.game and args.game_dir and Path(args.game).resolve() != Path(args.game_dir).resolve():
        raise PbemError(f"two games given ({args.game_dir} and -g {args.game}): give one")
    directory = args.game or args.game_dir or "."
    path = Path(directory)
    if not path.exists():
        raise PbemError(f"{directory} does not exist: give the game directory "
                        "(pbem verify -g DIR)")
    if not path.is_dir():
        raise PbemError(f"{directory} is not a directory: give the game directory "
                        "(pbem verify -g DIR), not a file in it")
    turns = path / TURNS_DIR
    published = turns.is_dir() and any(TURN_RE.match(p.name) for p in turns.iterdir())
    if not (path / GAME_FILE).exists() and not published:
        inside = sorted(p.parent for p in path.glob(f"*/{GAME_FILE}"))
        hint = f" (did you mean {inside[0]}?)" if inside else ""
        raise PbemError(f"{directory} is not a game directory (no {GAME_FILE}): give the "
                        f"directory 'pbem new' created (pbem verify -g DIR){hint}")
    return directory


def cmd_verify(args, console: Console) -> int:
    from ..service.audit import render_audit, verify_game
    from ..service.games import load_game
    from ..io.keys import load_public_key
    directory = _game_to_verify(args)
    expected = load_public_key(args.gm_key) if args.gm_key else None
    report = verify_game(directory, load_game, expected_gm_key=expected)
    render_audit(report, console)
    return EXIT_OK if report.ok else EXIT_REJECTED


def cmd_demo(args, console: Console) -> int:
    """Play the bundled example game into a fresh directory, printing every report."""
    from ..service import gamedir
    from ..service.games import load_game
    from ..io.paths import TURNS_DIR
    from ..present.report import render_report
    source = Path(args.example) if args.example else TURNS_DIR / "aa1941-example"
    orders_files = sorted((source / "orders").glob("*.txt"))
    if not orders_files:
        raise PbemError(f"no orders files in {source / 'orders'}")
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="pbem-demo-"))
    if out.exists() and not out.is_dir():
        raise PbemError(f"{out} is not a directory: give an empty or new directory with --out")
    if out.exists() and any(out.iterdir()):
        raise PbemError(f"{out} is not empty: give an empty or new directory with --out")
    game = load_game(args.ruleset)
    seeds = gamedir.demo_seeds("aa1941-example")
    gamedir.create_game(out, game, "aa1941-example", gm_key_path=None,
                        created="2026-01-01", seeds=seeds)
    from ..io.parser import parse_orders
    from ..engine import check
    for path in orders_files[: args.turns or None]:
        state, _ = gamedir.current_state(out)
        text = path.read_text(encoding="utf-8")
        problems = check(game, state, parse_orders(text, game, power=state.power))
        console.rule(f"[bold]{path.name}[/]: pbem check")
        print_problems(console, problems, str(path), game)
        if any(p.severity == "error" for p in problems):
            return EXIT_REJECTED
        console.print("[green]orders valid[/]")
        turn = gamedir.process_turn(out, game, path.read_bytes(), seeds=seeds)
        render_report(turn.events, game, console, state_before=state, state_after=turn.state)
    console.rule("[bold]pbem verify[/]")
    from ..service.audit import render_audit, verify_game
    report = verify_game(out, load_game)
    render_audit(report, console)
    console.print(f"Game directory: {escape(str(out))}")
    return EXIT_OK if report.ok else EXIT_REJECTED


def register(sub) -> None:
    p = sub.add_parser("new", help="start a game in a new directory")
    p.add_argument("dir")
    ruleset_option(p)
    p.add_argument("--id", help="game id (default: the directory name)")
    add_key_options(p, "game master's ed25519 key: a private key file, or a public key whose "
                       "private half is in ssh-agent (default: generate one in DIR/.secret)")
    p.add_argument("--player", action="append", metavar="POWER=KEY.pub",
                   help="a player's ed25519 public key; that power's orders must then be signed "
                        "(ssh-keygen -Y sign -n pbem-orders -f KEY ORDERS)")
    p.add_argument("--demo-seeds", action="store_true",
                   help="derive seeds from the game id instead of the OS CSPRNG (demos/tests only: predictable)")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("show", help="show the board (as tables, or as a picture with --svg/--png)")
    game_option(p)
    p.add_argument("--power", help="show only this power")
    picture_options(p)
    p.add_argument("--no-events", action="store_true",
                   help="picture without the last turn's moves, battles and captures")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("check", help="check orders against the current position; changes nothing")
    p.add_argument("orders")
    game_option(p)
    p.add_argument("--no-odds", action="store_true", help="do not compute battle odds")
    p.add_argument("--warn-below", type=float, default=0.5,
                   help="warn about attacks with a lower chance of success (default 0.5)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("process", help="adjudicate orders and write the signed turn file")
    p.add_argument("orders")
    game_option(p)
    add_key_options(p, "game master's key, as for 'pbem new' (default: the key the game was "
                       "created with)")
    p.add_argument("--signature", help="the player's SSHSIG signature of the orders file")
    p.add_argument("--report", help="also save the report (.txt or .html)")
    p.add_argument("--demo-seeds", action="store_true",
                   help="draw the next seed predictably (only for games created with --demo-seeds)")
    p.add_argument("--force", action="store_true", help="overwrite an existing report file")
    p.set_defaults(func=cmd_process)

    p = sub.add_parser("report", help="print the report of a processed turn")
    game_option(p)
    p.add_argument("turn", nargs="?", type=int, help="turn number (default: the last)")
    p.add_argument("--out", help="save as .txt or .html")
    p.add_argument("--force", action="store_true")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("verify", help="audit a whole game: signatures, chain, seeds, dice, replay")
    p.add_argument("game_dir", nargs="?", metavar="DIR", help="the game directory (same as -g)")
    p.add_argument("-g", "--game", help="game directory (default: .)")
    p.add_argument("--gm-key", help="the game master's public key you expect (file or OpenSSH line); "
                                    "without it any consistently re-signed game would pass")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("demo", help="play the bundled example game and print every report")
    p.add_argument("--example", help="example folder (default turns/aa1941-example)")
    p.add_argument("--out", help="where to write the game directory (default: a temp dir)")
    p.add_argument("--turns", type=positive_int, help="stop after this many turns")
    ruleset_option(p)
    p.set_defaults(func=cmd_demo)

