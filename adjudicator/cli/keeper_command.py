"""``pbem keeper join|status`` and the dice-keeper options of ``pbem new``.

A game without a game master (docs/turn-files.md, "Dice keepers")::

    pbem keeper join ~/pbem/club1 --id club1 --key ~/.ssh/pbem_b --plays germany,japan \\
        --email bea@example.org                 # player B: send keeper-join.json to the host
    pbem new ~/pbem/club1 --key ~/.ssh/pbem_a --plays ussr,uk,usa --email al@example.org \\
        --join keeper-join.json                 # host A: game.json, signed by A
    pbem keeper status -g ~/pbem/club1          # anyone: who keeps which dice, is my copy ready
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..model.errors import PbemError
from .common import EXIT_OK, EXIT_REJECTED, game_of, game_option, ruleset_option
from .markup import escape
from .signing import add_key_options, gm_signing_key

if TYPE_CHECKING:
    from rich.console import Console


def _powers(game, text: str) -> list[str]:
    from ..io.names import Names
    names = Names(game)
    out = []
    for item in text.split(","):
        if item.strip():
            key = names.resolve_power(item.strip())
            if key not in out:
                out.append(key)
    if not out:
        raise PbemError("--plays wants the powers you play, e.g. --plays germany,japan")
    return sorted(out, key=list(game.ruleset.turn_order).index)


def cmd_keeper_join(args, console: Console) -> int:
    from ..service import gamedir, keeper_join
    from ..service.games import load_game
    game = load_game(args.ruleset)
    powers = _powers(game, args.plays)
    seeds = gamedir.demo_seeds(args.id) if args.demo_seeds else None
    key = gm_signing_key(args.key, args)
    out = keeper_join.join_game(args.dir, game, args.id, key, powers, key_source=args.key,
                                email=args.email, name=args.name, seeds=seeds, out=args.out)
    names = ", ".join(game.ruleset.powers[p].name for p in powers)
    console.print(f"Joined [bold]{escape(args.id)}[/] as {escape(names)}: your secret seeds are "
                  f"in {escape(str(args.dir))}/.secret/ (never share them).")
    console.print(f"Send [bold]{escape(str(out))}[/] to the host (pbem new ... --join FILE). "
                  "When the game file arrives (pbem mail fetch, or copy game.json and "
                  f"game.json.sig into {escape(str(args.dir))}), check it with "
                  f"[bold]pbem keeper status -g {escape(str(args.dir))}[/].")
    return EXIT_OK


def cmd_keeper_status(args, console: Console) -> int:
    from ..io.turnfile import GAME_MASTER
    from ..service import gamedir, keeper_join
    game = game_of(args.game, f"keeper status -g {args.game}")
    gf, _ = gamedir.read_game(args.game)
    name = lambda k: "the game master" if k == GAME_MASTER else game.ruleset.powers[k].name  # noqa: E731
    if not gf.dice_keepers:
        console.print("This game has no dice keepers: the game master keeps every seed.")
        return EXIT_OK
    state, _ = gamedir.current_state(args.game)
    host = "no game master" if gf.game_master is None else "a game master"
    console.print(f"Game [bold]{escape(gf.game_id)}[/] ({host}; hosted by "
                  f"{escape(name(gf.signer))}). Dice keepers:")
    for power in game.ruleset.turn_order:
        console.print(f"  {escape(name(power)):<16} kept by {escape(name(gf.dice_keepers[power]))}")
    view = keeper_join.keeper_view(args.game)
    if state.winner is None:
        keeper = gf.dice_keepers[state.power]
        yours = " (you)" if keeper in view.mine else ""
        console.print(f"Turn {state.turn_number}: {escape(name(state.power))} to move; its "
                      f"orders go to {escape(name(keeper))}{yours}, who processes them.")
        _print_pending(console, args.game, state, name(keeper))
    order = list(game.ruleset.turn_order)
    for keeper, powers in view.mine.items():
        powers = sorted(powers, key=order.index)
        ready = "ready" if view.ready.get(keeper) else "[red]not ready[/]"
        console.print(f"This copy keeps as {escape(name(keeper))} the dice of "
                      f"{escape(', '.join(name(p) for p in powers))}: {ready}")
    if not view.mine:
        console.print("This copy keeps no dice (no keeper key or seeds here).")
    problems = keeper_join.copy_problems(args.game)
    for problem in problems:
        console.print(f"[bold red]problem:[/] {escape(problem)}", soft_wrap=True)
    return EXIT_REJECTED if problems else EXIT_OK


def _print_pending(console: Console, game_dir, state, keeper_name: str) -> None:
    """Signed orders for this turn that this copy sent or saw, with their age: the record
    that shows a keeper withholding the result."""
    import time
    from ..service.mail.config import ConfigError, load_config
    from ..service.mail.pending import age, pending_orders
    try:
        state_path = load_config(game_dir).state_path
    except (ConfigError, PbemError):
        state_path = Path(game_dir) / ".mail"
    now = time.time()
    for p in pending_orders(state_path, state.turn_number, state.power):
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(p.at))
        what = ("You sent the signed orders" if p.how == "sent"
                else "A copy of the signed orders arrived here")
        console.print(f"{what} on {when} ({age(now - p.at)} ago); no result from "
                      f"{escape(keeper_name)} yet.", soft_wrap=True)


# --------------------------------------------------------------------------- pbem new

def add_new_options(p) -> None:
    """The dice-keeper options of ``pbem new``."""
    p.add_argument("--plays", metavar="POWERS",
                   help="start a game WITHOUT a game master, hosted by you: the powers you play "
                        "(comma-separated); --key is then your own player key, which signs the "
                        "game file; dice keepers default to 'opponents'")
    p.add_argument("--join", action="append", metavar="FILE",
                   help="another player's join file (pbem keeper join): their key, address and "
                        "signed first commitments")
    p.add_argument("--keepers", metavar="SPEC",
                   help="who keeps each power's dice: 'opponents' (each power's next opponent "
                        "in turn order), 'game-master' (default with a game master), or "
                        "POWER=KEEPER,... (a keeper is a power or game-master)")


def keeper_new_arguments(args, game, players: dict, key, host_email: str | None) -> dict:
    """``create_game`` keyword arguments for the dice-keeper options (adds the host's
    powers to ``players``, with ``key``, the loaded ``--key``, and ``host_email``); {} for
    an ordinary game."""
    from ..io.names import Names
    from ..io.turnfile import GAME_MASTER
    from ..service import keeper_join
    from ..service import keepers as keeper_rules
    if host_email and not args.plays:
        raise PbemError(f"--email wants POWER=ADDRESS, not {host_email!r} (a bare address is "
                        "the host's, with --plays)")
    if not (args.plays or args.join or args.keepers):
        return {}
    joins = [keeper_join.read_join(path) for path in args.join or ()]
    keepers = (keeper_rules.parse_assignment(args.keepers, Names(game).resolve_power)
               if args.keepers else None)
    out: dict = {"joins": joins, "dice_keepers": keepers}
    if args.plays:
        if not args.key:
            raise PbemError("--plays starts a game without a game master, signed by your own "
                            "key: give it with --key")
        if (isinstance(keepers, dict) and GAME_MASTER in keepers.values()) or \
                (args.keepers and keepers is None):
            raise PbemError("a game without a game master (--plays) cannot have the game "
                            "master keep dice")
        from ..io import keys
        own = keys.public_key_line(key.public_key())
        powers = _powers(game, args.plays)
        for power in powers:
            record = players.setdefault(power, {})
            record.setdefault("key", own)
            if host_email and "email" not in record:
                record["email"] = host_email
        out["host"] = powers[0]
    elif keepers is None and args.join:
        raise PbemError("join files were given for a game with a game master: say who keeps the "
                        "dice (--keepers opponents), or host the game yourself (--plays)")
    return out


def register(sub) -> None:
    keeper = sub.add_parser("keeper", help="dice keepers: join a game without a game master, "
                                           "check your copy")
    ksub = keeper.add_subparsers(dest="keeper_command", required=True, metavar="ACTION")

    p = ksub.add_parser("join", help="prepare your copy of a game and write the join file for "
                                     "its host (your key, address, signed first commitments)")
    p.add_argument("dir", help="your directory for the game (new)")
    p.add_argument("--id", required=True, help="the game id the host chose")
    ruleset_option(p)
    add_key_options(p, "your ed25519 key (a private key file, or a public key whose private "
                       "half is in ssh-agent); it signs your orders and the turns you keep")
    p.add_argument("--plays", required=True, metavar="POWERS",
                   help="the powers you play, comma-separated")
    p.add_argument("--email", help="your mail address")
    p.add_argument("--name", help="your name")
    p.add_argument("--out", help="where to write the join file (default DIR/keeper-join.json)")
    p.add_argument("--demo-seeds", action="store_true",
                   help="predictable seeds (demos and tests only)")
    p.set_defaults(func=cmd_keeper_join)

    p = ksub.add_parser("status", help="who keeps which dice, whose turn it is and who "
                                       "processes it, and whether your copy can keep its dice")
    game_option(p)
    p.set_defaults(func=cmd_keeper_status)
