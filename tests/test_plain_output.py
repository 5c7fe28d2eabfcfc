"""Plain lines without rich (cli/plain_output.py, issue 24): what ``pbem status`` prints
is byte for byte what rich's console prints for the same line, on a terminal or not, and a
line rich would change still goes through rich."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.markup import escape

from adjudicator.cli import markup as cli_markup, plain_output
from adjudicator.cli.plain_output import PlainOutput

LINES = ["aa1941-example: turn 6 (round 2), Soviet Union to move, since 2026-11-27 02:20",
         "last: turn 5, United States: 1 battle(s), 0 won by the attacker; took West Russia",
         "its orders go to the game master (gm@example.org), who keeps its dice",
         "[bold]not markup[/] and a \\ backslash, ünïcödé, 東京 " + "x" * 300,
         "an emoji code :smile: and :thumbs_up: here", "a\ttab", "a \x1b[31m escape",
         "12:30:45 times", ""]


def rich_bytes(text: str, terminal: bool) -> str:
    out = io.StringIO()
    Console(file=out, highlight=False, soft_wrap=False, force_terminal=terminal,
            width=80).print(escape(text), highlight=False, soft_wrap=True)
    return out.getvalue()


@pytest.mark.parametrize("text", LINES)
@pytest.mark.parametrize("terminal", [False, True])
def test_a_line_is_what_rich_prints(text, terminal, monkeypatch, capsys):
    monkeypatch.setattr(plain_output, "has_log_file", lambda: False)
    PlainOutput(no_color=None if terminal else True).line(text)
    assert capsys.readouterr().out == rich_bytes(text, terminal)


def test_only_a_line_rich_would_change_makes_a_rich_console(monkeypatch, capsys):
    monkeypatch.setattr(plain_output, "has_log_file", lambda: False)
    out = PlainOutput(no_color=True)
    out.line("plain: 12:30")
    assert out._rich is None
    out.line("a code :smile:")
    assert out._rich is not None
    assert capsys.readouterr().out == "plain: 12:30\n" + rich_bytes("a code :smile:", False)


def test_quiet_prints_nothing(monkeypatch, capsys):
    monkeypatch.setattr(plain_output, "has_log_file", lambda: False)
    PlainOutput(quiet=True).line("hello")
    assert capsys.readouterr().out == ""


MARKUP = ["[red]orders.txt:9: error:[/] needs 3 Infantry in Karelia",
          "[red bold]2 error(s)[/]: the orders would be rejected.",
          "[green bold]OK[/]: orders for Soviet Union, round 1, are valid.",
          "[yellow]stdin:[/] skipped a greeting", "[bold]a[/bold] [italic]b[/italic] [1] [x",
          "a :smile: [red]:thumbs_up:[/]", "[red]x:[/red]100:", "12:30:45 [b]times[/b]",
          "[link=https://example.org]a link[/link]", "[red]unclosed", "an \\[escaped] tag",
          escape("[red]brackets[/] in a name") + " [red]and markup[/]", "a\ttab [red]x[/]", ""]


def rich_markup_bytes(markup: str, terminal: bool) -> str:
    out = io.StringIO()
    Console(file=out, highlight=False, soft_wrap=False, force_terminal=terminal,
            width=80).print(markup, markup=True, highlight=False, soft_wrap=True)
    return out.getvalue()


@pytest.mark.parametrize("markup", MARKUP)
def test_a_line_of_markup_is_what_rich_prints_to_a_file(markup, monkeypatch, capsys):
    monkeypatch.setattr(plain_output, "has_log_file", lambda: False)
    for name in plain_output._TERMINAL_ENV:
        monkeypatch.delenv(name, raising=False)
    PlainOutput(no_color=True).print(markup, markup=True, highlight=False, soft_wrap=True)
    assert capsys.readouterr().out == rich_markup_bytes(markup, False)


def test_markup_rich_must_read_goes_to_rich():
    for markup in ("a :smile:", "[red]x[/blue]", "[/]", "an \\[escaped] tag", "[@click]x[/]",
                   "a\ttab", "[red]:100:[/]"):
        assert cli_markup.markup_text(markup) is None, markup
    assert cli_markup.markup_text("[red]file:12:[/] error") == "file:12: error"


def test_escape_is_richs():
    for text in ("[red]x[/]", "a \\[b]", "ends with \\", "ends with \\\\", "[1] [#f00] [@x]"):
        assert cli_markup.escape(text) == escape(text)


def test_a_terminal_or_forced_colour_gets_richs_styles(monkeypatch, capsys):
    monkeypatch.setattr(plain_output, "has_log_file", lambda: False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    out = PlainOutput()
    out.print("[bold]OK[/]: fine", soft_wrap=True)
    assert out._rich is not None
    assert "\x1b[1m" in capsys.readouterr().out
