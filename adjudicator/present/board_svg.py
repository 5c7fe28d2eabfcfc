"""The board as a picture: ``board_svg(game, state, events) -> str`` (an SVG document).

A pure function of the game definition (its map and its ``geometry``), a position and,
optionally, the events of a turn, in the manner of python-chess's ``chess.svg``.  It draws
every territory and sea zone in the controlling power's colour (neutrals hatched), the power's
initials, IPC values, capitals, factories and victory cities, the units of each space as
counts per type with a drawn symbol, and, from the events, an arrow per move (combat solid,
noncombat dashed), a marker per battle with its outcome and an outline round every captured
territory.  A legend explains it all.  Colours follow the Okabe-Ito palette (distinguishable
with colour-blindness) and are never the only cue: every owner is also written as initials.

Machine-readable attributes make the picture testable: every space is one ``path`` with
``data-space`` and ``data-owner``; every unit count is an element with ``data-space``,
``data-owner``, ``data-type`` and ``data-count``; arrows carry ``data-power``, ``data-phase``
and ``data-path``; battle markers ``data-space`` and ``data-outcome``.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable
from html import escape

import attrs

from ..model.events import BattleEnded, BattleStarted, Captured, Event, Landed, Loaded, Moved, Unloaded
from ..model.game import Game
from ..model.geometry import LINE_HEIGHT, Geometry, boxes_overlap, inside_rings, label_box
from ..model.rules import Domain
from ..model.state import GameState
from .board_facilities import (
    DAMAGE_RED, cross_out, damage_badge, damaged_counts, facility_groups, facility_item, facility_kind,
    is_minor_factory,
)
from .board_nuclear import (
    ARMED_KINDS, BLAST_PATTERN, aboard, armed_counts, atomic, atomic_mark, blast_marker, blast_marker_sample,
    blast_overlay, blasts, missile_mark, split_armed,
)
from .board_objects import OBJECTS_STATE, drawn_capitals, map_objects, object_chip, object_symbol_key
from .board_war import shows_war_state, war_rows
from .card_room import Room

FACTORY_TYPE = "industrial_complex"
STRIKE_LAUNCHED = "ts_strike_launched"     # Taktyczne Starcie's air strike: its flights' way out
STRIKE_HOME = "ts_strike_home"             # ... and the aircraft that flew home, their way back
RETURN = "return"                          # the arrow of a strike's way back (dashed, set aside)
RETURN_OFFSET = 12.0                       # px to the right of the way out, so both show
HEADER = 34.0
LEGEND_WIDTH = 1100.0
# Where a unit card is tried, in board units from below its label, until it fits its space.
CARD_SHIFTS = (0, -12, 12, -24, 24, -40, 40, -60, 60)
CARD_DROPS = (0, 8, 16, 26, 38)
# A card that fits nowhere at full size is drawn smaller, down to the last of these (its
# counts still read at 11 px when the report's board is zoomed to 1.5 times); a step
# smaller costs as much as moving the card this many board units (times 1 - scale).
CARD_SCALES = (1.0, 0.9, 0.8)
CARD_SHRINK_COST = 300.0
CARD_ROW, CARD_TAG = 12.0, 17.0     # a card's row height, its owner initials' width
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

# Okabe-Ito colours: (strong, light fill).  Other powers take the remaining ones in order.
# The fills also differ in lightness, so they stay apart for deuteranopes and protanopes
# (checked with a simulated deuteranopia filter): Soviet olive, British and Japanese yellows
# of two lightnesses, German mid grey, American pale grey-green.
KNOWN_COLOURS = {
    "ussr": ("#D55E00", "#EC9C74"),      # vermillion
    "germany": ("#4D4D4D", "#A3A3A3"),   # grey
    "uk": ("#E69F00", "#F3D27F"),        # orange
    "japan": ("#F0E442", "#FAF4B0"),     # yellow
    "usa": ("#009E73", "#A8DFCB"),       # bluish green
    "italy": ("#8B5A2B", "#D2B48C"),
    "china": ("#CC79A7", "#E8BDD5"),
    "anzac": ("#56B4E9", "#B7DEF5"),
    "france": ("#0072B2", "#8CBCDD"),
    "middle_east": ("#F0E442", "#FAF4B0"),   # yellow (Europe 1999 [L212]; no Japan there)
    # Taktyczne Starcie's players are colours: the Okabe-Ito colour nearest each name
    "red": ("#D55E00", "#EC9C74"), "blue": ("#0072B2", "#8CBCDD"),
    "green": ("#009E73", "#A8DFCB"), "yellow": ("#F0E442", "#FAF4B0"),
}
SPARE_COLOURS = [("#CC79A7", "#E8BDD5"), ("#0072B2", "#8CBCDD"), ("#56B4E9", "#B7DEF5"),
                 ("#8B5A2B", "#D2B48C"), ("#000000", "#A0A0A0")]
SEA_FILL, SEA_EDGE = "#D4E8F4", "#6F9FC0"
NEUTRAL_FILL, NEUTRAL_HATCH = "#E4DFD0", "#B1A78C"
GAP_FILL = "#6F7C85"          # what shows where two spaces do not connect
INK = "#1E1E1E"
CAPTURE = "#B00020"           # this turn's captures and battles
OUTCOME_LETTERS = {"attacker_wins": "W", "defender_wins": "H", "attacker_retreats": "R",
                   "both_destroyed": "X", "stalemate": "S"}
OUTCOME_TEXT = {"W": "attacker won", "H": "defender held", "R": "attacker retreated",
                "X": "both sides destroyed", "S": "stalemate"}


@attrs.frozen
class BoardOptions:
    """How to draw: ``title`` (default: game, round and power to play), ``legend``,
    ``units`` (draw the units), ``width`` (the SVG's width attribute; None: board units)."""

    title: str | None = None
    legend: bool = True
    units: bool = True
    width: str | None = None


class NoGeometry(ValueError):
    """The edition brings no board geometry, so it has no picture."""


def board_svg(game: Game, state: GameState | None = None, events: Iterable[Event] = (),
              options: BoardOptions = BoardOptions()) -> str:
    """The board of ``game`` as an SVG document: ``state`` (None: the empty starting map
    with original owners and no units), with the moves, battles and captures of ``events``
    drawn on top."""
    geometry = game.geometry
    if geometry is None:
        raise NoGeometry(f"{game.ruleset.title or game.game_id} has no board geometry "
                         "(maps/<edition>/geometry.toml)")
    return _Drawing(game, geometry, state, list(events), options).svg()


# --------------------------------------------------------------------------- powers

@attrs.frozen
class PowerStyle:
    key: str
    name: str
    initials: str
    strong: str
    fill: str
    text: str          # readable text colour on ``strong``


def power_styles(game: Game) -> dict[str, PowerStyle]:
    """Colour and initials of every power, in turn order, then of the nations that do not
    play that have a colour of their own (the others are drawn as neutral land)."""
    rules = game.ruleset
    order = list(rules.turn_order) + [k for k in rules.powers if k not in rules.turn_order]
    order += [k for k in rules.nations if k in KNOWN_COLOURS]
    spare = iter(SPARE_COLOURS)
    styles = {}
    for key in order:
        power = rules.powers.get(key) or rules.nations[key]
        strong, fill = KNOWN_COLOURS.get(key) or next(spare, ("#777777", "#CCCCCC"))
        words = power.name.split()
        initials = "".join(w[0] for w in words[:2]).upper() if len(words) > 1 else power.name[:2].upper()
        styles[key] = PowerStyle(key, power.name, initials, strong, fill, _text_on(strong))
    return styles


def nation_tags(game: Game, styles: dict[str, PowerStyle]) -> dict[str, str]:
    """Short tags of the nations that do not play and have no colour (Global's neutrals),
    written on their land: the initials of their name's first two words, or a one-word
    name's first two letters ("Strict Neutral": SN, "Dutch": DU); tags that clash all take
    more letters of their second word ("Pro-Axis Neutral": PAX, "Pro-Allies Neutral": PAL)."""
    words = {k: [w for w in n.name.replace("-", " ").split() if w] or [k]
             for k, n in game.ruleset.nations.items() if k not in styles}

    def tag(key: str, length: int) -> str:
        w = words[key]
        return (w[0][:2] if len(w) == 1 else w[0][0] + w[1][:length]).upper()

    length = dict.fromkeys(words, 1)
    taken = {s.initials for s in styles.values()}
    for _ in range(4):
        tags = {k: tag(k, length[k]) for k in words}
        seen = Counter(tags.values())
        clash = [k for k, t in tags.items() if seen[t] > 1 or t in taken]
        if not clash:
            break
        for k in clash:
            length[k] += 1
    return tags


def _text_on(colour: str) -> str:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#FFFFFF"


# --------------------------------------------------------------------------- unit symbols

# Each symbol is drawn in a 14 x 10 box; "C" is replaced by the owner's colour.
_STROKE = f'stroke="{INK}" stroke-width="0.9" stroke-linejoin="round"'
SYMBOLS = {
    "infantry": f'<rect x="1" y="1.5" width="12" height="7" fill="C" {_STROKE}/>'
                f'<path d="M1 1.5L13 8.5M13 1.5L1 8.5" {_STROKE} fill="none"/>',
    "tank": f'<rect x="1" y="1.5" width="12" height="7" fill="C" {_STROKE}/>'
            f'<rect x="3.2" y="3.3" width="7.6" height="3.4" rx="1.7" fill="none" {_STROKE}/>',
    "artillery": f'<rect x="1" y="1.5" width="12" height="7" fill="C" {_STROKE}/>'
                 f'<circle cx="7" cy="5" r="1.8" fill="{INK}"/>',
    "aa_gun": f'<rect x="1" y="1.5" width="12" height="7" fill="C" {_STROKE}/>'
              f'<path d="M2.5 8.5Q7 1 11.5 8.5" fill="none" {_STROKE}/>',
    "fighter": f'<path d="M7 0.6L8 3.8L13.4 5.6L13.4 6.6L8 6L7.8 8.4L9.6 9.4L4.4 9.4L6.2 8.4'
               f'L6 6L0.6 6.6L0.6 5.6L6 3.8Z" fill="C" {_STROKE}/>',
    "bomber": f'<path d="M7 0.4L8 3L13.6 4.6L13.6 6L8 5.4L7.8 8.2L10.2 9.4L3.8 9.4L6.2 8.2'
              f'L6 5.4L0.4 6L0.4 4.6L6 3Z" fill="C" {_STROKE}/>'
              f'<path d="M3 4.4V6.4M11 4.4V6.4" {_STROKE}/>',
    "submarine": f'<path d="M0.8 6.2Q1.5 4.2 5 4.2L5.6 2.4L8.2 2.4L8.6 4.2Q12.6 4.2 13.2 6.2'
                 f'Q12.6 8 7 8Q1.5 8 0.8 6.2Z" fill="C" {_STROKE}/>',
    # Ships differ in outline, not only in detail, so that they tell apart when small: a
    # freighter's tall deckhouse, a destroyer's short low hull with one funnel, a cruiser's
    # two turrets, a carrier's flat deck overhanging its hull, a battleship's long hull with
    # three turrets and a mast.
    "transport": f'<path d="M0.6 5.8L13.4 5.8L12 8.8L2 8.8Z" fill="C" {_STROKE}/>'
                 f'<rect x="2.2" y="1.2" width="8.6" height="4.6" fill="C" {_STROKE}/>'
                 f'<path d="M4.6 1.2V5.8M8.4 1.2V5.8" {_STROKE}/>',
    "destroyer": f'<path d="M2.4 6.4L12.6 6.4L11.2 8.6L3.4 8.6Z" fill="C" {_STROKE}/>'
                 f'<path d="M6.2 6.4V4.6H8V6.4" fill="C" {_STROKE}/>',
    "cruiser": f'<path d="M1 5.6L13 5.6L11.6 8.6L2.2 8.6Z" fill="C" {_STROKE}/>'
               f'<path d="M2.8 5.6V4.2H5.2V5.6M8.8 5.6V4.2H11.2V5.6M6.4 5.6V2.6H7.6V5.6" fill="C" {_STROKE}/>',
    "carrier": f'<path d="M2 6L12 6L11.2 8.6L2.8 8.6Z" fill="C" {_STROKE}/>'
               f'<rect x="0.2" y="4.4" width="13.6" height="1.6" fill="C" {_STROKE}/>'
               f'<rect x="9.6" y="2" width="2" height="2.4" fill="C" {_STROKE}/>',
    "battleship": f'<path d="M0.2 5.4L13.8 5.4L12.2 9.2L1.6 9.2Z" fill="C" {_STROKE}/>'
                  f'<path d="M1.8 5.4V4H4.4V5.4M9.6 5.4V4H12.2V5.4M5.4 5.4V3H8.6V5.4" fill="C" {_STROKE}/>'
                  f'<path d="M7 3V0.6" {_STROKE}/>',
    FACTORY_TYPE: f'<path d="M1 9V4.4L4.4 2.4V4.4L7.8 2.4V4.4L11 2.4V0.8H12.8V9Z" fill="C" {_STROKE}/>',
    # A smaller factory (fewer units a turn than the ruleset's largest): one roof, one chimney.
    "minor_factory": f'<path d="M2.5 9V5.2L6.6 3V5.2L9.6 3.4V1.8H11.4V9Z" fill="C" {_STROKE}/>',
    # Bases: a square in the owner's colour; an air base holds an aircraft seen from above, a
    # naval base an anchor.
    "air_base": f'<rect x="1" y="0.6" width="12" height="8.8" rx="1.5" fill="C" {_STROKE}/>'
                f'<path d="M7 1.8V8.4M2.6 4.8H11.4M5 8.2H9" stroke="{INK}" stroke-width="1.3" '
                f'stroke-linecap="round" fill="none"/>',
    "naval_base": f'<rect x="1" y="0.6" width="12" height="8.8" rx="1.5" fill="C" {_STROKE}/>'
                  f'<path d="M7 2.2V8.4M5 3.4H9M3.6 5.8Q4 8.6 7 8.4Q10 8.6 10.4 5.8" stroke="{INK}" '
                  f'stroke-width="1.1" stroke-linecap="round" fill="none"/>',
    "mech_infantry": f'<rect x="1" y="0.8" width="12" height="6.2" fill="C" {_STROKE}/>'
                     f'<path d="M1 0.8L13 7M13 0.8L1 7" {_STROKE} fill="none"/>'
                     f'<circle cx="4" cy="8.4" r="1.3" fill="{INK}"/><circle cx="10" cy="8.4" r="1.3" fill="{INK}"/>',
    "tactical_bomber": f'<path d="M7 0.6L8 3.8L13.4 5.6L13.4 6.6L8 6L7.8 8.4L9.6 9.4L4.4 9.4L6.2 8.4'
                       f'L6 6L0.6 6.6L0.6 5.6L6 3.8Z" fill="C" {_STROKE}/>'
                       f'<circle cx="7" cy="5.2" r="1.5" fill="{INK}"/>',
    # Taktyczne Starcie: a warship (its rank as pips, below), an anti-tank gun (a barrel
    # on a trail), a mine, a missile; objects kept in the state (present/board_objects.py):
    # a shipyard (a hull on the ways over water), any other object (a ringed dot).
    "warship": f'<path d="M0.6 5.6L13.4 5.6L11.8 8.8L2 8.8Z" fill="C" {_STROKE}/>'
               f'<path d="M4 5.6V3.8H10V5.6" fill="C" {_STROKE}/>',
    "at_gun": f'<rect x="1" y="1.5" width="12" height="7" fill="C" {_STROKE}/>'
              f'<path d="M3 7.2L7 5L11 7.2M7 5L11.6 2.6" stroke="{INK}" stroke-width="1.1" fill="none"/>',
    "mine": f'<circle cx="7" cy="5" r="3.4" fill="C" {_STROKE}/>'
            f'<path d="M7 0.6V1.6M7 8.4V9.4M2.6 5H3.6M10.4 5H11.4" {_STROKE}/>',
    "missile": f'<path d="M1 5L4 3H12L13.4 5L12 7H4Z" fill="C" {_STROKE}/>'
               f'<path d="M4 3L2.4 1.4M4 7L2.4 8.6" {_STROKE}/>',
    "shipyard": f'<rect x="1" y="0.6" width="12" height="8.8" rx="1.5" fill="C" {_STROKE}/>'
                f'<path d="M2.6 3.2H11.4L10 5.8H4Z" fill="#FFFFFF" {_STROKE}/>'
                f'<path d="M2.4 7.8Q4 6.8 5.6 7.8T8.8 7.8T12 7.8" fill="none" stroke="{INK}" '
                f'stroke-width="0.9"/>',
    "object": f'<rect x="1" y="0.6" width="12" height="8.8" rx="1.5" fill="C" {_STROKE}/>'
              f'<circle cx="7" cy="5" r="2.2" fill="#FFFFFF" {_STROKE}/>',
    # A nuclear silo: a shaft sunk in the ground; an anti-missile launcher: a cradle on two
    # legs (the missile standing in either when armed, present/board_nuclear.py).
    "silo": f'<rect x="1" y="0.6" width="12" height="8.8" rx="1.5" fill="C" {_STROKE}/>'
            f'<path d="M1.6 8.4H12.4" stroke="{INK}" stroke-width="1.2"/>',
    "launcher": f'<rect x="1" y="0.6" width="12" height="8.8" rx="1.5" fill="C" {_STROKE}/>'
                f'<path d="M3 9.2L5.4 6.4M11 9.2L8.6 6.4M4.6 6.4H9.4" stroke="{INK}" stroke-width="1.1" '
                f'fill="none"/>',
}
ALIASES = {"armour": "tank", "armor": "tank", "aagun": "aa_gun", "aa": "aa_gun",
           "antiaircraft": "aa_gun", "factory": FACTORY_TYPE, "sub": "submarine",
           # Taktyczne Starcie's keys (maps/taktyczne/units.toml)
           "atgun": "at_gun", "lrg": "artillery", "aagunland": "aa_gun", "aagunsea": "aa_gun",
           "ferry": "transport", "mineland": "mine", "minesea": "mine",
           "nuclearmissile": "missile", "antimissile": "missile"}
# A unit type whose key ends in a rank (Taktyczne Starcie's tank_3, warship_2) is drawn as
# the symbol of the rest of its key with that many pips on top.
RANKED = re.compile(r"^(.+?)_([1-9])$")
DOMAIN_FALLBACK = {Domain.LAND: "infantry", Domain.AIR: "fighter", Domain.SEA: "destroyer"}


def symbol_key(game: Game, unit_type: str) -> str:
    """Which drawn symbol stands for ``unit_type``: a facility by its ability (factory, air
    or naval base), any other unit by its key, else by its domain."""
    kind = facility_kind(game, unit_type)
    if kind == "factory":
        return "minor_factory" if is_minor_factory(game, unit_type) else FACTORY_TYPE
    if kind:
        return kind
    key = unit_type.lower().replace("-", "_").replace(" ", "_")
    ranked = RANKED.match(key)
    if ranked and ranked.group(1) in SYMBOLS:
        key = ranked.group(1)
    key = ALIASES.get(key.replace("_", ""), ALIASES.get(key, key))
    if key in SYMBOLS:
        return key
    utype = game.ruleset.units.get(unit_type)
    return DOMAIN_FALLBACK.get(utype.domain, "infantry") if utype else "infantry"


def _symbol(game: Game, unit_type: str, colour: str, x: float, y: float, scale: float = 1.0) -> str:
    body = SYMBOLS[symbol_key(game, unit_type)].replace('"C"', f'"{colour}"') + rank_pips(unit_type)
    return f'<g transform="translate({x:.1f},{y:.1f}) scale({scale:g})">{body}</g>'


def unit_rank(unit_type: str) -> int:
    """The rank a unit type's key ends in (``tank_3``: 3), 0 for none."""
    ranked = RANKED.match(unit_type.lower())
    return int(ranked.group(2)) if ranked and ranked.group(1) in SYMBOLS else 0


def rank_pips(unit_type: str) -> str:
    """A ranked unit's rank as white pips with a dark rim along the symbol's top edge."""
    rank = unit_rank(unit_type)
    first = 7 - 1.5 * (rank - 1)
    return "".join(f'<circle class="pip" cx="{first + 3 * i:g}" cy="1.2" r="1.15" fill="#FFFFFF" '
                   f'stroke="{INK}" stroke-width="0.6"/>' for i in range(rank))


def title_size(title: str, width: float) -> float:
    """The title's font size: 17, smaller for a title too long for the board's width (about
    0.6 em a character in bold), never below 11."""
    return round(max(11.0, min(17.0, (width - 24) / (0.6 * max(len(title), 1)))), 1)


def _chip_width(count: int) -> float:
    """A unit card's symbol and count, with the gap after them (board units at full size)."""
    return 16 + 5.6 * len(str(count)) + 3


def _star(cx: float, cy: float, r: float, fill: str) -> str:
    pts = []
    for k in range(10):
        a = -math.pi / 2 + k * math.pi / 5
        rr = r if k % 2 == 0 else r * 0.45
        pts.append(f"{cx + rr * math.cos(a):.1f},{cy + rr * math.sin(a):.1f}")
    return f'<polygon points="{" ".join(pts)}" fill="{fill}" stroke="{INK}" stroke-width="0.8"/>'


# --------------------------------------------------------------------------- shapes

_path_cache: dict[int, tuple[Geometry, dict[str, str]]] = {}
# per board geometry: each space's free room for its card, the areas its card may cover, and
# the cards laid out (by space, units, place and label): the same on every turn's picture
_room_cache: dict[tuple, tuple[Geometry, object]] = {}


def space_paths(geometry: Geometry) -> dict[str, str]:
    """SVG path data per space; on a wrapping board a shape that runs past an edge gets a
    second copy one board width over (the board is clipped to its frame)."""
    cached = _path_cache.get(id(geometry))
    if cached is not None and cached[0] is geometry:
        return cached[1]
    w = geometry.width
    paths = {}
    for name, shape in geometry.spaces.items():
        parts = []
        for ring in shape.outline:
            xs = [p[0] for p in ring]
            shifts = [0.0]
            if geometry.wrap_x and min(xs) < 0:
                shifts.append(w)
            if geometry.wrap_x and max(xs) > w:
                shifts.append(-w)
            for dx in shifts:
                parts.append("M" + " ".join(f"{x + dx:.1f},{y:.1f}" for x, y in ring) + "Z")
        paths[name] = "".join(parts)
    if len(_path_cache) > 8:
        _path_cache.clear()
    _path_cache[id(geometry)] = (geometry, paths)
    return paths


# --------------------------------------------------------------------------- drawing

class _Drawing:
    def __init__(self, game: Game, geometry: Geometry, state: GameState | None,
                 events: list[Event], options: BoardOptions):
        self.game, self.g, self.state, self.events, self.opt = game, geometry, state, events, options
        self.styles = power_styles(game)
        self.gmap = game.map
        self.size = geometry.label_size
        if state is None:
            self.owners = {t.key: t.original_owner for t in self.gmap.land() if t.original_owner}
        else:
            self.owners = dict(state.owners)
        self.unit_order = {k: i for i, k in enumerate(game.ruleset.units)}
        self.nation_tags = nation_tags(game, self.styles)
        self.drawn_capitals = drawn_capitals(state.extras if state is not None else None)
        self.facilities = {k for k in game.ruleset.units if facility_kind(game, k)}
        self.blocks: dict[str, tuple[float, float, float, float]] = {}   # label + badges + units
        self.moved: dict[str, tuple[float, float]] = {}     # labels moved to make room for units
        self.callouts: list[str] = []                          # spaces whose card goes beside them
        self.placed: list[tuple[float, float, float, float]] = []      # callouts' cards
        self.blasts = blasts(events)                           # this turn's nuclear blasts
        self.carriers = {k for k, u in game.ruleset.units.items() if u.has("carries_air")}

    # the document ---------------------------------------------------------
    def svg(self) -> str:
        w, h = self.g.width, self.g.height
        legend = self.legend() if self.opt.legend else ("", 0.0)
        total_h = HEADER + h + legend[1]
        labels = self.labels()            # first: it measures each space's label block
        title = self.title()
        size = (f'width="{escape(self.opt.width)}"' if self.opt.width
                else f'width="{w:g}" height="{total_h:g}"')
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:g} {total_h:g}" '
            f'{size} font-family="{FONT}" role="img" aria-label="{escape(title)}" '
            f'data-map="{escape(self.gmap.map_id)}">',
            f"<title>{escape(title)}</title>",
            self.defs(),
            f'<rect width="{w:g}" height="{total_h:g}" fill="#FFFFFF"/>',
            f'<text x="12" y="23" font-size="{title_size(title, w):g}" font-weight="bold" '
            f'fill="{INK}">{escape(title)}</text>',
            f'<g transform="translate(0,{HEADER:g})">',
            f'<rect width="{w:g}" height="{h:g}" fill="{GAP_FILL}"/>',
            '<g clip-path="url(#pbem-board)">',
            self.spaces(),
            self.links(),
            self.shipyard_links(),
            self.captures(),
            blast_overlay(self.blasts, space_paths(self.g), self._power_name),
            self.moves(),
            "</g>",
            f'<rect width="{w:g}" height="{h:g}" fill="none" stroke="{INK}" stroke-width="1.2"/>',
            labels,
            self.battles(),
            "</g>",
            legend[0],
            "</svg>",
        ]
        return "\n".join(part for part in out if part)

    def title(self) -> str:
        if self.opt.title is not None:
            return self.opt.title
        base = self.game.ruleset.title or self.game.game_id
        if self.state is None:
            return f"{base}: the board"
        who = self.styles.get(self.state.power)
        return f"{base}: round {self.state.round}, {who.name if who else self.state.power} to play"

    def defs(self) -> str:
        w, h = self.g.width, self.g.height
        return (
            "<defs>"
            f'<clipPath id="pbem-board"><rect width="{w:g}" height="{h:g}"/></clipPath>'
            '<pattern id="pbem-neutral" width="7" height="7" patternUnits="userSpaceOnUse" '
            'patternTransform="rotate(45)">'
            f'<rect width="7" height="7" fill="{NEUTRAL_FILL}"/>'
            f'<line x1="0" y1="0" x2="0" y2="7" stroke="{NEUTRAL_HATCH}" stroke-width="2.2"/></pattern>'
            + (BLAST_PATTERN if self.blasts else "") +
            "</defs>"
            "<style>"
            ".pb-lbl{font-size:%gpx;text-anchor:middle;fill:%s}"
            ".pb-sea{font-style:italic;fill:#1D4E6E}"
            ".pb-neutral{font-style:italic;fill:#5F5646}"
            ".pb-small{font-size:8.5px;text-anchor:middle}"
            ".pb-count{font-size:9px;font-weight:bold;fill:%s}"
            ".pb-legend{font-size:11px;fill:%s}"
            ".pb-lbl.pb-halo{fill:#fff;stroke:#fff;stroke-width:2.8px;stroke-linejoin:round;stroke-opacity:0.9}"
            "</style>" % (self.size, INK, INK, INK)
        )

    # spaces ----------------------------------------------------------------
    def fill_of(self, name: str) -> tuple[str, str]:
        t = self.gmap[name]
        if t.is_sea:
            return SEA_FILL, ""
        if t.impassable:
            return "url(#pbem-neutral)", ""
        owner = self.owners.get(name)
        if owner in self.styles:
            return self.styles[owner].fill, owner
        return NEUTRAL_FILL, owner or ""

    def spaces(self) -> str:
        paths = space_paths(self.g)
        out = ['<g class="spaces" stroke-linejoin="round">']
        order = sorted(self.g.spaces, key=lambda n: (self.gmap[n].island, not self.gmap[n].is_sea))
        for name in order:
            t = self.gmap[name]
            fill, owner = self.fill_of(name)
            kind = "sea" if t.is_sea else "neutral" if t.impassable else "land"
            edge = SEA_EDGE if t.is_sea else "#4A4A4A"
            width = 0.8 if t.is_sea else 1.0
            out.append(f'<path class="space {kind}" data-space="{escape(name)}" data-owner="{owner}" '
                       f'fill="{fill}" stroke="{edge}" stroke-width="{width}" d="{paths[name]}"/>')
        out.append("</g>")
        return "\n".join(out)

    def links(self) -> str:
        out = ['<g class="links">']
        for link in self.g.links:
            (x0, y0), (x1, y1) = link.start, link.end
            canal = self.gmap.canal_between(link.a, link.b)
            what = canal.name if canal else "connected"
            out.append(f'<g data-link="{escape(link.a)}|{escape(link.b)}"><title>{escape(link.a)} - '
                       f'{escape(link.b)}: {escape(what)}</title>'
                       f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
                       f'stroke="#FFFFFF" stroke-width="5" stroke-linecap="round"/>'
                       f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" '
                       f'stroke="#1D4E6E" stroke-width="2" stroke-dasharray="3 2"/></g>')
        out.append("</g>")
        return "\n".join(out)

    # labels, badges and units --------------------------------------------
    def labels(self) -> str:
        out = ['<g class="labels">']
        for name, shape in self.g.spaces.items():
            out.append(self.label(name, shape))
        for name in self.callouts:
            out.append(self.callout(name) or self._fallback_card(name))
        out.append("</g>")
        return "\n".join(part for part in out if part)

    def label(self, name: str, shape) -> str:
        """The label of a space, its badges below and its unit card below them; when the
        card fits nowhere in the space below the label where it stands, the three move
        together to where they fit (the label staying on its shape)."""
        drawn = self._label_at(name, shape, shape.at, True)
        if drawn is None:
            moved = self._moved_anchor(name, shape)
            drawn = moved and self._label_at(name, shape, moved, True)
            if drawn is not None:
                self.moved[name] = moved
            else:
                drawn = self._label_at(name, shape, shape.at, None)
                self.callouts.append(name)
        parts, block = drawn
        self.blocks[name] = block
        return "".join(parts)

    def _label_at(self, name: str, shape, anchor, must_fit: bool | None):
        """(markup parts, block) of the label of ``name`` centred on ``anchor``; None when
        ``must_fit`` and its unit card fits nowhere in its space; no card when ``must_fit``
        is None (it goes in a callout)."""
        t = self.gmap[name]
        x, y = anchor
        lh = self.size * LINE_HEIGHT
        top = y - len(shape.label) * lh / 2
        cls = "pb-lbl pb-sea" if t.is_sea else "pb-lbl pb-neutral" if t.impassable else "pb-lbl"
        parts = [f'<g class="place" data-space="{escape(name)}">']
        for k, line in enumerate(shape.label):     # a white halo first: readable over any border
            at = f'x="{x:.1f}" y="{top + (k + 0.78) * lh:.1f}"'
            parts.append(f'<text class="{cls} pb-halo" {at}>{escape(line)}</text>'
                         f'<text class="{cls}" {at}>{escape(line)}</text>')
        cursor = top + len(shape.label) * lh + 1
        bx0, by0, bx1, _ = label_box(shape.label, anchor, self.size)
        if t.is_land and not t.impassable:
            row, height, width = self.info_row(name, x, cursor)
            parts.append(row)
            cursor += height
            bx0, bx1 = min(bx0, x - width / 2), max(bx1, x + width / 2)     # badges wider
        block = (bx0, by0, bx1, cursor)
        if self.opt.units and self.state is not None and must_fit is not None:
            card, box = self.unit_card(name, x, cursor + 1, (bx0, by0, bx1, cursor), must_fit)
            if card is None:
                return None
            parts.append(card)
            if box:
                block = (min(block[0], box[0]), min(block[1], box[1]),      # the card may be
                         max(block[2], box[2]), max(block[3], box[3]))      # above or beside
        parts.append("</g>")
        return parts, block

    def _moved_anchor(self, name: str, shape):
        """Where the label of ``name`` goes so that it, its badges and its unit card (in
        any of the card's layouts) fit in its space together, nearest where it stands;
        None: nowhere."""
        counts = self._unit_counts(name)
        x, y = shape.at
        lx0, ly0, lx1, ly1 = label_box(shape.label, shape.at, self.size)
        t = self.gmap[name]
        _row, info_h, info_w = (self.info_row(name, x, 0) if t.is_land and not t.impassable
                                else ("", 0.0, 0.0))
        head_w, head_h = max(lx1 - lx0, info_w), (ly1 - ly0) + 1 + info_h + 1
        room = Room([shape.outline], (), 1.0, self.g.width - 1)
        best = None
        for scale in CARD_SCALES:
            for penalty, _rows, card_w, card_h in self._card_shapes(counts):
                w, h = max(head_w, card_w * scale) + 2, head_h + card_h * scale + 1
                extra = penalty + CARD_SHRINK_COST * (1 - scale)
                found = room.nearest(w, h, x - w / 2, ly0 - 1, best[0] - extra if best else math.inf)
                if found is not None and (best is None or found[0] + extra < best[0]):
                    best = (found[0] + extra, found[1] + w / 2, found[2] + 1 + (y - ly0))
        return best and (best[1], best[2])

    def info_row(self, name: str, cx: float, top: float) -> tuple[str, float, float]:
        """Owner initials, IPC value, capital star, factory, victory city: one row;
        (markup, height, width)."""
        t = self.gmap[name]
        owner = self.owners.get(name)
        items: list[tuple[float, str]] = []       # (width, markup drawn at x=0, y=top)
        style = self.styles.get(owner)
        if style:
            items.append((16, f'<rect x="0" y="0" width="16" height="10" rx="2" fill="{style.strong}" '
                              f'stroke="{INK}" stroke-width="0.6"/><text class="pb-small" x="8" y="8" '
                              f'fill="{style.text}" font-weight="bold">{style.initials}</text>'))
        if t.ipc:
            digits = len(str(t.ipc))
            wd = 7 + 5 * digits
            items.append((wd, f'<rect x="0" y="0" width="{wd}" height="10" rx="5" fill="#FFFFFF" '
                              f'stroke="{INK}" stroke-width="0.7"/><text class="pb-small" x="{wd / 2:g}" '
                              f'y="8" fill="{INK}">{t.ipc}</text>'))
        capital_of = t.capital_of or self.drawn_capitals.get(name)
        if capital_of:
            star = _star(5.5, 5, 5.6, self.styles[capital_of].strong
                         if capital_of in self.styles else "#FFFFFF")
            items.append((11, star if t.capital_of else
                          f'<g class="capital" data-space="{escape(name)}" data-of="{escape(capital_of)}">'
                          f'<title>{escape(self._power_name(capital_of))}\'s capital</title>{star}</g>'))
        elif owner and t.is_land:           # a nation without a colour: its initials, plain
            tag = self.nation_tags.get(owner)
            if tag:
                items.append((6 + 6 * len(tag), f'<rect x="0" y="0" width="{6 + 6 * len(tag)}" height="10" '
                                                f'rx="2" fill="#FFFFFF" stroke="{INK}" stroke-width="0.6"/>'
                                                f'<text class="pb-small" x="{3 + 3 * len(tag)}" y="8" '
                                                f'fill="{INK}">{escape(tag)}</text>'))
        items += self.facility_items(name)
        items += self.object_items(name, owner)
        if getattr(t, "victory_city", False):
            items.append((11, f'<g class="victory-city"><circle cx="5.5" cy="5" r="4.6" fill="#FFFFFF" '
                              f'stroke="{INK}" stroke-width="1"/><circle cx="5.5" cy="5" r="2" fill="{INK}"/></g>'))
        if not items:
            return "", 0.0, 0.0
        total = sum(wd for wd, _ in items) + 2 * (len(items) - 1)
        x = cx - total / 2
        out = []
        for wd, markup in items:
            out.append(f'<g transform="translate({x:.1f},{top:.1f})">{markup}</g>')
            x += wd + 2
        return "".join(out), 12.0, total

    def facility_items(self, name: str) -> list[tuple[float, str]]:
        """The factories and bases of a territory for its info row, with their damage; on
        the empty board, the ones the setup places (plain symbols)."""
        items = []
        if self.state is None:
            setup: dict[str, str] = {}          # facility type -> the power placing it first
            for e in self.game.setup:
                if e.space == name:
                    for k in e.units:
                        if facility_kind(self.game, k):
                            setup.setdefault(k, e.power)
            for key, power in setup.items():
                colour = self.styles[power].strong if power in self.styles else "#FFFFFF"
                cls = "factory" if facility_kind(self.game, key) == "factory" else "base"
                items.append((15, f'<g class="{cls}">{_symbol(self.game, key, colour, 0, 0)}</g>'))
            return items
        for owner, key, damage, n in facility_groups(self.game, self.state.units_at(name)):
            colour = self.styles[owner].strong if owner in self.styles else "#FFFFFF"
            items.append(facility_item(self.game, name, owner, key, damage, n,
                                       _symbol(self.game, key, colour, 0, 0),
                                       self._power_name(owner), self._unit_name(key, n)))
        return items

    def object_items(self, name: str, holder: str | None) -> list[tuple[float, str]]:
        """Objects the state keeps in ``name`` (present/board_objects.py), in the colour of
        the area's holder (they belong to whoever holds it)."""
        extras = self.state.extras if self.state is not None else None
        colour = self.styles[holder].strong if holder in self.styles else "#FFFFFF"
        who = self._power_name(holder) if holder else ""
        found = map_objects(extras, name)
        found = split_armed(found, self._armed(name, holder))
        return [object_chip(obj, holder or "", SYMBOLS[object_symbol_key(obj.kind)].replace(
                    '"C"', f'"{colour}"') + ("" if obj.armed is None else missile_mark(obj.armed)), who)
                for obj in found]

    def _armed(self, name: str, holder: str | None) -> dict[str, int]:
        """Silo and launcher kind -> how many in ``name`` hold their missile."""
        extras = self.state.extras if self.state is not None else {}
        here = (extras.get(OBJECTS_STATE) or {}).get(name)
        if not isinstance(here, dict):
            return {}
        return armed_counts(extras, name, here)

    def shipyard_links(self) -> str:
        """A dashed line in the holder's colour from each shipyard's area to the sea it stands
        over (its label to the sea's)."""
        extras = self.state.extras if self.state is not None else None
        out = []
        for name in self.g.spaces:
            for obj in map_objects(extras, name):
                if not obj.sea or obj.sea not in self.g.spaces:
                    continue
                holder = self.owners.get(name)
                colour = self.styles[holder].strong if holder in self.styles else INK
                (x0, y0), (x1, y1) = self.g.spaces[name].at, self.g.spaces[obj.sea].at
                out.append(f'<line class="shipyard-link" data-space="{escape(name)}" '
                           f'data-sea="{escape(obj.sea)}" x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" '
                           f'y2="{y1:.1f}" stroke="{colour}" stroke-width="2.2" stroke-dasharray="5 3" '
                           f'stroke-linecap="round"/>')
        return f'<g class="shipyard-links">{"".join(out)}</g>' if out else ""

    def _unit_counts(self, name: str) -> Counter:
        """(owner, type) -> count of the units a card of ``name`` shows (cargo too, not
        factories: they are in the info row)."""
        counts: Counter = Counter()
        for unit in self.state.units_at(name):
            for u in (unit, *unit.cargo):
                if u.type not in self.facilities:
                    counts[(u.owner, u.type)] += 1
        return counts

    def unit_card(self, name: str, cx: float, top: float, head: tuple, must_fit: bool = False):
        """Units of a space: one row per owner (initials, then a symbol and a count per
        type), wrapped after four types; on a white card so it reads over any border.  The
        card stays inside its space: narrower, shifted, elsewhere in the space, with the
        initials on a row of their own, or smaller (down to ``CARD_SCALES[-1]``), in that
        order of preference, clear of ``head`` (its label and badges).  Returns the markup and the card's box (None: no units);
        (None, None) when ``must_fit`` and it fits nowhere."""
        counts = self._unit_counts(name)
        if not counts:
            return "", None
        key = (id(self.g), "card", name, frozenset(counts.items()), cx, top, head, must_fit,
               tuple(self.styles), tuple(self.unit_order))
        cached = _room_cache.get(key)
        if cached is None or cached[0] is not self.g:
            if len(_room_cache) > 5000:
                _room_cache.clear()
            cached = _room_cache[key] = (self.g, self._card_layout(name, counts, cx, top, head, must_fit))
        layout = cached[1]
        if layout is None:
            return None, None
        return self._card_markup(name, layout, self._card_spaces(name))

    def _card_markup(self, name: str, layout, within: list[str], leader: str = "") -> tuple[str, tuple]:
        """A unit card drawn as ``layout`` says (rows, x, y, width, height, scale), with
        the spaces it may cover (``data-within``) and, for a callout, its leader line."""
        rows, x0, top, card_w, card_h, s = layout
        callout = " callout" if leader else ""
        small = "" if s == 1 else f' style="font-size:{8.5 * s:.2f}px"'
        big = "" if s == 1 else f' style="font-size:{9 * s:.2f}px"'
        out = [f'<g class="units{callout}" data-space="{escape(name)}" data-within="{escape("|".join(within))}">',
               leader, f'<rect x="{x0:.1f}" y="{top:.1f}" width="{card_w:.1f}" height="{card_h:.1f}" rx="{3 * s:.1f}" '
               f'fill="#FFFFFF" fill-opacity="0.88" stroke="#6B6B6B" stroke-width="0.6"/>']
        indent = 0 if any(not chips for _, chips in rows) else CARD_TAG * s   # initials apart
        damaged = damaged_counts(self.game, self.state.units_at(name))
        carried = aboard(self.state.units_at(name), self.carriers)
        bombs = atomic(self.state.units_at(name))
        y = top + 2 * s
        for (owner, chips), owner_key in zip(rows, self._row_owners(rows)):
            style = self.styles.get(owner_key)
            colour = style.strong if style else "#FFFFFF"
            x = x0 + 2 * s
            if owner:
                out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{15 * s:.1f}" height="{10 * s:.1f}" '
                           f'rx="{2 * s:.1f}" fill="{colour}" stroke="{INK}" stroke-width="0.5"/>'
                           f'<text class="pb-small"{small} x="{x + 7.5 * s:.1f}" y="{y + 8 * s:.1f}" '
                           f'fill="{style.text if style else INK}" font-weight="bold">'
                           f'{style.initials if style else escape(owner[:2].upper())}</text>')
            x += indent
            for utype, n in chips:
                hurt = damaged.get((owner_key, utype), 0)
                attr, note, mark = "", "", ""
                if hurt:
                    attr, note = f' data-damaged="{hurt}"', f" ({hurt} damaged)"
                if carried.get((owner_key, utype)):
                    attr += f' data-aboard="{carried[(owner_key, utype)]}"'
                    note += f" ({carried[(owner_key, utype)]} aboard)"
                if bombs.get((owner_key, utype)):
                    attr += f' data-atomic="{bombs[(owner_key, utype)]}"'
                    note += f" ({bombs[(owner_key, utype)]} with an atomic bomb)"
                    mark += atomic_mark(x, y, s)
                if utype in self.carriers:
                    load = [f"{k} {self._unit_name(t, k)}" for (o, t), k in sorted(carried.items()) if o == owner_key]
                    note += f", aboard: {', '.join(load) if load else 'none'}"
                    mark = (f'<path class="damaged" d="M{x + 9 * s:.1f} {y:.1f}L{x + 5 * s:.1f} {y + 5 * s:.1f}'
                            f'L{x + 8.5 * s:.1f} {y + 5.5 * s:.1f}L{x + 4.5 * s:.1f} {y + 10 * s:.1f}" '
                            f'stroke="#FFFFFF" stroke-width="{2.6 * s:.1f}" fill="none"/>'
                            f'<path d="M{x + 9 * s:.1f} {y:.1f}L{x + 5 * s:.1f} {y + 5 * s:.1f}'
                            f'L{x + 8.5 * s:.1f} {y + 5.5 * s:.1f}L{x + 4.5 * s:.1f} {y + 10 * s:.1f}" '
                            f'stroke="{DAMAGE_RED}" stroke-width="{1.4 * s:.1f}" fill="none"/>')
                out.append(f'<g class="chip" data-space="{escape(name)}" data-owner="{escape(owner_key)}" '
                           f'data-type="{escape(utype)}" data-count="{n}"{attr}>'
                           f'<title>{escape(self._power_name(owner_key))}: {n} {escape(self._unit_name(utype, n))}'
                           f'{note}</title>{_symbol(self.game, utype, colour, x, y, s)}{mark}'
                           f'<text class="pb-count"{big} x="{x + 15 * s:.1f}" y="{y + 8.6 * s:.1f}">{n}</text></g>')
                x += _chip_width(n) * s
            y += CARD_ROW * s
        out.append("</g>")
        return "".join(out), (x0, top, x0 + card_w, top + card_h)

    def _card_shapes(self, counts):
        """Every way to cut a card into rows: (penalty, rows, width, height) at full size,
        up to four types a row or fewer, initials first in a row or on a row above."""
        power_rank = {k: i for i, k in enumerate(self.styles)}
        owners = sorted({o for o, _ in counts}, key=lambda o: power_rank.get(o, 99))
        shapes = []
        for apart in (False, True):
            last = None
            for per_row in (4, 3, 2, 1):
                rows: list[tuple[str, list[tuple[str, int]]]] = []
                for owner in owners:
                    types = sorted((t for o, t in counts if o == owner),
                                   key=lambda t: self.unit_order.get(t, 99))
                    if apart:
                        rows.append((owner, []))
                    for k in range(0, len(types), per_row):
                        rows.append((owner if k == 0 and not apart else "",
                                     [(t, counts[(owner, t)]) for t in types[k:k + per_row]]))
                if len(rows) == last:
                    continue                                  # no narrower than the last one
                last = len(rows)
                tag = 0 if apart else CARD_TAG
                widths = [max(15.0, tag + sum(_chip_width(n) for _, n in chips)) for _, chips in rows]
                shapes.append((18 * (4 - per_row) + 30 * apart, rows, max(widths) + 4,
                               CARD_ROW * len(rows) + 3))
        return shapes

    def _card_layout(self, name, counts, cx, top, head, must_fit: bool = False):
        """(rows, x, y, width, height, scale) of a unit card: of the layouts (up to four
        types a row, fewer; shifted sideways or down) that fit inside the space, the one
        closest to four types a row centred below the label; failing that, the card
        anywhere in the free room of the space (its label and badges kept clear), with
        its initials on their own row or smaller; failing all, None if ``must_fit``, else
        the first layout."""
        shapes = self._card_shapes(counts)
        quick = [shape for shape in shapes if shape[0] < 30]     # the initials first in a row
        area = self._card_area(name)
        candidates = sorted(((abs(dx) + 1.5 * dy + shape[0], k, dx, dy)
                             for k, shape in enumerate(quick)
                             for dx in CARD_SHIFTS for dy in CARD_DROPS))
        for _cost, k, dx, dy in candidates:
            _penalty, rows, card_w, card_h = quick[k]
            x0 = min(max(cx + dx - card_w / 2, 1.0), self.g.width - card_w - 1)
            if area and self._card_fits(area, x0, top + dy, card_w, card_h, len(area) == 1) and not any(
                    boxes_overlap((x0, top + dy, x0 + card_w, top + dy + card_h), other)
                    for other in self._labels_near(name)):
                return rows, x0, top + dy, card_w, card_h, 1
        best = self._best_in_room(self._card_room(name, head), shapes, cx, top)
        if best is not None:
            return best
        if must_fit:
            return None
        _penalty, rows, card_w, card_h = shapes[0]
        return rows, min(max(cx - card_w / 2, 1.0), self.g.width - card_w - 1), top, card_w, card_h, 1

    @staticmethod
    def _best_in_room(room: Room, shapes, cx: float, top: float, scales=CARD_SCALES):
        """The cheapest (rows, x, y, width, height, scale) of a card in ``room`` near a
        card centred on ``cx`` with its top at ``top``: every layout, every scale."""
        best = None
        for scale in scales:
            for penalty, rows, card_w, card_h in shapes:
                w, h = card_w * scale, card_h * scale
                extra = penalty + CARD_SHRINK_COST * (1 - scale)
                found = room.nearest(w, h, cx - w / 2, top, best[0] - extra if best else math.inf)
                if found is not None and (best is None or found[0] + extra < best[0]):
                    best = (found[0] + extra, rows, found[1], found[2], w, h, scale)
        return best and best[1:]

    def callout(self, name: str) -> str:
        """The unit card of a space too small for it anywhere, in the water beside it
        (clear of every label, badge and card), with a leader line into the space; ""
        when the space has no sea beside it (its card then stays where it was drawn)."""
        seas = sorted(n for n in self.gmap.neighbours(name) if self.gmap[n].is_sea and n in self.g.spaces)
        if not seas:
            return ""
        x0, y0, x1, y1 = self.blocks[name]
        room = Room([self.g.spaces[n].outline for n in seas], [*self.blocks.values(), *self.placed],
                    1.0, self.g.width - 1)
        shapes = self._card_shapes(self._unit_counts(name))
        layout = (self._best_in_room(room, shapes, (x0 + x1) / 2, y1 + 2, CARD_SCALES[:1])
                  or self._best_in_room(room, shapes, (x0 + x1) / 2, y1 + 2, CARD_SCALES[1:]))
        if layout is None:
            return ""
        _rows, cx0, cy0, w, h, _s = layout
        centre = (cx0 + w / 2, cy0 + h / 2)
        inner = Room([self.g.spaces[name].outline]).nearest(2, 2, centre[0], centre[1])
        tx, ty = (inner[1] + 1, inner[2] + 1) if inner else self.anchor(name)
        sx, sy = min(max(tx, cx0), cx0 + w), min(max(ty, cy0), cy0 + h)
        leader = (f'<line class="leader" x1="{sx:.1f}" y1="{sy:.1f}" x2="{tx:.1f}" y2="{ty:.1f}" '
                  f'stroke="{INK}" stroke-width="1.2"/><circle cx="{tx:.1f}" cy="{ty:.1f}" r="2" fill="{INK}"/>')
        markup, box = self._card_markup(name, layout, seas, leader)
        self.placed.append(box)
        return markup

    def _fallback_card(self, name: str) -> str:
        """The card of a space with no room for it and no sea beside it: below its label."""
        x0, y0, x1, y1 = self.blocks[name]
        return self.unit_card(name, self.anchor(name)[0], y1 + 1, (x0, y0, x1, y1))[0]

    def _card_room(self, name: str, head: tuple) -> Room:
        """The free room for the card of ``name``: its space (an island's sea around it
        too, nearby), less ``head``, the box of its label and the badges below it."""
        key = (id(self.g), name, tuple(round(v, 1) for v in head))
        cached = _room_cache.get(key)
        if cached is not None and cached[0] is self.g:
            return cached[1]
        shape = self.g.spaces[name]
        shapes = [shape.outline]
        if "sea" in self._card_spaces(name):
            xs = [x for ring in shape.outline for x, _ in ring]
            ys = [y for ring in shape.outline for _, y in ring]
            near = (min(xs) - 120, min(ys) - 120, max(xs) + 120, max(ys) + 120)
            shapes += [rings for (bx0, by0, bx1, by1), rings in self._card_area(name)[1:]
                       if bx0 < near[2] and near[0] < bx1 and by0 < near[3] and near[1] < by1]
        _room_cache[key] = (self.g, Room(shapes, [head, *self._labels_near(name)], 1.0, self.g.width - 1))
        return _room_cache[key][1]

    def _card_spaces(self, name: str) -> list[str]:
        """What a unit card of ``name`` may cover: its own space, and for an island drawn
        inside its sea zone the sea too ("sea": the card sits on the water beside it)."""
        t = self.gmap[name]
        zones = [n for n in self.gmap.neighbours(name) if self.gmap[n].is_sea] if t.island else []
        return [name, "sea"] if t.is_land and len(zones) == 1 else [name]

    def _labels_near(self, name: str) -> list:
        """The label boxes of other spaces that reach into the box round ``name`` (a
        label wider than its space, an island's beside it): its card keeps clear of them."""
        key = (id(self.g), "labels", name)
        cached = _room_cache.get(key)
        if cached is not None and cached[0] is self.g:
            return cached[1]
        rings = self.g.spaces[name].outline
        xs = [x for ring in rings for x, _ in ring]
        ys = [y for ring in rings for _, y in ring]
        around = (min(xs), min(ys), max(xs), max(ys))
        boxes = [box for n, s in self.g.spaces.items() if n != name
                 and boxes_overlap(box := label_box(s.label, s.at, self.size), around)]
        _room_cache[key] = (self.g, boxes)
        return boxes

    def _card_area(self, name: str) -> list:
        """(bounding box, rings) of every outline the card of ``name`` may cover."""
        key = (id(self.g), "area", name)
        cached = _room_cache.get(key)
        if cached is not None and cached[0] is self.g:
            return cached[1]
        areas = []
        for n in self._card_spaces(name):
            areas += ([s.outline for k, s in self.g.spaces.items() if self.gmap[k].is_sea]
                      if n == "sea" else [self.g.spaces[n].outline])
        boxed = []
        for rings in areas:
            xs = [x for ring in rings for x, _ in ring]
            ys = [y for ring in rings for _, y in ring]
            boxed.append(((min(xs), min(ys), max(xs), max(ys)), rings))
        _room_cache[key] = (self.g, boxed)
        return boxed

    @staticmethod
    def _card_fits(areas, x0, y0, w, h, alone: bool) -> bool:
        """Whether the card's corners are inside the areas and, for a card in one area,
        no corner of its outline pokes into the card (else points along its edges)."""
        x1, y1 = x0 + w, y0 + h
        fx = (0.01, 0.99) if alone else (0.01, 0.25, 0.5, 0.75, 0.99)
        spots = [(x0 + f * w, y0 + fy * h) for f in fx for fy in (0.07, 0.93)]
        if not all(any(b[0] <= x <= b[2] and b[1] <= y <= b[3] and inside_rings((x, y), rings)
                       for b, rings in areas) for x, y in spots):
            return False
        return not alone or not any(x0 < x < x1 and y0 < y < y1
                                    for ring in areas[0][1] for x, y in ring)

    @staticmethod
    def _row_owners(rows):
        current = ""
        for owner, _ in rows:
            current = owner or current
            yield current

    def _power_name(self, key: str) -> str:
        return self.styles[key].name if key in self.styles else key

    def _unit_name(self, utype: str, n: int) -> str:
        unit = self.game.ruleset.units.get(utype)
        if unit is None:
            return utype
        return unit.name if n == 1 else (unit.plural or unit.name + "s")

    # events ----------------------------------------------------------------
    def anchor(self, name: str) -> tuple[float, float]:
        return self.moved.get(name) or self.g.spaces[name].at

    def arrow_phase(self, ev) -> str:
        """A move's phase as its arrow draws it: ``combat`` or ``noncombat``.  An edition whose
        turn mixes moves and attacks (Taktyczne Starcie's ``main``) has the move drawn as a
        combat move when it ends where its power fought a board battle or captured the area
        this turn, else as a noncombat move."""
        if ev.phase in ("combat", "noncombat"):
            return ev.phase
        end = ev.path[-1] if isinstance(ev, Moved) else ev.target if isinstance(ev, Unloaded) else ev.zone
        return "combat" if (ev.power, end) in self.attacked else "noncombat"

    @functools.cached_property
    def attacked(self) -> set[tuple[str, str]]:
        """(power, space) of this turn's board battles (as the attacker) and captures."""
        found = {(ev.by, ev.territory) for ev in self.events if isinstance(ev, Captured)}
        return found | {(ev.attacker, ev.area) for ev in self.events if getattr(ev, "kind", "") == "ts_board_battle"}

    def moves(self) -> str:
        """One arrow per distinct (power, phase, path); units moving together are summed."""
        grouped: dict[tuple, Counter] = {}
        for ev in self.events:
            if isinstance(ev, Moved):
                key = (ev.power, self.arrow_phase(ev), tuple(ev.path))
            elif isinstance(ev, Loaded):
                key = (ev.power, self.arrow_phase(ev), (ev.origin, ev.zone))
            elif isinstance(ev, Unloaded):
                key = (ev.power, "combat" if ev.amphibious else self.arrow_phase(ev), (ev.zone, ev.target))
            elif isinstance(ev, Landed):
                key = (ev.power, "noncombat", tuple(ev.path))
            elif getattr(ev, "kind", "") == STRIKE_LAUNCHED:      # an air strike's way out
                for flight in ev.flights:
                    path = tuple(flight.out)
                    if len(path) >= 2 and all(p in self.g.spaces for p in path):
                        grouped.setdefault((ev.power, "combat", path), Counter()).update(flight.units)
                continue
            elif getattr(ev, "kind", "") == STRIKE_HOME:          # ... and the way back
                path = self.way_back(ev)
                if path and all(p in self.g.spaces for p in path):
                    grouped.setdefault((ev.power, RETURN, path), Counter()).update(ev.units)
                continue
            else:
                continue
            if len(key[2]) < 2 or any(p not in self.g.spaces for p in key[2]):
                continue
            grouped.setdefault(key, Counter()).update(ev.units)
        out = ['<g class="moves" stroke-linecap="round" stroke-linejoin="round">']
        for (power, phase, path), units in grouped.items():
            out.append(self.arrow(power, phase, path, units))
        out.append("</g>")
        return "\n".join(out)

    def way_back(self, home) -> tuple[str, ...]:
        """The route home of the aircraft a ``ts_strike_home`` event landed: the way back of
        the strike's flight on its area from their base (the turn's last such strike)."""
        found: tuple[str, ...] = ()
        for ev in self.events:
            if getattr(ev, "kind", "") == STRIKE_LAUNCHED and ev.power == home.power and ev.target == home.area:
                found = next((tuple(f.back) for f in ev.flights
                              if f.back and f.back[-1] == home.base and len(f.back) >= 2), found)
            if ev is home:
                break
        return found

    def arrow(self, power: str, phase: str, path: tuple[str, ...], units: Counter) -> str:
        w = self.g.width
        pts = [self.anchor(path[0])]
        for name in path[1:]:
            x, y = self.anchor(name)
            px = pts[-1][0]
            x += w * round((px - x) / w) if self.g.wrap_x else 0
            pts.append((x, y))
        if phase == RETURN:                     # beside the way out along the same areas
            pts = _set_aside(pts, RETURN_OFFSET)
        d, tip, heading = _curve(pts, self._exit(path[0], pts[0], pts[1]),
                                 self._exit(path[-1], pts[-1], pts[-2]))
        style = self.styles.get(power)
        colour = style.strong if style else INK
        combat = phase == "combat"
        dash = "" if combat else RETURN_DASH if phase == RETURN else ' stroke-dasharray="7 4.5"'
        head = _arrow_head(tip, heading, 9.5 if combat else 8.5)
        what = ", ".join(f"{n} {self._unit_name(t, n)}" for t, n in sorted(
            units.items(), key=lambda kv: self.unit_order.get(kv[0], 99)))
        shifts = [0.0]
        if self.g.wrap_x:
            xs = [p[0] for p in pts]
            if min(xs) < 0:
                shifts.append(w)
            if max(xs) > w:
                shifts.append(-w)
        body = []
        for dx in shifts:
            tr = f' transform="translate({dx:g},0)"' if dx else ""
            body.append(f'<g{tr}><path d="{d}" fill="none" stroke="#FFFFFF" stroke-width="{8 if combat else 7}"'
                        f' stroke-opacity="0.85"/>'
                        f'<path d="{d}" fill="none" stroke="{INK}" stroke-width="{5.4 if combat else 4.6}"/>'
                        f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{3.4 if combat else 2.8}"{dash}/>'
                        f'<polygon points="{head}" fill="{colour}" stroke="{INK}" stroke-width="1.2"/></g>')
        said = PHASE_TITLES.get(phase, phase)
        return (f'<g class="arrow {phase}" data-power="{escape(power)}" data-phase="{escape(phase)}" '
                f'data-path="{escape(" > ".join(path))}"><title>{escape(self._power_name(power))} '
                f'({said}): {escape(what)}: {escape(" -> ".join(path))}</title>{"".join(body)}</g>')

    def _exit(self, name: str, at, toward) -> float:
        """How far from ``at`` a line toward ``toward`` leaves the label block of ``name``,
        so that arrows start and end beside labels and units, never under them."""
        x0, y0, x1, y1 = self.blocks.get(name, label_box(self.g.spaces[name].label, at, self.size))
        shift = at[0] - self.anchor(name)[0]            # the block, where the path has it
        x0, x1 = x0 + shift, x1 + shift
        dx, dy = toward[0] - at[0], toward[1] - at[1]
        length = math.hypot(dx, dy) or 1.0
        dx, dy = dx / length, dy / length
        reach = []
        if dx:
            reach.append(((x1 if dx > 0 else x0) - at[0]) / dx)
        if dy:
            reach.append(((y1 if dy > 0 else y0) - at[1]) / dy)
        return max(0.0, min(reach, default=0.0)) + 4.0

    def battles(self) -> str:
        """A burst per battle beside its space's label: a letter for the outcome, in the
        colour of the side holding the field; a board battle's (Taktyczne Starcie's
        ``ts_board_battle``) from its winner."""
        started = {ev.battle: ev for ev in self.events if isinstance(ev, BattleStarted)}
        out = ['<g class="battles">']
        seen: Counter = Counter()
        for ev in self.events:
            if isinstance(ev, BattleEnded) and ev.space in self.g.spaces:
                start = started.get(ev.battle)
                winner = None
                if start is not None and ev.outcome == "attacker_wins":
                    winner = start.attacker
                elif start is not None and ev.outcome in ("defender_wins", "attacker_retreats") and start.defenders:
                    winner = start.defenders[0]
                attacker = self._power_name(start.attacker) if start else "?"
                letter = OUTCOME_LETTERS.get(ev.outcome, "?")
                title = (f"Battle of {ev.space} ({attacker} attacking): "
                         f"{OUTCOME_TEXT.get(letter, ev.outcome)} after {ev.rounds} round(s)")
                out.append(self._burst(ev.space, ev.outcome, winner, title, seen))
            elif getattr(ev, "kind", "") == "ts_board_battle" and ev.area in self.g.spaces:
                outcome = "attacker_wins" if ev.winner and ev.winner == ev.attacker else "defender_wins"
                letter = OUTCOME_LETTERS[outcome]
                title = (f"Board battle of {ev.area} ({self._power_name(ev.attacker)} attacking): "
                         f"{OUTCOME_TEXT[letter]} after {ev.turns} battle turn(s)")
                out.append(self._burst(ev.area, outcome, ev.winner or None, title, seen))
        for blast in self.blasts:
            if blast.centre in self.g.spaces:
                _x0, y0, x1, _ = label_box(self.g.spaces[blast.centre].label, self.anchor(blast.centre), self.size)
                out.append(blast_marker(blast, x1 + 9 + 18 * seen[blast.centre], y0 + 2, self._power_name))
                seen[blast.centre] += 1
        out.append("</g>")
        return "\n".join(out)

    def _burst(self, space: str, outcome: str, winner: str | None, title: str, seen: Counter) -> str:
        letter = OUTCOME_LETTERS.get(outcome, "?")
        style = self.styles.get(winner)
        fill, text = (style.strong, style.text) if style else ("#FFFFFF", INK)
        x0, y0, x1, _ = label_box(self.g.spaces[space].label, self.anchor(space), self.size)
        cx, cy = x1 + 9 + 18 * seen[space], y0 + 2
        seen[space] += 1
        burst = " ".join(
            f"{cx + (9.5 if k % 2 == 0 else 6.2) * math.cos(k * math.pi / 8):.1f},"
            f"{cy + (9.5 if k % 2 == 0 else 6.2) * math.sin(k * math.pi / 8):.1f}" for k in range(16))
        return (f'<g class="battle" data-space="{escape(space)}" data-outcome="{escape(outcome)}">'
                f'<title>{escape(title)}</title>'
                f'<polygon points="{burst}" fill="{fill}" stroke="{CAPTURE}" stroke-width="1.6"/>'
                f'<text x="{cx:.1f}" y="{cy + 3.6:.1f}" font-size="10" font-weight="bold" '
                f'text-anchor="middle" fill="{text}">{letter}</text></g>')

    def captures(self) -> str:
        paths = space_paths(self.g)
        out = ['<g class="captures" fill="none">']
        for ev in self.events:
            if isinstance(ev, Captured) and ev.territory in paths:
                out.append(f'<g class="captured" data-space="{escape(ev.territory)}" data-by="{escape(ev.by)}">'
                           f'<title>captured by {escape(self._power_name(ev.by))}</title>'
                           f'<path d="{paths[ev.territory]}" stroke="#FFFFFF" stroke-width="5"/>'
                           f'<path d="{paths[ev.territory]}" stroke="{CAPTURE}" stroke-width="3" '
                           f'stroke-dasharray="7 4"/></g>')
        out.append("</g>")
        return "\n".join(out)

    # legend ----------------------------------------------------------------
    def legend(self) -> tuple[str, float]:
        """Rows explaining what this picture shows: powers always; units, moves, captures
        and battles only when drawn."""
        row = 22.0
        rows = [self.legend_powers()]
        if self.opt.units and self.state is not None:
            rows.append(self.legend_units())
        rows.append(self.legend_marks())
        if any(isinstance(ev, BattleEnded) or getattr(ev, "kind", "") == "ts_board_battle"
               for ev in self.events):
            rows.append(self.legend_battles())
        relations = self.state.relations if self.state is not None else self.game.ruleset.starting_relations
        if shows_war_state(self.game, relations):
            rows += war_rows(self.game, relations, self.styles, self.nation_tags, self._text)
        top = HEADER + self.g.height
        # Drawn larger on a large board, so that it reads as well as on a 1100-unit one when
        # the picture is shrunk to a page's width; items wrap at the board's edge.
        scale = max(1.0, self.g.width / LEGEND_WIDTH)
        room = self.g.width / scale - 12
        out = [f'<g class="legend-box" transform="translate(0,{top + 8:g}) scale({scale:g})">']
        y = 12.0
        for heading, items in rows:
            out.append(f'<text class="pb-legend" x="12" y="{y + 4}" font-weight="bold">{heading}</text>')
            x = 64.0
            for width, markup in items:
                if x > 64.0 and x + width > room:
                    x, y = 64.0, y + row
                out.append(f'<g transform="translate({x:.1f},{y:.1f})">{markup}</g>')
                x += width
            y += row
        out.append("</g>")
        return "\n".join(out), (8 + (y - 12.0) + 6) * scale

    @staticmethod
    def _text(x: float, text: str) -> str:
        return f'<text class="pb-legend" x="{x:g}" y="4">{escape(text)}</text>'

    def legend_powers(self):
        items = []
        for style in self.styles.values():
            items.append((40 + 6.6 * len(style.name),
                          f'<rect x="0" y="-7" width="26" height="14" fill="{style.fill}" stroke="{INK}" '
                          f'stroke-width="0.7"/><rect x="5" y="-5" width="16" height="10" rx="2" '
                          f'fill="{style.strong}" stroke="{INK}" stroke-width="0.6"/>'
                          f'<text class="pb-small" x="13" y="3" fill="{style.text}" font-weight="bold">'
                          f'{style.initials}</text>{self._text(31, style.name)}'))
        items.append((170, f'<rect x="0" y="-7" width="26" height="14" fill="url(#pbem-neutral)" '
                           f'stroke="{INK}" stroke-width="0.7"/>{self._text(31, "neutral (impassable)")}'))
        free = [t for t in self.gmap.land() if not t.impassable and not self.owners.get(t.key)]
        if free and self.state is not None:       # Taktyczne Starcie: land nobody has taken
            items.append((140, f'<rect x="0" y="-7" width="26" height="14" fill="{NEUTRAL_FILL}" '
                               f'stroke="{INK}" stroke-width="0.7"/>{self._text(31, "land nobody holds")}'))
        items.append((100, f'<rect x="0" y="-7" width="26" height="14" fill="{SEA_FILL}" stroke="{SEA_EDGE}"/>'
                           f'{self._text(31, "sea zone")}'))
        items.append((240, f'<rect x="0" y="-4" width="26" height="8" fill="{GAP_FILL}"/>'
                           f'{self._text(31, "no border (not neighbours)")}'))
        return "Powers", items

    def legend_units(self):
        items = []
        for utype, unit in self.game.ruleset.units.items():
            name = unit.name
            items.append((30 + 6.4 * len(name),
                          _symbol(self.game, utype, "#FFFFFF", 0, -6.5, 1.25) + self._text(21, name)))
        items.append((0, self._text(6, "(count beside each; a row per owner, starting with its initials)")))
        return "Units", items

    def legend_marks(self):
        items = [(70, _star(6, 0, 6.2, "#FFFFFF") + self._text(16, "capital"))]
        if any(t.ipc for t in self.gmap.land()):
            items.append((90, f'<rect x="0" y="-5" width="17" height="10" rx="5" fill="#FFFFFF" stroke="{INK}" '
                              f'stroke-width="0.7"/><text class="pb-small" x="8.5" y="3">3</text>'
                              f'{self._text(22, "IPC value")}'))
        items += self.legend_objects()
        if any(getattr(t, "victory_city", False) for t in self.gmap.land()):
            items.append((95, f'<circle cx="5" cy="0" r="4.6" fill="#FFFFFF" stroke="{INK}"/>'
                              f'<circle cx="5" cy="0" r="2" fill="{INK}"/>{self._text(15, "victory city")}'))
        items += self.legend_facilities()
        if self.g.links:
            items.append((120, f'<line x1="0" y1="0" x2="26" y2="0" stroke="#1D4E6E" stroke-width="2" '
                               f'stroke-dasharray="3 2"/>{self._text(31, "canal / strait")}'))
        moves = {self.arrow_phase(ev) for ev in self.events if isinstance(ev, (Moved, Loaded, Unloaded))}
        if any(getattr(ev, "kind", "") == STRIKE_LAUNCHED for ev in self.events):
            moves.add("combat")
        if any(isinstance(ev, Landed) for ev in self.events):
            moves.add("noncombat")
        if any(getattr(ev, "kind", "") == STRIKE_HOME for ev in self.events):
            moves.add(RETURN)
        for phase, width, dash, order in (("combat", 5.4, "", 150),
                                          ("noncombat", 4.6, ' stroke-dasharray="7 4.5"', 170),
                                          (RETURN, 4.6, RETURN_DASH, 175)):
            if phase in moves:
                items.append((order,
                              f'<path d="M0,0 H34" stroke="{INK}" stroke-width="{width}"/>'
                              f'<path d="M0,0 H34" stroke="#FFFFFF" stroke-width="{width - 2}"{dash}/>'
                              f'<polygon points="{_arrow_head((42, 0), (1, 0), 9)}" fill="#FFFFFF" '
                              f'stroke="{INK}" stroke-width="1.1"/>{self._text(48, PHASE_LEGEND[phase])}'))
        if moves:
            items.append((180, self._text(0, "(arrows in the mover's colour)")))
        units = [u for us in (self.state.units.values() if self.state else ()) for u in us]
        if atomic(units):
            items.append((220, f'<g transform="translate(0,-5)">{_symbol(self.game, "bomber", "#FFFFFF", 0, 0)}'
                               f'{atomic_mark(0, 0)}</g>{self._text(20, "bomber with an atomic bomb")}'))
        if self.blasts:
            items.append((300, f'<rect x="0" y="-7" width="22" height="14" fill="url(#pbem-blast)" '
                               f'stroke="{CAPTURE}" stroke-width="1.6"/>{blast_marker_sample()}'
                               f'{self._text(42, "nuclear blast: its centre, the areas reached")}'))
        if any(isinstance(ev, Captured) for ev in self.events):
            items.append((150, f'<rect x="0" y="-7" width="26" height="14" fill="none" stroke="{CAPTURE}" '
                               f'stroke-width="3" stroke-dasharray="7 4"/>{self._text(31, "captured this turn")}'))
        return "Marks", items

    def legend_objects(self):
        """The objects the state keeps (present/board_objects.py) that the board shows."""
        extras = self.state.extras if self.state is not None else None
        kinds = {obj.kind for name in self.g.spaces for obj in map_objects(extras, name)}
        texts = {"factory": "factory", "shipyard": "shipyard (its sea beside it; a dashed line to the sea)",
                 "airfield": "airfield", "silo": "nuclear silo (red: armed, white: not)",
                 "launcher": "anti-missile launcher (red: armed, white: not)"}
        items = []
        for kind in sorted(kinds, key=lambda k: (k not in texts, list(texts).index(k) if k in texts else 0, k)):
            text = texts.get(kind, kind.replace("_", " "))
            body = SYMBOLS[object_symbol_key(kind)].replace('"C"', '"#FFFFFF"')
            body += missile_mark(True) if kind in ARMED_KINDS else ""
            items.append((30 + 6.4 * len(text), f'<g transform="translate(0,-5)">{body}</g>'
                                                + self._text(18, text)))
        return items

    def legend_facilities(self):
        """Bases (when the ruleset has them), damage counters and damaged ships (when the
        position has them)."""
        items = []
        kinds = {facility_kind(self.game, k): k for k in self.game.ruleset.units}
        for kind, text in (("air_base", "air base"), ("naval_base", "naval base")):
            if kind in kinds:
                items.append((30 + 6.4 * len(text),
                              _symbol(self.game, kinds[kind], "#FFFFFF", 0, -5) + self._text(18, text)))
        if "air_base" in kinds or "naval_base" in kinds:
            items.append((140, _symbol(self.game, kinds.get("air_base") or kinds["naval_base"], "#FFFFFF", 0, -5)
                          + cross_out(0, -5) + self._text(18, "inoperative base")))
        units = [u for us in (self.state.units.values() if self.state else ()) for u in us]
        if any(u.damage and facility_kind(self.game, u.type) for u in units):
            items.append((150, damage_badge(0, -5, 4, "damage-sample")[0] + self._text(17, "facility damage")))
        if damaged_counts(self.game, units):
            items.append((130, f'<path d="M9 -5L5 0L8.5 0.5L4.5 5" stroke="{DAMAGE_RED}" stroke-width="1.4" '
                               f'fill="none"/>{self._text(16, "damaged ship")}'))
        return items

    def legend_battles(self):
        items = []
        for letter, text in OUTCOME_TEXT.items():
            items.append((30 + 6.4 * len(text),
                          f'<circle cx="7" cy="0" r="8" fill="#FFFFFF" stroke="{CAPTURE}" stroke-width="1.6"/>'
                          f'<text x="7" y="3.6" font-size="10" font-weight="bold" text-anchor="middle" '
                          f'fill="{INK}">{letter}</text>{self._text(20, text)}'))
        items.append((0, self._text(6, "(marker in the colour of the side holding the field)")))
        return "Battles", items


# --------------------------------------------------------------------------- geometry helpers

# How an arrow's phase is named in its title and in the legend.
PHASE_TITLES = {RETURN: "air strike, the way back"}
PHASE_LEGEND = {"combat": "combat move", "noncombat": "noncombat move", RETURN: "air strike's way back"}
RETURN_DASH = ' stroke-dasharray="2 4"'        # dotted: not a noncombat move's dashes


def _set_aside(pts: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """``pts`` moved ``by`` px to the right of the way from the first to the last, so a way
    back over the same areas as a way out is drawn beside it, not over it."""
    dx, dy = pts[-1][0] - pts[0][0], pts[-1][1] - pts[0][1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * by, dx / length * by
    return [(x + nx, y + ny) for x, y in pts]


def _curve(pts: list[tuple[float, float]], start_trim: float, end_trim: float):
    """A smooth path through ``pts`` (one gently bent curve for a single step, a Catmull-Rom
    spline through the spaces of a longer path), shortened by the trims at both ends so it
    does not cover the labels; returns (path data, tip, heading at the tip)."""
    def towards(a, b, dist):
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        return (a[0] + dx / length * dist, a[1] + dy / length * dist), length

    first, len0 = towards(pts[0], pts[1], 0.0)
    first, _ = towards(pts[0], pts[1], min(start_trim, len0 * 0.4))
    last_len = math.hypot(pts[-1][0] - pts[-2][0], pts[-1][1] - pts[-2][1])
    last, _ = towards(pts[-1], pts[-2], min(end_trim, last_len * 0.45))
    if len(pts) == 2:
        (x0, y0), (x1, y1) = first, last
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        bend = 0.14 * length
        cx = (x0 + x1) / 2 - (y1 - y0) / length * bend
        cy = (y0 + y1) / 2 + (x1 - x0) / length * bend
        d = f"M{x0:.1f},{y0:.1f}Q{cx:.1f},{cy:.1f} {x1:.1f},{y1:.1f}"
        control = (cx, cy)
    else:
        p = [first, *pts[1:-1], last]
        ext = [p[0], *p, p[-1]]
        parts = [f"M{p[0][0]:.1f},{p[0][1]:.1f}"]
        for i in range(1, len(ext) - 2):
            a, b, c, e = ext[i - 1], ext[i], ext[i + 1], ext[i + 2]
            c1 = (b[0] + (c[0] - a[0]) / 6, b[1] + (c[1] - a[1]) / 6)
            c2 = (c[0] - (e[0] - b[0]) / 6, c[1] - (e[1] - b[1]) / 6)
            parts.append(f"C{c1[0]:.1f},{c1[1]:.1f} {c2[0]:.1f},{c2[1]:.1f} {c[0]:.1f},{c[1]:.1f}")
            control = c2
        d = "".join(parts)
    hx, hy = last[0] - control[0], last[1] - control[1]
    norm = math.hypot(hx, hy) or 1.0
    return d, last, (hx / norm, hy / norm)


def _arrow_head(tip, heading, size: float) -> str:
    (x, y), (hx, hy) = tip, heading
    bx, by = x - hx * size, y - hy * size
    px, py = -hy * size * 0.55, hx * size * 0.55
    return f"{x + hx * 2:.1f},{y + hy * 2:.1f} {bx + px:.1f},{by + py:.1f} {bx - px:.1f},{by - py:.1f}"
