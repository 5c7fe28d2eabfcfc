"""``pbem mail init``: a mail.toml to fill in for a game master's game, a player's copy and
a tournament, with every key documented once -- from the same table as docs/mail.md's
"Every key" (``service.mail.settings_keys``) -- that the mail settings loader reads."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

from adjudicator.service.mail import config
from adjudicator.service.mail.settings_keys import KEYS, ROLES, docs_table, template
from cli_helpers import pbem

DOCS = Path(__file__).resolve().parent.parent / "docs" / "mail.md"


def test_the_docs_table_is_the_key_table():
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("| key | default | meaning |")
    assert text[start:text.index("\n\n", start) + 1] == docs_table(), (
        "docs/mail.md's 'Every key' table differs from service/mail/settings_keys.KEYS: "
        "paste docs_table() into it")


def _names(key) -> list[str]:
    return key.name.split(" / ") if key.name else []


def test_every_key_the_loader_reads_is_documented_and_no_other():
    documented = {(k.table, n) for k in KEYS for n in _names(k)}
    documented |= {("", k.table) for k in KEYS if not k.name}
    known = {("", n) for n in config._TOP}
    known |= {("inbox", n) for n in config._IMAP | config._MAILDIR}
    known |= {("send", n) for n in config._SMTP | config._SENDMAIL | config._OUTBOX}
    known |= {("limits", n) for n in attrs.fields_dict(config.Limits)}
    assert documented == known


@pytest.mark.parametrize("role", ROLES)
def test_the_template_loads_and_names_each_key_once(role, tmp_path):
    text = template(role)
    (tmp_path / "mail.toml").write_text(text, encoding="utf-8")
    cfg = config.load_config(tmp_path)
    assert cfg.address == "you@example.org"
    assert cfg.inbox.host == "imap.example.org"
    assert cfg.send.kind == ("outbox" if role == "player" else "smtp")
    if role == "player":
        assert cfg.game_master == "gm@example.org"
    settings = re.findall(r"^(?:# )?([a-z_]+) = ", text, re.M)
    per_table, table = {}, ""
    for line in text.splitlines():
        if m := re.match(r"^(?:# )?\[(\w+)\]$", line):
            table = m.group(1)
        elif m := re.match(r"^(?:# )?([a-z_]+) = ", line):
            per_table.setdefault(table, []).append(m.group(1))
    for table, names in per_table.items():
        assert len(names) == len(set(names)), (table, names)
    assert settings                                    # and each has its meaning above it
    for key in KEYS:
        if role in key.roles and key.name and "/" not in key.name:
            assert f"{key.name} = {key.example}" in text, key.name


def test_pbem_mail_init_for_a_game_and_a_tournament(tmp_path, capsys):
    game = tmp_path / "g"
    code, out = pbem(capsys, "new", game, "--demo-seeds")
    assert code == 0, out
    code, out = pbem(capsys, "mail", "init", "-g", game)
    assert code == 0 and "Wrote" in out, out
    assert config.load_config(game).send.kind == "smtp"
    code, out = pbem(capsys, "mail", "init", "-g", game, "--player")
    assert code == 2 and "already exists" in out
    code, out = pbem(capsys, "mail", "init", "-g", game, "--player", "--force")
    assert code == 0 and config.load_config(game).game_master == "gm@example.org"

    cup = tmp_path / "cup"
    code, out = pbem(capsys, "tournament", "new", cup, "--name", "Cup", "--ruleset", "aa1941")
    assert code == 0, out
    code, out = pbem(capsys, "mail", "init", "--tournament", cup)
    assert code == 0, out
    assert "tournament mail run" in (cup / "mail.toml").read_text()
    assert config.load_config(cup).inbox.host == "imap.example.org"
    code, out = pbem(capsys, "mail", "init", "--tournament", game)
    assert code == 2 and "no tournament.toml" in out
