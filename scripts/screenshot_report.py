#!/usr/bin/env python3
"""Photograph HTML turn reports in a real headless browser, as a phone and a desktop show
them, and measure the phone layout.

    python scripts/screenshot_report.py [--game DIR] [--turn N] [--out DIR]

For the game directory (default: the bundled example, turns/aa1941-example/game) it writes
the HTML report of turn N (default: the last) as ``report.html``, and photographs it with
Debian's ``chromium`` (or $CHROMIUM): ``phone.png`` (390 x 844, the first screen of an
iPhone-sized phone), ``phone-full.png`` (390 px wide, the whole page) and ``desktop.png``
(1280 x 900).  It then loads the page at 390 px with a small probe script added and prints
what it measured (JSON): the page's scroll width (it must not scroll sideways), the
title, the "next to move" line, the font sizes and the widths of the board and of the
report box.  tests/test_cli_ux.py runs it; a person looks at the PNGs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from render_boards import EXAMPLE, TIMEOUT, find_browser  # noqa: E402

PHONE, DESKTOP = (390, 844), (1280, 900)

# Run in the page once it has loaded: what a phone shows.
PROBE = """
(() => {
  const px = el => el ? parseFloat(getComputedStyle(el).fontSize) : null;
  const box = el => el ? Math.round(el.getBoundingClientRect().width) : null;
  // the report the page shows at this width (a phone's layout or a desktop's)
  const report = [...document.querySelectorAll(".report")].find(r => r.offsetWidth > 0);
  return {
    viewport: window.innerWidth,
    scroll_width: document.documentElement.scrollWidth,
    page_height: document.documentElement.scrollHeight,
    title: document.title,
    h1: (document.querySelector("h1") || {}).textContent || null,
    next: (document.querySelector(".next") || {}).textContent || null,
    h1_px: px(document.querySelector("h1")),
    text_px: px(document.querySelector(".next")),
    report_px: px(report && report.querySelector("pre")),
    board_width: box(document.querySelector("figure svg")),
    report_width: box(report),
    report_scrolls: report ? getComputedStyle(report).overflowX : null,
  };
})()
"""


# Run in the page at a given width: what the board shows, before and after the zoom tap.
# Sizes are rendered CSS pixels; places are checked in the SVG's own coordinates with the
# browser's geometry (isPointInFill / isPointInStroke), so they hold for what is drawn.
BOARD_PROBE = """
(() => {
  const svg = document.querySelector("figure svg");
  const pt = (x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y; return p; };
  const shapes = {};
  svg.querySelectorAll("path.space").forEach(p => shapes[p.dataset.space] = p);
  const smallest = sel => {
    const hs = [...svg.querySelectorAll(sel)].map(t => t.getBoundingClientRect().height)
                                             .filter(h => h > 0);
    return hs.length ? Math.min(...hs) : null;
  };
  const visibleReports = [...document.querySelectorAll(".report")].filter(r => r.offsetWidth > 0);
  const colours = {};
  visibleReports.forEach(r => r.querySelectorAll("span").forEach(s => {
    const bg = getComputedStyle(s).backgroundColor;
    if (bg && bg !== "rgba(0, 0, 0, 0)") (colours[s.textContent] ||= []).push(bg);
  }));
  const offShape = [], outside = [], covered = [], callouts = {};
  svg.querySelectorAll("g.place").forEach(g => {
    const shape = shapes[g.dataset.space];
    const text = g.querySelector("text:not(.pb-halo)");
    if (shape && text) {
      const b = text.getBBox();
      if (!shape.isPointInFill(pt(b.x + b.width / 2, b.y + b.height / 2))) offShape.push(g.dataset.space);
    }
  });
  svg.querySelectorAll("g.units").forEach(g => {      // an island's card may sit in its zone
    const within = (g.dataset.within || g.dataset.space).split("|").flatMap(
      n => n === "sea" ? [...svg.querySelectorAll("path.space.sea")] : [shapes[n]]);
    const b = g.querySelector("rect").getBBox();
    const corners = [[b.x + 1, b.y + 1], [b.x + b.width - 1, b.y + 1],
                     [b.x + 1, b.y + b.height - 1], [b.x + b.width - 1, b.y + b.height - 1]];
    if (!corners.every(([x, y]) => within.some(s => s.isPointInFill(pt(x, y)))))
      outside.push(g.dataset.space);
    const leader = g.querySelector("line.leader");   // a callout's line ends in its space
    if (leader) callouts[g.dataset.space] = shapes[g.dataset.space].isPointInFill(
      pt(leader.x2.baseVal.value, leader.y2.baseVal.value));
  });
  const arrows = [...svg.querySelectorAll("g.moves path")];
  svg.querySelectorAll("g.place text:not(.pb-halo)").forEach(t => {
    const b = t.getBBox();
    const spots = [];
    for (let i = 1; i < 4; i++) for (let j = 1; j < 3; j++)
      spots.push(pt(b.x + b.width * i / 4, b.y + b.height * j / 3));
    // covered: an arrow's stroke crosses the label and is painted after it (on top)
    const above = a => t.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING;
    if (arrows.some(a => above(a) && spots.some(s => a.isPointInStroke(s))))
      covered.push(t.closest("g.place").dataset.space);
  });
  return {
    scroll_width: document.documentElement.scrollWidth,
    reports_fit: visibleReports.map(r => r.scrollWidth <= r.clientWidth),
    board_width: Math.round(svg.getBoundingClientRect().width),
    count_px: smallest(".pb-count"), label_px: smallest("g.place text.pb-lbl:not(.pb-halo)"),
    legend_px: smallest("text.pb-legend"),
    power_colours: colours, labels_off_their_shape: offShape,
    unit_boxes_outside: outside, callouts: callouts, labels_under_arrows: [...new Set(covered)],
  };
})()
"""
ZOOM_TAP = 'document.querySelector("label.board").click(); true'


def write_report(game_dir: Path, out: Path, turn: int | None = None) -> Path:
    from adjudicator.io import layout
    from adjudicator.present.report import report_html
    from adjudicator.service import gamedir
    from adjudicator.service.games import load_game
    gf, _ = gamedir.read_game(game_dir)
    game = load_game(gf.ruleset, options=gf.options)
    turns = layout.list_turns(game_dir)
    index = len(turns) - 1 if turn is None else [n for n, _, _ in turns].index(turn)
    tf = gamedir.read_turn(game_dir, turns[index][2], gf)
    before = gamedir.read_turn(game_dir, turns[index - 1][2], gf).state if index else gf.initial_state
    path = out / "report.html"
    path.write_text(report_html(tf.events, game, before, tf.state), encoding="utf-8")
    return path


class Browser:
    """Headless chromium driven through the DevTools protocol on a pipe (file descriptors
    3 and 4, messages ending in NUL): the device metrics of a phone can be set exactly,
    which a window size cannot (headless windows are at least 500 px wide)."""

    def __init__(self, browser: str, profile: Path):
        import os
        self._to_browser_r, self._to_browser_w = os.pipe()
        self._from_browser_r, self._from_browser_w = os.pipe()
        # the browser reads commands on fd 3 and writes replies on fd 4 (a shell moves
        # our pipe ends there, bash since dash knows no fd above 9: Debian's chromium is
        # itself a wrapper script)
        import fcntl                       # above 4, so the shell's moves cannot clash
        r = fcntl.fcntl(self._to_browser_r, fcntl.F_DUPFD, 10)
        w = fcntl.fcntl(self._from_browser_w, fcntl.F_DUPFD, 10)
        command = [shutil.which("bash") or "/bin/bash", "-c", f'exec "$0" "$@" 3<&{r} 4>&{w} {r}<&- {w}>&-', browser,
                   "--headless", "--no-sandbox", "--disable-gpu",
                   "--disable-background-networking", "--no-first-run", "--hide-scrollbars",
                   f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        pass_fds=(r, w))
        for fd in (r, w, self._to_browser_r, self._from_browser_w):
            os.close(fd)
        self._out = os.fdopen(self._to_browser_w, "wb", buffering=0)
        self._in = os.fdopen(self._from_browser_r, "rb", buffering=0)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []
        target = next(t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=target["targetId"],
                                 flatten=True)["sessionId"]

    def _message(self) -> dict:
        import select
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._in], [], [], TIMEOUT)
            if not ready:
                raise RuntimeError("the browser did not answer in time")
            chunk = self._in.read(1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed the pipe: "
                                   + self.process.stderr.read().decode(errors="replace")[-500:])
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method: str, session: str | None = None, **params) -> dict:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self._out.write(json.dumps(message).encode() + b"\0")
        while True:
            reply = self._message()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def page(self, method: str, **params) -> dict:
        return self.call(method, self.session, **params)

    def open(self, url: str, size: tuple[int, int], mobile: bool) -> None:
        self.page("Page.enable")
        self.page("Emulation.setDeviceMetricsOverride", width=size[0], height=size[1],
                  deviceScaleFactor=1, mobile=mobile)
        self.events.clear()
        self.page("Page.navigate", url=url)
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self.events.append(self._message())

    def evaluate(self, expression: str):
        return self.page("Runtime.evaluate", expression=expression,
                         returnByValue=True)["result"]["value"]

    def screenshot(self, png: Path, size: tuple[int, int] | None = None, mobile: bool = True) -> None:
        import base64
        if size is not None:
            self.page("Emulation.setDeviceMetricsOverride", width=size[0], height=size[1],
                      deviceScaleFactor=1, mobile=mobile)
        png.write_bytes(base64.b64decode(self.page("Page.captureScreenshot", format="png")["data"]))

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except RuntimeError:
            pass
        self._out.close()
        self._in.close()
        self.process.wait(timeout=TIMEOUT)


@contextlib.contextmanager
def browser_session():
    """A headless chromium with a fresh profile, closed afterwards."""
    browser = find_browser()
    if browser is None:
        raise RuntimeError("no headless browser found: apt-get install -y chromium (or set CHROMIUM)")
    with tempfile.TemporaryDirectory(prefix="pbem-chromium-") as profile:
        b = Browser(browser, Path(profile))
        try:
            yield b
        finally:
            b.close()


def photograph(page: Path, out: Path) -> dict:
    """Screenshots of ``page`` into ``out`` (phone, whole page on a phone, desktop) and
    what the probe measured on the phone."""
    with browser_session() as b:
        b.open(page.resolve().as_uri(), PHONE, mobile=True)
        found = b.evaluate(PROBE)
        b.screenshot(out / "phone.png")
        b.screenshot(out / "phone-full.png", (PHONE[0], found["page_height"]))
        b.open(page.resolve().as_uri(), DESKTOP, mobile=False)
        b.screenshot(out / "desktop.png")
    return found


def measure_board(page: Path, size: tuple[int, int], mobile: bool) -> dict:
    """BOARD_PROBE on ``page`` at ``size``: {"fit": before the zoom tap, "zoomed": after}."""
    with browser_session() as b:
        b.open(page.resolve().as_uri(), size, mobile=mobile)
        fit = b.evaluate(BOARD_PROBE)
        b.evaluate(ZOOM_TAP)
        zoomed = b.evaluate(BOARD_PROBE)
    return {"fit": fit, "zoomed": zoomed}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", type=Path, default=EXAMPLE)
    parser.add_argument("--turn", type=int)
    parser.add_argument("--out", type=Path, default=Path("report-screenshots"))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    page = write_report(args.game, args.out, args.turn)
    found = photograph(page, args.out)
    found["board"] = {"phone": measure_board(page, PHONE, True),
                      "desktop": measure_board(page, DESKTOP, False)}
    print(json.dumps(found, indent=2))
    for name in ("report.html", "phone.png", "phone-full.png", "desktop.png"):
        print(args.out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
