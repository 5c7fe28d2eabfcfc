"""Capture, liberation and capital plunder (digest §5.3.2 step 7, §5.3.3, §5.3.4)."""

from __future__ import annotations

from .context import TurnContext
from ..model.events import Captured, Plundered


def take_territory(ctx: TurnContext, territory: str) -> None:
    """The phasing power's land units take ``territory``.

    Liberation: a territory originally owned by another power of the attacker's side goes
    back to that power, unless that power's capital is in enemy hands, in which case the
    liberator keeps it.  Taking an enemy capital plunders its owner's unspent IPCs.
    Freeing a capital returns the owner's other original territories held by its allies.
    """
    board = ctx.board
    power = ctx.power
    rules = board.rules
    previous = board.owners.get(territory)
    original = board.map[territory].original_owner
    new_owner = power
    liberated = False
    if original and original != power and rules.allied(original, power):
        capital = rules.powers[original].capital
        capital_free = capital == territory or rules.allied(board.owners.get(capital), original)
        if capital_free:
            new_owner = original
            liberated = True
    board.owners[territory] = new_owner
    ctx.emit(Captured(territory, new_owner, previous or "", board.map[territory].ipc, liberated))

    capital_of = board.map[territory].capital_of
    if capital_of is None:
        return
    if previous == capital_of and not rules.allied(power, capital_of):
        loot = board.ipcs.get(capital_of, 0)
        if loot:
            board.ipcs[capital_of] = 0
            board.ipcs[power] = board.ipcs.get(power, 0) + loot
        ctx.emit(Plundered(power, capital_of, loot))
    if new_owner == capital_of:
        # A freed capital brings back its power's original territories held by allies.
        for key, owner in sorted(board.owners.items()):
            t = board.map[key]
            if (t.original_owner == capital_of and owner != capital_of
                    and rules.allied(owner, capital_of)):
                board.owners[key] = capital_of
                ctx.emit(Captured(key, capital_of, owner, t.ipc, True))
