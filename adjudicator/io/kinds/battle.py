"""``battle Karelia: retreat to West Russia if attackers < 3; losses inf, tank``: the
attacker's instructions for one battle (retreat conditions, loss order, submarines).
``battle France: retreat ftr to United Kingdom after round 1``: only the fighter leaves
(where the edition's option ``partial_retreat`` allows it), the others fight on.

Grammar ``grammar/kinds/battle.lark``; model ``model.orders.BattleDirective`` (lines for
the same battle merge); issued by the mover in the combat phase; checked by
``engine.steps.check_directives``, read by the battles (``engine.battles``); shown in the
report's battle section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from ...model.orders import ALL, Comparison, UnitGroup
from ...model import orders
from .base import COMBAT, groups_text, kind, losses, losses_text, tokens_of, unit_text, is_tree

if TYPE_CHECKING:
    from ...model.orders import BattleDirective, RetreatCondition
    from lark import Tree

CMP = {"<": Comparison.LT, "<=": Comparison.LE, "≤": Comparison.LE, ">": Comparison.GT,
       ">=": Comparison.GE, "≥": Comparison.GE, "==": Comparison.EQ, "=": Comparison.EQ}
BATTLE_LINE = frozenset({"WORD", "INT", "A", "_COLON", "_SEMICOLON", "_COMMA", "RETREAT", "LOSSES",
                         "SUBS", "TO", "IF", "OR", "AFTER", "ROUND", "SIDE", "MEASURE", "CMP",
                         "FIRE", "SUBMERGE", "$END"})


def _retreat(b, line, clause: Tree) -> tuple[list[RetreatCondition], list[UnitGroup] | None]:
    """The clause's conditions, and the units it names (None: the whole battle retreats)."""
    destination = None
    conditions = []
    units: list[UnitGroup] | None = None
    named = [c for c in clause.children if is_tree(c) and c.data == "groups"]
    if named:
        groups = named[0].children
        lone = groups[0] if len(groups) == 1 and groups[0].data == "group_nocount" else None
        has_to = any(is_tree(c) and c.data == "retreat_to" for c in clause.children)
        if lone is not None and not has_to and len(lone.children) == 1 and \
                b.names.find("space", line.text(lone.children[0].children)) is not None:
            destination = b.resolve(line, "space", lone.children[0].children)   # "retreat WR if ..."
        else:
            units = []
            for g in groups:
                unit = b.unit_only(line, g, what="retreat")
                if unit is not None:      # "retreat fighters": no count, every one of them
                    units.append(attrs.evolve(unit, count=ALL) if g.data == "group_nocount" else unit)
    for child in clause.children:
        if not is_tree(child):
            continue
        if child.data == "retreat_to":
            destination = b.resolve(line, "space", child.children[-1].children)
        elif child.data == "compare_condition":
            fields = {t.type: t for t in tokens_of(child)}
            side = "attackers" if fields["SIDE"].value.casefold().startswith("att") else "defenders"
            measure = "tuv" if "MEASURE" in fields and \
                fields["MEASURE"].value.casefold() != "units" else "units"
            threshold = b.number(line, fields["INT"], minimum=0)
            if threshold is not None:
                conditions.append(dict(side=side, comparison=CMP[fields["CMP"].value],
                                       threshold=threshold, measure=measure))
        elif child.data == "round_condition":
            number = next(t for t in tokens_of(child) if t.type == "INT")
            value = b.number(line, number, what="the round number")
            if value is not None:
                conditions.append(dict(after_round=value))
    return [orders.RetreatCondition(destination=destination, **c) for c in conditions], units


def build_battle(b, line, tree: Tree) -> None:
    space = b.resolve(line, "space", tree.children[1].children)
    retreat: list[RetreatCondition] | None = None
    units: list[UnitGroup] | None = None
    loss: tuple[str, ...] | None = None
    subs: str | None = None
    for clause in tree.children[2:]:
        if clause.data == "retreat":
            conditions, named = _retreat(b, line, clause)
            retreat = (retreat or []) + conditions
            if named is not None:
                units = (units or []) + named
        elif clause.data == "losses":
            loss = losses(b, line, clause)
        elif clause.data == "subs":
            subs = clause.children[1].value.casefold()
    if space is None:
        return

    def update(old: BattleDirective | None) -> BattleDirective:
        old = old or orders.BattleDirective(space, line=line.number)
        return attrs.evolve(old, retreat=tuple(retreat) if retreat is not None else old.retreat,
                            retreat_units=tuple(units) if units is not None else old.retreat_units,
                            loss_order=loss if loss is not None else old.loss_order,
                            subs=subs if subs is not None else old.subs)
    b.merge("battle", space, update, line.number)


def retreat_units_text(groups, names) -> str:
    """The units of a per-unit retreat; a group of ``ALL`` is the plural name alone."""
    return ", ".join(unit_text(g.type, 2, names) if g.count == ALL else groups_text((g,), names)
                     for g in groups)


def condition_text(cond: RetreatCondition) -> str:
    if cond.side is not None and cond.after_round is None:
        if cond.comparison is None or cond.threshold is None:
            raise ValueError(f"incomplete retreat condition: {cond!r}")
        measure = " tuv" if cond.measure == "tuv" else ""
        return f"if {cond.side}{measure} {Comparison(cond.comparison).value} {cond.threshold}"
    if cond.after_round is not None and cond.side is None:
        return f"after round {cond.after_round}"
    raise ValueError(f"retreat condition cannot be written as text: {cond!r}")


def retreat_text(conditions: tuple[RetreatCondition, ...], units: str = "") -> list[str]:
    """The retreat clauses; ``units`` (written groups) go in the first one, which then
    always says "to" before a destination."""
    clauses: list[str] = []
    runs: list[list[RetreatCondition]] = []
    for cond in conditions:
        if runs and runs[-1][0].destination == cond.destination:
            runs[-1].append(cond)
        else:
            runs.append([cond])
    for run in runs:
        head = "retreat" + (f" {units}" if units and not clauses else "")
        if run[0].destination is not None:
            head += f" to {run[0].destination}"
        clauses.append(head + " " + " or ".join(condition_text(c) for c in run))
    return clauses


def write_battle(order: BattleDirective, names) -> str:
    clauses = retreat_text(order.retreat, retreat_units_text(order.retreat_units, names)
                           if order.retreat_units else "")
    if order.loss_order:
        clauses.append(losses_text(order.loss_order, names))
    if order.subs:
        clauses.append(f"subs {order.subs}")
    return f"battle {order.space}: " + "; ".join(clauses)


kind("battle", ["BATTLE"], ["battle"],
     "battle Karelia: retreat to West Russia if attackers < 3; losses inf, tank",
     BATTLE_LINE, COMBAT, model="BattleDirective",
     engine=["steps.check_directives", "battles.fight"],
     problems=["directive_without_battle", "retreat_not_adjacent", "retreat_redirected",
               "retreat_impossible", "partial_retreat_refused", "partial_retreat_units_missing"],
     report="conduct_combat")(build_battle)(write_battle)
