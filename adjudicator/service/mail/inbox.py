"""Opening the inbox mail.toml describes (see ``sources`` for the interface)."""

from __future__ import annotations

from ...model.errors import PbemError
from .config import ImapConfig, MaildirConfig


def open_source(cfg, filing: bool = True):
    """The inbox ``cfg`` describes.  ``filing``: create the filing folders
    (the game master's side; a player's inbox is only read)."""
    if isinstance(cfg, MaildirConfig):
        from .maildir import MaildirSource
        return MaildirSource(cfg, filing)
    if isinstance(cfg, ImapConfig):
        from .imap import ImapSource
        return ImapSource(cfg, filing)
    raise PbemError("mail.toml has no [inbox]: set type = \"imap\" or \"maildir\"")
