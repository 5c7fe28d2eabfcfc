"""The io layer."""
