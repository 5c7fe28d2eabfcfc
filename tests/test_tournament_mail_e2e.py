"""A league that runs itself: an 8-player Swiss tournament of 3 rounds with sealed bids,
played only through mail sent (over a real SMTP server, STARTTLS and login) to one
tournament inbox (a real Dovecot, IMAPS), with an NMR and orders arriving after it, a
resignation sent off-turn, a withdrawn player (so rounds 2 and 3 have a bye), a replaced
player in a running game and a bid placement.  After ``pair`` and ``start`` the organiser
runs nothing but the cron pass ``pbem tournament mail run`` (and mails two controls from
the organiser's address); every player's copy of every game, built only from the mails
they received, verifies, and ``tournament verify`` replays the whole tournament.

Games are short (``round_limit = 1``: five turns of 1941, then adjudicated)."""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import smtplib
import ssl
from email.message import EmailMessage

from adjudicator.cli import main
from adjudicator.service import gamedir
from adjudicator.service.audit import verify_game
from adjudicator.service.games import load_game
from adjudicator.service.mail.message import parse_message
from adjudicator.service.mail.player import apply_message
from adjudicator.service.tournament import bids, organiser
from adjudicator.service.tournament.deadlines import stamp
from mail_helpers import published
from mail_servers import PASSWORD, certs, dovecot, imap, smtp_imap  # noqa: F401
from tournament_helpers import settings

ENV = "PBEM_TEST_MAIL_PASSWORD"
START = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.timezone.utc)
INBOX = "gm@example.org"
ORGANISER = "org@example.org"
REPORTS = "https://league.example/{tournament}/{game}/report.html"


class League:
    """The organiser's directory, the players' mail, and the clock of the cron passes."""

    def __init__(self, tmp_path, imap, smtp, certs):
        self.dir = tmp_path / "cup"
        self.smtp, self.certs = smtp, certs
        self.now = START
        self.commands = 0                          # organiser commands run by hand
        self.passes = 0

    def organiser(self, *argv) -> None:
        self.commands += 1
        code = main(["tournament", *map(str, argv), "--now", stamp(self.now)])
        assert code == 0, argv

    def cron(self, minutes: float = 10) -> None:
        """The cron pass, ``minutes`` after the last one."""
        self.now += dt.timedelta(minutes=minutes)
        self.passes += 1
        code = main(["tournament", "mail", "run", str(self.dir), "--now", stamp(self.now)])
        assert code == 0

    def mail(self, sender: str, subject: str, body: str) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, INBOX, subject
        msg["Message-ID"] = email.utils.make_msgid(domain="example.org")
        msg.set_content(body)
        context = ssl.create_default_context(cafile=str(self.certs["ca"]))
        with smtplib.SMTP("127.0.0.1", self.smtp.port, timeout=30) as s:
            s.starttls(context=context)
            s.login("other", PASSWORD)
            s.send_message(msg)

    def ctx(self):
        return organiser.open_tournament(self.dir)

    def address(self, pid: str) -> str:
        return self.ctx().player(pid).email

    def status(self, round_no: int | None = None):
        return [s for s in organiser.status(self.dir, self.now, results=False)
                if round_no is None or s.round == round_no]

    def received(self, address: str) -> list:
        return [email.message_from_bytes(data, policy=email.policy.default)
                for _frm, rcpts, data in self.smtp.received if address in rcpts]


def _bids(league: League, round_no: int, amounts=None) -> None:
    """Every pairing of the round: both players seal (the player's own command), mail the
    commitment, then the reveal, as the mails ask."""
    plan = league.ctx().tdir.rounds()[round_no - 1]
    secrets = {}
    for p in plan.pairings:
        for i, pid in enumerate(p.players):
            amount = (amounts or {}).get(p.game, (0, 0))[i]
            nonce = bids.new_nonce()
            secrets[p.game, pid] = (amount, nonce)
            league.mail(league.address(pid), f"Re: [Cup] Pairings of round {round_no} [pbem cup]",
                        f"commit {bids.commitment('cup', p.game, pid, amount, nonce)}\n")
    league.cron()
    for (game, pid), (amount, nonce) in secrets.items():
        league.mail(league.address(pid), f"Re: [Cup] {game}: both bids are sealed [pbem {game}]",
                    f"reveal {amount} {nonce}\n")
    league.cron()


def _play(league: League, round_no: int, hold=frozenset(), passes: int = 12,
          to_the_end: bool = True) -> None:
    """Each running game's player to move mails orders, then a cron pass; until the games
    of the round not in ``hold`` are over (``to_the_end``) or for ``passes`` passes."""
    for _ in range(passes):
        running = [s for s in league.status(round_no) if s.state == "running"
                   and s.game not in hold]
        if not running:
            return
        for s in running:
            league.mail(league.address(s.player), f"Re: [pbem {s.game}] your turn",
                        f"power: {s.power}\npass\n")
        league.cron()
    assert not to_the_end, f"round {round_no} did not end: {league.status(round_no)}"


def _copies(league: League, tmp_path) -> dict:
    """Every address's copy of every game, from the result mails it received."""
    copies = {}
    addresses = {a for _f, rcpts, _d in league.smtp.received for a in rcpts} - {INBOX}
    for address in sorted(addresses):
        for msg in league.received(address):
            game = msg["X-Pbem-Turn"]
            if not game:
                continue
            game = game.split()[0]
            target = tmp_path / "copies" / address / game
            target.mkdir(parents=True, exist_ok=True)
            apply_message(target, parse_message(msg.as_bytes()), load_game)
            copies[address, game] = target
    return copies


def _announcements(league: League, leaver: str, seat: str) -> None:
    """Every player got the schedule (with its calendar), the pairings of each round they
    were in, the standings after rounds 1 and 2 and the final announcement once the last
    game of round 3 was over; each with BBCode, Markdown and CSV; never a Python repr."""
    import icalendar
    last_round = {p.game for p in league.ctx().tdir.rounds()[2].pairings}
    sent = [email.message_from_bytes(d, policy=email.policy.default)
            for _f, _r, d in league.smtp.received]
    round3_turns = [k for k, m in enumerate(sent)
                    if (m["X-Pbem-Turn"] or "-").split()[0] in last_round]
    finals = [k for k, m in enumerate(sent) if "Final standings" in m["Subject"]]
    assert round3_turns and finals and min(finals) > max(round3_turns)  # after round 3
    for i in range(8):
        address = f"p{i}@example.org"
        mails = league.received(address)
        subjects = [m["Subject"] for m in mails]
        for m in mails:
            for part in (m.get_body(("plain",)), *m.iter_attachments()):
                if part.get_content_maintype() == "text":
                    text = part.get_content()
                    assert "{'" not in text and "<adjudicator" not in text, (address, m["Subject"])
        schedule = next(m for m in mails if "Schedule of Cup" in m["Subject"])
        files = {a.get_filename(): a for a in schedule.iter_attachments()}
        assert set(files) == {"cup-schedule.ics", "schedule.bbcode.txt", "schedule.md",
                              "schedule.csv"}
        cal = icalendar.Calendar.from_ical(files["cup-schedule.ics"].get_content())
        starts = sorted(e.decoded("DTSTART") for e in cal.walk("VEVENT")
                        if "bids" not in str(e["UID"]))
        assert starts == [dt.date(2026, 3, 2), dt.date(2026, 3, 9), dt.date(2026, 3, 16)]
        assert "Round 1 begins Mon 02 Mar 2026" in schedule.get_body(("plain",)).get_content()
        rounds = (1,) if f"p{i}" in (leaver, seat) else (1, 2, 3)
        for n in rounds:
            pairing = next(m for m in mails if f"Pairings of round {n}" in m["Subject"])
            assert {a.get_filename() for a in pairing.iter_attachments()} == {
                "pairings.bbcode.txt", "pairings.md", "pairings.csv"}
        assert any("Standings after round 1" in s for s in subjects), i
        if f"p{i}" in (leaver, seat):
            continue
        assert any("Standings after round 2" in s for s in subjects), i
        final = [k for k, s in enumerate(subjects) if "Final standings" in s]
        assert len(final) == 1, subjects
        body = mails[final[0]].get_body(("plain",)).get_content()
        assert "is over after round 3" in body and "Tie rule:" in body
        assert "aa1941 preset (capitals, then income plus units' value)" in body
        files = {a.get_filename(): a.get_content() for a in mails[final[0]].iter_attachments()}
        assert set(files) == {"standings-final.bbcode.txt", "standings-final.md",
                              "standings-final.csv", "crosstable-final.csv"}
        assert "[url=https://league.example/cup/cup-r3-01/report.html]cup-r3-01[/url]" in \
            files["standings-final.bbcode.txt"]


def test_a_swiss_league_run_by_one_inbox(tmp_path, imap, smtp_imap, certs, monkeypatch, capsys):
    monkeypatch.setenv(ENV, PASSWORD)
    league = League(tmp_path, imap, smtp_imap, certs)

    # The organiser sets up: new, 8 players, the settings, mail.toml, pair, start.
    league.organiser("new", league.dir, "--name", "Cup", "--ruleset", "aa1941")
    for i in range(8):
        league.organiser("add-player", league.dir, f"Player {i}", "--email",
                         f"p{i}@example.org", "--id", f"p{i}")
    settings(league.dir / "tournament.toml", sides__method='"bid"', format__rounds="3",
             end__round_limit="1", deadlines__auto_grace="false",
             schedule__start='"2026-03-02"', schedule__round_days="7")
    text = (league.dir / "tournament.toml").read_text().replace(
        'organiser = ""', f'organiser = "{ORGANISER}"').replace(
        'report_url = ""', f'report_url = "{REPORTS}"')
    (league.dir / "tournament.toml").write_text(text)
    (league.dir / "mail.toml").write_text(
        f'address = "{INBOX}"\nname = "Cup"\n'
        f'[inbox]\ntype = "imap"\nhost = "127.0.0.1"\nport = {imap.imaps_port}\n'
        f'username = "gm"\npassword_env = "{ENV}"\nca_file = "{certs["ca"]}"\n'
        f'[send]\ntype = "smtp"\nhost = "127.0.0.1"\nport = {smtp_imap.port}\n'
        f'security = "starttls"\nusername = "gm"\npassword_env = "{ENV}"\n'
        f'ca_file = "{certs["ca"]}"\n')
    league.organiser("pair", league.dir)
    league.organiser("start", league.dir)
    setup_commands = league.commands
    assert setup_commands == 11

    # ---- round 1: bids (one placement), an NMR and late orders, a concession, a withdrawal
    g1, g2, g3, g4 = (p.game for p in league.ctx().tdir.rounds()[0].pairings)
    _bids(league, 1, {g1: (3, 9)})
    sides, bid = organiser.sides_of(league.ctx(), organiser.find_pairing(league.ctx(), g1))
    assert bid == 3
    league.mail(league.address(sides["Allies"]), f"Re: [pbem {g1}] sides decided",
                "bid: place 1 inf Karelia\n")
    league.cron()
    assert {s.state for s in league.status(1)} == {"running"}, league.status(1)

    conceder = next(s for s in league.status(1) if s.game == g3)
    loser = next(x for x in conceder.players if x != conceder.player)     # not to move
    league.mail(league.address(loser), f"[pbem {g3}] I resign", "concede\n")
    leaver = next(s for s in league.status(1) if s.game == g4).players[0]
    league.mail(ORGANISER, "[pbem cup] withdrawal", f"withdraw {leaver}\nreason: moved away\n")
    league.cron()
    assert {s.game for s in league.status(1) if s.state == "over"} == {g3, g4}

    late = next(s for s in league.status(1) if s.game == g2)            # never sends turn 1
    _play(league, 1, hold={g2})
    league.cron(minutes=73 * 60)                                       # past its deadline
    league.mail(league.address(late.player), f"Re: [pbem {g2}] your turn",
                f"power: {late.power}\npass\n")
    league.cron()
    too_late = [m for m in league.received(league.address(late.player))
                if "Not your turn" in m["Subject"]]
    assert too_late and "played as an NMR" in too_late[0].get_body(("plain",)).get_content()
    _play(league, 1)

    # ---- round 2, paired by the cron pass: 7 players, so a bye; a replacement mid-game
    plans = league.ctx().tdir.rounds()
    assert len(plans) == 2 and len(plans[1].byes) == 1
    assert leaver not in {x for p in plans[1].pairings for x in p.players} | set(plans[1].byes)
    _bids(league, 2)
    seat = next(s for s in league.status(2) if s.state == "running").players[0]
    _play(league, 2, passes=1, to_the_end=False)
    league.mail(ORGANISER, "[pbem cup] replacement",
                f"replace {seat} zoe@example.org Zoe New\nreason: {seat} is ill\n")
    league.cron()
    assert league.address(seat) == "zoe@example.org"
    _play(league, 2)

    # ---- round 3, paired by the cron pass, to the final standings
    assert len(league.ctx().tdir.rounds()) == 3
    _bids(league, 3)
    _play(league, 3)
    assert all(s.state == "over" for s in league.status())
    assert league.commands == setup_commands              # nothing but the cron pass since
    capsys.readouterr()

    # ---- what the players saw
    for i in range(8):
        subjects = [m["Subject"] for m in league.received(f"p{i}@example.org")]
        assert any("Pairings of round 1" in s for s in subjects), i
        assert any("Standings after round 1" in s for s in subjects), i
        if f"p{i}" not in (leaver, seat):
            assert any("Final standings" in s for s in subjects), (i, subjects)
    _announcements(league, leaver, seat)
    zoe = [m["Subject"] for m in league.received("zoe@example.org")]
    assert any("Final standings" in s for s in zoe) and any("played" in s for s in zoe)
    turn_mails = [len(d) for _f, _r, d in league.smtp.received if b"X-Pbem-Turn" in d]
    assert turn_mails and max(turn_mails) < 150 * 1024

    # ---- every copy verifies; the tournament's audit replays everything
    gm_key = {}
    copies = _copies(league, tmp_path)
    assert len({game for _a, game in copies}) == 10                 # 4 + 3 + 3 games
    ctx = league.ctx()
    for (address, game), copy in copies.items():
        gdir = ctx.tdir.game_dir(game)
        key = gm_key.setdefault(game, gamedir.read_game(gdir)[0].game_master)
        report = verify_game(copy, load_game, expected_gm_key=key)
        assert report.ok, (address, game, report.failure)
        players = organiser.find_pairing(ctx, game).players
        if address in {ctx.player(x).email for x in players}:       # a player of it now
            assert published(copy) == published(gdir), (address, game)
    assert main(["tournament", "verify", str(league.dir)]) == 0
