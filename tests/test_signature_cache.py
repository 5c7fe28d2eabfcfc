"""A signature verified once is not checked again (io.signature_cache, issue 24), and the
cache never lets a changed file or signature through."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from adjudicator.io import layout, paths, signature_cache, usercache
from adjudicator.model.errors import PbemError
from adjudicator.service import gamedir

GAME = paths.ROOT / "turns" / "aa1941-example" / "game"


@pytest.fixture
def cache(private_cache):
    gamedir._GAMES_READ.clear()
    yield private_cache
    gamedir._GAMES_READ.clear()


def entries(folder):
    return sorted(p.name for p in folder.glob("verified-sig-*"))


def test_a_verified_signature_is_remembered_and_a_changed_byte_is_verified_again(tmp_path, cache):
    game = tmp_path / "game"
    shutil.copytree(GAME, game)
    gamedir.read_game(game)
    assert len(entries(cache)) == 1
    gamedir._GAMES_READ.clear()
    gamedir.read_game(game)                       # from the cache: no new entry
    assert len(entries(cache)) == 1
    path = layout.game_file_path(game)
    data = path.read_bytes()
    path.write_bytes(data.replace(b'"round": 1', b'"round": 2', 1))
    assert path.read_bytes() != data
    gamedir._GAMES_READ.clear()
    with pytest.raises(PbemError, match="signature does not verify"):
        gamedir.read_game(game)
    assert len(entries(cache)) == 1               # a failure is not remembered


def test_another_key_or_signature_is_another_entry(cache):
    args = ("pbem-turn", "ssh-ed25519 AAAA key", b"data", b"signature")
    assert not signature_cache.known(*args)
    signature_cache.remember(*args)
    assert signature_cache.known(*args)
    for i, other in ((1, "ssh-ed25519 AAAA other"), (2, b"data!"), (3, b"signature\n"),
                     (0, "pbem-orders")):
        changed = list(args)
        changed[i] = other
        assert not signature_cache.known(*changed), i


def test_an_entry_others_may_write_is_not_trusted(cache):
    args = ("pbem-turn", "key", b"data", b"sig")
    signature_cache.remember(*args)
    (entry,) = cache.glob("verified-sig-*")
    entry.chmod(0o666)
    assert not signature_cache.known(*args)


def test_without_a_cache_every_signature_is_checked(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_NO_CACHE", "1")
    usercache.forget()
    try:
        args = ("pbem-turn", "key", b"data", b"sig")
        signature_cache.remember(*args)
        assert not signature_cache.known(*args)
    finally:
        usercache.forget()


def test_status_loads_no_cryptography_once_its_signatures_are_known(tmp_path):
    code = ("import sys\nfrom adjudicator.cli import main\nmain(sys.argv[1:])\n"
            "print('CRYPTO', any(m.startswith('cryptography') for m in sys.modules))\n")
    env = {**__import__("os").environ, "PBEM_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PBEM_NO_CACHE", None)
    runs = [subprocess.run([sys.executable, "-c", code, "status", "-g", str(GAME)],
                           capture_output=True, text=True, env=env, cwd=paths.ROOT)
            for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr
    assert "CRYPTO True" in runs[0].stdout               # verified the first time
    assert "CRYPTO False" in runs[1].stdout
    assert runs[0].stdout.split("CRYPTO")[0] == runs[1].stdout.split("CRYPTO")[0]
