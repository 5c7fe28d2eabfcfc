"""A player's sealed mine layouts, kept in his own copy of the game (docs/taktyczne-mines.md):
``seal`` draws a salt, stores the layout in ``.secret/mines-<power>.json`` (mode 0600, as a
dice keeper's seeds) and gives the standing ``minefield`` line that publishes only its
commitment; ``reveal_line`` reads the battle the game waits for from the copy's state and
gives the ``reveal`` line that opens the commitment."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import attrs

from ..engine.taktyczne.mines import REVEAL_STATE
from ..engine.taktyczne.plans import plan_problems
from ..io import fs
from ..io.layout import SECRET_DIR
from ..io.storage import read_regular, write_atomic
from ..model import mine_seal
from ..model.battle_plan import BattlePlan
from ..model.errors import PbemError
from ..model.game import Game

MAX_SECRET_BYTES = 1_000_000        # a file of layouts: thousands of them
MAX_LAYOUTS = 2_000


@attrs.frozen
class Sealed:
    """A layout sealed: the order line to send and its commitment."""

    line: str
    commitment: str
    scope: str
    squares: tuple[str, ...]


def secret_path(directory, power: str) -> Path:
    return Path(directory) / SECRET_DIR / f"mines-{power}.json"


def read_layouts(directory, power: str) -> dict[str, dict]:
    """``power``'s sealed layouts in this copy: commitment -> {scope, squares, salt}."""
    path = secret_path(directory, power)
    if not path.exists():
        return {}
    try:
        found = json.loads(read_regular(path, "mine layouts", MAX_SECRET_BYTES).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise PbemError(f"{path}: not a file of mine layouts ({exc})") from None
    if not isinstance(found, dict):
        raise PbemError(f"{path}: not a file of mine layouts")
    return found


def seal(directory, game: Game, power: str, scope: str | None, squares) -> Sealed:
    """Seal ``squares`` (own rows 4-10) for ``power``'s battles in ``scope`` (an area, or
    None for all): the layout kept in ``.secret/``, the ``minefield`` line returned."""
    squares = [str(s).upper() for s in squares]
    try:
        mine_seal.check_squares(squares)
    except ValueError as exc:
        raise PbemError(str(exc)) from None
    if not squares:
        raise PbemError("name the squares of the mines (own rows 4-10), e.g. G5 F5")
    if len(set(squares)) != len(squares):
        raise PbemError("a square is named twice: one mine a square")
    rules = game.tables.get("board")
    if rules is None:
        raise PbemError(f"{game.ruleset.title} has no battle board: nothing to seal")
    problems = plan_problems(rules, None, BattlePlan(mines=tuple(squares)))
    if problems:
        low, high = rules.mine_rows
        bad = ", ".join(str(params.get("square", "?")) for _, params in problems)
        raise PbemError(f"mines go on the board's columns A-{chr(64 + rules.columns)}, in your "
                        f"own rows {low}-{high} (L31.49): not {bad}")
    salt = secrets.token_hex(32)
    sealed = mine_seal.commitment(power, scope, squares, salt)
    layouts = read_layouts(directory, power)
    if len(layouts) >= MAX_LAYOUTS:
        raise PbemError(f"{secret_path(directory, power)} holds {len(layouts)} layouts already")
    where = "all" if scope is None else scope
    layouts[sealed] = {"scope": where, "squares": list(mine_seal.canonical_squares(squares)),
                       "salt": salt}
    sdir = Path(directory) / SECRET_DIR
    fs.mkdir(sdir, 0o700, exist_ok=True)
    write_atomic(secret_path(directory, power), (json.dumps(layouts, indent=1, sort_keys=True)
                                                 + "\n").encode("utf-8"), overwrite=True, mode=0o600)
    return Sealed(f"minefield {where}: {sealed}", sealed, where,
                  mine_seal.canonical_squares(squares))


def waiting_reveal(state) -> dict | None:
    """The battle the game waits for a layout for (the state's ``ts_mine_reveal``), if any."""
    kept = state.extras.get(REVEAL_STATE)
    return kept if isinstance(kept, dict) and kept else None


def reveal_line(directory, state, power: str | None = None) -> tuple[str, dict]:
    """The ``reveal`` line the game waits for, from ``power``'s layouts in this copy (the
    line, and what waits)."""
    kept = waiting_reveal(state)
    if kept is None:
        raise PbemError("no battle waits for a mine layout in this game's last turn")
    owner = kept.get("power", "")
    if power is not None and power != owner:
        raise PbemError(f"the battle in {kept.get('area')} waits for {owner}'s mine layout, not {power}'s")
    layouts = read_layouts(directory, owner)
    found = layouts.get(kept.get("commitment", ""))
    if not isinstance(found, dict):
        raise PbemError(f"this copy has no sealed layout of {owner} for the commitment "
                        f"{kept.get('commitment')} ({secret_path(directory, owner)}): only the copy "
                        "that sealed it can reveal it")
    squares = [str(s) for s in found.get("squares", [])]
    salt = str(found.get("salt", ""))
    scope = str(found.get("scope", ""))
    if not mine_seal.opens(kept.get("commitment", ""), owner, None if scope == "all" else scope,
                           squares, salt):
        raise PbemError(f"{secret_path(directory, owner)}: the layout kept for "
                        f"{kept.get('commitment')} does not open it (the file was changed)")
    return f"reveal {scope}: {' '.join(squares)} salt_{salt}\n", kept
