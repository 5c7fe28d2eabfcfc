"""Signatures this user's ``pbem`` has verified before (issue 24): a game's commands read
the same signed game and turn files again and again, and each verification imported
``cryptography`` and checked an Ed25519 signature (a fifth of ``pbem status``).  After a
signature verifies, an empty file named by a hash of everything the check depended on
(the namespace, the key, the signed bytes' digest and the signature file's exact bytes)
is kept in the user's cache folder (``io.usercache``); the same check again finds it and
needs no cryptography.  A changed byte anywhere is another name, so an entry is never
stale; only a private cache folder is trusted, as for the other cache entries.
``pbem verify`` (the audit) checks every signature itself and never reads this cache."""

from __future__ import annotations

import hashlib
import os

from . import usercache

_VERSION = b"pbem signature cache 1"


def _entry(namespace: str, key: str, data: bytes, signature: bytes):
    h = hashlib.sha256(_VERSION)
    for part in (namespace.encode("utf-8"), key.encode("utf-8"),
                 hashlib.sha256(data).digest(), signature):
        h.update(len(part).to_bytes(8, "big"))
        h.update(part)
    return usercache.private_file(f"verified-sig-{h.hexdigest()}")


def known(namespace: str, key: str, data: bytes, signature: bytes) -> bool:
    """Whether this exact signature of these exact bytes by ``key`` verified before."""
    path = _entry(namespace, key, data, signature)
    return path is not None and usercache.is_private(path)


def remember(namespace: str, key: str, data: bytes, signature: bytes) -> None:
    """Note a signature that has just verified (silently nothing without a cache)."""
    path = _entry(namespace, key, data, signature)
    if path is not None and not os.path.lexists(path):
        usercache.write_private(path, b"")
