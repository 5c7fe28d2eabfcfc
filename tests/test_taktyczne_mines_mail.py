"""A sealed mine layout by email (docs/taktyczne-mines.md): two players and a game master,
each with an IMAP account on a real Dovecot and a login on a real SMTP server, all through
the ``pbem`` command line.  Blue seals a layout in his own copy and mails the minefield
line; Red's attack makes the turn wait for Blue; Blue's copy writes the reveal, which he
mails like any orders; the game master's published files never held a square before the
reveal, and every copy verifies at the end."""

from __future__ import annotations

import re

import attrs
import pytest

from adjudicator.cli import main
from adjudicator.io import keys
from adjudicator.io.rules_cases import parse_cases
from adjudicator.service import gamedir
from adjudicator.service.audit import verify_game
from adjudicator.service.games import load_game
from adjudicator.service.rules_cases import build_position
from mail_helpers import published
from mail_servers import PASSWORD, certs, dovecot, imap, smtp_imap  # noqa: F401
from test_taktyczne_mines_cli import POSITION, published_text

GAME_ID = "mines-by-mail"
POWERS = ("red", "blue")
ACCOUNT = {"red": "uk", "blue": "usa"}      # the test servers' mail users (mail_servers.USERS)
ENV = "PBEM_TEST_MAIL_PASSWORD"


def _servers(user: str, imap, smtp, certs) -> str:
    return (f'[inbox]\ntype = "imap"\nhost = "127.0.0.1"\nport = {imap.imaps_port}\n'
            f'username = "{user}"\npassword_env = "{ENV}"\nca_file = "{certs["ca"]}"\n'
            f'[send]\ntype = "smtp"\nhost = "127.0.0.1"\nport = {smtp.port}\n'
            f'security = "starttls"\nusername = "{user}"\npassword_env = "{ENV}"\n'
            f'ca_file = "{certs["ca"]}"\n')


def _run(*argv) -> None:
    code = main([str(a) for a in argv])
    assert code == 0, f"pbem {' '.join(map(str, argv))} exited with {code}"


@pytest.fixture
def table(tmp_path, imap, smtp_imap, certs, monkeypatch):
    monkeypatch.setenv(ENV, PASSWORD)
    gm, key_dir = tmp_path / "gm", tmp_path / "keys"
    key_dir.mkdir()
    records = {}
    for power in POWERS:
        keys.new_keypair(key_dir / power, f"{ACCOUNT[power]}@example.org")
        records[power] = {"key": str(key_dir / f"{power}.pub"), "email": f"{ACCOUNT[power]}@example.org"}
    game = load_game("taktyczne", options={"players": 2})
    state = build_position(game, parse_cases(POSITION)[0])
    gamedir.create_game(gm, game, GAME_ID, created="2026-11-27", players=records,
                        initial=attrs.evolve(state, game_id=GAME_ID), seeds=gamedir.demo_seeds(GAME_ID))
    (gm / "mail.toml").write_text(f'address = "gm@example.org"\nname = "Game Master"\n'
                                  f'{_servers("gm", imap, smtp_imap, certs)}')
    players = {}
    for power in POWERS:
        d = tmp_path / power
        d.mkdir()
        (d / "mail.toml").write_text(f'address = "{ACCOUNT[power]}@example.org"\n'
                                     f'game_master = "gm@example.org"\n'
                                     f'key = "{key_dir / power}"\n'
                                     f'{_servers(ACCOUNT[power], imap, smtp_imap, certs)}')
        players[power] = d
    return gm, players


def test_a_sealed_minefield_by_email(table, tmp_path, capsys):
    gm, players = table

    def round_trip(power, orders):
        _run("mail", "send", orders, "-g", players[power])
        _run("mail", "run", "-g", gm, "--demo-seeds")
        for d in players.values():
            _run("mail", "fetch", "-g", d)

    _run("mail", "run", "-g", gm, "--demo-seeds")
    for d in players.values():
        _run("mail", "fetch", "-g", d, "--id", GAME_ID)
    capsys.readouterr()
    _run("mines", "seal", "-g", players["blue"], "--power", "blue", "--area", "23", "A10", "M10")
    line = re.search(r"^minefield 23: sha256_[0-9a-f]{64}$", capsys.readouterr().out, re.M).group()
    sealed = tmp_path / "blue-1.txt"
    sealed.write_text(line + "\n", encoding="utf-8")
    round_trip("blue", sealed)
    attack = tmp_path / "red-2.txt"
    attack.write_text("move 2 tank_3 22 -> 23\n", encoding="utf-8")
    round_trip("red", attack)
    assert gamedir.current_state(gm)[0].extras["ts_mine_reveal"]["power"] == "blue"
    for d in (gm, *players.values()):         # nothing published holds a square
        assert not re.search(r"(?<![A-Za-z0-9])(A10|M10)(?![0-9])", published_text(d)), d
    assert not (gm / ".secret" / "mines-blue.json").exists()
    reveal = tmp_path / "blue-3.txt"
    _run("mines", "reveal", "-g", players["blue"], "-o", reveal)
    round_trip("blue", reveal)
    state, number = gamedir.current_state(gm)
    assert number == 3 and "ts_mine_reveal" not in state.extras and state.owners["23"] == "red"
    assert "reveal 23: A10 M10 salt_" in (gm / "orders" / "0003-blue.txt").read_text(encoding="utf-8")
    expected = published(gm)
    for power, d in players.items():
        assert published(d) == expected, power
        report = verify_game(d, load_game, expected_gm_key=gamedir.read_game(gm)[0].game_master)
        assert report.ok, (power, report.failure)
