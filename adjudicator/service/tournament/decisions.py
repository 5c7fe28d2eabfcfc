"""The organiser's decisions about a game's result, recorded in the log and replayed.

Two kinds of ``decision`` log entries {game, decision, player, winner, reason, by, at}:

* ``resigned``: a player gave the game up at any time (not only on their own turn: an
  off-turn ``concede`` mail, or ``pbem tournament resign``); the opponent wins;
* ``result``: the organiser entered or overrode the result (``winner``: a player id, or
  None for a draw), with a reason.

The latest decision about a game wins.  :func:`apply_decisions` turns the results read from
the games' files into the results the standings count; ``tournament verify`` recomputes
the standings through it, so a decision is replayed like any game.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from ...model.errors import PbemError
from .results import GameResult

DECISION = "decision"
RESIGNED = "resigned"
RESULT = "result"
MAX_REASON = 300


def decision_entry(game: str, decision: str, reason: str, by: str, at: str,
                   player: str | None = None, winner: str | None = None) -> dict:
    """A checked log entry (the reason is one line of at most ``MAX_REASON`` characters)."""
    reason = " ".join(reason.split())
    if len(reason) > MAX_REASON:
        raise PbemError(f"the reason is too long (at most {MAX_REASON} characters)")
    if decision == RESULT and not reason:
        raise PbemError("an organiser's result needs a reason (--reason)")
    return {"kind": DECISION, "game": game, "decision": decision, "player": player,
            "winner": winner, "reason": reason, "by": by, "at": at}


def decisions_by_game(entries: Iterable[dict]) -> dict[str, dict]:
    """game -> its latest decision."""
    return {e["game"]: e for e in entries if e.get("kind") == DECISION}


def apply_decision(result: GameResult, decision: dict | None, names: dict[str, str]
                   ) -> GameResult:
    """The result as the decision makes it (unchanged without one)."""
    if decision is None:
        return result
    reason = f": {decision['reason']}" if decision.get("reason") else ""
    if decision["decision"] == RESIGNED:
        player = decision["player"]
        return attrs.evolve(result, finished=True, winner=result.opponent(player),
                            how="resignation",
                            detail=f"{names.get(player, player)} resigned{reason}")
    winner = decision.get("winner")
    return attrs.evolve(result, finished=True, winner=winner, how="organiser",
                        detail=f"organiser's decision{reason}")


def apply_decisions(results: Iterable[GameResult], entries: Iterable[dict],
                    names: dict[str, str]) -> list[GameResult]:
    decided = decisions_by_game(entries)
    return [apply_decision(r, decided.get(r.game), names) for r in results]


def decision_problems(entries: Iterable[dict], players_of: dict[str, tuple[str, ...]]
                      ) -> list[str]:
    """What is wrong with the recorded decisions (``players_of``: game -> its players)."""
    problems = []
    for e in entries:
        if e.get("kind") != DECISION:
            continue
        game = e.get("game")
        if game not in players_of:
            problems.append(f"a decision about {game}, which is no game of the tournament")
            continue
        who = e.get("player") if e.get("decision") == RESIGNED else e.get("winner")
        if e.get("decision") not in (RESIGNED, RESULT):
            problems.append(f"{game}: unknown decision {e.get('decision')!r}")
        elif (who is not None or e.get("decision") == RESIGNED) \
                and who not in players_of[game]:
            problems.append(f"{game}: the decision names {who}, who does not play it")
        elif e.get("decision") == RESULT and not e.get("reason"):
            problems.append(f"{game}: an organiser's result without a reason")
    return problems
