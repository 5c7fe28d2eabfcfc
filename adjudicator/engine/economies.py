"""Income paid by economy (Global 1940's United Kingdom, digest §3.6 [L389-L425]): a power
with several economies collects each space's value into the economy its map tag names
(``economy:<key>``, e.g. ``economy:uk_pacific``), the others into its main economy.  A tag
naming an economy the owner does not have (the UK Pacific land Germany holds) counts for the
owner's main one.  The income item ``territories_by_economy`` is the ``territories`` item
split that way; an economy whose capital is in enemy hands collects nothing [L419-L425]
(the power's main capital lost, the engine collects nothing at all)."""

from __future__ import annotations

from .income import IncomeContext, item

ECONOMY_TAG = "economy:"


def economy_of(tags, economies: tuple[str, ...]) -> str:
    """The economy a space with ``tags`` pays into, among ``economies`` (the main first)."""
    for tag in tags:
        if tag.startswith(ECONOMY_TAG) and tag[len(ECONOMY_TAG):] in economies:
            return tag[len(ECONOMY_TAG):]
    return economies[0]


def economy_capital_held(inc: IncomeContext, economy: str) -> bool:
    """Whether the capital of ``inc.power``'s ``economy`` is not held by an enemy (the war
    states of the turn being played, else those the sides imply)."""
    rules = inc.game.ruleset
    relations = inc.ctx.board.relations if inc.ctx is not None else None
    for e in rules.powers[inc.power].all_economies:
        if e.key == economy:
            holder = inc.owners.get(e.capital)
            return holder is None or rules.relation(inc.power, holder, relations) != "war"
    return True


@item("territories_by_economy")
def territories_by_economy(inc: IncomeContext) -> list[tuple[str, int]]:
    spaces, economies = inc.game.map.territories, inc.economies
    paid = dict.fromkeys(economies, 0)
    for space, owner in inc.owners.items():
        if owner == inc.power and space in spaces:
            paid[economy_of(spaces[space].tags, economies)] += spaces[space].ipc
    return [(key, amount if economy_capital_held(inc, key) else 0) for key, amount in paid.items()]
