"""Game directories and turn files: create, process turns (with a stub engine), storage."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess

import pytest

import adjudicator
from adjudicator.io import orders_text, parser
from adjudicator.service import gamedir
from adjudicator.io import layout
from adjudicator.io import hmac_dice
from adjudicator.io import keys
from adjudicator.io import sshsig
from adjudicator.io import storage
from adjudicator.io import turnfile
from adjudicator.model.board import GameMap, Territory
from adjudicator.model.errors import PbemError, StateFileError
from adjudicator.model.events import BattleStarted, DiceRolled, TurnStarted
from adjudicator.model.game import Game
from adjudicator.model.orders import OrderSet
from adjudicator.model.rules import Domain, Power, Ruleset, UnitType
from adjudicator.model.state import GameState, Unit
from adjudicator.engine.turn import TurnResult

SSH_KEYGEN = shutil.which("ssh-keygen")


# --------------------------------------------------------------------------- a stub game
# (tests/test_audit.py has the same stub: keep them in step)

def stub_game() -> Game:
    units = {"infantry": UnitType("infantry", "Infantry", Domain.LAND, 3, 1, 2, 1)}
    powers = {
        "ussr": Power("ussr", "Soviet Union", "Allies", "russia", "Moscow", 24),
        "germany": Power("germany", "Germany", "Axis", "germany", "Berlin", 40),
    }
    ruleset = Ruleset("stub", "Stub game", ("ussr", "germany"), units, powers, ())
    territories = {
        "russia": Territory("russia", False, 8, "ussr", capital_of="ussr"),
        "karelia": Territory("karelia", False, 2, "ussr"),
        "germany": Territory("germany", False, 10, "germany", capital_of="germany"),
    }
    adjacency = {"russia": frozenset({"karelia"}), "karelia": frozenset({"russia", "germany"}),
                 "germany": frozenset({"karelia"})}
    return Game(ruleset, GameMap("stubmap", territories, adjacency), (),
                "sha256:" + hashlib.sha256(b"stub game data").hexdigest())


def stub_state(game_id: str = "test-game") -> GameState:
    return GameState(
        game_id=game_id, map_id="stubmap", round=1, power="ussr",
        owners={"russia": "ussr", "karelia": "ussr", "germany": "germany"},
        units={"karelia": (Unit("infantry", "ussr"),) * 3,
               "germany": (Unit("infantry", "germany"),) * 4},
        ipcs={"ussr": 24, "germany": 40},
    )


def stub_parse(text, game, power=None):
    return OrderSet(power=power, source=text)


def stub_adjudicate(game, state, orders, dice):
    """Rolls ten dice in a 'battle' and pays the attacker one IPC per hit."""
    order = game.ruleset.turn_order
    enemy = order[(order.index(state.power) + 1) % len(order)]
    battle = f"battle-{state.turn_number}"
    events = [TurnStarted(state.power, state.round, state.ipcs[state.power]),
              BattleStarted(battle, "karelia", "land", state.power, (enemy,),
                            {"infantry": 4}, {"infantry": 6})]
    hits = 0
    for side, count, target in (("attacker", 4, 1), ("defender", 6, 2)):
        rolls = dice.roll(count, f"{battle} round 1 {side} infantry @{target}")
        h = sum(r <= target for r in rolls)
        events.append(DiceRolled(battle, 1, "attack" if side == "attacker" else "defence",
                                 side, "infantry", target, tuple(rolls), h))
        if side == "attacker":
            hits = h
    nxt = (order.index(state.power) + 1) % len(order)
    ipcs = dict(state.ipcs)
    ipcs[state.power] += hits
    new = GameState(state.game_id, state.map_id, state.round + (nxt == 0), order[nxt],
                    state.owners, state.units, ipcs, state.standing_orders, state.winner,
                    state.turn_number + 1)
    return TurnResult(new, tuple(events))


def new_game(tmp_path, players=None, name="game"):
    game = stub_game()
    directory = tmp_path / name
    gamedir.create_game(directory, game, "test-game", None, "2024-05-01", players or {},
                        initial=stub_state())
    return game, directory


def play(directory, game, text, **kw):
    return gamedir.process_turn(directory, game, text, parse=stub_parse,
                                adjudicate=stub_adjudicate, **kw)


# --------------------------------------------------------------------------- create

def test_create_game_layout(tmp_path):
    game, d = new_game(tmp_path)
    assert (d / "game.json").is_file() and (d / "game.json.sig").is_file()
    assert (d / "turns").is_dir() and (d / "orders").is_dir()
    assert stat.S_IMODE(os.stat(d / ".secret").st_mode) == 0o700
    assert stat.S_IMODE(os.stat(d / ".secret" / "gm_ed25519").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(d / ".secret" / "next-seed").st_mode) == 0o600
    gf, data = turnfile.read_game_file(d / "game.json")
    assert data == turnfile.encode(gf)                     # canonical bytes
    assert gf.schema_version == 2 and gf.game_id == "test-game" and gf.ruleset == "stub"
    assert gf.map_id == "stubmap" and gf.rules_hash == game.content_hash
    assert gf.engine == adjudicator.ENGINE_VERSION
    assert gf.program == f"pbem-adjudicator {adjudicator.__version__}"
    assert gf.created == "2024-05-01" and gf.dice == "pbem-dice-v2" and gf.dice_sides == 6
    assert gf.players == {"ussr": turnfile.PlayerRecord(), "germany": turnfile.PlayerRecord()}
    assert json.loads(data)["players"]["ussr"] == {"email": None, "key": None, "name": None}
    assert gf.initial_state == stub_state()
    seed = bytes.fromhex((d / ".secret" / "next-seed").read_text().strip())
    assert gf.seed_commitment == hmac_dice.commitment(seed)
    sshsig.verify(data, (d / "game.json.sig").read_text(), gf.game_master, "pbem-turn",
                  strict=True)
    assert ".secret" not in data.decode() and seed.hex() not in data.decode()


def test_create_game_refuses_existing(tmp_path):
    game, d = new_game(tmp_path)
    with pytest.raises(PbemError, match="already exists"):
        gamedir.create_game(d, game, "test-game", None, "2024-05-01", initial=stub_state())


def test_create_game_with_given_key_and_players(tmp_path):
    game = stub_game()
    gm = keys.new_keypair(tmp_path / "gm", "gm")
    player = keys.new_keypair(tmp_path / "ussr", "ussr player")
    d = tmp_path / "g"
    gamedir.create_game(d, game, "test-game", tmp_path / "gm", "2024-05-01",
                        {"ussr": tmp_path / "ussr.pub"}, initial=stub_state())
    gf, _ = turnfile.read_game_file(d / "game.json")
    assert keys.same_key(gf.game_master, gm)
    assert keys.same_key(gf.players["ussr"].key, player)
    assert gf.players["germany"] == turnfile.PlayerRecord()
    assert gf.players["ussr"].key.endswith(" ussr player")
    assert not (d / ".secret" / "gm_ed25519").exists()
    with pytest.raises(PbemError, match="unknown power"):
        gamedir.create_game(tmp_path / "g2", game, "test-game", tmp_path / "gm", "x",
                            {"italy": None}, initial=stub_state())
    assert not (tmp_path / "g2").exists()
    line = keys.public_key_line(player)
    gamedir.create_game(tmp_path / "g3", game, "test-game", tmp_path / "gm", "x",
                        {"germany": f"someone@example {line} comment  here"},
                        initial=stub_state())
    gf, _ = turnfile.read_game_file(tmp_path / "g3" / "game.json")
    assert gf.players["germany"].key == line + " comment here"


@pytest.mark.skipif(SSH_KEYGEN is None, reason="ssh-keygen not installed")
def test_published_files_verify_with_ssh_keygen(tmp_path):
    game, d = new_game(tmp_path)
    play(d, game, "attack karelia\n")
    gf, _ = turnfile.read_game_file(d / "game.json")
    allowed = tmp_path / "allowed_signers"
    allowed.write_text(f"gm {gf.game_master}\n")
    for f in (d / "game.json", d / "turns" / "0001-ussr.json"):
        with open(f, "rb") as fh:
            r = subprocess.run([SSH_KEYGEN, "-Y", "verify", "-f", str(allowed), "-I", "gm",
                                "-n", "pbem-turn", "-s", f"{f}.sig"], stdin=fh,
                               capture_output=True, text=True)
        assert r.returncode == 0, r.stderr


# --------------------------------------------------------------------------- process turns

def test_process_turns_chain_and_contents(tmp_path):
    game, d = new_game(tmp_path)
    texts = ["ussr orders\r\nline two ♞\n", "germany: attack!\n", "", "last one"]
    files = []
    for text in texts:
        tf = play(d, game, text)
        files.append(tf)
    gf, gbytes = turnfile.read_game_file(d / "game.json")
    assert [p.name for _, _, p in layout.list_turns(d)] == [
        "0001-ussr.json", "0002-germany.json", "0003-ussr.json", "0004-germany.json"]
    prev_bytes, commit = gbytes, gf.seed_commitment
    for tf, text in zip(files, texts):
        path = layout.turn_path(d, tf.turn_number, tf.power)
        on_disk, data = turnfile.read_turn_file(path)
        assert on_disk == tf and data == turnfile.encode(tf)
        assert tf.previous == turnfile.file_digest(prev_bytes)
        assert tf.seed_commitment == commit == hmac_dice.commitment(bytes.fromhex(tf.seed))
        assert tf.orders == text
        opath = layout.orders_path(d, tf.turn_number, tf.power)
        assert opath.read_bytes() == text.encode("utf-8")
        assert tf.orders_digest == "sha256:" + hashlib.sha256(text.encode()).hexdigest()
        faces = [f for rec in tf.dice for f in rec.faces]
        # the dice are bound to the canonical orders (here the stub parser's: the power)
        canonical = parser.format_orders(stub_parse(text, game, tf.power), game)
        assert tf.canonical_orders_digest == orders_text.canonical_digest(canonical)
        assert faces == hmac_dice.stream(tf.seed, tf.game_id, tf.turn_number,
                                         tf.canonical_orders_digest, len(faces),
                                         algorithm="pbem-dice-v2")
        rolled = [r for ev in tf.events if isinstance(ev, DiceRolled) for r in ev.rolls]
        assert rolled == faces and len(faces) == 10
        sshsig.verify(data, layout.sig_path(path).read_text(), gf.game_master, "pbem-turn",
                      strict=True)
        prev_bytes, commit = data, tf.next_commitment
    state, last = gamedir.current_state(d)
    assert last == 4 and state == files[-1].state and state.turn_number == 5
    assert state.round == 3 and state.power == "ussr"
    seed = bytes.fromhex((d / ".secret" / "next-seed").read_text().strip())
    assert hmac_dice.commitment(seed) == files[-1].next_commitment
    assert not [p for p in d.rglob("*.tmp")]


def test_current_state_before_any_turn(tmp_path):
    game, d = new_game(tmp_path)
    assert gamedir.current_state(d) == (stub_state(), 0)


def test_same_orders_different_turn_give_different_dice(tmp_path):
    game, d = new_game(tmp_path)
    a = play(d, game, "same")
    b = play(d, game, "same")
    assert a.seed != b.seed and a.dice != b.dice


def test_refuses_existing_turn_file(tmp_path, monkeypatch):
    game, d = new_game(tmp_path)
    original = (d / ".secret" / "next-seed").read_bytes()
    play(d, game, "first")
    published = (d / "turns" / "0001-ussr.json").read_bytes()
    # Pretend turn 1 was not seen (as a second process started earlier would): the turn
    # file must not be replaced.
    (d / ".secret" / "next-seed").write_bytes(original)
    monkeypatch.setattr(gamedir, "list_turns", lambda directory: [])
    with pytest.raises(PbemError, match="already exists"):
        play(d, game, "second")
    assert (d / "turns" / "0001-ussr.json").read_bytes() == published
    assert (d / "orders" / "0001-ussr.txt").read_bytes() == b"first"


def test_refuses_seed_not_matching_commitment(tmp_path):
    game, d = new_game(tmp_path)
    (d / ".secret" / "next-seed").write_text(hmac_dice.new_seed().hex() + "\n")
    with pytest.raises(PbemError, match="does not match the published commitment"):
        play(d, game, "x")
    assert not list((d / "turns").iterdir()) and not list((d / "orders").iterdir())


def test_refuses_missing_seed(tmp_path):
    game, d = new_game(tmp_path)
    (d / ".secret" / "next-seed").unlink()
    with pytest.raises(PbemError, match="missing"):
        play(d, game, "x")


def test_refuses_changed_game_data(tmp_path):
    game, d = new_game(tmp_path)
    import attrs
    other = attrs.evolve(game, content_hash="sha256:" + "0" * 64)
    with pytest.raises(PbemError, match="refusing to extend this game: the game was played "
                                        "with rules .* Continue it with the release"):
        play(d, other, "x")


def test_refuses_wrong_gm_key(tmp_path):
    game, d = new_game(tmp_path)
    other = keys.new_keypair(tmp_path / "other")
    with pytest.raises(PbemError, match="not the one this game"):
        play(d, game, "x", gm_key=other)


def test_engine_failure_writes_nothing(tmp_path):
    game, d = new_game(tmp_path)
    before = (d / ".secret" / "next-seed").read_bytes()

    def broken(game, state, orders, dice):
        dice.roll(3, "x")
        raise PbemError("orders rejected")

    with pytest.raises(PbemError, match="orders rejected"):
        gamedir.process_turn(d, game, "x", parse=stub_parse, adjudicate=broken)
    assert (d / ".secret" / "next-seed").read_bytes() == before
    assert not list((d / "turns").iterdir()) and not list((d / "orders").iterdir())
    assert not [p for p in d.rglob("*.tmp")]
    play(d, game, "x")          # and the game carries on


def test_recovers_after_crash_before_secret_replaced(tmp_path):
    game, d = new_game(tmp_path)
    secret = d / ".secret" / "next-seed"
    old = secret.read_bytes()
    play(d, game, "one")
    # Simulate a crash between publishing the turn and promoting the new seed.
    secret.rename(d / ".secret" / ".next-seed.deadbeef.tmp")
    secret.write_bytes(old)
    tf = play(d, game, "two")
    assert tf.turn_number == 2
    assert not (d / ".secret" / ".next-seed.deadbeef.tmp").exists()


def test_refuses_when_game_is_won(tmp_path):
    game = stub_game()
    import attrs
    d = tmp_path / "won"
    gamedir.create_game(d, game, "test-game", None, "x",
                        initial=attrs.evolve(stub_state(), winner="Allies"))
    with pytest.raises(PbemError, match="game is over"):
        play(d, game, "x")


def test_refuses_tampered_last_turn(tmp_path):
    game, d = new_game(tmp_path)
    play(d, game, "one")
    p = d / "turns" / "0001-ussr.json"
    p.write_bytes(p.read_bytes().replace(b'"orders": "one"', b'"orders": "two"'))
    with pytest.raises(PbemError, match="signature does not verify"):
        play(d, game, "x")


def test_signed_orders(tmp_path):
    player = keys.new_keypair(tmp_path / "ussr", "ussr")
    game, d = new_game(tmp_path, players={"ussr": keys.public_key_line(player)})
    text = "game: test-game\nturn: 1\nattack\n"
    with pytest.raises(PbemError, match="must be signed"):
        play(d, game, text)
    wrong = sshsig.sign(text.encode(), player, "pbem-turn")
    with pytest.raises(sshsig.SignatureError) as exc:
        play(d, game, text, orders_signature=wrong)
    assert exc.value.check == "namespace"
    good = sshsig.sign(text.encode(), player, "pbem-orders")
    tf = play(d, game, text, orders_signature=good)
    assert tf.orders_signature == good
    with pytest.raises(PbemError, match="lists no key"):
        play(d, game, "germany\n", orders_signature=good)
    play(d, game, "germany\n")       # germany has no key: unsigned is fine


@pytest.mark.parametrize("headers, message", [
    ("", "must name the game and the turn.*'game: test-game' and 'turn: 1'"),
    ("game: test-game\n", "must name the game and the turn.*'turn: 1'"),
    ("TURN: 1\n", "must name the game and the turn.*'game: test-game'"),
    ("game: other-game\nturn: 1\n", "for game 'other-game', not 'test-game'"),
    ("game: test-game\nturn: 7\n", "for turn 7, but the game is at turn 1"),
])
def test_signed_orders_must_name_game_and_turn(tmp_path, headers, message):
    """A validly signed mail for another game or turn can never be replayed."""
    player = keys.new_keypair(tmp_path / "ussr", "ussr")
    game, d = new_game(tmp_path, players={"ussr": keys.public_key_line(player)})
    text = headers + "attack\n"
    with pytest.raises(PbemError, match=message):
        play(d, game, text, orders_signature=sshsig.sign(text.encode(), player, "pbem-orders"))
    assert not list((d / "turns").iterdir())


def test_old_signed_orders_cannot_be_replayed_into_a_later_turn(tmp_path):
    player = keys.new_keypair(tmp_path / "ussr", "ussr")
    game, d = new_game(tmp_path, players={"ussr": keys.public_key_line(player)})
    text = "# my orders\nGame: test-game\n  turn : 1\nattack\n"
    sig = sshsig.sign(text.encode(), player, "pbem-orders")
    play(d, game, text, orders_signature=sig)
    play(d, game, "germany\n")
    with pytest.raises(PbemError, match="already processed"):
        play(d, game, text, orders_signature=sig)     # turn 3 is ussr's again
    assert len(layout.list_turns(d)) == 2


def test_orders_as_bytes_kept_exactly(tmp_path):
    player = keys.new_keypair(tmp_path / "ussr", "ussr")
    game, d = new_game(tmp_path, players={"ussr": tmp_path / "ussr.pub"})
    raw = "game: test-game\r\nturn: 1\r\nattack karelia\r\n# ♞\r\n".encode("utf-8")
    tf = play(d, game, raw, orders_signature=sshsig.sign(raw, player, "pbem-orders"))
    assert (d / "orders" / "0001-ussr.txt").read_bytes() == raw
    assert tf.orders.encode("utf-8") == raw
    with pytest.raises(PbemError, match="not UTF-8"):
        play(d, game, b"\xff\xfe")


def test_turn_file_decode_errors(tmp_path):
    game, d = new_game(tmp_path)
    tf = play(d, game, "x")
    doc = turnfile.unstructure(tf)
    assert turnfile.decode_turn_file(doc) == tf
    bad = dict(doc, schema_version=3)
    with pytest.raises(StateFileError, match="newer"):
        turnfile.decode_turn_file(bad)
    bad = dict(doc, seed="zz")
    with pytest.raises(StateFileError, match="seed"):
        turnfile.decode_turn_file(bad)
    bad = dict(doc, turn_number="1")
    with pytest.raises(StateFileError, match="turn_number"):
        turnfile.decode_turn_file(bad)
    bad = dict(doc, extra=1)
    with pytest.raises(StateFileError, match="extra"):
        turnfile.decode_turn_file(bad)
    with pytest.raises(StateFileError, match="line 1, column 1"):
        turnfile.decode_turn_file(b"nonsense", "t.json")


# --------------------------------------------------------------------------- storage

def test_write_atomic_refuses_overwrite(tmp_path):
    p = tmp_path / "f"
    storage.write_atomic(p, b"one")
    with pytest.raises(PbemError, match="already exists"):
        storage.write_atomic(p, b"two")
    assert p.read_bytes() == b"one"
    storage.write_atomic(p, b"two", overwrite=True)
    assert p.read_bytes() == b"two"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["f"]
    with pytest.raises(PbemError, match="does not exist"):
        storage.write_atomic(tmp_path / "nope" / "f", b"x")


def test_read_json_errors(tmp_path):
    with pytest.raises(StateFileError, match="not found"):
        storage.read_json(tmp_path / "missing.json")
    p = tmp_path / "bad.json"
    p.write_text('{\n  "a": 1,\n  oops\n}')
    with pytest.raises(StateFileError, match=r"bad.json: not valid JSON at line 3, column 3"):
        storage.read_json(p)
    p.write_text("[1, 2]")
    with pytest.raises(StateFileError, match="expected a JSON object.*a list"):
        storage.read_json(p, "turn file")
    p.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(StateFileError, match="not UTF-8"):
        storage.read_json(p)
    with pytest.raises(StateFileError, match="directory"):
        storage.read_json(tmp_path)


def test_save_and_load_state(tmp_path):
    p = tmp_path / "state.json"
    storage.save_state(p, stub_state())
    assert storage.load_state(p) == stub_state()
    with pytest.raises(PbemError):
        storage.save_state(p, stub_state())
    doc = json.loads(p.read_text())
    doc["units"]["karelia"][0]["count"] = "three"
    p.write_text(json.dumps(doc))
    with pytest.raises(StateFileError, match=r"state.json: state.units.karelia\[0\].count"):
        storage.load_state(p)


def test_load_state_from_turn_and_game_files(tmp_path):
    game, d = new_game(tmp_path)
    tf = play(d, game, "x")
    assert storage.load_state(d / "turns" / "0001-ussr.json") == tf.state
    assert storage.load_state(d / "game.json") == stub_state()
