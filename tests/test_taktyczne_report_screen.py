"""A Taktyczne Starcie turn report with board battles in a real headless chromium at a
phone's 390 px (scripts/screenshot_report.py's browser): the page does not scroll sideways,
each board battle's picture fits the page, and a tap shows it large enough to read its
pieces (their 9-unit labels at 11 px or more) in a box that pans."""

from __future__ import annotations

import json
import os
import shutil

import pytest

import helpers
from board_battle_helpers import fought_battle

needs_browser = pytest.mark.skipif(
    shutil.which("chromium") is None and shutil.which("chromium-browser") is None
    and not os.environ.get("CHROMIUM"), reason="needs a headless chromium")

PROBE = """
(() => {
  const figures = [...document.querySelectorAll("label.board-battle figure")];
  const px = f => Math.min(...[...f.querySelectorAll("g.piece text")]
      .map(t => t.getBoundingClientRect().height).filter(h => h > 0));
  return {
    viewport: window.innerWidth,
    scroll_width: document.documentElement.scrollWidth,
    areas: figures.map(f => f.dataset.area),
    widths: figures.map(f => Math.round(f.querySelector("svg").getBoundingClientRect().width)),
    box_widths: figures.map(f => Math.round(f.getBoundingClientRect().width)),
    piece_px: figures.map(px),
  };
})()
"""
TAP = 'document.querySelector("label.board-battle").click(); true'


@needs_browser
def test_board_battles_fit_a_phone_and_a_tap_makes_their_pieces_readable(tmp_path):
    from adjudicator.present.report import report_html
    from adjudicator.service.games import load_game
    screens = helpers.script("screenshot_report")
    game = load_game("taktyczne", {"players": 2})
    events = [fought_battle(1, area="34", attacker="red", defender="blue")[0],
              fought_battle(0, area="22", attacker="blue", defender="red")[0]]
    page = tmp_path / "report.html"
    page.write_text(report_html(events, game), encoding="utf-8")
    with screens.browser_session() as b:
        b.open(page.resolve().as_uri(), screens.PHONE, mobile=True)
        fit = b.evaluate(PROBE)
        b.screenshot(tmp_path / "phone.png")
        b.evaluate(TAP)
        zoomed = b.evaluate(PROBE)
        b.screenshot(tmp_path / "phone-zoomed.png")
    assert fit["areas"] == ["34", "22"], json.dumps(fit)
    assert fit["scroll_width"] <= fit["viewport"] == 390, json.dumps(fit)
    assert all(w <= fit["viewport"] for w in fit["widths"]), json.dumps(fit)
    assert zoomed["scroll_width"] <= zoomed["viewport"], json.dumps(zoomed)   # the box pans, not the page
    assert zoomed["widths"][0] > 3 * fit["widths"][0] and zoomed["box_widths"][0] <= 390, json.dumps(zoomed)
    assert zoomed["piece_px"][0] >= 11 > fit["piece_px"][0], json.dumps([fit, zoomed])
    assert zoomed["widths"][1] == fit["widths"][1]             # each battle zooms on its own
