"""A live battle on a sealed minefield end to end through the commands
(docs/taktyczne-mines.md §3): the owner seals (pbem mines seal), the attack pauses, his copy
publishes the leaves (pbem mines reveal), the attacker's battle turns run onto sealed
squares, each waits for the owner's openings of exactly those squares (pbem mines reveal
again), a mine goes off, and pbem verify replays every turn file and every opening.  No
published file names a sealed square before its mine goes off, nor the one that never does."""

from __future__ import annotations

import json
import re

import attrs

from cli_helpers import pbem

from adjudicator.io.rules_cases import parse_cases
from adjudicator.service.games import load_game
from adjudicator.service.gamedir import create_game, demo_seeds

from adjudicator.service.rules_cases import build_position

POSITION = """
case mines-live-cli: blue seals a minefield, red attacks it live
power blue
position empty
owner 22: red
owner 23: blue
units 22: red 1 tank_3
units 23: blue 2 mine_land
state ts_turn_order: ["red", "blue"]
orders:
pass
end
expect valid
"""
NMR = "nmr 2026-11-28T12:00Z\n"


def published_text(directory) -> str:
    return "\n".join(p.read_text(encoding="utf-8", errors="replace")
                     for p in sorted(directory.rglob("*"))
                     if p.is_file() and ".secret" not in p.parts)


def named(square: str, text: str) -> bool:
    """Whether ``text`` names the defender's ``square`` as a mine: a board square of his
    (G9d), an opening as mined, or his own-row name in a layout."""
    return bool(re.search(rf"(?<![A-Za-z0-9]){square}(d|\s+mine)(?![0-9a-z])", text))


def test_a_live_battle_opens_only_the_squares_the_attacker_enters(tmp_path, capsys):
    d = _game_dir(tmp_path)
    run = Commands(capsys, d, tmp_path)
    process, reveal = run.process, run.reveal
    line = run.seal("G9", "B5")
    master = json.loads((d / ".secret" / "mines-blue.json").read_text())[line.split(": ")[1]]["salt"]
    said = process("move 1 tank_3 22 -> 23\n", "attack.txt")
    assert "waits for Blue to reveal it" in said

    leaves = reveal()
    assert len(leaves.splitlines()) == 13 and all(
        re.fullmatch(r"open 23: leaves [A-M]( h[0-9a-f]{64}){7}", x) for x in leaves.splitlines())
    said = process(leaves, "leaves.txt")
    assert "squares stay sealed" in said and "played live by mail" in said
    for view in (("--no-color",), ("--svg", tmp_path / "battle.svg")):       # placeholders
        code, out = pbem(capsys, "show", "-g", d, "--battle", "23", *view)   # are not drawn
        assert code == 0, out

    process("board a1 -> G4a G5a G6a G7a\n", "red1.txt")
    code, out = pbem(capsys, "mines", "open", "-g", d, "G9", "--no-color")     # his own mine
    assert code != 0 and "holds your own sealed mine" in " ".join(out.split())
    code, out = pbem(capsys, "mines", "open", "-g", d, "G8", "--no-color")
    assert code == 0 and re.fullmatch(r"open 23: G8 empty salt_[0-9a-f]{64}\n", out), out
    process(NMR, "blue1.txt")
    said = process("board a1 -> G8a G9a G10a G10d\n", "red2.txt")
    assert "enters Blue's sealed squares G10" in said
    opened = reveal()
    assert re.fullmatch(r"open 23: G10 empty salt_[0-9a-f]{64}\n", opened)
    forged = tmp_path / "forged.txt"                       # G10 said mined: refused
    forged.write_text(opened.replace("empty", "mine"), encoding="utf-8")
    code, out = pbem(capsys, "process", forged, "-g", d, "--no-color")
    assert code != 0 and "ts_open_wrong" in out
    process(opened, "open1.txt")
    process(NMR, "blue2.txt")
    text = published_text(d)
    assert master not in text
    assert not named("G9", text) and not named("B5", text)     # nothing learnt yet

    said = process("board a1 -> G9d G8d\n", "red3.txt")
    assert "sealed squares G9, G8" in said or "sealed squares G9 G8" in said
    opened = reveal()                  # G8, past the mine on G9, is never reached: not opened
    assert re.fullmatch(r"open 23: G9 mine salt_[0-9a-f]{64}\n", opened), opened
    said = process(opened, "open2.txt")
    assert "went off on G9d" in said

    text = published_text(d)
    assert master not in text and not named("B5", text)        # never fired: never published
    code, out = pbem(capsys, "verify", "-g", d, "--no-color")
    assert code == 0, out
    code, out = pbem(capsys, "mines", "reveal", "-g", d, "--no-color")
    assert code != 0 and "no battle waits" in out


def test_verify_refuses_an_opening_that_does_not_match_its_leaf(tmp_path, monkeypatch):
    """A game master whose program accepts any opening (the check patched away) plays the
    attacker's battle turn with G10 'empty' though it is mined; pbem verify replays the file
    with the real check and refuses it."""
    from adjudicator.model import mine_grid
    from adjudicator.service import mine_openings, mine_secrets
    from adjudicator.service.audit import verify_game
    from adjudicator.service.gamedir import current_state, process_turn
    game = load_game("taktyczne", options={"players": 2, "live_battles": True})
    state = build_position(game, parse_cases(POSITION)[0])
    d = tmp_path / "ts"
    seeds = demo_seeds("live")
    create_game(d, game, "live", initial=attrs.evolve(state, game_id="live"), seeds=seeds,
                created="2026-11-27")
    sealed = mine_secrets.seal(d, game, "blue", "23", ["G10", "B5"])
    process_turn(d, game, sealed.line + "\n", seeds=seeds)
    process_turn(d, game, "move 1 tank_3 22 -> 23\n", seeds=seeds)
    leaves, _ = mine_openings.waiting_text(d, current_state(d)[0], "blue", game.tables["board"])
    process_turn(d, game, leaves, seeds=seeds)
    process_turn(d, game, "board a1 -> G4a G5a G6a G7a\n", seeds=seeds)
    process_turn(d, game, NMR, seeds=seeds)
    process_turn(d, game, "board a1 -> G8a G9a G10a G10d\n", seeds=seeds)
    opened, _ = mine_openings.waiting_text(d, current_state(d)[0], "blue", game.tables["board"])
    assert " G10 mine " in opened
    with monkeypatch.context() as patched:
        patched.setattr(mine_grid, "square_opens", lambda *args: True)
        process_turn(d, game, opened.replace(" mine ", " empty "), seeds=seeds)
    assert "live_battle" in current_state(d)[0].extras        # the tank drove through
    report = verify_game(d)
    assert not report.ok
    assert report.failure.file == "turns/0007-blue.json"            # the forged opening
    assert "ts_open_wrong" in report.failure.detail


def _game_dir(tmp_path, live: bool = True):
    game = load_game("taktyczne", options={"players": 2, "live_battles": live})
    state = build_position(game, parse_cases(POSITION)[0])
    d = tmp_path / "ts"
    create_game(d, game, "live", initial=attrs.evolve(state, game_id="live"),
                seeds=demo_seeds("live"), created="2026-11-27")
    return d


def _status(capsys, d) -> str:
    code, out = pbem(capsys, "status", "-g", d, "--no-color")
    assert code == 0, out
    return " ".join(out.split())


@attrs.define
class Commands:
    """The commands run on the game copy ``d``, their files in ``tmp_path``."""

    capsys: object
    d: object
    tmp_path: object

    def process(self, text: str, name: str) -> str:
        """``pbem process`` of ``text``: its output on one line."""
        path = self.tmp_path / name
        path.write_text(text, encoding="utf-8")
        code, out = pbem(self.capsys, "process", path, "-g", self.d, "--no-color")
        assert code == 0, out
        return " ".join(out.split())

    def seal(self, *squares: str) -> str:
        """Blue seals ``squares`` for 23 (``pbem mines seal``) and sends the line printed."""
        code, out = pbem(self.capsys, "mines", "seal", "-g", self.d, "--power", "blue",
                         "--area", "23", *squares, "--no-color")
        assert code == 0, out
        line = re.search(r"^minefield 23: grid_[0-9a-f]{64}$", out, re.M).group()
        self.process(line + "\n", "seal.txt")
        return line

    def reveal(self) -> str:
        """What ``pbem mines reveal`` writes for the power that is waited for."""
        path = self.tmp_path / "open.txt"
        code, out = pbem(self.capsys, "mines", "reveal", "-g", self.d, "-o", path, "--no-color")
        assert code == 0, out
        return path.read_text(encoding="utf-8")


def test_status_and_show_say_what_a_paused_turn_waits_for_and_from_whom(tmp_path, capsys):
    """pbem status names what the paused turn waits for (the leaves, a battle turn, the
    openings) and from whom; pbem show --battle, while the attacker's written battle turn
    waits for the owner's openings, says so rather than that it is the attacker's turn."""
    d = _game_dir(tmp_path)
    run = Commands(capsys, d, tmp_path)
    run.seal("G9", "B5")
    run.process("move 1 tank_3 22 -> 23\n", "attack.txt")
    assert ("Blue to move (the live battle in 23 waits for Blue to publish the leaves of the "
            "sealed mine layout (pbem mines reveal))") in _status(capsys, d)
    run.process(run.reveal(), "leaves.txt")
    assert "Red to move (the live board battle in 23 waits for battle turn 1)" in _status(capsys, d)
    code, out = pbem(capsys, "show", "-g", d, "--battle", "23", "--no-color")
    assert code == 0 and "battle turn 1 is Red's (the attacker)" in " ".join(out.split())

    run.process("board a1 -> G4a G5a G6a G7a\n", "red1.txt")
    run.process(NMR, "blue1.txt")
    run.process("board a1 -> G8a G9a G10a G10d\n", "red2.txt")
    said = _status(capsys, d)
    assert ("Blue to move (Red's battle turn 3 in 23 is written and waits for Blue to open the "
            "sealed mine squares it enters (G10: pbem mines reveal))") in said, said
    code, out = pbem(capsys, "show", "-g", d, "--battle", "23", "--no-color")
    shown = " ".join(out.split())
    assert code == 0 and "is Red's (the attacker)." not in shown
    assert ("battle turn 3, Red's (the attacker), is written and waits for Blue to open the "
            "sealed mine squares it enters (G10)") in shown, shown


def test_status_says_a_battle_by_plan_waits_for_the_reveal(tmp_path, capsys):
    d = _game_dir(tmp_path, live=False)
    run = Commands(capsys, d, tmp_path)
    run.seal("G9", "B5")
    run.process("move 1 tank_3 22 -> 23\n", "attack.txt")
    assert ("Blue to move (the battle in 23 waits for Blue to reveal the sealed mine layout "
            "(pbem mines reveal))") in _status(capsys, d)


def test_a_missed_attacker_battle_turn_over_sealed_mines_plays_his_plan_end_to_end(tmp_path, capsys):
    """Red misses battle turn 3 over blue's sealed G10: the game master's nmr plays red's
    plan, whose tank reaches G10; the turn waits for blue (pbem status says so), blue's
    program opens what the plan's tank reaches (pbem mines reveal), the mine goes off, and
    pbem verify replays every file."""
    d = _game_dir(tmp_path)
    run = Commands(capsys, d, tmp_path)
    run.seal("G10", "B5")
    run.process("move 1 tank_3 22 -> 23\n", "attack.txt")
    run.process(run.reveal(), "leaves.txt")
    run.process("board a1 -> G4a G5a G6a G7a\n", "red1.txt")
    run.process(NMR, "blue1.txt")
    said = run.process(NMR, "red2.txt")                      # red's battle turn 3: missed
    assert "enters Blue's sealed squares" in said
    assert "Blue to open the sealed mine squares" in _status(capsys, d)
    opened = run.reveal()
    assert re.search(r"^open 23: G10 mine salt_[0-9a-f]{64}$", opened, re.M), opened
    said = run.process(opened, "open.txt")
    assert "went off on G10d" in said and "plan" in said
    code, out = pbem(capsys, "verify", "-g", d, "--no-color")
    assert code == 0, out
