"""Ed25519 keys in OpenSSH formats: create, load, fingerprint.

Private keys are OpenSSH private key files (what ``ssh-keygen -t ed25519`` writes);
public keys are OpenSSH lines ``ssh-ed25519 AAAA... comment``.  A key that signs
(:func:`load_signing_key`) may be protected by a passphrase or held in ssh-agent.
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
from .agent import AgentError, AgentKey, agent_key, socket_path
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
    make_private_dirs(path.parent)
    key = Ed25519PrivateKey.generate()
    data = key.private_bytes(Encoding.PEM, PrivateFormat.OpenSSH, NoEncryption())
    write_atomic(path, data, mode=0o600)
    write_atomic(pub, (public_key_line(key, comment) + "\n").encode("ascii"))
    return key


def load_private_key(path) -> Ed25519PrivateKey:
    """An unencrypted OpenSSH Ed25519 private key from ``path`` (a key object, also an
    ssh-agent key, is returned as it is).  Keys with a passphrase: :func:`load_signing_key`."""
    if isinstance(path, (Ed25519PrivateKey, AgentKey)):
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
    if isinstance(line_or_path, (Ed25519PrivateKey, AgentKey)):
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
    if PRIVATE_KEY_MARK in text:
        raise KeyFileError(f"{path} is a private key, not a public key: give its .pub file "
                           "or the 'ssh-ed25519 AAAA...' line (and keep the private key to "
                           "yourself)")
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


# --------------------------------------------------------------------------- keys that sign
# Passphrase-protected key files and keys held in ssh-agent.  ``load_signing_key`` returns
# an Ed25519PrivateKey or an agent.AgentKey; both have ``public_key()`` and ``sign(data)``.

PRIVATE_KEY_MARK = "PRIVATE KEY-----"
MAX_KEY_FILE = 64 * 1024


def make_private_dirs(directory) -> None:
    """Create ``directory`` and any missing parents, each new one mode 0700 (as ``~/.ssh``
    must be).  Folders that already exist are left as they are."""
    directory = Path(directory)
    missing = []
    while not directory.exists():
        missing.append(directory)
        if directory.parent == directory:
            break
        directory = directory.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
        except OSError as exc:
            raise KeyFileError(f"cannot create {folder}: {exc.strerror or exc}") from None
        folder.chmod(0o700)


def load_signing_key(source, passphrase=None, *, agent_socket: str | None = None):
    """The key that signs, from ``source``:

    - an OpenSSH private key file.  If it is protected by a passphrase, ssh-agent signs
      instead when it holds the key (its ``.pub`` file lies beside it), else
      ``passphrase(path) -> bytes`` is asked (None: refuse with a message saying what to do);
    - a public key (a ``.pub`` file or an OpenSSH line) whose private half is in ssh-agent;
    - a key object (returned as it is).

    ``agent_socket`` defaults to ``SSH_AUTH_SOCK``."""
    if isinstance(source, (Ed25519PrivateKey, AgentKey)):
        return source
    if isinstance(source, str) and "ssh-ed25519 " in source:
        return _agent_key(load_public_key(source), "the public key given", agent_socket)
    path = Path(source)
    data = _read_key_file(path)
    if PRIVATE_KEY_MARK.encode("ascii") not in data:
        return _agent_key(load_public_key(path), f"public key {path}", agent_socket)
    try:
        key = load_ssh_private_key(data, password=None)
    except TypeError:  # protected by a passphrase
        key = _held_by_agent(path, agent_socket) or _decrypt(path, data, passphrase)
    except Exception as exc:  # noqa: BLE001 - cryptography raises several kinds
        raise KeyFileError(f"private key {path}: not an OpenSSH private key ({exc})") from None
    if not isinstance(key, (Ed25519PrivateKey, AgentKey)):
        raise KeyFileError(f"private key {path}: only Ed25519 keys are supported "
                           "(make one with ssh-keygen -t ed25519)")
    return key


def _read_key_file(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_KEY_FILE + 1)
    except FileNotFoundError:
        raise KeyFileError(f"key {path}: file not found") from None
    except OSError as exc:
        raise KeyFileError(f"key {path}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_KEY_FILE:
        raise KeyFileError(f"key {path}: larger than {MAX_KEY_FILE} bytes, not a key file")
    return data


def _agent_key(public, what: str, agent_socket: str | None) -> AgentKey:
    try:
        return agent_key(public, agent_socket)
    except AgentError as exc:
        raise KeyFileError(f"{what} ({fingerprint(public)}) signs only through ssh-agent "
                           f"holding its private key: {exc}. Or give the private key file "
                           "instead") from None


def _held_by_agent(path: Path, agent_socket: str | None) -> AgentKey | None:
    """The agent's handle on the key at ``path`` if an agent runs and holds it."""
    pub = path.with_name(path.name + ".pub")
    if not (agent_socket or socket_path()) or not pub.is_file():
        return None
    try:
        return agent_key(load_public_key(pub), agent_socket)
    except (AgentError, KeyFileError):
        return None


def _decrypt(path: Path, data: bytes, passphrase) -> Ed25519PrivateKey:
    if passphrase is None:
        raise KeyFileError(f"private key {path} is protected by a passphrase: run "
                           "interactively to type it, name an environment variable that "
                           "holds it (--passphrase-env VAR), or add the key to ssh-agent")
    secret = passphrase(path)
    if isinstance(secret, str):
        secret = secret.encode("utf-8")
    if not secret:
        raise KeyFileError(f"private key {path}: no passphrase given")
    try:
        return load_ssh_private_key(data, password=secret)
    except ValueError:
        raise KeyFileError(f"private key {path}: wrong passphrase") from None
    except Exception as exc:  # noqa: BLE001 - cryptography raises several kinds
        raise KeyFileError(f"private key {path}: cannot be decrypted ({exc})") from None
