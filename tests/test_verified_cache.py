"""``pbem process`` does not verify again what it verified before (issue 11): the
verified-prefix cache in ``.secret/`` is keyed by the digest of every published file, and
no changed, added or removed file ever passes because of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.io import keys, sshsig
from adjudicator.io.codec import canonical_json
from adjudicator.io.paths import TURNS_DIR
from adjudicator.model.errors import PbemError
from adjudicator.service import audit, gamedir, verified_cache
from adjudicator.service.games import load_game

ORDERS = sorted((TURNS_DIR / "aa1941-example" / "orders").glob("*.txt"))
GAME = load_game("aa1941")


@pytest.fixture
def audits(monkeypatch):
    """Counts full verifications of the published files."""
    calls: list[str] = []
    real = audit.verify_game

    def counting(directory, *args, **kwargs):
        calls.append(str(directory))
        return real(directory, *args, **kwargs)

    monkeypatch.setattr(audit, "verify_game", counting)
    return calls


def new_game(tmp_path: Path, turns: int) -> Path:
    directory = tmp_path / "game"
    seeds = gamedir.demo_seeds("game")
    gamedir.create_game(directory, GAME, "game", created="2026-01-01", seeds=seeds)
    for path in ORDERS[:turns]:
        gamedir.process_turn(directory, GAME, path.read_bytes(), seeds=seeds)
    return directory


def process_next(directory: Path, number: int):
    return gamedir.process_turn(directory, GAME, ORDERS[number].read_bytes(),
                                seeds=gamedir.demo_seeds("game"))


def test_each_turn_is_verified_once(tmp_path, audits):
    directory = new_game(tmp_path, 3)
    assert len(audits) == 1                   # the first turn verified game.json; then none
    bad = tmp_path / "bad.txt"
    bad.write_text("combat:\nmove 3 inf Karelia -> Germany\n")
    with pytest.raises(PbemError):            # rejected orders: nothing written, cache kept
        gamedir.process_turn(directory, GAME, bad.read_bytes(), seeds=gamedir.demo_seeds("game"))
    assert len(audits) == 1
    cache = json.loads(verified_cache.cache_path(directory).read_bytes())
    assert cache["files"] == verified_cache.published_digests(directory)
    assert len(cache["files"]) == 2 + 3 * 3
    assert not verified_cache.cache_path(directory).stat().st_mode & 0o077
    report = audit.verify_game(directory)      # what the cache skipped is really sound
    assert report.ok and report.turns_checked == 3


def published_files(directory: Path) -> list[Path]:
    return sorted([directory / "game.json", directory / "game.json.sig",
                   *(directory / "turns").iterdir(), *(directory / "orders").iterdir()])


@pytest.mark.parametrize("change", ["byte", "remove", "add"])
def test_any_change_to_a_published_file_means_a_full_verification(tmp_path, change):
    directory = new_game(tmp_path, 2)
    from adjudicator.io.parser import format_orders, parse_orders
    key = verified_cache.cache_key(GAME, parse_orders, format_orders)
    assert verified_cache.still_verified(directory, key)
    for path in published_files(directory):
        original = path.read_bytes()
        extra = path.with_name("0099-germany.txt") if path.parent.name == "orders" else None
        if change == "byte":
            path.write_bytes(original[:-1] + bytes([original[-1] ^ 1]))
        elif change == "remove":
            path.unlink()
        elif extra is not None:
            extra.write_bytes(b"move 1 inf Germany -> Poland\n")
        else:
            continue
        assert not verified_cache.still_verified(directory, key), path
        path.write_bytes(original)
        if extra is not None:
            extra.unlink(missing_ok=True)
        assert verified_cache.still_verified(directory, key)


def test_a_changed_and_resigned_turn_is_caught_although_it_was_verified(tmp_path, audits):
    directory = new_game(tmp_path, 1)
    path = sorted((directory / "turns").glob("*.json"))[0]
    doc = json.loads(path.read_bytes())
    faces = doc["dice"][0]["faces"]
    faces[0] = 1 if faces[0] != 1 else 2
    path.write_bytes(canonical_json(doc))
    gm = keys.load_private_key(directory / ".secret" / "gm_ed25519")
    path.with_name(path.name + ".sig").write_text(sshsig.sign(path.read_bytes(), gm, "pbem-turn"))
    cache = verified_cache.cache_path(directory).read_bytes()
    audits.clear()
    with pytest.raises(PbemError, match="dice"):
        process_next(directory, 1)
    assert len(audits) == 1
    assert verified_cache.cache_path(directory).read_bytes() == cache   # nothing written
    with pytest.raises(PbemError, match="dice"):
        process_next(directory, 1)
    assert len(audits) == 2


@pytest.mark.parametrize("junk", [b"", b"{", b"[]", b'{"key": {}, "files": {}}'])
def test_a_broken_cache_is_a_full_verification(tmp_path, audits, junk):
    directory = new_game(tmp_path, 2)
    verified_cache.cache_path(directory).write_bytes(junk)
    audits.clear()
    process_next(directory, 2)
    assert len(audits) == 1
    audits.clear()
    process_next(directory, 3)               # and the cache is good again
    assert audits == []


def test_a_cache_of_other_rules_is_not_used(tmp_path, audits):
    directory = new_game(tmp_path, 2)
    path = verified_cache.cache_path(directory)
    doc = json.loads(path.read_bytes())
    doc["key"]["rules"] = "sha256:" + "0" * 64
    path.write_text(json.dumps(doc))
    audits.clear()
    process_next(directory, 2)
    assert len(audits) == 1
