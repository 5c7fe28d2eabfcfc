"""Prepared games kept between runs (io.gamecache, issue 24): the game from the cache is
the game built afresh, a changed data file or option is another entry, a damaged entry is
built again, and only the command line uses the cache."""

from __future__ import annotations

import shutil

import pytest

from adjudicator import editions
from adjudicator.io import gamecache, paths, usercache
from adjudicator.service.games import load_game


@pytest.fixture
def cache(private_cache):
    gamecache.use()
    yield private_cache
    gamecache.use(False)


def entries(folder):
    return sorted(p.name for p in folder.glob("game-*.pickle"))


@pytest.mark.parametrize("name, options", [
    *((n, None) for n in editions.names()),
    ("aa1941", {"turkish_straits": False, "short_game": True}),
])
def test_a_kept_game_is_the_game_built_afresh(name, options, cache):
    gamecache.use(False)
    fresh = load_game(name, options)
    gamecache.use()
    made = load_game(name, options)             # built, then kept
    assert len(entries(cache)) == 1
    kept = load_game(name, options)             # read back
    assert len(entries(cache)) == 1
    assert kept == fresh == made
    assert kept.content_hash == fresh.content_hash
    assert kept.geometry == fresh.geometry
    assert kept is not made


def test_options_and_a_changed_file_are_other_entries(tmp_path, cache):
    folder = tmp_path / "edition"
    shutil.copytree(paths.MAPS_DIR / "aa1941", folder, ignore=shutil.ignore_patterns("cases"))
    first = load_game(str(folder))
    load_game(str(folder), {"short_game": True})
    assert len(entries(cache)) == 2
    units = folder / "units.toml"
    text = units.read_text(encoding="utf-8")
    assert 'name = "Infantry"' in text
    units.write_text(text.replace('name = "Infantry"', 'name = "Foot"', 1), encoding="utf-8")
    changed = load_game(str(folder))
    assert len(entries(cache)) == 3
    assert changed.ruleset.units["infantry"].name == "Foot"
    assert first.ruleset.units["infantry"].name == "Infantry"
    assert changed.content_hash != first.content_hash


def test_a_damaged_entry_is_built_again(cache):
    game = load_game("aa1941")
    (entry,) = cache.glob("game-*.pickle")
    entry.write_bytes(b"not a pickle")
    assert load_game("aa1941") == game
    entry.write_bytes(b"")
    assert load_game("aa1941") == game


def test_an_entry_others_may_write_is_not_read(cache):
    game = load_game("aa1941")
    (entry,) = cache.glob("game-*.pickle")
    assert gamecache.load(entry.name) == ("aa1941", game)
    entry.chmod(0o666)
    assert gamecache.load(entry.name) is None
    assert load_game("aa1941") == game


def test_a_library_caller_gets_a_game_built_afresh(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path / "cache"))
    usercache.forget()
    try:
        assert not gamecache.enabled
        load_game("aa1941")
        assert not list((tmp_path / "cache").glob("game-*.pickle"))
    finally:
        usercache.forget()


def test_the_command_line_keeps_its_game_and_turns_the_cache_off_after(tmp_path, monkeypatch,
                                                                        capsys):
    from adjudicator.cli import main
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path / "cache"))
    usercache.forget()
    try:
        game = paths.ROOT / "turns" / "aa1941-example" / "game"
        assert main(["status", "-g", str(game)]) == 0
        first = capsys.readouterr().out
        assert len(list((tmp_path / "cache").glob("game-*.pickle"))) == 1
        assert main(["status", "-g", str(game)]) == 0
        assert capsys.readouterr().out == first
        assert not gamecache.enabled
    finally:
        usercache.forget()


def test_the_oldest_entries_go(cache):
    import os
    cache.mkdir(exist_ok=True)
    for i in range(gamecache.MAX_ENTRIES + 5):
        old = cache / f"game-{i:040x}.pickle"
        old.write_bytes(b"x")
        os.utime(old, ns=(i * 10**9, i * 10**9))
    load_game("aa1941")
    left = entries(cache)
    assert len(left) == gamecache.MAX_ENTRIES
    assert f"game-{0:040x}.pickle" not in left
    assert f"game-{gamecache.MAX_ENTRIES + 4:040x}.pickle" in left
