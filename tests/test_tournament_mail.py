"""``pbem tournament mail run``: one tournament inbox (a Maildir here; the servers' test is
test_tournament_mail_e2e.py) for the bids, every game's orders, concessions sent off-turn
and absences; hostile mail gets a reply or is set aside while the rest is processed."""

from __future__ import annotations

import email
import email.policy
import mailbox
from email.message import EmailMessage
from pathlib import Path

import pytest

from adjudicator.cli import main
from adjudicator.cli.mail_command import mail_renderers
from adjudicator.service import gamedir
from adjudicator.service.tournament import bids, organiser
from adjudicator.service.tournament.mail_pass import mail_pass
from tournament_helpers import START, make_tournament

RENDERERS = mail_renderers()


def _setup(tmp_path: Path, players: int = 2, method: str = "bid"):
    tdir, _ = make_tournament(tmp_path, players, sides__method=f'"{method}"')
    inbox = tmp_path / "inbox"
    (tdir / "mail.toml").write_text('address = "cup@example.org"\nname = "Cup"\n'
                                    '[inbox]\ntype = "maildir"\npath = "../inbox"\n')
    return tdir, mailbox.Maildir(inbox, create=True)


def _send(box, sender: str, subject: str, body: str) -> None:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = sender, "cup@example.org", subject
    m["Message-ID"] = email.utils.make_msgid()
    m.set_content(body)
    box.add(bytes(m))


def _outbox(directory: Path) -> list:
    return [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in sorted((directory / ".mail" / "outbox").glob("*.eml"))]


def _body(msg) -> str:
    return msg.get_body(("plain",)).get_content()


def _pass(tdir, now=START):
    return mail_pass(tdir, renderers=RENDERERS, now=now)


def test_bids_orders_and_an_off_turn_concession_by_mail(tmp_path):
    tdir, box = _setup(tmp_path)
    plan = organiser.pair(tdir, START)
    game = plan.pairings[0].game
    pairing_mail = next(m for m in _outbox(tdir) if "Pairings of round 1" in m["Subject"])
    assert "[pbem cup]" in pairing_mail["Subject"]
    assert "reply with the line 'commit sha256:...'" in _body(pairing_mail)
    nonces = {}
    for amount, pid in enumerate(plan.pairings[0].players):
        nonces[pid] = bids.new_nonce()
        digest = bids.commitment("cup", game, pid, amount * 3, nonces[pid])
        _send(box, f"{pid}@example.org", "Re: [Cup] Pairings of round 1 [pbem cup]",
              f"> quoted pairing\ncommit {digest}\n")
    # Hostile or mistaken mail beside them: none of it stops the others.
    _send(box, "evil@example.org", f"[pbem {game}] commit", "commit sha256:" + "0" * 64)
    _send(box, "p00@example.org", "[pbem nosuch] hello", "reveal 3 abc")
    box.add(b"From: p01@example.org\nSubject: [pbem cup]\nContent-Type: multipart/mixed; "
            b"boundary=x\n\n--x\nContent-Type: text/plain; charset=bogus-charset\n\n\xff\xfe\n")
    result = _pass(tdir)
    assert result.desk.outcomes["bid-committed"] == 2 and not result.errors
    assert result.desk.outcomes["unknown-sender"] == 1
    assert result.desk.outcomes["unknown-game"] == 1
    replies = {m["Subject"]: m for m in _outbox(tdir) if m["Subject"].startswith("[pbem cup]")}
    assert "[pbem cup] No such game" in replies
    sealed = next(m for m in _outbox(tdir) if "both bids are sealed" in m["Subject"])
    assert f"[pbem {game}]" in sealed["Subject"] and "'reveal AMOUNT NONCE'" in _body(sealed)
    assert "pbem tournament" not in _body(sealed)            # no organiser command to run

    for amount, pid in enumerate(plan.pairings[0].players):
        _send(box, f"{pid}@example.org", f"Re: [pbem {game}] both sealed",
              f"reveal {amount * 3} {nonces[pid]}\n")
    result = _pass(tdir)
    assert result.created == [game]                        # bid 0: nothing to place
    status = organiser.status(tdir, START)[0]
    assert status.state == "running" and status.sides["Allies"] == "p00"

    gdir = tdir / "games" / game
    for turn in (1, 2):
        state, _ = gamedir.current_state(gdir)
        mover = organiser.status(tdir, START)[0].player
        _send(box, f"{mover}@example.org", f"Re: [pbem {game}] your turn",
              f"power: {state.power}\npass\n")
        assert _pass(tdir).games[game].startswith("1 processed")
    reports = [m for m in _outbox(gdir) if "Turn 2 (round 1): Germany played" in m["Subject"]]
    assert sorted(m["To"] for m in reports) == ["p00@example.org", "p01@example.org"]
    sizes = [p.stat().st_size for p in (gdir / ".mail" / "outbox").glob("turn-*.eml")]
    assert len(sizes) == 4 and max(sizes) < 150 * 1024      # light: 708 KB before the zip

    # Germany (p01) concedes while the United Kingdom (p00) is to move.
    _send(box, "p01@example.org", f"[pbem {game}] I give up", "concede\n")
    result = _pass(tdir)
    assert result.desk.outcomes["conceded"] == 1
    over = organiser.status(tdir, START)[0]
    assert over.state == "over" and "Player 00" in over.result
    standings = next(m for m in _outbox(tdir) if "Final standings" in m["Subject"]
                     or "Standings after round 1" in m["Subject"])
    assert "Player 00: 1" in _body(standings)
    assert len(box.list_folders()) and not list(box.keys())   # every mail filed


def test_an_absence_by_mail_and_the_command_line(tmp_path, capsys):
    tdir, box = _setup(tmp_path, method="balance")
    organiser.pair(tdir, START)
    organiser.start(tdir, START)
    _send(box, "p00@example.org", "[pbem cup] away", "pause 2025-03-05T00:00Z 2025-03-07T00:00Z\n")
    _send(box, "p01@example.org", "[pbem cup] what now?", "hello\n")
    code = main(["tournament", "mail", "run", str(tdir), "--now", "2025-03-01T13:00Z"])
    out = capsys.readouterr().out
    assert code == 0 and "1 paused" in out and "1 untagged" in out
    assert any(e["kind"] == "pause" and e["player"] == "p00" for e in
               organiser.open_tournament(tdir).tdir.log())
    helpful = next(m for m in _outbox(tdir) if "What should be done?" in m["Subject"])
    assert "reveal AMOUNT NONCE" in _body(helpful)


def test_a_mail_that_makes_the_tournament_fail_is_set_aside_and_the_rest_goes_on(
        tmp_path, monkeypatch):
    tdir, box = _setup(tmp_path)
    plan = organiser.pair(tdir, START)
    game = plan.pairings[0].game
    real = organiser.bid_commit

    def failing(directory, game_id, player, digest, now):
        if player == "p00":
            raise RuntimeError("disk on fire")
        return real(directory, game_id, player, digest, now)
    monkeypatch.setattr(organiser, "bid_commit", failing)
    for pid in ("p00", "p01"):
        digest = bids.commitment("cup", game, pid, 0, bids.new_nonce())
        _send(box, f"{pid}@example.org", f"[pbem {game}] bid", f"commit {digest}\n")
    result = _pass(tdir)
    assert result.desk.outcomes == {"failed": 1, "bid-committed": 1}
    assert len(box.get_folder("quarantine")) == 1
    told = next(m for m in _outbox(tdir) if "could not be handled" in m["Subject"])
    assert "disk on fire" in _body(told) and told["To"] == "cup@example.org"


@pytest.mark.parametrize("keyed", [1, 2])
def test_a_rejection_in_a_tournament_game_with_keys_never_says_it_has_none(tmp_path, keyed):
    """Issue 23: a tournament game where players have keys -- one player or both -- never
    tells anyone that "this game has no player keys": a keyless power is named as the one
    without a key, a keyed power's unsigned orders are refused as unsigned."""
    tdir, private = make_tournament(tmp_path, 2, keyed=keyed)
    (tdir / "mail.toml").write_text('address = "cup@example.org"\nname = "Cup"\n'
                                    '[inbox]\ntype = "maildir"\npath = "../inbox"\n')
    box = mailbox.Maildir(tmp_path / "inbox", create=True)
    game = organiser.pair(tdir, START).pairings[0].game
    organiser.start(tdir, START)
    status = organiser.status(tdir, START)[0]
    other = next(p for p in status.players if p != status.player)
    _send(box, f"{status.player}@example.org", f"[pbem {game}] orders",
          f"power: {status.power}\nbuy 99 battleship\n")
    _send(box, f"{other}@example.org", f"[pbem {game}] check", "power: Germany\npass\n")
    _pass(tdir)
    replies = [m for m in _outbox(tdir / "games" / game) if m["Subject"].startswith(
        f"[pbem {game}]") and "started" not in m["Subject"]]
    assert len(replies) == 2, [m["Subject"] for m in replies]
    for reply in replies:
        text = " ".join(_body(reply).split())
        assert "this game has no player keys" not in text, text
        who = reply["To"].split("@")[0]
        if who in private:
            assert "no player key" not in text, text
        else:
            assert "has no player key in this game (other powers have one)" in text, text
    mover = next(m for m in replies if m["To"].startswith(status.player))
    if status.player in private:
        assert "not signed" in _body(mover)
