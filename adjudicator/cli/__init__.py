"""The ``pbem`` command line.  Every error a user can cause is printed as a message with a
non-zero exit status, never as a traceback."""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..model.errors import OrdersSyntaxError, PbemError

EXIT_OK, EXIT_REJECTED, EXIT_INPUT = 0, 1, 2


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False)


# -- helpers ----------------------------------------------------------------------------------

def _read_text(path: str, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PbemError(f"{what} {path} does not exist")
    except UnicodeDecodeError as err:
        raise PbemError(f"{what} {path} is not UTF-8 text (byte {err.start})")
    except OSError as err:
        raise PbemError(f"cannot read {what} {path}: {err.strerror}")


def _print_problems(console: Console, problems, path: str) -> None:
    for p in problems:
        colour = "red" if p.severity == "error" else "yellow"
        where = f"{path}:{p.line}: " if p.line else f"{path}: "
        console.print(f"[{colour}]{escape(where)}{p.severity}:[/] {escape(p.message)}",
                      markup=True, highlight=False, soft_wrap=True)


def _print_syntax_errors(console: Console, err: OrdersSyntaxError, path: str) -> int:
    """Every error of an orders file that does not parse, each with its line and column."""
    errors = getattr(err, "errors", None) or [err]
    for e in errors:
        console.print(f"[red]{escape(path)}: error:[/] {escape(str(e))}", markup=True,
                      highlight=False, soft_wrap=True)
    console.print(f"[red bold]{len(errors)} error(s)[/]: the orders would be rejected.")
    return EXIT_REJECTED


def _check_state(game, state, where: str) -> None:
    """Refuse a corrupt or hand-edited state before the engine trips over it."""
    from ..engine.state_check import state_problems
    problems = state_problems(game, state)
    if problems:
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise PbemError(f"{where}: the game state is corrupt: " + "; ".join(problems[:5]) + more)


def _check_report_path(path: str | None, force: bool) -> None:
    """Refuse a report path that cannot be written before anything is processed."""
    if not path:
        return
    p = Path(path)
    if p.suffix.lower() not in (".html", ".htm", ".txt"):
        raise PbemError(f"cannot tell the report format from {p.name!r}: use .txt or .html")
    if p.exists() and not force:
        raise PbemError(f"{p} already exists; pass --force to overwrite it")
    if not (p.parent if str(p.parent) else Path(".")).is_dir():
        raise PbemError(f"cannot write {p}: directory {p.parent} does not exist")


def _save_report(path: str, *args, overwrite: bool = False, **kwargs) -> None:
    """Write the report (format from the extension) atomically: never half-written."""
    from ..io.storage import write_atomic
    from ..present.report import report_document
    try:
        content = report_document(path, *args, **kwargs)
    except ValueError as err:
        raise PbemError(str(err)) from None
    write_atomic(Path(path), content.encode("utf-8"), overwrite=overwrite)


def _game_of(game_dir: str):
    """The game definition a game directory was created with (same data, same options)."""
    from ..service import gamedir
    from ..io.loader import load_game
    info, _ = gamedir.read_game(game_dir)
    game = load_game(info.ruleset, options=info.options)
    if info.map_hash != game.content_hash:
        raise PbemError(f"{game_dir}: the game was created with map data {info.map_hash}, "
                        f"but maps/{info.ruleset} now hashes to {game.content_hash}")
    return game


def _load_game_dir(game_dir: str):
    from ..service import gamedir
    game = _game_of(game_dir)
    state, _ = gamedir.current_state(game_dir)
    _check_state(game, state, game_dir)
    return game, state


def _read_bytes(path: str, what: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise PbemError(f"{what} {path} does not exist")
    except OSError as err:
        raise PbemError(f"cannot read {what} {path}: {err.strerror}")


# -- commands ---------------------------------------------------------------------------------

def cmd_new(args, console: Console) -> int:
    from ..service import gamedir
    from ..io.loader import load_game
    if not args.dir.strip():
        raise PbemError("give the directory for the new game, e.g. 'pbem new my-game'")
    game = load_game(args.map)
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
    path = gamedir.create_game(args.dir, game, game_id, gm_key_path=args.key,
                               created=_dt.date.today().isoformat(), players=players or None,
                               seeds=seeds)
    console.print(f"Created game [bold]{escape(game_id)}[/] ({game.ruleset.title}) in "
                  f"{escape(str(path))}")
    console.print(f"First to play: {game.ruleset.powers[game.ruleset.turn_order[0]].name}. "
                  "Check orders with [bold]pbem check ORDERS -g DIR[/].")
    return EXIT_OK


def cmd_show(args, console: Console) -> int:
    from ..present.board_view import render_board
    game, state = _load_game_dir(args.game)
    power = None
    if args.power:
        from ..io.names import Names
        power = Names(game).resolve_power(args.power)
    render_board(game, state, console, power=power)
    return EXIT_OK


def cmd_check(args, console: Console) -> int:
    from ..io.parser import parse_orders_partial
    from ..engine.turn import check
    game, state = _load_game_dir(args.game)
    text = _read_text(args.orders, "orders file")
    orders, syntax_errors = parse_orders_partial(text, game, power=state.power)
    # The rules are checked on every line that parsed, so all problems show at once.
    problems = check(game, state, orders)
    for e in syntax_errors:
        console.print(f"[red]{escape(args.orders)}: error:[/] {escape(str(e))}", markup=True,
                      highlight=False, soft_wrap=True)
    _print_problems(console, problems, args.orders)
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
    _check_report_path(args.report, args.force)
    game, state = _load_game_dir(args.game)
    data = _read_bytes(args.orders, "orders file")
    signature = _read_text(args.signature, "signature file") if args.signature else None
    seeds = gamedir.demo_seeds(state.game_id) if args.demo_seeds else None
    turn = gamedir.process_turn(args.game, game, data, gm_key=args.key, orders_signature=signature,
                                seeds=seeds)
    render_report(turn.events, game, console, state_before=state, state_after=turn.state)
    if args.report:
        _save_report(args.report, turn.events, game, state_before=state, state_after=turn.state,
                     overwrite=args.force)
        console.print(f"Report saved to {escape(args.report)}")
    return EXIT_OK


def cmd_report(args, console: Console) -> int:
    from ..service import gamedir
    from ..present.report import render_report
    from ..io.turnfile import read_turn_file
    _check_report_path(args.out, args.force)
    game = _game_of(args.game)
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
        _check_state(game, st, args.game)
    render_report(turn.events, game, console, state_before=before, state_after=turn.state)
    if args.out:
        _save_report(args.out, turn.events, game, state_before=before, state_after=turn.state,
                     overwrite=args.force)
    return EXIT_OK


def cmd_verify(args, console: Console) -> int:
    from ..service.audit import render_audit, verify_game
    from ..io.loader import load_game
    report = verify_game(args.game, load_game, expected_gm_key=args.gm_key)
    render_audit(report, console)
    return EXIT_OK if report.ok else EXIT_REJECTED


def cmd_keys_new(args, console: Console) -> int:
    from ..io.keys import fingerprint, new_keypair
    key = new_keypair(args.path, comment=args.comment or Path(args.path).name)
    console.print(f"Wrote {escape(args.path)} (private, keep it secret) and {escape(args.path)}.pub")
    console.print(f"Fingerprint: {fingerprint(key.public_key())}")
    return EXIT_OK


def cmd_odds(args, console: Console) -> int:
    from .planning import odds_command
    return odds_command(args, console)


def cmd_rules(args, console: Console) -> int:
    from ..io.loader import load_game
    game = load_game(args.map)
    console.print(f"[bold]{game.ruleset.title}[/] ({game.content_hash})")
    for name, value in sorted(game.ruleset.options.items()):
        console.print(f"  option {name} = {value}")
    for i, ruling in enumerate(game.ruleset.rulings, 1):
        console.print(f"  {i:2}. {ruling}")
    return EXIT_OK


def cmd_demo(args, console: Console) -> int:
    """Play the bundled example game into a fresh directory, printing every report."""
    from ..service import gamedir
    from ..io.loader import load_game
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
    game = load_game(args.map)
    seeds = gamedir.demo_seeds("aa1941-example")
    gamedir.create_game(out, game, "aa1941-example", gm_key_path=None,
                        created="2026-01-01", seeds=seeds)
    from ..io.parser import parse_orders
    from ..engine.turn import check
    for path in orders_files[: args.turns or None]:
        state, _ = gamedir.current_state(out)
        text = path.read_text(encoding="utf-8")
        problems = check(game, state, parse_orders(text, game, power=state.power))
        console.rule(f"[bold]{path.name}[/]: pbem check")
        _print_problems(console, problems, str(path))
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


# -- argument parsing -------------------------------------------------------------------------

def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pbem", description="Play-by-email adjudicator for "
                                     "Axis & Allies: text orders, verifiable dice, signed turn files.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def game_opt(p):
        p.add_argument("-g", "--game", default=".", help="game directory (default: .)")

    p = sub.add_parser("new", help="start a game in a new directory")
    p.add_argument("dir")
    p.add_argument("--map", default="aa1941", help="map/ruleset under maps/ (default aa1941)")
    p.add_argument("--id", help="game id (default: the directory name)")
    p.add_argument("--key", help="game master's ed25519 private key (default: generate one in DIR/.secret)")
    p.add_argument("--player", action="append", metavar="POWER=KEY.pub",
                   help="a player's ed25519 public key; that power's orders must then be signed "
                        "(ssh-keygen -Y sign -n pbem-orders -f KEY ORDERS)")
    p.add_argument("--demo-seeds", action="store_true",
                   help="derive seeds from the game id instead of the OS CSPRNG (demos/tests only: predictable)")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("show", help="show the board")
    game_opt(p)
    p.add_argument("--power", help="show only this power")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("check", help="check orders against the current position; changes nothing")
    p.add_argument("orders")
    game_opt(p)
    p.add_argument("--no-odds", action="store_true", help="do not compute battle odds")
    p.add_argument("--warn-below", type=float, default=0.5,
                   help="warn about attacks with a lower chance of success (default 0.5)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("process", help="adjudicate orders and write the signed turn file")
    p.add_argument("orders")
    game_opt(p)
    p.add_argument("--key", help="game master's private key (default: the game's .secret key)")
    p.add_argument("--signature", help="the player's SSHSIG signature of the orders file")
    p.add_argument("--report", help="also save the report (.txt or .html)")
    p.add_argument("--demo-seeds", action="store_true",
                   help="draw the next seed predictably (only for games created with --demo-seeds)")
    p.add_argument("--force", action="store_true", help="overwrite an existing report file")
    p.set_defaults(func=cmd_process)

    p = sub.add_parser("report", help="print the report of a processed turn")
    game_opt(p)
    p.add_argument("turn", nargs="?", type=int, help="turn number (default: the last)")
    p.add_argument("--out", help="save as .txt or .html")
    p.add_argument("--force", action="store_true")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("verify", help="audit a whole game: signatures, chain, seeds, dice, replay")
    p.add_argument("game", nargs="?", default=".")
    p.add_argument("--gm-key", help="the game master's public key you expect (file or OpenSSH line); "
                                    "without it any consistently re-signed game would pass")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("keys", help="key management")
    ksub = p.add_subparsers(dest="keys_command", required=True, metavar="ACTION")
    k = ksub.add_parser("new", help="create an ed25519 key pair (OpenSSH format)")
    k.add_argument("path")
    k.add_argument("--comment")
    k.set_defaults(func=cmd_keys_new)

    p = sub.add_parser("odds", help='exact battle odds: pbem odds "3 inf, 1 tank" vs "4 inf"')
    p.add_argument("attackers")
    p.add_argument("vs", choices=["vs"], metavar="vs")
    p.add_argument("defenders")
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--land", action="store_true", help="land battle (default)")
    kind.add_argument("--sea", action="store_true", help="sea battle")
    p.add_argument("--retreat", help='retreat condition, e.g. "attackers < 3" or "after round 2"')
    p.add_argument("--from-sea", metavar="UNITS",
                   help='amphibious assault: attackers landing from transports (they cannot retreat), e.g. "2 inf"')
    p.add_argument("--attacker-losses", metavar="TYPES", help='attacker loss order, e.g. "inf, tank, ftr"')
    p.add_argument("--defender-losses", metavar="TYPES", help="defender loss order")
    p.add_argument("--attacker-subs", choices=["fire", "submerge"], help="attacking submarines' choice")
    p.add_argument("--defender-submerge", choices=["never", "always", "losing"], default="losing",
                   help="defending submarines' policy (default: losing)")
    p.add_argument("--map", default="aa1941")
    p.add_argument("--monte-carlo", type=int, metavar="RUNS", help="also run RUNS seeded simulations")
    p.set_defaults(func=cmd_odds)

    p = sub.add_parser("rules", help="list rule options and the rulings recorded in the map data")
    p.add_argument("--map", default="aa1941")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("demo", help="play the bundled example game and print every report")
    p.add_argument("--example", help="example folder (default turns/aa1941-example)")
    p.add_argument("--out", help="where to write the game directory (default: a temp dir)")
    p.add_argument("--turns", type=_positive_int, help="stop after this many turns")
    p.add_argument("--map", default="aa1941")
    p.set_defaults(func=cmd_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    console = _console()
    try:
        return args.func(args, console)
    except PbemError as err:
        _error_console().print(f"[red bold]error:[/] {escape(str(err))}", markup=True)
        rejected = getattr(err, "problems", None) or isinstance(err, OrdersSyntaxError)
        return EXIT_REJECTED if rejected else EXIT_INPUT
    except KeyboardInterrupt:
        return 130
    except OSError as err:  # a path the user gave cannot be read or written
        if os.environ.get("PBEM_DEBUG"):
            raise
        where = f"{err.filename}: " if err.filename else ""
        _error_console().print(f"[red bold]error:[/] {escape(where + (err.strerror or str(err)))}",
                               markup=True)
        return EXIT_INPUT
    except Exception as err:  # a bug, not bad input: say so plainly
        if os.environ.get("PBEM_DEBUG"):
            raise
        _error_console().print(f"[red bold]internal error:[/] {escape(type(err).__name__)}: "
                               f"{escape(str(err))}\n"
                               "This is a bug in pbem. Run with PBEM_DEBUG=1 for details.")
        return 3


def _error_console() -> Console:
    """stderr, one message per line (long lines are not wrapped, so they stay greppable)."""
    return Console(stderr=True, highlight=False, soft_wrap=True)


if __name__ == "__main__":
    sys.exit(main())
