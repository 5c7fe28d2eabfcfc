"""Errors meant for people: each carries a message that says where and why."""

from __future__ import annotations


class PbemError(Exception):
    """Base class for every error shown to a user (the CLI prints it, no traceback)."""


class DataError(PbemError):
    """A map, ruleset or setup file is malformed or inconsistent."""


class StateFileError(PbemError):
    """A game state or turn file cannot be read or is corrupt."""


class OrdersSyntaxError(PbemError):
    """An orders file does not parse.  ``line``/``column`` are 1-based."""

    def __init__(self, message: str, line: int, column: int, source_line: str = "",
                 suggestion: str | None = None):
        self.line = line
        self.column = column
        self.source_line = source_line
        self.suggestion = suggestion
        super().__init__(message)

    def __str__(self) -> str:
        text = f"line {self.line}, column {self.column}: {self.args[0]}"
        if self.suggestion:
            text += f" (did you mean '{self.suggestion}'?)"
        if self.source_line:
            text += f"\n    {self.source_line}\n    {' ' * (self.column - 1)}^"
        return text
