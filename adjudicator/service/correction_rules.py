"""The parser, canonical form and adjudication of a game master's correction turn, for
``pbem correct`` (``service.corrections``) and for the audit's replay alike."""

from __future__ import annotations

from typing import Callable

from ..io.corrections import format_correction, is_correction_statement, parse_correction
from ..model.corrections import Correction
from ..model.state import GameState


def rules_for(parse: Callable, canonical: Callable, adjudicate: Callable | None,
              position_before: Callable[[int], GameState]):
    """(parse, canonical, adjudicate) that read, write and apply a correction's text and
    hand anything else to the given ones."""
    from ..engine.corrections import apply_correction

    def parse_any(text, game, power=None):
        if is_correction_statement(text):
            return parse_correction(text, game)
        return parse(text, game, power=power)

    def canonical_any(orders, game):
        if isinstance(orders, Correction):
            return format_correction(orders, game)
        return canonical(orders, game)

    def adjudicate_any(game, state, orders, dice):
        if isinstance(orders, Correction):
            return apply_correction(game, state, orders, position_before)
        return adjudicate(game, state, orders, dice)

    return parse_any, canonical_any, (adjudicate_any if adjudicate is not None else None)
