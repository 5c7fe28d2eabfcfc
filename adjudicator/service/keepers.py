"""Dice keepers: who commits the seed of each power's turns (issue 12).

In a game with dice keepers the seed of a power's turn is committed, kept secret and
revealed by a player of the **other side** (or by the game master), never by the mover:
the mover cannot know the dice when writing orders, and the keeper cannot choose the
orders.  ``dice_keepers`` in the game file maps every power to its keeper -- the key of
the power whose player keeps it, or ``"game_master"``.

This module holds the rules of the assignment, without any I/O:

* ``default_keepers``: for each power, the next power after it in the turn order that is
  not its ally and whose player does not also play it or one of its allies -- so the
  keeper of a turn is usually the next player to move, who receives the orders, plays
  them out and then moves (the rhythm of a TripleA PBEM game);
* ``parse_assignment``: ``--keepers`` on the command line;
* ``configuration_problems``: why an assignment would let one side roll its own dice
  (a keeper allied with the power it keeps, a keeper whose key also plays that power or
  an ally).  ``pbem new`` refuses such a game; ``pbem verify`` warns about one;
* ``next_kept_turn`` and ``kept_powers``: the turn a keeper commits to next, and what a
  keeper keeps;
* ``Join``: what a player sends the host before the game exists -- their key, address and
  a signed first commitment for each power they play (``service.keeper_join`` writes
  and reads the file); ``statement_problem`` checks such a commitment.
"""

from __future__ import annotations

from typing import Mapping

import attrs

from ..io.turnfile import GAME_MASTER, KeeperRecord, PlayerRecord, keeper_statement
from ..model.errors import PbemError

OPPONENTS = "opponents"            # --keepers opponents: default_keepers
GM_ONLY = ("game-master", "game_master", "gm", "none")   # --keepers gm: no dice keepers


def _key(players: Mapping[str, PlayerRecord], power: str) -> str | None:
    record = players.get(power)
    return record.key if record is not None else None


def _same(a: str | None, b: str | None) -> bool:
    from ..io import keys          # cryptography: only to compare keys
    return a is not None and b is not None and keys.same_key(a, b)


def keeper_problem(ruleset, players: Mapping[str, PlayerRecord], power: str, keeper: str,
                   game_master: str | None = None) -> str | None:
    """Why ``keeper`` must not keep the dice of ``power`` (None: it may)."""
    name = lambda k: ruleset.powers[k].name if k in ruleset.powers else k  # noqa: E731
    side = [p for p in ruleset.turn_order if ruleset.allied(power, p)]
    if keeper == GAME_MASTER:
        key, who = game_master, "the game master"
        if key is None:
            return f"{name(power)}'s dice are kept by the game master, but the game has none"
    else:
        if keeper not in ruleset.powers:
            return f"{keeper!r} keeps {name(power)}'s dice, but is not a power of the game"
        if keeper == power:
            return f"{name(power)} cannot keep its own dice"
        if ruleset.allied(power, keeper):
            return (f"{name(keeper)} keeps the dice of {name(power)}, its ally: a side would "
                    "roll its own dice")
        key, who = _key(players, keeper), f"the player of {name(keeper)}"
    for mate in side:
        if _same(key, _key(players, mate)):
            return (f"{who} keeps the dice of {name(power)} and also plays "
                    + (name(mate) if mate == power else f"{name(mate)}, an ally of {name(power)}")
                    + " (the same key): a side would roll its own dice")
    return None


def configuration_problems(ruleset, players: Mapping[str, PlayerRecord],
                           dice_keepers: Mapping[str, str],
                           game_master: str | None = None) -> list[str]:
    """Every reason the assignment lets one side roll its own dice, or leaves a power
    without a keeper."""
    problems = []
    for power in ruleset.turn_order:
        keeper = dice_keepers.get(power)
        if keeper is None:
            problems.append(f"{ruleset.powers[power].name} has no dice keeper")
            continue
        why = keeper_problem(ruleset, players, power, keeper, game_master)
        if why is not None:
            problems.append(why)
    return problems


def default_keepers(ruleset, players: Mapping[str, PlayerRecord],
                    game_master: str | None = None) -> dict[str, str]:
    """For each power, the next power after it in the turn order that may keep its dice
    (``keeper_problem``); ``PbemError`` if a power has none."""
    order = list(ruleset.turn_order)
    out = {}
    for i, power in enumerate(order):
        for step in range(1, len(order)):
            candidate = order[(i + step) % len(order)]
            if keeper_problem(ruleset, players, power, candidate, game_master) is None:
                out[power] = candidate
                break
        else:
            raise PbemError(f"no opponent can keep the dice of {ruleset.powers[power].name}: "
                            "every other power is its ally or played with the same key")
    return out


def parse_assignment(text: str, resolve_power) -> dict[str, str] | str | None:
    """``--keepers``: ``opponents`` (``default_keepers``), ``game-master`` (no dice keepers:
    None), or ``POWER=KEEPER,...`` where a keeper is a power or ``game-master``.
    ``resolve_power(name) -> key`` accepts the usual names and aliases."""
    value = text.strip()
    if value.lower() == OPPONENTS:
        return OPPONENTS
    if value.lower() in GM_ONLY:
        return None
    out: dict[str, str] = {}
    for item in value.split(","):
        power, sep, keeper = item.partition("=")
        if not sep or not power.strip() or not keeper.strip():
            raise PbemError(f"--keepers wants 'opponents', 'game-master' or "
                            f"POWER=KEEPER[,POWER=KEEPER...], not {item.strip()!r}")
        key = resolve_power(power.strip())
        if key in out:
            raise PbemError(f"--keepers names the keeper of {power.strip()} twice")
        out[key] = (GAME_MASTER if keeper.strip().lower() in GM_ONLY
                    else resolve_power(keeper.strip()))
    return out


def complete_assignment(ruleset, players, given: Mapping[str, str],
                        game_master: str | None = None) -> dict[str, str]:
    """``given`` for the powers it names, ``default_keepers`` for the others."""
    defaults = {}
    if set(ruleset.turn_order) - set(given):
        defaults = default_keepers(ruleset, players, game_master)
    return {p: given.get(p, defaults.get(p)) for p in ruleset.turn_order}


def next_kept_turn(turn_order, dice_keepers: Mapping[str, str], power: str, turn_number: int,
                   keeper: str) -> int:
    """The number of the next turn after turn ``turn_number`` (``power``'s) whose dice
    ``keeper`` keeps (every power moves once per round, in turn order)."""
    order = list(turn_order)
    i = order.index(power)
    for step in range(1, len(order) + 1):
        if dice_keepers.get(order[(i + step) % len(order)]) == keeper:
            return turn_number + step
    return turn_number + len(order)


def first_kept_turn(turn_order, dice_keepers: Mapping[str, str], first_power: str,
                    first_turn: int, keeper: str) -> int:
    """The number of the first turn (from ``first_turn``, ``first_power``'s) ``keeper``
    keeps."""
    if dice_keepers.get(first_power) == keeper:
        return first_turn
    return next_kept_turn(turn_order, dice_keepers, first_power, first_turn, keeper)


def kept_powers(dice_keepers: Mapping[str, str], keeper: str) -> list[str]:
    return [p for p, k in dice_keepers.items() if k == keeper]


def keepers_played_with(game_file, key) -> list[str]:
    """The keepers (power keys, or ``game_master``) whose key is ``key``."""
    out = []
    for keeper in sorted(set(game_file.dice_keepers.values())):
        line = (game_file.game_master if keeper == GAME_MASTER
                else _key(game_file.players, keeper))
        if _same(line, key):
            out.append(keeper)
    return out


@attrs.frozen
class Join:
    """A player's answer to an invitation: who they are and, for each power they play, a
    signed first commitment (used if that power keeps dice)."""

    game_id: str
    ruleset: str
    player: PlayerRecord                   # key (required), email, name
    keepers: dict[str, KeeperRecord]       # power -> first commitment, signed by the key


def statement_problem(game_id: str, keeper: str, record: KeeperRecord, key) -> str | None:
    """Why ``record`` is not ``keeper``'s valid signed first commitment in ``game_id``
    (None: it is)."""
    if record.signature is None:
        return f"the first commitment of {keeper} is not signed"
    from ..io import sshsig        # cryptography: only to verify
    try:
        sshsig.verify(keeper_statement(game_id, keeper, record.commitment), record.signature,
                      key, sshsig.NAMESPACE_KEEPER)
    except PbemError as exc:
        return f"the first commitment of {keeper} does not verify: {exc}"
    return None


def join_problem(join: Join, game_id: str, ruleset: str) -> str | None:
    """Why a join cannot be used for this game (None: it can)."""
    if join.game_id != game_id:
        return f"a join file is for the game {join.game_id!r}, not {game_id!r}"
    if join.ruleset != ruleset:
        return f"a join file is for {join.ruleset}, not {ruleset}"
    if join.player.key is None:
        return "a join file names no key"
    for power, record in sorted(join.keepers.items()):
        why = statement_problem(game_id, power, record, join.player.key)
        if why:
            return f"join file of {power}: {why}"
    return None
