"""Taktyczne Starcie as an edition: the plug-in modules its ``game.toml`` names (the
pregame's draw and rolled turn order, the economy), imported by the edition's registration."""

from __future__ import annotations

from . import economy, nuclear, plans, pregame  # noqa: F401  (each registers its steps, rules and items)
