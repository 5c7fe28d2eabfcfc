"""A player's pass over their inbox in a game with dice keepers: ``KeeperRunner``.

There is no game master's inbox: every player runs ``pbem mail run`` on their own copy
(from cron, or ``--watch``).  For each waiting message, oldest first, the pass

* adds the turns a **result mail** carries to the copy, each only after the whole game
  verifies (``player.apply_message``); a turn whose predecessor has not arrived yet
  (reordered mail) leaves the message in the inbox for a later pass; a second, validly
  signed version of a turn the copy holds is a **fork**: both are kept in ``forks/`` and
  the mail is filed as rejected;
* processes **orders** of a power whose dice this copy keeps, exactly as the game
  master's runner does (``runner.GameMaster``): the first orders received for a turn are
  played with the keeper's committed seed, published signed with the keeper's key, and
  mailed to every player; later ones are refused with a reply;
* notes (journal only, no reply) the copies of orders kept by someone else -- the mover
  sends every player a copy, so each player's journal records when the signed orders
  arrived (evidence if a keeper withholds a result);
* leaves orders for a turn the copy has not reached yet (the previous result is still on
  its way) in the inbox.

Only the host's copy (the key that signed game.json) sends the welcome mail.  When a
pass added a result and some message had to wait, the inbox is read again (at most
``MAX_ROUNDS`` times), so one pass catches up with mail that arrived out of order.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from ...io import keys, orders_text
from ...io.turnfile import file_digest, keeper_of, orders_bytes, signer_key
from ...model.errors import OrdersSyntaxError, PbemError
from .. import gamedir
from ..keeper_join import local_keys
from .extract import ExtractError
from .inbox import open_source
from .player import apply_message, has_turns
from .players import powers_of_address
from .runner import PROCESSED, REJECTED, Decision, GameMaster, PassSummary, _signed_powers, read_orders

MAX_ROUNDS = 5
WAITING = "waiting"


class KeeperRunner(GameMaster):
    def __init__(self, game_dir, config, *, renderers, key=None, seeds: Callable | None = None,
                 clock: Callable[[], float] = time.time, log: Callable[[str], None] = lambda s: None,
                 load_game: Callable | None = None):
        key = key or config.key or gamedir.player_key_location(game_dir)
        super().__init__(game_dir, config, renderers=renderers, gm_key=key, seeds=seeds,
                         clock=clock, log=log)
        if load_game is None:
            from ..games import load_game
        self.load_game = load_game
        self._added = 0

    # ------------------------------------------------------------------ passes

    def run_pass(self) -> PassSummary:
        """Passes over the inbox until no waiting message can move on, then the outbox."""
        summary = PassSummary()
        with self.locked(), open_source(self.cfg.inbox) as source:
            for _round in range(MAX_ROUNDS):
                added = self._added
                this = PassSummary()
                self._messages(source, this)
                waiting = this.outcomes.pop(WAITING, 0)
                summary.outcomes.update(this.outcomes)
                summary.other_games += this.other_games
                if not waiting or self._added == added:
                    if waiting:
                        summary.outcomes[WAITING] += waiting
                    break
            summary.flush = self.flush()
        return summary

    def _queue_welcome(self) -> None:
        game, gf = self._game()
        if self._plays_key(signer_key(gf, gf.signer)):
            super()._queue_welcome()

    # ------------------------------------------------------------------ who am I

    def _my_keys(self) -> list:
        cache = self._pass_cache
        if "my_keys" not in cache:
            found = list(local_keys(self.dir))
            for source in (self.gm_key, self.cfg.key):
                if source is None:
                    continue
                try:
                    pub = Path(str(source) + ".pub")
                    found.append(keys.load_public_key(pub) if pub.exists()
                                 else keys.load_private_key(source).public_key())
                except (PbemError, TypeError):
                    continue
            cache["my_keys"] = found
        return cache["my_keys"]

    def _plays_key(self, line: str | None) -> bool:
        return line is not None and any(keys.same_key(line, k) for k in self._my_keys())

    def _mine(self) -> set[str]:
        """The keepers whose key this copy holds."""
        gf = self._game()[1]
        return {k for k in set(gf.dice_keepers.values()) if self._plays_key(signer_key(gf, k))}

    # ------------------------------------------------------------------ one message

    def _decide(self, msg, key: str) -> Decision | None:
        game, gf = self._game()
        tag = msg.game_tag or msg.plus_tag(self.cfg.address)
        if tag is not None and tag != gf.game_id:
            return None
        if has_turns(msg):
            return self._result(msg)
        peek = self._peek(msg)
        if peek is None:
            return super()._decide(msg, key)
        power, turn, digest = peek
        state = self._state()
        if turn is not None and turn > state.turn_number and state.winner is None:
            return Decision(WAITING, None, power=power, turn=turn, digest=digest,
                            detail=f"orders for turn {turn}; this copy is at turn "
                                   f"{state.turn_number} (a result is on its way)")
        keeper = keeper_of(gf, power)
        if keeper not in self._mine():
            return Decision("witnessed", PROCESSED, power=power, turn=turn, digest=digest,
                            detail=f"{power}'s orders for turn {turn}, kept by {keeper}: noted")
        return super()._decide(msg, key)

    def _peek(self, msg):
        """(power, turn, digest) of the orders in ``msg``, or None if they cannot be read
        (the game master's logic then answers with the reason)."""
        try:
            found = read_orders(msg)
        except ExtractError:
            return None
        if found is None:
            return None
        players = self._players()
        signer_powers, text = ([], None)
        if found.signature:
            signer_powers, text = _signed_powers(players, found)
        text = text or found.text
        candidates = signer_powers or powers_of_address(players, msg.sender)
        if not candidates:
            return None
        try:
            headers = orders_text.read_headers(text)
        except OrdersSyntaxError:
            return None
        power = self._power(self._game()[0], text, candidates, self._state().power)
        if isinstance(power, Decision) or power is None:
            return None
        return power, headers.turn, file_digest(orders_bytes(text))

    def _result(self, msg) -> Decision:
        """A mail carrying published turns (or the game file)."""
        result = apply_message(self.dir, msg, self.load_game)
        self._pass_cache.pop("state", None)
        self._added += len(result.added)
        for warning in result.warnings:
            self.log(f"warning: {warning}")
        detail = (f"added turn(s) {', '.join(map(str, result.added))}" if result.added
                  else "nothing new")
        if result.forks:
            reasons = "; ".join(r for _w, r in result.refused if r.startswith("FORK"))
            return Decision("fork", REJECTED, detail=reasons)
        if result.waiting and not result.added:
            return Decision(WAITING, None, detail=f"turn {min(result.waiting)} is ahead of "
                                                  "this copy; waiting for the turns before it")
        refused = [r for _w, r in result.refused if "out of order" not in r]
        if refused:
            return Decision("result-refused", REJECTED, detail="; ".join(refused)[:500])
        return Decision("result", PROCESSED, detail=detail)

