"""A report section's heading: a blank line and a dim rule titled in bold (shared by the
report and the sections editions add to it)."""

from __future__ import annotations

from rich.console import Console
from rich.rule import Rule
from rich.text import Text


def section(console: Console, title: str) -> None:
    console.print()
    console.print(Rule(Text(title, style="bold"), align="left", style="dim"))
