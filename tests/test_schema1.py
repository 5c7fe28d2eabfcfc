"""Schema 1 games (pbem-adjudicator 0.1.0) stay readable and verifiable.

tests/data/aa1941-schema1/ is the example game as 0.1.0 published it, copied before the
example was regenerated as schema 2.  This program cannot replay it (engine version 1),
but checks its signatures, chain, seeds and every die, says which release would replay
it, and refuses to extend it.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from adjudicator.cli import main
from adjudicator.io import sshsig, turnfile
from adjudicator.io.codec import canonical_json
from adjudicator.service.games import load_game
from adjudicator.service import audit, gamedir

SCHEMA1 = Path(__file__).resolve().parent / "data" / "aa1941-schema1"
PIN = "pipx run --spec pbem-adjudicator==0.1.0 pbem"


@pytest.fixture
def copy(tmp_path):
    target = tmp_path / "schema1"
    shutil.copytree(SCHEMA1, target)
    return target


def test_schema1_files_decode_into_the_current_classes():
    gf, data = turnfile.read_game_file(SCHEMA1 / "game.json")
    assert json.loads(data)["schema_version"] == 1 and "map_hash" in json.loads(data)
    assert gf.schema_version == 1 and gf.engine == "1" and gf.dice == "pbem-dice-v1"
    assert gf.program == "pbem-adjudicator 0.1.0"
    assert all(record.key is None for record in gf.players.values())
    tf, _ = turnfile.read_turn_file(SCHEMA1 / "turns" / "0002-germany.json")
    assert tf.signer == "game_master" and tf.canonical_orders_digest is None
    assert turnfile.dice_digest(gf, tf) == tf.orders_digest      # v1: the exact bytes


def test_schema1_game_verifies_without_replay():
    report = audit.verify_game(SCHEMA1, load_game)
    assert report.ok, report.failure
    assert report.turns_checked == 5 and report.turns_replayed == 0
    assert report.signatures_checked == 6 and report.dice_checked > 100
    assert "engine version 1" in report.replay_note
    assert f"{PIN} verify {SCHEMA1}" in report.replay_note
    assert any("demo seeds" in w for w in report.warnings)
    assert set(report.luck) >= {"germany", "ussr"}       # the old events still read


def test_require_replay_makes_it_a_failure():
    report = audit.verify_game(SCHEMA1, load_game, require_replay=True)
    assert (report.failure.file, report.failure.check) == ("game.json", "replay")
    assert PIN in report.failure.detail


def test_schema1_dice_are_still_checked(copy, regenerate):
    """A changed die in a re-signed schema-1 turn file is caught with the v1 algorithm."""
    demo_gm_key = regenerate.demo_gm_key
    path = copy / "turns" / "0002-germany.json"
    doc = json.loads(path.read_bytes())
    faces = doc["dice"][0]["faces"]
    faces[0] = faces[0] % 6 + 1
    path.write_bytes(canonical_json(doc))
    (copy / "turns" / "0002-germany.json.sig").write_text(
        sshsig.sign(path.read_bytes(), demo_gm_key(), "pbem-turn"))
    f = audit.verify_game(copy, load_game).failure
    assert (f.file, f.check) == ("turns/0002-germany.json", "dice")


def test_cli_verify_notes_and_process_refuses(copy, capsys, tmp_path):
    # Never "OK" without the replay (issue 20): INCOMPLETE and exit 1, unless asked.
    assert main(["verify", str(copy)]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "INCOMPLETE: the rules were not replayed" in out
    assert "rules replay not possible" in out
    assert main(["verify", str(copy), "--partial"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "OK, partial: the rules were not replayed" in out
    assert main(["verify", str(copy), "--require-replay"]) == 1
    capsys.readouterr()
    orders = tmp_path / "o.txt"
    orders.write_text("")
    before = {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    game = load_game("aa1941")
    with pytest.raises(Exception, match=r"engine version 1.*pbem-adjudicator==0\.1\.0 pbem process"):
        gamedir.process_turn(copy, game, b"")
    assert main(["process", str(orders), "-g", str(copy)]) == 2
    assert "pbem-adjudicator==0.1.0" in capsys.readouterr().err
    assert {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()} == before
