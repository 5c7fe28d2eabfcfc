"""``defend all: losses inf, sub, tank; submerge losing``: a standing defence order (loss
order, submerge policy, where fighters whose carrier sank land), kept until replaced.

Grammar ``grammar/kinds/defend.lark``; model ``model.orders.DefenceOrder`` (lines for the
same space merge); issued by a power for the turns of others; stored by ``engine.turn``
(``_store_standing_orders``), read by the battles (``engine.battles.defender_orders``);
shown in the report's standing orders section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from ...model.orders import DefenceOrder, SubmergePolicy
from .base import STANDING, STANDING_ISSUER, kind, losses, losses_text, is_tree

if TYPE_CHECKING:
    from lark import Tree


def build_defend(b, line, tree: Tree) -> None:
    target = tree.children[1]
    first = target.children[0]
    space: str | None = None
    known = True
    if is_tree(first):            # otherwise: all / everywhere / *
        space = b.resolve(line, "space", first.children)
        known = space is not None
    loss: tuple[str, ...] | None = None
    policy: SubmergePolicy | None = None
    landing: tuple[str, ...] | None = None
    for clause in tree.children[2:]:
        if clause.data == "losses":
            loss = losses(b, line, clause)
        elif clause.data == "defend_landing":
            found = [b.resolve(line, "space", n.children) for n in clause.children[1:]]
            known = known and None not in found
            landing = tuple(found)
        else:
            policy = SubmergePolicy(clause.children[1].value.casefold())
    if not known:
        return

    def update(old: DefenceOrder | None) -> DefenceOrder:
        old = old or DefenceOrder(space, line=line.number)
        return attrs.evolve(old, loss_order=loss if loss is not None else old.loss_order,
                            submerge=policy if policy is not None else old.submerge,
                            landing=landing if landing is not None else old.landing)
    b.merge("defend", space, update, line.number)


def write_defend(order: DefenceOrder, names) -> str:
    clauses = []
    if order.loss_order:
        clauses.append(losses_text(order.loss_order, names))
    if order.submerge is not None:
        clauses.append(f"submerge {SubmergePolicy(order.submerge).value}")
    if order.landing:
        clauses.append("land " + ", ".join(order.landing))
    target = "all" if order.space is None else order.space
    return f"defend {target}: " + "; ".join(clauses)


kind("defend", ["DEFEND"], ["defend"], "defend all: losses inf, tank; submerge losing",
     {"WORD", "INT", "_COLON", "_SEMICOLON", "_COMMA", "LOSSES", "SUBMERGE", "POLICY", "ALL",
      "STAR", "LANDS", "$END"}, STANDING,
     model=DefenceOrder, issuer=STANDING_ISSUER,
     engine=["turn._store_standing_orders", "battles.defender_orders"],
     report="standing orders")(build_defend)(write_defend)
