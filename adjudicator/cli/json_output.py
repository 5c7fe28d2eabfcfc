"""``--json`` output of ``pbem show``, ``check``, ``odds`` and ``verify``: one JSON object on
stdout, for bots and web front ends.  The layout is documented in docs/json.md (with a
JSON Schema per command in docs/json-schema/); keys are only ever added, never renamed
(``schema`` is raised if that ever has to change).  Probabilities are fractions (0..1),
names are the canonical keys of the edition's data (powers, spaces, unit types), and
problems carry their code and parameters as well as the sentence."""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from enum import Enum
from typing import Any

SCHEMA = 1


def emit(data: dict) -> None:
    """Write ``data`` to stdout as indented JSON (UTF-8, keys sorted)."""
    sys.stdout.write(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def plain(value: Any) -> Any:
    """A problem parameter or event value as plain JSON."""
    if isinstance(value, Enum):
        return plain(value.value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(plain(v) for v in value)
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _header(command: str, **fields) -> dict:
    return {"schema": SCHEMA, "command": command, **fields}


def _unit_counts(units) -> dict[str, int]:
    return dict(Counter(u.type.key for u in units))


def _cargo_counts(units) -> dict[str, int]:
    return dict(Counter(c.type for u in units for c in u.cargo))


# --------------------------------------------------------------------------- odds

def _survivors(distribution) -> list[dict]:
    ranked = sorted(distribution.items(), key=lambda kv: (-kv[1], kv[0]))
    return [{"units": dict(comp), "probability": p} for comp, p in ranked]


def odds_object(setup, odds, survivors: bool = True) -> dict:
    """One result (exact or Monte Carlo) of a battle."""
    from ..present.check_view import outcome_shares
    shares = outcome_shares(setup.is_sea, odds)
    out = {
        "method": odds.method,
        "attacker_wins": odds.attacker_wins,
        "defender_wins": odds.defender_wins,
        "both_destroyed": odds.both_destroyed,
        "attacker_retreats": odds.attacker_retreats,
        "stalemate": odds.stalemate,
        "captured": None if setup.is_sea else odds.captured,
        "outcomes": {k.lower(): v for k, v in shares.items()},
        "attacker_tuv_lost": odds.attacker_tuv_lost,
        "defender_tuv_lost": odds.defender_tuv_lost,
        "tuv_swing": odds.tuv_swing,
        "rounds": odds.rounds,
    }
    if odds.method == "exact":
        out["pruned"] = odds.pruned
        out["max_error"] = odds.max_error
    if odds.method == "monte_carlo":
        out["runs"] = odds.runs
        out["stderr"] = dict(odds.stderr)
        out["error_bound"] = odds.error_bound
        names = ("attacker_wins", "defender_wins", "both_destroyed", "attacker_retreats",
                 "stalemate", *(() if setup.is_sea else ("captured",)))
        out["intervals"] = {name: list(odds.interval(name)) for name in names}
    if survivors:
        out["attacker_survivors"] = _survivors(odds.attacker_survivors)
        out["defender_survivors"] = _survivors(odds.defender_survivors)
    return plain(out)


def battle_object(setup) -> dict:
    ships, guns = setup.support
    return {
        "space": setup.space,
        "sea": setup.is_sea,
        "attacker": setup.attacker,
        "attackers": _unit_counts(setup.attackers),
        "attackers_cargo": _cargo_counts(setup.attackers),
        "defenders": _unit_counts(setup.defenders),
        "defenders_cargo": _cargo_counts(setup.defenders),
        "bombarding": _unit_counts(ships),
        "anti_aircraft": _unit_counts(guns),
        "from_sea": _unit_counts(u for u in setup.attackers if u.seaborne),
        "paratroopers": _unit_counts(u for u in setup.attackers if u.airborne),
        "low_luck": bool(setup.low_luck),
    }


def odds_json(game, setup, exact, monte_carlo=None, notes=()) -> dict:
    battle = battle_object(setup)
    del battle["space"], battle["attacker"]          # stand-ins: odds need no real board
    return _header("odds", ruleset=game.ruleset.game_id, battle=battle, notes=list(notes),
                   exact=odds_object(setup, exact),
                   monte_carlo=None if monte_carlo is None else odds_object(setup, monte_carlo))


# --------------------------------------------------------------------------- check

def board_battle_object(planned, threshold: float) -> dict:
    """A Taktyczne Starcie board battle of ``pbem check`` (``service.board_check``)."""
    from collections import Counter

    from ..model.plan_text import plan_text
    battle, odds = planned.battle, planned.odds
    forces = {side: {"units": dict(sorted(Counter(k for _, k in force.units).items())),
                     "mines": force.mines} for side, force in battle.forces}
    return {"area": battle.area, "board": battle.board, "attacker": battle.attacker,
            "defender": battle.defender, "forces": forces,
            "plans": {side: plan_text(plan) for side, plan in battle.plans},
            "odds": {"method": odds.method, "runs": odds.runs, "interpreter": odds.interpreter,
                     "wins": dict(odds.wins),
                     "intervals": {side: list(odds.interval(side)) for side in odds.wins},
                     "error_bound": odds.error_bound, "reasons": dict(odds.reasons),
                     "turns": odds.turns, "turns_bound": odds.turns_bound},
            "warning": odds.wins["attacker"] < threshold}


def check_json(game, state, *, notes, syntax_errors, problems, header: str | None,
               battles, threshold: float, reading=(), board_battles=None) -> dict:
    from ..present.wording import problem_text
    items = [{"kind": "syntax", "code": "syntax", "severity": "error", "line": e.line,
              "column": e.column, "params": {}, "message": e.args[0],
              "suggestion": e.suggestion} for e in syntax_errors]
    items += [{"kind": "rules", "code": p.code, "severity": p.severity, "line": p.line or None,
               "column": None, "params": plain(p.params), "message": problem_text(p, game),
               "suggestion": None} for p in problems]
    if header:
        items.append({"kind": "header", "code": "orders_header", "severity": "error",
                      "line": None, "column": None, "params": {}, "message": header,
                      "suggestion": None})
    errors = sum(i["severity"] == "error" for i in items)
    planned = []
    for setup, odds in battles:
        entry = battle_object(setup)
        entry["odds"] = odds_object(setup, odds, survivors=False)
        entry["success"] = entry["odds"]["outcomes"]["success"]
        entry["warning"] = entry["success"] < threshold
        planned.append(entry)
    power = game.ruleset.powers.get(state.power)
    extra = {} if board_battles is None else {
        "board_battles": [board_battle_object(b, threshold) for b in board_battles]}
    return _header(
        "check", game_id=state.game_id, ruleset=game.ruleset.game_id, power=state.power,
        power_name=power.name if power else state.power, round=state.round,
        turn_number=state.turn_number, ok=errors == 0, error_count=errors,
        warning_count=sum(i["severity"] == "warning" for i in items),
        notes=[{"line": n.line, "message": n.message} for n in notes],
        reading=[{"line": r.line, "written": r.written, "read": list(r.read)} for r in reading],
        problems=items, battles=planned, warn_below=threshold, **extra)


# --------------------------------------------------------------------------- show

def show_json(game, state) -> dict:
    from ..io.codec import encode_state
    from ..present.board_view import territory_income
    counts = state.unit_counts(include_cargo=True)
    order = list(game.ruleset.turn_order) + [k for k in game.ruleset.powers
                                             if k not in game.ruleset.turn_order]
    powers = []
    for key in order:
        power = game.ruleset.powers[key]
        powers.append({
            "key": key, "name": power.name, "side": power.side,
            "ipcs": state.ipcs.get(key, 0), "income": territory_income(game, state, key),
            "territories": sum(1 for o in state.owners.values() if o == key),
            "units": sum(n for (owner, _), n in counts.items() if owner == key),
            "to_move": key == state.power,
        })
    mover = game.ruleset.powers.get(state.power)
    return _header("show", game_id=state.game_id, ruleset=game.ruleset.game_id,
                   title=game.ruleset.title, round=state.round, turn_number=state.turn_number,
                   to_move=state.power, to_move_name=mover.name if mover else state.power,
                   winner=state.winner, powers=powers, state=plain(encode_state(state)))


# --------------------------------------------------------------------------- verify

def verify_json(report, known_problems=None, known_count=None, recorded=None,
                partial: bool = False) -> dict:
    f = report.failure
    luck = {power: {"dice": e.dice, "hits": e.hits, "expected": e.expected,
                    "difference": e.difference, "z": e.z}
            for power, e in sorted(report.luck.items())}
    ok = report.ok and not known_problems and (report.complete or partial)
    return _header(
        "verify", directory=str(report.directory), game_id=report.game_id, ok=ok,
        audit_ok=report.ok, gm_fingerprint=report.gm_fingerprint, program=report.program,
        engine=report.engine, schema_version=report.schema_version,
        turns_found=report.turns_found, turns_checked=report.turns_checked,
        signatures_checked=report.signatures_checked, dice_checked=report.dice_checked,
        turns_replayed=report.turns_replayed, replay=report.complete,
        replay_note=report.replay_note,
        failure=None if f is None else {"file": f.file, "check": f.check, "detail": f.detail},
        warnings=list(report.warnings), luck=plain(luck),
        verified_files=[{"path": p, "digest": d} for p, d in report.verified_files],
        known=None if known_problems is None else {"problems": list(known_problems),
                                                   "files_recorded": known_count},
        recorded=recorded, signer=report.signer, dice_keepers=dict(report.dice_keepers))
