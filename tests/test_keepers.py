"""Dice keepers (issue 12): the assignment, its refusals, and one test per line of the
threat table in docs/threat-model.md ("Dice keepers").  Al (the host) plays the Allies,
Bea the Axis; USSR's dice are kept by Germany (Bea), Germany's by the UK (Al)."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest

from adjudicator.cli import main
from adjudicator.io import hmac_dice, keys, layout, sshsig
from adjudicator.io.codec import canonical_json
from adjudicator.io.turnfile import (
    GAME_MASTER, KeeperRecord, keeper_statement, read_game_file, read_turn_file,
)
from adjudicator.model.errors import PbemError
from adjudicator.service import gamedir, keeper_join, known
from adjudicator.service.audit import verify_game
from adjudicator.service.compare import compare_games
from adjudicator.service.games import load_game
from keeper_helpers import (
    ALLIES, AXIS, EMAIL, EXAMPLE_ORDERS, GAME_ID, keeper_game, make_keys, play_turns, share,
    signed_orders,
)

GAME = load_game("aa1941")


@pytest.fixture(scope="module")
def start(tmp_path_factory):
    """The game before any turn (Al's and Bea's directories)."""
    base = tmp_path_factory.mktemp("keepers")
    return base, keeper_game(base)


@pytest.fixture
def fresh(start, tmp_path):
    """A private copy of the game before any turn: (base, {"al": dir, "bea": dir})."""
    base, dirs = start
    shutil.copytree(base, tmp_path / "g", symlinks=True)
    return tmp_path / "g", {k: tmp_path / "g" / v.name for k, v in dirs.items()}


def _verify(directory):
    return verify_game(directory, load_game)


def _resign(path, key_path):
    key = keys.load_private_key(key_path)
    (path.parent / (path.name + ".sig")).write_text(
        sshsig.sign(path.read_bytes(), key, sshsig.NAMESPACE_TURN))


# --------------------------------------------------------------------------- the game file

def test_game_without_game_master_names_its_host_keepers_and_their_commitments(start):
    base, dirs = start
    gf, _ = read_game_file(dirs["al"] / "game.json")
    assert gf.game_master is None and gf.signer == "ussr"
    assert gf.dice == hmac_dice.ALGORITHM_V3
    assert gf.dice_keepers == {"ussr": "germany", "germany": "uk", "uk": "japan",
                               "japan": "usa", "usa": "germany"}
    assert set(gf.keepers) == {"germany", "uk", "japan", "usa"}
    for keeper, record in gf.keepers.items():          # each signed by its own player
        assert keeper_join.keeper_rules.statement_problem(
            GAME_ID, keeper, record, gf.players[keeper].key) is None
    assert gf.seed_commitment == gf.keepers["germany"].commitment
    # each keeper's seed is only in its own player's copy
    for who, mine in (("al", ("uk", "usa")), ("bea", ("germany", "japan"))):
        for keeper in gf.keepers:
            held = gamedir.read_seed_secret(dirs[who], keeper)
            assert (held is not None) == (keeper in mine)
            if held is not None:
                assert hmac_dice.commitment(held) == gf.keepers[keeper].commitment
    report = _verify(dirs["bea"])
    assert report.ok and report.signer == "ussr" and report.dice_keepers == gf.dice_keepers


def test_a_game_with_a_game_master_keeps_its_bytes(tmp_path):
    """The new fields are omitted when unused: a game master's game.json is unchanged."""
    gpath = layout.game_file_path(tmp_path / "gm")
    gamedir.create_game(tmp_path / "gm", GAME, "plain", created="2026-01-01",
                        seeds=gamedir.demo_seeds("plain"))
    raw = json.loads(gpath.read_bytes())
    assert not {"signer", "dice_keepers", "keepers"} & set(raw)
    assert raw["dice"] == "pbem-dice-v2"


def test_a_whole_round_each_turn_signed_by_its_keeper(fresh):
    base, dirs = fresh
    play_turns(base, dirs, len(EXAMPLE_ORDERS))
    gf, _ = read_game_file(dirs["al"] / "game.json")
    for _n, power, path in layout.list_turns(dirs["al"]):
        assert read_turn_file(path)[0].signer == gf.dice_keepers[power]
    assert {p: d.read_bytes() for p, d in _published(dirs["al"]).items()} == \
        {p: d.read_bytes() for p, d in _published(dirs["bea"]).items()}
    for d in dirs.values():
        report = _verify(d)
        assert report.ok and report.turns_replayed == 5, report.failure


def _published(directory):
    return {p.relative_to(directory).as_posix(): p for p in sorted(directory.rglob("*"))
            if p.is_file() and p.relative_to(directory).parts[0] in ("game.json",
                                                                     "game.json.sig", "turns",
                                                                     "orders")}


# --------------------------------------------------------------------------- refused configurations

def _join(base, game_id=GAME_ID, powers=AXIS):
    key = make_keys(base)
    return keeper_join.read_join(keeper_join.join_game(
        base / f"join-{game_id}", GAME, game_id, key["bea"], list(powers),
        email=EMAIL["bea"]))


def _create(base, directory="al", **kw):
    key = make_keys(base)
    players = kw.pop("players", {p: {"key": str(key["al"]) + ".pub"} for p in ALLIES})
    return gamedir.create_game(base / directory, GAME, GAME_ID, gm_key_path=key["al"],
                               players=players, created="2026-03-01", **kw)


@pytest.mark.parametrize("case, message", [
    ("allied keeper", "keeps the dice of Soviet Union, its ally"),
    ("keeper plays both sides", "also plays Soviet Union"),
    ("not joined", "its player has not joined"),
    ("join of another game", "is for the game 'another'"),
    ("changed commitment", "does not verify"),
    ("game master plays", "the game master keeps the dice of Soviet Union and also plays"),
])
def test_unsafe_or_incomplete_keepers_are_refused(tmp_path, case, message):
    key = make_keys(tmp_path)
    join = _join(tmp_path)
    with pytest.raises(PbemError, match=message):
        if case == "allied keeper":
            _create(tmp_path, joins=[join], host="ussr", dice_keepers={"ussr": "uk"})
        elif case == "keeper plays both sides":          # Al also plays Germany
            players = {p: {"key": str(key["al"]) + ".pub"} for p in (*ALLIES, "germany")}
            players["japan"] = {"key": join.player.key}
            _create(tmp_path, players=players, joins=[], host="ussr",
                    dice_keepers={"ussr": "germany"})
        elif case == "not joined":
            players = {p: {"key": str(key["al"]) + ".pub"} for p in ALLIES}
            players.update({p: {"key": str(key["bea"]) + ".pub"} for p in AXIS})
            _create(tmp_path, players=players, host="ussr")
        elif case == "join of another game":
            _create(tmp_path, joins=[_join(tmp_path / "x", "another")], host="ussr")
        elif case == "changed commitment":
            forged = KeeperRecord(hmac_dice.commitment(b"\0" * 32),
                                  join.keepers["germany"].signature)
            tampered = keeper_join.Join(join.game_id, join.ruleset, join.player,
                                        {**join.keepers, "germany": forged})
            _create(tmp_path, joins=[tampered], host="ussr")
        else:                                            # a game master who plays the USSR
            gamedir.create_game(tmp_path / "gm", GAME, GAME_ID, gm_key_path=key["al"],
                                players={p: {"key": str(key["al"]) + ".pub"} for p in ALLIES},
                                joins=[join], dice_keepers={"ussr": GAME_MASTER})
    assert not (tmp_path / "al" / "game.json").exists()


def test_keepers_option_parses_names_and_the_game_master(tmp_path):
    from adjudicator.io.names import Names
    from adjudicator.service import keepers
    resolve = Names(GAME).resolve_power
    assert keepers.parse_assignment("opponents", resolve) == "opponents"
    assert keepers.parse_assignment("gm", resolve) is None
    assert keepers.parse_assignment("Soviet Union=Germany, uk=game-master", resolve) == \
        {"ussr": "germany", "uk": GAME_MASTER}
    with pytest.raises(PbemError, match="POWER=KEEPER"):
        keepers.parse_assignment("ussr", resolve)


def test_verify_warns_about_a_signed_game_whose_keeper_is_an_ally(fresh):
    """A game file made by another tool (or by hand) that lets the UK keep the USSR's
    dice verifies, with a warning: its dice prove nothing against the Allies."""
    base, dirs = fresh
    gpath = dirs["al"] / "game.json"
    raw = json.loads(gpath.read_bytes())
    al = keys.load_private_key(base / "keys" / "al")
    seed = hmac_dice.new_seed()
    commitment = hmac_dice.commitment(seed)
    raw["dice_keepers"]["ussr"] = "uk"
    raw["keepers"]["uk"] = {"commitment": commitment, "signature": sshsig.sign(
        keeper_statement(GAME_ID, "uk", commitment), al, sshsig.NAMESPACE_KEEPER)}
    raw["seed_commitment"] = commitment
    gpath.write_bytes(canonical_json(raw))
    _resign(gpath, base / "keys" / "al")
    report = _verify(dirs["al"])
    assert report.ok, report.failure
    assert any("United Kingdom keeps the dice of Soviet Union, its ally" in w
               for w in report.warnings)


# --------------------------------------------------------------------------- the threat table

def test_keeper_cannot_reroll_a_second_turn_file_with_another_seed_fails(fresh, monkeypatch):
    """A keeper who publishes a turn rolled with another seed than the one it committed
    to: its own pbem refuses, and a hacked one is caught by verify (commitment)."""
    base, dirs = fresh
    text, sig = signed_orders(base, "al", 1, EXAMPLE_ORDERS[0])
    secret = dirs["bea"] / ".secret" / "next-seed-germany"
    honest = secret.read_bytes()
    secret.write_text(hmac_dice.new_seed().hex() + "\n")
    with pytest.raises(PbemError, match="does not match the published commitment"):
        gamedir.process_turn(dirs["bea"], GAME, text, orders_signature=sig)
    secret.write_bytes(honest)
    monkeypatch.setattr(gamedir, "_secret_seed", lambda *a: hmac_dice.new_seed())
    gamedir.process_turn(dirs["bea"], GAME, text, orders_signature=sig)   # a hacked pbem
    f = _verify(dirs["bea"]).failure
    assert (f.file, f.check) == ("turns/0001-ussr.json", "commitment")
    assert "published by its keeper germany in game.json" in f.detail


def test_second_signed_orders_for_a_turn_the_first_counts(fresh, capsys):
    base, dirs = fresh
    first, sig1 = signed_orders(base, "al", 1, EXAMPLE_ORDERS[0])
    second, sig2 = signed_orders(base, "al", 1, EXAMPLE_ORDERS[0], extra=b"buy 1 inf\n")
    gamedir.process_turn(dirs["bea"], GAME, first, orders_signature=sig1)
    with pytest.raises(gamedir.SecondOrders, match="received first"):
        gamedir.process_turn(dirs["bea"], GAME, second, orders_signature=sig2)
    with pytest.raises(gamedir.TurnAlreadyProcessed):
        gamedir.process_turn(dirs["bea"], GAME, first, orders_signature=sig1)
    (base / "second.txt").write_bytes(second)
    (base / "second.txt.sig").write_text(sig2)
    assert main(["process", str(base / "second.txt"), "--signature",
                 str(base / "second.txt.sig"), "-g", str(dirs["bea"])]) == 1
    assert "Refused" in capsys.readouterr().out
    assert read_turn_file(dirs["bea"] / "turns" / "0001-ussr.json")[0].orders == \
        first.decode()


@pytest.mark.parametrize("how", ["the mover's key", "the mover's key, signer changed",
                                 "the keeper's key, signer changed"])
def test_a_turn_signed_by_the_wrong_keeper_fails_verify(fresh, how):
    base, dirs = fresh
    play_turns(base, dirs, 1)
    tpath = dirs["bea"] / "turns" / "0001-ussr.json"
    if "signer changed" in how:
        raw = json.loads(tpath.read_bytes())
        raw["signer"] = "uk" if "mover" in how else "japan"
        tpath.write_bytes(canonical_json(raw))
    _resign(tpath, base / "keys" / ("al" if "mover" in how else "bea"))
    f = _verify(dirs["bea"]).failure
    assert (f.file, f.check) == ("turns/0001-ussr.json", "keeper"), f
    if "mover" in how:
        assert "(the key of uk, usa, ussr), but it must be signed by its dice keeper germany" \
            in f.detail
    else:
        assert "signer is 'japan'" in f.detail


def test_the_mover_cannot_process_its_own_turn(fresh):
    base, dirs = fresh
    text, sig = signed_orders(base, "al", 1, EXAMPLE_ORDERS[0])
    with pytest.raises(PbemError, match="kept by germany .* not by the key"):
        gamedir.process_turn(dirs["al"], GAME, text, orders_signature=sig)
    assert layout.list_turns(dirs["al"]) == []


def test_a_forked_chain_is_reported(fresh, tmp_path, capsys):
    """Bea signs two versions of turn 1 (another next commitment: a second seed to choose
    from later).  Each copy verifies alone; compare, --known and fetch report the fork."""
    base, dirs = fresh
    saved = tmp_path / "saved"
    shutil.copytree(dirs["bea"], saved, symlinks=True)
    text, sig = signed_orders(base, "al", 1, EXAMPLE_ORDERS[0])
    gamedir.process_turn(dirs["bea"], GAME, text, orders_signature=sig)
    gamedir.process_turn(saved, GAME, text, orders_signature=sig)        # the second version
    assert _verify(saved).ok and _verify(dirs["bea"]).ok
    result = compare_games(dirs["bea"], saved)
    assert result.diverged and result.proof
    assert result.first.role == "ussr's dice keeper (germany)"
    assert main(["compare", str(dirs["bea"]), str(saved)]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "ussr's dice keeper (germany) published two different histories (a fork)" in out
    # what Al recorded from the first version flags the second as equivocation
    record = tmp_path / "known.txt"
    known.record(record, GAME_ID, _verify(dirs["bea"]).verified_files)
    problems = known.compare_known(GAME_ID, _verify(saved).verified_files,
                                   known.read_known(record))
    assert problems and problems[0].startswith("equivocation: you recorded turns/0001-ussr.json")
    # two turn files for one turn in one directory
    shutil.copy(saved / "turns" / "0001-ussr.json", dirs["bea"] / "turns" / "0001-uk.json")
    shutil.copy(saved / "turns" / "0001-ussr.json.sig", dirs["bea"] / "turns" / "0001-uk.json.sig")
    f = _verify(dirs["bea"]).failure
    assert f.check == "fork" and "two turn files for turn 1" in f.detail


def test_a_host_who_substitutes_a_keepers_commitment_is_caught(fresh):
    """Al re-makes the game file with his own commitment for Germany: Germany's signature
    no longer covers it (verify: keeper), and Bea's copy says it is not hers."""
    base, dirs = fresh
    gpath = dirs["al"] / "game.json"
    raw = json.loads(gpath.read_bytes())
    raw["keepers"]["germany"]["commitment"] = hmac_dice.commitment(hmac_dice.new_seed())
    raw["seed_commitment"] = raw["keepers"]["germany"]["commitment"]
    gpath.write_bytes(canonical_json(raw))
    _resign(gpath, base / "keys" / "al")
    f = _verify(dirs["al"]).failure
    assert (f.file, f.check) == ("game.json", "keeper")
    assert "first commitment of germany does not verify" in f.detail
    for name in ("game.json", "game.json.sig"):
        shutil.copy(dirs["al"] / name, dirs["bea"] / name)
    problems = keeper_join.copy_problems(dirs["bea"])
    assert any("does not carry your own commitment" in p for p in problems), problems


def test_dice_are_bound_to_the_movers_signature(fresh):
    """pbem-dice-v3: the same canonical orders signed as other bytes (a comment) roll
    other dice, so a keeper who could guess the orders still cannot pick a seed for them."""
    base, dirs = fresh
    other = base.parent / "other"
    shutil.copytree(base, other, symlinks=True)
    text, sig = signed_orders(base, "al", 1, EXAMPLE_ORDERS[0])
    text2, sig2 = signed_orders(base, "al", 1, EXAMPLE_ORDERS[0], extra=b"# thinking\n")
    a = gamedir.process_turn(dirs["bea"], GAME, text, orders_signature=sig)
    b = gamedir.process_turn(other / "bea", GAME, text2, orders_signature=sig2)
    assert a.canonical_orders_digest == b.canonical_orders_digest
    assert a.seed == b.seed and a.dice != b.dice
    raw_sig = sshsig.parse(a.orders_signature).signature
    bound = "sha256:" + hashlib.sha256(bytes.fromhex(a.canonical_orders_digest[7:])
                                       + raw_sig).hexdigest()
    again = hmac_dice.HmacDice(bytes.fromhex(a.seed), GAME_ID, 1, bound,
                               algorithm=hmac_dice.ALGORITHM_V3)
    assert [f for r in a.dice for f in r.faces] == again.faces(sum(len(r.faces)
                                                                   for r in a.dice))


def test_a_game_master_can_keep_some_powers_and_players_the_others(tmp_path):
    """Mixed: the game master keeps the USSR's and Germany's dice, the players the rest."""
    key = make_keys(tmp_path)
    game_id = "mixed"
    demo = gamedir.demo_seeds(game_id)
    bea = keeper_join.read_join(keeper_join.join_game(
        tmp_path / "bea", GAME, game_id, key["bea"], list(AXIS), seeds=demo))
    al = keeper_join.read_join(keeper_join.join_game(
        tmp_path / "al", GAME, game_id, key["al"], list(ALLIES), seeds=demo))
    gamedir.create_game(tmp_path / "gm", GAME, game_id, joins=[al, bea], seeds=demo,
                        dice_keepers={"ussr": GAME_MASTER, "germany": GAME_MASTER})
    gf, _ = read_game_file(tmp_path / "gm" / "game.json")
    assert gf.game_master is not None and gf.signer == GAME_MASTER
    assert gf.dice_keepers["uk"] == "japan" and gf.keepers[GAME_MASTER].signature is None
    dirs = {"gm": tmp_path / "gm", "al": tmp_path / "al", "bea": tmp_path / "bea"}
    for d in ("al", "bea"):
        for name in ("game.json", "game.json.sig"):
            shutil.copy(dirs["gm"] / name, dirs[d] / name)
    where = {"ussr": "gm", "germany": "gm", "uk": "bea"}
    for n, path in enumerate(EXAMPLE_ORDERS[:3], start=1):
        state, _ = gamedir.current_state(dirs["gm"])
        mover = "al" if state.power in ALLIES else "bea"
        text, sig = signed_orders(tmp_path, mover, n, path, game_id=game_id)
        keeper = dirs[where[state.power]]
        gamedir.process_turn(keeper, GAME, text, orders_signature=sig, seeds=demo)
        for d in dirs.values():
            if d != keeper:
                share(keeper, d)
    signers = [read_turn_file(p)[0].signer for _n, _p, p in layout.list_turns(dirs["al"])]
    assert signers == [GAME_MASTER, GAME_MASTER, "japan"]
    report = _verify(dirs["al"])
    assert report.ok and report.turns_replayed == 3, report.failure


@pytest.mark.parametrize("argv, message", [
    (["--plays", "ussr,uk,usa"], "signed by your own key: give it with --key"),
    (["--plays", "ussr", "--key", "KEY", "--keepers", "gm"], "cannot have the game master keep"),
    (["--key", "KEY", "--join", "JOIN"], "say who keeps the dice (--keepers opponents)"),
    (["--key", "KEY", "--email", "al@example.org"], "a bare address is the host's, with --plays"),
    (["--plays", "ussr,uk,usa", "--key", "KEY"], "none for: germany, japan -- their players "
                                                  "join with 'pbem keeper join'"),
])
def test_new_explains_keeper_mistakes(tmp_path, capsys, argv, message):
    key = make_keys(tmp_path)
    join = keeper_join.join_game(tmp_path / "bea", GAME, GAME_ID, key["bea"], list(AXIS))
    argv = [str(key["al"]) if a == "KEY" else str(join) if a == "JOIN" else a for a in argv]
    assert main(["new", str(tmp_path / "g"), "--id", GAME_ID, *argv]) == 2
    assert message in " ".join(capsys.readouterr().err.split())
    assert not (tmp_path / "g" / "game.json").exists()


def test_keeper_status_fails_on_a_copy_that_is_not_safe_to_play(fresh, capsys):
    base, dirs = fresh
    assert main(["keeper", "status", "-g", str(dirs["bea"])]) == 0
    (dirs["bea"] / ".secret" / "next-seed-japan").write_text(hmac_dice.new_seed().hex() + "\n")
    capsys.readouterr()
    assert main(["keeper", "status", "-g", str(dirs["bea"])]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "keeps as Japan the dice of United Kingdom: not ready" in out
    assert "keeps as Germany the dice of Soviet Union, United States: ready" in out
    assert "problem: the seed this copy holds for japan does not open" in out


def test_verify_json_names_the_host_and_the_keepers(fresh, capsys):
    from test_cli_ux import validate          # the JSON Schema of docs/json-schema/
    base, dirs = fresh
    play_turns(base, dirs, 1)
    assert main(["verify", "-g", str(dirs["al"]), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    validate(data, "verify")
    assert data["signer"] == "ussr" and data["dice_keepers"]["ussr"] == "germany"
    raw = json.loads((dirs["al"] / "turns" / "0001-ussr.json").read_bytes())
    raw["signer"] = "japan"
    (dirs["al"] / "turns" / "0001-ussr.json").write_bytes(canonical_json(raw))
    _resign(dirs["al"] / "turns" / "0001-ussr.json", base / "keys" / "bea")
    assert main(["verify", "-g", str(dirs["al"]), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    validate(data, "verify")
    assert data["failure"]["check"] == "keeper"


def test_a_player_keeper_cannot_record_a_missed_deadline(fresh):
    """An unsigned ``nmr`` statement (a game master's record of a missed deadline) would let
    a player keeper skip the mover's turn: refused by process, caught by verify."""
    base, dirs = fresh
    nmr = f"game: {GAME_ID}\nturn: 1\npower: Soviet Union\nnmr\n".encode()
    with pytest.raises(PbemError, match="only a game master may do"):
        gamedir.process_turn(dirs["bea"], GAME, nmr)
    assert layout.list_turns(dirs["bea"]) == []
    # a hacked pbem that publishes it anyway: verify fails
    text, sig = signed_orders(base, "al", 1, EXAMPLE_ORDERS[0])
    gamedir.process_turn(dirs["bea"], GAME, text, orders_signature=sig)
    tpath = dirs["bea"] / "turns" / "0001-ussr.json"
    raw = json.loads(tpath.read_bytes())
    raw.update(orders=nmr.decode(), orders_signature=None,
               orders_digest="sha256:" + hashlib.sha256(nmr).hexdigest())
    tpath.write_bytes(canonical_json(raw))
    (dirs["bea"] / "orders" / "0001-ussr.txt").write_bytes(nmr)
    _resign(tpath, base / "keys" / "bea")
    f = _verify(dirs["bea"]).failure
    assert (f.check, f.file) == ("orders_signature", "turns/0001-ussr.json")
    assert "only a game master may record a missed deadline" in f.detail


@pytest.mark.parametrize("game_id, turn", [("another", 1), (GAME_ID, 2)])
def test_signed_orders_of_another_game_or_turn_are_refused_by_the_keeper(fresh, game_id, turn):
    base, dirs = fresh
    text, sig = signed_orders(base, "al", turn, EXAMPLE_ORDERS[0], game_id=game_id)
    with pytest.raises(PbemError, match="for game 'another'" if turn == 1 else "turn 2"):
        gamedir.process_turn(dirs["bea"], GAME, text, orders_signature=sig)
    assert layout.list_turns(dirs["bea"]) == []


def test_a_keeper_who_alters_the_movers_orders_fails_verify(fresh):
    """Bea adds an order to Al's signed orders in the turn she publishes (re-signing the
    turn file with her own key): the mover's signature no longer covers them."""
    base, dirs = fresh
    play_turns(base, dirs, 1)
    assert _verify(dirs["bea"]).ok
    tpath = dirs["bea"] / "turns" / "0001-ussr.json"
    raw = json.loads(tpath.read_bytes())
    altered = raw["orders"] + "buy 1 inf\n"
    raw.update(orders=altered, orders_digest="sha256:" + hashlib.sha256(
        altered.encode()).hexdigest())
    tpath.write_bytes(canonical_json(raw))
    (dirs["bea"] / "orders" / "0001-ussr.txt").write_text(altered)
    _resign(tpath, base / "keys" / "bea")
    f = _verify(dirs["bea"]).failure
    assert (f.file, f.check) == ("turns/0001-ussr.json", "orders_signature"), f


def test_a_host_who_re_makes_the_game_with_another_key_for_a_player_is_caught(fresh, capsys):
    """Al re-makes the game file with his own second key in place of Bea's (and commitments
    signed by it, so he would know Bea's seeds): the file is consistent and verifies, but
    Bea's copy says the game does not list her key, and ``pbem keeper status`` fails."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    base, dirs = fresh
    gpath = dirs["al"] / "game.json"
    raw = json.loads(gpath.read_bytes())
    mallory = Ed25519PrivateKey.generate()
    for power in AXIS:
        raw["players"][power]["key"] = keys.public_key_line(mallory, "al@other")
        commitment = hmac_dice.commitment(hmac_dice.new_seed())
        raw["keepers"][power] = {"commitment": commitment, "signature": sshsig.sign(
            keeper_statement(GAME_ID, power, commitment), mallory, sshsig.NAMESPACE_KEEPER)}
    raw["seed_commitment"] = raw["keepers"][raw["dice_keepers"]["ussr"]]["commitment"]
    gpath.write_bytes(canonical_json(raw))
    _resign(gpath, base / "keys" / "al")
    assert _verify(dirs["al"]).ok
    for name in ("game.json", "game.json.sig"):
        shutil.copy(dirs["al"] / name, dirs["bea"] / name)
    problems = keeper_join.copy_problems(dirs["bea"])
    assert any("you joined as germany, but the game file lists another key" in p
               for p in problems), problems
    capsys.readouterr()
    assert main(["keeper", "status", "-g", str(dirs["bea"])]) == 1


def test_a_turn_changed_in_transit_fails_its_keepers_signature(fresh):
    base, dirs = fresh
    play_turns(base, dirs, 1)
    tpath = dirs["al"] / "turns" / "0001-ussr.json"
    raw = json.loads(tpath.read_bytes())
    raw["next_commitment"] = hmac_dice.commitment(hmac_dice.new_seed())
    tpath.write_bytes(canonical_json(raw))                 # not re-signed: nobody could
    f = _verify(dirs["al"]).failure
    assert (f.file, f.check) == ("turns/0001-ussr.json.sig", "signature"), f
    assert "changed after signing" in f.detail
