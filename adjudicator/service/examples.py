"""The bundled example games: ``turns/<ruleset>-example/`` holds a round of orders
(``orders/*.txt``, played in name order) and the published game they produce (``game/``).

``play`` replays an example into a fresh game directory with demo seeds derived from the
example's game id (its folder name), exactly as ``pbem demo`` and
``scripts/regenerate_example.py`` do, so the result is the same every time.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import attrs

from ..io import paths
from ..model.errors import PbemError

CREATED = "2026-01-01"          # the examples' creation date (the core has no clock)
SUFFIX = "-example"


@attrs.frozen
class Example:
    """One example folder and the ruleset its orders are written for."""

    ruleset: str
    directory: Path

    @property
    def game_id(self) -> str:
        return self.directory.name

    @property
    def orders_dir(self) -> Path:
        return self.directory / "orders"

    @property
    def published(self) -> Path:
        return self.directory / "game"

    def orders_files(self) -> list[Path]:
        files = sorted(self.orders_dir.glob("*.txt"))
        if not files:
            raise PbemError(f"no orders files in {self.orders_dir}")
        return files


@attrs.frozen
class PlayedTurn:
    """One orders file of an example: the position before it, what ``check`` said, and the
    published turn (None when the orders had errors and play stopped there)."""

    path: Path
    state_before: object
    problems: tuple
    turn: object | None

    @property
    def errors(self) -> list:
        return [p for p in self.problems if p.severity == "error"]


def bundled() -> list[Example]:
    """Every bundled example whose ruleset is a registered edition, by ruleset."""
    from .. import editions
    known = set(editions.names())
    found = []
    for directory in sorted(paths.TURNS_DIR.glob(f"*{SUFFIX}")):
        ruleset = directory.name[: -len(SUFFIX)]
        if ruleset in known and (directory / "orders").is_dir():
            found.append(Example(ruleset, directory))
    return found


def example(ruleset: str | None = None, directory: str | Path | None = None) -> Example:
    """The bundled example for ``ruleset`` (``turns/<ruleset>-example``), or the folder
    ``directory`` played with ``ruleset`` (default: the ruleset its name says,
    ``<ruleset>-example``).  Raises ``PbemError`` saying what is missing."""
    from .. import editions
    if directory is not None:
        directory = Path(directory)
        if not (directory / "orders").is_dir():
            raise PbemError(f"{directory} is not an example folder: it has no orders/")
        if ruleset is None:
            named = directory.resolve().name.removesuffix(SUFFIX)
            if named not in editions.names():
                raise PbemError(f"cannot tell the ruleset of the example {directory} from its "
                                f"name: give it (--ruleset {' or '.join(editions.names())})")
            ruleset = named
        chosen = Example(ruleset, directory)
    else:
        if ruleset is None:
            raise ValueError("name the ruleset or the example folder")
        editions.get(ruleset)                       # an unknown ruleset is reported as such
        chosen = Example(ruleset, paths.TURNS_DIR / f"{ruleset}{SUFFIX}")
        if not chosen.orders_dir.is_dir():
            have = ", ".join(e.ruleset for e in bundled()) or "none"
            raise PbemError(f"no bundled example for ruleset {ruleset!r} (bundled: {have})")
    if not chosen.orders_dir.is_dir():
        raise PbemError(f"{chosen.directory} is not an example folder: it has no orders/")
    return chosen


def play(chosen: Example, out: str | Path, gm_key=None, turns: int | None = None,
         ) -> Iterator[PlayedTurn]:
    """Create a game for ``chosen`` in the new directory ``out`` and process its orders
    files in order (the first ``turns`` of them), yielding each one after it is processed;
    a file whose first line is ``correction: ...`` is the game master's correction
    (``corrections.correct_game``).
    Orders that do not check clean are yielded with ``turn=None`` and end the play.
    ``gm_key``: the game master's private key (default: a new one in ``out/.secret``)."""
    from . import gamedir
    from .corrections import correct_game
    from .games import load_game
    from ..io.corrections import is_correction_statement
    from ..engine.turn import check
    from ..io.parser import parse_orders

    out = Path(out)
    game = load_game(chosen.ruleset)
    seeds = gamedir.demo_seeds(chosen.game_id)
    gamedir.create_game(out, game, chosen.game_id, gm_key_path=gm_key, created=CREATED,
                        seeds=seeds)
    for path in chosen.orders_files()[: turns or None]:
        data = path.read_bytes()
        state, _ = gamedir.current_state(out)
        if is_correction_statement(data.decode("utf-8")):        # the game master's correction
            turn = correct_game(out, game, data.decode("utf-8"), gm_key=gm_key, seeds=seeds)
            yield PlayedTurn(path, state, (), turn)
            continue
        problems = tuple(check(game, state, parse_orders(data.decode("utf-8"), game,
                                                         power=state.power)))
        if any(p.severity == "error" for p in problems):
            yield PlayedTurn(path, state, problems, None)
            return
        turn = gamedir.process_turn(out, game, data, gm_key=gm_key, seeds=seeds)
        yield PlayedTurn(path, state, problems, turn)
