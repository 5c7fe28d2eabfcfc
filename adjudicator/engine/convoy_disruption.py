"""Convoy disruption (Axis & Allies Global 1940, digest §6.7 [L1105-L1127]): income item
``convoy_disruption``, a step of the victim's Collect Income.

A sea zone tagged ``convoy`` next to land of the collecting power, holding a warship of a
power it is at war with (``GameState.relations`` over the sides), costs it the dice of
those warships: 1 per surface warship (``surface_warship``), 2 per submarine (``submerge``),
none for a carrier itself (``carries_air``) but 2 per aircraft aboard it, unless the carrier
is damaged (§10 #8, digest [AMBIGUITY]).  Rolls of 3 or less are summed.  A zone costs at
most the value of the victim's land next to it, and a territory next to several zones at
most its own value: the losses are allocated to lose as much as possible (a maximum flow
from zones to territories, the digest's suggestion, which its worked example agrees with).

Each economy of the power (the UK's two) is disrupted separately, by its own land and dice;
an economy whose capital the enemy holds collects nothing and loses nothing.  The powers of
option ``convoy_disruption_exempt`` (China [L383]) are never disrupted.  Every zone that
costs an economy something is a ``ConvoyDisrupted`` event."""

from __future__ import annotations

from collections import deque

from ..model.events import ConvoyDisrupted
from ..model.rules import WAR
from .economies import economy_capital_held, economy_of
from .income import IncomeContext, item

CONVOY_TAG = "convoy"
EXEMPT_OPTION = "convoy_disruption_exempt"
HIT_AT_MOST = 3                     # rolls of 3 or less count [L1113]
SURFACE_DICE, SUB_DICE, CARRIED_AIR_DICE = 1, 2, 2


def raider_dice(board, piece) -> int:
    """How many dice ``piece`` rolls against a convoy it is at war with."""
    ut = board.utype(piece)
    if ut.has("carries_air"):
        if piece.damage:
            return 0
        return CARRIED_AIR_DICE * sum(1 for c in board.cargo_of(piece)
                                      if board.utype(c).domain.value == "air")
    if ut.has("submerge"):
        return SUB_DICE
    return SURFACE_DICE if ut.has("surface_warship") else 0


def max_flow(supply: dict[str, int], demand: dict[str, int],
             links: dict[str, tuple[str, ...]]) -> dict[str, int]:
    """How much each source of ``supply`` sends, sending as much as possible in all, through
    ``links`` (source -> sinks), each sink taking at most its ``demand`` (Edmonds-Karp on a
    small bipartite graph)."""
    cap: dict[tuple[str, str], int] = {}
    graph: dict[str, set[str]] = {"<s>": set(), "<t>": set()}

    def edge(a: str, b: str, c: int) -> None:
        cap[(a, b)] = cap.get((a, b), 0) + c
        cap.setdefault((b, a), 0)
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set()).add(a)

    for z, amount in supply.items():
        edge("<s>", "z:" + z, amount)
        for t in links.get(z, ()):
            edge("z:" + z, "t:" + t, amount)
    for t, amount in demand.items():
        edge("t:" + t, "<t>", amount)
    while True:
        back = {"<s>": ""}
        queue = deque(["<s>"])
        while queue and "<t>" not in back:
            a = queue.popleft()
            for b in sorted(graph[a]):
                if b not in back and cap[(a, b)] > 0:
                    back[b] = a
                    queue.append(b)
        if "<t>" not in back:
            break
        path, node = [], "<t>"
        while node != "<s>":
            path.append((back[node], node))
            node = back[node]
        push = min(cap[e] for e in path)
        for a, b in path:
            cap[(a, b)] -= push
            cap[(b, a)] += push
    return {z: amount - cap[("<s>", "z:" + z)] for z, amount in supply.items()}


@item("convoy_disruption", projected=False)
def convoy_disruption(inc: IncomeContext) -> list[tuple[str, int]]:
    """``[(economy, -loss)]`` for each economy of the power that loses income."""
    game, ctx, power = inc.game, inc.ctx, inc.power
    exempt = str(game.ruleset.option(EXEMPT_OPTION, "")).split(",")
    if ctx is None or power in [e.strip() for e in exempt]:
        return []
    board, spaces = ctx.board, game.map.territories
    out: list[tuple[str, int]] = []
    for economy in inc.economies:
        if not economy_capital_held(inc, economy):
            continue
        lines = _economy_losses(inc, board, economy, spaces)
        if lines:
            out.append((economy, -sum(loss for _, loss in lines)))
    return out


def _economy_losses(inc: IncomeContext, board, economy: str, spaces) -> list[tuple[str, int]]:
    """``[(zone, loss)]`` of one economy, with their events."""
    power = inc.power
    rolled: dict[str, tuple[tuple[int, ...], int, tuple[str, ...]]] = {}
    for zone in sorted(k for k, t in spaces.items() if t.is_sea and CONVOY_TAG in t.tags):
        land = tuple(sorted(
            t for t in inc.game.map.neighbours(zone)
            if inc.owners.get(t) == power and not spaces[t].is_sea
            and economy_of(spaces[t].tags, inc.economies) == economy and spaces[t].ipc > 0))
        if not land:
            continue
        dice = sum(raider_dice(board, p) for p in board.at(zone)
                   if inc.game.ruleset.relation(power, p.owner, board.relations) == WAR)
        if dice <= 0:
            continue
        rolls = inc.roll(dice, f"convoy {zone}")
        rolled[zone] = (rolls, sum(spaces[t].ipc for t in land), land)
    if not rolled:
        return []
    supply = {z: min(sum(r for r in rolls if r <= HIT_AT_MOST), cap)
              for z, (rolls, cap, _) in rolled.items()}
    demand = {t: spaces[t].ipc for _, _, land in rolled.values() for t in land}
    sent = max_flow(supply, demand, {z: land for z, (_, _, land) in rolled.items()})
    out = []
    for zone, (rolls, cap, _) in rolled.items():
        if inc.ctx is not None and rolls:
            inc.ctx.emit(ConvoyDisrupted(power, economy, zone, rolls, cap, sent[zone]))
        if sent[zone]:
            out.append((zone, sent[zone]))
    return out

