"""Keys that sign: passphrase-protected OpenSSH keys and keys held in ssh-agent.

Everything runs against the real tools: keys made by ``ssh-keygen`` with a passphrase, a
real ``ssh-agent`` on a Unix socket loaded with ``ssh-add``, and every signature checked
by ``ssh-keygen -Y verify``."""

from __future__ import annotations

import os
import pty
import select
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from adjudicator.io import agent, keys, sshsig
from adjudicator.io.keys import KeyFileError, load_signing_key
from adjudicator.io.paths import EXAMPLE_DIR
from cli_helpers import pbem

pytestmark = pytest.mark.skipif(
    not all(shutil.which(t) for t in ("ssh-keygen", "ssh-agent", "ssh-add")),
    reason="needs OpenSSH's ssh-keygen, ssh-agent and ssh-add (Debian: openssh-client)")

PASSPHRASE = "correct horse battery staple"
ORDERS = sorted((EXAMPLE_DIR / "orders").glob("*.txt"))
MESSAGE = b"power: Germany\nbuy 2 inf\n"


def make_key(directory: Path, name: str, passphrase: str = PASSPHRASE) -> Path:
    path = directory / name
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", passphrase, "-C", name,
                    "-f", str(path)], check=True, stdin=subprocess.DEVNULL, timeout=60)
    return path


def ssh_keygen_verifies(data: bytes, armored: str, pub: Path, namespace: str, where: Path) -> bool:
    allowed = where / "allowed_signers"
    allowed.write_text(f"signer {pub.read_text().strip()}\n")
    sig = where / "data.sig"
    sig.write_text(armored)
    result = subprocess.run(["ssh-keygen", "-Y", "verify", "-f", str(allowed), "-I", "signer",
                             "-n", namespace, "-s", str(sig)], input=data,
                            capture_output=True, timeout=60)
    return result.returncode == 0


@pytest.fixture
def keydir(tmp_path) -> Path:
    return tmp_path


@pytest.fixture
def ssh_agent():
    """A real ssh-agent in the foreground on a fresh socket; yields the socket path."""
    folder = Path(tempfile.mkdtemp(prefix="pbem-agent-"))   # short: socket paths are limited
    sock = folder / "agent.sock"
    proc = subprocess.Popen(["ssh-agent", "-D", "-a", str(sock)], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not sock.exists():
            assert proc.poll() is None and time.monotonic() < deadline, "ssh-agent did not start"
            time.sleep(0.02)
        yield str(sock)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


def ssh_add(sock: str, key: Path, *extra: str, passphrase: str = PASSPHRASE) -> None:
    """``ssh-add`` with the passphrase given through SSH_ASKPASS, as a desktop would."""
    askpass = key.parent / "askpass.sh"
    askpass.write_text(f"#!/bin/sh\nprintf '%s\\n' '{passphrase}'\n")
    askpass.chmod(0o700)
    env = dict(os.environ, SSH_AUTH_SOCK=sock, SSH_ASKPASS=str(askpass),
               SSH_ASKPASS_REQUIRE="force", DISPLAY=os.environ.get("DISPLAY", ":0"))
    subprocess.run(["ssh-add", *extra, str(key)], env=env, stdin=subprocess.DEVNULL,
                   capture_output=True, check=True, timeout=60)


# --------------------------------------------------------------------------- passphrase

def test_passphrase_key_signs_and_ssh_keygen_verifies(keydir):
    key = make_key(keydir, "gm")
    asked = []
    signer = load_signing_key(key, lambda path: asked.append(path) or PASSPHRASE.encode())
    assert isinstance(signer, Ed25519PrivateKey) and asked == [key]
    armored = sshsig.sign(MESSAGE, signer, sshsig.NAMESPACE_TURN)
    assert ssh_keygen_verifies(MESSAGE, armored, key.with_suffix(".pub"),
                               sshsig.NAMESPACE_TURN, keydir)
    assert not ssh_keygen_verifies(MESSAGE + b" ", armored, key.with_suffix(".pub"),
                                   sshsig.NAMESPACE_TURN, keydir)


def test_wrong_or_missing_passphrase_says_what_to_do(keydir, monkeypatch):
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    key = make_key(keydir, "gm")
    with pytest.raises(KeyFileError, match="wrong passphrase"):
        load_signing_key(key, lambda path: b"not it")
    with pytest.raises(KeyFileError, match="--passphrase-env"):
        load_signing_key(key, None)
    with pytest.raises(KeyFileError, match="no passphrase"):
        load_signing_key(key, lambda path: b"")


def test_unencrypted_key_never_asks(keydir):
    key = make_key(keydir, "plain", passphrase="")
    signer = load_signing_key(key, lambda path: pytest.fail("asked for a passphrase"))
    assert keys.same_key(signer, key.with_suffix(".pub"))


# --------------------------------------------------------------------------- ssh-agent

def test_agent_signs_for_a_public_key_and_ssh_keygen_verifies(keydir, ssh_agent):
    key = make_key(keydir, "gm")
    ssh_add(ssh_agent, key)
    pub = key.with_suffix(".pub")
    signer = load_signing_key(pub, agent_socket=ssh_agent)
    assert isinstance(signer, agent.AgentKey)
    assert keys.same_key(signer, pub)
    armored = sshsig.sign(MESSAGE, signer, sshsig.NAMESPACE_ORDERS)
    assert ssh_keygen_verifies(MESSAGE, armored, pub, sshsig.NAMESPACE_ORDERS, keydir)
    sshsig.verify(MESSAGE, armored, pub, sshsig.NAMESPACE_ORDERS, strict=True)
    # the same text as ssh-keygen -Y sign makes with the agent (Ed25519 is deterministic)
    data = keydir / "message"
    data.write_bytes(MESSAGE)
    subprocess.run(["ssh-keygen", "-Y", "sign", "-f", str(pub), "-n", sshsig.NAMESPACE_ORDERS,
                    str(data)], env=dict(os.environ, SSH_AUTH_SOCK=ssh_agent),
                   stdin=subprocess.DEVNULL, capture_output=True, check=True, timeout=60)
    assert (keydir / "message.sig").read_text() == armored


def test_encrypted_key_held_by_the_agent_needs_no_passphrase(keydir, ssh_agent):
    key = make_key(keydir, "gm")
    ssh_add(ssh_agent, key)
    signer = load_signing_key(key, lambda path: pytest.fail("asked for a passphrase"),
                              agent_socket=ssh_agent)
    assert isinstance(signer, agent.AgentKey)


def test_agent_without_the_key(keydir, ssh_agent):
    key = make_key(keydir, "gm")
    other = make_key(keydir, "other")
    ssh_add(ssh_agent, other)
    with pytest.raises(KeyFileError, match="does not hold this key.*ssh-add"):
        load_signing_key(key.with_suffix(".pub"), agent_socket=ssh_agent)
    # an encrypted key the agent lacks falls back to its passphrase
    assert isinstance(load_signing_key(key, lambda p: PASSPHRASE, agent_socket=ssh_agent),
                      Ed25519PrivateKey)


def test_agent_that_drops_the_key_refuses_to_sign(keydir, ssh_agent):
    key = make_key(keydir, "gm")
    ssh_add(ssh_agent, key)
    signer = load_signing_key(key.with_suffix(".pub"), agent_socket=ssh_agent)
    subprocess.run(["ssh-add", "-D"], env=dict(os.environ, SSH_AUTH_SOCK=ssh_agent),
                   capture_output=True, check=True, timeout=60)
    with pytest.raises(agent.AgentError, match="refused to sign"):
        sshsig.sign(MESSAGE, signer, sshsig.NAMESPACE_TURN)


def test_public_key_without_an_agent(keydir, monkeypatch):
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    key = make_key(keydir, "gm")
    with pytest.raises(KeyFileError, match="SSH_AUTH_SOCK is not set"):
        load_signing_key(key.with_suffix(".pub"))
    with pytest.raises(KeyFileError, match="cannot reach ssh-agent"):
        load_signing_key(key.with_suffix(".pub"), agent_socket=str(keydir / "no-such.sock"))


# --------------------------------------------------------------------------- the CLI

def test_cli_game_with_passphrase_then_agent(keydir, ssh_agent, capsys, monkeypatch):
    """`pbem new --key` with a passphrase key (from an environment variable), the next turn
    with the key remembered, the next through ssh-agent; the audit holds."""
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    monkeypatch.setattr(sys, "stdin", open(os.devnull))     # not a terminal
    key = make_key(keydir, "gm")
    game = keydir / "game"
    code, out = pbem(capsys, "new", game, "--key", key, "--id", "aa1941-example",
                     "--demo-seeds")
    assert code == 2 and "passphrase" in out and not game.exists()
    monkeypatch.setenv("PBEM_TEST_PASS", PASSPHRASE)
    code, out = pbem(capsys, "new", game, "--key", key, "--id", "aa1941-example",
                     "--demo-seeds", "--passphrase-env", "PBEM_TEST_PASS")
    assert code == 0, out
    code, out = pbem(capsys, "process", ORDERS[0], "-g", game, "--demo-seeds",
                     "--passphrase-env", "PBEM_TEST_UNSET")
    assert code == 2 and "PBEM_TEST_UNSET" in out
    code, out = pbem(capsys, "process", ORDERS[0], "-g", game, "--demo-seeds",
                     "--passphrase-env", "PBEM_TEST_PASS")
    assert code == 0, out
    ssh_add(ssh_agent, key)
    monkeypatch.setenv("SSH_AUTH_SOCK", ssh_agent)
    code, out = pbem(capsys, "process", ORDERS[1], "-g", game, "--demo-seeds",
                     "--key", key.with_suffix(".pub"))
    assert code == 0, out
    code, out = pbem(capsys, "verify", game, "--gm-key", key.with_suffix(".pub"))
    assert code == 0 and "OK" in out, out
    for turn in sorted((game / "turns").glob("*.json")):
        sig = turn.with_name(turn.name + ".sig").read_text()
        assert ssh_keygen_verifies(turn.read_bytes(), sig, key.with_suffix(".pub"),
                                   sshsig.NAMESPACE_TURN, keydir)


def test_cli_asks_for_the_passphrase_at_a_terminal(keydir):
    """Run ``pbem new`` with a pseudo-terminal as its controlling terminal: it prompts,
    reads the passphrase without echo, and creates the game."""
    key = make_key(keydir, "gm")
    game = keydir / "game"
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("SSH_AUTH_SOCK", "PBEM_DEBUG")}

    def take_terminal():
        import fcntl
        import termios
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen([sys.executable, "-m", "adjudicator", "new", str(game),
                             "--key", str(key)], stdin=slave, stdout=slave, stderr=slave,
                            env=env, start_new_session=True, preexec_fn=take_terminal)
    os.close(slave)
    seen = b""
    try:
        deadline = time.monotonic() + 60
        while b"Passphrase for" not in seen:
            assert time.monotonic() < deadline, seen
            ready, _, _ = select.select([master], [], [], 1)
            if ready:
                seen += os.read(master, 4096)
        os.write(master, PASSPHRASE.encode() + b"\n")
        assert proc.wait(timeout=60) == 0
        while select.select([master], [], [], 0.2)[0]:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert PASSPHRASE.encode() not in seen          # not echoed
    assert (game / "game.json").is_file()
    assert (game / ".secret" / "gm_key_path").read_text().strip() == str(key)


# --------------------------------------------------------------------------- key folders

def test_keys_new_creates_missing_folders_private(tmp_path, capsys):
    existing = tmp_path / "home"
    existing.mkdir(mode=0o755)
    existing.chmod(0o755)
    path = existing / ".ssh" / "pbem" / "gm"
    code, out = pbem(capsys, "keys", "new", path)
    assert code == 0, out
    for folder in (existing / ".ssh", existing / ".ssh" / "pbem"):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    assert stat.S_IMODE(existing.stat().st_mode) == 0o755       # left as it was
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert keys.same_key(keys.load_private_key(path), path.with_name("gm.pub"))
