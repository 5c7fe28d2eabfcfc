"""A progress bar on stderr for work that can take more than a second (a long audit, a
Monte Carlo run).  It appears only on a terminal and only once the work has run for
``PBEM_PROGRESS_DELAY`` seconds (default 0.5), so quick commands and pipes stay quiet;
stdout (reports, ``--json``) is never touched."""

from __future__ import annotations

import os
import time

from rich.console import Console

DEFAULT_DELAY = 0.5


def _delay() -> float:
    try:
        return max(0.0, float(os.environ.get("PBEM_PROGRESS_DELAY", DEFAULT_DELAY)))
    except ValueError:
        return DEFAULT_DELAY


class ProgressBar:
    """``with ProgressBar("Verifying turns", total) as bar: ... bar.update(done)``."""

    def __init__(self, description: str, total: int, console: Console | None = None,
                 no_color: bool | None = None):
        self.description = description
        self.total = total
        self.console = console or Console(stderr=True, no_color=no_color)
        self.started = time.monotonic()
        self.delay = _delay()
        self._bar = None            # a rich Progress, once the work has run for the delay
        self._task = None

    def __enter__(self) -> "ProgressBar":
        return self

    def update(self, done: int, total: int | None = None) -> None:
        if total is not None:
            self.total = total
        if self._bar is None:
            if not self.console.is_terminal or time.monotonic() - self.started < self.delay:
                return
            from rich.progress import (     # only when a bar shows: a quick command loads none
                BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn,
            )
            self._bar = Progress(TextColumn("{task.description}"), BarColumn(),
                                 MofNCompleteColumn(), TimeRemainingColumn(),
                                 console=self.console, transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.description, total=self.total)
        self._bar.update(self._task, completed=done, total=self.total)

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()
