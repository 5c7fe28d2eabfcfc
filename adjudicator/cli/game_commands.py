"""Commands on a game directory: new, show, check, process, report, demo."""

from __future__ import annotations

import datetime as _dt
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from ..io.limits import MAX_SIGNATURE_BYTES
from ..model.errors import PbemError
from .markup import escape
from .pictures import picture_options, wants_picture
from .signing import add_key_options, gm_signing_key
from .common import (
    DEFAULT_RULESET, ruleset_option, positive_int, EXIT_OK, EXIT_REJECTED, check_report_path, check_state, game_of, game_option, load_game_dir, print_problems, read_bytes, read_text, save_report,
    orders_argument, percentage, source_name, chosen_turn,
)

if TYPE_CHECKING:
    from rich.console import Console


def cmd_new(args, console: Console) -> int:
    from ..service import gamedir
    from ..service.games import load_game
    if not args.dir.strip():
        raise PbemError("give the directory for the new game, e.g. 'pbem new my-game'")
    game_id = args.id if args.id is not None else Path(args.dir).resolve().name
    if not game_id.strip() or any(c.isspace() or not c.isprintable() for c in game_id):
        raise PbemError(f"the game id {game_id!r} must be a non-empty word without spaces (--id)")
    imported = None
    if args.from_triplea:
        from ..service.triplea_import import from_triplea
        imported = from_triplea(args.from_triplea, game_id,
                                None if args.ruleset == DEFAULT_RULESET else args.ruleset)
        args.ruleset, game = imported.ruleset, imported.game
    else:
        game = load_game(args.ruleset)
    if args.option:
        game = _with_options(args.ruleset, game, args.option)
    seeds = gamedir.demo_seeds(game_id) if args.demo_seeds else None
    from .keeper_command import keeper_new_arguments
    bare = [e for e in args.email or () if "=" not in e and "@" in e]
    players = _player_options(game, args.player or (), [e for e in args.email or ()
                                                        if e not in bare])
    key = gm_signing_key(args.key, args) if args.key else None
    keeping = keeper_new_arguments(args, game, players, key, bare[0] if bare else None)
    if players and not keeping and not args.unsigned_orders:
        _require_signed_orders(game, players)
    path = gamedir.create_game(args.dir, game, game_id, gm_key_path=key,
                               created=_dt.date.today().isoformat(), players=players or None,
                               seeds=seeds, gm_key_source=args.key,
                               initial=imported.initial if imported else None, **keeping)
    console.print(f"Created game [bold]{escape(game_id)}[/] ({game.ruleset.title}) in "
                  f"{escape(str(path))}")
    if imported:
        _report_import(console, imported)
    for line in _profile_lines(game):
        console.print(escape(line), soft_wrap=True, highlight=False)
    if keeping.get("host"):
        console.print("No game master: each turn is processed by the dice keeper of the power "
                      "that moved (pbem keeper status).", soft_wrap=True, highlight=False)
    from .next_steps import after_new
    for line in after_new(args.dir, gamedir.read_game(args.dir)[0], game):
        console.print(escape(line), soft_wrap=True, highlight=False)
    return EXIT_OK


def _report_import(console: Console, imported) -> None:
    """Where the position came from, and every rule of the TripleA file not carried."""
    console.print(f"From the TripleA game {escape(imported.title or '?')}: its owners, units "
                  f"and IPCs on the {escape(imported.game.ruleset.title)} map "
                  f"({imported.matched} of its {imported.territories} territories).",
                  soft_wrap=True, highlight=False)
    if imported.not_carried:
        console.print(f"Not carried ({len(imported.not_carried)}):", highlight=False)
        for line in imported.not_carried:
            console.print(f"  - {escape(line)}", soft_wrap=True, highlight=False)


def _profile_lines(game) -> list[str]:
    """Which unit-stat profile the game plays with, when the edition has more than one."""
    profiles = game.ruleset.stat_profiles
    chosen = game.ruleset.option("unit_stats")
    if len(profiles) < 2 or chosen not in profiles:
        return []
    others = [p for p in profiles if p != chosen]
    return [f"Unit stats: {chosen} ({profiles[chosen].rstrip('.')}). The other profile"
            f"{'s' if len(others) > 1 else ''}: {', '.join(others)}, chosen when the game is "
            f"created with --option unit_stats={others[0]}."]


def _require_signed_orders(game, players: dict) -> None:
    """A game master's game with registered players wants every power's orders signed:
    unsigned orders count on the game master's word, who could reorder their independent
    lines to pick other dice (docs/threat-model.md).  The players may opt out."""
    keyless = [game.ruleset.powers[p].name for p in dict.fromkeys(game.ruleset.turn_order)
               if not (players.get(p) or {}).get("key")]
    if keyless:
        raise PbemError(
            f"{', '.join(keyless)} would have no player key: their unsigned orders would count "
            "on the game master's word, who could reorder independent lines to pick other "
            "dice. Give each player's key (--player POWER=KEY.pub,email=ADDRESS), play with "
            "dice keepers, or, if the players agree to that risk, add --unsigned-orders")


_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def _with_options(ruleset: str, game, items):
    """The game with ``--option NAME=VALUE`` items set, each checked against the edition's
    options (``pbem rules`` lists them) and typed like its default."""
    from ..model.errors import DataError
    from ..model.rules import ENGINE_OPTIONS
    from ..service.games import load_game
    defaults = {**ENGINE_OPTIONS, **game.ruleset.options}
    known = ", ".join(f"{k} (default {str(v).lower() if isinstance(v, bool) else v})"
                      for k, v in sorted(defaults.items())) or "none"
    chosen: dict = {}
    for item in items:
        name, sep, raw = (part.strip() for part in item.partition("="))
        if not sep or not name or not raw:
            raise PbemError(f"--option wants NAME=VALUE, e.g. turkish_straits=false, not {item!r}")
        if name not in defaults:
            raise PbemError(f"--option {name}: {game.ruleset.title} has no option {name!r}; "
                            f"its options: {known} (pbem rules --ruleset {ruleset})")
        default = defaults[name]
        if isinstance(default, bool):
            if raw.casefold() not in _TRUE + _FALSE:
                raise PbemError(f"--option {name}={raw}: give true or false")
            value = raw.casefold() in _TRUE
        elif isinstance(default, int):
            try:
                value = int(raw)
            except ValueError:
                raise PbemError(f"--option {name}={raw}: give a whole number") from None
        else:
            value = raw
        chosen[name] = value
    try:
        return load_game(ruleset, options={**game.ruleset.options, **chosen})
    except DataError as err:          # e.g. a value the edition's data does not know
        detail = str(err).splitlines()[-1].strip(" -")
        raise PbemError(f"--option: {detail}") from None


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
    if args.battle:
        from .board_battle_command import show_board_battle
        return show_board_battle(args, console, game)
    if args.turn is not None:
        raise PbemError("--turn goes with --battle (pbem report N prints a turn's report)")
    if wants_picture(args):
        if args.json:
            raise PbemError("--json prints the position, --svg/--png draw it: give one")
        from .pictures import save_board
        from ..io import layout
        from ..io.turnfile import read_turn_file
        turns = layout.list_turns(args.game)
        events = read_turn_file(turns[-1][2])[0].events if turns and not args.no_events else ()
        save_board(console, args, game, state, events)
        return EXIT_OK
    if args.json:
        from .json_output import emit, show_json
        emit(show_json(game, state))
        return EXIT_OK
    power = None
    if args.power:
        from ..io.names import Names
        power = Names(game).resolve_power(args.power)
    render_board(game, state, console, power=power)
    return EXIT_OK


def cmd_check(args, console: Console) -> int:
    from ..service.checking import check_orders
    source = source_name(args.orders)
    game, state = load_game_dir(args.game, f"check {args.orders} -g {args.game}")
    text = read_text(args.orders, "orders file")
    notes: list = []
    # The rules are checked on every line that parsed, so all problems show at once.
    result = check_orders(game, state, text, odds=False, notes=notes)
    orders, syntax_errors, problems = result.orders, result.syntax_errors, result.problems
    errors = len(syntax_errors) + sum(p.severity == "error" for p in problems)
    from ..service import gamedir
    header = gamedir.header_problem(gamedir.read_game(args.game)[0], state, text)
    errors += bool(header)
    if args.json:
        from ..engine.turn import planned_battles
        from ..service.quick_odds import check_odds
        from .json_output import check_json, emit
        battles = [] if errors or args.no_odds else [
            (s, check_odds(s, game.ruleset.dice_sides, exact=args.exact_odds))
            for s in planned_battles(game, state, orders)]
        board_battles = None                     # an edition with a battle board: its battles
        if game.tables.get("board") is not None:
            from ..service.board_check import board_battles_with_odds
            board_battles = () if errors or args.no_odds else board_battles_with_odds(
                game, state, orders)
        emit(check_json(game, state, notes=notes, syntax_errors=syntax_errors,
                        problems=problems, header=header, battles=battles,
                        threshold=args.warn_below, reading=result.reading,
                        board_battles=board_battles))
        return EXIT_REJECTED if errors else EXIT_OK
    from ..present.check_view import reading_lines
    for row in reading_lines(result.reading):     # what each line says, canonically
        console.print(escape(row), markup=True, highlight=False, soft_wrap=True)
    for note in notes:             # mail greetings, quotes, signatures skipped on purpose
        console.print(f"[yellow]{escape(source)}:[/] {escape(str(note))}", markup=True,
                      highlight=False, soft_wrap=True)
    for e in syntax_errors:
        console.print(f"[red]{escape(source)}: error:[/] {escape(str(e))}", markup=True,
                      highlight=False, soft_wrap=True)
    print_problems(console, problems, source, game)
    if header:
        console.print(f"[red]{escape(source)}: error:[/] {escape(header)}", soft_wrap=True)
    if not errors and not args.no_odds:
        from .planning import render_planned_battles
        render_planned_battles(game, state, orders, console, threshold=args.warn_below,
                               exact=args.exact_odds)
        if game.tables.get("board") is not None:     # an edition with a battle board
            from ..present.board_check_view import board_battle_lines
            from ..service.board_check import board_battles_with_odds
            for row in board_battle_lines(game, board_battles_with_odds(game, state, orders),
                                          threshold=args.warn_below):
                console.print(escape(row), highlight=False, soft_wrap=True)
    if errors:
        note = " (rules were checked on the lines that parsed)" if syntax_errors else ""
        console.print(f"[red bold]{errors} error(s)[/]: the orders would be rejected{note}.",
                      soft_wrap=True)
        return EXIT_REJECTED
    console.print(f"[green bold]OK[/]: orders for {escape(game.ruleset.powers[state.power].name)}, "
                  f"round {state.round}, are valid.", soft_wrap=True)
    return EXIT_OK


def cmd_process(args, console: Console) -> int:
    from ..engine import OrdersRejected
    from ..service import gamedir
    from ..present.report import render_report
    check_report_path(args.report, args.force)
    game, state = load_game_dir(args.game, f"process {args.orders} -g {args.game}")
    data = read_bytes(args.orders, "orders file")
    signature = (read_text(args.signature, "signature file", MAX_SIGNATURE_BYTES)
                 if args.signature else None)
    seeds = gamedir.demo_seeds(state.game_id) if args.demo_seeds else None
    source = args.key or gamedir.signing_key_location(args.game, state.power)
    key = gm_signing_key(source, args) if source is not None else None
    try:
        turn = gamedir.process_turn(args.game, game, data, gm_key=key,
                                    orders_signature=signature, seeds=seeds)
    except gamedir.TurnAlreadyProcessed as done:
        console.print(f"[green]Nothing to do[/]: {escape(str(done))}")
        return EXIT_OK
    except gamedir.SecondOrders as second:
        console.print(f"[red bold]Refused[/]: {escape(str(second))}")
        return EXIT_REJECTED
    except OrdersRejected as rejected:          # each problem in words first, as check does
        print_problems(console, rejected.problems, str(args.orders), game)
        raise
    render_report(turn.events, game, console, state_before=state, state_after=turn.state)
    if args.report:
        save_report(args.report, turn.events, game, state_before=state, state_after=turn.state,
                     overwrite=args.force)
    from .next_steps import after_turn
    console.rule("[bold]Next[/]", align="left")
    for line in after_turn(args.game, gamedir.read_game(args.game)[0], game, turn, args.report):
        console.print(escape(line), soft_wrap=True, highlight=False)
    return EXIT_OK


def cmd_report(args, console: Console) -> int:
    from ..service import gamedir
    from ..present.report import render_report
    check_report_path(args.out, args.force)
    game = game_of(args.game, f"report -g {args.game}")
    turns, index = chosen_turn(args.game, args.turn)
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
    if args.copy_orders:
        return _copy_orders(chosen, Path(args.copy_orders), console)
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


def _copy_orders(chosen, into: Path, console: Console) -> int:
    """``pbem demo --copy-orders DIR``: the example's orders files, to read, edit and play."""
    from ..io.storage import read_bytes, write_atomic
    files = chosen.orders_files()
    taken = [into / f.name for f in files if (into / f.name).exists()]
    if into.exists() and not into.is_dir():
        raise PbemError(f"{into} is not a directory")
    if taken:
        raise PbemError(f"{taken[0]} exists already: give another directory with --copy-orders")
    into.mkdir(parents=True, exist_ok=True)
    for f in files:
        write_atomic(into / f.name, read_bytes(f, "orders file"))
    console.print(escape(f"Wrote the {chosen.ruleset} example's orders, one file per power-turn "
                         f"in turn order, to {into}: {', '.join(f.name for f in files)}. "
                         f"The first is {files[0].name}: pbem check "
                         f"{into / files[0].name} -g GAME checks it in your game."),
                  soft_wrap=True, highlight=False)
    return EXIT_OK


def register(sub, command: str | None = None) -> None:
    """The game directory's commands; ``command``: only that one's parser (``pbem check``
    builds neither ``new``'s nor ``show``'s, nor imports what they need: issue 24)."""
    for name, build in _PARSERS.items():
        if command in (None, name):
            build(sub)


def _register_new(sub) -> None:
    p = sub.add_parser("new", help="start a game in a new directory",
                       description="Start a game: writes DIR/game.json (signed by the game "
                                   "master's key) with the edition, its rule options and the "
                                   "players, and commits to the first turn's dice seed.")
    p.add_argument("dir", metavar="DIR", help="the new game's directory")
    ruleset_option(p)
    p.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="set a rule option for this game, e.g. low_luck=true (Low Luck dice, any "
                        "edition) or turkish_straits=false (repeat for several; pbem rules "
                        "--ruleset NAME lists them with their defaults)")
    p.add_argument("--from-triplea", metavar="MAP.xml",
                   help="start from a TripleA game file's position (owners, units, IPCs), "
                        "played as the bundled edition whose map it matches; every rule of "
                        "the file that cannot be carried is listed")
    p.add_argument("--id", help="game id (default: the directory name)")
    add_key_options(p, "game master's ed25519 key: a private key file, or a public key whose "
                       "private half is in ssh-agent (default: generate one in DIR/.secret)")
    p.add_argument("--player", action="append", metavar="POWER=KEY.pub[,email=ADDR][,name=NAME]",
                   help="a player (repeat per power): their ed25519 public key, and optionally "
                        "their mail address and name, e.g. germany=hans.pub,email=hans@example.org,"
                        "name=Hans. That power's orders must then be signed (ssh-keygen -Y sign "
                        "-n pbem-orders -f KEY ORDERS) and carry 'game:' and 'turn:' lines")
    p.add_argument("--email", action="append", metavar="POWER=ADDRESS",
                   help="a player's mail address without a key (repeat per power), e.g. "
                        "uk=tom@example.org: pbem and pbem mail say what to send to whom; with "
                        "--plays, a bare ADDRESS is yours")
    p.add_argument("--unsigned-orders", action="store_true",
                   help="with registered players: accept powers without a key (their "
                        "unsigned orders count on the game master's word, who could reorder "
                        "them for other dice; pbem new shows this residual risk)")
    p.add_argument("--demo-seeds", action="store_true",
                   help="derive seeds from the game id instead of the OS CSPRNG (demos/tests only: predictable)")
    from .keeper_command import add_new_options
    add_new_options(p)
    p.set_defaults(func=cmd_new)



def _register_show(sub) -> None:
    p = sub.add_parser("show", help="show the board (as tables, or as a picture with --svg/--png)")
    game_option(p)
    p.add_argument("--power", help="show only this power")
    picture_options(p)
    p.add_argument("--no-events", action="store_true",
                   help="picture without the last turn's moves, battles and captures")
    p.add_argument("--json", action="store_true",
                   help="print the position as JSON (docs/json.md; --power does not filter it)")
    from .board_battle_command import battle_options
    battle_options(p)
    p.set_defaults(func=cmd_show)



def _register_check(sub) -> None:
    p = sub.add_parser("check", help="check orders against the current position; changes nothing")
    orders_argument(p)
    game_option(p)
    p.add_argument("--no-odds", action="store_true", help="do not compute battle odds")
    p.add_argument("--exact-odds", action="store_true",
                   help="wait for the exact odds of every battle (default: a battle whose "
                        "exact odds would take over a second is estimated by simulation, "
                        "with its 95%% error bound)")
    p.add_argument("--warn-below", type=percentage, default=0.5, metavar="PERCENT",
                   help="warn about attacks whose chance of success is below PERCENT "
                        "(50 or 50%%; default 50)")
    p.add_argument("--json", action="store_true",
                   help="print the result as JSON: problems with codes and parameters, odds "
                        "(docs/json.md)")
    p.set_defaults(func=cmd_check, plain_output=True)   # lines of markup: no rich needed



def _register_process(sub) -> None:
    p = sub.add_parser("process", help="adjudicate orders and write the signed turn file")
    orders_argument(p)
    game_option(p)
    add_key_options(p, "game master's key, as for 'pbem new' (default: the key the game was "
                       "created with); in a game with dice keepers, the key of the keeper of "
                       "the power to move (default: your key, noted by new or keeper join)")
    p.add_argument("--signature", help="the player's SSHSIG signature of the orders file")
    p.add_argument("--report", help="also save the report (.txt or .html)")
    p.add_argument("--demo-seeds", action="store_true",
                   help="draw the next seed predictably (only for games created with --demo-seeds)")
    p.add_argument("--force", action="store_true", help="overwrite an existing report file")
    p.set_defaults(func=cmd_process)



def _register_report(sub) -> None:
    p = sub.add_parser("report", help="print the report of a processed turn")
    game_option(p)
    p.add_argument("turn", nargs="?", type=int, help="turn number (default: the last)")
    p.add_argument("--out", help="save as .txt or .html")
    p.add_argument("--force", action="store_true")
    p.set_defaults(func=cmd_report)



def _register_demo(sub) -> None:
    p = sub.add_parser("demo", help="play a bundled example game and print every report")
    p.add_argument("--ruleset", "--map", dest="ruleset", metavar="NAME",
                   help=f"play the example of this edition, turns/NAME-example "
                        f"(default {DEFAULT_RULESET}; with --example: the one its name says)")
    p.add_argument("--example", metavar="DIR",
                   help="an example folder of your own (orders/*.txt, played in name order)")
    p.add_argument("--out", help="where to write the game directory (default: a temp dir)")
    p.add_argument("--turns", type=positive_int, help="stop after this many turns")
    p.add_argument("--copy-orders", metavar="DIR",
                   help="instead of playing, copy the example's orders files into DIR (01-ussr.txt "
                        "...: a first turn to check and play in a game of your own)")
    p.set_defaults(func=cmd_demo)


_PARSERS = {"new": _register_new, "show": _register_show, "check": _register_check,
            "process": _register_process, "report": _register_report, "demo": _register_demo}
