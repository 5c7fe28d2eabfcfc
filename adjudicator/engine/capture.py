"""Capture, liberation and capital plunder (digest 1941 §5.3.2 step 7, §5.3.3, §5.3.4;
Spring 1942 §5.5).

Units with ``captured_with_territory`` (factories, AA guns) that belong to an enemy of the
territory's new controller change owner with it; they cannot move for the rest of the
turn.  Friendly ones stay with their owner (1942: when a capital is freed, AA guns in its
other territories stay with the ally who held them, [L578-L580]) -- except those the ally
captured this turn: liberation is judged at the end of the turn ([L568]), so they go back
to the original owner with the territory.
"""

from __future__ import annotations

from ..model.events import Captured, Plundered, UnitsCaptured
from .conditions import original_owner
from .context import TurnContext
from .economies import economy_of
from .turn_rules import ability_hooks, any_hook, hooked, rules_with
from .working import count_types


def take_territory(ctx: TurnContext, territory: str) -> None:
    """The phasing power's land units take ``territory``.

    Liberation: a territory originally owned by another power of the attacker's side goes
    back to that power, unless the capital of the economy it pays into (the power's capital
    for a power with one economy) is in enemy hands, in which case the liberator keeps it;
    land of a nation that does not play goes back to it only when the nation's data says
    ``liberated = true`` (Europe's Middle East; a Global neutral's land once taken is only
    captured).  Taking an enemy capital plunders the unspent IPCs of the economy it is the
    capital of.  Freeing a capital returns the owner's other original territories of that
    economy held by its allies.
    """
    board = ctx.board
    power = ctx.power
    rules = board.rules
    previous = board.owners.get(territory)
    original = original_owner(board.map[territory])
    new_owner = power
    liberated = False
    if original and original != power and board.allied(original, power) and (
            original in rules.powers or rules.nations[original].liberated):
        # a nation that does not play has no capital to be held by the enemy
        capital = (_economy_capital(rules, original, board.map[territory].tags)
                   if original in rules.powers else None)
        capital_free = capital is None or capital == territory or board.allied(
            board.owners.get(capital), original)
        if capital_free:
            new_owner = original
            liberated = True
    set_owner(ctx, territory, new_owner, previous, liberated)
    if previous in rules.powers and not board.allied(power, previous):
        _plunder(ctx, territory, previous)

    if new_owner not in rules.powers:
        return
    economies = rules.powers[new_owner].all_economies
    for economy in economies:
        if economy.capital != territory:
            continue
        # A freed capital brings back its economy's original territories held by allies.
        # One an ally took from the enemy earlier this turn counts as liberated: whether a
        # territory is liberated is judged at the end of the turn (1942 [L566]), so the
        # units captured with it this turn go to the original owner too.
        keys = tuple(e.key for e in economies)
        for key, owner in sorted(board.owners.items()):
            t = board.map[key]
            if (original_owner(t) == new_owner and owner != new_owner
                    and economy_of(t.tags, keys) == economy.key
                    and board.allied(owner, new_owner)):
                set_owner(ctx, key, new_owner, owner, True, with_captured=True)


def _economy_capital(rules, power: str, tags) -> str:
    """The capital of the economy of ``power`` that land with ``tags`` pays into (Global
    1940's UK: Calcutta for UK Pacific land [L421])."""
    economies = rules.powers[power].all_economies
    key = economy_of(tags, tuple(e.key for e in economies))
    return next(e.capital for e in economies if e.key == key)


def _plunder(ctx: TurnContext, territory: str, victim: str) -> None:
    """Taking the capital of one of ``victim``'s economies takes that economy's unspent
    IPCs, into the phasing power's economy that ``plunders`` it, else its main one (Global
    1940's UK: Berlin and Rome to UK Europe, Tokyo to UK Pacific [L419-L425])."""
    board, power = ctx.board, ctx.power
    powers = board.rules.powers
    for economy in powers[victim].all_economies:
        if economy.capital != territory:
            continue
        looter = next((e.key for e in powers[power].all_economies if territory in e.plunders),
                      powers[power].economy.key)
        loot = board.ipcs.get(economy.key, 0)
        if loot:
            board.ipcs[economy.key] = 0
            board.ipcs[looter] = board.ipcs.get(looter, 0) + loot
        ctx.emit(Plundered(power, victim, loot))


def set_owner(ctx: TurnContext, territory: str, new_owner: str, previous: str | None,
              liberated: bool, with_captured: bool = False) -> None:
    """Change a space's controller, with the units that are captured with it (and, with
    ``with_captured``, those an ally captured with it this turn); then the ``on_capture``
    hooks run: the edition's rules, and the abilities of the units in the space
    (``engine.turn_rules``)."""
    board = ctx.board
    board.owners[territory] = new_owner
    ctx.emit(Captured(territory, new_owner, previous or "", board.map[territory].ipc, liberated))
    _units_captured(ctx, territory, new_owner, with_captured)
    here = {p.type: board.utype(p) for p in board.at(territory, include_cargo=True)}
    if not rules_with(board.rules, "on_capture") and not any(
            any_hook(board.rules, ut, "on_capture") for ut in here.values()):
        return
    done = set()
    for hook, _ in hooked(board.rules, here.values(), "on_capture"):
        if id(hook) not in done:
            done.add(id(hook))
            hook.on_capture(ctx, territory, new_owner, previous)


def _units_captured(ctx: TurnContext, territory: str, new_owner: str,
                    with_captured: bool) -> None:
    board = ctx.board
    taken = [p for p in board.at(territory)
             if any_hook(board.rules, board.utype(p), "changes_owner")
             and any(a.changes_owner(board, p, new_owner, with_captured)
                     for a, _ in ability_hooks(board.utype(p), "changes_owner"))]
    by_owner: dict[str, list] = {}
    for p in taken:
        by_owner.setdefault(p.owner, []).append(p)
    for owner, pieces in sorted(by_owner.items()):
        for p in pieces:
            p.owner = new_owner
            p.captured = True
        ctx.emit(UnitsCaptured(territory, new_owner, owner, count_types(pieces)))
