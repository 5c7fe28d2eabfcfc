"""Dice sources.  The core never rolls on its own: it asks an injected ``DiceSource``.

``roll(count, purpose)`` returns ``count`` faces in 1..sides.  ``purpose`` is a short,
human-readable description (battle, round, side, unit type, target) that verifiable
sources may record; it must not influence the faces.
"""

from __future__ import annotations

import random
from typing import Protocol


def hit_chance(target: int, sides: int, dice: int = 1) -> float:
    """The chance that one unit hitting on ``target`` or less scores a hit with dice of
    ``sides`` faces, rolling ``dice`` of them and keeping the best: ``1 - (1 - t/s)^dice``
    (for one die exactly ``min(target, sides) / sides``, the figure the odds always used)."""
    if dice == 1:
        return min(target, sides) / sides
    v = max(0, min(target, sides))
    return (sides ** dice - (sides - v) ** dice) / sides ** dice


def read_number(faces, sides: int) -> int:
    """Dice read as one number from 1 to ``sides ** len(faces)``, the first die the most
    significant (one die: its face)."""
    number = 0
    for f in faces:
        number = number * sides + f - 1
    return number + 1


class DiceSource(Protocol):
    sides: int

    def roll(self, count: int, purpose: str) -> list[int]: ...


class SeededDice:
    """Deterministic dice from Python's Mersenne Twister: for tests and simulations only,
    not for play (use the verifiable HMAC source for that)."""

    def __init__(self, seed: int | str | bytes = 0, sides: int = 6):
        self.sides = sides
        self._rng = random.Random(seed)

    def roll(self, count: int, purpose: str = "") -> list[int]:
        return [self._rng.randint(1, self.sides) for _ in range(count)]


class FixedDice:
    """Dice that return a scripted sequence of faces, for rulebook worked examples.
    Raises if the script runs out, so a test notices an unexpected roll."""

    def __init__(self, faces, sides: int = 6):
        self.sides = sides
        self._faces = list(faces)
        self.purposes: list[str] = []

    def roll(self, count: int, purpose: str = "") -> list[int]:
        if count > len(self._faces):
            raise self._ran_out(count, purpose)
        self.purposes.append(purpose)
        out, self._faces = self._faces[:count], self._faces[count:]
        return out

    @property
    def remaining(self) -> int:
        return len(self._faces)

    def _ran_out(self, count: int, purpose: str) -> Exception:
        return AssertionError(f"FixedDice ran out: {count} wanted for {purpose!r}, "
                              f"{len(self._faces)} left")


class SideDice:
    """Every attacker die shows ``attacker``, every defender die ``defender``, any other die
    (e.g. bombing damage) ``other``: the battle engine names the side in each roll's
    purpose.  For rules cases and tests."""

    def __init__(self, attacker: int, defender: int, other: int | None = None, sides: int = 6):
        self.sides = sides
        self.faces = {"attacker": attacker, "defender": defender}
        self.other = attacker if other is None else other
        self.purposes: list[str] = []

    def roll(self, count: int, purpose: str = "") -> list[int]:
        self.purposes.append(purpose)
        padded = f" {purpose} "
        for side, face in self.faces.items():
            if f" {side} " in padded:
                return [face] * count
        return [self.other] * count


class RecordingDice:
    """``dice``, keeping every face it gave in ``faces`` (a battle turn whose dice are kept
    for a later turn file: engine/taktyczne/live_turn.py)."""

    def __init__(self, dice: DiceSource):
        self.sides = getattr(dice, "sides", 6)
        self._dice = dice
        self.faces: list[int] = []

    def roll(self, count: int, purpose: str = "") -> list[int]:
        out = self._dice.roll(count, purpose)
        self.faces += out
        return out


class KeptDice(FixedDice):
    """Faces rolled in an earlier turn file and kept in the state, given in order; a
    ``ValueError`` if they run out (the state kept too few)."""

    def _ran_out(self, count: int, purpose: str) -> Exception:
        return ValueError(f"the dice kept in the state ran out: {count} wanted for {purpose!r}")
