"""Dice keepers by email, end to end (issue 12): a whole round of the 1941 example with no
game master.  Each player has a copy, a Maildir inbox and an outbox; ``route`` plays the
mail server.  The mover's ``pbem mail send`` goes to the keeper (a copy to the other
player), the keeper's ``pbem mail run`` processes the orders and mails the result to
everyone, every ``pbem mail run`` adds results to its copy after verifying them."""

from __future__ import annotations

import email
import email.policy
import hashlib
import mailbox
import shutil

import pytest

from adjudicator.io import layout
from adjudicator.io.turnfile import read_turn_file
from adjudicator.service import gamedir
from adjudicator.service.audit import verify_game
from adjudicator.service.games import load_game
from keeper_helpers import (
    AXIS, EMAIL, EXAMPLE_ORDERS, GAME_ID, SIDE_OF, deliver, make_keys, mail_toml, pbem, route,
)
from mail_helpers import published


def _start(base, capsys):
    """Bea joins, Al hosts (both with the command line), both set up their mail; Al's
    first pass mails the game file, Bea fetches it."""
    key = make_keys(base)
    assert pbem("keeper", "join", base / "bea", "--id", GAME_ID, "--key", key["bea"],
                "--plays", ",".join(AXIS), "--email", EMAIL["bea"], "--demo-seeds") == 0
    assert pbem("new", base / "al", "--id", GAME_ID, "--key", key["al"],
                "--plays", "ussr,uk,usa", "--email", EMAIL["al"],
                "--join", base / "bea" / "keeper-join.json", "--demo-seeds") == 0
    dirs = {"al": base / "al", "bea": base / "bea"}
    for who, d in dirs.items():
        (d / "mail.toml").write_text(mail_toml(who, base), encoding="utf-8")
        (base / "inbox").mkdir(exist_ok=True)
        mailbox.Maildir(base / "inbox" / who, create=True)
    assert pbem("mail", "run", "-g", dirs["al"], "--demo-seeds") == 0   # the welcome
    route(dirs, base)
    assert pbem("mail", "fetch", "-g", dirs["bea"], "--id", GAME_ID) == 0
    capsys.readouterr()
    assert pbem("keeper", "status", "-g", dirs["bea"]) == 0
    out = capsys.readouterr().out
    assert "orders go to Germany (you)" in out and out.count(": ready") == 2
    return dirs


def _orders_file(base, who, n, path):
    target = base / f"{who}-{n}.txt"
    shutil.copy(path, target)
    return target


def _everyone_runs(dirs):
    for d in dirs.values():
        assert pbem("mail", "run", "-g", d, "--demo-seeds") == 0


def test_a_round_with_no_game_master_every_copy_verifies_and_is_identical(tmp_path, capsys):
    base = tmp_path
    dirs = _start(base, capsys)
    game = load_game("aa1941")
    mails = 0
    for n, path in enumerate(EXAMPLE_ORDERS, start=1):
        state, _ = gamedir.current_state(dirs["al"])
        mover = SIDE_OF[state.power]
        assert pbem("mail", "send", _orders_file(base, mover, n, path), "-g", dirs[mover]) == 0
        out = capsys.readouterr().out
        keeper = gamedir.read_game(dirs["al"])[0].dice_keepers[state.power]
        assert f"(to {EMAIL[SIDE_OF[keeper]]}, signed)" in out
        mails += len(list((dirs[mover] / ".mail" / "outbox").glob("*.eml")))
        route(dirs, base)
        _everyone_runs(dirs)            # the keeper processes; the other notes the copy
        mails += sum(len(list((d / ".mail" / "outbox").glob("*.eml"))) for d in dirs.values())
        route(dirs, base)
        _everyone_runs(dirs)            # both add the result to their copy
        for d in dirs.values():
            assert layout.list_turns(d)[-1][0] == n, f"turn {n} missing in {d}"
        tf, _ = read_turn_file(layout.list_turns(dirs["al"])[-1][2])
        assert (tf.power, tf.signer) == (state.power, keeper)
    # per turn: the orders (to the keeper) and the result (one to each player), nothing else
    assert mails == len(EXAMPLE_ORDERS) * 3
    assert published(dirs["al"]) == published(dirs["bea"])
    for d in dirs.values():
        report = verify_game(d, load_game)
        assert report.ok, report.failure
        assert report.turns_replayed == len(EXAMPLE_ORDERS)
        assert not any("dice keepers" in w for w in report.warnings)
    assert game.ruleset.turn_order == tuple(
        read_turn_file(p)[0].power for _n, _p, p in layout.list_turns(dirs["al"]))


def test_second_orders_for_a_turn_are_refused_by_mail(tmp_path, capsys):
    base = tmp_path
    dirs = _start(base, capsys)
    first = _orders_file(base, "al", 1, EXAMPLE_ORDERS[0])
    assert pbem("mail", "send", first, "-g", dirs["al"]) == 0
    # the mover's own tool refuses a second, different set for the same turn ...
    second = base / "al-1b.txt"
    second.write_text(EXAMPLE_ORDERS[0].read_text().replace(
        "defend all: losses inf, tank, ftr, bmr", "defend all: losses tank, inf, ftr, bmr"))
    capsys.readouterr()
    assert pbem("mail", "send", second, "-g", dirs["al"]) == 2
    assert "already sent other signed orders for turn 1" in capsys.readouterr().err
    # ... and when forced past it, the keeper processes the first and refuses the second
    assert pbem("mail", "send", second, "-g", dirs["al"], "--replace") == 0
    route(dirs, base)
    _everyone_runs(dirs)
    tf, _ = read_turn_file(layout.list_turns(dirs["bea"])[-1][2])
    assert "defend all: losses inf, tank" in tf.orders and tf.turn_number == 1
    replies = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
               for p in sorted((dirs["bea"] / ".mail" / "outbox").glob("reply-*.eml"))]
    assert len(replies) == 1 and "Turn 1 was already processed" in replies[0]["Subject"]
    assert "not used" in replies[0].get_body(("plain",)).get_content()


def test_orders_that_overtake_the_previous_result_wait_for_it(tmp_path, capsys):
    """Bea processes turn 1 and, with it in her copy, sends Germany's orders; the mail
    server delivers those orders to Al before turn 1's result.  Al's pass waits for the
    result, adds it, then processes the orders: nothing is lost or refused."""
    base = tmp_path
    dirs = _start(base, capsys)
    assert pbem("mail", "send", _orders_file(base, "al", 1, EXAMPLE_ORDERS[0]), "-g",
                dirs["al"]) == 0
    route(dirs, base)
    assert pbem("mail", "run", "-g", dirs["bea"], "--demo-seeds") == 0     # turn 1
    is_result = lambda m: m["X-Pbem-Turn"] is not None                  # noqa: E731
    held = route(dirs, base, hold=is_result)                           # results delayed
    assert pbem("mail", "run", "-g", dirs["bea"], "--demo-seeds") == 0
    assert layout.list_turns(dirs["bea"])[-1][0] == 1
    assert pbem("mail", "send", _orders_file(base, "bea", 2, EXAMPLE_ORDERS[1]), "-g",
                dirs["bea"]) == 0
    route(dirs, base)                                                  # the orders first
    capsys.readouterr()
    assert pbem("mail", "run", "-g", dirs["al"], "--demo-seeds", "-v") == 0
    assert "waiting" in capsys.readouterr().out and layout.list_turns(dirs["al"]) == []
    inbox_of = {a: base / "inbox" / w for w, a in EMAIL.items()}
    for data in held:                                                  # ... then the result
        deliver(data, inbox_of)
    assert pbem("mail", "run", "-g", dirs["al"], "--demo-seeds") == 0
    assert [n for n, _p, _path in layout.list_turns(dirs["al"])] == [1, 2]
    route(dirs, base)
    _everyone_runs(dirs)
    assert published(dirs["al"]) == published(dirs["bea"])
    assert verify_game(dirs["bea"], load_game).ok


def test_results_in_reverse_order_are_all_added_in_one_pass(tmp_path, capsys):
    """Al's fresh copy receives the results of turns 3, 2 and 1, in that order: one pass
    waits, adds turn 1, reads the inbox again, and so on."""
    from adjudicator.service.mail import compose
    from keeper_helpers import play_turns
    dirs = _start(tmp_path, capsys)
    shutil.copytree(tmp_path / "keys", tmp_path / "ref" / "keys")
    reference = _start(tmp_path / "ref", capsys)         # the same game, played on
    play_turns(tmp_path / "ref", reference, 3)
    src = reference["al"]
    for number, power, path in reversed(layout.list_turns(src)):
        files = [(p.name, p.read_bytes(), "application/octet-stream") for p in
                 (path, path.with_name(path.name + ".sig"),
                  src / "orders" / path.with_suffix(".txt").name)]
        data = compose.turn_result(sender=EMAIL["bea"], sender_name="", to=[EMAIL["al"]],
                                   game_id=GAME_ID, subject=f"Turn {number}", body="result",
                                   name=f"t{number}", now=1_800_000_000 + 10 - number,
                                   turn_number=number, power=power, attachments=files)
        deliver(data, {EMAIL["al"]: tmp_path / "inbox" / "al"})
    capsys.readouterr()
    assert pbem("mail", "run", "-g", dirs["al"], "--demo-seeds", "-v") == 0
    *log, summary = capsys.readouterr().out.strip().splitlines()
    assert sum("waiting (turn 3 is ahead" in line for line in log) == 2     # rounds 1 and 2
    assert summary.startswith("4 result,") and "waiting" not in summary   # + the welcome
    assert published(dirs["al"]) == published(src)


def test_a_fork_sent_by_mail_is_reported_and_kept_as_evidence(tmp_path, capsys):
    base = tmp_path
    dirs = _start(base, capsys)
    assert pbem("mail", "send", _orders_file(base, "al", 1, EXAMPLE_ORDERS[0]), "-g",
                dirs["al"]) == 0
    route(dirs, base)
    saved = base / "bea-before"
    shutil.copytree(dirs["bea"], saved, symlinks=True)
    _everyone_runs(dirs)                      # Bea processes turn 1 ...
    route(dirs, base)
    _everyone_runs(dirs)                      # ... and Al holds it
    # Bea processes the same orders again from her saved directory with another next seed
    other = base / "bea-fork"
    shutil.copytree(saved, other, symlinks=True)
    text = (dirs["bea"] / "orders" / "0001-ussr.txt").read_bytes()
    sig = read_turn_file(dirs["bea"] / "turns" / "0001-ussr.json")[0].orders_signature
    gamedir.process_turn(other, load_game("aa1941"), text, orders_signature=sig)
    fork = other / "turns" / "0001-ussr.json"
    assert fork.read_bytes() != (dirs["al"] / "turns" / "0001-ussr.json").read_bytes()
    msg = email.message.EmailMessage()
    msg["From"], msg["To"] = EMAIL["bea"], EMAIL["al"]
    msg["Subject"] = f"[pbem {GAME_ID}] Turn 1"
    msg["Message-ID"] = "<fork@example.org>"
    msg["X-Pbem-Turn"] = f"{GAME_ID} 1 ussr"
    msg.set_content("turn 1")
    for p in (fork, other / "turns" / "0001-ussr.json.sig", other / "orders" / "0001-ussr.txt"):
        msg.add_attachment(p.read_bytes(), maintype="application", subtype="octet-stream",
                           filename=p.name)
    mailbox.Maildir(base / "inbox" / "al").add(bytes(msg))
    before = published(dirs["al"])
    capsys.readouterr()
    assert pbem("mail", "run", "-g", dirs["al"], "-v") == 0
    out = capsys.readouterr().out
    assert "fork" in out and "germany signed two different turn files for turn 1" in out
    assert published(dirs["al"]) == before
    evidence = sorted(p.name for p in (dirs["al"] / "forks").iterdir())
    assert len([n for n in evidence if n.endswith(".json")]) == 2, evidence
    rejected = mailbox.Maildir(base / "inbox" / "al").get_folder("rejected")
    assert len(rejected) == 1
    # pbem verify reports the proof every time the copy is checked, not only at fetch
    report = verify_game(dirs["al"], load_game)
    assert report.ok, report.failure
    forks = [w for w in report.warnings if w.startswith("FORK: germany signed two different "
                                                         "versions of turn 1 (ussr)")]
    assert len(forks) == 1 and forks[0].count("forks/0001-ussr.") == 2, report.warnings
    capsys.readouterr()
    assert pbem("verify", "-g", dirs["al"]) == 0
    assert "FORK: germany signed" in " ".join(capsys.readouterr().out.split())
    # a version that is not the keeper's signed file proves nothing
    (fake,) = [p for p in (dirs["al"] / "forks").glob("*.json")
               if p.read_bytes() == fork.read_bytes()]
    altered = fake.read_bytes() + b"\n"                   # renamed to its own digest
    renamed = fake.with_name(f"0001-ussr.{hashlib.sha256(altered).hexdigest()[:12]}.json")
    renamed.write_bytes(altered)
    fake.with_name(fake.name + ".sig").rename(renamed.with_name(renamed.name + ".sig"))
    fake.unlink()
    assert not any(w.startswith("FORK") for w in verify_game(dirs["al"], load_game).warnings)


@pytest.mark.parametrize("who", ["al", "bea"])
def test_status_names_who_processes_the_turn(tmp_path, capsys, who):
    dirs = _start(tmp_path, capsys)
    capsys.readouterr()
    assert pbem("keeper", "status", "-g", dirs[who]) == 0
    out = capsys.readouterr().out
    assert "Soviet Union     kept by Germany" in out
    assert ("(you)" in out) == (who == "bea")
    assert pbem("status", "-g", dirs[who]) == 0
    assert "its orders go to Germany (bea@example.org), who keeps its dice" in \
        " ".join(capsys.readouterr().out.split())


def test_a_resent_mail_is_recognised_as_a_repeat(tmp_path, capsys):
    """The mail server drops nothing but the sender thinks it did: the mover resends the
    same signed orders after the keeper processed them, and a result mail arrives twice.
    The keeper answers "already processed" and changes nothing; the copy that receives a
    result twice adds it once."""
    base = tmp_path
    dirs = _start(base, capsys)
    orders = _orders_file(base, "al", 1, EXAMPLE_ORDERS[0])
    assert pbem("mail", "send", orders, "-g", dirs["al"]) == 0
    route(dirs, base)
    _everyone_runs(dirs)                                 # Bea processes turn 1
    processed = published(dirs["bea"])
    assert [n for n, _p, _path in layout.list_turns(dirs["bea"])] == [1]
    is_result = lambda m: m["X-Pbem-Turn"] is not None   # noqa: E731
    results = route(dirs, base, hold=is_result)          # the results are held back ...
    assert results
    assert pbem("mail", "send", orders, "-g", dirs["al"]) == 0    # ... so Al resends
    inbox_of = {a: base / "inbox" / w for w, a in EMAIL.items()}
    (again,) = (dirs["al"] / ".mail" / "outbox").glob("*.eml")
    deliver(_new_message_id(again.read_bytes()), inbox_of)   # (a later second: a new mail)
    again.unlink()
    capsys.readouterr()
    assert pbem("mail", "run", "-g", dirs["bea"], "--demo-seeds", "-v") == 0
    assert "duplicate" in capsys.readouterr().out
    assert published(dirs["bea"]) == processed
    replies = [email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
               for p in sorted((dirs["bea"] / ".mail" / "outbox").glob("reply-*.eml"))]
    assert [r["Subject"] for r in replies] == [f"[pbem {GAME_ID}] Turn 1 was already processed"]
    for data in results + results:                       # the result, delivered twice ...
        deliver(data, inbox_of)
    for data in results:                                 # ... and resent as a new mail
        deliver(_new_message_id(data), inbox_of)
    capsys.readouterr()
    assert pbem("mail", "run", "-g", dirs["al"], "--demo-seeds", "-v") == 0
    *log, summary = capsys.readouterr().out.strip().splitlines()
    assert summary.startswith("3 result,"), summary
    assert [line.split(": ", 1)[1] for line in log] == ["result (added turn(s) 1)",
                                                        "result (nothing new)"]
    assert published(dirs["al"]) == processed
    assert not len(mailbox.Maildir(base / "inbox" / "al").get_folder("rejected"))
    assert verify_game(dirs["al"], load_game).ok


def _new_message_id(data: bytes) -> bytes:
    msg = email.message_from_bytes(data, policy=email.policy.default)
    msg.replace_header("Message-ID", "<resent-" + msg["Message-ID"][1:])
    return msg.as_bytes()


def test_a_withheld_result_is_on_record_for_the_mover_and_a_witness(tmp_path, capsys):
    """Bea keeps the USSR's dice and sits on Al's orders.  Al's copy says when he sent
    them; a tournament director in ``orders_copy`` holds the same signed orders, journaled
    with the time they arrived.  Once the result arrives, nothing is pending any more."""
    from adjudicator.service.mail.pending import pending_orders
    base = tmp_path
    dirs = _start(base, capsys)
    td = base / "td"
    td.mkdir()
    for name in ("game.json", "game.json.sig"):
        shutil.copy(dirs["al"] / name, td / name)
    (td / "mail.toml").write_text(f'address = "td@example.org"\n[inbox]\ntype = "maildir"\n'
                                  f'path = "{base / "inbox" / "td"}"\n[send]\ntype = "outbox"\n')
    al_toml = dirs["al"] / "mail.toml"
    al_toml.write_text('orders_copy = ["td@example.org"]\n' + al_toml.read_text())
    assert pbem("mail", "send", _orders_file(base, "al", 1, EXAMPLE_ORDERS[0]), "-g",
                dirs["al"]) == 0
    assert "a copy to td@example.org" in capsys.readouterr().out
    (sent,) = (dirs["al"] / ".mail" / "outbox").glob("*.eml")
    deliver(sent.read_bytes(), {"td@example.org": base / "inbox" / "td"})
    route(dirs, base)                                   # Bea receives them, and does nothing
    assert pbem("mail", "run", "-g", td, "-v") == 0
    assert "witnessed" in capsys.readouterr().out
    mine = pending_orders(dirs["al"] / ".mail", 1, "ussr")
    witness = pending_orders(td / ".mail", 1, "ussr")
    assert [p.how for p in mine] == ["sent"] and [p.how for p in witness] == ["received"]
    assert mine[0].digest == witness[0].digest == _digest(
        dirs["al"] / ".mail" / "sent" / "0001-ussr.txt")
    for d, line in ((dirs["al"], "You sent the signed orders on "),
                    (td, "A copy of the signed orders arrived here on ")):
        assert pbem("keeper", "status", "-g", d) == 0
        out = " ".join(capsys.readouterr().out.split())
        assert line in out and "ago); no result from Germany yet." in out, out
    _everyone_runs(dirs)                                # Bea processes at last
    route(dirs, base)
    _everyone_runs(dirs)
    assert pbem("keeper", "status", "-g", dirs["al"]) == 0
    assert "no result from" not in capsys.readouterr().out
    assert pending_orders(dirs["al"] / ".mail", 2, "germany") == []


def _digest(path):
    from adjudicator.io.turnfile import file_digest
    return file_digest(path.read_bytes())


@pytest.mark.parametrize("seconds, text", [(-5, "0 min"), (59, "0 min"), (61, "1 min"),
                                           (3 * 3600 + 5 * 60, "3 h 5 min"),
                                           (86400 + 59, "1 day 0 h"),
                                           (2 * 86400 + 4 * 3600 + 600, "2 days 4 h")])
def test_pending_ages_read_like_people_write_them(seconds, text):
    from adjudicator.service.mail.pending import age
    assert age(seconds) == text
