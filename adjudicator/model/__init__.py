"""The model layer."""
