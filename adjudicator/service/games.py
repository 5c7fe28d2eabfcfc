"""Load a game definition: the edition's data read by ``io.loader`` and checked against the
engine by ``editions.prepare``.  Every command and service loads games through here."""

from __future__ import annotations

from pathlib import Path

from .. import editions
from ..io import loader
from ..model.game import Game


def load_game(name_or_path: str | Path,
              options: dict[str, bool | int | str] | None = None) -> Game:
    """A registered edition by name (``"aa1942"``), or an edition folder by path (its
    ``game.toml`` id names the edition if it is registered)."""
    bare = isinstance(name_or_path, str) and not any(c in name_or_path for c in "/\\")
    edition = editions.get(name_or_path) if bare else None
    source = edition.data if edition is not None else name_or_path
    game = loader.load_game(source, options)
    if edition is None and game.ruleset.game_id in editions.names():
        edition = editions.get(game.ruleset.game_id)
    return editions.prepare(game, edition)


def initial_state(game: Game, game_id: str):
    return loader.initial_state(game, game_id)
