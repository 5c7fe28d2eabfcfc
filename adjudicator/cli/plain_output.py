"""Plain lines without rich, for commands whose output is a few lines of plain text
(``pbem status``; issue 24: importing rich costs about 1.7 times a bare interpreter's
start-up).  ``line(text)`` writes exactly what ``rich.Console.print(escape(text),
highlight=False, soft_wrap=True)`` writes: the text and a newline (no markup, no style, no
wrapping).  A line rich would change (an emoji code such as ``:smile:``, a control
character) and anything else a command asks of its console go through a rich console
made on first use, as every other command's."""

from __future__ import annotations

import re
import sys

from .logs import OutputTee, has_log_file

# what rich's print would turn into something else: its emoji codes (rich.emoji's
# ':name:' and ':name-text:'), control characters (tabs, carriage returns, escapes)
_RICH_WOULD_CHANGE = re.compile(r":\S*?:|[\x00-\x1f\x7f]")


class PlainOutput:
    """stdout for plain lines; the rich console (``common.console``) when needed."""

    def __init__(self, no_color: bool | None = None, quiet: bool = False):
        self._no_color, self._quiet = no_color, quiet
        self._rich = None

    def line(self, text: str) -> None:
        if self._rich is None and not _RICH_WOULD_CHANGE.search(text):
            stream = OutputTee(sys.stdout, self._quiet) if self._quiet or has_log_file() \
                else sys.stdout
            stream.write(text + "\n")
            stream.flush()
            return
        from rich.markup import escape
        self.rich().print(escape(text), highlight=False, soft_wrap=True)

    def rich(self):
        """The rich console this output stands for (made on first use)."""
        if self._rich is None:
            from .common import console
            self._rich = console(self._no_color, quiet=self._quiet)
        return self._rich

    def __getattr__(self, name: str):
        return getattr(self.rich(), name)
