"""The tournament's own mail, read from the one tournament inbox: sealed-bid commitments
and reveals, the bid side's placement, absences and concessions sent when it is not the
player's turn.  Mail for a started game (orders, checks, a concession on one's turn) is
left in the inbox for that game's game master (``mail.runner.GameMaster``), which reads
the same inbox; ``mail_pass.mail_pass`` runs both.

The desk is a ``GameMaster`` whose decision step is the tournament's: the reading,
bounding, journaling, filing and replying of mail are the game master's own, so one bad
mail gets a reply (or is set aside) and the pass goes on.

What a player writes (each on a line of its own, in the body or one .txt attachment, in a
mail whose subject carries the game's tag ``[pbem GAME]``, as every tournament mail
about a game does):

- ``commit sha256:...``: the commitment ``pbem tournament bid seal`` printed;
- ``reveal AMOUNT NONCE``: the bid and its nonce, once both commitments are in;
- ``bid: place 1 inf Karelia`` (one line per placement): the bid side's extra units;
- ``concede``: gives the game up, on one's turn or not;
- ``pause FROM UNTIL`` (the tournament's tag or any game's): an absence, e.g.
  ``pause 2026-12-01T00:00Z 2026-12-05T00:00Z``.

The organiser (tournament.toml's ``organiser`` address) may mail ``withdraw PLAYER`` or
``replace PLAYER EMAIL NAME``, each with a line ``reason: ...``.
"""

from __future__ import annotations

import datetime as dt
import re

from ...model.errors import PbemError
from ..mail.config import MailConfig
from ..mail.players import Player as MailPlayer, powers_of_address
from ..mail.message import UnreadableMail
from ..mail.runner import (PROCESSED, QUARANTINE, REJECTED, Decision, GameMaster, _signed_powers,
                           read_orders)
from ..mail.extract import ExtractError
from . import logbook

COMMIT_RE = re.compile(r"^\s*commit(?:ment)?\s*:?\s*(sha256:[0-9a-fA-F]{64})\s*$", re.I | re.M)
REVEAL_RE = re.compile(r"^\s*reveal\s*:?\s*(\d{1,6})\s+(\S{1,200})\s*$", re.I | re.M)
PLACE_RE = re.compile(r"^\s*bid\s*:.*$", re.I | re.M)
PAUSE_RE = re.compile(r"^\s*pause\s*:?\s*(\S+)\s+(?:to\s+|until\s+)?(\S+)\s*$", re.I | re.M)
CONCEDE_RE = re.compile(r"^\s*concede\s*$", re.I | re.M)
WITHDRAW_RE = re.compile(r"^\s*withdraw\s+(\S+)\s*$", re.I | re.M)
REPLACE_RE = re.compile(r"^\s*replace\s+(\S+)\s+(\S+@\S+)\s+(.{1,100}?)\s*$", re.I | re.M)
REASON_RE = re.compile(r"^\s*reason\s*:\s*(.{1,300}?)\s*$", re.I | re.M)

WHAT_TO_SEND = (
    "What the tournament reads (one line each, subject with the game's tag):\n"
    "  commit sha256:...      your sealed bid (from 'pbem tournament bid seal')\n"
    "  reveal AMOUNT NONCE    your bid, once both commitments are in\n"
    "  bid: place 1 inf X     the bid side's extra units\n"
    "  concede                give the game up (on your turn or not)\n"
    "  pause FROM UNTIL       an absence (times like 2026-12-01T00:00Z)\n"
    "Orders for a game go to the same address with that game's tag.\n")


class TournamentDesk(GameMaster):
    """The tournament-level decisions on the tournament inbox; ``games_seen``: the started
    games whose mail was left for their game masters in this pass."""

    def __init__(self, directory, config: MailConfig, *, renderers, now: dt.datetime,
                 log=lambda s: None):
        super().__init__(directory, config, renderers=renderers,
                         clock=lambda: now.timestamp(), log=log)
        from . import organiser
        self.organiser = organiser
        self.ctx = organiser.open_tournament(directory)
        self.now = now
        self.games_seen: set[str] = set()

    # The game master's hooks, for a tournament instead of one game.
    def _queue_welcome(self) -> None:
        return None

    def _game_id(self) -> str:
        return self.ctx.tid

    def _players(self) -> dict[str, MailPlayer]:
        return {p.id: MailPlayer(p.id, (p.email or "").lower() or None, p.name, p.key)
                for p in self.ctx.players}

    # ------------------------------------------------------------------ deciding

    def _decide(self, msg, key: str) -> Decision | None:
        """The tournament's decision about one mail; a failure of ours on it sets the mail
        aside (and tells the organiser) instead of stopping the pass."""
        try:
            return self._route(msg)
        except UnreadableMail:
            raise
        except Exception as exc:    # noqa: BLE001 -- one mail must not stop the league
            why = f"{type(exc).__name__}: {exc}"[:300]
            self.log(f"{key}: failed ({why})")
            return Decision("failed", QUARANTINE, detail=why,
                            reply_to=self.ctx.cfg.organiser or self.cfg.address,
                            reply_subject="A mail could not be handled",
                            reply_body=f"Handling a mail from {msg.sender} failed: {why}.\n"
                                       f"It was set aside in the folder '{QUARANTINE}'; "
                                       "nothing in it was done. The other mail was "
                                       "processed.\n")

    def _route(self, msg) -> Decision | None:
        players = self._players()
        sender = msg.sender
        if msg.automatic or sender == self.cfg.address:
            return Decision("automatic", REJECTED, detail="automatic mail, bounce or our own")
        ids = powers_of_address(players, sender)
        organiser = (self.ctx.cfg.organiser or "").lower()
        if organiser and sender == organiser:
            return self._organiser(msg, sender)
        if not ids:
            return Decision("unknown-sender", REJECTED, detail=f"from {sender}")
        player = ids[0]
        tag = msg.game_tag or msg.plus_tag(self.cfg.address)
        pairings = {p.game: p for p in self.ctx.tdir.pairings()}
        started = tag in pairings and (self.ctx.tdir.game_dir(tag) / "game.json").exists()

        def reply(outcome, subject, body, folder=REJECTED, detail=None):
            return Decision(outcome, folder, reply_to=sender, reply_subject=subject,
                            reply_body=body, detail=detail or outcome)

        if tag is not None and tag != self.ctx.tid and tag not in pairings:
            return reply("unknown-game", "No such game",
                         f"This tournament has no game {tag!r}. Nothing was done.\n\n"
                         + WHAT_TO_SEND)
        try:
            found = read_orders(msg)
        except ExtractError as exc:
            if started:
                self.games_seen.add(tag)
                return None
            return reply("ambiguous", "Your mail was not read", f"{exc}.\n")
        text = found.text if found is not None else ""
        if started:
            if CONCEDE_RE.search(text):
                conceded = self._off_turn_concession(tag, player, found)
                if conceded is not None:
                    return conceded
            self.games_seen.add(tag)
            return None                           # the game's own game master reads it
        try:
            if PAUSE_RE.search(text):
                return self._pause(player, text, reply)
            if (tag is None or tag == self.ctx.tid) and (COMMIT_RE.search(text) or
                                                         REVEAL_RE.search(text)
                                                         or PLACE_RE.search(text)):
                waiting = [g for g, p in pairings.items() if player in p.players
                           and not (self.ctx.tdir.game_dir(g) / "game.json").exists()]
                if len(waiting) == 1:
                    tag = waiting[0]              # the one game of theirs waiting for bids
            if tag is None or tag == self.ctx.tid:
                return reply("untagged", "What should be done?",
                             "pbem could not tell what your mail asks for.\n\n" + WHAT_TO_SEND,
                             detail="nothing for the tournament")
            pairing = pairings[tag]
            if player not in pairing.players:
                return reply("unauthorised", f"{tag} is not your game",
                             f"{tag} is {' v '.join(self.ctx.names[x] for x in pairing.players)};"
                             " nothing was done.\n")
            if CONCEDE_RE.search(text):
                self.organiser.resign(self.ctx.tdir.dir, tag, player, self.now,
                                      "conceded by mail before the start")
                return reply("conceded", f"{tag}: conceded", "Your concession is recorded; "
                             "your opponent wins the game.\n", folder=PROCESSED)
            return self._bids(tag, player, text, reply)
        except PbemError as exc:
            return reply("refused", "Not accepted", f"{exc}\nNothing was changed.\n",
                         detail=str(exc)[:200])

    def _organiser(self, msg, sender: str) -> Decision:
        """The organiser's mail (from tournament.toml's ``organiser`` address): ``withdraw
        PLAYER`` or ``replace PLAYER EMAIL NAME``, each with a ``reason: ...`` line."""
        from . import seats

        def reply(outcome, subject, body, folder=REJECTED):
            return Decision(outcome, folder, reply_to=sender, reply_subject=subject,
                            reply_body=body, detail=outcome)
        try:
            found = read_orders(msg)
        except ExtractError as exc:
            return reply("ambiguous", "Your mail was not read", f"{exc}.\n")
        text = found.text if found is not None else ""
        reason = REASON_RE.search(text)
        why = reason.group(1) if reason else ""
        try:
            if (m := WITHDRAW_RE.search(text)):
                games = seats.withdraw(self.ctx.tdir.dir, m.group(1), why, self.now)
                return reply("withdrawn", f"{m.group(1)} has withdrawn",
                             f"Recorded and announced; resigned: {', '.join(games) or 'none'}."
                             "\n", folder=PROCESSED)
            if (m := REPLACE_RE.search(text)):
                games = seats.replace(self.ctx.tdir.dir, m.group(1), m.group(3), m.group(2),
                                      None, why, self.now)
                return reply("replaced", f"{m.group(3)} takes {m.group(1)}'s seat",
                             "Recorded and announced; signed replacement records in: "
                             f"{', '.join(games) or 'no running game'}.\n", folder=PROCESSED)
        except PbemError as exc:
            return reply("refused", "Not done", f"{exc}\nNothing was changed.\n")
        return reply("untagged", "What should be done?",
                     "The organiser's mail may say\n  withdraw PLAYER\n  replace PLAYER "
                     "EMAIL NAME\neach with a line 'reason: ...'.\n")

    def _bids(self, game_id: str, player: str, text: str, reply) -> Decision:
        commit, reveal = COMMIT_RE.search(text), REVEAL_RE.search(text)
        placement = "\n".join(m.group(0).strip() for m in PLACE_RE.finditer(text))
        directory = self.ctx.tdir.dir
        if commit:
            self.organiser.bid_commit(directory, game_id, player, commit.group(1).lower(),
                                      self.now)
            return reply("bid-committed", f"{game_id}: your sealed bid is recorded",
                         "Your commitment is recorded. Once your opponent's is in too you "
                         "will be asked to send the line\n  reveal AMOUNT NONCE\n(the amount "
                         "and nonce you sealed). Keep them secret until then.\n",
                         folder=PROCESSED)
        if reveal:
            box = self.organiser.bid_reveal(directory, game_id, player, int(reveal.group(1)),
                                            reveal.group(2), self.now)
            after = ("Both bids are open: the result was mailed to both players."
                     if box.outcome() is not None else
                     "Waiting for your opponent's reveal.")
            return reply("bid-revealed", f"{game_id}: your bid is revealed",
                         f"Your bid of {reveal.group(1)} IPCs opens your commitment. "
                         f"{after}\n", folder=PROCESSED)
        if placement:
            sides, bid = self.organiser.sides_of(self.ctx, self.organiser.find_pairing(
                self.ctx, game_id))
            if sides is None or sides.get(self.ctx.bid_side) != player:
                raise PbemError(f"only the player of the {self.ctx.bid_side} places "
                                f"{game_id}'s bid, once both bids are open")
            self.organiser.bid_place(directory, game_id, placement, self.now)
            return reply("bid-placed", f"{game_id}: your bid placement is recorded",
                         f"Your placement of {bid} IPCs is recorded; the game starts now "
                         "(its first mail follows).\n", folder=PROCESSED)
        return reply("no-bid", f"{game_id}: nothing to do",
                     f"{game_id} has not started: its bids are open.\n\n" + WHAT_TO_SEND,
                     detail="no bid line")

    def _pause(self, player: str, text: str, reply) -> Decision:
        from .deadlines import parse_stamp, stamp
        found = PAUSE_RE.search(text)
        begin, end = parse_stamp(found.group(1)), parse_stamp(found.group(2))
        spell = self.organiser.pause(self.ctx.tdir.dir, player, begin, end, self.now)
        return reply("paused", "Your absence is recorded",
                     f"Away from {stamp(begin)} to {stamp(end)}: your deadlines in "
                     f"{', '.join(spell.games) or 'no running game'} move by the time this "
                     "covers (both players of each game were told).\n", folder=PROCESSED)

    def _off_turn_concession(self, game_id: str, player: str, found) -> Decision | None:
        """A concession sent when it is not the player's turn (None: it is their turn,
        and the game plays the ``concede`` order itself)."""
        from .. import gamedir
        from ..mail.players import players_of
        ctx = self.ctx
        sides = self.organiser.sides_of(ctx, self.organiser.find_pairing(ctx, game_id))[0]
        if player not in sides.values():
            return None                       # the game master answers: not your power
        side = next(s for s, pid in sides.items() if pid == player)
        gdir = ctx.tdir.game_dir(game_id)
        if game_id not in logbook.clocks(ctx.tdir.log()):
            return None                       # over: the game master says so
        state, _ = gamedir.current_state(gdir)
        if ctx.side_of_power(state.power) == side:
            return None
        entry = ctx.player(player)
        answer = dict(reply_to=entry.email, folder=REJECTED)
        if entry.key:
            game_players = players_of(gamedir.read_game(gdir)[0])
            signed, _text = _signed_powers(game_players, found) if found.signature else ([], None)
            if not any(ctx.side_of_power(p) == side for p in signed):
                return Decision("unauthorised", **answer, detail="unsigned concession",
                                reply_subject=f"{game_id}: concession not accepted",
                                reply_body="A concession counts only when signed with your "
                                           "key ('pbem mail send'). Nothing was changed.\n")
        try:
            self.organiser.resign(ctx.tdir.dir, game_id, player, self.now, "conceded off-turn")
        except PbemError as exc:
            return Decision("refused", **answer, detail=str(exc)[:200],
                            reply_subject=f"{game_id}: concession not accepted",
                            reply_body=f"{exc}\n")
        return Decision("conceded", PROCESSED, reply_to=entry.email, detail="off-turn",
                        reply_subject=f"{game_id}: your concession is recorded",
                        reply_body="Your concession is recorded; your opponent wins. The "
                                   "result was mailed to every player.\n")
