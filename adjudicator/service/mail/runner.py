"""The game master's pass over the inbox: ``GameMaster(...).run_pass()``.

For each waiting message, oldest first:

1. a message the journal already knows (a pass that crashed before filing it, or the
   same mail delivered twice) is only filed again;
2. otherwise it is read (bounded), its game and power are found and its orders
   extracted, and it is answered: a check request (or orders of a power that is not to
   move) gets the ``pbem check`` result; valid orders of the power to move are
   processed, published and their result queued for every player; anything else gets a
   reply saying why nothing happened (unknown senders and automatic mail get none);
3. replies and results are queued in the outbox, then the outcome is journaled, and only
   once the journal is fsynced (every ``FILE_BATCH`` messages, after each processed turn
   and at the end of the pass) is the message moved to "processed" or "rejected".

A crash anywhere repeats at most the current message, harmlessly: replies and results
have fixed outbox names, a published turn is recognised by its orders digest, and a
message already journaled is just filed.  Finally the outbox is flushed; a mail that
cannot be sent waits for the next pass, and the published turn never depends on it.
"""

from __future__ import annotations

import base64
import hashlib
import os
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Callable

import attrs

from ...io import orders_text, sshsig
from ...io.layout import list_turns, orders_path
from ...io.storage import exclusive_lock
from ...io.turnfile import file_digest, orders_bytes
from ...model.errors import OrdersSyntaxError, PbemError
from .. import gamedir
from ..addresses import with_addresses
from ..checking import check_orders
from . import compose
from .config import MailConfig
from .extract import ExtractError, find_orders, orders_headers
from .journal import Journal
from .message import UnreadableMail, message_key, parse_message, safe_headers
from .outbox import FlushResult, Outbox
from .players import Player, players_of, powers_of_address
from .results import Renderers, published_digests, queue_turn_results, queue_welcome
from .senders import make_sender
from .inbox import open_source

PROCESSED, REJECTED, QUARANTINE = "processed", "rejected", "quarantine"
RUN_LOCK = "run.lock"
UNDELIVERABLE = "undeliverable-"
PASS_BUSY = "another 'pbem mail run' is working on this game; this pass did nothing"
FILE_BATCH = 25                 # messages journaled per fsync before they are filed
KEYLESS_WARNING = ("Note: this game has no player keys, so the sender address alone counts. "
                   "Anyone who can forge your address could send orders for you.")


def _nmr_deadline(directory: Path, turn: int, power: str) -> str | None:
    """The deadline of ``power``'s turn ``turn`` if it was played as an NMR, else None."""
    try:
        text = orders_path(directory, turn, power).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not orders_text.is_nmr_statement(text):
        return None
    words = next((line.split() for line in text.splitlines()
                  if line.strip().lower().startswith("nmr")), [])
    return words[1] if len(words) > 1 else "(not stated)"


def keyless_note(players: dict[str, Player], power: str, pname: str) -> str:
    """The warning for orders of a power without a key ("" if it has one): the whole game,
    or only this power, has none."""
    if players[power].key:
        return ""
    if not any(rec.key for rec in players.values()):
        return KEYLESS_WARNING
    return (f"Note: {pname} has no player key in this game (other powers have one), so "
            f"the sender address alone counts for {pname}. Anyone who can forge your "
            "address could send orders for it.")


@attrs.define
class PassSummary:
    outcomes: Counter = attrs.Factory(Counter)
    other_games: int = 0
    flush: FlushResult = attrs.Factory(FlushResult)
    turns: list[int] = attrs.Factory(list)

    def line(self) -> str:
        parts = [f"{n} {o}" for o, n in sorted(self.outcomes.items())] or ["no new mail"]
        if self.other_games:
            parts.append(f"{self.other_games} left for other games")
        parts.append(f"{len(self.flush.sent)} mail(s) sent")
        if self.flush.failed:
            parts.append(f"{len(self.flush.failed)} waiting to be retried")
        if self.flush.waiting:
            parts.append(f"{len(self.flush.waiting)} in the outbox for your mail client")
        if self.flush.undeliverable:
            parts.append(f"{len(self.flush.undeliverable)} refused for good (set aside)")
        if self.flush.busy:
            parts.append("the outbox is being sent by another pass")
        return ", ".join(parts)


@attrs.frozen
class Decision:
    outcome: str
    folder: str | None                   # None: leave the message in the inbox for now
    power: str | None = None
    turn: int | None = None
    digest: str | None = None
    detail: str | None = None
    reply_to: str | None = None
    reply_subject: str | None = None
    reply_body: str | None = None


class GameMaster:
    def __init__(self, game_dir, config: MailConfig, *, renderers: Renderers,
                 gm_key=None, seeds: Callable | None = None,
                 clock: Callable[[], float] = time.time, log: Callable[[str], None] = lambda s: None):
        self.dir = Path(game_dir)
        self.cfg = config
        self.renderers = renderers
        self.gm_key = gm_key
        self.seeds = seeds
        self.clock = clock
        self.log = log
        self.state_dir = config.state_path
        self.outbox = Outbox(self.state_dir)
        self._pass_cache: dict = {}

    # ------------------------------------------------------------------ passes

    def run_pass(self) -> PassSummary:
        """One pass: every waiting message, then the outbox (under the game's mail lock:
        ``PassBusy`` if another pass is running)."""
        with self.locked():
            summary = PassSummary()
            with open_source(self.cfg.inbox) as source:
                self._messages(source, summary)
            summary.flush = self.flush()
            return summary

    def mail_turn(self, turn_number: int) -> FlushResult:
        """Mail every player the result of a turn published outside a pass (a game
        master's correction, ``pbem correct``), then send the outbox; a turn already
        queued is not queued again."""
        game, gf = self._game()
        with self.locked():
            queue_turn_results(directory=self.dir, game=game, game_id=gf.game_id,
                               turn_number=turn_number, players=self._players(),
                               outbox=self.outbox, renderers=self.renderers,
                               sender=self.cfg.address, sender_name=self.cfg.name,
                               now=self.clock())
            return self.flush()

    def locked(self):
        """The game's mail lock: one ``mail run`` at a time (overlapping cron passes)."""
        self.state_dir.mkdir(parents=True, exist_ok=True)
        return exclusive_lock(self.state_dir / RUN_LOCK, PASS_BUSY)

    def watch(self, stop: threading.Event, on_pass: Callable[[PassSummary], None] = lambda s: None,
              on_error: Callable[[PbemError], None] = lambda e: None) -> None:
        """Passes until ``stop`` is set, waiting for new mail in between (IMAP IDLE where
        the server has it, else polling every ``poll_seconds``).  A failed pass (server
        down) is reported and retried after the interval."""
        while not stop.is_set():
            try:
                summary = PassSummary()
                with self.locked(), open_source(self.cfg.inbox) as source:
                    self._messages(source, summary)
                    summary.flush = self.flush()
                    on_pass(summary)
                    source.wait(self.cfg.poll_seconds, stop)
            except PbemError as exc:
                on_error(exc)
                stop.wait(self.cfg.poll_seconds)

    def flush(self) -> FlushResult:
        result = self.outbox.flush(make_sender(self.cfg.send))
        for name, reason in result.failed:
            self.log(f"not sent, kept in the outbox: {name}: {reason}")
        notices = [(n, why) for n, why in result.undeliverable
                   if not n.startswith(UNDELIVERABLE)]        # never a notice about a notice
        for name, why in notices:
            self.log(f"refused for good, set aside: {name}: {why}")
            notice = f"{UNDELIVERABLE}{name.removesuffix('.eml')}"[:150]
            self.outbox.queue(notice, compose.reply(
                sender=self.cfg.address, sender_name=self.cfg.name, to=self.cfg.address,
                game_id=self._game_id(), subject="A mail could not be delivered",
                body=f"The mail server refused {name} for good: {why}.\nIt was moved to "
                     f"{self.outbox.undeliverable_dir}; the recipients not named above got "
                     "it. Check the addresses in the game file or mail.toml.\n",
                name=notice, now=self.clock()))
        if notices:
            again = self.outbox.flush(make_sender(self.cfg.send))
            result.sent += again.sent
            result.failed += again.failed
            result.undeliverable += again.undeliverable
        return result

    def _messages(self, source, summary: PassSummary) -> None:
        journal = Journal(self.state_dir)
        for name, data in journal.replies():          # lost by a crash? queue them again
            self.outbox.restore(name, data)
        self._pass_cache = {}
        self._queue_welcome()
        refs = source.list()[: self.cfg.limits.max_messages_per_pass]
        to_file: list = []          # (message, folder): filed once their entries are durable

        def file_them():
            journal.sync()
            for ref, folder in to_file:
                source.move(ref, folder)
            to_file.clear()

        try:
            for ref in refs:
                outcome, folder = self._one(source, ref, journal)
                if outcome is None:
                    summary.other_games += 1
                    continue
                summary.outcomes[outcome] += 1
                if folder is not None:
                    to_file.append((ref, folder))
                if len(to_file) >= FILE_BATCH or outcome == "processed":
                    file_them()
        finally:
            file_them()
            if journal.unsynced:
                os.sync()           # the replies queued without fsync, all at once
                journal.checkpoint()

    def _queue_welcome(self) -> None:
        """The mail that starts the game, once per player (with the signed game file)."""
        game, gf = self._game()
        queue_welcome(directory=self.dir, game=game, game_id=gf.game_id, players=self._players(),
                      outbox=self.outbox, sender=self.cfg.address, sender_name=self.cfg.name,
                      now=self.clock())

    # ------------------------------------------------------------------ one message

    def _one(self, source, ref, journal: Journal) -> tuple[str | None, str | None]:
        """Handle one message: (outcome, folder to file it in once the journal is synced;
        None: filed already or left alone)."""
        limits = self.cfg.limits
        too_large = ref.size > limits.max_message_bytes
        raw = source.read_head(ref) if too_large else source.read(ref)
        if len(raw) > limits.max_message_bytes:
            raw, too_large = raw[:64 * 1024], True
        msg, unreadable = None, None
        if too_large:
            in_reply_to, sender = safe_headers(raw)
            key = message_key(b"size:%d:" % ref.size + raw, in_reply_to)
        else:
            try:
                msg = parse_message(raw, limits)
                key, sender, in_reply_to = msg.message_id, msg.sender, msg.raw_message_id
            except UnreadableMail as exc:
                unreadable = str(exc)
                in_reply_to, sender = safe_headers(raw)
                key = message_key(raw, in_reply_to)
        known = journal.get(key)
        if known is not None:
            source.move(ref, known["folder"])
            return known["outcome"], None
        if too_large:
            decision = self._too_large(sender, ref.size)
        elif unreadable is not None:
            decision = self._unreadable(sender, in_reply_to, unreadable)
        else:
            try:
                decision = self._decide(msg, key)
            except UnreadableMail as exc:
                decision = self._unreadable(sender, in_reply_to, str(exc))
            if decision is None:
                return None, None
            if decision.folder is None:          # left in the inbox for a later pass
                self.log(f"{key}: {decision.outcome} ({decision.detail})")
                return decision.outcome, None
        reply = None
        if decision.reply_to and decision.reply_body is not None:
            name = "reply-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:24]
            data = compose.reply(
                sender=self.cfg.address, sender_name=self.cfg.name, to=decision.reply_to,
                game_id=self._game_id(), subject=decision.reply_subject or "Re: your orders",
                body=decision.reply_body, name=name, now=self.clock(), in_reply_to=in_reply_to)
            self.outbox.queue(name, data, durable=False)     # the journal keeps the bytes
            reply = {"name": name, "eml": base64.b64encode(data).decode("ascii")}
        journal.record(key, decision.outcome, decision.folder, power=decision.power,
                       turn=decision.turn, digest=decision.digest, detail=decision.detail,
                       sender=sender, at=int(self.clock()), reply=reply, durable=False)
        self.log(f"{key}: {decision.outcome}" + (f" ({decision.detail})" if decision.detail else ""))
        return decision.outcome, decision.folder

    def _game_id(self) -> str:
        return self._game()[1].game_id

    def _game(self):
        cache = self._pass_cache
        if "game" not in cache:
            from ..games import load_game
            gf, _ = gamedir.read_game(self.dir)
            game = load_game(gf.ruleset, options=gf.options)
            gamedir.check_compatible(gf, game, "mail run -g DIR")
            cache["game"] = (game, gf)
        return cache["game"]

    def _state(self):
        """The position now (cached for the pass; a processed turn clears it)."""
        if "state" not in self._pass_cache:
            self._pass_cache["state"] = gamedir.current_state(self.dir)[0]
        return self._pass_cache["state"]

    def _names(self):
        if "names" not in self._pass_cache:
            from ...io.names import Names
            self._pass_cache["names"] = Names(self._game()[0])
        return self._pass_cache["names"]

    def _players(self) -> dict[str, Player]:
        return players_of(with_addresses(self._game()[1], self.dir), self.cfg)

    def _too_large(self, sender: str | None, size: int) -> Decision:
        players = self._players()
        detail = f"{size} bytes, the limit is {self.cfg.limits.max_message_bytes}"
        if not powers_of_address(players, sender):
            return Decision("too-large", REJECTED, detail=detail)
        return Decision("too-large", REJECTED, detail=detail, reply_to=sender,
                        reply_subject="Your mail was too large",
                        reply_body=f"Your mail ({size} bytes) is larger than this game accepts "
                                   f"({self.cfg.limits.max_message_bytes} bytes), so it was not "
                                   "read. Send the orders as plain text or one .txt attachment.\n")

    def _unreadable(self, sender: str | None, message_id: str, why: str) -> Decision:
        """A mail that cannot be read: set aside, and the game master told (never the
        sender, who may be forged); the pass goes on."""
        return Decision(
            "unreadable", QUARANTINE, detail=why, reply_to=self.cfg.address,
            reply_subject="A mail could not be read",
            reply_body=f"pbem could not read a mail from {sender or 'an unknown sender'}"
                       f"{f' (Message-ID {message_id})' if message_id else ''}: {why}.\n"
                       f"Nothing in it was processed. It was moved to the folder "
                       f"'{QUARANTINE}' of the inbox; look at it with your mail client and "
                       "ask the sender to send the orders again as plain text if needed.\n")

    def _decide(self, msg, key: str) -> Decision | None:
        game, gf = self._game()
        game_id = gf.game_id
        players = self._players()
        sender = msg.sender
        known_sender = bool(powers_of_address(players, sender))
        if msg.automatic or sender == self.cfg.address:
            return Decision("automatic", REJECTED, detail="automatic mail, bounce or our own")
        tag = msg.game_tag or msg.plus_tag(self.cfg.address)
        if tag is not None and tag != game_id:
            return None                                   # another game's mail: leave it
        reply = lambda outcome, subject, body, **kw: Decision(   # noqa: E731
            outcome, kw.pop("folder", REJECTED), reply_to=kw.pop("to", sender if known_sender else None),
            reply_subject=subject, reply_body=body, **kw)
        if tag is None:
            return reply("untagged", "Which game?",
                         f"pbem could not tell which game your mail is for. Put "
                         f"{compose.tag(game_id)} in the subject (a reply to a pbem mail "
                         "keeps it).\n", detail="no game tag")
        try:
            found = read_orders(msg)
        except ExtractError as exc:
            return reply("ambiguous", "Your orders were not read", f"{exc}.\n", detail=str(exc))
        if found is None:
            return reply("no-orders", "No orders found",
                         "Your mail holds no orders: write them in the body (plain text) or "
                         "attach them as one .txt file.\n", detail="empty")
        if len(found.text.encode("utf-8", "replace")) > self.cfg.limits.max_orders_bytes:
            return reply("too-large", "Your orders are too long",
                         f"The orders are longer than {self.cfg.limits.max_orders_bytes} "
                         "bytes; nothing was processed.\n", detail="orders too long")

        # Who is writing: the signature decides where the power has a key.
        signer_powers, signed_text = [], None
        if found.signature:
            signer_powers, signed_text = _signed_powers(players, found)
        address_powers = powers_of_address(players, sender)
        candidates = signer_powers or address_powers
        if not candidates:          # neither a player's address nor a player's signature
            return Decision("unknown-sender", REJECTED, detail=f"from {sender}")
        state = self._state()
        power = self._power(game, found.text, candidates, state.power)
        if isinstance(power, Decision):
            return attrs.evolve(power, reply_to=self._reply_address(players, candidates, sender))
        record = players[power]
        to = record.email or (sender if known_sender else None)
        signed = power in signer_powers
        text = signed_text if signed else found.text
        digest = file_digest(orders_bytes(text))
        base = dict(power=power, digest=digest)
        pname = game.ruleset.powers[power].name
        notes = [n for n in [keyless_note(players, power, pname)] if n]
        if orders_text.is_nmr_statement(text):
            return reply("unauthorised", "Orders not accepted: nmr",
                         f"'nmr' records that {pname} missed a deadline; only the game "
                         "master (or the tournament's clock) writes it, never a player's "
                         "mail. Send orders (an empty turn is 'pass'). Nothing was "
                         "processed.\n", to=to, **base)

        if state.winner is not None:
            return reply("game-over", "The game is over", f"The game is over: {state.winner} "
                         "won. Nothing was processed.\n", to=to, **base)
        try:
            headers = orders_text.read_headers(text)
        except OrdersSyntaxError as exc:
            return reply("invalid", "Orders not read: header",
                         f"The header lines of your orders are wrong:\n  {exc}\n"
                         "Nothing was processed.\n", to=to, **base)
        if headers.game not in (None, game_id):
            return reply("wrong-game", "Orders for another game",
                         f"These orders name the game {headers.game!r}, but this is "
                         f"{game_id!r}. Nothing was processed.\n", to=to, **base)
        # Orders already published?  The published turns are the record that counts.
        done = published_digests(self.dir, power)
        if digest in done:
            return self._already(journal_key=key, turn=done[digest], power=power, to=to,
                                 base=base, game=game, players=players)
        wanted_turn = headers.turn
        if wanted_turn is not None and wanted_turn < state.turn_number:
            return reply("late", f"Turn {wanted_turn} was already processed",
                         f"These orders are for turn {wanted_turn}, which was processed "
                         f"already with other orders received earlier. Your new orders were "
                         f"not used. It is now turn {state.turn_number}, "
                         f"{game.ruleset.powers[state.power].name} to move.\n",
                         to=to, turn=wanted_turn, **base)
        if msg.asks_check or power != state.power or (wanted_turn or 0) > state.turn_number:
            return self._check_reply(game, state, power, text, to, base, notes, msg.asks_check)
        # The power to move, not asking for a check: these orders are meant to count.
        if record.key and not signed:
            why = ("are not signed" if not found.signature else
                   "are signed, but not by the key registered for " + pname +
                   " (or the text changed after signing)")
            return reply("unauthorised", "Orders not accepted: signature",
                         f"Orders for {pname} count only when signed with the player's key "
                         f"registered in the game; these {why}. Sign them with\n"
                         f"  pbem mail send ORDERS -g GAME\nor\n"
                         f"  ssh-keygen -Y sign -n pbem-orders -f KEY ORDERS\n"
                         "Nothing was processed.\n", to=to, **base)
        if signed and (headers.game is None or wanted_turn is None):
            return reply("unauthorised", "Orders not accepted: game and turn missing",
                         f"Signed orders must name the game and the turn they are for, so that "
                         f"they can never be replayed into another turn: add the lines\n"
                         f"  game: {game_id}\n  turn: {state.turn_number}\n"
                         "at the top and sign again. Nothing was processed.\n", to=to, **base)
        result = check_orders(game, state, text, odds=False, names=self._names())
        if not result.ok:
            return reply("invalid", f"Orders for turn {state.turn_number} rejected",
                         f"Your orders for {pname}, turn {state.turn_number} (round "
                         f"{state.round}), were not processed:\n\n"
                         + self.renderers.check_text(game, state, result, "orders")
                         + "\nNothing was processed; send corrected orders.\n"
                         + ("\n" + "\n".join(notes) + "\n" if notes else ""),
                         to=to, turn=state.turn_number, **base)
        self._pass_cache.pop("state", None)
        try:
            tf = gamedir.process_turn(self.dir, game, orders_bytes(text), gm_key=self.gm_key,
                                      orders_signature=found.signature if signed else None,
                                      seeds=self.seeds)
        except (OrdersSyntaxError, sshsig.SignatureError) as exc:
            return reply("invalid", f"Orders for turn {state.turn_number} rejected",
                         f"Your orders were not processed:\n\n{exc}\n", to=to,
                         turn=state.turn_number, **base)
        except PbemError as exc:
            if getattr(exc, "problems", None):
                return reply("invalid", f"Orders for turn {state.turn_number} rejected",
                             f"Your orders were not processed:\n\n{exc}\n", to=to,
                             turn=state.turn_number, **base)
            raise      # the game directory itself is in trouble: stop, keep the message
        queue_turn_results(directory=self.dir, game=game, game_id=game_id,
                           turn_number=tf.turn_number, players=players, outbox=self.outbox,
                           renderers=self.renderers, sender=self.cfg.address,
                           sender_name=self.cfg.name, now=self.clock(),
                           note=keyless_note(players, power, pname))
        return Decision("processed", PROCESSED, turn=tf.turn_number, **base,
                        detail=f"turn {tf.turn_number}, {pname}")

    def _already(self, *, journal_key, turn, power, to, base, game, players) -> Decision:
        """Orders identical to a published turn's.  Either this very message produced the
        turn and the pass crashed before journaling it (then finish its work: queue the
        results), or it is a repeat (then say so)."""
        journal = Journal(self.state_dir)
        by_others = [e for e in journal.entries.values()
                     if e.get("outcome") == "processed" and e.get("digest") == base["digest"]
                     and e["key"] != journal_key]
        if not by_others:
            queue_turn_results(directory=self.dir, game=game, game_id=self._game_id(),
                               turn_number=turn, players=players, outbox=self.outbox,
                               renderers=self.renderers, sender=self.cfg.address,
                               sender_name=self.cfg.name, now=self.clock(),
                               note=keyless_note(players, power,
                                                 game.ruleset.powers[power].name))
            return Decision("processed", PROCESSED, turn=turn, detail=f"turn {turn} (recovered)",
                            **base)
        return Decision("duplicate", PROCESSED, turn=turn, reply_to=to, **base,
                        reply_subject=f"Turn {turn} was already processed",
                        reply_body=f"These orders were already processed as turn {turn}; "
                                   "this copy changed nothing.\n",
                        detail=f"same orders as turn {turn}")

    def _check_reply(self, game, state, power, text, to, base, notes, asked) -> Decision:
        pname = game.ruleset.powers[power].name
        intro = []
        if power != state.power:
            mover = game.ruleset.powers[state.power].name
            intro.append(f"It is not {pname}'s turn ({mover} is to move), so these orders "
                         f"were only checked, against the current position as if it were "
                         f"{pname}'s turn; the position will have changed by then.")
            turns = list_turns(self.dir)
            mine = [n for n, p, _path in turns if p == power]
            missed = _nmr_deadline(self.dir, mine[-1], power) if mine else None
            if missed is not None and not asked:
                intro.append(f"{pname}'s turn {mine[-1]} was played as an NMR at its deadline "
                             f"{missed} (no orders had arrived by then): orders for that turn "
                             "came too late and were not used.")
            elif turns and turns[-1][1] == power and not asked:
                intro.append(f"{pname}'s turn {turns[-1][0]} was already processed with the "
                             "orders received earlier; these orders were not used.")
            state = attrs.evolve(state, power=power)
        else:
            intro.append("Checked only (you asked for a check); nothing was processed. "
                         "Send the orders without 'check' in the subject to play them.")
        result = check_orders(game, state, text, names=self._names())
        body = "\n".join(intro) + "\n\n" + self.renderers.check_text(game, state, result, "orders")
        if notes:
            body += "\n" + "\n".join(notes) + "\n"
        return Decision("checked", PROCESSED, reply_to=to, reply_body=body,
                        reply_subject=("Check: " if asked else "Not your turn: ") +
                        ("orders are valid" if result.ok else f"{result.error_count} error(s)"),
                        detail="valid" if result.ok else f"{result.error_count} error(s)",
                        **base)

    def _power(self, game, text: str, candidates: list[str], to_move: str):
        """The power the orders are for: the ``power:`` header if any, else the power to
        move if the writer plays it, else the writer's first power."""
        named = orders_headers(text).get("power")
        if named:
            try:
                key = self._names().resolve_power(named)
            except PbemError:
                return Decision("invalid", REJECTED, reply_subject="Unknown power",
                                reply_body=f"The orders name the power {named!r}, which this "
                                           "game does not have. Nothing was processed.\n",
                                detail=f"unknown power {named!r}")
            if key not in candidates:
                mine = ", ".join(game.ruleset.powers[p].name for p in candidates)
                return Decision("unauthorised", REJECTED, reply_subject="Not your power",
                                reply_body=f"The orders are for {game.ruleset.powers[key].name}, "
                                           f"but you play {mine}. Nothing was processed.\n",
                                detail=f"orders for {key} from a player of {mine}")
            return key
        return to_move if to_move in candidates else candidates[0]

    @staticmethod
    def _reply_address(players, candidates, sender):
        emails = [players[p].email for p in candidates if players[p].email]
        return sender if sender in emails else (emails[0] if emails else None)


def read_orders(msg):
    """``find_orders(msg)``; a failure other than ``ExtractError`` (which has a reason for
    the sender) is ``UnreadableMail``: the mail is bad input, never an internal error."""
    try:
        return find_orders(msg)
    except ExtractError:
        raise
    except RecursionError:
        raise UnreadableMail("its text is nested too deeply to read") from None
    except Exception as exc:    # noqa: BLE001 -- our reader's error on bad input
        raise UnreadableMail(f"reading the orders in it failed ({type(exc).__name__})") from None


def _signed_powers(players: dict[str, Player], found) -> tuple[list[str], str | None]:
    """Powers whose registered key made the signature, and the exact text it covers."""
    try:
        signer = sshsig.signer(found.signature)
    except PbemError:
        return [], None
    from ...io import keys
    powers = [p for p, rec in players.items() if rec.key and keys.same_key(signer, rec.key)]
    if not powers:
        return [], None
    key = players[powers[0]].key
    for text in found.candidates():
        try:
            sshsig.verify(orders_bytes(text), found.signature, key, sshsig.NAMESPACE_ORDERS)
        except PbemError:
            continue
        return powers, text
    return [], None

