"""Shared test helpers: the real 1941 game, positions edited from its setup, and orders."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

import attrs

from adjudicator.service.games import initial_state, load_game
from adjudicator.io.parser import parse_orders
from adjudicator.model.dice import SideDice  # noqa: F401  (tests import it from here)
from adjudicator.model.state import GameState, Unit


@functools.lru_cache(maxsize=4)
def game_1941(**options):
    return load_game("aa1941", options=dict(options) or None)


def start_state(game=None) -> GameState:
    return initial_state(game or game_1941(), "test-game")


def units(spec: str, owner: str) -> tuple[Unit, ...]:
    """"3 infantry, 1 tank" -> Units (type keys only, no cargo)."""
    out: list[Unit] = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        count, type_ = part.split(" ", 1)
        out += [Unit(type_.strip(), owner)] * int(count)
    return tuple(out)


def position(base: GameState | None = None, *, power: str | None = None,
             place: dict[str, tuple[Unit, ...]] | None = None,
             add: dict[str, tuple[Unit, ...]] | None = None,
             owners: dict[str, str] | None = None, ipcs: dict[str, int] | None = None,
             clear: tuple[str, ...] = ()) -> GameState:
    """A position edited from ``base`` (default: the 1941 start): ``place`` replaces a
    space's units, ``add`` appends, ``clear`` empties spaces."""
    state = base or start_state()
    new_units = {k: v for k, v in state.units.items() if k not in clear}
    for space, us in (place or {}).items():
        new_units[space] = tuple(us)
    for space, us in (add or {}).items():
        new_units[space] = tuple(new_units.get(space, ())) + tuple(us)
    new_units = {k: v for k, v in new_units.items() if v}
    return attrs.evolve(state, power=power or state.power, units=new_units,
                        owners={**state.owners, **(owners or {})},
                        ipcs={**state.ipcs, **(ipcs or {})})


def orders(text: str, state: GameState, game=None):
    return parse_orders(text, game or game_1941(), power=state.power)


def text(problem, game=None) -> str:
    """A problem's sentence, as players read it (present.wording)."""
    from adjudicator.present.wording import problem_text
    return problem_text(problem, game or game_1941())


def errors(problems, game=None) -> list[str]:
    return [text(p, game) for p in problems if p.severity == "error"]


def play(text: str, state: GameState, dice, game=None):
    """Adjudicate ``text`` for the power to play in ``state``."""
    from adjudicator.engine.turn import adjudicate
    game = game or game_1941()
    return adjudicate(game, state, orders(text, state, game), dice)


def kinds(events, cls) -> list:
    return [e for e in events if isinstance(e, cls)]


def script(name: str):
    """``scripts/<name>.py`` imported as a module (each call a fresh import)."""
    path = Path(__file__).resolve().parent.parent / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
