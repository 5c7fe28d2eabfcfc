"""The board geometry (maps/aa1941/geometry.toml) and its reader/checker, io/geometry.py.

* the bundled file places every space of the map exactly once, labels inside the board and
  apart, and its shapes tell the truth: map neighbours touch (or are joined by a link),
  non-neighbours share no border;
* the checker reports every kind of bad entry with the file and the entry;
* geometry is optional and never part of a game's content hash.
"""

from __future__ import annotations

import copy
import math
import shutil
import tomllib
from collections import defaultdict
from pathlib import Path

import pytest

from adjudicator.io import geometry as geometry_io
from adjudicator.io.geometry import GEOMETRY_FILE, parse_geometry, read_geometry
from adjudicator.io.loader import DATA_FILES, content_hash, game_dir, load_game
from adjudicator.model.errors import DataError
from adjudicator.model.geometry import boxes_overlap, label_box

MAP_DIR = game_dir("aa1941")
TOUCH = 8.0         # board units of shared border that count as touching


@pytest.fixture(scope="module")
def game():
    return load_game("aa1941")


@pytest.fixture(scope="module")
def doc():
    return tomllib.loads((MAP_DIR / GEOMETRY_FILE).read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- the bundled file

def test_every_space_is_placed_exactly_once(game, doc):
    names = [entry["name"] for entry in doc["space"]]
    assert sorted(names) == sorted(game.map.territories)
    assert len(names) == len(set(names)) == 120
    assert set(game.geometry.spaces) == set(game.map.territories)


def test_labels_lie_on_the_board_and_apart(game):
    g = game.geometry
    boxes = {n: label_box(s.label, s.at, g.label_size) for n, s in g.spaces.items()}
    for name, (x0, y0, x1, y1) in boxes.items():
        assert 0 <= x0 and x1 <= g.width and 0 <= y0 and y1 <= g.height, name
    names = sorted(boxes)
    clashes = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]
               if boxes_overlap(boxes[a], boxes[b])]
    assert clashes == []


def shared_borders(geometry) -> dict[frozenset, float]:
    """Length of border each pair of spaces shares.  A shared border is one chain of points
    that both neighbours draw, in opposite directions; on a wrapping board one of them may
    draw it a board width over."""
    def key(x, y):
        return (round(x, 1), round(y, 1))

    drawn: dict[tuple, str] = {}
    for name, shape in geometry.spaces.items():
        for ring in shape.outline:
            for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
                for dx in (0.0, geometry.width, -geometry.width):
                    drawn[(key(x0 + dx, y0), key(x1 + dx, y1))] = name
    lengths: dict[frozenset, float] = defaultdict(float)
    for name, shape in geometry.spaces.items():
        for ring in shape.outline:
            for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
                other = drawn.get((key(x1, y1), key(x0, y0)))
                if other is not None and other != name:
                    lengths[frozenset((name, other))] += math.hypot(x1 - x0, y1 - y0) / 2
    return lengths


@pytest.fixture(scope="module")
def borders(game):
    return shared_borders(game.geometry)


def test_neighbours_touch_or_are_linked(game, borders):
    gmap, g = game.map, game.geometry
    linked = {frozenset((link.a, link.b)) for link in g.links}
    islands_ok = set()
    for t in gmap.territories.values():
        if t.island:                                   # drawn inside its only sea zone
            islands_ok |= {frozenset((t.key, n)) for n in gmap.neighbours(t.key)}
    missing = []
    for a in gmap.territories:
        for b in gmap.neighbours(a):
            pair = frozenset((a, b))
            if a < b and borders.get(pair, 0) < TOUCH and pair not in linked | islands_ok:
                if not (gmap[a].impassable or gmap[b].impassable):
                    missing.append((a, b))
    assert missing == []
    # the links are the canals and the straits, nothing else
    assert linked == {frozenset(("Sea Zone 12", "Sea Zone 19")), frozenset(("Sea Zone 17", "Sea Zone 28")),
                      frozenset(("Sea Zone 17", "Sea Zone 18"))}
    for canal in gmap.canals:
        assert frozenset(canal.zones) in linked


def test_non_neighbours_share_no_border(game, borders):
    false = [(sorted(p), round(n)) for p, n in borders.items()
             if n >= TOUCH and not game.map.adjacent(*p)]
    assert false == []


def test_islands_lie_inside_their_sea_zone(game):
    g = game.geometry

    def inside(x, y, rings):
        hit = False
        for ring in rings:
            for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
                if (y0 > y) != (y1 > y) and x < x0 + (x1 - x0) * (y - y0) / (y1 - y0):
                    hit = not hit
        return hit

    for t in game.map.land():
        if not t.island:
            continue
        zone = next(iter(game.map.neighbours(t.key)))
        ring = g.spaces[t.key].outline[0]
        cx = sum(x for x, _ in ring) / len(ring)
        cy = sum(y for _, y in ring) / len(ring)
        assert any(inside(cx + dx, cy, g.spaces[zone].outline) for dx in (0, g.width, -g.width)), t.key


def test_geometry_file_is_what_places_toml_gives():
    """geometry.toml is generated: it must match its source, places.toml."""
    pytest.importorskip("scipy", reason="scripts/make_geometry.py needs the 'geometry' extra")
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "make_geometry", Path(__file__).resolve().parents[1] / "scripts" / "make_geometry.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text, _ = module.build("aa1941")
    assert text == (MAP_DIR / GEOMETRY_FILE).read_text(encoding="utf-8"), (
        "maps/aa1941/geometry.toml is stale: run python scripts/make_geometry.py aa1941")


# --------------------------------------------------------------------------- the checker

def problems(doc, game) -> str:
    with pytest.raises(DataError) as err:
        parse_geometry(doc, game.map, "maps/x/geometry.toml")
    return str(err.value)


def test_a_missing_space_is_named(game, doc):
    bad = copy.deepcopy(doc)
    bad["space"] = [s for s in bad["space"] if s["name"] != "Karelia"]
    text = problems(bad, game)
    assert "geometry.toml: space 'Karelia': not placed" in text


def test_a_space_placed_twice(game, doc):
    bad = copy.deepcopy(doc)
    bad["space"].append(copy.deepcopy(bad["space"][0]))
    assert f"space '{bad['space'][0]['name']}': placed twice" in problems(bad, game)


def test_an_unknown_name(game, doc):
    bad = copy.deepcopy(doc)
    bad["space"][0]["name"] = "Karlia"
    text = problems(bad, game)
    assert "space 'Karlia': unknown space" in text
    assert f"space '{doc['space'][0]['name']}': not placed" in text


def test_overlapping_labels(game, doc):
    bad = copy.deepcopy(doc)
    by_name = {s["name"]: s for s in bad["space"]}
    by_name["Ukraine"]["at"] = list(by_name["West Russia"]["at"])
    text = problems(bad, game)
    assert "label overlaps the label of" in text and "Ukraine" in text and "West Russia" in text


def test_numbers_are_bounded(game, doc):
    for mutate, expected in [
        (lambda d: d.update(width=-5), "width -5 is outside"),
        (lambda d: d.update(height=float("nan")), "height must be a number"),
        (lambda d: d["space"][3].update(at=[1e9, 10]), "at x 1000000000.0 is outside"),
        (lambda d: d["space"][3].update(at=[10]), "'at' must be [x, y]"),
        (lambda d: d["space"][3].update(outline=["0,0 1,1 2,x"]), "'2,x' is not a point"),
        (lambda d: d["space"][3].update(outline=["0,0 1,1"]), "a ring needs at least 3"),
        (lambda d: d["space"][3].update(outline=["0,0 1,1 5,-400"]), "outside the board"),
        (lambda d: d["space"][3].update(outline=["0,0 1,1 nan,4"]), "outside the board"),
        (lambda d: d["space"][3].update(label="a|b|c|d"), "1 to 3 non-empty lines"),
        (lambda d: d["space"][3].update(colour="red"), "unknown field(s): colour"),
        (lambda d: d.update(wrap="both"), "must be 'none' or 'east-west'"),
    ]:
        bad = copy.deepcopy(doc)
        mutate(bad)
        assert expected in problems(bad, game), expected


def test_links_must_join_neighbours(game, doc):
    bad = copy.deepcopy(doc)
    bad["links"].append({"between": ["Karelia", "Japan"], "line": [0, 0, 1, 1]})
    bad["links"].append({"between": ["Karelia", "Nowhere"], "line": [0, 0, 1, 1]})
    bad["links"].append({"between": ["Karelia", "Archangel"], "line": [0, 0]})
    text = problems(bad, game)
    assert "'Karelia' and 'Japan' are not neighbours" in text
    assert "unknown space 'Nowhere'" in text
    assert "'line' must be [x0, y0, x1, y1]" in text


def test_every_problem_is_reported_at_once(game, doc):
    bad = copy.deepcopy(doc)
    bad["space"] = bad["space"][2:]
    bad["width"] = 0
    text = problems(bad, game)
    assert text.startswith("") and text.count("\n  - ") >= 3


# --------------------------------------------------------------------------- loading

def copy_map(tmp_path: Path, geometry: str | None) -> Path:
    target = tmp_path / "ed"
    target.mkdir()
    for name in DATA_FILES:
        shutil.copy(MAP_DIR / name, target / name)
    if geometry is not None:
        (target / GEOMETRY_FILE).write_text(geometry, encoding="utf-8")
    return target


def test_an_edition_without_geometry_has_no_picture(tmp_path):
    assert load_game(copy_map(tmp_path, None)).geometry is None


def test_a_broken_geometry_file_stops_loading(tmp_path):
    folder = copy_map(tmp_path, "width = [")
    with pytest.raises(DataError, match="geometry.toml: not valid TOML"):
        load_game(folder)


def test_geometry_file_size_is_bounded(tmp_path, monkeypatch, game):
    folder = copy_map(tmp_path, (MAP_DIR / GEOMETRY_FILE).read_text(encoding="utf-8"))
    monkeypatch.setattr(geometry_io, "MAX_BYTES", 1000)
    with pytest.raises(DataError, match="at most 1000"):
        read_geometry(folder, game.map)


def test_a_changed_file_is_read_again(tmp_path, game, doc):
    text = (MAP_DIR / GEOMETRY_FILE).read_text(encoding="utf-8")
    folder = copy_map(tmp_path, text)
    first = read_geometry(folder, game.map)
    assert read_geometry(folder, game.map) is first               # unchanged: not parsed again
    (folder / GEOMETRY_FILE).write_text(text.replace("label_size = 11", "label_size = 10"), encoding="utf-8")
    again = read_geometry(folder, game.map)
    assert again.label_size == 10 and first.label_size == 11


def test_geometry_is_not_part_of_the_content_hash(tmp_path):
    without = copy_map(tmp_path, None)
    assert content_hash(without) == content_hash(MAP_DIR)
    (without / GEOMETRY_FILE).write_text("anything", encoding="utf-8")
    (without / "places.toml").write_text("anything", encoding="utf-8")
    assert content_hash(without) == content_hash(MAP_DIR)
