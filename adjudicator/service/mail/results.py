"""Mailing a processed turn to every player: the report in the body, the turn's published
files attached (turn file, its signature, the orders) plus one zip of the HTML report and
the board picture; the signed game file goes out once, in the welcome mail.

The outbox names are derived from the turn and the recipient, so queuing the same turn
again (after a crash) adds nothing.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from typing import Callable

import attrs

from ...io.layout import game_file_path, list_turns, orders_path, sig_path
from ...io.turnfile import read_turn_file
from ...model.errors import PbemError
from . import compose
from .players import Player, addresses


@attrs.frozen
class Renderers:
    """How reports become text and HTML (``present``'s functions, passed in by the command
    line so that the service layer does not depend on the presentation layer):
    ``report_*(events, game, state_before, state_after) -> str``,
    ``check_text(game, state, check_result, source) -> str`` and ``board_svg(events, game,
    state_after) -> str | None`` (the board after the turn; None: the edition has no picture)."""

    report_text: Callable
    report_html: Callable
    check_text: Callable
    board_svg: Callable | None = None


def report_zip(files: list[tuple[str, bytes]]) -> bytes:
    """The report (and the board picture, unless the report shows it) as one compressed
    attachment: the board's map outlines are most of a turn mail, and deflate shrinks them
    about five times (a 1941 turn mail: 708 KB with the report and the board attached as
    they are and the game file, 98 KB so; 1942: 128 KB)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in files:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))   # same bytes twice
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data, compresslevel=9)
    return buffer.getvalue()


def address_slug(address: str) -> str:
    return hashlib.sha256(address.encode("utf-8")).hexdigest()[:12]


def result_name(turn_number: int, power: str, address: str) -> str:
    return f"turn-{turn_number:04d}-{power}-to-{address_slug(address)}"


def power_name(game, key: str | None) -> str:
    if key is None:
        return "nobody"
    rec = game.ruleset.powers.get(key)
    return rec.name if rec else key


def turn_subject(game, tf) -> str:
    played = f"Turn {tf.turn_number} (round {tf.round}): {power_name(game, tf.power)} played"
    if tf.state.winner is not None:
        return f"{played}; game over, {tf.state.winner} win"
    return f"{played}; {power_name(game, tf.state.power)} to move"


def queue_turn_results(*, directory, game, game_id: str, turn_number: int,
                       players: dict[str, Player], outbox, renderers: Renderers,
                       sender: str, sender_name: str, now: float, note: str = "") -> int:
    """Queue the result of published turn ``turn_number`` for every player; returns how
    many mails were newly queued."""
    turns = list_turns(directory)
    index = next((i for i, (n, _p, _path) in enumerate(turns) if n == turn_number), None)
    if index is None:
        raise PbemError(f"turn {turn_number} is not published in {directory}")
    _n, power, tpath = turns[index]
    recipients = addresses(players)
    if not recipients:
        return 0
    names = {a: result_name(turn_number, power, a) for a in recipients}
    if all(outbox.known(n) for n in names.values()):
        return 0
    tf, tdata = read_turn_file(tpath)
    if index:
        before = read_turn_file(turns[index - 1][2])[0].state
    else:
        from ...io.turnfile import read_game_file
        before = read_game_file(game_file_path(directory))[0].initial_state
    text = renderers.report_text(tf.events, game, before, tf.state)
    html = renderers.report_html(tf.events, game, before, tf.state)
    opath = orders_path(directory, tf.turn_number, tf.power)
    files = [                       # the game file went out once, with the welcome mail
        (tpath.name, tdata, "application/json"),
        (sig_path(tpath).name, sig_path(tpath).read_bytes(), "application/octet-stream"),
        (opath.name, opath.read_bytes(), "text/plain"),
    ]
    stem = f"{tf.turn_number:04d}-{tf.power}"
    pictures = [(f"report-{stem}.html", html.encode("utf-8"))]
    shown = "<svg" in html                  # the report shows the board already
    board = renderers.board_svg(tf.events, game, tf.state) \
        if renderers.board_svg and not shown else None
    if board:
        pictures.append((f"board-{stem}.svg", board.encode("utf-8")))
    files.append((f"report-{stem}.zip", report_zip(pictures), "application/zip"))
    subject = turn_subject(game, tf)
    intro = [f"{subject}.", ""]
    if note:
        intro += [note, ""]
    intro += ["Attached: the signed turn file and the orders, and one zip of the HTML report"
              + (" with the board after the turn." if board or shown else "."),
              "Check them and keep your copy of the game with: pbem mail fetch -g GAME",
              "(or save the files and run: pbem verify GAME).", ""]
    body = "\n".join(intro) + text
    queued = 0
    for address, name in names.items():
        if outbox.known(name):
            continue
        data = compose.turn_result(
            sender=sender, sender_name=sender_name, to=[address], game_id=game_id,
            subject=subject, body=body, name=name, now=now, turn_number=tf.turn_number,
            power=tf.power, attachments=files)
        queued += outbox.queue(name, data)
    return queued


def queue_welcome(*, directory, game, game_id: str, players: dict[str, Player], outbox,
                  sender: str, sender_name: str, now: float) -> int:
    """Queue, once per player address, the mail that starts the game: who plays what, how
    to send orders, and the signed game file so that players can start their copy."""
    recipients = addresses(players)
    names = {a: f"welcome-{address_slug(a)}" for a in recipients}
    if all(outbox.known(n) for n in names.values()):
        return 0
    gpath = game_file_path(directory)
    from ...io.turnfile import read_game_file
    gf, gdata = read_game_file(gpath)
    first = power_name(game, gf.initial_state.power)
    lines = [f"The game {game_id} ({game.ruleset.title}) has started; {first} moves first.", "",
             "Players:"]
    for power, rec in players.items():
        lines.append(f"  {power_name(game, power):<16} {rec.email or '(no address)'}"
                     + ("  (orders must be signed)" if rec.key else ""))
    if gf.dice_keepers:
        lines += ["", "There is no game master: each power's orders go to the player who keeps "
                      "its dice,",
                  "who processes them and mails the result to everyone (pbem keeper status "
                  "shows who):"]
        for power, keeper in gf.dice_keepers.items():
            lines.append(f"  {power_name(game, power):<16} kept by "
                         + ("the game master" if keeper == "game_master"
                            else power_name(game, keeper)))
        lines += ["", f"Send orders with {compose.tag(game_id)} in the subject with",
                  "  pbem mail send ORDERS -g GAME      (to the keeper, a copy to everyone)",
                  "and run 'pbem mail run -g GAME' (cron) to keep your dice and your copy.",
                  "Attached: the signed game file. Start your copy of the game with",
                  f"  pbem mail fetch -g GAME --id {game_id}",
                  "in the directory where you ran 'pbem keeper join', then check it with",
                  "  pbem keeper status -g GAME", ""]
    else:
        lines += ["", f"Send orders to {sender} with {compose.tag(game_id)} in the subject, e.g. with",
                  "  pbem mail send ORDERS -g GAME",
                  "Put 'check' in the subject to have orders checked without playing them.",
                  "Attached: the signed game file. Start your copy of the game with",
                  f"  pbem mail fetch -g GAME --id {game_id}", ""]
    files = [(gpath.name, gdata, "application/json"),
             (sig_path(gpath).name, sig_path(gpath).read_bytes(), "application/octet-stream")]
    queued = 0
    for address, name in names.items():
        if outbox.known(name):
            continue
        queued += outbox.queue(name, compose.turn_result(
            sender=sender, sender_name=sender_name, to=[address], game_id=game_id,
            subject=f"The game has started; {first} to move", body="\n".join(lines), name=name,
            now=now, turn_number=0, power="-", attachments=files))
    return queued


def published_digests(directory, power: str) -> dict[str, int]:
    """Digest of each published orders file of ``power`` -> its turn number."""
    from ...io.turnfile import file_digest
    out = {}
    for n, p, _path in list_turns(directory):
        if p == power:
            try:
                out[file_digest(orders_path(directory, n, p).read_bytes())] = n
            except OSError:
                continue
    return out


