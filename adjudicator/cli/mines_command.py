"""``pbem mines seal|reveal``: Taktyczne Starcie's sealed mine layouts (docs/taktyczne-mines.md)::

    pbem mines seal -g ~/pbem/ts1 --power blue --area 22 G5 F5 H7
        # keeps the squares in ~/pbem/ts1/.secret/mines-blue.json, prints
        # 'minefield 22: sha256_…': put that line in your orders (it is a standing order)
    pbem mines reveal -g ~/pbem/ts1 -o reveal.txt
        # when a battle waits for your layout: your orders for that turn, 'reveal 22: …';
        # sign and send them as any orders (pbem mail send, or pbem process)
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..model.errors import PbemError
from .common import EXIT_OK, game_of, game_option


def cmd_mines_seal(args, console: Console) -> int:
    from ..io.names import Names, UnknownName
    from ..service import mine_secrets
    game = game_of(args.game, f"mines seal -g {args.game}")
    names = Names(game)
    try:
        power = names.resolve_power(args.power)
        scope = None if args.area.casefold() == "all" else names.resolve_space(args.area)
    except UnknownName as exc:
        raise PbemError(exc.message) from None
    sealed = mine_secrets.seal(args.game, game, power, scope, args.squares)
    console.print(f"Sealed {len(sealed.squares)} mine squares for {escape(sealed.scope)} "
                  f"({escape(' '.join(sealed.squares))}), kept in "
                  f"{escape(str(mine_secrets.secret_path(args.game, power)))} (never share it).")
    console.print("Put this line in your orders; only the commitment is published:")
    print(sealed.line)
    return EXIT_OK


def cmd_mines_reveal(args, console: Console) -> int:
    from ..io.names import Names, UnknownName
    from ..service import gamedir, mine_secrets
    game = game_of(args.game, f"mines reveal -g {args.game}")
    power = None
    if args.power:
        try:
            power = Names(game).resolve_power(args.power)
        except UnknownName as exc:
            raise PbemError(exc.message) from None
    state, _ = gamedir.current_state(args.game)
    line, kept = mine_secrets.reveal_line(args.game, state, power)
    if args.out:
        Path(args.out).write_text(line, encoding="utf-8")
        console.print(f"The battle in {escape(str(kept.get('area')))} waits for your mine layout: "
                      f"your orders for this turn are in {escape(str(args.out))}; sign and send "
                      "them as any orders.")
    else:
        print(line, end="")
    return EXIT_OK


def register(sub) -> None:
    mines = sub.add_parser("mines", help="Taktyczne Starcie: seal your board mine squares, "
                                         "reveal them when a battle needs them")
    msub = mines.add_subparsers(dest="mines_command", required=True, metavar="ACTION")

    p = msub.add_parser("seal", help="keep a layout of mine squares secret in your copy and "
                                     "print the 'minefield' line that commits to it")
    game_option(p)
    p.add_argument("--power", required=True, help="your power")
    p.add_argument("--area", required=True, help="the area whose battles it is for, or 'all'")
    p.add_argument("squares", nargs="+", metavar="SQUARE",
                   help="own-row squares of the mines, rows 4-10 (G5 F5 ...)")
    p.set_defaults(func=cmd_mines_seal)

    p = msub.add_parser("reveal", help="write the 'reveal' orders a battle waiting for your "
                                       "mine layout needs, from your copy's secret")
    game_option(p)
    p.add_argument("--power", help="your power (default: the one the battle waits for)")
    p.add_argument("-o", "--out", help="write the orders to this file (default: print them)")
    p.set_defaults(func=cmd_mines_reveal)
