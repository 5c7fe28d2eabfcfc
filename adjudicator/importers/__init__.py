"""Readers for other programs' game files, used to cross-check our own map data."""

from .triplea import TripleAMap, compare_with_game, read_triplea

__all__ = ["TripleAMap", "compare_with_game", "read_triplea"]
