"""A player leaves the tournament: withdrawn, or replaced by someone who takes the seat.

* **Withdraw** (``pbem tournament withdraw``): every unfinished game of the player is
  resigned (the opponent wins, the reason recorded), and later Swiss rounds no longer pair
  them; their results so far stay in the standings.
* **Replace** (``pbem tournament replace``): a new person (name, address, key) takes the
  player's seat: the same id, score and games.  In each running game of the seat the new
  address and name go in the game's address book (where results are mailed, whose mail is
  read) and a **replacement record** signed by the game master goes in the game's
  directory (``seats/NNNN.json`` and ``.sig``); ``tournament verify`` checks each record
  against its log entry, its signature and the address book.  A key registered in a
  running game is fixed in its signed game file, so a seat whose games have a key is
  replaced only in games still to start.

Both are recorded in ``log.jsonl`` with the reason and announced to the players concerned.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from ...io import sshsig
from ...io.storage import write_atomic
from ...model.errors import PbemError
from .. import gamedir
from ..addresses import read_book, set_address
from . import logbook
from .context import all_results, find_pairing, open_tournament, sides_of, signing_key
from .logbook import WITHDRAWN, withdrawn_before
from .deadlines import stamp
from .notices import Notice, deliver, notice_name
from .players import find as find_player, new_player
from .rounds import _record_standings

REPLACED = "replaced"           # log entry {player, old, new, games, reason, at}
SEATS_DIR = "seats"
NAMESPACE_SEAT = "pbem-seat"    # what a replacement record's signature is for
MAX_REASON = 300


def _reason(text: str) -> str:
    text = " ".join(text.split())
    if not text:
        raise PbemError("give the reason (--reason): it is recorded and announced")
    if len(text) > MAX_REASON:
        raise PbemError(f"the reason is too long (at most {MAX_REASON} characters)")
    return text


def seat_at_start(ctx, player: str, game: str) -> tuple[str, str | None]:
    """(name, key) of whoever held ``player``'s seat when ``game`` started: a later
    replacement does not change the game file."""
    entries = ctx.tdir.log()
    start = next((i for i, e in enumerate(entries)
                  if e["kind"] == "started" and e.get("game") == game), len(entries))
    later = [e for e in entries[start:] if e["kind"] == REPLACED and e["player"] == player]
    if later:
        return later[0]["old"]["name"], later[0].get("old_key")
    current = ctx.player(player)
    return current.name, current.key


def _unfinished(ctx, player: str) -> list:
    done = {r.game for r in all_results(ctx) if r.finished}
    out = []
    for p in ctx.tdir.pairings():
        if player in p.players and p.game not in done:
            if sides_of(ctx, p)[0] is None:
                raise PbemError(f"{p.game} waits for its bids: withdraw {player} once its "
                                "sides are decided (the bid deadline gives a missing bid the "
                                "default), or replace the player")
            out.append(p)
    return out


def withdraw(directory, player_text: str, reason: str, now: dt.datetime) -> list[str]:
    """Withdraw a player: their unfinished games are resigned; no later pairing.  Returns
    the games resigned."""
    from .decisions import RESIGNED, decision_entry
    ctx = open_tournament(directory)
    with ctx.tdir.locked():
        player = find_player(ctx.players, player_text).id
        entries = ctx.tdir.log()
        if player in withdrawn_before(entries):
            raise PbemError(f"{player} has already withdrawn")
        reason = _reason(reason)
        games = _unfinished(ctx, player)
        at = stamp(now)
        ctx.tdir.append({"kind": WITHDRAWN, "player": player, "reason": reason,
                         "games": [p.game for p in games], "at": at})
        clocks = logbook.clocks(ctx.tdir.log())
        for p in games:
            ctx.tdir.append(decision_entry(p.game, RESIGNED, f"withdrew: {reason}",
                                           "organiser", at, player=player))
            if p.game in clocks:
                ctx.tdir.append({"kind": "finished", "game": p.game, "at": at})
        notices = [Notice(notice_name(WITHDRAWN, player, at), ("*",),
                          f"{ctx.names[player]} has withdrawn",
                          f"{ctx.names[player]} has withdrawn from the tournament ({reason})."
                          + (" Their opponents win: " + ", ".join(p.game for p in games) + "."
                             if games else "") + " They are not paired again.")]
        _record_standings(ctx, notices, now)
        deliver(ctx.tdir, notices, ctx.players, ctx.cfg.name, now)
    return [p.game for p in games]


def replace(directory, player_text: str, name: str, email: str | None, key, reason: str,
            now: dt.datetime) -> list[str]:
    """A new person takes a player's seat (id, score, games).  Returns the running games
    where a signed replacement record was written."""
    ctx = open_tournament(directory)
    with ctx.tdir.locked():
        old = find_player(ctx.players, player_text)
        if old.id in withdrawn_before(ctx.tdir.log()):
            raise PbemError(f"{old.id} has withdrawn; add the newcomer as a new player")
        reason = _reason(reason)
        new = new_player(name, email, key, old.id)
        for other in ctx.players:
            if other.id != old.id and other.name.casefold() == new.name.casefold():
                raise PbemError(f"there is already a player named {other.name!r}")
        running = [p.game for p in ctx.tdir.pairings() if old.id in p.players
                   and p.game in logbook.clocks(ctx.tdir.log())]
        games = [(g, _seat_powers(ctx, g, old.id)) for g in running]
        for game_id, powers in games:
            gf, _ = gamedir.read_game(ctx.tdir.game_dir(game_id))
            if any(gf.players[k].key for k in powers):
                raise PbemError(f"{game_id}'s signed game file fixes {old.name}'s key: the "
                                "seat can be replaced once that game is over")
        at = stamp(now)
        record = {"player": old.id, "old": {"name": old.name, "email": old.email},
                  "new": {"name": new.name, "email": new.email}, "reason": reason, "at": at}
        key_obj = signing_key(ctx) if games else None
        for game_id, powers in games:
            _write_record(ctx.tdir.game_dir(game_id), dict(record, game=game_id,
                                                           powers=powers), key_obj)
        ctx.tdir.save_players(tuple(new if p.id == old.id else p for p in ctx.players))
        ctx.tdir.append({"kind": REPLACED, **record, "games": [g for g, _ in games],
                         "key": new.key, "old_key": old.key})
        ctx = open_tournament(directory)
        affected = {x for p in ctx.tdir.pairings() if old.id in p.players for x in p.players}
        deliver(ctx.tdir, [Notice(notice_name(REPLACED, old.id, at),
                                  tuple(sorted(affected | {old.id})) + ((old.email,) if
                                                                       old.email else ()),
                                  f"{new.name} takes {old.name}'s place",
                                  f"{new.name} takes {old.name}'s place in the tournament "
                                  f"({reason}): the same games, score and deadlines."
                                  + (f" Running games: {', '.join(g for g, _ in games)}."
                                     if games else ""))],
                ctx.players, ctx.cfg.name, now)
    return [g for g, _ in games]


def _seat_powers(ctx, game_id: str, player: str) -> list[str]:
    sides = sides_of(ctx, find_pairing(ctx, game_id))[0]
    side = next(s for s, pid in sides.items() if pid == player)
    return ctx.powers_of(side)


def _record_bytes(record: dict) -> bytes:
    return json.dumps(record, indent=2, sort_keys=True, ensure_ascii=False).encode() + b"\n"


def _write_record(gdir: Path, record: dict, key) -> None:
    """The signed replacement record, then the address book it announces."""
    folder = gdir / SEATS_DIR
    folder.mkdir(exist_ok=True)
    number = len(list(folder.glob("*.json"))) + 1
    data = _record_bytes(record)
    path = folder / f"{number:04d}.json"
    write_atomic(path, data)
    write_atomic(path.with_name(path.name + ".sig"),
                 sshsig.sign(data, key, NAMESPACE_SEAT).encode("ascii"))
    gf, _ = gamedir.read_game(gdir)
    for power in record["powers"]:
        set_address(gdir, gf, power, record["new"]["email"], record["new"]["name"])


def seat_problems(ctx) -> list[tuple[str, str]]:
    """(file, problem) for every replacement record that is missing, unsigned by the game
    master, different from its log entry, or not what the address book says."""
    problems = []
    expected: dict[str, list[dict]] = {}
    for e in ctx.tdir.log():
        if e["kind"] == REPLACED:
            for game in e.get("games", ()):
                expected.setdefault(game, []).append(e)
    for game, entries in sorted(expected.items()):
        gdir = ctx.tdir.game_dir(game)
        rel = f"games/{game}/{SEATS_DIR}"
        gf, _ = gamedir.read_game(gdir)
        latest: dict[str, dict] = {}
        for number, e in enumerate(entries, start=1):
            path = gdir / SEATS_DIR / f"{number:04d}.json"
            try:
                data = path.read_bytes()
                signature = path.with_name(path.name + ".sig").read_bytes()
                sshsig.verify(data, signature, gf.game_master, NAMESPACE_SEAT)
                record = json.loads(data)
            except (OSError, ValueError, PbemError) as exc:
                problems.append((f"{rel}/{number:04d}.json", f"replacement record: {exc}"))
                continue
            wanted = {k: e[k] for k in ("player", "old", "new", "reason", "at")}
            if {k: record.get(k) for k in wanted} != wanted or record.get("game") != game:
                problems.append((f"{rel}/{number:04d}.json",
                                 "the replacement record differs from the log's"))
            for power in record.get("powers", ()):
                latest[power] = record["new"]
        book = read_book(gdir)
        for power, new in latest.items():
            if book.get(power, {}).get("email") != new["email"]:
                problems.append((f"games/{game}/addresses.json",
                                 f"{power}'s address is not the replacement's"))
    return problems
