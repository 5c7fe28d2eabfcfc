"""The board picture, present/board_svg.py, on the bundled example game's real states and
events: valid XML, every space once in its owner's colour, unit counts equal to the state's,
an arrow per move, a marker per battle, an outline per capture; and where it appears (the
HTML report, ``pbem map``, ``pbem show --svg/--png``).  The browser screenshots of
scripts/render_boards.py are checked at the end (skipped only without chromium)."""

from __future__ import annotations

import math
import shutil
import struct
import xml.etree.ElementTree as ET
import zlib
from collections import Counter
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import helpers

from adjudicator.editions import names as edition_names
from adjudicator.io import layout
from adjudicator.service.games import load_game
from adjudicator.io.turnfile import decode_game_file, decode_turn_file
from adjudicator.model.game import SetupEntry
from adjudicator.model.events import BattleEnded, Captured, Landed, Loaded, Moved, Unloaded
from adjudicator.model.state import GameState, Unit
from adjudicator.present.board_svg import (
    FACTORY_TYPE, NEUTRAL_FILL, SEA_FILL, BoardOptions, NoGeometry, board_svg, power_styles,
)
from adjudicator.present.report import report_html
from cli_helpers import pbem
from conftest import PUBLISHED_GAME

ROOT = Path(__file__).resolve().parents[1]
NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def game():
    return load_game("aa1941")


@pytest.fixture(scope="module")
def turns():
    return [decode_turn_file(p.read_bytes(), p) for _, _, p in layout.list_turns(PUBLISHED_GAME)]


@pytest.fixture(scope="module")
def start():
    return decode_game_file((PUBLISHED_GAME / "game.json").read_bytes(), "game.json").initial_state


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)            # raises on anything that is not well-formed XML
    assert root.tag == NS + "svg"
    return root


def elements(root, cls: str):
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def expected_fill(game, state, name, styles):
    t = game.map[name]
    if t.is_sea:
        return SEA_FILL, ""
    if t.impassable:
        return "url(#pbem-neutral)", ""
    owner = state.owners.get(name) if state else t.original_owner
    # nations: neutral; land nobody holds (Taktyczne Starcie before the draw) has no owner
    return (styles[owner].fill if owner in styles else NEUTRAL_FILL), owner or ""


def positions(start, turns):
    yield "start", start, ()
    for t in turns:
        yield f"turn {t.turn_number}", t.state, t.events


# --------------------------------------------------------------------------- the picture

def test_every_space_once_in_its_owners_colour(game, start, turns):
    styles = power_styles(game)
    for label, state, events in positions(start, turns):
        root = parse(board_svg(game, state, events))
        spaces = elements(root, "space")
        names = [e.get("data-space") for e in spaces]
        assert sorted(names) == sorted(game.map.territories), label
        for e in spaces:
            fill, owner = expected_fill(game, state, e.get("data-space"), styles)
            assert (e.get("fill"), e.get("data-owner")) == (fill, owner), (label, e.get("data-space"))


def test_owners_are_written_as_initials_too(game, turns):
    styles = power_styles(game)
    state = turns[-1].state
    root = parse(board_svg(game, state))
    texts = Counter(e.text for e in root.iter(NS + "text"))
    for owner in set(state.owners.values()):
        assert texts[styles[owner].initials] >= 1 + sum(1 for o in state.owners.values() if o == owner)
    assert len({s.initials for s in styles.values()}) == len(styles)
    assert len({s.fill for s in styles.values()} | {SEA_FILL}) == len(styles) + 1


def unit_counts_in(root) -> Counter:
    counts: Counter = Counter()
    for chip in root.iter():
        if chip.get("data-count") is not None:
            counts[(chip.get("data-space"), chip.get("data-owner"), chip.get("data-type"))] += int(chip.get("data-count"))
    return counts


def unit_counts_of(state: GameState) -> Counter:
    counts: Counter = Counter()
    for space, units in state.units.items():
        for unit in units:
            for u in (unit, *unit.cargo):
                counts[(space, u.owner, u.type)] += 1
    return counts


def test_unit_counts_equal_the_states(game, start, turns):
    for label, state, events in positions(start, turns):
        root = parse(board_svg(game, state, events))
        assert unit_counts_in(root) == unit_counts_of(state), label
        assert sum(unit_counts_in(root).values()) == sum(state.unit_counts().values())


def move_paths(events) -> set:
    paths = set()
    for e in events:
        if isinstance(e, Moved):
            paths.add((e.power, e.phase, tuple(e.path)))
        elif isinstance(e, Loaded):
            paths.add((e.power, e.phase, (e.origin, e.zone)))
        elif isinstance(e, Unloaded):
            paths.add((e.power, "combat" if e.amphibious else e.phase, (e.zone, e.target)))
        elif isinstance(e, Landed):
            paths.add((e.power, "noncombat", tuple(e.path)))
    return paths


def test_an_arrow_for_every_move(game, turns):
    for turn in turns:
        root = parse(board_svg(game, turn.state, turn.events))
        arrows = {(a.get("data-power"), a.get("data-phase"), tuple(a.get("data-path").split(" > ")))
                  for a in elements(root, "arrow")}
        assert arrows == move_paths(turn.events), turn.turn_number
        assert len(elements(root, "arrow")) == len(arrows)            # moves along one path: one arrow
        phases = {a.get("data-phase") for a in elements(root, "arrow")}
        for arrow in elements(root, "arrow"):                          # combat solid, noncombat dashed
            dashed = any(p.get("stroke-dasharray") for p in arrow.iter(NS + "path"))
            assert dashed == (arrow.get("data-phase") == "noncombat")
        assert phases <= {"combat", "noncombat"}
    assert any(move_paths(t.events) for t in turns)


def test_battles_and_captures_are_marked(game, turns):
    for turn in turns:
        root = parse(board_svg(game, turn.state, turn.events))
        battles = Counter((b.get("data-space"), b.get("data-outcome")) for b in elements(root, "battle"))
        assert battles == Counter((e.space, e.outcome) for e in turn.events if isinstance(e, BattleEnded))
        captured = Counter(c.get("data-space") for c in elements(root, "captured"))
        assert captured == Counter(e.territory for e in turn.events if isinstance(e, Captured))
    assert any(isinstance(e, Captured) for t in turns for e in t.events)


def test_the_empty_map_names_every_space_and_has_no_units(game):
    root = parse(board_svg(game))
    assert unit_counts_in(root) == Counter()
    assert not elements(root, "arrow")
    names = {e.get("data-space") for e in elements(root, "place")}
    assert names == set(game.map.territories)
    words = " ".join(e.text or "" for e in root.iter(NS + "text"))
    for shape in game.geometry.spaces.values():
        for line in shape.label:
            assert line in words


def test_legend_names_powers_and_unit_types(game, turns):
    turn = turns[1]
    root = parse(board_svg(game, turn.state, turn.events))
    legend = next(e for e in root.iter() if e.get("class") == "legend-box")
    words = [e.text for e in legend.iter(NS + "text")]
    for power in game.ruleset.powers.values():
        assert power.name in words
    for unit in game.ruleset.units.values():
        assert unit.name in words
    assert "combat move" in words and "captured this turn" in words
    assert "attacker won" in words
    quiet = parse(board_svg(game, None, (), BoardOptions(legend=True)))
    assert "combat move" not in [e.text for e in quiet.iter(NS + "text")]
    assert not [e for e in parse(board_svg(game, None, (), BoardOptions(legend=False))).iter()
                if e.get("class") == "legend-box"]


def test_shapes_crossing_the_seam_are_drawn_twice(game):
    root = parse(board_svg(game))
    crossing = [n for n, s in game.geometry.spaces.items()
                if any(x < 0 or x > game.geometry.width for ring in s.outline for x, _ in ring)]
    assert crossing, "some region should run over the east-west seam"
    paths = {e.get("data-space"): e.get("d") for e in elements(root, "space")}
    for name in crossing:
        assert paths[name].count("M") > len(game.geometry.spaces[name].outline), name


def test_a_crowded_space_stays_readable(game, start):
    """Late game: three powers and every unit type in one sea zone."""
    zone = "Sea Zone 42"
    crowd = []
    for power in ("usa", "uk", "japan"):
        for utype, ut in game.ruleset.units.items():
            if not ut.has("static"):            # a factory never stands in a sea zone
                crowd += [Unit(utype, power)] * (3 if utype != "fighter" else 12)
    state = attrs.evolve(start, units={**start.units, zone: tuple(crowd)})
    root = parse(board_svg(game, state))
    assert unit_counts_in(root) == unit_counts_of(state)
    card = next(e for e in elements(root, "units") if e.get("data-space") == zone)
    rect = card.find(NS + "rect")
    x, w = float(rect.get("x")), float(rect.get("width"))
    assert 0 <= x and x + w <= game.geometry.width                 # kept inside the board
    assert float(rect.get("height")) < 180              # several types a row: 30 rows if one per unit


@pytest.mark.parametrize("edition", ["aa1941", "aa1942", "europe1999", "global1940"])
def test_every_unit_card_is_inside_its_space_on_every_board_of_the_examples(edition):
    """Each card's corners lie in its space (an island's or a callout's: in the water its
    ``data-within`` names), it covers no other space's label, and a callout's line ends in
    its own space; on the start and after every turn of the edition's example game."""
    from adjudicator.model.geometry import inside_rings
    from adjudicator.service import gamedir
    directory = ROOT / "turns" / f"{edition}-example" / "game"
    info, _ = gamedir.read_game(directory)
    played = load_game(info.ruleset, options=info.options)
    shapes = played.geometry.spaces
    seas = [s.outline for n, s in shapes.items() if played.map[n].is_sea]
    boards = [info.initial_state] + [gamedir.read_turn(directory, path, info).state
                                     for _, _, path in layout.list_turns(directory)]
    from adjudicator.model.geometry import LINE_HEIGHT, boxes_overlap, label_box
    size = played.geometry.label_size
    cards = 0
    for state in boards:
        root = parse(board_svg(played, state))
        labels = {}                                     # each label's box, where it is drawn
        for place in elements(root, "place"):
            first = place.find(NS + "text")
            lines = played.geometry.spaces[place.get("data-space")].label
            top = float(first.get("y")) - 0.78 * size * LINE_HEIGHT
            labels[place.get("data-space")] = label_box(
                lines, (float(first.get("x")), top + len(lines) * size * LINE_HEIGHT / 2), size)
        for card in elements(root, "units"):
            rings = [r for n in card.get("data-within").split("|")
                     for r in (seas if n == "sea" else [shapes[n].outline])]
            rect = card.find(NS + "rect")
            x, y, w, h = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
            for corner in ((x + 1, y + 1), (x + w - 1, y + 1), (x + 1, y + h - 1), (x + w - 1, y + h - 1)):
                assert any(inside_rings(corner, r) for r in rings), (card.get("data-space"), corner)
            covered = [n for n, box in labels.items() if n != card.get("data-space")
                       and boxes_overlap((x, y, x + w, y + h), box)]
            assert covered == [], (card.get("data-space"), covered)      # no one else's label
            line = card.find(NS + "line")
            if line is not None:
                end = (float(line.get("x2")), float(line.get("y2")))
                assert inside_rings(end, shapes[card.get("data-space")].outline), card.get("data-space")
            cards += 1
    assert cards > 20 * len(boards)


def test_factories_are_drawn_once_from_the_units(game, start):
    """Factories are units (industrial_complex): each is drawn once, in its owner's colour,
    in its territory's info row, on the board and on the empty board (from the setup)."""
    setup_factories = {e.space for e in game.setup if FACTORY_TYPE in e.units}
    plain = parse(board_svg(game, start))
    drawn = [e for e in plain.iter() if e.get("data-type") == FACTORY_TYPE]
    assert sorted(e.get("data-space") for e in drawn) == sorted(setup_factories)
    assert unit_counts_in(plain) == unit_counts_of(start)
    units = dict(start.units)
    units["Brazil"] = units.get("Brazil", ()) + (Unit(FACTORY_TYPE, "usa"),)
    built = parse(board_svg(game, attrs.evolve(start, units=units)))
    assert [e.get("data-owner") for e in built.iter()
            if e.get("data-type") == FACTORY_TYPE and e.get("data-space") == "Brazil"] == ["usa"]
    empty = parse(board_svg(game))
    assert len(elements(empty, "factory")) == len(setup_factories)
    with_unit = attrs.evolve(game, setup=game.setup + (SetupEntry("usa", "Brazil", {FACTORY_TYPE: 1}),))
    assert len(elements(parse(board_svg(with_unit)), "factory")) == len(setup_factories) + 1


def test_victory_cities_where_the_map_has_them(game, start):
    city = attrs.evolve(game.map["Karelia"], victory_city="Leningrad")
    gmap = attrs.evolve(game.map, territories={**game.map.territories, "Karelia": city})
    root = parse(board_svg(attrs.evolve(game, map=gmap), start))
    assert len(elements(root, "victory-city")) == 1
    assert not elements(parse(board_svg(game, start)), "victory-city")


def test_same_input_same_picture(game, turns):
    turn = turns[3]
    assert board_svg(game, turn.state, turn.events) == board_svg(game, turn.state, turn.events)


def test_no_geometry_no_picture(game, start):
    with pytest.raises(NoGeometry, match="no board geometry"):
        board_svg(attrs.evolve(game, geometry=None), start)


# --------------------------------------------------------------------------- where it appears

def test_html_report_embeds_the_board_after_the_turn(game, start, turns):
    turn = turns[1]
    html = report_html(turn.events, game, start, turn.state)
    svg = html[html.index("<svg"):html.index("</svg>") + 6]
    root = parse(svg)
    assert unit_counts_in(root) == unit_counts_of(turn.state)
    assert len(elements(root, "arrow")) == len(move_paths(turn.events))
    assert "Germany's turn" in root.find(NS + "title").text
    assert html.index("<svg") < html.index("<pre")                   # the picture comes first
    assert "<svg" not in report_html(turn.events, game, start, None)
    assert "<svg" not in report_html(turn.events, attrs.evolve(game, geometry=None), start, turn.state)


def test_pbem_map_draws_the_empty_board(tmp_path, capsys, monkeypatch, game):
    code, out = pbem(capsys, "map", "--ruleset", "aa1941", "--svg", tmp_path / "m.svg")
    assert code == 0, out
    root = parse((tmp_path / "m.svg").read_text(encoding="utf-8"))
    assert len(elements(root, "space")) == len(game.map.territories)
    monkeypatch.chdir(tmp_path)
    code, out = pbem(capsys, "map")
    assert code == 0 and (tmp_path / "aa1941-map.svg").exists(), out


@pytest.mark.parametrize("edition", edition_names())
def test_every_edition_draws_its_empty_map_and_start(tmp_path, capsys, edition):
    """Each registered edition's picture, as a player makes it: ``pbem map`` and, for a new
    game, ``pbem show --svg``; every space once in its owner's colour, the setup's units."""
    game = load_game(edition)
    code, out = pbem(capsys, "map", "--ruleset", edition, "--svg", tmp_path / "m.svg")
    assert code == 0, out
    root = parse((tmp_path / "m.svg").read_text(encoding="utf-8"))
    assert {e.get("data-space") for e in elements(root, "place")} == set(game.map.territories)
    assert not unit_counts_in(root)
    code, out = pbem(capsys, "new", tmp_path / "g", "--ruleset", edition, "--demo-seeds")
    assert code == 0, out
    start = decode_game_file((tmp_path / "g" / "game.json").read_bytes(), "game.json").initial_state
    code, out = pbem(capsys, "show", "-g", tmp_path / "g", "--svg", tmp_path / "b.svg")
    assert code == 0, out
    root = parse((tmp_path / "b.svg").read_text(encoding="utf-8"))
    styles = power_styles(game)
    spaces = elements(root, "space")
    assert sorted(e.get("data-space") for e in spaces) == sorted(game.map.territories)
    for e in spaces:
        assert (e.get("fill"), e.get("data-owner")) == expected_fill(game, start, e.get("data-space"), styles)
    assert unit_counts_in(root) == unit_counts_of(start)
    assert unit_counts_of(start) != Counter() or not game.setup   # Taktyczne: no unit at the start


def test_pbem_show_svg_draws_the_position_and_last_turn(tmp_path, capsys, turns):
    game_dir = tmp_path / "game"
    shutil.copytree(PUBLISHED_GAME, game_dir)
    code, out = pbem(capsys, "show", "-g", game_dir, "--svg", tmp_path / "b.svg")
    assert code == 0, out
    root = parse((tmp_path / "b.svg").read_text(encoding="utf-8"))
    assert unit_counts_in(root) == unit_counts_of(turns[-1].state)
    assert len(elements(root, "arrow")) == len(move_paths(turns[-1].events))
    code, out = pbem(capsys, "show", "-g", game_dir, "--svg", tmp_path / "c.svg", "--no-events")
    assert code == 0 and not elements(parse((tmp_path / "c.svg").read_text()), "arrow")


def test_picture_mistakes_are_messages(tmp_path, capsys):
    target = tmp_path / "game.json"
    target.write_text("precious", encoding="utf-8")
    code, out = pbem(capsys, "map", "--svg", target)
    assert code == 2 and "must end in .svg" in out and "Traceback" not in out
    assert target.read_text(encoding="utf-8") == "precious"
    code, out = pbem(capsys, "map", "--svg", tmp_path / "nowhere" / "m.svg")
    assert code == 2 and "does not exist" in out
    bare = tmp_path / "bare"
    bare.mkdir()
    for name in ("game.toml", "units.toml", "map.toml", "setup.toml"):
        shutil.copy(ROOT / "maps" / "aa1941" / name, bare / name)
    code, out = pbem(capsys, "map", "--ruleset", bare, "--svg", tmp_path / "m.svg")
    assert code == 2 and "has no board picture yet" in out and "geometry.toml" in out


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def png_colours(data: bytes) -> int:
    """How many distinct byte values the decoded pixel rows hold (a blank image: a few)."""
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    return len(set(zlib.decompress(idat)))


def test_pbem_show_png(tmp_path, capsys):
    code, out = pbem(capsys, "show", "-g", PUBLISHED_GAME, "--png", tmp_path / "b.png")
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        assert code == 2 and "optional 'png' extra" in out
        return
    assert code == 0, out
    data = (tmp_path / "b.png").read_bytes()
    assert png_size(data)[0] == 2000 and png_colours(data) > 100


# --------------------------------------------------------------------------- screenshots

def test_render_boards_script_photographs_every_board(tmp_path):
    script = helpers.script("render_boards")
    if script.find_browser() is None:
        pytest.skip("no chromium here (CI installs it): apt-get install -y chromium")
    files = script.render(PUBLISHED_GAME, tmp_path)
    turns = len(layout.list_turns(PUBLISHED_GAME))
    others = [e for e in edition_names() if e != "aa1941"]
    pngs = [f for f in files if f.suffix == ".png"]
    assert len(pngs) == turns + 2 + len(others)         # the map, the start, every turn
    assert {f"00-map-{e}.png" for e in others} <= {f.name for f in pngs}   # other editions' maps
    for png in pngs:
        svg = png.with_suffix(".svg").read_text(encoding="utf-8")
        data = png.read_bytes()
        assert png_size(data) == script.svg_size(svg), png.name
        assert png_colours(data) > 100, f"{png.name} looks blank"


def test_a_room_finds_the_nearest_place_that_fits_and_none_when_too_small():
    """present/card_room.py on shapes worked out by hand: an L of two 100 x 40 arms
    and a 100 x 100 square with a label box cut out of its middle."""
    from adjudicator.present.card_room import Room
    ell = [((0, 0), (100, 0), (100, 40), (40, 40), (40, 100), (0, 100))]
    room = Room([ell])
    cost, x, y = room.nearest(30, 50, 60, 0)          # too tall for the arm: the upright
    assert x + 30 <= 40 and y + 50 <= 100 and cost > 0
    assert room.nearest(80, 10, 10, 10)[1:] == (10, 10)          # fits where wished
    assert room.nearest(50, 50, 0, 0) is None                    # fits nowhere
    square = [((0, 0), (100, 0), (100, 100), (0, 100))]
    cut = Room([square], [(20, 20, 80, 60)])
    _cost, x, y = cut.nearest(50, 20, 25, 30)                     # over the label: below it
    assert y >= 60 and y + 20 <= 100
    assert Room([square], [(20, 20, 80, 60)]).nearest(30, 30, 35, 35, limit=1.0) is None


def _nearest_by_hand(room, width, height, want_x, want_y, y_weight=1.5):
    """The cheapest place for the box, every row tried and the spans of every row it
    covers intersected pair by pair (no pruning, no shortcuts): what ``Room.nearest`` finds."""
    from adjudicator.present.card_room import STEP
    span = math.ceil(height / STEP)
    best = None
    for k in range(len(room.rows) - span):
        y = room.top + k * STEP
        free = room.rows[k]
        for row in room.rows[k + 1:k + span + 1]:
            free = [(max(a, c), min(b, d)) for a, b in free for c, d in row if max(a, c) <= min(b, d)]
        for a, b in free:
            if b - a >= width:
                cost = abs(min(max(want_x, a), b - width) - want_x) + y_weight * abs(y - want_y)
                best = cost if best is None else min(best, cost)
    return best


@settings(max_examples=150, deadline=None)
@given(shapes=st.lists(st.lists(st.tuples(st.integers(0, 120), st.integers(0, 120)), min_size=3, max_size=6),
                       min_size=1, max_size=3),
       clear=st.lists(st.tuples(st.integers(0, 100), st.integers(0, 100), st.integers(1, 30), st.integers(1, 30)),
                      max_size=4),
       size=st.tuples(st.integers(2, 40), st.integers(2, 40)),
       wish=st.tuples(st.integers(-10, 130), st.integers(-10, 130)))
def test_a_room_finds_the_cheapest_place_a_plain_search_finds(shapes, clear, size, wish):
    """``Room.nearest`` (which drops narrow spans early and meets windows of rows by blocks)
    costs the same as trying every row and intersecting every row the box covers, on random
    polygons (slanted edges: every row differs) with random label boxes cut out."""
    from adjudicator.present.card_room import Room
    shapes = [[tuple(ring)] for ring in shapes]
    room = Room(shapes, [(x, y, x + w, y + h) for x, y, w, h in clear])
    found = room.nearest(size[0], size[1], *wish)
    expected = _nearest_by_hand(room, size[0], size[1], *wish)
    if expected is None:
        assert found is None
    else:
        assert found is not None and math.isclose(found[0], expected, abs_tol=1e-9)
