"""Every command works for every edition (issues 18 and 22: "new, check, process, verify,
show, show --svg, map, odds, rules, cases, demo ... and Low Luck"), run through the command
line on real files: a Low Luck game from the edition's setup, its first turn checked,
processed and verified, the position shown and drawn, the map drawn, a battle's odds with
the edition's units, its rulings and one of its rules-case files, and its bundled demo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import pbem

ROOT = Path(__file__).resolve().parent.parent

# per edition: orders for the first power's first turn, and a battle in its units
EDITIONS = {
    "aa1941": ("purchase:\nbuy 2 inf\nplace:\nplace 2 inf Russia\n", "3 inf, 1 tank vs 4 inf"),
    "aa1942": ("purchase:\nbuy 2 inf\nplace:\nplace 2 inf Russia\n", "3 inf, 1 art vs 4 inf"),
    "europe1999": ("purchase:\nbuy 2 inf\nplace:\nplace 2 inf Germany\n", "3 inf, 1 arm vs 4 inf"),
    "global1940": ("purchase:\nbuy 2 inf\nplace:\nplace 2 inf Germany\n",
                   "2 mech, 1 tac, 1 tank vs 4 inf, 1 aa"),
}


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_every_command_on_a_low_luck_game(edition, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    orders_text, battle = EDITIONS[edition]
    game = tmp_path / "game"
    code, out = pbem(capsys, "new", game, "--ruleset", edition, "--option", "low_luck=true",
                     "--demo-seeds")
    assert code == 0, out
    assert json.loads((game / "game.json").read_text())["options"]["low_luck"] is True

    orders = tmp_path / "orders.txt"
    orders.write_text(orders_text, encoding="utf-8")
    code, out = pbem(capsys, "check", orders, "-g", game)
    assert code == 0, out
    code, out = pbem(capsys, "process", orders, "-g", game, "--demo-seeds")
    assert code == 0, out
    code, out = pbem(capsys, "verify", "-g", game)
    assert code == 0 and "1 turns re-adjudicated" in out, out

    code, out = pbem(capsys, "show", "-g", game)
    assert code == 0, out
    picture = tmp_path / "board.svg"
    code, out = pbem(capsys, "show", "-g", game, "--svg", picture)
    assert code == 0 and picture.read_text(encoding="utf-8").lstrip().startswith("<"), out
    blank = tmp_path / "map.svg"
    code, out = pbem(capsys, "map", "--ruleset", edition, "--svg", blank)
    assert code == 0 and "<svg" in blank.read_text(encoding="utf-8"), out

    attackers, defenders = battle.split(" vs ")
    code, out = pbem(capsys, "odds", "--ruleset", edition, "--low-luck", "--json",
                     attackers, "vs", defenders)
    assert code == 0, out
    result = json.loads(out[out.index("{"):])
    shares = next(v for v in result.values() if isinstance(v, dict) and "attacker_wins" in v)
    total = sum(shares[k] for k in ("attacker_wins", "defender_wins", "both_destroyed",
                                    "attacker_retreats", "stalemate") if k in shares)
    assert total == pytest.approx(1.0, abs=1e-9), shares
    assert result["battle"]["attackers"], result["battle"]

    code, out = pbem(capsys, "rules", "--ruleset", edition)
    assert code == 0 and len(out) > 1000, out[:500]
    one_file = sorted((ROOT / "maps" / edition / "cases").glob("*.txt"))[0]
    code, out = pbem(capsys, "cases", one_file, "--ruleset", edition)
    assert code == 0 and "cases pass" in out, out

    code, out = pbem(capsys, "demo", "--ruleset", edition, "--turns", "1",
                     "--out", tmp_path / "demo")
    assert code == 0, out
