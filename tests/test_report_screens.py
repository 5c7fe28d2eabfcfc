"""The board in the HTML report, photographed where players look at it: a 1280 px desktop
and a 390 px phone, in a real headless chromium (scripts/screenshot_report.py measures the
page with the browser's own geometry).  Every edition's example game's last report is
checked for: legible unit counts, labels and legend (at once on a desktop's legend, after the zoom tap
everywhere), no sideways scrolling and report tables that fit a phone, power names in the
board's power colours, every label on or beside its own shape, unit cards inside their
space, no arrow painted over a label.  The PNGs are written to the test's folder for people."""

from __future__ import annotations

import math
import os
import re
import shutil
from pathlib import Path

import attrs
import pytest

import helpers

from adjudicator.model.geometry import inside_rings, label_box
from adjudicator.present.board_svg import KNOWN_COLOURS, SYMBOLS
from adjudicator.service.games import load_game

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = {"aa1941": ROOT / "turns" / "aa1941-example" / "game",
            "aa1942": ROOT / "turns" / "aa1942-example" / "game",
            "europe1999": ROOT / "turns" / "europe1999-example" / "game",
            "global1940": ROOT / "turns" / "global1940-example" / "game"}
LEGIBLE_PX = 11          # rendered text height (CSS px) that reads on a desktop and a phone
# Every unit card is inside its space, except in spaces too small for their card at its
# smallest wherever it is tried (with their label moved too): their card is a callout in
# the water beside them, with a line into the space.  Any other callout fails.
CALLOUTS = {"aa1941": {"United Kingdom"}, "aa1942": {"Gibraltar"},
            "europe1999": {"Netherlands-Belgium"},
            "global1940": {"Albania", "United Kingdom"}}

needs_browser = pytest.mark.skipif(
    shutil.which("chromium") is None and shutil.which("chromium-browser") is None
    and not os.environ.get("CHROMIUM"), reason="needs a headless chromium")


def _screens():
    return helpers.script("screenshot_report")


@pytest.fixture(scope="module", params=sorted(EXAMPLES))
def measured(request, tmp_path_factory):
    """(edition, {"phone"|"desktop": {"fit", "zoomed"}}) of the example's last report."""
    screens = _screens()
    out = tmp_path_factory.mktemp(f"screens-{request.param}")
    page = screens.write_report(EXAMPLES[request.param], out)
    screens.photograph(page, out)                                  # phone.png, desktop.png
    return request.param, {"phone": screens.measure_board(page, screens.PHONE, True),
                           "desktop": screens.measure_board(page, screens.DESKTOP, False)}


@needs_browser
@pytest.mark.parametrize("device, width", [("phone", 390), ("desktop", 1280)])
def test_the_page_fits_its_width_and_its_tables_too(measured, device, width):
    _edition, found = measured
    for view in found[device].values():
        assert view["scroll_width"] <= width                       # never scrolls sideways
        assert view["reports_fit"] and all(view["reports_fit"])    # dice, income tables fit


@needs_browser
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_tap_zooms_the_board_until_counts_labels_and_legend_read(measured, device):
    edition, found = measured
    fit, zoomed = found[device]["fit"], found[device]["zoomed"]
    board = load_game(edition).geometry.width
    assert fit["board_width"] <= (374 if device == "phone" else 1256)
    assert zoomed["board_width"] >= 1.5 * board - 1
    for size in ("count_px", "label_px", "legend_px"):
        assert zoomed[size] >= LEGIBLE_PX, (size, zoomed[size])
    if device == "desktop":                      # the legend reads without zooming
        assert fit["legend_px"] >= LEGIBLE_PX, fit["legend_px"]


@needs_browser
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_power_names_in_the_report_have_the_board_colours(measured, device):
    edition, found = measured
    game = load_game(edition)
    colours = found[device]["fit"]["power_colours"]
    seen = 0
    for key, power in game.ruleset.powers.items():
        strong = KNOWN_COLOURS[key][0]
        rgb = "rgb({}, {}, {})".format(*(int(strong[i:i + 2], 16) for i in (1, 3, 5)))
        for text, backgrounds in colours.items():
            if text.strip() == power.name:
                assert set(backgrounds) == {rgb}, (power.name, backgrounds)
                seen += 1
    assert seen >= 2                             # the powers the turn names


@needs_browser
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_labels_cards_and_arrows_are_where_they_belong(measured, device):
    edition, found = measured
    game = load_game(edition)
    for view in found[device].values():
        # a label not on its own shape is an island's, beside its island (checked below)
        assert all(game.map[n].island for n in view["labels_off_their_shape"]), view
        assert view["unit_boxes_outside"] == [], view                # inside (a callout: in the sea)
        assert set(view["callouts"]) == CALLOUTS[edition], view
        assert all(view["callouts"].values()), view                  # its line ends in its space
        assert view["labels_under_arrows"] == []                  # labels are drawn on top


# --------------------------------------------------------------------------- no browser needed

def _distance(point, rings) -> float:
    if inside_rings(point, rings):
        return 0.0
    best = math.inf
    px, py = point
    for ring in rings:
        for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]):
            dx, dy = bx - ax, by - ay
            t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy)
                                                        / (dx * dx + dy * dy)))
            best = min(best, math.hypot(px - ax - t * dx, py - ay - t * dy))
    return best


@pytest.mark.parametrize("edition", sorted(EXAMPLES))
def test_every_label_is_on_its_shape_or_beside_its_own_island(edition):
    game = load_game(edition)
    geometry = game.geometry
    land = {n: s for n, s in geometry.spaces.items() if game.map[n].is_land}
    for name, shape in geometry.spaces.items():
        if inside_rings(shape.at, shape.outline):
            continue
        assert game.map[name].island, f"{name}: its label is not on its shape"
        x0, y0, x1, y1 = label_box(shape.label, shape.at, geometry.label_size)
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        own = _distance(centre, shape.outline)
        nearest = min((_distance(centre, s.outline), n) for n, s in land.items() if n != name)
        assert own <= 60 and own < nearest[0], (name, own, nearest)     # next to its island
        corners = [(x0 + 2, y0 + 2), (x1 - 2, y0 + 2), (x0 + 2, y1 - 2), (x1 - 2, y1 - 2), centre]
        for other, s in land.items():                                 # and on no other land
            assert other == name or not any(inside_rings(p, s.outline) for p in corners), (name, other)


def _extent(markup: str) -> tuple[float, float, float, float]:
    """The box of every coordinate a symbol's shapes name (x y pairs of paths and polygons,
    rectangles' corners)."""
    xs, ys = [], []
    for d in re.findall(r' d="([^"]+)"', markup):
        x = y = 0.0
        for cmd, args in re.findall(r"([MLHVQZ])([^MLHVQZ]*)", d):
            nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", args)]
            if cmd == "H":
                x = nums[-1]
            elif cmd == "V":
                y = nums[-1]
            elif nums:
                x, y = nums[-2], nums[-1]
            xs.append(x)
            ys.append(y)
    for rx, ry, w, h in re.findall(r'<rect x="([^"]+)" y="([^"]+)" width="([^"]+)" height="([^"]+)"', markup):
        xs += [float(rx), float(rx) + float(w)]
        ys += [float(ry), float(ry) + float(h)]
    return (min(xs), min(ys), max(xs), max(ys))


def test_ship_symbols_differ_in_outline():
    ships = ("submarine", "transport", "destroyer", "cruiser", "carrier", "battleship")
    boxes = {s: tuple(round(v, 1) for v in _extent(SYMBOLS[s])) for s in ships}
    assert len(set(boxes.values())) == len(ships), boxes          # each its own silhouette
    width = {s: b[2] - b[0] for s, b in boxes.items()}
    height = {s: b[3] - b[1] for s, b in boxes.items()}
    assert width["destroyer"] < min(width[s] for s in ships if s != "destroyer")   # the small one
    assert height["battleship"] == max(height.values())                         # the tall one


@pytest.mark.parametrize("edition", sorted(EXAMPLES))
def test_the_phone_layout_cuts_no_word_in_any_table(edition):
    """Every turn of the example, laid out for a phone: no cell cut short ("…"), every
    dice table keeps its Hits column."""
    import io

    from rich.console import Console

    from adjudicator.io import layout
    from adjudicator.present.report import PHONE_REPORT_WIDTH, render_report
    from adjudicator.service import gamedir
    directory = EXAMPLES[edition]
    gf, _ = gamedir.read_game(directory)
    game = load_game(gf.ruleset, options=gf.options)
    state = gf.initial_state
    for _n, _power, path in layout.list_turns(directory):
        tf = gamedir.read_turn(directory, path, gf)
        console = Console(width=PHONE_REPORT_WIDTH, file=io.StringIO(), color_system=None)
        render_report(tf.events, game, console, state, tf.state)
        text = console.file.getvalue()
        assert "…" not in text, [line for line in text.splitlines() if "…" in line]
        assert text.count(" Dice ") == text.count(" Hits ") and all(
            len(line) <= PHONE_REPORT_WIDTH for line in text.splitlines())
        state = tf.state


# --------------------------------------------------------------------------- Global 1940

# spaces too small for their start cards: a callout in the water beside them
GLOBAL_CALLOUTS = {"Albania", "United Kingdom"}


@needs_browser
def test_the_global_board_fits_a_phone_and_zooms_until_it_reads(tmp_path):
    """Global 1940's board (both boards joined, 4400 units wide) in a report at a phone's
    390 px: the whole board fits the page; a tap shows it at 1.5 times its size, where unit
    counts, labels, the legend and its war-state rows read, with bases and their damage."""
    from adjudicator.io.loader import initial_state
    from adjudicator.model.state import Unit
    from adjudicator.present.report import report_html
    screens = _screens()
    game = load_game("global1940")
    start = initial_state(game, "g")
    here = "Western Germany"
    units = [u for u in start.units_at(here) if u.type != "air_base"] + [Unit("air_base", "germany", damage=4)]
    state = attrs.evolve(start, units={**start.units, here: tuple(units)})
    page = tmp_path / "report.html"
    page.write_text(report_html([], game, start, state), encoding="utf-8")
    found = screens.measure_board(page, screens.PHONE, True)
    fit, zoomed = found["fit"], found["zoomed"]
    assert fit["scroll_width"] <= 390 and fit["board_width"] <= 374
    assert zoomed["board_width"] >= 1.5 * game.geometry.width - 1
    for size in ("count_px", "label_px", "legend_px"):
        assert zoomed[size] >= LEGIBLE_PX, (size, zoomed[size])
    for view in (fit, zoomed):
        assert view["unit_boxes_outside"] == [], view["unit_boxes_outside"]   # cards in their space
        assert set(view["callouts"]) == GLOBAL_CALLOUTS and all(view["callouts"].values())
        assert all(game.map[n].island for n in view["labels_off_their_shape"])
