"""A tournament as one command loads it (its settings, players and game definition), and
what the games' files and the log say about each pairing: its sides, its game's summary,
its result."""

from __future__ import annotations

import functools

import attrs

from ...io import keys
from ...model.errors import PbemError
from .. import gamedir
from ..games import load_game
from .config import CONFIG_FILE, TournamentConfig
from .pairing import Pairing
from .players import Player
from .decisions import apply_decisions
from .results import GameResult, GameSummary, result_of, summarize_game
from .store import TournamentDir

PAIRED = "paired"           # log entry {round, games, at}: a round or challenge was paired
ROUND_OVER = "round_over"   # log entry {round, at}: the standings after it were announced


@functools.lru_cache(maxsize=8)
def _game_definition(ruleset: str, options: tuple) -> object:
    return load_game(ruleset, options=dict(options) or None)


@attrs.frozen
class Context:
    """A tournament as loaded for one command."""

    tdir: TournamentDir
    cfg: TournamentConfig
    players: tuple[Player, ...]
    game: object
    tid: str
    first_side: str
    bid_side: str

    @property
    def names(self) -> dict[str, str]:
        return {p.id: p.name for p in self.players}

    def player(self, pid: str) -> Player:
        return next(p for p in self.players if p.id == pid)

    def side_of_power(self, power: str) -> str:
        return self.game.ruleset.powers[power].side

    def powers_of(self, side: str) -> list[str]:
        return [k for k in self.game.ruleset.turn_order
                if self.game.ruleset.powers[k].side == side]


def signing_key(ctx: Context):
    """The game master's key of every game: an unencrypted key file, or one that ssh-agent
    holds (the tick runs unattended, so nothing may ask for a passphrase)."""
    return keys.load_signing_key(str(ctx.tdir.gm_key()))


def game_for(ctx: Context, game_id: str):
    """The game definition a game was created with (its own options, even if the
    tournament's options changed since)."""
    gf, _ = gamedir.read_game(ctx.tdir.game_dir(game_id))
    return _game_definition(gf.ruleset, tuple(sorted(gf.options.items())))


def open_tournament(directory) -> Context:
    tdir = TournamentDir(directory)
    cfg = tdir.config()
    try:
        game = _game_definition(cfg.ruleset, tuple(sorted(cfg.options.items())))
    except PbemError as exc:
        raise PbemError(f"{tdir.path(CONFIG_FILE)}: ruleset {cfg.ruleset!r} with options "
                        f"{cfg.options}: {exc}") from None
    sides = sorted({p.side for p in game.ruleset.powers.values()})
    if len(sides) != 2 or cfg.sides.bid_side not in sides:
        raise PbemError(f"{tdir.path(CONFIG_FILE)}: sides.bid_side must be one of the "
                        f"ruleset's two sides ({', '.join(sides)})")
    first = next(s for s in sides if s != cfg.sides.bid_side)
    return Context(tdir, cfg, tdir.players(), game, cfg.id, first, cfg.sides.bid_side)


def sides_of(ctx: Context, p: Pairing) -> tuple[dict[str, str] | None, int]:
    """(side -> player, bid) of a pairing: its own sides, or the bids' outcome."""
    if p.sides is not None:
        return dict(p.sides), 0
    box = ctx.tdir.bid_box(ctx.tid, p)
    outcome = box.outcome()
    if outcome is None:
        return None, 0
    bidder, amount = outcome
    return {ctx.first_side: p.opponent(bidder), ctx.bid_side: bidder}, amount


def summary_of(ctx: Context, game_id: str) -> GameSummary | None:
    gdir = ctx.tdir.game_dir(game_id)
    if not (gdir / "game.json").exists():
        return None
    sides = {k: p.side for k, p in ctx.game.ruleset.powers.items()}
    return summarize_game(gdir, sides, ctx.cfg)


def all_results(ctx: Context, summaries: dict[str, GameSummary] | None = None
                ) -> list[GameResult]:
    """Every pairing's result, from the games' own files and the organiser's recorded
    decisions (a resignation, an entered or overridden result)."""
    out = []
    for p in ctx.tdir.pairings():
        sides, bid = sides_of(ctx, p)
        if sides is None:
            continue
        summary = (summaries or {}).get(p.game) or summary_of(ctx, p.game)
        out.append(result_of(p, sides, summary, ctx.game, ctx.cfg, bid))
    return apply_decisions(out, ctx.tdir.log(), ctx.names)


def byes(ctx: Context) -> list[tuple[int, str]]:
    return [(plan.round, b) for plan in ctx.tdir.rounds() for b in plan.byes]


def find_pairing(ctx: Context, game_id: str) -> Pairing:
    for p in ctx.tdir.pairings():
        if p.game == game_id:
            return p
    raise PbemError(f"no game {game_id!r} in this tournament")
