"""TOML documents parsed once: the map data (``maps/<edition>/*.toml``, the board's
geometry of about 100 kB) is parsed again by every command otherwise, a fifth of a
one-line command's time (issue 24).  ``loads`` keeps the parsed document in the user's
cache folder (``io.usercache``) under a hash of the text, so a changed file is parsed
afresh; documents with values ``marshal`` cannot store (dates) are not kept."""

from __future__ import annotations

import hashlib
import marshal

from . import usercache


def loads(text: str) -> dict:
    """``tomllib.loads(text)``, from the cache when this text was parsed before."""
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()
    path = usercache.private_file(f"toml-{digest}.marshal")
    if path is not None:
        try:
            with open(path, "rb") as f:
                doc = marshal.loads(f.read())
            if isinstance(doc, dict):
                return doc
        except (OSError, ValueError, EOFError, TypeError):
            pass
    import tomllib      # only to parse: a cached document needs no parser (nor its regexes)

    doc = tomllib.loads(text)
    if path is not None:
        try:
            data = marshal.dumps(doc)
        except ValueError:          # a date or time: not kept
            return doc
        usercache.write_private(path, data)
    return doc
