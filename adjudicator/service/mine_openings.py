"""The owner's openings of a square-by-square sealed layout in a live battle
(docs/taktyczne-mines.md §3), written from the layout kept in his own copy's ``.secret/``
(``mine_secrets``): the leaves when the live battle starts (state ``ts_mine_reveal`` with
``leaves``), then the squares an attacker's battle turn waits for (state
``ts_mine_openings``), nothing more."""

from __future__ import annotations

from ..engine.taktyczne import live
from ..engine.taktyczne.live_turn import LIVE_BATTLE, OPENINGS, orders_from_plain
from ..engine.taktyczne.sealed_board import SealedSquares
from ..engine.taktyczne.mines import REVEAL_STATE
from ..io.kinds.open import leaves_line
from ..model import mine_grid
from ..model.dice import KeptDice
from ..model.errors import PbemError
from .mine_secrets import read_layouts, secret_path


def _layout(directory, power: str, commitment: str) -> dict:
    found = read_layouts(directory, power).get(commitment)
    if not isinstance(found, dict) or not mine_grid.is_grid(commitment):
        raise PbemError(f"this copy has no square-by-square layout of {power} for the commitment "
                        f"{commitment} ({secret_path(directory, power)}): only the copy that "
                        "sealed it can open it")
    scope = str(found.get("scope", ""))
    squares = [str(s) for s in found.get("squares", [])]
    if not mine_grid.opens(commitment, power, None if scope == "all" else scope, squares,
                           str(found.get("salt", ""))):
        raise PbemError(f"{secret_path(directory, power)}: the layout kept for {commitment} "
                        "does not open it (the file was changed)")
    return found


def waiting_text(directory, state, power: str | None = None,
                 rules=None) -> tuple[str, str] | None:
    """The ``open`` lines a live battle waits for from this copy's owner (and the area),
    or None when no live battle waits for openings (a battle by plan's ``reveal`` may).
    With the battle board's ``rules``, only the squares the attacker's units reach (played
    with the dice kept for the battle turn: each path up to its first mine, and on after a
    fire only if the unit survived it); without, every square asked for."""
    kept = state.extras.get(REVEAL_STATE)
    opening = state.extras.get(OPENINGS)
    if isinstance(kept, dict) and kept.get("leaves"):
        owner, commitment, area = kept.get("power", ""), kept.get("commitment", ""), kept.get("area", "")
        squares: list[str] | None = None
    elif isinstance(opening, dict) and opening:
        sealed = (state.extras.get(LIVE_BATTLE) or {}).get("sealed") or {}
        owner, commitment = opening.get("power", ""), sealed.get("commitment", "")
        area = (state.extras.get(LIVE_BATTLE) or {}).get("battle", {}).get("area", "")
        squares = [str(s) for s in opening.get("squares", [])]
    else:
        return None
    if power is not None and power != owner:
        raise PbemError(f"the battle in {area} waits for {owner}'s mine openings, not {power}'s")
    found = _layout(directory, owner, commitment)
    scope, master = str(found.get("scope", "")), str(found.get("salt", ""))
    mined = set(found.get("squares", []))
    if squares is None:
        leaves = mine_grid.leaves(owner, None if scope == "all" else scope, mined, master)
        return "".join(leaves_line(scope, c, leaves[i * len(mine_grid.ROWS):(i + 1) * len(mine_grid.ROWS)])
                       + "\n" for i, c in enumerate(mine_grid.COLUMNS)), area
    if rules is not None:       # only the squares the units reach: none past a mine
        try:
            squares = list(_reached(rules, state, opening, sealed, squares, mined))
        except ValueError as exc:           # live.LiveStateError, or too few dice kept
            raise PbemError(f"the battle in {area} waiting in this copy's last turn cannot be "
                            f"read: {exc}") from None
    return "".join(f"open {scope}: {s} {'mine' if s in mined else 'empty'} "
                   f"salt_{mine_grid.square_salt(master, s)}\n" for s in squares), area


def _reached(rules, state, opening: dict, sealed: dict, squares, mined) -> tuple[str, ...]:
    """The sealed squares the attacker's units reach: his battle turn (the written lines,
    or his plan's) played with the dice kept for it and the whole layout known
    (``SealedSquares``: none past a mine, none after a fire that destroyed the unit)."""
    battle = live.from_plain((state.extras.get(LIVE_BATTLE) or {}).get("battle"))
    actions = None if opening.get("by_plan") else orders_from_plain(
        opening.get("actions"), opening.get("attacker", "")).items
    walk = SealedSquares.of(rules, sealed, layout=lambda square: square in mined)
    live.play_battle_turn(rules, battle, actions, KeptDice(opening.get("dice") or ()), sealed=walk)
    return tuple(walk.reached)


def own_openings(directory, state, squares) -> str:
    """The ``open`` lines the defender's own battle turn adds for the sealed squares of his
    rows 4-10 his units enter (they must be empty: L31.53); a ``PbemError`` naming a square
    that holds his mine."""
    live = state.extras.get(LIVE_BATTLE) or {}
    sealed = live.get("sealed") or {}
    if not sealed:
        raise PbemError("no live battle on a sealed layout of yours waits in this game's last turn")
    found = _layout(directory, sealed.get("power", ""), sealed.get("commitment", ""))
    scope, master = str(found.get("scope", "")), str(found.get("salt", ""))
    mined = set(found.get("squares", []))
    opened = sealed.get("opened", {})
    squares = [str(s).upper() for s in squares]
    bad = [s for s in squares if s not in mine_grid.SQUARES]
    if bad:
        raise PbemError(f"not a square of your rows 4-10 (columns A-M): {bad[0]}")
    own = [s for s in squares if s in mined]
    if own:
        raise PbemError(f"{own[0]} holds your own sealed mine: your units may not enter it (L31.53)")
    return "".join(f"open {scope}: {s} empty salt_{mine_grid.square_salt(master, s)}\n"
                   for s in dict.fromkeys(squares) if s not in opened)
