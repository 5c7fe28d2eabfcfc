"""Plain lines without rich, for commands whose output is a few lines of plain text
(``pbem status``, ``pbem check``; issue 24: importing rich costs about 1.7 times a bare
interpreter's start-up).  ``line(text)`` writes exactly what ``rich.Console.print(escape(text),
highlight=False, soft_wrap=True)`` writes: the text and a newline (no markup, no style, no
wrapping).  ``print(markup, soft_wrap=True)`` writes what rich writes for a line of markup
(``[red]...[/]``) when the output is not a terminal: the text without its tags.  A line
rich would change (an emoji code such as ``:smile:``, a control character, an escaped
bracket), styled text for a terminal, and anything else a command asks of its console
(tables, rules) go through a rich console made on first use, as every other command's."""

from __future__ import annotations

import os
import sys

from .logs import OutputTee, has_log_file
from .markup import markup_text, rich_would_change

# what makes rich treat a file that is not a terminal as one (rich.console.is_terminal)
_TERMINAL_ENV = ("FORCE_COLOR", "TTY_COMPATIBLE")


class PlainOutput:
    """stdout for plain lines; the rich console (``common.console``) when needed."""

    def __init__(self, no_color: bool | None = None, quiet: bool = False):
        self._no_color, self._quiet = no_color, quiet
        self._rich = None

    def line(self, text: str) -> None:
        if self._rich is None and not rich_would_change(text):
            self._write(text)
            return
        from rich.markup import escape
        self.rich().print(escape(text), highlight=False, soft_wrap=True)

    def print(self, *objects, markup: bool | None = None, highlight: bool | None = None,
              soft_wrap: bool | None = None, **options) -> None:
        """``Console.print``: one string of markup (or plain text, ``markup=False``), not
        wrapped, to a file that is not a terminal is written here; anything else by rich."""
        text = None
        if (len(objects) == 1 and isinstance(objects[0], str) and soft_wrap and not highlight
                and not options and self._rich is None and not self._terminal()):
            text = (markup_text(objects[0]) if markup is not False
                    else None if rich_would_change(objects[0]) else objects[0])
        if text is None:
            self.rich().print(*objects, markup=markup, highlight=highlight,
                              soft_wrap=soft_wrap, **options)
            return
        self._write(text)

    def _write(self, text: str) -> None:
        """``text`` and a newline, as rich writes an unstyled line to a file."""
        stream = OutputTee(sys.stdout, self._quiet) if self._quiet or has_log_file() \
            else sys.stdout
        stream.write(text + "\n")
        stream.flush()

    def _terminal(self) -> bool:
        """Whether rich would write to stdout as to a terminal (styles and colours)."""
        if any(os.environ.get(name) for name in _TERMINAL_ENV):
            return True
        try:
            return sys.stdout.isatty()
        except ValueError:          # a closed file (rich: not a terminal)
            return False

    def rich(self):
        """The rich console this output stands for (made on first use)."""
        if self._rich is None:
            from .common import console
            self._rich = console(self._no_color, quiet=self._quiet)
        return self._rich

    def __getattr__(self, name: str):
        return getattr(self.rich(), name)
