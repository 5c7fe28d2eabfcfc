"""Settings files written by a TOML library survive hostile strings: Windows paths, quotes,
backslashes, newlines, unicode.  ``pbem tournament new`` writes tournament.toml through
tomlkit (keeping the template's comments); mail.toml is written here by tomlkit as a user's
tool would and read back through the mail layer's reader."""

from __future__ import annotations

import shlex
import tomllib

import pytest

import helpers
import tomlkit
from hypothesis import given, settings, strategies as st

from adjudicator.cli import main
from adjudicator.service.mail.config import load_config as load_mail_config
from adjudicator.service.tournament.config import KNOWN_KEYS, load_config, template

HOSTILE = ["Cup C:\\Games", 'The "Grand" Cup', "O'Neil's \\\\ cup", "Coupe d'été — 日本 🎲",
           "'''", '"""', "#not a comment", "a = 1 [format]", "\\u0041 \\n", "trailing \\"]
UNPRINTABLE = ["two\nlines", "a = 1\n[format]\nkind = 'x'", "tab\there", "nul\x00byte",
               "del\x7f", "\u2028"]


@pytest.mark.parametrize("name", HOSTILE + UNPRINTABLE)
def test_template_writes_any_string(name):
    text = template(name, "cup", "aa1941")
    doc = tomllib.loads(text)
    assert doc["name"] == name and doc["id"] == "cup" and doc["ruleset"] == "aa1941"
    assert set(doc) == KNOWN_KEYS[""]                   # nothing injected
    assert "# shown in notices, standings and pages" in text              # comments kept


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_template_round_trips_every_text(name):
    assert tomllib.loads(template(name, "cup", "aa1941"))["name"] == name


@pytest.mark.parametrize("name", HOSTILE)
def test_tournament_new_keeps_the_name_exactly(tmp_path, capsys, name):
    directory = tmp_path / "cup"
    assert main(["tournament", "new", str(directory), "--name", name]) == 0, capsys.readouterr()
    assert load_config(directory).name == name


@pytest.mark.parametrize("name", UNPRINTABLE)
def test_tournament_new_refuses_a_name_it_cannot_show_and_writes_nothing(tmp_path, capsys, name):
    directory = tmp_path / "cup"
    assert main(["tournament", "new", str(directory), "--name", name]) == 2
    assert "printable" in capsys.readouterr().err
    assert not directory.exists()


@pytest.mark.parametrize("text", HOSTILE)
def test_mail_toml_written_by_a_library_reads_back(tmp_path, text):
    doc = tomlkit.document()
    doc["address"] = "gm@example.org"
    doc["name"] = text
    inbox = tomlkit.table()
    inbox.update({"type": "imap", "host": "imap.example.org", "username": text,
                  "password_command": shlex.join(["pass", "show", text])})
    doc["inbox"] = inbox
    (tmp_path / "mail.toml").write_text(tomlkit.dumps(doc), encoding="utf-8")
    cfg = load_mail_config(tmp_path)
    assert cfg.name == text and cfg.inbox.username == text
    assert cfg.inbox.password.command == ("pass", "show", text)


@pytest.mark.parametrize("text", HOSTILE + UNPRINTABLE)
def test_geometry_script_quotes_names_through_the_library(text):
    """scripts/make_geometry.py writes names and labels with tomlkit's quoting."""
    pytest.importorskip("scipy", reason="scripts/make_geometry.py needs the 'geometry' extra")
    module = helpers.script("make_geometry")
    assert tomllib.loads(f"name = {module.quote(text)}\n")["name"] == text
