"""Load a game definition: the edition's data read by ``io.loader`` and checked against the
engine by ``editions.prepare``.  Every command and service loads games through here."""

from __future__ import annotations

import hashlib
from pathlib import Path

import attrs

from .. import editions
from ..io import gamecache, loader, taktyczne_data
from ..model.errors import DataError
from ..model.game import Game


def load_game(name_or_path: str | Path,
              options: dict[str, bool | int | str] | None = None) -> Game:
    """A registered edition by name (``"aa1942"``), or an edition folder by path (its
    ``game.toml`` id names the edition if it is registered)."""
    bare = isinstance(name_or_path, str) and not any(c in name_or_path for c in "/\\")
    edition = editions.get(name_or_path) if bare else None
    source = edition.data if edition is not None else name_or_path
    entry = None
    if gamecache.enabled:
        directory = loader.game_dir(source)
        entry = gamecache.key(directory, loader.DATA_FILES + loader.OPTIONAL_FILES
                              + loader.HASHED_IF_PRESENT, options,
                              edition.name if edition is not None else None)
        kept = gamecache.load(entry)
        if isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[1], Game):
            if kept[0] is not None:
                editions.get(kept[0]).load_plugins()     # what prepare did besides checking
            return kept[1]
    game = taktyczne_data.with_costs(loader.load_game(source, options))
    if edition is None and game.ruleset.game_id in editions.names():
        edition = editions.get(game.ruleset.game_id)
    game = _with_plugin_grammar(editions.prepare(_with_tables(game), edition))
    if entry is not None:
        gamecache.store(entry, (edition.name if edition is not None else None, game))
    return game


def _with_tables(game: Game) -> Game:
    """An edition folder with a battle board (``board.toml``: Taktyczne Starcie) gets its
    board rules in ``Game.tables``, for the engine's main turn."""
    from ..io.tactical_data import BOARD_FILE, load_board
    folder = Path(game.source_dir) if game.source_dir else None
    if folder is None or not (folder / BOARD_FILE).is_file():
        return game
    board = load_board(folder)
    from ..engine.tactical import PLAN_INTERPRETER_VERSION
    if board.interpreter != PLAN_INTERPRETER_VERSION:
        raise DataError(f"{folder / BOARD_FILE}: its battles by plan are played by plan "
                        f"interpreter {board.interpreter}, and this program has interpreter "
                        f"{PLAN_INTERPRETER_VERSION}: use the program the game was played with")
    return attrs.evolve(game, tables={"board": board})



def _with_plugin_grammar(game: Game) -> Game:
    """The rules hash also covers the grammar fragments of the order kinds an edition's
    plug-ins define (``io.kinds.kind(..., grammar=...)``) that it lists; an edition
    without such kinds keeps the hash of its data and the package's grammar."""
    from ..io.kinds import KINDS
    fragments = [(k, KINDS[k].grammar) for k in game.ruleset.plan.order_kinds
                 if k in KINDS and KINDS[k].grammar]
    if not fragments:
        return game
    digest = hashlib.sha256(game.content_hash.encode("utf-8"))
    for name, text in fragments:
        data = text.encode("utf-8")
        digest.update(f"plugin-grammar/{name}\n{len(data)}\n".encode("utf-8"))
        digest.update(data)
    return attrs.evolve(game, content_hash="sha256:" + digest.hexdigest())


def initial_state(game: Game, game_id: str):
    return loader.initial_state(game, game_id)
