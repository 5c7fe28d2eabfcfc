"""The organiser's side of sealed bids: commitments, openings, a reset, the default bid at
the deadline and the bid side's placement, each announced (the rules: bids.py)."""

from __future__ import annotations

import datetime as dt


from ...io.loader import initial_state
from ...model.errors import PbemError
from . import bids as bidding
from . import deadlines
from .deadlines import stamp
from .notices import Notice, deliver, notice_name, reads_mail
from .pairing import Pairing
from .store import BID_DEFAULT, BID_RESET

from .context import PAIRED, Context, find_pairing, open_tournament, sides_of


def bid_commit(directory, game_id: str, player: str, digest: str, now: dt.datetime) -> None:
    ctx = open_tournament(directory)
    with ctx.tdir.locked():
        p = find_pairing(ctx, game_id)
        box = ctx.tdir.bid_box(ctx.tid, p).commit(player, digest.strip())
        ctx.tdir.save_commit(game_id, player, box.commitments[player])
        notices = []
        if box.sealed:
            notices.append(Notice(notice_name("bids-sealed", game_id), p.players,
                                  f"{game_id}: both bids are sealed",
                                  "Both commitments are in: reveal your bid "
                                  + ("by replying with the line 'reveal AMOUNT NONCE' (the "
                                     "amount and nonce you sealed)." if reads_mail(ctx.tdir)
                                     else "('pbem tournament bid reveal')."), game=game_id))
        deliver(ctx.tdir, notices, ctx.players, ctx.cfg.name, now)


def bid_reveal(directory, game_id: str, player: str, amount: int, nonce: str,
               now: dt.datetime) -> bidding.BidBox:
    ctx = open_tournament(directory)
    with ctx.tdir.locked():
        p = find_pairing(ctx, game_id)
        box = ctx.tdir.bid_box(ctx.tid, p).reveal(player, amount, nonce.strip(), ctx.cfg.bid.max)
        ctx.tdir.save_reveal(game_id, player, amount, nonce.strip())
        if box.outcome() is not None:
            deliver(ctx.tdir, [_sides_decided(ctx, p, box)], ctx.players, ctx.cfg.name, now)
    return box


def _sides_decided(ctx: Context, p: Pairing, box: bidding.BidBox) -> Notice:
    """The notice of a pairing's bids, once both are known (revealed or the default)."""
    bidder, bid = box.outcome()
    shown = ", ".join(f"{ctx.names[x]} {v}" + (" (the default: no bid by the deadline)"
                                               if x in box.defaults else "")
                      for x, v in box.visible().items())
    body = (f"Bids: {shown}. {ctx.names[bidder]} plays the {ctx.bid_side} with {bid} IPCs"
            + ((" and places them: reply with one line per placement, e.g. 'bid: place 1 "
                "inf Karelia'." if reads_mail(ctx.tdir) else
                " and places them ('pbem tournament bid place').") if bid else "."))
    return Notice(notice_name("bids-open", p.game), p.players, f"{p.game}: sides decided",
                  body, game=p.game)


def bid_reset(directory, game_id: str, reason: str, now: dt.datetime) -> None:
    """The organiser begins a game's bids again (a lost nonce, a commitment sealed twice):
    both players seal new bids; the old files are kept aside and the reset is logged."""
    ctx = open_tournament(directory)
    with ctx.tdir.locked():
        p = find_pairing(ctx, game_id)
        if p.sides is not None:
            raise PbemError(f"{game_id} has no bids: its sides were set by the pairing")
        if ctx.tdir.game_dir(game_id).exists():
            raise PbemError(f"{game_id} has started; its bids can no longer change")
        reason = " ".join(reason.split())[:300]
        ctx.tdir.reset_bids(game_id, stamp(now))
        ctx.tdir.append({"kind": BID_RESET, "game": game_id, "reason": reason,
                         "at": stamp(now)})
        deadline = ""
        if ctx.cfg.bid.deadline_hours:
            due = now + dt.timedelta(hours=ctx.cfg.bid.deadline_hours)
            deadline = (f" by {stamp(due)} (else the default bid of {ctx.cfg.bid.default} "
                        "IPCs)")
        deliver(ctx.tdir, [Notice(notice_name("bids-reset", game_id, stamp(now)), p.players,
                                  f"{game_id}: bids begin again",
                                  f"The organiser reset the bids of {game_id}"
                                  + (f" ({reason})" if reason else "") + ". Seal a new bid"
                                  f" and send its commitment{deadline}.", game=game_id)],
                ctx.players, ctx.cfg.name, now)


def bid_deadlines_due(ctx: Context, now: dt.datetime) -> list[tuple[str, str]]:
    """(game, player) given the default bid at ``now``, for games not started yet: a
    player with no commitment ``deadline_hours`` after the pairing (or the last bid reset),
    a player who committed but has not revealed twice that long after it."""
    hours = ctx.cfg.bid.deadline_hours
    if ctx.cfg.sides.method != "bid" or not hours:
        return []
    since: dict[str, dt.datetime] = {}
    for e in ctx.tdir.log():
        if e["kind"] == PAIRED:
            for game in e.get("games", ()):
                since[game] = deadlines.parse_stamp(e["at"])
        elif e["kind"] == BID_RESET:
            since[e["game"]] = deadlines.parse_stamp(e["at"])
    due = []
    for p in ctx.tdir.pairings():
        if p.game not in since or p.sides is not None or ctx.tdir.game_dir(p.game).exists():
            continue
        late = now - since[p.game]
        if late < dt.timedelta(hours=hours):
            continue
        box = ctx.tdir.bid_box(ctx.tid, p)
        due += [(p.game, x) for x in p.players if x not in box.reveals
                and x not in box.defaults
                and (x not in box.commitments or late >= dt.timedelta(hours=2 * hours))]
    return due


def _give_default_bids(ctx: Context, now: dt.datetime, notices: list, report) -> None:
    games = set()
    for game_id, player in bid_deadlines_due(ctx, now):
        ctx.tdir.append({"kind": BID_DEFAULT, "game": game_id, "player": player,
                         "amount": ctx.cfg.bid.default, "at": stamp(now)})
        report.bid_defaults.append(f"{game_id} {player}")
        games.add(game_id)
    for game_id in sorted(games):
        p = find_pairing(ctx, game_id)
        box = ctx.tdir.bid_box(ctx.tid, p)
        if box.outcome() is not None:
            notices.append(_sides_decided(ctx, p, box))


def bid_start_state(ctx: Context, game_id: str, bid: int, text: str | None):
    """The starting position of a game: the setup plus the bid's units."""
    start = initial_state(ctx.game, game_id)
    if not bid:
        return start
    if text is None:
        raise PbemError(f"{game_id}: the {ctx.bid_side} bid of {bid} IPCs is not placed yet "
                        "('pbem tournament bid place')")
    placements = bidding.parse_bid_orders(text, ctx.game, ctx.bid_side)
    problems = bidding.bid_problems(placements, ctx.game, start, ctx.cfg.bid, ctx.bid_side, bid)
    if problems:
        raise PbemError(f"{game_id}: the bid placement breaks the bid rules:\n" +
                        "\n".join(problems))
    return bidding.apply_bid(start, placements, ctx.game, ctx.bid_side, bid, ctx.cfg.bid)


def bid_place(directory, game_id: str, text: str, now: dt.datetime) -> None:
    """Record the bid side's placement orders, after checking them under the policy."""
    ctx = open_tournament(directory)
    with ctx.tdir.locked():
        p = find_pairing(ctx, game_id)
        sides, bid = sides_of(ctx, p)
        if sides is None:
            raise PbemError(f"{game_id}: the bids are not both revealed yet")
        if ctx.tdir.game_dir(game_id).exists():
            raise PbemError(f"{game_id} has started; its bid can no longer change")
        bid_start_state(ctx, game_id, bid, text)
        ctx.tdir.save_placement(game_id, text)
