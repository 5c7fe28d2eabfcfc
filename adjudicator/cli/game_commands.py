"""Commands on a game directory: new, show, check, process, report, demo."""

from __future__ import annotations

import datetime as _dt
import tempfile
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..io.limits import MAX_SIGNATURE_BYTES
from ..model.errors import PbemError
from .pictures import picture_options, wants_picture
from .signing import add_key_options, gm_signing_key
from .common import (
    DEFAULT_RULESET, ruleset_option, positive_int, EXIT_OK, EXIT_REJECTED, check_report_path, check_state, game_of, game_option, load_game_dir, print_problems, read_bytes, read_text, save_report,
)


def cmd_new(args, console: Console) -> int:
    from ..service import gamedir
    from ..service.games import load_game
    if not args.dir.strip():
        raise PbemError("give the directory for the new game, e.g. 'pbem new my-game'")
    game = load_game(args.ruleset, options=_rule_options(args.option or ()))
    game_id = args.id if args.id is not None else Path(args.dir).resolve().name
    if not game_id.strip() or any(c.isspace() or not c.isprintable() for c in game_id):
        raise PbemError(f"the game id {game_id!r} must be a non-empty word without spaces (--id)")
    seeds = gamedir.demo_seeds(game_id) if args.demo_seeds else None
    players = _player_options(game, args.player or (), args.email or ())
    key = gm_signing_key(args.key, args) if args.key else None
    path = gamedir.create_game(args.dir, game, game_id, gm_key_path=key,
                               created=_dt.date.today().isoformat(), players=players or None,
                               seeds=seeds, gm_key_source=args.key)
    console.print(f"Created game [bold]{escape(game_id)}[/] ({game.ruleset.title}) in "
                  f"{escape(str(path))}")
    console.print(f"First to play: {game.ruleset.powers[game.ruleset.turn_order[0]].name}. "
                  "Check orders with [bold]pbem check ORDERS -g DIR[/].")
    return EXIT_OK


def _rule_options(items) -> dict[str, bool | int | str] | None:
    """``--option NAME=VALUE`` items -> options (true/false -> bool, digits -> int)."""
    options: dict[str, bool | int | str] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        name, raw = name.strip(), raw.strip()
        if not sep or not name or not raw:
            raise PbemError(f"--option {item!r}: write NAME=VALUE, e.g. low_luck=true")
        low = raw.casefold()
        options[name] = (low == "true" if low in ("true", "false")
                         else int(raw) if raw.lstrip("-").isdigit() else raw)
    return options or None


def _player_options(game, player_items, email_items) -> dict[str, dict]:
    """``--player POWER=KEY.pub[,email=ADDR][,name=NAME]`` and ``--email POWER=ADDR`` ->
    power -> {"key", "email", "name"} (``gamedir.player_record`` checks the values)."""
    from ..io.names import Names
    names = Names(game)
    players: dict[str, dict] = {}
    for item in player_items:
        power, sep, rest = item.partition("=")
        if not sep or not rest:
            raise PbemError(f"--player wants POWER=KEY.pub[,email=ADDRESS][,name=NAME], not {item!r}")
        record = players.setdefault(names.resolve_power(power), {})
        for i, part in enumerate(rest.split(",")):
            field, is_field, value = part.partition("=")
            if is_field and field.strip() in ("key", "email", "name"):
                record[field.strip()] = value.strip()
            elif i == 0 and not is_field:
                record["key"] = part.strip()
            else:
                raise PbemError(f"--player {item!r}: {part!r} is not KEY.pub, email=ADDRESS "
                                "or name=NAME")
    for item in email_items:
        power, sep, address = item.partition("=")
        if not sep or not address:
            raise PbemError(f"--email wants POWER=ADDRESS, not {item!r}")
        players.setdefault(names.resolve_power(power), {})["email"] = address.strip()
    return players


def cmd_show(args, console: Console) -> int:
    from ..present.board_view import render_board
    game, state = load_game_dir(args.game, f"show -g {args.game}")
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
    from ..service.checking import check_orders
    game, state = load_game_dir(args.game, f"check {args.orders} -g {args.game}")
    text = read_text(args.orders, "orders file")
    notes: list = []
    # The rules are checked on every line that parsed, so all problems show at once.
    result = check_orders(game, state, text, odds=False, notes=notes)
    orders, syntax_errors, problems = result.orders, result.syntax_errors, result.problems
    for note in notes:             # mail greetings, quotes, signatures skipped on purpose
        console.print(f"[yellow]{escape(args.orders)}:[/] {escape(str(note))}", markup=True,
                      highlight=False, soft_wrap=True)
    for e in syntax_errors:
        console.print(f"[red]{escape(args.orders)}: error:[/] {escape(str(e))}", markup=True,
                      highlight=False, soft_wrap=True)
    print_problems(console, problems, args.orders, game)
    errors = len(syntax_errors) + sum(p.severity == "error" for p in problems)
    from ..service import gamedir
    header = gamedir.header_problem(gamedir.read_game(args.game)[0], state, text)
    if header:
        console.print(f"[red]{escape(args.orders)}: error:[/] {escape(header)}", soft_wrap=True)
        errors += 1
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
    game, state = load_game_dir(args.game, f"process {args.orders} -g {args.game}")
    data = read_bytes(args.orders, "orders file")
    signature = (read_text(args.signature, "signature file", MAX_SIGNATURE_BYTES)
                 if args.signature else None)
    seeds = gamedir.demo_seeds(state.game_id) if args.demo_seeds else None
    source = args.key or gamedir.gm_key_location(args.game)
    key = gm_signing_key(source, args) if source is not None else None
    try:
        turn = gamedir.process_turn(args.game, game, data, gm_key=key,
                                    orders_signature=signature, seeds=seeds)
    except gamedir.TurnAlreadyProcessed as done:
        console.print(f"[green]Nothing to do[/]: {escape(str(done))}")
        return EXIT_OK
    render_report(turn.events, game, console, state_before=state, state_after=turn.state)
    if args.report:
        save_report(args.report, turn.events, game, state_before=state, state_after=turn.state,
                     overwrite=args.force)
        console.print(f"Report saved to {escape(args.report)}")
    return EXIT_OK


def cmd_report(args, console: Console) -> int:
    from ..service import gamedir
    from ..present.report import render_report
    check_report_path(args.out, args.force)
    game = game_of(args.game, f"report -g {args.game}")
    from ..io import layout
    turns = layout.list_turns(args.game)
    if not turns:
        raise PbemError(f"{args.game}: no turn has been processed yet")
    numbers = [n for n, _, _ in turns]
    wanted = args.turn or numbers[-1]
    if wanted not in numbers:
        raise PbemError(f"{args.game}: no turn {wanted} (turns {numbers[0]}-{numbers[-1]} exist)")
    index = numbers.index(wanted)
    gf, _ = gamedir.read_game(args.game)
    turn = gamedir.read_turn(args.game, turns[index][2], gf)
    before = (gamedir.read_turn(args.game, turns[index - 1][2], gf).state if index
              else gf.initial_state)
    for st in (before, turn.state):
        check_state(game, st, args.game)
    render_report(turn.events, game, console, state_before=before, state_after=turn.state)
    if args.out:
        save_report(args.out, turn.events, game, state_before=before, state_after=turn.state,
                     overwrite=args.force)
    return EXIT_OK


def cmd_demo(args, console: Console) -> int:
    """Play a bundled example game into a fresh directory, printing every report."""
    from ..service import examples
    from ..service.games import load_game
    from ..present.report import render_report
    if args.example:
        chosen = examples.example(args.ruleset, args.example)
    else:
        chosen = examples.example(args.ruleset or DEFAULT_RULESET)
    chosen.orders_files()                      # no orders: say so before creating anything
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="pbem-demo-"))
    if out.exists() and not out.is_dir():
        raise PbemError(f"{out} is not a directory: give an empty or new directory with --out")
    if out.exists() and any(out.iterdir()):
        raise PbemError(f"{out} is not empty: give an empty or new directory with --out")
    game = load_game(chosen.ruleset)
    for played in examples.play(chosen, out, turns=args.turns):
        console.rule(f"[bold]{played.path.name}[/]: pbem check")
        print_problems(console, list(played.problems), str(played.path), game)
        if played.turn is None:
            return EXIT_REJECTED
        console.print("[green]orders valid[/]")
        render_report(played.turn.events, game, console, state_before=played.state_before,
                      state_after=played.turn.state)
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
    p.add_argument("--player", action="append", metavar="POWER=KEY.pub[,email=ADDR][,name=NAME]",
                   help="a player's ed25519 public key (and address, name); that power's orders "
                        "must then be signed (ssh-keygen -Y sign -n pbem-orders -f KEY ORDERS) "
                        "and carry 'game:' and 'turn:' header lines")
    p.add_argument("--email", action="append", metavar="POWER=ADDRESS",
                   help="a player's email address")
    p.add_argument("--demo-seeds", action="store_true",
                   help="derive seeds from the game id instead of the OS CSPRNG (demos/tests only: predictable)")
    p.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="set a rule option for this game, e.g. low_luck=true (Low Luck dice, "
                        "any edition) or an option of the edition ('pbem rules' lists them)")
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

    p = sub.add_parser("demo", help="play a bundled example game and print every report")
    p.add_argument("--ruleset", "--map", dest="ruleset", metavar="NAME",
                   help=f"play the example of this edition, turns/NAME-example "
                        f"(default {DEFAULT_RULESET}; with --example: the one its name says)")
    p.add_argument("--example", metavar="DIR",
                   help="an example folder of your own (orders/*.txt, played in name order)")
    p.add_argument("--out", help="where to write the game directory (default: a temp dir)")
    p.add_argument("--turns", type=positive_int, help="stop after this many turns")
    p.set_defaults(func=cmd_demo)

