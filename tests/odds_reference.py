"""The tests' oracle for the numpy sweep: the state chain the sweep replaced for large
battles (now ``engine.combat.chain``, which ``battle_odds`` still uses for small ones).

The chain rolls normal dice only; ``low_luck_reference_odds`` is the same chain with Low
Luck hit counts worked out here, independently of ``combat.hitdist``: a group of volleys
worth ``T`` attack points scores ``T // sides`` hits and one more with chance
``(T % sides) / sides`` (docs/low-luck.md).  The chain sums a side's volleys of one stage by
target class; Low Luck groups them by step too, so this oracle is for editions whose every
stage has one step a side (A&A 1941's surprise strike, then ordinary fire)."""

from adjudicator.engine.combat.board import Board
from adjudicator.engine.combat.chain import _Chain
from adjudicator.engine.combat.chain import chain_odds as reference_odds

__all__ = ["reference_odds", "low_luck_reference_odds"]


class _LowLuckChain(_Chain):
    def full_pmf(self, groups: tuple[tuple[int, int, str, int], ...]):
        found = self._full.get(groups)
        if found is None:
            assert all(dice == 1 for *_, dice in groups), "best-of dice: not this oracle's"
            total = sum(n * max(0, min(value, self.sides)) for n, value, *_ in groups)
            sure, rest = divmod(total, self.sides)
            dist = [0.0] * sure + ([1.0 - rest / self.sides, rest / self.sides] if rest else [1.0])
            tail = [0.0] * (len(dist) + 1)
            for k in range(len(dist) - 1, -1, -1):
                tail[k] = tail[k + 1] + dist[k]
            found = self._full[groups] = (dist, tail)
        return found


def low_luck_reference_odds(setup, *, sides: int = 6):
    """The exact odds of ``setup`` (``low_luck`` set) by the state chain."""
    assert setup.low_luck
    return _LowLuckChain(Board(setup), sides).run()
