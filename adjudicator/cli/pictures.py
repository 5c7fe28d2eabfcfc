"""Saving the board picture (``--svg``/``--png``), shared by ``pbem show`` and ``pbem map``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..model.errors import PbemError
from .markup import escape

if TYPE_CHECKING:
    from rich.console import Console

PNG_HINT = ("--png needs cairosvg, the optional 'png' extra: pip install 'cairosvg>=2.7' in pbem's "
            "environment (with pipx: pipx inject pbem-adjudicator 'cairosvg>=2.7'); it uses the "
            "system's cairo library, e.g. apt-get install libcairo2. Or save --svg and open it in "
            "a browser, or photograph it: chromium --headless --screenshot=board.png board.svg")


def picture_options(p) -> None:
    p.add_argument("--svg", metavar="FILE", help="save the board as an SVG picture")
    p.add_argument("--png", metavar="FILE", help="save the board as a PNG picture (optional extra 'png')")


def wants_picture(args) -> bool:
    return bool(args.svg or args.png)


def _target(path: str, suffix: str) -> Path:
    """Refuse anything but a .svg/.png name in an existing directory, so a slip of the
    keyboard never replaces a game file."""
    p = Path(path)
    if p.suffix.lower() != suffix:
        raise PbemError(f"{path}: the picture's file name must end in {suffix}")
    if not (p.parent if str(p.parent) else Path(".")).is_dir():
        raise PbemError(f"cannot write {p}: directory {p.parent} does not exist")
    if p.is_dir():
        raise PbemError(f"{p} is a directory")
    return p


def save_board(console: Console, args, game, state, events=(), title: str | None = None) -> None:
    """Draw the board and write ``args.svg`` and/or ``args.png`` (atomically)."""
    from ..io.storage import write_atomic
    from ..present.board_svg import BoardOptions, board_svg
    if game.geometry is None:
        raise PbemError(f"{game.ruleset.title or game.game_id} has no board picture yet: "
                        f"{Path(game.source_dir or 'maps') / 'geometry.toml'} is missing")
    svg_path, png_path = picture_targets(args)
    png = None
    svg = board_svg(game, state, events, BoardOptions(title=title))
    if png_path:
        png = to_png(svg)
    if svg_path:
        write_atomic(svg_path, svg.encode("utf-8"), overwrite=True)
        console.print(f"Board saved to {escape(str(svg_path))}")
    if png_path:
        write_atomic(png_path, png, overwrite=True)
        console.print(f"Board saved to {escape(str(png_path))}")


def picture_targets(args) -> tuple[Path | None, Path | None]:
    """The checked ``--svg`` and ``--png`` paths (None for one not asked for)."""
    return (_target(args.svg, ".svg") if args.svg else None,
            _target(args.png, ".png") if args.png else None)


def to_png(svg: str) -> bytes:
    try:
        import cairosvg
    except (ImportError, OSError):
        raise PbemError(PNG_HINT) from None
    try:
        return cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    except OSError as err:          # cairocffi cannot find the cairo library
        raise PbemError(f"cannot make a PNG: {err}. {PNG_HINT}") from None
