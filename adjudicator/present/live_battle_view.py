"""A live board battle waiting for its next battle turn, for the players who must write it:
the board now (``board_text``: mines left out, they are secret), each unit's name, kind and
square as ``board`` lines name them, and whose battle turn it is (or, while an attacker's
written battle turn waits for the defender to open sealed mine squares, that)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..model.live_battle_state import LiveBattle
from ..model.tactical import ATTACKER, BoardRules
from .board_battle import board_text


def live_battle_text(rules: BoardRules, battle: LiveBattle, power_name: Callable[[str], str] = str,
                     openings: Mapping | None = None) -> str:
    """The battle now; ``openings``: the state ``ts_mine_openings`` when the side to move
    has written its battle turn and it waits for the owner of sealed mines to open the
    squares it enters (docs/taktyczne-mines.md §3)."""
    side = battle.side_to_move
    turn = f"battle turn {battle.position.turn + 1}"
    if openings:
        owner = power_name(str(openings.get("power", battle.defender)))
        squares = ", ".join(str(s) for s in openings.get("squares", ()))
        status = (f"{turn}, {power_name(battle.power_of(side))}'s (the {side}), is written and "
                  f"waits for {owner} to open the sealed mine squares it enters ({squares}).")
        how = (f"{owner} writes the openings with: pbem mines reveal; the battle turn is "
               "played with them.")
    else:
        status = f"{turn} is {power_name(battle.power_of(side))}'s (the {side})."
        how = "Write one line per unit that acts, e.g.: board a1 -> G4a G5a, fire at d1"
    lines = [f"Live board battle in {battle.area} ({battle.board}): "
             f"{power_name(battle.attacker)} attacks {power_name(battle.defender)}; {status}",
             "", board_text(rules, battle.position.pieces), ""]
    for piece in sorted(battle.position.pieces, key=lambda p: (p.side != ATTACKER, p.id)):
        kind = rules.kinds.get(piece.kind)
        name = kind.name if kind else piece.kind
        lines.append(f"  {piece.id:<4} {power_name(battle.power_of(piece.side)):<10} {name} on "
                     f"{_square(rules, piece.square)}")
    lines += ["", how]
    return "\n".join(lines)


def _square(rules: BoardRules, square) -> str:
    from ..model.tactical import square_name
    return square_name(rules, square)
