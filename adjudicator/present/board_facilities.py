"""Facilities on the board picture: factories and air and naval bases, with their damage.

A facility is a unit whose type has the ability ``factory`` or ``base`` (the rules' data,
maps/<edition>/units.toml).  The picture draws facilities in a territory's info row, not
on its unit card, each with its damage as a red counter; a base whose damage reaches the
ruleset's option ``base_inoperative_damage`` (default 3, as the engine reads it) is crossed
out as inoperative.  Ships and other units that keep damage between turns (a capital
ship's first hit) are marked on their card (``damaged_counts``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from html import escape

from ..model.game import Game
from ..model.state import Unit

DAMAGE_RED = "#B00020"
INOPERATIVE_DEFAULT = 3          # the engine's default for option base_inoperative_damage


def facility_kind(game: Game, unit_type: str) -> str:
    """"factory", "air_base", "naval_base" or "" (not a facility), from the unit's abilities."""
    utype = game.ruleset.units.get(unit_type)
    if utype is None:
        return ""
    if utype.has("factory"):
        return "factory"
    if utype.has("base"):
        return "naval_base" if utype.param("base", "serves", "air") == "sea" else "air_base"
    return ""


def is_minor_factory(game: Game, unit_type: str) -> bool:
    """A factory that places fewer units than the ruleset's largest one (Global's minor
    industrial complex); a ruleset with one kind of factory has none."""
    units = game.ruleset.units
    sizes = {k: u.param("factory", "units", 0) or 0 for k, u in units.items() if u.has("factory")}
    return unit_type in sizes and 0 < sizes[unit_type] < max(sizes.values())


def operative(game: Game, unit: Unit) -> bool:
    """Whether a base is usable: its damage below the ruleset's threshold."""
    return unit.damage < int(game.ruleset.option("base_inoperative_damage", INOPERATIVE_DEFAULT))


def facility_groups(game: Game, units: Iterable[Unit]) -> list[tuple[str, str, int, int]]:
    """(owner, type, damage, count) of the facilities among ``units``, sorted."""
    found = Counter((u.owner, u.type, u.damage) for u in units if facility_kind(game, u.type))
    return [(owner, utype, damage, n) for (owner, utype, damage), n in sorted(found.items())]


def damaged_counts(game: Game, units: Iterable[Unit]) -> Counter:
    """(owner, type) -> how many of the units (cargo included) that are not facilities carry
    damage that lasts (a capital ship's first hit)."""
    counts: Counter = Counter()
    for unit in units:
        for u in (unit, *unit.cargo):
            if u.damage and not facility_kind(game, u.type):
                counts[(u.owner, u.type)] += 1
    return counts


def damage_badge(x: float, y: float, damage: int, cls: str = "damage") -> tuple[str, float]:
    """A red counter with the damage number: (markup, width)."""
    scale = 1.0
    digits = len(str(damage))
    w = (7 + 5 * digits) * scale
    return (f'<g class="{cls}" data-damage="{damage}"><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" '
            f'height="{10 * scale:.1f}" rx="{2 * scale:.1f}" fill="{DAMAGE_RED}" stroke="#FFFFFF" '
            f'stroke-width="0.6"/><text class="pb-small" x="{x + w / 2:.1f}" y="{y + 8 * scale:.1f}" '
            f'fill="#FFFFFF" font-weight="bold">{damage}</text></g>'), w


def cross_out(x: float, y: float, w: float = 14, h: float = 10) -> str:
    """Two red strokes over a symbol: an inoperative base."""
    return (f'<path d="M{x + 1:.1f} {y + 0.5:.1f}L{x + w - 1:.1f} {y + h - 0.5:.1f}M{x + w - 1:.1f} '
            f'{y + 0.5:.1f}L{x + 1:.1f} {y + h - 0.5:.1f}" stroke="{DAMAGE_RED}" stroke-width="1.8" '
            f'stroke-linecap="round"/>')


def facility_item(game: Game, space: str, owner: str, unit_type: str, damage: int, count: int,
                  symbol: str, owner_name: str, unit_name: str) -> tuple[float, str]:
    """One facility group for a territory's info row: (width, markup at x=0, y=0).  ``symbol``
    is its drawn symbol at (0, 0), in its owner's colour."""
    kind = facility_kind(game, unit_type)
    cls = "chip factory" if kind == "factory" else f"chip base {kind}"
    state = ""
    marks = ""
    if kind != "factory":
        works = damage < int(game.ruleset.option("base_inoperative_damage", INOPERATIVE_DEFAULT))
        state = f' data-operative="{"yes" if works else "no"}"'
        if not works:
            cls += " inoperative"
            marks = cross_out(0, 0)
    width = 15.0
    title = f"{owner_name}: {count} {unit_name}"
    badge = ""
    if damage:
        badge, w = damage_badge(15, 0, damage)
        width += w + 1
        title += f", {damage} damage" + ("" if count == 1 else " each")
    if marks:
        title += " (inoperative)"
    return width, (f'<g class="{cls}" data-space="{escape(space)}" data-owner="{escape(owner)}" '
                   f'data-type="{escape(unit_type)}" data-count="{count}" data-damage="{damage}"{state}>'
                   f'<title>{escape(title)}</title>{symbol}'
                   f'{marks}{badge}</g>')
