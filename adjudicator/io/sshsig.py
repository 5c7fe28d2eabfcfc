"""Ed25519 signatures in OpenSSH's SSHSIG format (OpenSSH PROTOCOL.sshsig).

Signatures made here verify with stock ``ssh-keygen -Y verify`` and signatures made with
``ssh-keygen -Y sign`` verify here.  Only Ed25519 keys are supported.

The blob (armored as ``-----BEGIN SSH SIGNATURE-----``, base64 wrapped at 70 columns)::

    byte[6]  "SSHSIG"
    uint32   1                       (version)
    string   public key blob         (string "ssh-ed25519", string key[32])
    string   namespace
    string   reserved                (empty)
    string   hash algorithm          ("sha512" or "sha256")
    string   signature               (string "ssh-ed25519", string sig[64])

and the Ed25519 signature is over::

    byte[6]  "SSHSIG"
    string   namespace
    string   reserved
    string   hash algorithm
    string   H(message)

Namespaces used by this project: ``pbem-turn`` (files published by the game master) and
``pbem-orders`` (orders signed by a player).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..model.errors import PbemError
from .agent import AgentKey
from .keys import fingerprint, load_public_key, public_key_blob

NAMESPACE_TURN = "pbem-turn"
NAMESPACE_ORDERS = "pbem-orders"
NAMESPACE_KEEPER = "pbem-keeper"     # a dice keeper's first commitment (keeper_statement)

MAGIC = b"SSHSIG"
VERSION = 1
KEY_TYPE = b"ssh-ed25519"
BEGIN = "-----BEGIN SSH SIGNATURE-----"
END = "-----END SSH SIGNATURE-----"
WRAP = 70
HASHES = {"sha512": hashlib.sha512, "sha256": hashlib.sha256}


class SignatureError(PbemError):
    """A signature does not verify.  ``check`` names what failed: "armor" (not a readable
    SSH signature), "namespace", "key" (signed by another key), "signature" (the bytes
    signed are not these), or "unsupported" (algorithm we do not handle)."""

    def __init__(self, check: str, message: str):
        self.check = check
        super().__init__(message)


# --------------------------------------------------------------------------- wire format

def _string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


class _Reader:
    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise SignatureError("armor", "signature blob is truncated")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def uint32(self) -> int:
        return struct.unpack(">I", self.take(4))[0]

    def string(self) -> bytes:
        return self.take(self.uint32())

    def done(self) -> bool:
        return self.pos == len(self.data)


def public_key_from_blob(blob: bytes) -> Ed25519PublicKey:
    r = _Reader(blob)
    ktype = r.string()
    if ktype != KEY_TYPE:
        raise SignatureError("unsupported", f"key type {ktype.decode('ascii', 'replace')!r} "
                                            "is not supported (only ssh-ed25519)")
    raw = r.string()
    if len(raw) != 32 or not r.done():
        raise SignatureError("armor", "malformed ssh-ed25519 public key")
    return Ed25519PublicKey.from_public_bytes(raw)


def signed_data(message: bytes, namespace: str, hash_alg: str = "sha512") -> bytes:
    """The bytes the Ed25519 signature covers."""
    digest = HASHES[hash_alg](message).digest()
    return (MAGIC + _string(namespace.encode("utf-8")) + _string(b"")
            + _string(hash_alg.encode("ascii")) + _string(digest))


# --------------------------------------------------------------------------- armor

def armor(blob: bytes) -> str:
    b64 = base64.b64encode(blob).decode("ascii")
    lines = [b64[i:i + WRAP] for i in range(0, len(b64), WRAP)]
    return "\n".join([BEGIN, *lines, END]) + "\n"


def dearmor(armored: str | bytes) -> bytes:
    """The blob inside an armored signature (``SignatureError("armor")`` if unreadable)."""
    if isinstance(armored, bytes):
        try:
            armored = armored.decode("ascii")
        except UnicodeDecodeError:
            raise SignatureError("armor", "signature is not ASCII text") from None
    lines = [line.strip() for line in armored.strip().splitlines()]
    if len(lines) < 3 or lines[0] != BEGIN or lines[-1] != END:
        raise SignatureError("armor", f"not an SSH signature (expected {BEGIN} ... {END})")
    body = "".join(lines[1:-1])
    try:
        return base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        raise SignatureError("armor", "signature body is not valid base64") from None


# --------------------------------------------------------------------------- sign / verify

def sign(data: bytes, private_key: Ed25519PrivateKey, namespace: str) -> str:
    """An armored SSHSIG signature of ``data`` (hash sha512), as ``ssh-keygen -Y sign``."""
    if not isinstance(private_key, (Ed25519PrivateKey, AgentKey)):  # AgentKey: ssh-agent signs
        raise PbemError("only Ed25519 keys can sign")
    if not namespace:
        raise PbemError("a signature namespace is required")
    sig = private_key.sign(signed_data(bytes(data), namespace, "sha512"))
    blob = (MAGIC + struct.pack(">I", VERSION) + _string(public_key_blob(private_key.public_key()))
            + _string(namespace.encode("utf-8")) + _string(b"") + _string(b"sha512")
            + _string(_string(KEY_TYPE) + _string(sig)))
    return armor(blob)


class ParsedSignature:
    """The fields of an SSHSIG blob."""

    def __init__(self, blob: bytes):
        r = _Reader(blob)
        if r.take(6) != MAGIC:
            raise SignatureError("armor", "signature blob does not start with SSHSIG")
        version = r.uint32()
        if version != VERSION:
            raise SignatureError("unsupported", f"SSHSIG version {version} is not supported")
        self.public_key_blob = r.string()
        self.namespace_bytes = r.string()
        self.reserved = r.string()
        self.hash_alg = r.string().decode("ascii", "replace")
        sigblob = r.string()
        if not r.done():
            raise SignatureError("armor", "trailing bytes after the signature")
        s = _Reader(sigblob)
        self.sig_type = s.string()
        self.signature = s.string()
        if not s.done():
            raise SignatureError("armor", "trailing bytes in the signature field")
        self.blob = blob

    @property
    def namespace(self) -> str:
        return self.namespace_bytes.decode("utf-8", "replace")

    def public_key(self) -> Ed25519PublicKey:
        return public_key_from_blob(self.public_key_blob)


def parse(armored: str | bytes) -> ParsedSignature:
    return ParsedSignature(dearmor(armored))


def signer(armored: str | bytes) -> Ed25519PublicKey:
    """The public key a signature claims to be made by (not verified)."""
    return parse(armored).public_key()


def verify(data: bytes, armored: str | bytes, public_key, namespace: str,
           strict: bool = False) -> None:
    """Check that ``armored`` is a valid signature of ``data`` by ``public_key`` (an
    Ed25519PublicKey or an OpenSSH public key line) in ``namespace``.  Returns None;
    raises ``SignatureError`` naming the failed check.

    ``strict``: also require the armor to be byte-for-byte what ``sign`` writes (so a
    published signature file cannot be altered, even in whitespace, undetected)."""
    expected = load_public_key(public_key) if not isinstance(public_key, Ed25519PublicKey) \
        else public_key
    blob = dearmor(armored)
    if strict:
        text = armored.decode("ascii") if isinstance(armored, bytes) else armored
        if text != armor(blob):
            raise SignatureError("armor", "signature file is not in canonical form "
                                          "(extra or changed whitespace or padding)")
    sig = ParsedSignature(blob)
    if sig.namespace_bytes != namespace.encode("utf-8"):
        raise SignatureError("namespace", f"signature is for namespace {sig.namespace!r}, "
                                          f"expected {namespace!r}")
    if sig.reserved:
        raise SignatureError("unsupported", "signature has a non-empty reserved field")
    if sig.hash_alg not in HASHES:
        raise SignatureError("unsupported", f"hash algorithm {sig.hash_alg!r} is not supported")
    if sig.public_key_blob != public_key_blob(expected):
        try:
            who = fingerprint(sig.public_key())
        except SignatureError:
            who = "an unsupported key"
        raise SignatureError("key", f"signed by {who}, expected {fingerprint(expected)}")
    if sig.sig_type != KEY_TYPE or len(sig.signature) != 64:
        raise SignatureError("unsupported", "signature is not an ssh-ed25519 signature")
    try:
        expected.verify(sig.signature, signed_data(bytes(data), namespace, sig.hash_alg))
    except InvalidSignature:
        raise SignatureError("signature", "signature does not match the data "
                                          "(the file was changed after signing)") from None
