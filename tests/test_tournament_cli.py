"""``pbem tournament`` end to end from the command line: new, add-player, pair, start,
orders, tick (notices as files, or as mails in the mail layer's outbox), status,
standings (rich text and HTML), history, extend, pause, bids, verify."""

from __future__ import annotations

import email
import email.policy

from adjudicator.cli import main
from adjudicator.io import keys


def run(capsys, *argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_a_small_tournament_from_the_command_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    cup = tmp_path / "cup"
    assert run(capsys, "tournament", "new", cup, "--name", "Spring Cup",
               "--now", "2025-03-01T12:00Z")[0] == 0
    toml = cup / "tournament.toml"
    toml.write_text(toml.read_text().replace("round_limit = 0", "round_limit = 1")
                    .replace("rounds = 4", "rounds = 1"))
    keys.new_keypair(tmp_path / "amy", "amy")
    assert run(capsys, "tournament", "add-player", cup, "Amy Smith", "--email",
               "amy@example.org", "--key", tmp_path / "amy.pub")[0] == 0
    for name in ("Boris", "Chen", "Dana"):
        assert run(capsys, "tournament", "add-player", cup, name, "--email",
                   f"{name.lower()}@example.org")[0] == 0
    code, out = run(capsys, "tournament", "add-player", cup, "Boris")
    assert code == 2 and "already a player" in out
    code, out = run(capsys, "tournament", "pair", cup, "--now", "2025-03-01T12:00Z")
    assert code == 0 and "cup-r1-01: Amy Smith (Axis)  v  Boris (Allies)" in out
    code, out = run(capsys, "tournament", "start", cup, "--now", "2025-03-01T12:00Z")
    assert code == 0 and "Started cup-r1-02" in out
    assert (cup / "notices" / "start-cup-r1-01.txt").read_text().startswith(
        "To: Amy Smith, Boris")

    orders = tmp_path / "ussr.txt"
    orders.write_text("power: Soviet Union\nbuy 2 inf\nplace 2 inf Russia\n")
    code, out = run(capsys, "tournament", "orders", cup, "cup-r1-01", orders,
                    "--now", "2025-03-01T20:00Z")
    assert code == 0 and "Published turn 1 (ussr)" in out
    code, out = run(capsys, "tournament", "extend", cup, "cup-r1-02", "--hours", "24",
                    "--reason", "server trouble", "--now", "2025-03-02T00:00Z")
    assert code == 0 and "2025-03-05T12:00:00Z" in out
    code, out = run(capsys, "tournament", "extend", cup, "cup-r1-01", "--grace", "boris")
    assert code == 2 and "not boris's turn" in out
    code, out = run(capsys, "tournament", "pause", cup, "amy-smith", "--from",
                    "2025-03-02T00:00Z", "--until", "2025-03-03T00:00Z",
                    "--now", "2025-03-01T21:00Z")
    assert code == 0 and "1 days" in out
    code, out = run(capsys, "tournament", "status", cup, "--now", "2025-03-02T00:00Z")
    assert code == 0 and "Germany (Amy Smith), turn 2" in out
    assert "2025-03-05T20:00:00Z" in out             # 20:00 + 72 h + the day away
    # Germany (Amy) misses the paused deadline: grace, grace, then the NMR
    code, out = run(capsys, "tournament", "tick", cup, "--now", "2025-03-10T00:00Z")
    assert code == 0 and "NMR played: cup-r1-01 turn 2" in out
    assert "grace extension: cup-r1-01 turn 2" in out and "late notice" not in out
    nmr = (cup / "games" / "cup-r1-01" / "orders" / "0002-germany.txt").read_text()
    assert "nmr 2025-03-07T20:00:00Z" in nmr      # ... and two grace extensions of 24 h

    code, out = run(capsys, "tournament", "tick", cup, "--now", "2025-03-31T00:00Z")
    assert code == 0 and "game over: cup-r1-01" in out and "game over: cup-r1-02" in out
    code, out = run(capsys, "tournament", "standings", cup, "--html", tmp_path / "s.html",
                    "--record")
    assert code == 0 and "Buchholz" in out and "standings.json" in out
    html = (tmp_path / "s.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and "Amy Smith" in html
    code, out = run(capsys, "tournament", "history", cup, "Amy Smith", "--html",
                    tmp_path / "amy.html")
    assert code == 0 and "round 1  " in out
    assert "(round limit: capitals gained: Axis +0, Allies +0; income plus units' value" in out
    assert "Amy Smith" in (tmp_path / "amy.html").read_text()
    code, out = run(capsys, "tournament", "verify", cup)
    assert code == 0 and "OK" in out, out
    (cup / "games" / "cup-r1-01" / "orders" / "0001-ussr.txt").write_text("pass\n")
    code, out = run(capsys, "tournament", "verify", cup)
    assert code == 1 and "FAILED games/cup-r1-01/orders/0001-ussr.txt" in out


def test_notices_go_through_the_mail_outbox_and_bids_from_the_command_line(tmp_path, capsys):
    cup = tmp_path / "league"
    run(capsys, "tournament", "new", cup, "--now", "2025-03-01T12:00Z")
    toml = cup / "tournament.toml"
    toml.write_text(toml.read_text().replace('method = "balance"', 'method = "bid"'))
    (cup / "mail.toml").write_text('address = "gm@example.org"\nname = "League GM"\n'
                                   '[send]\ntype = "outbox"\n')
    for name in ("Amy", "Boris"):
        run(capsys, "tournament", "add-player", cup, name, "--email", f"{name.lower()}@ex.org")
    assert run(capsys, "tournament", "pair", cup, "--now", "2025-03-01T12:00Z")[0] == 0
    outbox = sorted((cup / ".mail" / "outbox").glob("*.eml"))
    assert [p.name for p in outbox] == ["pairing-1.eml"]
    msg = email.message_from_bytes(outbox[0].read_bytes(), policy=email.policy.default)
    assert msg["To"] == "amy@ex.org, boris@ex.org" and "[league] Pairings" in msg["Subject"]
    assert "sides by sealed bid" in msg.get_body(("plain",)).get_content()
    assert {a.get_filename() for a in msg.iter_attachments()} == {
        "pairings.bbcode.txt", "pairings.md", "pairings.csv"}

    seals = {}
    for player, amount in (("amy", 7), ("boris", 5)):
        code, out = run(capsys, "tournament", "bid", "seal", cup, "league-r1-01", player, amount)
        lines = dict(line.split(":", 1) for line in out.splitlines()[:2])
        seals[player] = (amount, lines["commitment"].strip(), lines["nonce"].strip())
    for player, (_amount, digest, _nonce) in seals.items():
        assert run(capsys, "tournament", "bid", "commit", cup, "league-r1-01", player,
                   digest)[0] == 0
    for player, (amount, _digest, nonce) in seals.items():
        code, out = run(capsys, "tournament", "bid", "reveal", cup, "league-r1-01", player,
                        amount, nonce)
        assert code == 0
    assert "boris plays the bid side with 5 IPCs" in out
    place = tmp_path / "bid.txt"
    place.write_text("bid: place 1 inf Karelia\n")
    assert run(capsys, "tournament", "bid", "place", cup, "league-r1-01", place)[0] == 0
    code, out = run(capsys, "tournament", "start", cup, "--now", "2025-03-01T13:00Z")
    assert code == 0 and (cup / "games" / "league-r1-01" / "mail.toml").exists()
    code, out = run(capsys, "tournament", "verify", cup)
    assert code == 0, out


def test_a_ladder_challenge_moves_the_winner_up(tmp_path):
    from adjudicator.model.errors import PbemError
    from adjudicator.service.tournament import organiser
    from tournament_helpers import START, make_tournament, scripted_orders, send
    import pytest
    tdir, private = make_tournament(tmp_path, 4, format__kind='"ladder"',
                                    format__ladder_range="2")
    with pytest.raises(PbemError, match="no rounds"):
        organiser.pair(tdir, START)
    with pytest.raises(PbemError, match="may challenge only"):
        organiser.challenge(tdir, "p03", "p00", START)
    plan = organiser.challenge(tdir, "p03", "p01", START)
    (game,) = plan.pairings
    assert game.game == "cup-c0001" and set(game.sides.values()) == {"p03", "p01"}
    with pytest.raises(PbemError, match="open challenge"):
        organiser.challenge(tdir, "p02", "p01", START)
    organiser.start(tdir, START)
    ctx = organiser.open_tournament(tdir)
    (status,) = organiser.status(tdir, START)
    # the defender's side concedes on its first turn
    defender_turn = status.player == "p01"
    if not defender_turn:
        send(tdir, game.game, scripted_orders(tdir, game.game), private, status.player, START)
        (status,) = organiser.status(tdir, START)
    assert status.player == "p01"
    send(tdir, game.game, scripted_orders(tdir, game.game, concede=True), private, "p01", START)
    results = organiser.all_results(ctx)
    assert results[0].winner == "p03" and results[0].how == "concession"
    assert organiser.ladder_now(ctx, results) == ["p00", "p03", "p01", "p02"]


def test_a_tick_interrupted_after_an_nmr_turn_is_repaired(tmp_path):
    """The NMR turn was published but the run stopped before the log said so (or before the
    game's clock was recorded): the next commands record both, and the tournament verifies."""
    import datetime as dt
    from adjudicator.service import gamedir
    from adjudicator.service.tournament import organiser
    from adjudicator.service.tournament.verify import verify_tournament
    from tournament_helpers import START, make_tournament
    tdir, _ = make_tournament(tmp_path, 2, format__rounds="1", deadlines__grace_extensions="0")
    (game,) = organiser.pair(tdir, START).pairings
    organiser.start(tdir, START)
    log = tdir / "log.jsonl"
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(line for line in lines if '"started"' not in line))
    organiser.start(tdir, START)                              # the lost clock comes back
    (status,) = organiser.status(tdir, START)
    ctx = organiser.open_tournament(tdir)
    deadline = status.deadline
    gamedir.process_turn(ctx.tdir.game_dir(game.game), ctx.game,
                         organiser.nmr_orders(ctx, status.power, game.game, 1, deadline),
                         gm_key=ctx.tdir.gm_key())
    report = organiser.tick(tdir, deadline + dt.timedelta(hours=5))
    assert report.observed == [game.game] and not report.nmrs
    (status,) = organiser.status(tdir, deadline + dt.timedelta(hours=5))
    assert status.turn == 2 and status.deadline == deadline + dt.timedelta(hours=72)
    audit = verify_tournament(tdir)
    assert audit.ok and audit.nmrs_checked == 1, audit.problems
