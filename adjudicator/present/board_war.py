"""The war state on the board picture: which powers of opposite sides are at war, which are
not, and where each neutral nation stands (rows of the picture's legend).

Drawn for a ruleset whose war states are state (game.toml ``[[relation]]``: Global 1940's
powers that start at peace) or a position whose ``GameState.relations`` say something; read
with ``Ruleset.relation``, so the sides, the starting relations and every declaration or
turned neutral in the state count.  Machine-readable: each pair is a ``g.relation`` with
``data-pair`` ("a|b", keys sorted) and ``data-relation`` ("war"/"neutral"/"allied"); each
nation a ``g.nation-stance`` with ``data-nation`` and ``data-stance``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape

from ..model.game import Game
from ..model.rules import ALLIED, WAR

INK = "#1E1E1E"
Items = list[tuple[float, str]]


def shows_war_state(game: Game, relations: Mapping[str, str] | None) -> bool:
    """Whether the picture has a war-state panel: the ruleset starts some pairs at peace or
    the position records relations."""
    return bool(game.ruleset.starting_relations or relations)


def war_rows(game: Game, relations: Mapping[str, str] | None, styles: Mapping,
             nation_tags: Mapping[str, str], text: Callable[[float, str], str]) -> list[tuple[str, Items]]:
    """Legend rows: "War" and "Peace" (the pairs of powers of opposite sides, or with a
    relation of their own in the state, at war and not at war), then "Neutral" (each
    nation's stance towards each side)."""
    rules = game.ruleset
    relations = dict(relations or {})
    powers = list(rules.turn_order) + [k for k in rules.powers if k not in rules.turn_order]
    at_war: Items = []
    at_peace: Items = []
    for i, a in enumerate(powers):
        for b in powers[i + 1:]:
            key = "|".join(sorted((a, b)))
            if rules.powers[a].side == rules.powers[b].side and key not in relations:
                continue
            state = rules.relation(a, b, relations)
            if state == ALLIED:
                continue
            item = (56.0, f'<g class="relation" data-pair="{escape(key)}" data-relation="{state}">'
                          f'<title>{escape(rules.powers[a].name)} and {escape(rules.powers[b].name)}: '
                          f'{"at war" if state == WAR else "not at war"}</title>'
                          f'{_chip(0, styles[a])}<text class="pb-legend" x="22" y="4" text-anchor="middle">'
                          f'{"×" if state == WAR else "–"}</text>{_chip(28, styles[b])}</g>')
            (at_war if state == WAR else at_peace).append(item)
    rows = [("War", at_war or [(80.0, text(0, "no one"))]),
            ("Peace", at_peace or [(80.0, text(0, "no one"))])]
    sides = sorted({p.side for p in rules.powers.values()})
    stances: Items = []
    for key, nation in rules.nations.items():
        by_side = {side: {rules.relation(key, p, relations) for p, power in rules.powers.items()
                          if power.side == side} for side in sides}
        friendly = [side for side, rel in by_side.items() if rel == {ALLIED}]
        hostile = [side for side, rel in by_side.items() if WAR in rel]
        words = ([f"friendly to {', '.join(friendly)}"] if friendly else []) + \
                ([f"at war with {', '.join(hostile)}"] if hostile else [])
        stance = "; ".join(words) or "neutral to all"
        tag = nation_tags.get(key) or (styles[key].initials if key in styles else key[:3].upper())
        label = f"{nation.name}: {stance}"
        width = 6 + 6 * len(tag)
        stances.append((width + 16 + 6.0 * len(label),
                        f'<g class="nation-stance" data-nation="{escape(key)}" data-stance="{escape(stance)}">'
                        f'<rect x="0" y="-5" width="{width}" height="10" rx="2" fill="#FFFFFF" '
                        f'stroke="{INK}" stroke-width="0.6"/><text class="pb-small" x="{width / 2:g}" y="3" '
                        f'fill="{INK}">{escape(tag)}</text>{text(width + 5, label)}</g>'))
    if stances:
        rows.append(("Neutral", stances))
    return rows


def _chip(x: float, style) -> str:
    return (f'<rect x="{x:g}" y="-5" width="16" height="10" rx="2" fill="{style.strong}" stroke="{INK}" '
            f'stroke-width="0.6"/><text class="pb-small" x="{x + 8:g}" y="3" fill="{style.text}" '
            f'font-weight="bold">{escape(style.initials)}</text>')
