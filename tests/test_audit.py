"""The full-game audit: a clean game verifies; every kind of tampering is caught, by the
right check.  Uses the stub engine from test_turnfile (rolls ten dice a turn), so these
tests do not depend on the real adjudicator."""

from __future__ import annotations

import json
import random
import shutil

import pytest
from rich.console import Console

from adjudicator.service import audit
from adjudicator.io import layout
from adjudicator.service import gamedir
from adjudicator.io import hmac_dice
from adjudicator.io import keys
from adjudicator.io import sshsig
from adjudicator.io import turnfile
from adjudicator.model.errors import PbemError
from adjudicator.model.events import BattleStarted, DiceRolled

try:
    from test_turnfile import play, stub_adjudicate, stub_game, stub_parse, stub_state
except ImportError:  # tests imported as a package
    from tests.test_turnfile import play, stub_adjudicate, stub_game, stub_parse, stub_state

TURNS = 4


def verify(d, **kw):
    return audit.verify_game(d, lambda name: stub_game(), parse=stub_parse,
                             adjudicate=stub_adjudicate, **kw)


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """A game with four turns, built once; tests work on copies."""
    base = tmp_path_factory.mktemp("template")
    player = keys.new_keypair(base / "ussr-player", "ussr player")
    d = base / "game"
    game = stub_game()
    gamedir.create_game(d, game, "test-game", None, "2024-05-01",
                        {"ussr": keys.public_key_line(player)}, initial=stub_state())
    for i in range(TURNS):
        text = f"game: test-game\nturn: {i + 1}\nturn {i + 1} orders ♞\n"
        sig = sshsig.sign(text.encode(), player, "pbem-orders") if i % 2 == 0 else None
        play(d, game, text, orders_signature=sig)
    return d


@pytest.fixture
def game_dir(template, tmp_path):
    d = tmp_path / "game"
    shutil.copytree(template, d)
    return d


def gm_key(d):
    return keys.load_private_key(d / ".secret" / "gm_ed25519")


def resign(path, gm):
    """Replace ``path``'s signature with a fresh valid one (a dishonest game master)."""
    layout.sig_path(path).write_text(sshsig.sign(path.read_bytes(), gm, "pbem-turn"))


def edit_turn(d, name, change):
    """Edit turn file ``name`` as JSON, rewrite it canonically and re-sign it."""
    path = d / "turns" / name
    doc = json.loads(path.read_bytes())
    change(doc)
    from adjudicator.io.codec import canonical_json
    path.write_bytes(canonical_json(doc))
    resign(path, gm_key(d))
    return path


def published_files(d):
    return sorted(p for p in d.rglob("*") if p.is_file() and ".secret" not in p.parts)


# --------------------------------------------------------------------------- clean game

def test_clean_game_verifies(game_dir):
    report = verify(game_dir)
    assert report.ok, report.failure
    assert report.turns_found == report.turns_checked == report.turns_replayed == TURNS
    assert report.dice_checked == 10 * TURNS
    assert report.signatures_checked == 1 + TURNS
    assert report.game_id == "test-game"
    assert report.gm_fingerprint == keys.fingerprint(gm_key(game_dir))
    assert report.final_state == gamedir.current_state(game_dir)[0]


def test_luck_table(game_dir):
    report = verify(game_dir)
    assert set(report.luck) == {"ussr", "germany"}
    # each power attacked twice (4 dice @1) and defended twice (6 dice @2)
    for power in ("ussr", "germany"):
        luck = report.luck[power]
        assert luck.dice == 20
        assert luck.expected == pytest.approx(2 * 4 / 6 + 2 * 6 * 2 / 6)
    total_hits = 0
    for _, _, path in layout.list_turns(game_dir):
        tf, _ = turnfile.read_turn_file(path)
        total_hits += sum(e.hits for e in tf.events if isinstance(e, DiceRolled))
    assert sum(luck.hits for luck in report.luck.values()) == total_hits


def test_luck_multiple_defenders():
    events = [BattleStarted("b", "x", "land", "uk", ("germany", "italy"), {}, {}),
              DiceRolled("b", 1, "defence", "defender", "infantry", 2, (1, 3, 6), 1),
              DiceRolled("b", 1, "attack", "attacker", "tank", 3, (3,), 1)]
    luck = audit.luck_from_events(events)
    assert luck["germany+italy"].hits == 1 and luck["germany+italy"].dice == 3
    assert luck["germany+italy"].expected == pytest.approx(1.0)
    assert luck["uk"].hits == 1 and luck["uk"].expected == pytest.approx(0.5)


def test_luck_counts_a_best_of_unit_once_at_its_chance():
    """A heavy bomber's 2 dice are one trial at 1 - (2/6)^2 (its kept face); a Low Luck
    remainder in 36ths read from 2 dice is one trial at remainder / 36."""
    from adjudicator.model.events import BestOfRolled, LowLuckBestOfRolled
    events = [BattleStarted("b", "x", "land", "uk", ("germany",), {}, {}),
              BestOfRolled("b", 1, "attack", "attacker", "bomber", 4, (5, 3, 6, 5), 1, 2, (3, 5)),
              LowLuckBestOfRolled("b", 2, "attack", "attacker", "bomber", 14, (1, 3), 2,
                                  {"bomber": 1, "fighter": 1}, 50, 1, 36)]
    luck = audit.luck_from_events(events)["uk"]
    assert luck.dice == 3 and luck.hits == 2
    assert luck.expected == pytest.approx(2 * 8 / 9 + 14 / 36)


def test_replay_false_still_checks_dice(game_dir):
    report = audit.verify_game(game_dir, replay=False)
    assert report.ok and report.turns_replayed == 0 and report.dice_checked == 10 * TURNS


def test_render(game_dir):
    console = Console(record=True, width=100)
    audit.render_audit(verify(game_dir), console)
    text = console.export_text()
    assert "OK" in text and "Luck" in text and "Soviet Union" in text
    (game_dir / "orders" / "0002-germany.txt").write_text("changed")
    console = Console(record=True, width=100)
    audit.render_audit(verify(game_dir), console)
    text = console.export_text()
    assert "FAILED" in text and "First failure" in text and "orders/0002-germany.txt" in text


# --------------------------------------------------------------------------- byte flips

def test_every_file_every_flip_detected(game_dir):
    files = published_files(game_dir)
    names = {str(p.relative_to(game_dir)) for p in files}
    assert {"game.json", "game.json.sig", "turns/0001-ussr.json", "turns/0004-germany.json.sig",
            "orders/0003-ussr.txt"} <= names
    assert len(files) == 2 + 3 * TURNS
    rng = random.Random(1941)
    flips = 0
    for path in files:
        original = path.read_bytes()
        positions = {0, len(original) - 1, len(original) // 2}
        positions |= set(rng.sample(range(len(original)), min(8, len(original))))
        for pos in sorted(positions):
            for mask in (0x01, 0x20, 0x80):
                data = bytearray(original)
                data[pos] ^= mask
                path.write_bytes(bytes(data))
                report = verify(game_dir)
                assert not report.ok, f"flip {mask:#x} at {pos} in {path.name} not detected"
                assert report.failure.file == str(path.relative_to(game_dir)) or \
                    report.failure.check in ("signature", "orders", "files"), report.failure
                flips += 1
        path.write_bytes(original)
    assert flips > 100
    assert verify(game_dir).ok


def test_every_resigned_flip_fails_as_a_full_decoding_would(game_dir):
    """A dishonest game master re-signs a turn file with a byte changed.  The replay reads
    only a replayed file's own fields and proves the rest by comparing bytes; the first
    failure must be what the audit without replay (which decodes every field) reports, or,
    where that finds nothing wrong with the file (a change in its events or state), a
    replay failure of the file.  Only the fields the replay copies (the program's name,
    the next commitment) are left to the next file's checks."""
    rng = random.Random(24)
    gm = gm_key(game_dir)
    flips = 0
    for path in sorted((game_dir / "turns").glob("*.json")):
        original = path.read_bytes()
        name = str(path.relative_to(game_dir))
        state_at = original.index(b'"state"')
        copied = set()           # fields the replay copies; the next file's checks see them
        for field in (b'"program": "', b'"next_commitment": "'):
            start = original.index(field) + len(field)
            copied |= set(range(start, original.index(b'"', start)))
        positions = {0, 1, len(original) - 2, len(original) - 1, state_at + 40,
                     original.index(b'"events"') + 30, original.index(b'"previous"') + 20,
                     min(copied), max(copied)}
        positions |= set(rng.sample(range(len(original)), 10))
        for pos in sorted(positions):
            for mask in (0x01, 0x20):
                data = bytearray(original)
                data[pos] ^= mask
                path.write_bytes(bytes(data))
                resign(path, gm)
                full = verify(game_dir, replay=False).failure
                replayed = verify(game_dir).failure
                where = f"{name}[{pos}] ^ {mask:#x}"
                if replayed != full:       # the replay saw what only a later file shows
                    assert (replayed.file, replayed.check) == (name, "replay"), where
                    assert full is None or full.file.startswith("turns/") and full.file > name
                assert replayed is not None or pos in copied, where
                flips += 1
        path.write_bytes(original)
        resign(path, gm)
    assert flips > 100
    assert verify(game_dir).ok


def test_flip_in_turn_file_is_a_signature_failure(game_dir):
    path = game_dir / "turns" / "0002-germany.json"
    data = bytearray(path.read_bytes())
    data[200] ^= 0x01
    path.write_bytes(bytes(data))
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0002-germany.json.sig", "signature")


def test_whitespace_change_in_signature_file_detected(game_dir):
    p = game_dir / "turns" / "0001-ussr.json.sig"
    p.write_text(p.read_text() + "\n")
    assert verify(game_dir).failure.check == "signature"


# --------------------------------------------------------------------------- targeted tampering

def test_replaced_seed_detected_as_commitment(game_dir):
    edit_turn(game_dir, "0002-germany.json", lambda doc: doc.update(seed="ab" * 32))
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0002-germany.json", "commitment")
    assert "hashes to" in f.detail


def test_replaced_seed_and_commitment_detected(game_dir):
    seed = hmac_dice.new_seed()
    edit_turn(game_dir, "0003-ussr.json", lambda doc: doc.update(
        seed=seed.hex(), seed_commitment=hmac_dice.commitment(seed)))
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0003-ussr.json", "commitment")


def test_replaced_orders_file_detected(game_dir):
    (game_dir / "orders" / "0003-ussr.txt").write_text("something else\n")
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("orders/0003-ussr.txt", "orders")


def test_replaced_orders_in_turn_file_detected(game_dir):
    # A dishonest game master changes the orders inside the (re-signed) turn file.
    edit_turn(game_dir, "0002-germany.json", lambda doc: doc.update(orders="other\n"))
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0002-germany.json", "orders")


def test_replaced_die_detected(game_dir):
    def change(doc):
        faces = doc["dice"][1]["faces"]
        faces[2] = faces[2] % 6 + 1
    edit_turn(game_dir, "0002-germany.json", change)
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0002-germany.json", "dice")
    assert "dice[1]" in f.detail and "die 3" in f.detail


def test_changed_event_detected_by_replay(game_dir):
    def change(doc):
        doc["events"][0]["ipcs"] += 5
    edit_turn(game_dir, "0001-ussr.json", change)
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0001-ussr.json", "replay")
    assert "events[0].ipcs" in f.detail


def test_changed_state_detected_by_replay(game_dir):
    def change(doc):
        doc["state"]["ipcs"]["germany"] += 10
    path = edit_turn(game_dir, "0004-germany.json", change)
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0004-germany.json", "replay")
    assert "state.ipcs.germany" in f.detail
    assert path.exists()


def test_broken_chain_detected(game_dir):
    edit_turn(game_dir, "0003-ussr.json", lambda doc: doc.update(previous="sha256:" + "0" * 64))
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0003-ussr.json", "chain")


def test_turn_replaced_by_validly_signed_alternative(game_dir, tmp_path):
    # The game master replays turn 2 with other orders in a fork of the game (re-using
    # turn 2's revealed seed) and swaps the resulting, validly signed turn file in: its own
    # checks pass, but turn 3's link to it breaks.
    fork = tmp_path / "fork"
    shutil.copytree(game_dir, fork)
    for p in [*(fork / "turns").glob("000[234]-*"), *(fork / "orders").glob("000[234]-*")]:
        p.unlink()
    t2, _ = turnfile.read_turn_file(game_dir / "turns" / "0002-germany.json")
    (fork / ".secret" / "next-seed").write_text(t2.seed + "\n")
    play(fork, stub_game(), "different orders for turn 2\n")
    for name in ("turns/0002-germany.json", "turns/0002-germany.json.sig",
                 "orders/0002-germany.txt"):
        shutil.copy(fork / name, game_dir / name)
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0003-ussr.json", "chain")


def test_wrong_previous_commitment_detected(game_dir):
    edit_turn(game_dir, "0001-ussr.json",
              lambda doc: doc.update(next_commitment="sha256:" + "1" * 64))
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0002-germany.json", "chain")
    # ... and with turn 2's link repaired, the seed of turn 2 no longer opens turn 1's
    # (altered) commitment.
    digest = turnfile.file_digest((game_dir / "turns" / "0001-ussr.json").read_bytes())
    edit_turn(game_dir, "0002-germany.json", lambda doc: doc.update(previous=digest))
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0002-germany.json", "commitment")


def test_truncated_middle_detected(game_dir):
    for p in (game_dir / "turns").glob("0002-*"):
        p.unlink()
    (game_dir / "orders" / "0002-germany.txt").unlink()
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0003-ussr.json", "sequence")


def test_missing_signature_detected(game_dir):
    (game_dir / "turns" / "0002-germany.json.sig").unlink()
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0002-germany.json.sig", "signature")


def test_missing_orders_file_detected(game_dir):
    (game_dir / "orders" / "0004-germany.txt").unlink()
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("orders/0004-germany.txt", "orders")


def test_unexpected_file_detected(game_dir):
    (game_dir / "turns" / "notes.txt").write_text("hi")
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/notes.txt", "files")


def test_player_signature_checked(game_dir):
    other = keys.new_keypair(game_dir.parent / "intruder")
    text = (game_dir / "orders" / "0003-ussr.txt").read_bytes()
    forged = sshsig.sign(text, other, "pbem-orders")
    edit_turn(game_dir, "0003-ussr.json", lambda doc: doc.update(orders_signature=forged))
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0003-ussr.json", "orders_signature")
    assert f.detail.startswith("key:")


def test_game_resigned_by_another_key(game_dir):
    """Re-signing everything with another key is self-consistent: only the expected
    game master key (published out of band) catches it."""
    intruder = keys.new_keypair(game_dir.parent / "intruder2")
    gpath = game_dir / "game.json"
    doc = json.loads(gpath.read_bytes())
    doc["game_master"] = keys.public_key_line(intruder)
    from adjudicator.io.codec import canonical_json
    gpath.write_bytes(canonical_json(doc))
    resign(gpath, intruder)
    f = verify(game_dir).failure
    # the turn files are still signed by the real game master
    assert (f.file, f.check) == ("turns/0001-ussr.json.sig", "signature")
    assert f.detail.startswith("key:")


def test_expected_gm_key(game_dir):
    assert verify(game_dir, expected_gm_key=gm_key(game_dir)).ok
    other = keys.new_keypair(game_dir.parent / "someone")
    f = verify(game_dir, expected_gm_key=keys.public_key_line(other)).failure
    assert (f.file, f.check) == ("game.json", "gm_key")


def test_game_file_key_mismatch(game_dir):
    intruder = keys.new_keypair(game_dir.parent / "intruder3")
    resign(game_dir / "game.json", intruder)
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("game.json.sig", "signature")


def test_changed_game_data_detected(game_dir, monkeypatch):
    import attrs
    from adjudicator.io import versions
    other = attrs.evolve(stub_game(), content_hash="sha256:" + "2" * 64)
    # The release that wrote the game cannot have had other rules (issue 20): a failure.
    report = audit.verify_game(game_dir, lambda name: other, parse=stub_parse,
                               adjudicate=stub_adjudicate)
    assert (report.failure.file, report.failure.check) == ("game.json", "version")
    # Another (later) release verifying it: not a failure, every other check ran, the
    # replay needs the original rules
    monkeypatch.setattr(versions, "PROGRAM", "pbem-adjudicator 99.0")
    report = audit.verify_game(game_dir, lambda name: other, parse=stub_parse,
                               adjudicate=stub_adjudicate)
    assert report.ok and report.turns_replayed == 0 and report.dice_checked == 10 * TURNS
    assert not report.complete
    assert "rules" in report.replay_note and other.content_hash in report.replay_note
    assert "pipx run --spec pbem-adjudicator==" in report.replay_note
    report = audit.verify_game(game_dir, lambda name: other, parse=stub_parse,
                               adjudicate=stub_adjudicate, require_replay=True)
    assert (report.failure.file, report.failure.check) == ("game.json", "replay")


def test_different_engine_detected(game_dir):
    def other_engine(game, state, orders, dice):
        result = stub_adjudicate(game, state, orders, dice)
        dice.roll(1, "one more")
        return result
    report = audit.verify_game(game_dir, lambda name: stub_game(), parse=stub_parse,
                               adjudicate=other_engine)
    f = report.failure
    assert (f.file, f.check) == ("turns/0001-ussr.json", "replay")
    assert "dice" in f.detail


def test_engine_crash_is_a_replay_failure(game_dir):
    def crash(game, state, orders, dice):
        raise RuntimeError("boom")
    report = audit.verify_game(game_dir, lambda name: stub_game(), parse=stub_parse,
                               adjudicate=crash)
    assert report.failure.check == "replay" and "boom" in report.failure.detail


def test_not_a_game_directory(tmp_path):
    report = verify(tmp_path)
    assert (report.failure.file, report.failure.check) == ("game.json", "files")


# --------------------------------------------------------------------------- the real engine

def test_real_engine_end_to_end(tmp_path):
    """The real 1941 game: one USSR turn from the example orders and a German pass,
    published, audited with the real loader, parser and engine, then tampered with."""
    try:
        from adjudicator.service.games import load_game
        game = load_game("aa1941")
    except ImportError as exc:  # pragma: no cover - engine not there yet
        pytest.skip(f"no loader: {exc}")
    from adjudicator.io.paths import EXAMPLE_DIR
    example = EXAMPLE_DIR / "orders"
    orders = example / "01-ussr.txt"
    if not orders.exists():  # pragma: no cover
        pytest.skip("no example orders")
    d = tmp_path / "real"
    gamedir.create_game(d, game, "e2e-test", None, "2024-01-01")
    try:
        gamedir.process_turn(d, game, orders.read_bytes())
    except NotImplementedError:  # pragma: no cover
        pytest.skip("engine not implemented yet")
    gamedir.process_turn(d, game, "# no orders this turn\npass\n")
    report = audit.verify_game(d, load_game)
    assert report.ok, report.failure
    assert report.turns_replayed == 2 and report.dice_checked > 0
    tf, _ = turnfile.read_turn_file(d / "turns" / "0001-ussr.json")
    assert tf.power == "ussr" and any(isinstance(e, DiceRolled) for e in tf.events)
    # a changed casualty count in the published state is caught by the replay
    def change(doc):
        space = sorted(doc["state"]["units"])[0]
        doc["state"]["units"][space].append({"type": "infantry", "owner": "ussr", "count": 1})
    edit_turn(d, "0001-ussr.json", change)
    f = audit.verify_game(d, load_game).failure
    assert (f.file, f.check) == ("turns/0001-ussr.json", "replay")


def test_unencodable_orders_text_is_a_failure_not_a_crash(game_dir):
    path = game_dir / "turns" / "0002-germany.json"
    doc = json.loads(path.read_bytes())
    doc["orders"] = "\ud800"
    path.write_bytes(json.dumps(doc, sort_keys=True, indent=2).encode("ascii") + b"\n")
    resign(path, gm_key(game_dir))
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0002-germany.json", "format")
    assert "UTF-8" in f.detail


def test_engine_not_available_is_not_a_verdict(game_dir):
    def missing(game, state, orders, dice):
        raise NotImplementedError
    with pytest.raises(audit.AuditUnavailable, match="replay=False"):
        audit.verify_game(game_dir, lambda name: stub_game(), parse=stub_parse,
                          adjudicate=missing)


def test_rules_that_cannot_be_loaded_are_a_note_not_a_verdict(game_dir):
    def missing(name, options=None):
        raise PbemError(f"unknown game '{name}'")
    report = audit.verify_game(game_dir, missing, parse=stub_parse, adjudicate=stub_adjudicate)
    assert report.ok and report.turns_replayed == 0 and report.dice_checked == 10 * TURNS
    assert "the rules 'stub' cannot be loaded here" in report.replay_note
    report = audit.verify_game(game_dir, missing, require_replay=True)
    assert (report.failure.file, report.failure.check) == ("game.json", "replay")


def _respell(path):
    """The same JSON content in other bytes (no indentation), re-signed."""
    doc = json.loads(path.read_bytes())
    path.write_bytes(json.dumps(doc, sort_keys=True, ensure_ascii=False).encode("utf-8") + b"\n")


def test_a_respelt_turn_file_fails_format_though_the_replay_agrees(game_dir):
    # the replay proves a turn file's form: content the replay agrees with, in other bytes
    path = game_dir / "turns" / "0002-germany.json"
    _respell(path)
    resign(path, gm_key(game_dir))
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0002-germany.json", "format")
    assert "not in canonical form" in f.detail


def test_a_respelt_turn_file_with_a_later_problem_still_fails_format_first(game_dir):
    path = game_dir / "turns" / "0002-germany.json"
    doc = json.loads(path.read_bytes())
    doc["previous"] = "sha256:" + "0" * 64          # the chain check would fail too
    path.write_bytes(json.dumps(doc).encode("utf-8"))
    resign(path, gm_key(game_dir))
    f = verify(game_dir).failure
    assert (f.file, f.check) == ("turns/0002-germany.json", "format")
    assert "not in canonical form" in f.detail
