"""Ratings with openskill (a maintained Weng-Lin / TrueSkill-like library), recomputed from
the results every time: finished games in round order, then game id, each a two-player
match (a draw ranks both first).  Nothing is stored, so the ratings are a function of
the games like the standings.

openskill's numbers are not stable across its releases (6.0 and 6.2 differ, for some models
in the first decimal), so standings.json records :func:`library` and ``tournament verify``
compares the ratings exactly only under that same version."""

from __future__ import annotations

from collections.abc import Iterable
from importlib.metadata import version

import attrs

from .config import Ratings
from .results import GameResult

# openskill's class per model name (openskill is imported when ratings are computed)
_MODELS = {
    "plackett_luce": "PlackettLuce",
    "bradley_terry_full": "BradleyTerryFull",
    "bradley_terry_part": "BradleyTerryPart",
    "thurstone_mosteller_full": "ThurstoneMostellerFull",
    "thurstone_mosteller_part": "ThurstoneMostellerPart",
}


LIBRARY_KEY = "ratings_library"          # where standings.json records library()


def library() -> str:
    """The rating library and its version, as standings.json records it."""
    return f"openskill {version('openskill')}"


@attrs.frozen
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating shown and ranked by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@attrs.frozen
class RatingStep:
    game: str
    player: str
    before: Rating
    after: Rating


def game_order(results: Iterable[GameResult]) -> list[GameResult]:
    return sorted((r for r in results if r.finished), key=lambda r: (r.round, r.game))


def compute_ratings(players: Iterable[str], results: Iterable[GameResult], settings: Ratings
                    ) -> tuple[dict[str, Rating], list[RatingStep]]:
    """Every player's rating after all finished games, and each game's change."""
    from openskill import models
    model = getattr(models, _MODELS[settings.model])(mu=settings.mu, sigma=settings.sigma)
    current = {p: model.rating(mu=settings.mu, sigma=settings.sigma, name=p) for p in players}
    steps: list[RatingStep] = []
    for r in game_order(results):
        a, b = r.players
        for p in (a, b):
            if p not in current:
                current[p] = model.rating(mu=settings.mu, sigma=settings.sigma, name=p)
        ranks = [1, 1] if r.winner is None else ([1, 2] if r.winner == a else [2, 1])
        before = {p: Rating(current[p].mu, current[p].sigma) for p in (a, b)}
        [[new_a], [new_b]] = model.rate([[current[a]], [current[b]]], ranks=ranks)
        current[a], current[b] = new_a, new_b
        for p in (a, b):
            steps.append(RatingStep(r.game, p, before[p], Rating(current[p].mu, current[p].sigma)))
    return {p: Rating(r.mu, r.sigma) for p, r in current.items()}, steps
