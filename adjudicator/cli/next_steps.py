"""What ``pbem process`` says after a turn: the files it wrote, who plays next, and what the
game master sends to whom (with the players' mail addresses from game.json and the game's
address book, ``pbem player set``)."""

from __future__ import annotations

import shlex
from pathlib import Path

from ..io.layout import GAME_FILE, orders_path, sig_path, turn_path
from ..service.addresses import with_addresses

ADD_ADDRESS = "pbem player set POWER --email ADDRESS"


def _player(gf, game, power: str) -> str:
    """"Hans <hans@example.org> (Germany)", "Germany (no address in game.json)"."""
    name = game.ruleset.powers[power].name if power in game.ruleset.powers else power
    record = gf.players.get(power)
    if record is None or not record.email:
        return f"{name} (no address yet: {ADD_ADDRESS})"
    who = f"{record.name} <{record.email}>" if record.name else record.email
    return f"{who} ({name})"


def every_player(gf, game) -> str:
    """"every player: ivan@example.org (Soviet Union), ...; no address for Japan"."""
    powers = list(game.ruleset.turn_order)
    known = [p for p in powers if gf.players.get(p) is not None and gf.players[p].email]
    unknown = [game.ruleset.powers[p].name for p in powers if p not in known]
    if not known:
        return f"every player (the game has no addresses yet: {ADD_ADDRESS})"
    text = "every player, " + ", ".join(_player(gf, game, p) for p in known)
    if unknown:
        text += f" (no address yet for {', '.join(unknown)}: {ADD_ADDRESS})"
    return text


def _keeper_line(gf, game, power: str, turn: int) -> str:
    """In a game with dice keepers: who receives ``power``'s orders and processes them."""
    keeper = gf.dice_keepers[power]
    who = "the game master" if keeper == "game_master" else _player(gf, game, keeper)
    return (f"{game.ruleset.powers[power].name}'s orders (signed, starting with 'game: "
            f"{gf.game_id}' and 'turn: {turn}') go to {who}, who keeps its dice and runs in "
            "their own copy: pbem process ORDERS --signature ORDERS.sig -g DIR "
            "(or pbem mail send / pbem mail run)")


def after_new(game_dir: str, gf, game) -> list[str]:
    """What to do once a game is created."""
    directory = Path(game_dir)
    gf = with_addresses(gf, directory)
    first = gf.initial_state.power
    lines = [f"Send to {every_player(gf, game)}: {directory / GAME_FILE}, "
             f"{sig_path(directory / GAME_FILE)}."]
    if gf.dice_keepers:
        return lines + [f"First to move: {game.ruleset.powers[first].name}. "
                        + _keeper_line(gf, game, first, gf.initial_state.turn_number)]
    unsigned = [game.ruleset.powers[p].name for p in game.ruleset.turn_order
                if not (gf.players.get(p) and gf.players[p].key)]
    if unsigned:
        lines.append(
            f"Residual risk: orders of {', '.join(dict.fromkeys(unsigned))} are not signed "
            "(no player key), so they count on the game master's word: the game master could "
            "reorder their independent lines, each order giving other dice, and publish the "
            "best (docs/threat-model.md). Give each player a key (--player POWER=KEY.pub) or "
            "play with dice keepers to rule it out.")
    return lines + [
        f"First to move: {game.ruleset.powers[first].name}. Ask {_player(gf, game, first)} "
        f"for the orders, then: pbem check ORDERS -g {shlex.quote(game_dir)} and "
        f"pbem process ORDERS -g {shlex.quote(game_dir)}"]


def after_turn(game_dir: str, gf, game, tf, report: str | None = None) -> list[str]:
    """Plain lines: written files, the next power, what to send to whom."""
    directory = Path(game_dir)
    gf = with_addresses(gf, directory)
    tpath = turn_path(directory, tf.turn_number, tf.power)
    written = [orders_path(directory, tf.turn_number, tf.power), tpath, sig_path(tpath)]
    lines = ["Wrote " + ", ".join(str(p) for p in written)
             + "." + (f" Report saved to {report}." if report else "")]
    files = [str(p) for p in written]
    if tf.turn_number == 1:              # players need the game file to check anything
        files = [str(directory / GAME_FILE), str(sig_path(directory / GAME_FILE))] + files
    if report:
        files.append(report)
    state = tf.state
    lines.append(f"Send to {every_player(gf, game)}: {', '.join(files)}. "
                 f"Each can check them with: pbem verify -g DIR (their copy)")
    if state.winner is not None:
        lines.append(f"The game is over: {state.winner} win.")
        return lines
    mover = game.ruleset.powers[state.power].name
    if gf.dice_keepers:
        lines.append(f"Next to move: {mover} (turn {state.turn_number}, round {state.round}). "
                     + _keeper_line(gf, game, state.power, state.turn_number))
        return lines
    lines.append(f"Next to move: {mover} (turn {state.turn_number}, round {state.round}). "
                 f"Ask {_player(gf, game, state.power)} for the orders, then: "
                 f"pbem check ORDERS -g {shlex.quote(game_dir)} and "
                 f"pbem process ORDERS -g {shlex.quote(game_dir)}")
    record = gf.players.get(state.power)
    if record is not None and record.key:
        lines.append(f"{mover}'s orders must be signed (ssh-keygen -Y sign -n pbem-orders -f KEY "
                     f"ORDERS) and start with 'game: {state.game_id}' and 'turn: "
                     f"{state.turn_number}'; process them with --signature ORDERS.sig")
    if (directory / "mail.toml").exists():
        lines.append(f"Or let the mail do it: pbem mail run -g {shlex.quote(game_dir)}")
    return lines
