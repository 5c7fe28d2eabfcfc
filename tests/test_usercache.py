"""The user's cache folder (io.usercache) and what it keeps: parsed TOML (io.tomlcache), the orders parser's
tables (io.parser).  Each entry is found by a hash of what it was made from, is read only
from a private folder and file, and gives exactly what computing it afresh gives."""

from __future__ import annotations

import marshal
import os
import tomllib

import pytest

from adjudicator.io import paths, tomlcache, usercache


@pytest.fixture
def cache(private_cache):
    return private_cache


def test_toml_is_parsed_once_and_a_changed_text_afresh(cache):
    text = (paths.MAPS_DIR / "aa1941" / "units.toml").read_text(encoding="utf-8")
    assert tomlcache.loads(text) == tomllib.loads(text)
    assert tomlcache.loads(text) == tomllib.loads(text)          # from the cache
    assert len(list(cache.glob("toml-*"))) == 1
    changed = text + "\n# a comment\n"
    assert tomlcache.loads(changed) == tomllib.loads(changed)
    assert len(list(cache.glob("toml-*"))) == 2
    with pytest.raises(tomllib.TOMLDecodeError):
        tomlcache.loads("a = ")


def test_a_file_others_may_write_is_not_read(cache):
    text = "a = 1\n"
    tomlcache.loads(text)
    (entry,) = cache.glob("toml-*")
    entry.write_bytes(marshal.dumps({"a": 666}))
    os.chmod(entry, 0o666)
    assert tomlcache.loads(text) == {"a": 1}
    os.chmod(entry, 0o600)
    assert tomlcache.loads(text) == {"a": 666}       # (how the check above is known to bite)


def test_an_open_folder_or_no_cache_turns_it_off(cache, monkeypatch):
    cache.mkdir(mode=0o700)
    os.chmod(cache, 0o777)
    assert usercache.cache_dir() is None
    usercache.forget()
    os.chmod(cache, 0o700)
    assert usercache.cache_dir() == cache
    usercache.forget()
    monkeypatch.setenv("PBEM_NO_CACHE", "1")
    assert usercache.cache_dir() is None and tomlcache.loads("a = 1") == {"a": 1}


def test_the_parser_tables_are_kept_per_grammar_text(cache):
    from adjudicator.io import parser
    grammar = parser.grammar_text(parser.ALL_KINDS)
    built = parser._build("start", grammar)
    (kept,) = cache.glob("lark-*")
    again = parser._build("start", grammar)              # loaded from the file
    sample = "buy 2 inf, 1 tank"
    assert built.parse(sample) == again.parse(sample)     # (rule names: str, not Token)
    parser._build("start", grammar + "\n// changed\n")
    assert len(list(cache.glob("lark-*"))) == 2 and kept.exists()


def test_the_verbs_of_every_kind_are_kept_and_a_bad_entry_is_ignored(cache):
    from adjudicator.io import parser
    every = parser._every_kind()                 # every registered kind, not only the fixed
    everything = parser._lark(every)
    afresh = {k: tuple(everything.get_terminal(t).pattern.to_regexp()
                       for t in parser.KINDS[k].verbs) for k in every}
    parser._foreign_verb_patterns.cache_clear()
    assert parser._foreign_verb_patterns() == afresh and afresh["bomb"]
    (kept,) = cache.glob("verbs-*")
    parser._foreign_verb_patterns.cache_clear()
    assert parser._foreign_verb_patterns() == afresh                 # read from the file
    kept.write_text('{"bomb": [1]}')
    parser._foreign_verb_patterns.cache_clear()
    assert parser._foreign_verb_patterns() == afresh                 # not the shape: made again
    parser._foreign_verb_patterns.cache_clear()
    assert parser._foreign_kind("bomb Germany with 1 bmr", ("buy", "move")) == "bomb"
    assert parser._foreign_kind("bombard Karelia", ("bomb",)) == "bombard"
    assert parser._foreign_kind("3 inf Karelia -> Ukraine", ("buy", "move")) is None
