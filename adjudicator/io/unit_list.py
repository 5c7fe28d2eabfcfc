"""The plainest unit lists ("3 inf, 1 tank") read without the orders grammar (issue 24:
start-up).  ``pbem odds`` reads its two sides as unit lists; the grammar (``io.parser``)
reads every form of them ("2x inf + 1 arm", "two inf", cargo in brackets) and explains
every mistake, but loading Lark and its parser costs about a bare interpreter's start-up.
A list of ``COUNT WORD`` groups separated by commas, each word a unit name of the game, is
read here to what ``parser.parse_units`` makes of it (a test compares the two for every
unit name of every edition); anything else is None, for the grammar to read."""

from __future__ import annotations

import re

from ..model.game import Game
from ..model.orders import UnitGroup
from .names import names_of
from .orders_text import MAX_COUNT, MAX_UNITS_TEXT

_GROUP = re.compile(r"\s*([1-9][0-9]{0,4})\s+([A-Za-z]+)\s*")


def plain_unit_groups(text: str, game: Game) -> tuple[UnitGroup, ...] | None:
    """``text``'s groups if it is a plain list whose every word names a unit, else None."""
    if len(text) > MAX_UNITS_TEXT or "\n" in text:
        return None
    names = names_of(game)
    groups = []
    for part in text.split(","):
        match = _GROUP.fullmatch(part)
        if match is None or int(match[1]) > MAX_COUNT:
            return None
        unit = names.find("unit", match[2])
        if unit is None:
            return None
        groups.append(UnitGroup(int(match[1]), unit, None))
    return tuple(groups)
