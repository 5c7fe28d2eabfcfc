"""The HTML page of a turn report: a title naming the game, the turn and the power, who
moves next, the turn in a few lines (battles, captures), the board after the turn, then
the full report.  It reads on a phone (390 px wide): the text flows, the picture scales
(a tap on it shows it at full size, to pan and pinch), and the report comes in a second,
narrow layout that the phone shows instead of the wide one, so its dice and income tables
fit the screen; the wide layout's tables scroll inside their own box, never the page."""

from __future__ import annotations

from html import escape

import attrs

PAGE_STYLE = """
body{margin:0;padding:12px;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
  color:#1e1e1e;background:#fff;line-height:1.4}
main{max-width:1400px;margin:0 auto}
h1{font-size:1.35em;margin:0 0 .15em}
.sub{margin:0 0 .6em;color:#555}
.next{margin:0 0 .8em;padding:.45em .7em;background:#f1f3f5;border-left:4px solid #495057;
  font-weight:600}
.over{border-left-color:#b8860b;background:#fff8e1}
ul.turn{margin:0 0 1em;padding-left:1.2em}
ul.turn li{margin:.15em 0}
figure{margin:0 0 .3em}
figure svg{display:block;width:100%;height:auto}
.zoom-toggle{position:absolute;opacity:0;pointer-events:none}
label.board{display:block;margin:0 0 1.2em;cursor:zoom-in}
label.board .hint{font-size:.85em;color:#555}
.zoom-toggle:checked+label.board{cursor:zoom-out}
.zoom-toggle:checked+label.board figure{overflow:auto;max-height:85vh;
  -webkit-overflow-scrolling:touch;border:1px solid #adb5bd}
.zoom-toggle:checked+label.board figure svg{width:var(--zoomed);max-width:none}
.zoom-toggle:focus-visible+label.board figure{outline:2px solid #495057}
h2{font-size:1.05em;margin:1em 0 .4em}
.report{overflow-x:auto;-webkit-overflow-scrolling:touch;border:1px solid #dee2e6;
  border-radius:4px}
.report pre{margin:0;padding:8px;font-family:ui-monospace,Menlo,Consolas,"DejaVu Sans Mono",
  monospace;font-size:13px;line-height:1.3}
.report.phone{display:none}
@media (max-width:600px){body{padding:8px}h1{font-size:1.2em}.report pre{font-size:11px}
  .report.desktop{display:none}.report.phone{display:block}}
""".strip()


@attrs.frozen
class PageHeading:
    """What the page says before the board: plain text, escaped when written."""

    title: str                      # "club-7: turn 5, Germany"
    subtitle: str                   # "Axis & Allies 1941, round 2"
    next_line: str                  # "Next to move: United Kingdom" / "Game over: ..."
    game_over: bool = False
    lines: tuple[str, ...] = ()     # the turn in a few lines: battles, captures


def report_page(heading: PageHeading, report_code: str, figure: str = "",
                phone_code: str | None = None) -> str:
    """The whole page.  ``report_code``: the report as HTML for inside a ``<pre>`` (rich's
    ``export_html(code_format="{code}")``); ``phone_code``: the same laid out for a phone's
    width (None: the phone shows ``report_code`` too); ``figure``: the board ``<figure>``
    or ""."""
    items = "".join(f"<li>{escape(line)}</li>" for line in heading.lines)
    summary = f'<ul class="turn">{items}</ul>\n' if items else ""
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"UTF-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{escape(heading.title)} — {escape(heading.subtitle)}</title>\n"
        f"<style>\n{PAGE_STYLE}\n</style>\n</head>\n<body>\n<main>\n"
        f"<header>\n<h1>{escape(heading.title)}</h1>\n"
        f"<p class=\"sub\">{escape(heading.subtitle)}</p>\n"
        f"<p class=\"next{' over' if heading.game_over else ''}\">{escape(heading.next_line)}</p>\n"
        f"</header>\n{summary}{figure}\n"
        f"<h2>Full report</h2>\n<div class=\"report{' desktop' if phone_code else ''}\">"
        f"<pre>{report_code}</pre></div>\n"
        + (f"<div class=\"report phone\"><pre>{phone_code}</pre></div>\n" if phone_code else "")
        + "</main>\n</body>\n</html>\n")
