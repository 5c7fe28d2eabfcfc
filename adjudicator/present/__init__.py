"""The present layer."""
