"""Mail addresses as pbem compares them: the bare address, lower case."""

from __future__ import annotations

import email.utils

MAX_HEADER_CHARS = 998


def parse_address(text: str | None) -> str | None:
    """The bare address in ``text`` ("Name <a@b.c>" or "a@b.c"), lower case, or None."""
    if not text:
        return None
    _name, addr = email.utils.parseaddr(str(text)[:MAX_HEADER_CHARS])
    addr = addr.strip().lower()
    if addr.count("@") != 1 or any(c.isspace() or not c.isprintable() for c in addr):
        return None
    local, domain = addr.split("@")
    return addr if local and ("." in domain or domain == "localhost") else None
