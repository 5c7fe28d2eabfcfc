"""A board battle of the main turn replayed in words, move by move: the forces and plans,
the deployment, each battle turn with every move and every shot (the roll needed and the
die), every mine that went off, the end and why, and what each power lost on the main map.

It reads one ``ts_board_battle`` event (``model.taktyczne.BoardBattleFought``: the board's
own events in order) and the board's rules (``Game.tables["board"]``, for the units' names);
nothing else, so the report shows exactly what the engine did.  The sentences are
``wording.BOARD_REPLAY_TEXTS``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..model.tactical import (
    ATTACKER,
    DEFENDER,
    BattleTurnStarted,
    BoardBattleEnded,
    BoardRules,
    GunsLost,
    MineExploded,
    MinesLaid,
    MinesRevealed,
    PieceDeployed,
    PieceMoved,
    ShotFired,
)
from .wording import BOARD_END_REASONS, BOARD_TARGET_WORDS, board_replay_text

from .board_battle_list import BOARD_BATTLE_KIND, board_battles  # noqa: F401  (their home)

# A line of the replay: (style, text); styles: "title", "turn", "hit", "miss", "mine", "end", "".
Line = tuple[str, str]


def board_rules_of(game: Any) -> BoardRules | None:
    """The rules of the game's battle board (``Game.tables["board"]``), None without one."""
    return getattr(game, "tables", {}).get("board")


def find_board_battle(events: Iterable[Any], which: str) -> Any:
    """The board battle ``which`` names: its area (``34``, ``S07``), or its number in the
    turn (``#2``).  Raises ``LookupError`` with what there is."""
    battles = board_battles(events)
    if not battles:
        raise LookupError("no board battle was fought in that turn")
    listing = ", ".join(f"#{i} {ev.area}" for i, ev in enumerate(battles, 1))
    if which.startswith("#") and which[1:].isdigit():
        index = int(which[1:])
        if 1 <= index <= len(battles):
            return battles[index - 1]
        raise LookupError(f"there is no board battle {which} in that turn (there are: {listing})")
    found = [ev for ev in battles if ev.area.casefold() == which.strip().casefold()]
    if len(found) == 1:
        return found[0]
    if found:
        raise LookupError(f"{len(found)} board battles were fought in {which} that turn: "
                          f"name one by its number ({listing})")
    raise LookupError(f"no board battle was fought in {which} that turn (there are: {listing})")


def side_powers(battle: Any) -> dict[str, str]:
    return {ATTACKER: battle.attacker, DEFENDER: battle.defender}


def battle_title(battle: Any, power_name=str) -> str:
    return board_replay_text("title", area=battle.area, board=battle.board,
                             attacker=power_name(battle.attacker), defender=power_name(battle.defender),
                             live=" (played live by mail)" if getattr(battle, "live", False) else "")


def battle_outcome(battle: Any, power_name=str) -> str:
    """One line: who won, after how many battle turns, and why."""
    end = next((ev for ev in battle.board_events if isinstance(ev, BoardBattleEnded)), None)
    reason = BOARD_END_REASONS.get(end.reason, end.reason) if end else "?"
    if battle.winner:
        return board_replay_text("won", winner=power_name(battle.winner), turns=battle.turns,
                                 reason=reason, area=battle.area)
    return board_replay_text("no_winner", turns=battle.turns, reason=reason, area=battle.area)


def replay_lines(battle: Any, rules: BoardRules | None, power_name=str) -> list[Line]:
    """The whole battle, a line per event (deployments a line per side)."""
    kinds: dict[str, str] = {}
    for side, force in battle.forces:
        kinds.update(dict(force.units))
    powers = side_powers(battle)

    def who(side: str) -> str:
        return board_replay_text("side", side=side, power=power_name(powers.get(side, side)))

    def unit(piece: str) -> str:
        return piece_label(rules, piece, kinds.get(piece, ""))

    lines: list[Line] = [("title", battle_title(battle, power_name))]
    for side, force in battle.forces:
        parts = [unit(pid) for pid, _ in force.units]
        if force.mines:                          # "2 mines", not "nothing, 2 mines"
            parts.append(board_replay_text("mines_count", count=force.mines,
                                           s="" if force.mines == 1 else "s"))
        names = ", ".join(parts) or board_replay_text("nothing")
        lines.append(("", board_replay_text("force", who=who(side), units=names)))
    for side, plan in battle.plans:
        lines.append(("", board_replay_text("plan", who=who(side), plan=plan_text(plan))))
    deployed: dict[str, list[str]] = {}
    for ev in battle.board_events:
        if isinstance(ev, PieceDeployed):
            kinds.setdefault(ev.piece, ev.piece_kind)
            deployed.setdefault(ev.side, []).append(f"{unit(ev.piece)} {ev.square}")
    for side, placed in deployed.items():
        lines.append(("", board_replay_text("deployed", who=who(side), placed=", ".join(placed))))
    for ev in battle.board_events:
        line = _event_line(ev, who, unit)
        if line is None:
            continue
        if line[0] in ("turn", "end") and lines[-1][0] == "turn":
            lines.append(("", board_replay_text("idle")))
        lines.append(line)
    for power, units in battle.losses:
        if units:
            lines.append(("", board_replay_text("lost", power=power_name(power),
                                                units=_lost_text(rules, units, unit, kinds))))
    return lines


def _lost_text(rules: BoardRules | None, units, unit, kinds) -> str:
    """Main-map losses: board pieces by their label, unit types counted by name."""
    counts = Counter(unit(u) if u in kinds else
                     (rules.kinds[u].name if rules is not None and u in rules.kinds else u) for u in units)
    return ", ".join(name if n == 1 else f"{n} x {name}" for name, n in counts.items())


def _event_line(ev: Any, who, unit) -> Line | None:
    if isinstance(ev, MinesLaid):
        return "", board_replay_text("mines_laid", who=who(ev.side), count=ev.count)
    if isinstance(ev, BattleTurnStarted):
        return "turn", board_replay_text("turn", turn=ev.turn, who=who(ev.side))
    if isinstance(ev, PieceMoved):
        return "", board_replay_text("moved", unit=unit(ev.piece), path=" > ".join(ev.path))
    if isinstance(ev, ShotFired):
        gap = board_replay_text("gap", gap=ev.gap) if ev.gap >= 0 else board_replay_text("gun_shot")
        verdict = (board_replay_text("hit", target=unit(ev.at)) if ev.hit else board_replay_text("miss"))
        return ("hit" if ev.hit else "miss",
                board_replay_text("shot_back" if ev.back else "shot", unit=unit(ev.piece),
                                  target=unit(ev.at), gap=gap, need=ev.need, roll=ev.roll,
                                  verdict=verdict))
    if isinstance(ev, MineExploded):
        return "mine", board_replay_text("mine", who=who(ev.side), square=ev.square, unit=unit(ev.piece))
    if isinstance(ev, MinesRevealed):
        return "mine", board_replay_text("mines_revealed", who=who(ev.side), squares=", ".join(ev.squares))
    if isinstance(ev, GunsLost):
        return "mine", board_replay_text("guns_lost", who=who(ev.side),
                                         units=", ".join(unit(p) for p in ev.pieces))
    if isinstance(ev, BoardBattleEnded):
        reason = BOARD_END_REASONS.get(ev.reason, ev.reason)
        return "end", board_replay_text("end", turn=ev.turn, who=who(ev.winner), reason=reason)
    return None


def piece_label(rules: BoardRules | None, piece: str, kind: str) -> str:
    """``a1 (Tank III)``: the unit's id and its kind's name (the key when unknown)."""
    name = rules.kinds[kind].name if rules is not None and kind in rules.kinds else kind
    return f"{piece} ({name})" if name else piece


def plan_text(plan: Any) -> str:
    """A plan in a few words: formation, own squares, mines, doctrine."""
    doctrine = plan.doctrine
    parts = [board_replay_text("formation", formation=plan.formation)]
    if plan.squares:
        parts.append(board_replay_text("squares", squares=", ".join(f"{u} {sq}" for u, sq in plan.squares)))
    if plan.mines:
        parts.append(board_replay_text("mine_squares", count=len(plan.mines)))
    target = BOARD_TARGET_WORDS.get(doctrine.target, "targets " + doctrine.target.replace("_", " "))
    parts.append(board_replay_text("doctrine", stance=doctrine.stance, target=target,
                                   fire_at=doctrine.fire_at))
    return "; ".join(parts)


def shot_count(battle: Any) -> int:
    return sum(1 for ev in battle.board_events if isinstance(ev, ShotFired))

