"""User-level mail defaults in the platform's config directory ($XDG_CONFIG_HOME/pbem on
Linux, through platformdirs) under each game's mail.toml: a player in several games writes
the address, key and inbox once; a game's own settings win, a game's table replaces the
user's whole table, and what belongs to one game is refused in the user file."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.service.mail.config import ConfigError, ImapConfig, MaildirConfig, load_config
from adjudicator.service.mail.defaults import user_config_path

USER = '''\
address = "hans@example.org"
name = "Hans"
key = "keys/pbem_hans"
poll_seconds = 120
[inbox]
type = "maildir"
path = "Maildir"
'''


@pytest.fixture
def config_home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    (home / "pbem").mkdir(parents=True)
    return home


def _game(tmp_path, name, text=None) -> Path:
    game = tmp_path / name
    game.mkdir()
    if text is not None:
        (game / "mail.toml").write_text(text, encoding="utf-8")
    return game


def test_the_user_file_is_in_the_xdg_config_directory(config_home):
    assert user_config_path() == config_home / "pbem" / "mail.toml"


def test_five_games_share_address_key_and_inbox(config_home, tmp_path):
    (config_home / "pbem" / "mail.toml").write_text(USER, encoding="utf-8")
    games = [_game(tmp_path, f"g{i}", 'game_master = "gm@example.org"\n') for i in range(5)]
    for game in games:
        cfg = load_config(game)
        assert cfg.address == "hans@example.org" and cfg.name == "Hans"
        assert cfg.game_master == "gm@example.org"
        assert cfg.key == config_home / "pbem" / "keys" / "pbem_hans"   # beside the user file
        assert isinstance(cfg.inbox, MaildirConfig)
        assert cfg.inbox.path == config_home / "pbem" / "Maildir"
        assert cfg.poll_seconds == 120
        assert cfg.state_path == game / ".mail"                         # still per game


def test_a_games_own_settings_win_and_its_table_replaces_the_users(config_home, tmp_path):
    (config_home / "pbem" / "mail.toml").write_text(USER, encoding="utf-8")
    game = _game(tmp_path, "g", 'address = "other@example.org"\nkey = "mine"\n'
                 '[inbox]\ntype = "imap"\nhost = "imap.example.org"\nusername = "u"\n'
                 'password_env = "PW"\n')
    cfg = load_config(game)
    assert cfg.address == "other@example.org" and cfg.key == game / "mine"
    assert isinstance(cfg.inbox, ImapConfig) and cfg.inbox.host == "imap.example.org"
    assert cfg.poll_seconds == 120                                    # not given here: the user's


def test_a_game_without_its_own_file_uses_the_defaults(config_home, tmp_path):
    (config_home / "pbem" / "mail.toml").write_text(USER, encoding="utf-8")
    assert load_config(_game(tmp_path, "g")).address == "hans@example.org"


def test_without_either_file_the_message_says_where(config_home, tmp_path):
    with pytest.raises(ConfigError, match="no mail settings"):
        load_config(_game(tmp_path, "g"))


@pytest.mark.parametrize("line", ['players = { ussr = "ivan@example.org" }',
                                  'game_master = "gm@example.org"', 'state_dir = "x"'])
def test_per_game_settings_are_refused_in_the_user_file(config_home, tmp_path, line):
    user = config_home / "pbem" / "mail.toml"
    user.write_text(f"{line}\n" + USER, encoding="utf-8")
    with pytest.raises(ConfigError, match=f"{user}: .*belongs in a game's own mail.toml"):
        load_config(_game(tmp_path, "g", ""))


def test_unknown_key_in_the_user_file_is_an_error(config_home, tmp_path):
    (config_home / "pbem" / "mail.toml").write_text(USER.replace("poll_seconds", "pol_seconds"),
                                                    encoding="utf-8")
    with pytest.raises(ConfigError, match=r"pbem/mail.toml: pol_seconds: unknown setting"):
        load_config(_game(tmp_path, "g", ""))
