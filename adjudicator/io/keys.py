"""Ed25519 keys in OpenSSH formats: create, load, fingerprint.

Private keys are OpenSSH private key files (what ``ssh-keygen -t ed25519`` writes,
unencrypted); public keys are OpenSSH lines ``ssh-ed25519 AAAA... comment``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding, NoEncryption, PrivateFormat, PublicFormat, load_ssh_private_key, load_ssh_public_key,
)

from ..model.errors import PbemError
from .limits import MAX_KEY_BYTES
from .storage import read_regular, write_atomic


class KeyFileError(PbemError):
    """A key file or key line cannot be used."""


def public_key_line(key: Ed25519PublicKey | Ed25519PrivateKey, comment: str = "") -> str:
    """``ssh-ed25519 AAAA... comment`` (no trailing newline)."""
    if isinstance(key, Ed25519PrivateKey):
        key = key.public_key()
    line = key.public_bytes(Encoding.OpenSSH, PublicFormat.OpenSSH).decode("ascii")
    comment = " ".join(comment.split())
    return f"{line} {comment}" if comment else line


def new_keypair(path, comment: str = "") -> Ed25519PrivateKey:
    """Generate an Ed25519 key: ``path`` (OpenSSH private key, mode 0600) and ``path.pub``.
    Refuses to overwrite either file."""
    path = Path(path)
    pub = path.with_name(path.name + ".pub")
    for p in (path, pub):
        if p.exists():
            raise KeyFileError(f"{p} already exists; refusing to overwrite a key")
    key = Ed25519PrivateKey.generate()
    data = key.private_bytes(Encoding.PEM, PrivateFormat.OpenSSH, NoEncryption())
    write_atomic(path, data, mode=0o600)
    write_atomic(pub, (public_key_line(key, comment) + "\n").encode("ascii"))
    return key


def load_private_key(path) -> Ed25519PrivateKey:
    """An unencrypted OpenSSH Ed25519 private key from ``path``."""
    if isinstance(path, Ed25519PrivateKey):
        return path
    data = read_regular(Path(path), "private key", MAX_KEY_BYTES, KeyFileError)
    try:
        key = load_ssh_private_key(data, password=None)
    except TypeError:
        raise KeyFileError(f"private key {path} is encrypted; use an unencrypted key for the "
                           "game master (or sign with ssh-keygen -Y sign)") from None
    except (ValueError, Exception) as exc:  # noqa: BLE001 - cryptography raises several kinds
        raise KeyFileError(f"private key {path}: not an OpenSSH private key ({exc})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"private key {path}: only Ed25519 keys are supported "
                           "(make one with ssh-keygen -t ed25519)")
    return key


def _parse_line(line: str, source: str) -> Ed25519PublicKey:
    tokens = line.split()
    for i, tok in enumerate(tokens[:-1]):
        if tok == "ssh-ed25519":
            text = f"{tok} {tokens[i + 1]}".encode("ascii", "replace")
            try:
                key = load_ssh_public_key(text)
            except (ValueError, binascii.Error, Exception) as exc:  # noqa: BLE001
                raise KeyFileError(f"{source}: not a valid ssh-ed25519 public key ({exc})") from None
            if not isinstance(key, Ed25519PublicKey):  # pragma: no cover - guarded by the tag
                raise KeyFileError(f"{source}: not an Ed25519 key")
            return key
    if any(t.startswith(("ssh-", "ecdsa-", "sk-")) for t in tokens):
        raise KeyFileError(f"{source}: only ssh-ed25519 public keys are supported")
    raise KeyFileError(f"{source}: no ssh-ed25519 public key found")


def load_public_key(line_or_path) -> Ed25519PublicKey:
    """An Ed25519 public key from an OpenSSH line (``ssh-ed25519 AAAA... [comment]``, also
    an allowed_signers line), a path to a ``.pub`` file, or a key object."""
    if isinstance(line_or_path, Ed25519PublicKey):
        return line_or_path
    if isinstance(line_or_path, Ed25519PrivateKey):
        return line_or_path.public_key()
    if isinstance(line_or_path, str) and (
            "ssh-ed25519 " in line_or_path
            or (re.search(r"(^|\s)(ssh-|ecdsa-|sk-)\S*\s", line_or_path.strip() + " ")
                and not Path(line_or_path).exists())):
        return _parse_line(line_or_path, "public key")
    path = Path(line_or_path)
    try:
        text = read_regular(path, "public key", MAX_KEY_BYTES, KeyFileError).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise KeyFileError(f"public key {path}: not UTF-8 text ({exc})") from None
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            return _parse_line(line, f"public key {path}")
    raise KeyFileError(f"public key {path}: file is empty")


def public_key_blob(key: Ed25519PublicKey) -> bytes:
    """The SSH wire encoding of an Ed25519 public key (the base64 part of its OpenSSH line)."""
    line = key.public_bytes(Encoding.OpenSSH, PublicFormat.OpenSSH)
    return base64.b64decode(line.split()[1])


def fingerprint(key) -> str:
    """``SHA256:<base64, unpadded>`` of the key blob, as ``ssh-keygen -l`` prints it."""
    blob = public_key_blob(load_public_key(key))
    return "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode("ascii").rstrip("=")


def same_key(a, b) -> bool:
    return public_key_blob(load_public_key(a)) == public_key_blob(load_public_key(b))
