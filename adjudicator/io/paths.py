"""Where the project's data folders live (next to the package in a source checkout)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
MAPS_DIR = ROOT / "maps"
GRAMMAR_DIR = ROOT / "grammar"
TURNS_DIR = ROOT / "turns"
