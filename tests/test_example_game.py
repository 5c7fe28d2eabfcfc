"""The bundled example game, turns/aa1941-example: round 1 of Axis & Allies 1941, all five
powers, played with demo seeds.

* every orders file checks clean and is processed into a fresh game directory, which then
  passes the audit; units and IPCs add up exactly; processing again gives the same turns;
* the committed, published game in turns/aa1941-example/game/ verifies with the current
  engine and is exactly what scripts/regenerate_example.py produces;
* tampering with any published byte, seed, orders file or die is detected (issue 3).
"""

from __future__ import annotations

import json
import random
import shutil
from collections import Counter
from pathlib import Path

import attrs
import pytest

from adjudicator.service import gamedir
from adjudicator.io import layout
from adjudicator.io import sshsig
from adjudicator.service.audit import verify_game
from adjudicator.model.events import AircraftLost, BattleStarted, Casualties, Placed
from adjudicator.io.loader import load_game
from adjudicator.io.parser import parse_orders
from adjudicator.engine.turn import check
from adjudicator.io.turnfile import decode_game_file, decode_turn_file, encode
from conftest import EXAMPLE_ORDERS, PUBLISHED_GAME, snapshot

GAME_ID = "aa1941-example"
STALE = ("the published example game in turns/aa1941-example/game/ no longer matches the "
         "engine, the map data or the example orders; if that change is intended, re-run "
         "`python scripts/regenerate_example.py` and commit the result")


def play(directory: Path) -> list:
    """Create a game in ``directory`` and process every example orders file in order,
    asserting each checks clean first.  Returns the turn files."""
    game = load_game("aa1941")
    seeds = gamedir.demo_seeds(GAME_ID)
    gamedir.create_game(directory, game, GAME_ID, created="2026-01-01", seeds=seeds)
    turns = []
    for path in EXAMPLE_ORDERS:
        state, _ = gamedir.current_state(directory)
        data = path.read_bytes()
        problems = check(game, state, parse_orders(data.decode("utf-8"), game, power=state.power))
        errors = [f"line {p.line}: {p.message}" for p in problems if p.severity == "error"]
        assert errors == [], f"{path.name} does not check clean"
        turns.append(gamedir.process_turn(directory, game, data, seeds=seeds))
    return turns


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    directory = tmp_path_factory.mktemp("example") / "game"
    return directory, play(directory)


def published_turns(directory: Path):
    return [decode_turn_file(p.read_bytes(), p) for _, _, p in layout.list_turns(directory)]


# --------------------------------------------------------------------------- a fresh game

def test_example_has_a_full_round():
    assert [p.name for p in EXAMPLE_ORDERS] == [
        "01-ussr.txt", "02-germany.txt", "03-uk.txt", "04-japan.txt", "05-usa.txt"]


def test_example_game_verifies(played):
    directory, turns = played
    report = verify_game(directory, load_game)
    assert report.ok, report.failure
    assert report.turns_found == report.turns_checked == report.turns_replayed == len(EXAMPLE_ORDERS)
    assert len(layout.list_turns(directory)) == len(EXAMPLE_ORDERS)
    assert report.dice_checked > 0
    assert report.dice_checked == sum(len(r.faces) for t in turns for r in t.dice)
    state, last = gamedir.current_state(directory)
    assert (last, state.round, state.power, state.turn_number) == (5, 2, "ussr", 6)


def _losses_and_gains(turns) -> Counter:
    """(owner, unit type) -> units placed minus units lost, from the events alone."""
    delta: Counter = Counter()
    for tf in turns:
        battles: dict[str, BattleStarted] = {}
        for e in tf.events:
            if isinstance(e, BattleStarted):
                battles[e.battle] = e
            elif isinstance(e, Placed):
                for t, n in e.units.items():
                    delta[(e.power, t)] += n
            elif isinstance(e, AircraftLost):
                for t, n in e.units.items():
                    delta[(e.power, t)] -= n
            elif isinstance(e, Casualties):
                battle = battles[e.battle]
                if e.side == "attacker":
                    owner = battle.attacker
                else:
                    # Casualties name unit types, not owners: exact only with one defender.
                    assert len(battle.defenders) == 1, (
                        f"turn {tf.turn_number}: {e.battle} has defenders {battle.defenders}; "
                        "teach this accounting whose units were lost")
                    owner = battle.defenders[0]
                for t, n in e.killed.items():
                    delta[(owner, t)] -= n
                for t, n in e.cargo_lost.items():
                    delta[(owner, t)] -= n
    return delta


def test_units_are_conserved(played):
    directory, turns = played
    initial = decode_game_file((directory / "game.json").read_bytes(), "game.json").initial_state
    delta = _losses_and_gains(turns)
    assert sum(-n for n in delta.values() if n < 0) > 0, "the example has casualties"
    expected = initial.unit_counts() + Counter()   # copy
    expected.update(delta)
    assert +expected == +turns[-1].state.unit_counts()
    # and turn by turn
    state = initial
    for tf in turns:
        expected = state.unit_counts()
        expected.update(_losses_and_gains([tf]))
        assert +expected == +tf.state.unit_counts(), f"turn {tf.turn_number} ({tf.power})"
        state = tf.state


def test_ipcs_never_negative(played):
    directory, turns = played
    initial = decode_game_file((directory / "game.json").read_bytes(), "game.json").initial_state
    for state in [initial] + [t.state for t in turns]:
        assert all(v >= 0 for v in state.ipcs.values()), (state.turn_number, state.ipcs)


def test_processing_again_gives_the_same_turns(played, tmp_path):
    first_dir, first = played
    second = play(tmp_path / "again")
    # A fresh game master key is generated each time, so signatures, game.json and the
    # previous-digests differ; everything the engine and the dice produce must not.
    assert len(first) == len(second)
    for a_path, b_path in zip((p for _, _, p in layout.list_turns(first_dir)),
                              (p for _, _, p in layout.list_turns(tmp_path / "again"))):
        assert a_path.name == b_path.name
        a, b = json.loads(a_path.read_bytes()), json.loads(b_path.read_bytes())
        for field in ("events", "state", "dice", "seed", "next_commitment", "orders"):
            assert a[field] == b[field], f"{a_path.name}: {field} differs"
    # (the comparison means something: the two games have different keys and digests)
    assert a["previous"] != b["previous"]
    assert snapshot(first_dir / "orders") == snapshot(tmp_path / "again" / "orders")


# --------------------------------------------------------------------------- the committed game

def test_committed_example_verifies():
    assert PUBLISHED_GAME.is_dir(), f"{PUBLISHED_GAME} is missing; {STALE}"
    assert not (PUBLISHED_GAME / layout.SECRET_DIR).exists(), ".secret/ must never be published"
    report = verify_game(PUBLISHED_GAME, load_game)
    assert report.ok, f"{report.failure}\n{STALE}"
    assert report.turns_checked == len(EXAMPLE_ORDERS), STALE


def test_committed_example_is_what_the_script_produces(regenerate, tmp_path):
    fresh = regenerate.play_example(tmp_path / "game")
    assert snapshot(fresh) == snapshot(PUBLISHED_GAME), STALE


def test_committed_orders_are_the_example_orders():
    published = sorted((PUBLISHED_GAME / "orders").glob("*.txt"))
    assert [p.read_bytes() for p in published] == [p.read_bytes() for p in EXAMPLE_ORDERS], STALE


# --------------------------------------------------------------------------- tampering (issue 3)

@pytest.fixture
def copy(tmp_path) -> Path:
    target = tmp_path / "game"
    shutil.copytree(PUBLISHED_GAME, target)
    return target


def _positions(size: int, rng: random.Random, count: int) -> list[int]:
    """The first and last byte, evenly spaced ones and a few random ones."""
    fixed = {0, size - 1, size // 2} | {size * i // (count - 2) for i in range(1, count - 2)}
    fixed |= {rng.randrange(size) for _ in range(3)}
    return sorted(p for p in fixed if 0 <= p < size)


def test_any_flipped_byte_is_detected(copy):
    rng = random.Random(3)
    files = sorted(p for p in copy.rglob("*") if p.is_file())
    assert len(files) == 2 + 3 * len(EXAMPLE_ORDERS)
    undetected, tried = [], 0
    for path in files:
        original = path.read_bytes()
        for pos in _positions(len(original), rng, 8):
            for mask in (0x01, 0x20):
                data = bytearray(original)
                data[pos] ^= mask
                path.write_bytes(bytes(data))
                report = verify_game(copy, load_game)
                tried += 1
                where = f"{path.relative_to(copy)}[{pos}] ^ {mask:#04x}"
                if report.ok:
                    undetected.append(where)
                else:   # unsigned orders files by their digest, everything else by signature
                    expected = "orders" if path.parent.name == "orders" else "signature"
                    assert report.failure.check == expected, (where, report.failure)
        path.write_bytes(original)
    assert undetected == []
    assert tried > 200
    assert verify_game(copy, load_game).ok     # everything restored


def _resign(directory: Path, path: Path, data: bytes, key) -> None:
    path.write_bytes(data)
    layout.sig_path(path).write_bytes(sshsig.sign(data, key, sshsig.NAMESPACE_TURN).encode())


def _turn(directory: Path, number: int):
    _, _, path = layout.list_turns(directory)[number - 1]
    return path, decode_turn_file(path.read_bytes(), path)


def test_committed_example_is_signed_by_the_demo_key(regenerate):
    from adjudicator.io import keys
    report = verify_game(PUBLISHED_GAME, load_game,
                         expected_gm_key=regenerate.demo_gm_key().public_key())
    assert report.ok, report.failure
    other = keys.public_key_line(regenerate.demo_gm_key("another-game"))
    assert verify_game(PUBLISHED_GAME, load_game, expected_gm_key=other).failure.check == "gm_key"


def test_edited_turn_without_new_signature_fails_signature(copy):
    path, tf = _turn(copy, 3)
    path.write_bytes(encode(attrs.evolve(tf, seed="00" * 32)))
    failure = verify_game(copy, load_game).failure
    assert (failure.check, failure.file) == ("signature", "turns/0003-uk.json.sig")


def test_replaced_seed_is_detected(copy, regenerate):
    key = regenerate.demo_gm_key()
    path, tf = _turn(copy, 3)
    _, other = _turn(copy, 4)          # a genuine seed, but revealed for another turn
    _resign(copy, path, encode(attrs.evolve(tf, seed=other.seed)), key)
    failure = verify_game(copy, load_game).failure
    assert (failure.check, failure.file) == ("commitment", "turns/0003-uk.json")


def test_replaced_orders_file_is_detected(copy):
    path = copy / "orders" / "0002-germany.txt"
    path.write_bytes(path.read_bytes().replace(b"buy 2 inf, 1 tank", b"buy 4 inf"))
    failure = verify_game(copy, load_game).failure
    assert (failure.check, failure.file) == ("orders", "orders/0002-germany.txt")


def test_replaced_orders_with_matching_turn_file_fail_the_dice(copy, regenerate):
    """Rewriting the orders in both places (and re-signing): the dice are bound to the
    canonical orders, so keeping the old canonical digest fails the canonical check, and
    recording the new one means the seed no longer gives the recorded dice."""
    from adjudicator.io.orders_text import canonical_digest
    from adjudicator.io.parser import format_orders
    from adjudicator.io.turnfile import file_digest, orders_bytes
    key = regenerate.demo_gm_key()
    path, tf = _turn(copy, 2)
    text = tf.orders.replace("buy 2 inf, 1 tank", "buy 4 inf")
    assert text != tf.orders
    (copy / "orders" / "0002-germany.txt").write_bytes(orders_bytes(text))
    changed = attrs.evolve(tf, orders=text, orders_digest=file_digest(orders_bytes(text)))
    _resign(copy, path, encode(changed), key)
    failure = verify_game(copy, load_game).failure
    assert (failure.check, failure.file) == ("canonical", "turns/0002-germany.json")
    game = load_game("aa1941")
    new_digest = canonical_digest(format_orders(parse_orders(text, game, "germany"), game))
    _resign(copy, path, encode(attrs.evolve(changed, canonical_orders_digest=new_digest)), key)
    failure = verify_game(copy, load_game).failure
    assert (failure.check, failure.file) == ("dice", "turns/0002-germany.json")


def test_respaced_orders_keep_the_dice(copy):
    """Whitespace and comments do not change the canonical orders, so a game master who
    re-spaces unsigned orders cannot pick other dice (issue 8)."""
    from adjudicator.io.orders_text import canonical_digest
    from adjudicator.io.parser import format_orders
    game = load_game("aa1941")
    _path, tf = _turn(copy, 2)
    respaced = "# re-spaced\n\n" + "\n".join("   " + " ".join(line.split()) + "   # x"
                                          for line in tf.orders.splitlines()) + "\r\n"
    digests = {canonical_digest(format_orders(parse_orders(t, game, "germany"), game))
               for t in (tf.orders, respaced, tf.orders.replace(" ", "  "))}
    assert digests == {tf.canonical_orders_digest}


def test_changed_die_is_detected(copy, regenerate):
    key = regenerate.demo_gm_key()
    path, tf = _turn(copy, 2)
    record = tf.dice[0]
    faces = (record.faces[0] % 6 + 1,) + tuple(record.faces[1:])
    dice = (attrs.evolve(record, faces=faces),) + tuple(tf.dice[1:])
    _resign(copy, path, encode(attrs.evolve(tf, dice=dice)), key)
    failure = verify_game(copy, load_game).failure
    assert (failure.check, failure.file) == ("dice", "turns/0002-germany.json")
    assert "dice[0]" in failure.detail


def test_changed_outcome_is_detected_by_replay(copy, regenerate):
    """Dice and seed untouched, the state edited (one more German infantry) and re-signed:
    only re-adjudication can tell."""
    from adjudicator.model.state import Unit
    key = regenerate.demo_gm_key()
    path, tf = _turn(copy, 2)
    units = dict(tf.state.units)
    units["Germany"] = units["Germany"] + (Unit("infantry", "germany"),)
    _resign(copy, path, encode(attrs.evolve(tf, state=attrs.evolve(tf.state, units=units))), key)
    failure = verify_game(copy, load_game).failure
    assert (failure.check, failure.file) == ("replay", "turns/0002-germany.json")


def test_removed_turn_in_the_middle_is_detected(copy):
    for suffix in (".json", ".json.sig"):
        (copy / "turns" / f"0003-uk{suffix}").unlink()
    (copy / "orders" / "0003-uk.txt").unlink()
    failure = verify_game(copy, load_game).failure
    assert failure.check in ("sequence", "chain")
    assert failure.file == "turns/0004-japan.json"


def test_readme_names_the_published_key():
    from adjudicator.io import keys
    gm = json.loads((PUBLISHED_GAME / "game.json").read_bytes())["game_master"]
    readme = (PUBLISHED_GAME.parent / "README.md").read_text("utf-8")
    assert keys.fingerprint(gm) in readme
    assert " ".join(gm.split()[:2]) in readme


def test_docs_orders_example_is_the_checked_german_orders():
    # docs/orders.md shows Germany's example orders; they must stay the file the tests run.
    from conftest import EXAMPLE_ORDERS
    doc = (EXAMPLE_ORDERS[0].parents[3] / "docs" / "orders.md").read_text(encoding="utf-8")
    german = EXAMPLE_ORDERS[1].read_text(encoding="utf-8")
    assert "```\n" + german + "```\n" in doc
