"""``research 3 dice, chart 2``: buy research dice and name the chart a breakthrough rolls
on (Global 1940's optional research [L1141-L1202], digest §7, §9).

Grammar ``grammar/kinds/research.lark`` (forgiving: ``research 2, chart 1``,
``research: 0 dice chart 2`` to roll only the dice kept); model
``model.orders.Research``; issued by the mover under 'purchase:'; checked and carried
out by the rule ``engine.research`` at the start of its Purchase & Repair; its
``ResearchRolled`` and ``TechnologyGained`` events (dice, breakthrough, technologies
held) are in the report's other events.
"""

from __future__ import annotations

from lark import Tree

from ...model.orders import Research
from .base import KINDS, PURCHASE, kind, tokens_of

RESEARCH_FILLER = frozenset({"dice", "die", "research", "on", "roll", "rolls", "and"})


def build_research(b, line, tree: Tree) -> None:
    """The first number is the dice bought; 'chart N' (or 'chart: N') names the chart."""
    dice = chart = None
    after_chart = False
    words = [t for part in tree.children[1:] if isinstance(part, Tree) for t in tokens_of(part)]
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
    b.add(Research(dice, chart, line.number))


def write_research(order: Research, names) -> str:
    text = f"research {order.dice} {'die' if order.dice == 1 else 'dice'}"
    return text + (f", chart {order.chart}" if order.chart is not None else "")


kind("research", ["RESEARCH"], ["research"], "research 3 dice, chart 2",
     {"INT", "WORD", "_COLON", "_COMMA", "$END"}, PURCHASE,
     model=Research, engine=["research.research"],
     problems=["research_off", "research_not_allowed", "research_too_many", "research_no_chart",
               "research_too_expensive"],
     report="other events")(build_research)(write_research)
