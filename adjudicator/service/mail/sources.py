"""Inboxes: where the mail comes from.  ``open_source(config)`` returns an IMAP or a
Maildir source; both offer the same small interface:

``list(subject=None)``
    the messages waiting in the inbox, oldest first, as ``MessageRef`` (id and size);
    only those whose subject contains ``subject`` if given;
``read(ref)`` / ``read_head(ref)``
    a message's bytes / only its header (for a message too large to read);
``move(ref, folder)``
    file the message into the "processed", "rejected" or "quarantine" folder (the
    names mail.toml gives them; atomically where the server can: IMAP MOVE, a Maildir
    rename);
``wait(seconds, stop)``
    return when new mail may have arrived, ``seconds`` have passed or ``stop`` is set.
"""

from __future__ import annotations

import attrs

from ...model.errors import PbemError


@attrs.frozen
class MessageRef:
    id: str
    size: int


class SourceError(PbemError):
    """The inbox cannot be reached or read."""


def folders_of(cfg) -> dict[str, str]:
    """The filing folders of an inbox configuration: role -> its name in mail.toml."""
    return {"processed": cfg.processed, "rejected": cfg.rejected,
            "quarantine": cfg.quarantine}
