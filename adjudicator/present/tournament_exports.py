"""Standings and crosstable as forum text (BBCode, Markdown) and CSV.

Takes plain rows (any objects with the attributes used: the tournament service's
``standings.Row`` and ``results.GameResult``) and player names, so this module needs
nothing but the standard library.  The numbers are the standings' own: the CSV's columns
are ``standings.json``'s keys, in the same order."""

from __future__ import annotations

import csv
import io

from .tournament_pages import TIEBREAK_TITLES, _number

FORMATS = ("bbcode", "markdown", "csv")
STANDINGS_COLUMNS = ("place", "player", "score", "played", "wins", "draws", "losses", "byes")


def _standings_table(rows, names, tiebreaks, sides) -> tuple[list[str], list[list[str]]]:
    head = ["#", "Player", "Score", "Played", "W", "D", "L", "Byes",
            *(TIEBREAK_TITLES.get(t, t) for t in tiebreaks), *sides, "NMRs", "Rating"]
    body = [[r.place, names.get(r.player, r.player), _number(r.score), str(r.played),
             str(r.wins), str(r.draws), str(r.losses), str(r.byes),
             *(_number(r.tiebreaks.get(t)) for t in tiebreaks),
             *(str(r.sides.get(s, 0)) for s in sides), str(r.nmrs),
             "" if r.rating is None else f"{r.rating:.2f}"] for r in rows]
    return head, body


def _points(value: float, win: float) -> str:
    if value == win:
        return "1"
    return "½" if value * 2 == win else _number(value)


def crosstable(rows, names, results, cfg, game_text=str) -> tuple[list[str], list[list[str]]]:
    """Players in standings order; a cell holds the row player's points against the column
    player, game by game (``…``: in progress), with the game's id (``cfg``: the
    tournament's settings, for its scoring; ``game_text(game)``: how the id is written, e.g.
    as a link to the game's report)."""
    order = [r.player for r in rows]
    cells: dict[tuple[str, str], list[str]] = {}
    for res in results:
        a, b = res.players
        for me, other in ((a, b), (b, a)):
            points = _points(res.score(me, cfg), cfg.scoring.win) if res.finished else "…"
            cells.setdefault((me, other), []).append(f"{points} ({game_text(res.game)})")
    head = ["#", "Player", *(str(i + 1) for i in range(len(order))), "Score"]
    body = []
    for i, (r, me) in enumerate(zip(rows, order)):
        body.append([str(i + 1), names.get(me, me),
                     *("x" if me == other else " ".join(cells.get((me, other), ()))
                       for other in order), _number(r.score)])
    return head, body


def bbcode_link(links: dict):
    """A game's id as a BBCode link to its report (``links``: game -> URL)."""
    return lambda game: f"[url={links[game]}]{game}[/url]" if game in links else game


def markdown_link(links: dict):
    def url(game):
        return links[game].replace("(", "%28").replace(")", "%29")
    return lambda game: f"[{game}]({url(game)})" if game in links else game


def crosstable_html(rows, names, results, cfg, links=None) -> str:
    """The crosstable as an HTML table, each game's id a link to its report."""
    from html import escape
    links = links or {}
    marks = {}

    def mark(game):
        marks[f"\x00{len(marks)}\x00"] = game
        return f"\x00{len(marks) - 1}\x00"
    head, body = crosstable(rows, names, results, cfg, mark)

    def cell(text):
        out = escape(text)
        for token, game in marks.items():
            target = (f'<a href="{escape(links[game], quote=True)}">{escape(game)}</a>'
                      if game in links else escape(game))
            out = out.replace(token, target)
        return out
    lines = ["<table class=\"crosstable\">", "<caption>Crosstable</caption>",
             "<tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr>"]
    lines += ["<tr>" + "".join(f"<td{' class=name' if i == 1 else ''}>{cell(c)}</td>"
                               for i, c in enumerate(row)) + "</tr>" for row in body]
    return "\n".join(lines + ["</table>"])


def bbcode(title, rows, names, tiebreaks, sides, results, cfg, result_lines, note="",
           links=None) -> str:
    def table(head, body) -> str:
        lines = ["[table]", "[tr]" + "".join(f"[th]{h}[/th]" for h in head) + "[/tr]"]
        lines += ["[tr]" + "".join(f"[td]{c}[/td]" for c in row) + "[/tr]" for row in body]
        return "\n".join(lines + ["[/table]"])
    out = [f"[b]{title}: standings[/b]", table(*_standings_table(rows, names, tiebreaks, sides)),
           "", "[b]Crosstable[/b]",
           table(*crosstable(rows, names, results, cfg, bbcode_link(links or {})))]
    if result_lines:
        out += ["", "[b]Results[/b]", "[list]", *(f"[*]{line}" for line in result_lines),
                "[/list]"]
    if note:
        out += ["", note]
    return "\n".join(out) + "\n"


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(title, rows, names, tiebreaks, sides, results, cfg, result_lines, note="",
             links=None) -> str:
    def table(head, body) -> str:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in body]
        return "\n".join(lines)
    out = [f"## {_md_cell(title)}: standings", "",
           table(*_standings_table(rows, names, tiebreaks, sides)), "", "### Crosstable", "",
           table(*crosstable(rows, names, results, cfg, markdown_link(links or {})))]
    if result_lines:
        out += ["", "### Results", "", *(f"- {_md_cell(line)}" for line in result_lines)]
    if note:
        out += ["", note]
    return "\n".join(out) + "\n"


def standings_csv(rows, names, tiebreaks) -> str:
    """One line per player: standings.json's keys (tiebreaks by name), and the name."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([*STANDINGS_COLUMNS, *tiebreaks, "nmrs", "rating", "name"])
    for r in rows:
        writer.writerow([r.place, r.player, _number(r.score), r.played, r.wins, r.draws,
                         r.losses, r.byes, *(_number(r.tiebreaks.get(t)) for t in tiebreaks),
                         r.nmrs, "" if r.rating is None else round(r.rating, 6),
                         names.get(r.player, r.player)])
    return buf.getvalue()


def crosstable_csv(rows, names, results, cfg) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    head, body = crosstable(rows, names, results, cfg)
    writer.writerow(head)
    writer.writerows(body)
    return buf.getvalue()
