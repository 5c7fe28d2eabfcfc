"""``pbem mail run|send|fetch`` and ``pbem status``: playing a game by email.

The game master runs ``pbem mail run -g GAME`` (from cron, or with ``--watch``); players
send orders with ``pbem mail send`` and keep a verified copy with ``pbem mail fetch``.
Settings come from ``GAME/mail.toml`` (docs/mail.md).
"""

from __future__ import annotations

import datetime as _dt
import signal
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ..model.errors import PbemError
from .common import EXIT_OK, EXIT_REJECTED, game_of, game_option, read_bytes, source_name
from .plain_output import PlainOutput

if TYPE_CHECKING:
    from rich.console import Console


def _config(args):
    from ..service.mail.config import load_config
    return load_config(args.game, args.config)


def mail_renderers():
    """How the mail layer words reports, check replies and the board (``present``'s
    functions)."""
    from ..present.report import report_html, report_text
    from ..present.report_board import board_after_turn
    from ..service.mail.results import Renderers
    from ..present.check_view import check_text
    return Renderers(report_text, report_html, check_text, board_after_turn)


def _say(console: Console, text: str) -> None:
    if isinstance(console, PlainOutput):            # no rich for plain lines
        console.line(text)
        return
    from rich.markup import escape
    console.print(escape(text), highlight=False, soft_wrap=True)


def cmd_mail_run(args, console: Console) -> int:
    from ..service import gamedir
    from ..service.mail.runner import GameMaster
    cfg = _config(args)
    game_of(args.game)              # the map data must match before any mail is touched
    seeds = None
    if args.demo_seeds:
        seeds = gamedir.demo_seeds(gamedir.read_game(args.game)[0].game_id)
    log = (lambda s: _say(console, s)) if args.verbose else (lambda s: None)
    if gamedir.read_game(args.game)[0].dice_keepers:
        from ..service.mail.keeper_runner import KeeperRunner
        gm = KeeperRunner(args.game, cfg, renderers=mail_renderers(), key=args.key, seeds=seeds,
                          log=log)
    else:
        gm = GameMaster(args.game, cfg, renderers=mail_renderers(), gm_key=args.key, seeds=seeds,
                        log=log)
    if not args.watch:
        summary = gm.run_pass()
        _say(console, summary.line())
        for name, reason in summary.flush.failed[:5]:
            _say(console, f"not sent yet (kept for the next pass): {name}: {reason}")
        return EXIT_OK if not summary.flush.failed else EXIT_REJECTED
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    _say(console, f"watching {cfg.inbox and type(cfg.inbox).__name__} for game mail; "
                  "Ctrl-C to stop")
    gm.watch(stop, on_pass=lambda s: _say(console, f"{time.strftime('%H:%M:%S')} {s.line()}")
             if s.outcomes or s.flush.sent or s.flush.failed else None,
             on_error=lambda e: _say(console, f"{time.strftime('%H:%M:%S')} error: {e} "
                                              f"(retrying in {cfg.poll_seconds:g} s)"))
    return EXIT_OK


def cmd_mail_send(args, console: Console) -> int:
    from ..present.check_view import check_text
    from ..service.mail import player
    from ..service.mail.outbox import Outbox, envelope
    from ..service.mail.senders import NoSender, make_sender
    from ..service import gamedir
    cfg = _config(args)
    game = game_of(args.game)
    gf, _ = gamedir.read_game(args.game)
    prepared = player.prepare_orders(args.game, game, cfg, read_bytes(args.orders, "orders file"))
    state, _ = gamedir.current_state(args.game)
    if not prepared.to_move:
        _say(console, f"note: in your copy of the game it is "
                      f"{game.ruleset.powers[state.power].name}'s turn, not "
                      f"{game.ruleset.powers[prepared.power].name}'s; checked against the "
                      "current position")
    _say(console, check_text(game, prepared.state, prepared.check,
                             source_name(args.orders)).rstrip())
    if not prepared.check.ok and not args.check and not args.force:
        _say(console, "not sent: fix the errors, or send with --check to ask the game master "
                      "for a check, or --force")
        return EXIT_REJECTED
    data = player.orders_message(cfg, gf.game_id, prepared, ask_check=args.check, now=time.time(),
                                 power_name=game.ruleset.powers[prepared.power].name, gf=gf)
    to, copies = (player.orders_recipients(cfg, gf, prepared.power) if gf.dice_keepers
                  else (cfg.game_master, []))
    if gf.dice_keepers and prepared.to_move and not args.check:
        player.record_sent(cfg, prepared, replace=args.replace)
    if args.eml:
        from ..io.storage import write_atomic
        write_atomic(Path(args.eml), data, overwrite=args.force)
        _say(console, f"wrote {args.eml}: open it with your mail client and send it"
             + (" (signed)" if prepared.signature else ""))
        return EXIT_OK
    sender = make_sender(cfg.send)
    if isinstance(sender, NoSender):
        import hashlib
        name = (f"orders-{prepared.turn_number:04d}-{prepared.power}-{int(time.time())}-"
                f"{hashlib.sha256(data).hexdigest()[:8]}")
        Outbox(cfg.state_path).queue(name, data)
        _say(console, f"no mail server configured: {cfg.state_path / 'outbox' / name}.eml is "
                      f"ready for your mail client (to {to}"
                      + (f", a copy to {', '.join(copies)}" if copies and not args.check else "")
                      + (", signed)" if prepared.signature else ")"))
        return EXIT_OK
    envelope_from, rcpts = envelope(data)
    with sender as s:
        refused = s.send(data, envelope_from, rcpts)
    if refused:
        from ..service.mail.senders import SendError
        raise SendError(f"{sender.what} refused {', '.join(refused)} (the others got it)")
    _say(console, f"sent {'check request' if args.check else 'orders'} for "
                  f"{game.ruleset.powers[prepared.power].name} to {to}"
                  + (" (signed)" if prepared.signature else "")
                  + (f", a copy to {', '.join(copies)}" if copies and not args.check else ""))
    return EXIT_OK


def cmd_mail_fetch(args, console: Console) -> int:
    from ..service.games import load_game
    from ..service.mail.player import fetch_results, game_status
    cfg = _config(args)
    result = fetch_results(args.game, cfg, load_game, game_id=args.id)
    if result.game_file_added:
        _say(console, "added the game file (game.json)")
    for n in result.added:
        _say(console, f"added turn {n} (verified: signatures, chain, seeds, dice, replay)")
    for what, reason in result.refused:
        _say(console, f"refused {what}: {reason}")
    if not result.added and not result.game_file_added:
        _say(console, "no new turns")
    if (Path(args.game) / "game.json").exists():
        _say(console, _status_line(args.game, game_status(args.game)))
    return EXIT_REJECTED if result.refused else EXIT_OK


def _status_line(game_dir, st, game=None) -> str:
    game = game_of(game_dir) if game is None else game
    name = lambda k: game.ruleset.powers[k].name if k in game.ruleset.powers else k  # noqa: E731
    if st.winner:
        return f"{st.game_id}: the game is over, {st.winner} won"
    line = f"{st.game_id}: turn {st.turn_number} (round {st.round}), {name(st.to_move)} to move"
    if st.awaiting is not None:         # a paused turn: what it waits for, from whom
        from ..present.wording import awaiting_text
        line += f" ({awaiting_text(*st.awaiting, name)})"
    return line


def cmd_status(args, console: Console) -> int:
    from ..service.status import game_status
    st = game_status(args.game)
    game = game_of(args.game)
    since = _dt.datetime.fromtimestamp(st.since).strftime("%Y-%m-%d %H:%M")
    _say(console, f"{_status_line(args.game, st, game)}, since {since}")
    gf = st.game_file
    if gf.dice_keepers and st.winner is None:
        keeper = gf.dice_keepers[st.to_move]
        who = ("the game master" if keeper == "game_master"
               else game.ruleset.powers[keeper].name)
        address = gf.players[keeper].email if keeper in gf.players else None
        _say(console, f"its orders go to {who}" + (f" ({address})" if address else "")
                      + ", who keeps its dice and processes the turn")
    if st.last_turn is None:
        _say(console, "no turn played yet")
        return EXIT_OK
    if st.correction is not None:
        _say(console, f"last: turn {st.last_turn}, the game master's correction: "
                      f"{st.correction}")
        return EXIT_OK
    pname = game.ruleset.powers[st.last_power].name
    parts = [f"{st.battles} battle(s), {st.battles_won} won by the attacker" if st.battles
             else "no battles"]
    if st.captured:
        parts.append("took " + ", ".join(st.captured))
    _say(console, f"last: turn {st.last_turn}, {pname}: " + "; ".join(parts))
    return EXIT_OK


def cmd_mail_init(args, console: Console) -> int:
    """Write a mail.toml to fill in: every key its role may use, each once with its
    meaning (``service.mail.settings_keys``)."""
    from ..io.storage import write_atomic
    from ..service.mail.config import CONFIG_FILE
    from ..service.mail.settings_keys import GM, PLAYER, TOURNAMENT, template

    role = TOURNAMENT if args.tournament else PLAYER if args.player else GM
    directory = Path(args.tournament or args.game)
    if not directory.is_dir():
        raise PbemError(f"{directory} is not a directory"
                        + (" (a tournament's, made by 'pbem tournament new')"
                           if args.tournament else ""))
    if args.tournament and not (directory / "tournament.toml").exists():
        raise PbemError(f"{directory} holds no tournament.toml: give the tournament's "
                        "directory (made by 'pbem tournament new')")
    path = directory / CONFIG_FILE
    if path.exists() and not args.force:
        raise PbemError(f"{path} already exists; refusing to overwrite it (--force replaces it)")
    write_atomic(path, template(role).encode("utf-8"), overwrite=args.force)
    from rich.markup import escape
    console.print(f"Wrote {escape(str(path))}: replace the example values (address, the "
                  "servers, the password source); every key is explained in it and in "
                  "docs/mail.md.", soft_wrap=True, highlight=False)
    return EXIT_OK


def register(sub, command: str | None = None) -> None:
    """``pbem mail ...`` and ``pbem status``; ``command``: only that one (``pbem status``
    builds none of mail's parsers: issue 24, start-up)."""
    if command != "status":
        _register_mail(sub)
    if command != "mail":
        _register_status(sub)


def _register_mail(sub) -> None:
    mail = sub.add_parser("mail", help="play by email: run the game master's inbox, send "
                                       "orders, fetch results")
    msub = mail.add_subparsers(dest="mail_command", required=True, metavar="ACTION")

    def common(p):
        game_option(p)
        p.add_argument("--config", help="mail settings (default: GAME/mail.toml)")

    p = msub.add_parser("run", help="game master (or, in a game with dice keepers, every "
                                    "player): one pass over the inbox (cron), or --watch")
    common(p)
    p.add_argument("--watch", action="store_true",
                   help="keep going: IMAP IDLE where the server has it, else poll")
    p.add_argument("--key", help="game master's private key (default: the game's .secret key); "
                                 "a dice keeper's: your own key (default: the one noted by "
                                 "'pbem keeper join' or 'pbem new --plays', or key in mail.toml)")
    p.add_argument("--demo-seeds", action="store_true",
                   help="predictable seeds (only for games created with --demo-seeds)")
    p.add_argument("-v", "--verbose", action="store_true", help="one line per message")
    p.set_defaults(func=cmd_mail_run)

    p = msub.add_parser("send", help="player: check, sign and send orders")
    p.add_argument("orders", help="the orders file ('-': standard input)")
    common(p)
    p.add_argument("--check", action="store_true",
                   help="ask the game master for a check only (nothing is processed)")
    p.add_argument("--eml", help="write a ready-to-send .eml file instead of sending")
    p.add_argument("--force", action="store_true",
                   help="send even if the local check finds errors; overwrite --eml")
    p.add_argument("--replace", action="store_true",
                   help="send other orders for a turn you already sent orders for (a game with "
                        "dice keepers refuses this: only if the first never arrived)")
    p.set_defaults(func=cmd_mail_send)

    p = msub.add_parser("fetch", help="player: add verified results from your inbox to your copy")
    common(p)
    p.add_argument("--id", help="the game id (needed for the first fetch into an empty directory)")
    p.set_defaults(func=cmd_mail_fetch)

    p = msub.add_parser("init", help="write a mail.toml to fill in, every key explained")
    game_option(p)
    who = p.add_mutually_exclusive_group()
    who.add_argument("--player", action="store_true",
                     help="for a player's copy (default: for the game master's game)")
    who.add_argument("--tournament", metavar="DIR",
                     help="for a tournament directory (its one inbox) instead of a game")
    p.add_argument("--force", action="store_true", help="replace an existing mail.toml")
    p.set_defaults(func=cmd_mail_init)


def _register_status(sub) -> None:
    p = sub.add_parser("status", help="whose turn, since when, and the last turn in one line")
    game_option(p)
    p.set_defaults(func=cmd_status, plain_output=True)
