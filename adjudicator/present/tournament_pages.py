"""Tournament pages as standalone HTML: the standings table and a player's history.

Takes plain rows (any objects with the attributes used below: the tournament service's
``standings.Row`` and ``organiser.HistoryEntry``), so this module needs nothing but the
standard library."""

from __future__ import annotations

from html import escape

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; }
th, td { padding: 0.3em 0.7em; border-bottom: 1px solid #ddd; text-align: right; }
th { background: #f3f3f3; }
td.name, th.name { text-align: left; }
caption { text-align: left; font-weight: bold; padding-bottom: 0.5em; }
ul.results { line-height: 1.6; }
"""

TIEBREAK_TITLES = {
    "buchholz": "Buchholz", "median_buchholz": "Median Buchholz",
    "sonneborn_berger": "Sonneborn-Berger", "head_to_head": "Head-to-head",
    "wins": "Wins", "axis_wins": "Axis wins", "fewest_nmrs": "NMRs (neg.)",
    "rating": "Rating",
}


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head>\n"
            f"<body>\n<h1>{escape(title)}</h1>\n{body}\n</body></html>\n")


def _number(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    return str(value)


def standings_html(title: str, rows, names: dict[str, str], tiebreaks, result_lines,
                   sides: tuple[str, str] = ("Axis", "Allies"), note: str = "",
                   crosstable: str = "") -> str:
    """The standings page; ``crosstable``: its HTML table (tournament_exports), if any."""
    head = ["#", "Player", "Score", "Played", "W", "D", "L", "Byes",
            *(TIEBREAK_TITLES.get(t, t) for t in tiebreaks), *sides, "NMRs", "Rating"]
    out = ["<table>", "<caption>Standings</caption>", "<tr>" + "".join(
        f"<th{' class=name' if h == 'Player' else ''}>{escape(h)}</th>" for h in head) + "</tr>"]
    for r in rows:
        cells = [r.place, names.get(r.player, r.player), r.score, r.played, r.wins, r.draws,
                 r.losses, r.byes, *(r.tiebreaks.get(t) for t in tiebreaks),
                 *(r.sides.get(s, 0) for s in sides), r.nmrs,
                 None if r.rating is None else round(r.rating, 2)]
        out.append("<tr>" + "".join(
            f"<td{' class=name' if i == 1 else ''}>{escape(_number(c))}</td>"
            for i, c in enumerate(cells)) + "</tr>")
    out.append("</table>")
    if crosstable:
        out.append(crosstable)
    if result_lines:
        out.append("<h2>Results</h2><ul class=\"results\">" +
                   "".join(f"<li>{escape(line)}</li>" for line in result_lines) + "</ul>")
    if note:
        out.append(f"<p>{escape(note)}</p>")
    return _page(title, "\n".join(out))


def history_html(title: str, player_name: str, entries, row=None) -> str:
    out = []
    if row is not None:
        out.append(f"<p>Place {escape(row.place)}, score {escape(_number(row.score))} "
                   f"({row.wins} won, {row.draws} drawn, {row.losses} lost)"
                   + (f", rating {row.rating:.2f}" if row.rating is not None else "") + "</p>")
    out.append("<table><caption>Games</caption><tr><th>Round</th><th class=name>Game</th>"
               "<th class=name>Result</th><th>Rating after</th></tr>")
    for e in entries:
        out.append(f"<tr><td>{e.result.round}</td><td class=name>{escape(e.result.game)}</td>"
                   f"<td class=name>{escape(e.line)}</td>"
                   f"<td>{'' if e.rating_after is None else f'{e.rating_after:.2f}'}</td></tr>")
    out.append("</table>")
    return _page(f"{title}: {player_name}", "\n".join(out))
