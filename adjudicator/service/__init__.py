"""The service layer."""
