"""Which of a turn's events are board battles (Taktyczne Starcie's ``ts_board_battle``), by
their kind alone: a report of a turn without any needs no board classes
(``board_battle_replay`` and the pictures are imported only for a turn that has some)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

BOARD_BATTLE_KIND = "ts_board_battle"


def board_battles(events: Iterable[Any]) -> list[Any]:
    """The turn's board battles (``ts_board_battle`` events), in the order they were fought."""
    return [ev for ev in events if getattr(ev, "kind", "") == BOARD_BATTLE_KIND]
