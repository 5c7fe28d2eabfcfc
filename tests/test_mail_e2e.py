"""A whole round of the bundled 1941 example played by email: five players and a game
master, each with an IMAP account on a real Dovecot and a login on a real SMTP server
(STARTTLS), all through the ``pbem`` command line.  Every player has a registered key,
so ``pbem mail send`` signs the orders (with game:/turn: headers) and the game master
accepts only signed orders.  At the end every player's copy of the game equals the game
master's published files and passes ``pbem verify``."""

from __future__ import annotations

import email
import email.policy

import pytest

from adjudicator.cli import main
from adjudicator.service.games import load_game
from adjudicator.service import gamedir
from adjudicator.service.audit import verify_game
from mail_helpers import PASSWORD_ENV as ENV, EXAMPLE_ORDERS, mail_folders, player_keys, published
from mail_servers import PASSWORD, certs, dovecot, imap, smtp_imap  # noqa: F401

GAME_ID = "aa1941-example"        # the example's orders were written for its demo dice
POWERS = ("ussr", "germany", "uk", "japan", "usa")


@pytest.fixture
def table(tmp_path, imap, smtp_imap, certs, monkeypatch):
    """The game master's directory and one empty directory per player, with mail.toml."""
    monkeypatch.setenv(ENV, PASSWORD)
    gm, key_dir = tmp_path / "gm", tmp_path / "keys"
    accounts = {power: power for power in POWERS}
    records = player_keys(key_dir, accounts, name=str.upper)
    gamedir.create_game(gm, load_game("aa1941"), GAME_ID, created="2026-03-01", players=records,
                        seeds=gamedir.demo_seeds(GAME_ID))
    players = mail_folders(tmp_path, gm, key_dir, accounts, imap, smtp_imap, certs)
    return gm, players


def _run(*argv) -> None:
    code = main([str(a) for a in argv])
    assert code == 0, f"pbem {' '.join(map(str, argv))} exited with {code}"


def test_a_round_by_email(table, imap, smtp_imap, capsys):
    gm, players = table
    _run("mail", "run", "-g", gm, "--demo-seeds")               # welcome mails out
    for power, d in players.items():
        _run("mail", "fetch", "-g", d, "--id", GAME_ID)
        assert (d / "game.json").read_bytes() == (gm / "game.json").read_bytes()

    # Germany asks for a check out of turn: a reply, and nothing changes.
    _run("mail", "send", EXAMPLE_ORDERS[1], "-g", players["germany"], "--check")
    _run("mail", "run", "-g", gm, "--demo-seeds")
    replies = [email.message_from_bytes(m, policy=email.policy.default)
               for m in imap.messages("germany")]
    check = [m for m in replies if "Check: 6 error(s)" in m["Subject"]]
    assert len(check) == 1 and "It is not Germany's turn" in check[0].get_body(("plain",)).get_content()
    assert gamedir.current_state(gm)[1] == 0

    for orders in EXAMPLE_ORDERS:                                 # 01-ussr.txt ... 05-usa.txt
        power = orders.stem.split("-", 1)[1]
        _run("mail", "send", orders, "-g", players[power])
        _run("mail", "run", "-g", gm, "--demo-seeds")
        for d in players.values():
            _run("mail", "fetch", "-g", d)
    capsys.readouterr()

    assert gamedir.current_state(gm)[1] == len(EXAMPLE_ORDERS)
    assert imap.count("gm", "processed") == len(EXAMPLE_ORDERS) + 1 and imap.count("gm") == 0
    assert imap.count("gm", "rejected") == 0
    # The orders went in signed, with their game and turn named.
    accepted = (gm / "orders" / "0003-uk.txt").read_text(encoding="utf-8")
    assert accepted.startswith(f"game: {GAME_ID}\nturn: 3\n")
    assert gamedir.read_game(gm)[0].players["uk"].key
    expected = published(gm)
    assert len([k for k in expected if k.startswith("turns/") and k.endswith(".json")]) == 5
    for power, d in players.items():
        assert published(d) == expected, power
        report = verify_game(d, load_game, expected_gm_key=gamedir.read_game(gm)[0].game_master)
        assert report.ok, (power, report.failure)
    # Each player got the welcome and one result per turn, once.
    for power in POWERS:
        subjects = [email.message_from_bytes(m, policy=email.policy.default)["Subject"]
                    for m in imap.messages(power)]
        assert sum("played" in s for s in subjects) == 5, subjects
        assert sum("has started" in s for s in subjects) == 1
    _run("status", "-g", players["uk"])
    out = capsys.readouterr().out
    assert "turn 6 (round 2), Soviet Union to move" in out
    assert "last: turn 5, United States" in out
