"""Sealed mine layouts end to end through the commands (docs/taktyczne-mines.md): the owner
seals a layout (pbem mines seal: the squares in his copy's .secret/, the minefield line in
his orders), the attack pauses the turn, no published file holds a square, the owner's
copy writes the reveal (pbem mines reveal), processing it fights the battle, and pbem
verify replays the whole game."""

from __future__ import annotations

import json
import re
import stat

import attrs

from cli_helpers import pbem

from adjudicator.io.rules_cases import parse_cases
from adjudicator.service.games import load_game
from adjudicator.service.gamedir import create_game, demo_seeds
from adjudicator.service.rules_cases import build_position

POSITION = """
case mines-cli: blue seals a minefield, red attacks it
power blue
position empty
owner 22: red
owner 23: blue
units 22: red 2 tank_3
units 23: blue 1 tank_1, 2 mine_land
state ts_turn_order: ["red", "blue"]
orders:
pass
end
expect valid
"""


def published_text(directory) -> str:
    """Every file of the game directory but the owner's secrets."""
    return "\n".join(p.read_text(encoding="utf-8", errors="replace")
                     for p in sorted(directory.rglob("*"))
                     if p.is_file() and ".secret" not in p.parts)


def test_a_sealed_layout_is_revealed_only_by_its_owner_when_the_battle_needs_it(tmp_path, capsys):
    game = load_game("taktyczne", options={"players": 2})
    state = build_position(game, parse_cases(POSITION)[0])
    d = tmp_path / "ts"
    create_game(d, game, "mines", initial=attrs.evolve(state, game_id="mines"),
                seeds=demo_seeds("mines"), created="2026-11-27")

    code, out = pbem(capsys, "mines", "seal", "-g", d, "--power", "blue", "--area", "23",
                     "A10", "m10", "--no-color")
    assert code == 0, out
    line = re.search(r"^minefield 23: grid_[0-9a-f]{64}$", out, re.M).group()
    secret = d / ".secret" / "mines-blue.json"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    code, out = pbem(capsys, "mines", "seal", "-g", d, "--power", "blue", "--area", "23", "A2",
                     "--no-color")
    assert code != 0 and "rows 4-10" in out               # a deployment row is no mine square

    orders = tmp_path / "blue.txt"
    orders.write_text(line + "\n", encoding="utf-8")
    code, out = pbem(capsys, "process", orders, "-g", d, "--no-color")
    assert code == 0, out
    attack = tmp_path / "red.txt"
    attack.write_text("move 2 tank_3 22 -> 23\n", encoding="utf-8")
    code, out = pbem(capsys, "process", attack, "-g", d, "--no-color")
    assert code == 0, out
    assert "waits for Blue to reveal it" in " ".join(out.split())
    text = published_text(d)
    assert line.split(": ")[1] in text                    # the commitment is published
    assert not re.search(r"(?<![A-Za-z0-9])(A10|M10)(?![0-9])", text)   # the squares are not

    code, out = pbem(capsys, "mines", "reveal", "-g", d, "--power", "red", "--no-color")
    assert code != 0 and "waits for blue's mine layout" in out
    reveal = tmp_path / "reveal.txt"
    code, out = pbem(capsys, "mines", "reveal", "-g", d, "-o", reveal, "--no-color")
    assert code == 0, out
    assert re.fullmatch(r"reveal 23: A10 M10 salt_[0-9a-f]{64}\n", reveal.read_text(encoding="utf-8"))
    forged = tmp_path / "forged.txt"                  # another layout, the same salt: refused
    forged.write_text(reveal.read_text(encoding="utf-8").replace("A10 M10", "A10 L10"), encoding="utf-8")
    code, out = pbem(capsys, "check", forged, "-g", d, "--no-color")
    assert code != 0 and "do not open your commitment" in " ".join(out.split()), out
    code, out = pbem(capsys, "process", forged, "-g", d, "--no-color")
    assert code != 0 and "ts_reveal_wrong" in out
    assert "do not open your commitment" in " ".join(out.split())       # in words, not the code alone
    code, out = pbem(capsys, "process", reveal, "-g", d, "--no-color")
    assert code == 0, out
    said = " ".join(out.split())
    assert "Blue reveals the mine layout for 23 (A10, M10)" in said
    assert "Board battle in 23 (land board): Red attacks Blue" in said
    assert ("the battle in 23 revealed Blue's sealed mine layout for 23: that standing minefield "
            "order is withdrawn") in said                     # the layout is public now
    turns = sorted((d / "turns").glob("*.json"))
    assert "minefield" in repr(json.loads(turns[-2].read_text())["state"]["standing_orders"])
    assert "minefield" not in repr(json.loads(turns[-1].read_text())["state"]["standing_orders"])
    code, out = pbem(capsys, "verify", "-g", d, "--no-color")
    assert code == 0, out
    code, out = pbem(capsys, "mines", "reveal", "-g", d, "--no-color")
    assert code != 0 and "no battle waits" in out


def test_verify_refuses_a_reveal_that_does_not_open_its_commitment(tmp_path, monkeypatch):
    """A game master whose own program accepts any reveal (here: the check patched away)
    publishes a battle fought with squares the owner never sealed; pbem verify replays the
    turn with the real check and refuses it."""
    from adjudicator.model import mine_seal
    from adjudicator.service import mine_secrets
    from adjudicator.service.audit import verify_game
    from adjudicator.service.gamedir import current_state, process_turn
    game = load_game("taktyczne", options={"players": 2})
    state = build_position(game, parse_cases(POSITION)[0])
    d = tmp_path / "ts"
    seeds = demo_seeds("mines")
    create_game(d, game, "mines", initial=attrs.evolve(state, game_id="mines"), seeds=seeds,
                created="2026-11-27")
    sealed = mine_secrets.seal(d, game, "blue", "23", ["A10", "M10"])
    process_turn(d, game, sealed.line + "\n", seeds=seeds)
    process_turn(d, game, "move 2 tank_3 22 -> 23\n", seeds=seeds)
    line, _ = mine_secrets.reveal_line(d, current_state(d)[0], "blue")
    forged = line.replace("A10 M10", "A10 B10")
    with monkeypatch.context() as patched:
        patched.setattr(mine_seal, "opens", lambda *args: True)
        process_turn(d, game, forged, seeds=seeds)
    report = verify_game(d)
    assert not report.ok
    assert "ts_reveal_wrong" in str(report.failure), report.failure
