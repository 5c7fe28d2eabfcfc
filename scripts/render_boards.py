#!/usr/bin/env python3
"""Render a game's boards to SVG and PNG, so a person can look at them.

    python scripts/render_boards.py [--game DIR] [--out DIR] [--svg-only]

For the game directory (default: the bundled example, turns/aa1941-example/game) it writes
``00-map.svg`` (the empty board with names), ``00-start.svg`` (the position before the first
turn) and one ``NN-power.svg`` per published turn: the position after that turn with the
turn's moves, battles and captures drawn on top; and ``00-map-EDITION.svg``, the empty board
of every other registered edition that has a picture (Spring 1942: ``00-map-aa1942``).  Each
SVG is then photographed into a PNG
of the same size by a real headless browser (Debian's ``chromium``; set CHROMIUM to use
another binary).  Prints the files it wrote.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.editions import names as edition_names  # noqa: E402
from adjudicator.io import layout  # noqa: E402
from adjudicator.service.games import load_game  # noqa: E402
from adjudicator.io.turnfile import decode_turn_file  # noqa: E402
from adjudicator.present.board_svg import BoardOptions, board_svg  # noqa: E402
from adjudicator.service import gamedir  # noqa: E402

EXAMPLE = ROOT / "turns" / "aa1941-example" / "game"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
TIMEOUT = 120


def find_browser() -> str | None:
    """The headless browser to use: $CHROMIUM, else the first of BROWSERS on the PATH."""
    chosen = os.environ.get("CHROMIUM")
    if chosen:
        return chosen if shutil.which(chosen) else None
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


def boards(game_dir: Path):
    """(file stem, svg text) for the empty map, the start and every published turn."""
    info, _ = gamedir.read_game(game_dir)
    game = load_game(info.ruleset, options=info.options)
    yield "00-map", board_svg(game, None, options=BoardOptions(
        title=f"{game.ruleset.title}: the map"))
    yield "00-start", board_svg(game, info.initial_state)
    for number, power, path in layout.list_turns(game_dir):
        turn = decode_turn_file(path.read_bytes(), path)
        name = game.ruleset.powers[turn.power].name if turn.power in game.ruleset.powers else turn.power
        possessive = name + ("'" if name.endswith("s") else "'s")
        title = f"{game.ruleset.title}: round {turn.round}, after {possessive} turn (turn {turn.turn_number})"
        yield f"{number:02d}-{power}", board_svg(game, turn.state, turn.events, BoardOptions(title=title))
    for edition in edition_names():
        other = load_game(edition)
        if edition != info.ruleset and other.geometry is not None:
            yield f"00-map-{edition}", board_svg(other, None, options=BoardOptions(
                title=f"{other.ruleset.title}: the map"))


def svg_size(svg: str) -> tuple[int, int]:
    head = svg[:400]
    width = float(head.split('width="', 1)[1].split('"', 1)[0])
    height = float(head.split('height="', 1)[1].split('"', 1)[0])
    return round(width), round(height)


def photograph(browser: str, svg_path: Path, png_path: Path, size: tuple[int, int], profile: Path) -> None:
    """Screenshot ``svg_path`` at its own size with headless ``browser``."""
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu",
               "--disable-background-networking", "--no-first-run", "--hide-scrollbars",
               "--force-device-scale-factor=1", f"--user-data-dir={profile}",
               f"--window-size={size[0]},{size[1]}", f"--screenshot={png_path}",
               svg_path.resolve().as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)
    if done.returncode != 0 or not png_path.exists():
        raise RuntimeError(f"{browser} failed on {svg_path.name} (exit {done.returncode}): "
                           f"{done.stderr.strip()[-500:]}")


def render(game_dir: Path, out: Path, png: bool = True) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    browser = find_browser() if png else None
    if png and browser is None:
        raise RuntimeError("no headless browser found: apt-get install -y chromium (or set CHROMIUM)")
    written = []
    with tempfile.TemporaryDirectory(prefix="pbem-chromium-") as profile:
        for stem, svg in boards(game_dir):
            svg_path = out / f"{stem}.svg"
            svg_path.write_text(svg, encoding="utf-8")
            written.append(svg_path)
            if browser:
                png_path = out / f"{stem}.png"
                photograph(browser, svg_path, png_path, svg_size(svg), Path(profile))
                written.append(png_path)
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default=str(EXAMPLE), help="game directory (default: the example)")
    parser.add_argument("--out", help="output directory (default: a new temporary one)")
    parser.add_argument("--svg-only", action="store_true", help="write the SVGs, no PNGs")
    args = parser.parse_args(argv)
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="pbem-boards-"))
    try:
        files = render(Path(args.game), out, png=not args.svg_only)
    except RuntimeError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    for path in files:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
