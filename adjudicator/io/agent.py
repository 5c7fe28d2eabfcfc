"""Sign with an Ed25519 key held by ``ssh-agent`` (the agent protocol, draft-miller-ssh-agent).

Only two requests are needed, so they are written out here rather than pulling in a whole
SSH library (paramiko would add paramiko, invoke, bcrypt and pynacl for these few lines)::

    every message   uint32 length, byte type, contents
    11 REQUEST_IDENTITIES   ->  12 IDENTITIES_ANSWER: uint32 n, n x (string key blob, string comment)
    13 SIGN_REQUEST: string key blob, string data, uint32 flags (0 for ssh-ed25519)
                            ->  14 SIGN_RESPONSE: string signature (string "ssh-ed25519", string sig[64])
    5  FAILURE (the agent refuses: key not held, confirmation denied, ...)

The agent is reached through the Unix socket named by ``SSH_AUTH_SOCK``.  Every answer is
bounded (256 KiB, as OpenSSH's own agent) and every signature is checked against the public
key before it is used.
"""

from __future__ import annotations

import os
import struct
from typing import TYPE_CHECKING

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from ..model.errors import PbemError

if TYPE_CHECKING:
    import socket

SSH_AGENT_FAILURE = 5
SSH_AGENTC_REQUEST_IDENTITIES = 11
SSH_AGENT_IDENTITIES_ANSWER = 12
SSH_AGENTC_SIGN_REQUEST = 13
SSH_AGENT_SIGN_RESPONSE = 14

KEY_TYPE = b"ssh-ed25519"
MAX_MESSAGE = 256 * 1024
TIMEOUT_SECONDS = 120       # the agent may ask its user to confirm (ssh-add -c)
SOCKET_ENV = "SSH_AUTH_SOCK"


class AgentError(PbemError):
    """ssh-agent cannot be reached, does not hold the key, or refused to sign."""


def _string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def _take_string(data: bytes, pos: int) -> tuple[bytes, int]:
    if pos + 4 > len(data):
        raise AgentError("ssh-agent sent a truncated answer")
    (n,) = struct.unpack(">I", data[pos:pos + 4])
    if pos + 4 + n > len(data):
        raise AgentError("ssh-agent sent a truncated answer")
    return data[pos + 4:pos + 4 + n], pos + 4 + n


def key_blob(public_key: Ed25519PublicKey) -> bytes:
    """The SSH wire encoding of an Ed25519 public key."""
    raw = public_key.public_bytes(Encoding.Raw, PublicFormat.Raw)
    return _string(KEY_TYPE) + _string(raw)


def socket_path(environ=None) -> str | None:
    """The agent's socket from ``SSH_AUTH_SOCK``, or None when no agent is announced."""
    value = (os.environ if environ is None else environ).get(SOCKET_ENV, "")
    return value or None


def _request(sock_path: str, message_type: int, body: bytes) -> tuple[int, bytes]:
    """Send one request, return (answer type, answer contents)."""
    import socket           # only to talk to the agent (issue 24: start-up)
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(TIMEOUT_SECONDS)
            conn.connect(sock_path)
            conn.sendall(struct.pack(">IB", len(body) + 1, message_type) + body)
            (length,) = struct.unpack(">I", _recv_exact(conn, 4))
            if not 1 <= length <= MAX_MESSAGE:
                raise AgentError(f"ssh-agent sent an answer of {length} bytes "
                                 f"(at most {MAX_MESSAGE} expected)")
            answer = _recv_exact(conn, length)
    except TimeoutError:                # socket.timeout
        raise AgentError(f"ssh-agent at {sock_path} did not answer within "
                         f"{TIMEOUT_SECONDS} s") from None
    except OSError as exc:
        raise AgentError(f"cannot reach ssh-agent at {sock_path} ({SOCKET_ENV}): "
                         f"{exc.strerror or exc}") from None
    return answer[0], answer[1:]


def _recv_exact(conn: socket.socket, n: int) -> bytes:
    chunks, got = [], 0
    while got < n:
        chunk = conn.recv(min(n - got, 65536))
        if not chunk:
            raise AgentError("ssh-agent closed the connection mid-answer")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def identities(sock_path: str) -> list[tuple[bytes, str]]:
    """Every key the agent holds: (key blob, comment)."""
    kind, body = _request(sock_path, SSH_AGENTC_REQUEST_IDENTITIES, b"")
    if kind != SSH_AGENT_IDENTITIES_ANSWER:
        raise AgentError(f"ssh-agent refused to list its keys (answer {kind})")
    if len(body) < 4:
        raise AgentError("ssh-agent sent a truncated answer")
    (count,) = struct.unpack(">I", body[:4])
    pos, out = 4, []
    for _ in range(count):
        blob, pos = _take_string(body, pos)
        comment, pos = _take_string(body, pos)
        out.append((blob, comment.decode("utf-8", "replace")))
    return out


class AgentKey:
    """An Ed25519 key whose private half stays in ssh-agent.  Offers what this project uses
    of ``Ed25519PrivateKey``: ``public_key()`` and ``sign(data) -> 64-byte signature``."""

    def __init__(self, public_key: Ed25519PublicKey, sock_path: str, comment: str = ""):
        self._public_key = public_key
        self.socket_path = sock_path
        self.comment = comment

    def public_key(self) -> Ed25519PublicKey:
        return self._public_key

    def sign(self, data: bytes) -> bytes:
        """The raw Ed25519 signature of ``data``, made by the agent and checked here."""
        body = _string(key_blob(self._public_key)) + _string(bytes(data)) + struct.pack(">I", 0)
        kind, answer = _request(self.socket_path, SSH_AGENTC_SIGN_REQUEST, body)
        if kind == SSH_AGENT_FAILURE:
            raise AgentError("ssh-agent refused to sign (is the key still loaded? "
                             "was a confirmation denied?)")
        if kind != SSH_AGENT_SIGN_RESPONSE:
            raise AgentError(f"ssh-agent sent an unexpected answer ({kind}) to a sign request")
        sigblob, _ = _take_string(answer, 0)
        sig_type, pos = _take_string(sigblob, 0)
        signature, pos = _take_string(sigblob, pos)
        if sig_type != KEY_TYPE or len(signature) != 64 or pos != len(sigblob):
            raise AgentError("ssh-agent returned a signature that is not ssh-ed25519")
        try:
            self._public_key.verify(signature, bytes(data))
        except InvalidSignature:
            raise AgentError("ssh-agent returned a signature that does not verify") from None
        return signature


def agent_key(public_key: Ed25519PublicKey, sock_path: str | None = None) -> AgentKey:
    """The agent's handle on ``public_key``.  ``sock_path`` defaults to ``SSH_AUTH_SOCK``;
    raises :class:`AgentError` when there is no agent or it does not hold the key."""
    sock_path = sock_path or socket_path()
    if sock_path is None:
        raise AgentError(f"no ssh-agent: {SOCKET_ENV} is not set (start one with "
                         "'eval $(ssh-agent)' and add the key with ssh-add)")
    blob = key_blob(public_key)
    for held, comment in identities(sock_path):
        if held == blob:
            return AgentKey(public_key, sock_path, comment)
    raise AgentError("ssh-agent does not hold this key (add it with 'ssh-add PRIVATE_KEY')")
