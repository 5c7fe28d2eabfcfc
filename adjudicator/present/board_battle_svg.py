"""A Taktyczne Starcie board battle as a picture (SVG), beside ``board_battle.board_text``.

``board_position_svg`` draws one position; ``board_replay_svg`` replays a finished battle
from its events alone: a frame for the deployment, then one frame per battle turn showing
the position after it, with that battle turn's moves (arrows along the squares entered, in
the side's colour) and shots (a line from shooter to target: solid red for a hit, dashed
grey for misses; counter-fire marked), the units it destroyed crossed out where they fell,
and every mine that went off.  Mines still hidden stay hidden: only their count is shown.

The board is drawn from the defender's edge (top) to the attacker's (bottom), as the text
picture; each side's deployment rows 1-3 are shaded in its colour, the mine rows 4-10 in a
lighter shade.  Colours are Okabe-Ito and never the only cue: the attacker's units are
squares labelled in capitals ("T3"), the defender's circles in small letters ("t3"); a tank's
or warship's rank is also drawn as that many pips.  Pure and deterministic: the same
events give the same bytes.  Machine-readable: each unit on the board is one element of
class ``piece`` with ``data-piece``, ``data-side``, ``data-kind`` and ``data-square``; each
frame a ``g`` of class ``frame`` with ``data-turn``."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from html import escape

import attrs

from ..model.tactical import (
    ATTACKER,
    DEFENDER,
    SIDES,
    BattleTurnStarted,
    BoardBattleEnded,
    BoardEvent,
    BoardRules,
    GunsLost,
    MineExploded,
    MinesLaid,
    MinesRevealed,
    Piece,
    PieceDeployed,
    PieceMoved,
    ShotFired,
    Square,
    square_name,
)
from .wording import BOARD_END_REASONS

CELL = 22
LEFT, TOP, BOTTOM, GAP = 34.0, 44.0, 58.0, 18.0
RESULT_CHARS = 46                  # a line of the result under a frame (10 px bold in 300)
HEADER = 40.0
PER_ROW = 4                        # frames side by side
MAX_EVENTS = 50_000                # far above a capped battle's events
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
INK, GRID, HIT, MISS = "#1E1E1E", "#9A9A9A", "#B00020", "#7A7A7A"
# (strong, deployment-row shade, mine-row shade) per side: Okabe-Ito vermillion and blue.
COLOURS = {ATTACKER: ("#D55E00", "#F6CDB4", "#FBEBE1"),
           DEFENDER: ("#0072B2", "#B9D7EA", "#E4F0F7")}


@attrs.frozen
class _Shots:
    side: str
    shooter: str
    target: str
    start: Square
    end: Square
    back: bool
    rolls: tuple[int, ...]
    hit: bool


@attrs.frozen
class _Frame:
    turn: int
    label: str
    pieces: tuple[Piece, ...]
    lost: tuple[Piece, ...] = ()
    moves: tuple[tuple[str, str, tuple[Square, ...]], ...] = ()
    shots: tuple[_Shots, ...] = ()
    mines: tuple[tuple[Square, str], ...] = ()      # revealed: (square, owner)
    hidden: tuple[tuple[str, int], ...] = ()        # per side, mines not yet gone off
    shown_mines: tuple[Square, ...] = ()            # a position's mines, when shown
    result: str = ""
    unfired: tuple[tuple[Square, str], ...] = ()    # revealed at the battle's end, never gone off


def board_position_svg(rules: BoardRules, pieces: Iterable[Piece], mines: Iterable[Square] = (),
                       title: str = "") -> str:
    """One position: ``pieces`` and, when given, mines (an owner's own view)."""
    frame = _Frame(0, title or "board battle", tuple(sorted(pieces, key=lambda p: p.id)),
                   shown_mines=tuple(sorted(set(mines))))
    return _document(rules, [frame], title or "board battle")


def board_replay_svg(rules: BoardRules, events: Sequence[BoardEvent], title: str = "") -> str:
    """A battle replayed from its events: the deployment, then one frame per battle turn."""
    if len(events) > MAX_EVENTS:
        raise ValueError(f"a board battle to draw has at most {MAX_EVENTS} events, not {len(events)}")
    return _document(rules, replay_frames(rules, events), title or "board battle replay")


def replay_frames(rules: BoardRules, events: Iterable[BoardEvent]) -> list[_Frame]:
    """The frames of a replay, built from the events alone.  A mine shows where it went
    off, and the ones that did not once the battle has ended (``MinesRevealed``)."""
    frames: list[_Frame] = []
    on_board: dict[str, Piece] = {}
    laid = {side: 0 for side in SIDES}
    gone = {side: 0 for side in SIDES}
    revealed: list[tuple[Square, str]] = []
    unfired: list[tuple[Square, str]] = []
    turn, label = 0, "deployment"
    lost: list[Piece] = []
    moves: list[tuple[str, str, tuple[Square, ...]]] = []
    shots: list[_Shots] = []
    result = ""

    def close() -> None:
        frames.append(_Frame(turn, label, tuple(sorted(on_board.values(), key=lambda p: p.id)),
                             tuple(lost), tuple(moves), tuple(shots), tuple(revealed),
                             tuple((s, laid[s] - gone[s]) for s in SIDES if not unfired), (), result,
                             tuple(unfired)))

    squares = {square_name(rules, (c, y)): (c, y) for c in range(rules.columns) for y in range(rules.rows)}

    def square(name: str) -> Square:
        return squares[name]

    for event in events:
        if isinstance(event, BattleTurnStarted):
            close()
            turn, label = event.turn, f"battle turn {event.turn}: the {event.side}"
            lost, moves, shots = [], [], []
        elif isinstance(event, PieceDeployed):
            on_board[event.piece] = Piece(event.piece, event.side, event.piece_kind, square(event.square))
        elif isinstance(event, MinesLaid):
            laid[event.side] += event.count
        elif isinstance(event, PieceMoved) and event.piece in on_board:
            piece = on_board[event.piece]
            path = (piece.square, *(square(name) for name in event.path))
            moves.append((event.side, event.piece, path))
            on_board[event.piece] = attrs.evolve(piece, square=path[-1])
        elif isinstance(event, ShotFired) and event.piece in on_board and event.at in on_board:
            _add_shot(shots, event, on_board[event.piece].square, on_board[event.at].square)
            if event.hit:
                lost.append(on_board.pop(event.at))
        elif isinstance(event, MineExploded):
            revealed.append((square(event.square), event.side))
            gone[event.side] += 1
            if event.piece in on_board:
                lost.append(on_board.pop(event.piece))
        elif isinstance(event, MinesRevealed):
            unfired.extend((square(name), event.side) for name in event.squares if name in squares)
        elif isinstance(event, GunsLost):
            lost.extend(on_board.pop(pid) for pid in event.pieces if pid in on_board)
        elif isinstance(event, BoardBattleEnded):
            reason = BOARD_END_REASONS.get(event.reason, event.reason)
            result = f"the {event.winner} wins: {reason}"
    close()
    return frames


def _add_shot(shots: list[_Shots], event: ShotFired, start: Square, end: Square) -> None:
    """Shots of one duel's side are one line: merged with the previous ones in a row."""
    if shots:
        last = shots[-1]
        if (last.shooter, last.target, last.back) == (event.piece, event.at, event.back):
            shots[-1] = attrs.evolve(last, rolls=(*last.rolls, event.roll), hit=last.hit or event.hit)
            return
    shots.append(_Shots(event.side, event.piece, event.at, start, end, event.back, (event.roll,), event.hit))


# ------------------------------------------------------------------------------ drawing

def _document(rules: BoardRules, frames: list[_Frame], title: str) -> str:
    fw = LEFT + rules.columns * CELL + GAP
    fh = TOP + rules.rows * CELL + BOTTOM
    across = min(PER_ROW, len(frames))
    width = GAP + across * fw
    height = HEADER + -(-len(frames) // PER_ROW) * fh
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
           f'width="{width:g}" height="{height:g}" font-family="{FONT}" role="img" '
           f'aria-label="{escape(title)}">',
           f"<title>{escape(title)}</title>", _defs(),
           f'<rect width="{width:g}" height="{height:g}" fill="#FFFFFF"/>',
           f'<text x="{GAP:g}" y="20" font-size="15" font-weight="bold" fill="{INK}">{escape(title)}</text>',
           f'<text x="{GAP:g}" y="34" font-size="10" fill="{INK}">attacker: squares, capitals, bottom; '
           f'defender: circles, small letters, top; shaded: rows 1-3 (deployment) and 4-10 (mines); '
           f'pips: rank; red line: a hit, dashed: misses; crossed out: destroyed; M: a mine gone off; '
           f'ringed dot: a mine revealed at the end</text>']
    for i, frame in enumerate(frames):
        x = GAP + (i % PER_ROW) * fw
        y = HEADER + (i // PER_ROW) * fh
        out.append(_frame(rules, frame, x, y))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _defs() -> str:
    marks = []
    for name, colour in (("a", COLOURS[ATTACKER][0]), ("d", COLOURS[DEFENDER][0]), ("hit", HIT),
                         ("miss", MISS)):
        marks.append(f'<marker id="tip-{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
                     f'markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
                     f'fill="{colour}"/></marker>')
    return "<defs>" + "".join(marks) + "</defs>"


def _centre(rules: BoardRules, square: Square) -> tuple[float, float]:
    col, y = square
    return LEFT + (col + 0.5) * CELL, TOP + (rules.rows - 1 - y + 0.5) * CELL


def _frame(rules: BoardRules, frame: _Frame, x: float, y: float) -> str:
    out = [f'<g class="frame" data-turn="{frame.turn}" transform="translate({x:g},{y:g})">',
           f'<text x="{LEFT:g}" y="14" font-size="12" font-weight="bold" fill="{INK}">'
           f'{escape(frame.label)}</text>']
    out.extend(_grid(rules))
    for sq in frame.shown_mines:
        cx, cy = _centre(rules, sq)
        out.append(f'<g class="mine" data-square="{square_name(rules, sq)}"><circle cx="{cx:g}" cy="{cy:g}" '
                   f'r="{CELL * 0.22:g}" fill="{INK}"/></g>')
    for sq, owner in frame.mines:
        cx, cy = _centre(rules, sq)
        out.append(_mine(rules, sq, owner, "revealed", "went off on {square}",
                         f'<circle cx="{cx:g}" cy="{cy:g}" r="{CELL * 0.4:g}" fill="#FFFFFF" stroke="{INK}" '
                         f'stroke-dasharray="2 2"/><text x="{cx:g}" y="{cy + 3.5:g}" font-size="10" '
                         f'text-anchor="middle" fill="{INK}">M</text>'))
    for sq, owner in frame.unfired:
        cx, cy = _centre(rules, sq)
        colour = COLOURS[owner][0]
        out.append(_mine(rules, sq, owner, "unfired", "on {square}, revealed at the end: it did not go off",
                         f'<circle cx="{cx:g}" cy="{cy:g}" r="{CELL * 0.3:g}" fill="none" stroke="{colour}" '
                         f'stroke-width="1.6"/><circle cx="{cx:g}" cy="{cy:g}" r="{CELL * 0.1:g}" '
                         f'fill="{colour}"/>'))
    for piece in frame.pieces:
        out.append(_piece(rules, piece, "piece"))
    for piece in frame.lost:
        out.append(_piece(rules, piece, "lost"))
    for side, pid, path in frame.moves:
        points = " ".join(f"{px:g},{py:g}" for px, py in (_centre(rules, sq) for sq in path))
        tip = "a" if side == ATTACKER else "d"
        out.append(f'<polyline class="move" data-piece="{escape(pid)}" data-side="{side}" points="{points}" '
                   f'fill="none" stroke="{COLOURS[side][0]}" stroke-width="2" stroke-opacity="0.8" '
                   f'marker-end="url(#tip-{tip})"/>')
    for shot in frame.shots:
        (x1, y1), (x2, y2) = _centre(rules, shot.start), _centre(rules, shot.end)
        style = (f'stroke="{HIT}" stroke-width="2.2"' if shot.hit
                 else f'stroke="{MISS}" stroke-width="1.6" stroke-dasharray="4 3"')
        back = " back" if shot.back else ""
        rolls = ", ".join(str(r) for r in shot.rolls)
        out.append(f'<line class="shot" data-piece="{escape(shot.shooter)}" data-at="{escape(shot.target)}" '
                   f'data-back="{str(shot.back).lower()}" data-hit="{str(shot.hit).lower()}" '
                   f'x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" {style} '
                   f'marker-end="url(#tip-{"hit" if shot.hit else "miss"})">'
                   f'<title>{escape(shot.shooter)} fires{back} at {escape(shot.target)}: rolls {rolls}'
                   f'{", a hit" if shot.hit else ", misses"}</title></line>')
    foot = TOP + rules.rows * CELL + 14
    if frame.hidden:
        hidden = ", ".join(f"{side} {count}" for side, count in frame.hidden)
        out.append(f'<text x="{LEFT:g}" y="{foot:g}" font-size="10" fill="{INK}">hidden mines: {hidden}</text>')
    if frame.result:            # the winner, then why, each on its own line (a frame is narrow)
        head, _, why = frame.result.partition(": ")
        parts = [head, *textwrap.wrap(why, RESULT_CHARS)]
        lines = "".join(f'<tspan x="{LEFT:g}" dy="{0 if i == 0 else 12}">{escape(part)}</tspan>'
                        for i, part in enumerate(parts))
        out.append(f'<text class="result" x="{LEFT:g}" y="{foot + 13:g}" font-size="10" font-weight="bold" '
                   f'fill="{INK}">{lines}</text>')
    out.append("</g>")
    return "\n".join(out)


def _mine(rules: BoardRules, square: Square, owner: str, state: str, what: str, body: str) -> str:
    """A mine shown on the board: gone off (``revealed``) or revealed at the end (``unfired``)."""
    name = square_name(rules, square)
    return (f'<g class="mine {state}" data-square="{name}" data-side="{owner}">'
            f'<title>a {owner} mine {escape(what.format(square=name))}</title>{body}</g>')


def _grid(rules: BoardRules) -> list[str]:
    """The shaded row bands, the grid and the labels."""
    out = []
    width = rules.columns * CELL
    for side in SIDES:
        _, deploy, mine = COLOURS[side]
        for low, high, fill in ((1, rules.deploy_rows, deploy), (*rules.mine_rows, mine)):
            rows = [(y if side == ATTACKER else rules.rows - 1 - y) for y in range(low - 1, high)]
            top = TOP + (rules.rows - 1 - max(rows)) * CELL
            out.append(f'<rect class="rows {side}" x="{LEFT:g}" y="{top:g}" width="{width:g}" '
                       f'height="{len(rows) * CELL:g}" fill="{fill}"/>')
    lines = [f"M{LEFT + c * CELL:g},{TOP:g}v{rules.rows * CELL:g}" for c in range(rules.columns + 1)]
    lines += [f"M{LEFT:g},{TOP + r * CELL:g}h{width:g}" for r in range(rules.rows + 1)]
    out.append(f'<path d="{"".join(lines)}" stroke="{GRID}" stroke-width="0.6" fill="none"/>')
    mid = TOP + rules.rows_per_side * CELL
    out.append(f'<path d="M{LEFT:g},{mid:g}h{width:g}" stroke="{INK}" stroke-width="1.4"/>')
    labels = [f'<text x="{LEFT + (c + 0.5) * CELL:g}" y="{TOP - 4:g}">{chr(65 + c)}</text>'
              for c in range(rules.columns)]
    for y in range(rules.rows):
        name = f"{y + 1}a" if y < rules.rows_per_side else f"{rules.rows - y}d"
        labels.append(f'<text x="{LEFT - 16:g}" y="{TOP + (rules.rows - 1 - y + 0.5) * CELL + 3:g}">{name}</text>')
    out.append(f'<g font-size="9" text-anchor="middle" fill="{INK}">{"".join(labels)}</g>')
    return out


def _piece(rules: BoardRules, piece: Piece, cls: str) -> str:
    kind = rules.kinds.get(piece.kind)
    short = kind.short if kind else "??"
    strong = COLOURS.get(piece.side, COLOURS[ATTACKER])[0]
    cx, cy = _centre(rules, piece.square)
    half = CELL * 0.42
    label = short.upper() if piece.side == ATTACKER else short.lower()
    shape = (f'<rect x="{cx - half:g}" y="{cy - half:g}" width="{2 * half:g}" height="{2 * half:g}" rx="2" '
             f'fill="{strong}"/>' if piece.side == ATTACKER
             else f'<circle cx="{cx:g}" cy="{cy:g}" r="{half:g}" fill="{strong}"/>')
    pips = "".join(f'<circle cx="{cx - half + 3 + 3.2 * i:g}" cy="{cy - half + 3:g}" r="1.1" fill="#FFFFFF"/>'
                   for i in range(kind.rank if kind else 0))
    name = kind.name if kind else piece.kind
    fate = ", destroyed" if cls == "lost" else ""
    faded = ' opacity="0.45"' if cls == "lost" else ""
    cross = (f'<path d="M{cx - half:g},{cy - half:g}L{cx + half:g},{cy + half:g}M{cx + half:g},{cy - half:g}'
             f'L{cx - half:g},{cy + half:g}" stroke="{HIT}" stroke-width="2"/>' if cls == "lost" else "")
    where = square_name(rules, piece.square)
    return (f'<g class="{cls}" data-piece="{escape(piece.id)}" data-side="{piece.side}" '
            f'data-kind="{escape(piece.kind)}" data-square="{where}"{faded}>'
            f'<title>{escape(piece.id)}: the {piece.side}\'s {escape(name)} on {where}{fate}</title>{shape}{pips}'
            f'<text x="{cx:g}" y="{cy + 3.5:g}" font-size="9" '
            f'font-weight="bold" text-anchor="middle" fill="#FFFFFF">{escape(label)}</text>{cross}</g>')

