"""``research 3 dice, chart 2``: buy research dice and name the chart a breakthrough rolls
on (Global 1940's optional research [L1141-L1202], digest §7, §9).

Grammar ``grammar/kinds/research.lark`` (forgiving: ``research 2, chart 1``,
``research: 0 dice chart 2`` to roll only the dice kept; the UK's ``research 6 dice,
chart 2, uk_pacific pays 10`` says what one economy pays); model
``model.orders.Research``; issued by the mover under 'purchase:'; checked and carried
out by the rule ``engine.research`` at the start of its Purchase & Repair; its
``ResearchRolled`` and ``TechnologyGained`` events (dice, breakthrough, technologies
held) are in the report's other events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import KINDS, PURCHASE, kind, tokens_of, is_tree

if TYPE_CHECKING:
    from ...model.orders import Research
    from lark import Tree

RESEARCH_FILLER = frozenset({"dice", "die", "research", "on", "roll", "rolls", "and"})


def _payment(b, line, tokens) -> tuple[str, int] | None:
    """``uk_pacific pays 10`` -> ``("uk_pacific", 10)`` (the economy is named as written:
    the engine knows the economies)."""
    at = next(i for i, t in enumerate(tokens) if t.value.casefold() == "pays")
    amount = [t for t in tokens[at + 1:] if t.type == "INT"]
    who = " ".join(t.value for t in tokens[:at])
    if not who or len(amount) != 1 or len(tokens) != at + 2:
        b.error(line, tokens[at].column, "a payment is '<economy> pays <IPCs>' "
                                         "(example: 'research 6 dice, chart 2, uk_pacific pays 10')")
        return None
    ipcs = b.number(line, amount[0], minimum=0, what="an amount")
    return None if ipcs is None else (who, ipcs)


def build_research(b, line, tree: Tree) -> None:
    """The first number is the dice bought; 'chart N' (or 'chart: N') names the chart;
    '<economy> pays N' (the UK's) says what one economy pays [L401]."""
    dice = chart = None
    after_chart = False
    payments = []
    words = []
    for part in tree.children[1:]:
        if not is_tree(part):
            continue
        tokens = tokens_of(part)
        if any(t.value.casefold() == "pays" for t in tokens):
            paid = _payment(b, line, tokens)
            if paid is None:
                return
            payments.append(paid)
        else:
            words += tokens
    for token in words:
        if token.type not in ("INT", "WORD"):
            continue
        word = token.value.casefold().rstrip(".!")
        if token.type == "INT":
            if after_chart and chart is None:
                chart = b.number(line, token, what="a chart")
                if chart is None:
                    return
            elif dice is None and not after_chart:
                dice = b.number(line, token, minimum=0, what="a number of dice")
                if dice is None:
                    return
            else:
                b.error(line, token.column, f"one number of dice and one chart, please "
                                            f"(example: '{KINDS['research'].example}')")
                return
        elif word == "chart":
            after_chart = True
        elif word not in RESEARCH_FILLER:
            b.error(line, token.column, f"'{token.value}' is not part of a research order "
                                        f"(example: '{KINDS['research'].example}')")
            return
    if dice is None:
        b.error(line, tree.children[0].column,
                f"how many research dice? (example: '{KINDS['research'].example}')")
        return
    b.add(orders.Research(dice, chart, tuple(payments), line.number))


def write_research(order: Research, names) -> str:
    text = f"research {order.dice} {'die' if order.dice == 1 else 'dice'}"
    text += f", chart {order.chart}" if order.chart is not None else ""
    return text + "".join(f", {who} pays {ipcs}" for who, ipcs in order.payments)


kind("research", ["RESEARCH"], ["research"], "research 3 dice, chart 2",
     {"INT", "WORD", "_COLON", "_COMMA", "$END"}, PURCHASE,
     model="Research", engine=["research.research"],
     problems=["research_off", "research_not_allowed", "research_too_many", "research_no_chart",
               "research_too_expensive", "research_unknown_economy", "research_economy_pays"],
     report="other events")(build_research)(write_research)
