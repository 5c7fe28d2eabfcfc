"""Plain lines without rich (cli/plain_output.py, issue 24): what ``pbem status`` prints
is byte for byte what rich's console prints for the same line, on a terminal or not, and a
line rich would change still goes through rich."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.markup import escape

from adjudicator.cli import plain_output
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
