"""SSHSIG signatures and OpenSSH keys, including interoperability with stock ssh-keygen."""

from __future__ import annotations

import base64
import os
import shutil
import stat
import subprocess

import pytest

from adjudicator.io import keys
from adjudicator.io import sshsig
from adjudicator.model.errors import PbemError
from adjudicator.io.sshsig import SignatureError

SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh_keygen = pytest.mark.skipif(SSH_KEYGEN is None, reason="ssh-keygen not installed")

DATA = "turn file contents ♞\n".encode("utf-8")


@pytest.fixture
def key(tmp_path):
    return keys.new_keypair(tmp_path / "gm", "gm@example")


def _check(exc_info, check):
    assert exc_info.value.check == check, str(exc_info.value)


# --------------------------------------------------------------------------- ours <-> ours

def test_sign_verify(key, tmp_path):
    armored = sshsig.sign(DATA, key, "pbem-turn")
    lines = armored.splitlines()
    assert lines[0] == "-----BEGIN SSH SIGNATURE-----"
    assert lines[-1] == "-----END SSH SIGNATURE-----"
    assert all(len(line) <= 70 for line in lines[1:-1]) and len(lines[1]) == 70
    assert armored.endswith("\n")
    blob = base64.b64decode("".join(lines[1:-1]))
    assert blob.startswith(b"SSHSIG\x00\x00\x00\x01")
    pub_line = (tmp_path / "gm.pub").read_text()
    sshsig.verify(DATA, armored, pub_line, "pbem-turn", strict=True)
    sshsig.verify(DATA, armored, tmp_path / "gm.pub", "pbem-turn")
    sshsig.verify(DATA, armored.encode(), key.public_key(), "pbem-turn")
    assert keys.same_key(sshsig.signer(armored), key)
    parsed = sshsig.parse(armored)
    assert parsed.namespace == "pbem-turn" and parsed.hash_alg == "sha512"


def test_deterministic(key):
    # Ed25519 is deterministic: same data, same key, same namespace -> same bytes.
    assert sshsig.sign(DATA, key, "pbem-turn") == sshsig.sign(DATA, key, "pbem-turn")


def test_tampered_data(key):
    armored = sshsig.sign(DATA, key, "pbem-turn")
    with pytest.raises(SignatureError) as e:
        sshsig.verify(DATA + b" ", armored, key.public_key(), "pbem-turn")
    _check(e, "signature")


def test_wrong_namespace(key):
    armored = sshsig.sign(DATA, key, "pbem-orders")
    with pytest.raises(SignatureError) as e:
        sshsig.verify(DATA, armored, key.public_key(), "pbem-turn")
    _check(e, "namespace")
    assert "pbem-orders" in str(e.value)


def test_wrong_key(key, tmp_path):
    other = keys.new_keypair(tmp_path / "other")
    armored = sshsig.sign(DATA, other, "pbem-turn")
    with pytest.raises(SignatureError) as e:
        sshsig.verify(DATA, armored, key.public_key(), "pbem-turn")
    _check(e, "key")
    assert keys.fingerprint(other) in str(e.value)


def test_forged_key_field(key, tmp_path):
    # Signed by `other` but claims to be by `key`: the signature check fails.
    other = keys.new_keypair(tmp_path / "other")
    good = sshsig.parse(sshsig.sign(DATA, other, "pbem-turn")).blob
    mine = sshsig.public_key_blob(key.public_key())
    theirs = sshsig.public_key_blob(other.public_key())
    forged = sshsig.armor(good.replace(theirs, mine))
    with pytest.raises(SignatureError) as e:
        sshsig.verify(DATA, forged, key.public_key(), "pbem-turn")
    _check(e, "signature")


@pytest.mark.parametrize("text", [
    "", "hello", "-----BEGIN SSH SIGNATURE-----\n!!!\n-----END SSH SIGNATURE-----\n",
    "-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----\n",
    "-----BEGIN SSH SIGNATURE-----\n" + base64.b64encode(b"SSHSIG\0\0\0\1\0\0").decode()
    + "\n-----END SSH SIGNATURE-----\n",
])
def test_bad_armor(key, text):
    with pytest.raises(SignatureError) as e:
        sshsig.verify(DATA, text, key.public_key(), "pbem-turn")
    _check(e, "armor")


def test_bad_armor_bytes(key):
    with pytest.raises(SignatureError) as e:
        sshsig.verify(DATA, b"\xff\xfe", key.public_key(), "pbem-turn")
    _check(e, "armor")


def test_strict_armor(key):
    armored = sshsig.sign(DATA, key, "pbem-turn")
    loose = armored.replace("\n", "\r\n")
    sshsig.verify(DATA, loose, key.public_key(), "pbem-turn")      # lenient by default
    with pytest.raises(SignatureError) as e:
        sshsig.verify(DATA, loose, key.public_key(), "pbem-turn", strict=True)
    _check(e, "armor")


def test_non_ed25519_signer_rejected():
    with pytest.raises(PbemError):
        sshsig.sign(DATA, object(), "pbem-turn")


# --------------------------------------------------------------------------- keys

def test_new_keypair_files(tmp_path):
    key = keys.new_keypair(tmp_path / "k", "some comment")
    assert stat.S_IMODE(os.stat(tmp_path / "k").st_mode) == 0o600
    pub = (tmp_path / "k.pub").read_text()
    assert pub.startswith("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5") and pub.endswith(" some comment\n")
    assert (tmp_path / "k").read_text().startswith("-----BEGIN OPENSSH PRIVATE KEY-----")
    loaded = keys.load_private_key(tmp_path / "k")
    assert keys.same_key(loaded, key) and keys.same_key(tmp_path / "k.pub", key)
    with pytest.raises(PbemError, match="refusing to overwrite"):
        keys.new_keypair(tmp_path / "k")
    assert keys.load_private_key(tmp_path / "k").private_bytes_raw() == key.private_bytes_raw()


def test_load_public_key_forms(key, tmp_path):
    line = keys.public_key_line(key, "x y")
    assert line.endswith(" x y")
    for form in (line, "player1 " + line, tmp_path / "gm.pub", str(tmp_path / "gm.pub"),
                 key.public_key(), key):
        assert keys.same_key(keys.load_public_key(form), key)
    (tmp_path / "with-comments.pub").write_text("# a comment\n\n" + line + "\n")
    assert keys.same_key(tmp_path / "with-comments.pub", key)


def test_key_errors(tmp_path):
    with pytest.raises(PbemError, match="not found"):
        keys.load_private_key(tmp_path / "missing")
    (tmp_path / "junk").write_text("not a key")
    with pytest.raises(PbemError, match="not an OpenSSH private key"):
        keys.load_private_key(tmp_path / "junk")
    with pytest.raises(PbemError, match="not found"):
        keys.load_public_key(tmp_path / "missing.pub")
    with pytest.raises(PbemError, match="not a valid"):
        keys.load_public_key("ssh-ed25519 AAAAnotbase64!!")
    with pytest.raises(PbemError, match="only ssh-ed25519"):
        keys.load_public_key("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ== x")
    (tmp_path / "empty.pub").write_text("")
    with pytest.raises(PbemError, match="empty"):
        keys.load_public_key(tmp_path / "empty.pub")


# --------------------------------------------------------------------------- ssh-keygen

def _run(args, stdin=None):
    return subprocess.run(args, stdin=stdin, capture_output=True, text=True, timeout=30)


@needs_ssh_keygen
def test_fingerprint_matches_ssh_keygen(key, tmp_path):
    r = _run([SSH_KEYGEN, "-l", "-f", str(tmp_path / "gm.pub")])
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[1] == keys.fingerprint(key)


@needs_ssh_keygen
def test_ssh_keygen_verifies_ours(key, tmp_path):
    data = tmp_path / "turn.json"
    data.write_bytes(DATA)
    sig = tmp_path / "turn.json.sig"
    sig.write_text(sshsig.sign(DATA, key, "pbem-turn"))
    allowed = tmp_path / "allowed_signers"
    allowed.write_text("gm " + (tmp_path / "gm.pub").read_text())
    cmd = [SSH_KEYGEN, "-Y", "verify", "-f", str(allowed), "-I", "gm", "-n", "pbem-turn",
           "-s", str(sig)]
    with open(data, "rb") as fh:
        r = _run(cmd, fh)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Good" in r.stdout + r.stderr
    # tampered data, wrong namespace: ssh-keygen refuses too
    (tmp_path / "bad").write_bytes(DATA + b"x")
    with open(tmp_path / "bad", "rb") as fh:
        assert _run(cmd, fh).returncode != 0
    with open(data, "rb") as fh:
        assert _run(cmd[:-3] + ["pbem-orders", "-s", str(sig)], fh).returncode != 0
    # our private key file is usable by ssh-keygen itself
    r = _run([SSH_KEYGEN, "-y", "-f", str(tmp_path / "gm")])
    assert r.returncode == 0 and keys.same_key(r.stdout, key)


@needs_ssh_keygen
def test_we_verify_ssh_keygen(tmp_path):
    k = tmp_path / "player"
    r = _run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-C", "player", "-f", str(k)])
    assert r.returncode == 0, r.stderr
    orders = tmp_path / "orders.txt"
    orders.write_bytes("germany: attack karelia ♞\n".encode())
    r = _run([SSH_KEYGEN, "-Y", "sign", "-f", str(k), "-n", "pbem-orders", str(orders)])
    assert r.returncode == 0, r.stderr
    armored = (tmp_path / "orders.txt.sig").read_text()
    pub = (tmp_path / "player.pub").read_text()
    sshsig.verify(orders.read_bytes(), armored, pub, "pbem-orders", strict=True)
    # and their private key loads and signs identically (Ed25519 is deterministic)
    assert sshsig.sign(orders.read_bytes(), keys.load_private_key(k), "pbem-orders") == armored
    with pytest.raises(SignatureError) as e:
        sshsig.verify(orders.read_bytes() + b"\n", armored, pub, "pbem-orders")
    _check(e, "signature")
    with pytest.raises(SignatureError) as e:
        sshsig.verify(orders.read_bytes(), armored, pub, "pbem-turn")
    _check(e, "namespace")
    other = keys.new_keypair(tmp_path / "other")
    with pytest.raises(SignatureError) as e:
        sshsig.verify(orders.read_bytes(), armored, other.public_key(), "pbem-orders")
    _check(e, "key")


@needs_ssh_keygen
def test_sha256_signature_from_ssh_keygen(tmp_path):
    k = tmp_path / "k"
    _run([SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-f", str(k)])
    f = tmp_path / "f"
    f.write_bytes(b"abc")
    r = _run([SSH_KEYGEN, "-Y", "sign", "-f", str(k), "-n", "pbem-orders", "-O",
              "hashalg=sha256", str(f)])
    if r.returncode != 0:
        pytest.skip("this ssh-keygen cannot choose the hash algorithm")
    armored = (tmp_path / "f.sig").read_text()
    assert sshsig.parse(armored).hash_alg == "sha256"
    sshsig.verify(b"abc", armored, (tmp_path / "k.pub").read_text(), "pbem-orders")
