"""The engine layer."""
