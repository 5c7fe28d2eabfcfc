"""The bundled example games, turns/<ruleset>-example: round 1 of Axis & Allies 1941 and of
Spring 1942 (all five powers each), Europe's pre-game round and round 1, and round 1 of
Global 1940 (all ten slots), played with demo seeds.

* every orders file checks clean and is processed into a fresh game directory, which then
  passes the audit; units and IPCs add up exactly; processing again gives the same turns;
* the committed, published game in turns/<ruleset>-example/game/ verifies with the current
  engine and is exactly what scripts/regenerate_example.py produces; its reports render
  (text and HTML) and ``pbem show`` draws it;
* the 1942 round really shows the rules 1942 adds, and the Global round the rules Global
  adds (read from their events, and found in their reports);
* tampering with any published byte, seed, orders file or die is detected (issue 3; on the
  1941 example, as those tests are about the audit, not the game).
"""

from __future__ import annotations

import json
import re
import random
import shutil
from collections import Counter
from pathlib import Path

import attrs
import pytest

from adjudicator.service import examples, gamedir
from adjudicator.io import layout
from adjudicator.io import sshsig
from adjudicator.service.audit import verify_game
from adjudicator.model.events import (
    AircraftLost, BattleEnded, BattleStarted, Casualties, DiceRolled, Placed, Purchased, RaidDamage,
    Repaired, StandingOrdersChanged, Unloaded, UnitsCaptured, UnitsChanged,
)
from adjudicator.io.parser import parse_orders
from adjudicator.service.games import load_game
from adjudicator.io.turnfile import decode_game_file, decode_turn_file, encode
from cli_helpers import pbem
from conftest import EXAMPLE_ORDERS, PUBLISHED_GAME, snapshot

RULESETS = ("aa1941", "aa1942", "europe1999", "global1940", "taktyczne")
GAME_ID = "aa1941-example"


def stale(chosen) -> str:
    return (f"the published example game in {chosen.published} no longer matches the engine, "
            f"the map data or the example orders; if that change is intended, re-run "
            f"`python scripts/regenerate_example.py {chosen.ruleset}` and commit the result")


STALE = stale(examples.example("aa1941"))


def play(chosen, directory: Path) -> list:
    """Create a game in ``directory`` and process every orders file of the example
    ``chosen`` in order, asserting each checks clean first.  Returns the turn files."""
    turns = []
    for played in examples.play(chosen, directory):
        errors = [f"line {p.line}: {p.code}" for p in played.errors]
        assert errors == [], f"{played.path.name} does not check clean"
        turns.append(played.turn)
    return turns


@pytest.fixture(scope="module", params=RULESETS)
def example(request):
    return examples.example(request.param)


@pytest.fixture(scope="module")
def played(example, tmp_path_factory):
    directory = tmp_path_factory.mktemp(f"example-{example.ruleset}") / "game"
    return directory, play(example, directory)


def published_turns(directory: Path):
    """The published turn files, decoded after the game's edition is loaded (an edition's
    own event kinds, such as Global 1940's ``neutral_joined``, are registered by its
    plug-ins: decoding first worked only when an earlier test had loaded them)."""
    from adjudicator.service import gamedir
    game_file, _ = gamedir.read_game(directory)
    load_game(game_file.ruleset, options=game_file.options)
    return [decode_turn_file(p.read_bytes(), p) for _, _, p in layout.list_turns(directory)]


# --------------------------------------------------------------------------- a fresh game

def test_conftest_names_the_1941_example():
    chosen = examples.example("aa1941")
    assert chosen.orders_files() == EXAMPLE_ORDERS and chosen.published == PUBLISHED_GAME


def test_every_bundled_example_is_tested():
    assert tuple(e.ruleset for e in examples.bundled()) == RULESETS


ROUNDS = {
    "aa1941": ["01-ussr.txt", "02-germany.txt", "03-uk.txt", "04-japan.txt", "05-usa.txt"],
    "aa1942": ["01-ussr.txt", "02-germany.txt", "03-uk.txt", "04-japan.txt", "05-usa.txt"],
    # Europe: a full round, then Germany's second turn (its Middle East payment)
    "europe1999": ["01-germany-cash.txt", "02-ussr-cash.txt", "03-uk-cash.txt", "04-usa-cash.txt",
                   "05-germany.txt", "06-ussr.txt", "07-uk.txt", "08-usa.txt", "09-germany.txt"],
    # Global: the ten slots of round 1, the UK's two (UK Europe, UK Pacific) one turn
    "global1940": ["01-germany.txt", "02-ussr.txt", "03-japan.txt", "04-usa.txt", "05-china.txt",
                   "06-uk.txt", "07-italy.txt", "08-anzac.txt", "09-france.txt"],
    # Taktyczne Starcie: the pregame's draw, the four players of round 1 in the rolled order,
    # round 2 (blue's attack: a land board battle), red's round 3 (a sea board battle) and
    # blue's (red's capital taken, red eliminated), green's and yellow's round 3, blue's
    # round 4 (a sea battle played live by mail: its three battle-turn files, then the rest
    # of blue's paused turn); then the game master's correction (a war chest) and rounds 4-6
    # of issue 27's war: a mine that fires, a reaction shot, an air strike, a nuclear exchange
    "taktyczne": ["01-pregame.txt", "02-red.txt", "03-blue.txt", "04-green.txt", "05-yellow.txt",
                  "06-red.txt", "07-blue.txt", "08-green.txt", "09-yellow.txt", "10-red.txt",
                  "11-blue.txt", "12-green.txt", "13-yellow.txt", "14-blue.txt",
                  "15-blue-battle.txt", "16-yellow-battle.txt", "17-blue-battle.txt",
                  "18-correction.txt", "19-green.txt", "20-yellow.txt", "21-blue.txt",
                  "22-yellow-reveal.txt", "23-green.txt", "24-yellow.txt", "25-blue.txt", "26-green.txt",
                  "27-yellow.txt"],
}
# Who moves next when the example's orders are all played (round, power).
NEXT = {"aa1941": (2, "ussr"), "aa1942": (2, "ussr"), "europe1999": (2, "ussr"),
        "global1940": (2, "germany"), "taktyczne": (7, "blue")}


def test_example_has_a_full_round(example):
    assert [p.name for p in example.orders_files()] == ROUNDS[example.ruleset]


def test_example_game_verifies(example, played):
    directory, turns = played
    count = len(example.orders_files())
    report = verify_game(directory, load_game)
    assert report.ok, report.failure
    assert report.turns_found == report.turns_checked == report.turns_replayed == count
    assert len(layout.list_turns(directory)) == count
    assert report.dice_checked > 0
    assert report.dice_checked == sum(len(r.faces) for t in turns for r in t.dice)
    state, last = gamedir.current_state(directory)
    assert (last, state.round, state.power, state.turn_number) == (count, *NEXT[example.ruleset],
                                                                   count + 1)


def _losses_and_gains(turns) -> tuple[Counter, Counter]:
    """From the events alone: (owner, unit type) -> units placed, joined, captured or turned
    into that type minus units lost, given up or turned into another; and (defenders, unit
    type) -> the losses of battles with several defenders (their casualties name unit types,
    not owners: only the defenders' sum can be checked)."""
    delta: Counter = Counter()
    pooled: Counter = Counter()
    for tf in turns:
        battles: dict[str, BattleStarted] = {}
        for e in tf.events:
            if isinstance(e, BattleStarted):
                battles[e.battle] = e
            elif isinstance(e, Placed):
                for t, n in e.units.items():
                    delta[(e.power, t)] += n
            elif e.kind == "ts_recruited":             # Taktyczne Starcie's purchase
                for t, n in e.units:
                    delta[(e.power, t)] += n
            elif e.kind == "ts_built" and e.what == "carrier":   # a carrier is a unit
                delta[(e.power, "carrier")] += 1
            elif e.kind == "ts_board_battle":           # a board battle's losses by power
                for power, lost in e.losses:
                    for t in lost:
                        delta[(power, t)] -= 1
            elif isinstance(e, UnitsCaptured):
                for t, n in e.units.items():
                    delta[(e.by, t)] += n
                    delta[(e.from_power, t)] -= n
            elif isinstance(e, AircraftLost):
                for t, n in e.units.items():
                    delta[(e.power, t)] -= n
            elif isinstance(e, UnitsChanged):            # a captured major factory turned minor
                delta[(e.power, e.from_type)] -= e.count
                delta[(e.power, e.to_type)] += e.count
            elif e.kind == "factories_upgraded":        # one minor turned major per name
                delta[(e.power, "minor_factory")] -= len(e.territories)
                delta[(e.power, "major_factory")] += len(e.territories)
            elif e.kind in ("neutral_joined", "mongolia_joined"):   # a neutral's army joins
                for t, n in e.units.items():
                    delta[(e.power, t)] += n
            elif e.kind == "neutral_army_raised":
                for t, n in e.units.items():
                    delta[(e.nation, t)] += n
            elif e.kind == "ts_strike_ended":            # Taktyczne Starcie's air strike
                for t, n in e.lost.items():
                    delta[(e.power, t)] -= n
                for t, n in e.destroyed.items():
                    delta[(e.defender, t)] -= n
            elif e.kind == "ts_mines_fired":             # each mine gone off leaves the main map
                kind = "mine_sea" if e.area.startswith("S") else "mine_land"   # a sea's, a land's
                delta[(e.power, kind)] -= len(e.squares)
            elif e.kind == "ts_nuclear_blast":           # whose units a blast took: not named
                for units in e.destroyed.values():
                    for t, n in units.items():
                        pooled[(tuple(sorted(tf.state.ipcs)), t)] -= n
            elif e.kind in ("ts_lrg_fired", "ts_lrg_reaction_fired") and e.hit:
                owner = e.owner if e.kind == "ts_lrg_fired" else e.mover
                for t, n in Counter({e.target: 1, **e.cargo}).items():
                    delta[(owner, t)] -= n
            elif isinstance(e, Casualties):
                battle = battles[e.battle]
                lost = Counter(e.killed) + Counter(e.cargo_lost)
                if e.side == "attacker" or len(battle.defenders) == 1:
                    owner = battle.attacker if e.side == "attacker" else battle.defenders[0]
                    for t, n in lost.items():
                        delta[(owner, t)] -= n
                else:
                    for t, n in lost.items():
                        pooled[(tuple(sorted(battle.defenders)), t)] -= n
    return delta, pooled


def _assert_conserved(before, turns, after, label="") -> None:
    """The units of ``after`` are those of ``before`` changed by the events of ``turns``: per
    owner, and for the losses of a battle with several defenders, per group of defenders."""
    delta, pooled = _losses_and_gains(turns)
    expected = before.unit_counts() + Counter()   # copy
    expected.update(delta)
    actual = after.unit_counts()
    shared = {(owner, t) for (owners, t) in pooled for owner in owners}
    for key in set(expected) | set(actual):
        if key not in shared:
            assert expected[key] == actual[key], f"{label}: {key}"
    for (owners, t), n in pooled.items():
        assert sum(expected[(o, t)] for o in owners) + n == sum(actual[(o, t)] for o in owners), (
            f"{label}: {t} of {owners}")


def test_units_are_conserved(played):
    directory, turns = played
    initial = decode_game_file((directory / "game.json").read_bytes(), "game.json").initial_state
    delta, pooled = _losses_and_gains(turns)
    # Taktyczne Starcie buys every unit in the game, so its losses may net to zero per type:
    # its board battles' losses are counted from the events
    board_losses = sum(len(lost) for tf in turns for e in tf.events if e.kind == "ts_board_battle"
                       for _, lost in e.losses)
    assert sum(-n for n in delta.values() if n < 0) + board_losses > 0, "the example has casualties"
    _assert_conserved(initial, turns, turns[-1].state, "the whole game")
    state = initial                        # and turn by turn
    for tf in turns:
        _assert_conserved(state, [tf], tf.state, f"turn {tf.turn_number} ({tf.power})")
        state = tf.state


def test_ipcs_never_negative(played):
    directory, turns = played
    initial = decode_game_file((directory / "game.json").read_bytes(), "game.json").initial_state
    for state in [initial] + [t.state for t in turns]:
        assert all(v >= 0 for v in state.ipcs.values()), (state.turn_number, state.ipcs)


def test_processing_again_gives_the_same_turns(example, played, tmp_path):
    first_dir, first = played
    second = play(example, tmp_path / "again")
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

def test_committed_example_verifies(example):
    published = example.published
    assert published.is_dir(), f"{published} is missing; {stale(example)}"
    assert not (published / layout.SECRET_DIR).exists(), ".secret/ must never be published"
    report = verify_game(published, load_game)
    assert report.ok, f"{report.failure}\n{stale(example)}"
    assert report.turns_checked == len(example.orders_files()), stale(example)


def test_committed_example_is_what_the_script_produces(example, regenerate, tmp_path):
    fresh = regenerate.play_example(tmp_path / "game", example.ruleset)
    assert snapshot(fresh) == snapshot(example.published), stale(example)


def test_committed_orders_are_the_example_orders(example):
    published = sorted((example.published / "orders").glob("*.txt"))
    assert [p.read_bytes() for p in published] == [
        p.read_bytes() for p in example.orders_files()], stale(example)


def test_committed_example_is_signed_by_the_demo_key(example, regenerate):
    from adjudicator.io import keys
    report = verify_game(example.published, load_game,
                         expected_gm_key=regenerate.demo_gm_key(example.game_id).public_key())
    assert report.ok, report.failure
    other = keys.public_key_line(regenerate.demo_gm_key("another-game"))
    assert verify_game(example.published, load_game, expected_gm_key=other).failure.check == "gm_key"


def test_committed_taktyczne_example_holds_a_live_battle(capsys, regenerate):
    """Blue's round-4 attack on S01 (`live S01`) pauses its turn; the battle is played in
    battle-turn files of their own (blue's written board lines, yellow's missed turn played
    by its plan after the game master's nmr), then the battle ends, is recorded as a live
    board battle, and blue's paused turn goes on (its tank's move to 14); `pbem verify`
    replays it all with the example's game master key."""
    from adjudicator.io import keys
    chosen = examples.example("taktyczne")
    turns = published_turns(chosen.published)
    started = [(tf.turn_number, e) for tf in turns for e in tf.events
               if e.kind == "ts_live_battle_started"]
    assert [(n, e.area, e.attacker, e.defender) for n, e in started] == [(14, "S01", "blue", "yellow")]
    battle_turns = [(tf.turn_number, tf.power, e) for tf in turns for e in tf.events
                    if e.kind == "ts_live_battle_turn"]
    assert [(n, p, e.turn, e.by_plan) for n, p, e in battle_turns] == [
        (15, "blue", 1, False), (16, "yellow", 2, True), (17, "blue", 3, False)]
    assert any(e.kind == "no_moves_received" for e in turns[15].events)    # the nmr file
    fought = [(tf.turn_number, e) for tf in turns for e in tf.events if e.kind == "ts_board_battle"]
    live = [(n, e) for n, e in fought if e.live]
    assert [(n, e.area) for n, e in live] == [(17, "S01")]
    assert len(fought) == 4                     # the land and sea battles by plan, this one, S25's mines
    last = turns[16]
    kinds = [e.kind for e in last.events]
    assert kinds.index("ts_board_battle") < kinds.index("moved")         # the turn resumed
    assert "live_battle" not in last.state.extras
    assert [u.type for u in last.state.units["14"]] == ["tank_3"]
    code, out = pbem(capsys, "report", "-g", chosen.published, "16")     # the missed battle turn
    assert code == 0 and "battle plan plays this" in out, out
    assert "income is collected" not in out                         # a battle turn has none
    gm_key = keys.public_key_line(regenerate.demo_gm_key(chosen.game_id))
    code, out = pbem(capsys, "verify", chosen.published, "--gm-key", gm_key)
    assert code == 0, out


def test_committed_taktyczne_example_wages_issue_27s_war(capsys, regenerate):
    """Rounds 5 and 6 of the Taktyczne example (issue 27): yellow's underwater mines in S25,
    alone and sealed (only a commitment in yellow's orders: blue's attack waits for yellow's
    reveal, which opens it), sink blue's attacking warship; blue's long-range gun in 16 fires in reaction, by
    its standing default, at yellow's warship entering S05 in yellow's turn; blue's bomber
    strikes it from the new airfield in 24; blue's missile explodes over green's capital 52
    (the capital stands, L19.60-L19.61) and yellow's missile at 24 is stopped by blue's
    anti-missile (L19.67); each reaction names its standing order or default (contract 5);
    the picture of blue's round-6 turn hatches the blast's areas."""
    from adjudicator.present.report import report_text
    from adjudicator.present.board_svg import board_svg
    chosen = examples.example("taktyczne")
    turns = {tf.turn_number: tf for tf in published_turns(chosen.published)}
    game = load_game("taktyczne")

    def events(n, kind):
        return [e for e in turns[n].events if e.kind == kind]

    assert turns[18].power == "green" and events(18, "corrected")       # the war chest, signed by the GM
    [wanted] = events(21, "ts_mine_reveal_wanted")                     # blue's turn waits
    assert (wanted.area, wanted.power) == ("S25", "yellow") and not events(21, "ts_board_battle")
    assert "G4" not in json.dumps(turns[20].state.standing_orders["yellow"].choices, default=str)
    orders20 = (chosen.published / "orders" / "0020-yellow.txt").read_text("utf-8")
    assert "minefield S25: sha256_" in orders20 and "G4" not in orders20   # only the commitment
    [opened] = events(22, "ts_mine_layout_revealed")
    assert (opened.power, opened.squares, opened.commitment) == ("yellow", ("F6", "G4"), wanted.commitment)
    [fired] = events(22, "ts_mines_fired")
    assert (fired.area, fired.power, fired.units, fired.standing) == (
        "S25", "yellow", ("warship_2",), f"minefield S25: {wanted.commitment}")
    [shot] = events(24, "ts_lrg_reaction_fired")
    assert (shot.power, shot.gun, shot.area, shot.mover, shot.target) == ("blue", "16", "S05", "yellow", "warship_1")
    assert shot.standing.startswith("default")
    volleys = events(25, "ts_strike_volley")
    assert volleys and all(v.turn >= 1 for v in volleys)
    [ended] = events(25, "ts_strike_ended")
    assert ended.area == "S05" and ended.destroyed == {"warship_1": 1}
    [blast] = events(25, "ts_nuclear_blast")
    assert blast.centre == "52" and set(blast.areas) == {"52"} | set(game.map.neighbours("52")) | set(
        game.map.tangents.get("52", ()))
    assert turns[25].state.extras["ts_capitals"]["green"] == "52"          # the capital stands
    [stopped] = events(27, "ts_missile_intercepted")
    assert (stopped.power, stopped.target, stopped.by, stopped.standing) == ("blue", "24", "yellow", "default: reach")
    assert not events(27, "ts_nuclear_blast")
    said = " ".join(report_text(turns[22].events, game, turns[21].state, turns[22].state).split())
    assert "why: Yellow's standing order «minefield S25: sha256_" in said
    said = " ".join(report_text(turns[24].events, game, turns[23].state, turns[24].state).split())
    assert "why: Blue wrote no standing order for it: the default (react lrg: fire)" in said
    said = " ".join(report_text(turns[25].events, game, turns[24].state, turns[25].state).split())
    assert "Battle turn 1 over S05" in said and "a nuclear explosion (a missile) over 52" in said
    picture = board_svg(game, turns[25].state, turns[25].events)
    assert picture.count('class="blast-area') == len(blast.areas)
    assert 'data-path="24 &gt; 25 &gt; S05"' in picture          # the strike's way out, as an arrow
    assert 'data-phase="return" data-path="S05 &gt; 25 &gt; 24"' in picture     # and its way back


def test_readme_names_the_published_key(example):
    from adjudicator.io import keys
    gm = json.loads((example.published / "game.json").read_bytes())["game_master"]
    readme = (example.directory / "README.md").read_text("utf-8")
    assert keys.fingerprint(gm) in readme
    assert " ".join(gm.split()[:2]) in readme


def test_every_report_renders_as_text_and_html(example, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    turns = published_turns(example.published)
    game = load_game(example.ruleset)
    for tf in turns:
        code, text = pbem(capsys, "report", "-g", example.published, tf.turn_number)
        assert code == 0, text
        assert game.ruleset.powers[tf.power].name in text
        assert "(battle not finished in this log)" not in text   # a raid's dice follow its end
        if any(isinstance(e, DiceRolled) and e.step == "aa" for e in tf.events):
            assert "AA fire" in text and "AA Guns" not in text     # one gun fires, many dice
        html_path = tmp_path / f"r{tf.turn_number}.html"
        code, out = pbem(capsys, "report", "-g", example.published, tf.turn_number,
                         "--out", html_path)
        assert code == 0, out
        page = html_path.read_text("utf-8")
        assert page.lstrip().lower().startswith("<!doctype html") and "</html>" in page
        # every battle of the turn is in both
        for e in tf.events:
            if isinstance(e, BattleStarted):
                assert f"Battle: {e.battle}" in text
                assert e.space in page


def test_pbem_show_draws_the_committed_game(example, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    state, _ = gamedir.current_state(example.published)
    game = load_game(example.ruleset)
    code, out = pbem(capsys, "show", "-g", example.published)
    assert code == 0, out
    assert f"round {state.round}" in out
    for power in game.ruleset.turn_order:
        assert game.ruleset.powers[power].name in out
    damaged = [(space, u.damage) for space, units in state.units.items()
               for u in units if u.damage]
    for space, damage in damaged:              # factory damage left after the repair
        assert f"({damage} damage)" in out, space
    # Europe raids cost IPCs; Taktyczne Starcie has no unit that is damaged
    assert damaged or example.ruleset in ("aa1941", "europe1999", "taktyczne")


def test_pbem_demo_plays_the_example(example, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    out_dir = tmp_path / "demo"
    code, out = pbem(capsys, "demo", "--ruleset", example.ruleset, "--out", out_dir)
    assert code == 0, out
    assert load_game(example.ruleset).ruleset.title in out
    assert "OK" in out and "Traceback" not in out
    # the same turns as the published game (the demo's own key signs them differently)
    for (_, _, a), (_, _, b) in zip(layout.list_turns(out_dir),
                                    layout.list_turns(example.published), strict=True):
        a, b = json.loads(a.read_bytes()), json.loads(b.read_bytes())
        assert (a["events"], a["state"], a["dice"]) == (b["events"], b["state"], b["dice"])


def test_pbem_demo_finds_the_ruleset_of_an_example_folder(capsys, tmp_path):
    chosen = examples.example("aa1942")
    code, out = pbem(capsys, "demo", "--example", chosen.directory, "--turns", "1",
                     "--out", tmp_path / "a")
    assert code == 0, out
    assert json.loads((tmp_path / "a" / "game.json").read_bytes())["ruleset"] == "aa1942"


@pytest.mark.parametrize("args, message", [
    (["--ruleset", "nope"], "unknown ruleset 'nope'"),
    (["--example", "{tmp}"], "has no orders/"),
    (["--example", "{tmp}/mine"], "cannot tell the ruleset"),
    (["--example", "{tmp}/mine", "--ruleset", "aa1942"], "no orders files"),
])
def test_pbem_demo_refuses_what_it_cannot_play(capsys, tmp_path, args, message):
    (tmp_path / "mine" / "orders").mkdir(parents=True)
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    code, out = pbem(capsys, "demo", *args, "--out", tmp_path / "out")
    assert code == 2 and message in out and "Traceback" not in out, (code, out)
    assert not (tmp_path / "out").exists()


def test_docs_orders_example_is_the_checked_german_orders():
    # docs/orders.md shows Germany's example orders; they must stay the file the tests run.
    doc = (EXAMPLE_ORDERS[0].parents[3] / "docs" / "orders.md").read_text(encoding="utf-8")
    german = EXAMPLE_ORDERS[1].read_text(encoding="utf-8")
    assert "```\n" + german + "```\n" in doc


# --------------------------------------------------------------------------- 1942's rules in the round

def example_round(ruleset: str):
    """(game, the states before each turn, the turn files) of the published example."""
    chosen = examples.example(ruleset)
    initial = decode_game_file((chosen.published / "game.json").read_bytes(),
                               "game.json").initial_state
    turns = published_turns(chosen.published)
    return load_game(ruleset), [initial] + [t.state for t in turns[:-1]], turns


@pytest.fixture(scope="module")
def round_1942():
    return example_round("aa1942")


def _battles(turn) -> dict[str, BattleStarted]:
    return {e.battle: e for e in turn.events if isinstance(e, BattleStarted)}


def _dice(turns, step):
    return [(t, e) for t in turns for e in t.events if isinstance(e, DiceRolled) and e.step == step]


def test_1942_round_has_a_raid_and_its_owner_repairs_it(round_1942):
    game, befores, turns = round_1942
    raids = [(i, e) for i, t in enumerate(turns) for e in t.events
             if isinstance(e, RaidDamage) and e.damage > 0]
    assert raids, "no strategic bombing raid did damage"
    i, raid = raids[0]
    assert raid.unit_type == "industrial_complex"
    raided_owner = turns[i].state.owner(raid.space)
    repairs = [(j, e) for j, t in enumerate(turns) for e in t.events
               if isinstance(e, Repaired) and e.space == raid.space]
    assert repairs, f"nobody repaired {raid.space}"
    j, repair = repairs[0]
    assert j > i and repair.power == raided_owner == turns[j].power
    assert 0 < repair.points <= raid.total and repair.cost == repair.points
    # the AA gun of the raided territory fired at the bomber first
    assert any(e.battle == raid.battle for _, e in _dice(turns[i:i + 1], "aa"))


def test_1942_round_has_aa_fire_in_a_land_attack(round_1942):
    game, befores, turns = round_1942
    fired = [(t, e) for t, e in _dice(turns, "aa") if _battles(t)[e.battle].battle_type == "land"]
    assert fired, "no AA gun fired in a land battle"
    t, e = fired[0]
    attackers = _battles(t)[e.battle].attacking_units
    aircraft = sum(n for u, n in attackers.items() if u in ("fighter", "bomber"))
    assert len(e.rolls) == aircraft > 0 and e.side == "defender"


def test_1942_round_has_a_supported_infantry_die(round_1942):
    game, befores, turns = round_1942
    supported = [(t, e) for t, e in _dice(turns, "attack")
                 if e.unit_type == "infantry" and e.side == "attacker"
                 and e.target > game.ruleset.units["infantry"].attack]
    assert supported, "no infantry attacked with artillery support"
    for t, e in supported:
        assert _battles(t)[e.battle].attacking_units.get("artillery", 0) > 0


def test_1942_round_has_an_amphibious_assault_with_bombardment(round_1942):
    game, befores, turns = round_1942
    bombards = _dice(turns, "bombard")
    assert bombards, "no bombardment die"
    for t, e in bombards:
        assert e.unit_type in ("battleship", "cruiser") and e.side == "attacker"
        space = _battles(t)[e.battle].space
        assert any(isinstance(u, Unloaded) and u.amphibious and u.target == space
                   for u in t.events), f"{space}: bombarded without an amphibious assault"


def test_1942_round_buys_artillery_and_places_a_new_factory(round_1942):
    game, befores, turns = round_1942
    assert any(isinstance(e, Purchased) and e.units.get("artillery")
               for t in turns for e in t.events)
    placed = [(before, t, e) for before, t in zip(befores, turns) for e in t.events
              if isinstance(e, Placed) and e.units.get("industrial_complex")]
    assert placed, "no industrial complex was placed"
    for before, t, e in placed:
        assert before.owner(e.space) == t.power, "placed where it was not held at the start"
        assert game.map[e.space].ipc >= 1
        assert not any(u.type == "industrial_complex" for u in before.units.get(e.space, ()))


def test_1942_round_gives_standing_defence_orders_for_every_power(round_1942):
    game, befores, turns = round_1942
    for t in turns:
        assert any(isinstance(e, StandingOrdersChanged) and e.power == t.power and e.count > 0
                   for e in t.events), t.power


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


# --------------------------------------------------------------------------- Europe's rules in the round

def _europe_events():
    chosen = examples.example("europe1999")
    return [(t, e) for t in published_turns(chosen.published) for e in t.events]


def test_europe_round_captures_a_convoy_center_and_the_uk_loses_its_value():
    found = _europe_events()
    assert any(e.kind == "captured" and e.territory == "British Convoy 3" and e.by == "germany"
               for _, e in found)
    uk = [e for t, e in found if e.kind == "income_collected" and e.power == "uk"]
    assert uk and uk[0].income == 25 - 5                     # [L643]: the center's 5 IPCs


def test_europe_round_has_an_overflight_aa_shot():
    shots = [e for _, e in _europe_events() if isinstance(e, DiceRolled) and e.step == "aa"
             and e.battle == "Leningrad (overflight)"]
    assert shots and len(shots[0].rolls) == 1                # one die for the one fighter


def test_europe_round_has_a_raid_that_costs_the_treasury():
    found = _europe_events()
    raids = [e for _, e in found if e.kind == "treasury_raided"]
    assert raids and raids[0].power == "germany" and raids[0].lost == sum(raids[0].rolls) > 0
    before = [t for t, e in found if e.kind == "treasury_raided"][0]
    assert before.state.ipcs["germany"] == raids[0].total


def test_europe_round_has_a_middle_east_payment():
    found = _europe_events()
    paid = [(t, e) for t, e in found if e.kind == "middle_east_paid"]
    assert paid and paid[0][1].payer == "uk" and paid[0][1].payee == "germany"
    assert paid[0][1].amount == 1                            # Egypt's value [L699]
    assert any(e.kind == "captured" and e.territory == "Egypt" and e.by == "germany"
               and e.from_power == "middle_east" for _, e in found)   # a nation's land [L222]
    assert paid[0][0].power == "germany" and paid[0][0].state.owners["Egypt"] == "germany"


def test_europe_pregame_round_spends_the_special_cash():
    """§1.4 [L250-L251]: round 0 before round 1: Germany spends 9 of its 12 IPCs of special
    cash on infantry placed in Finland (no factory there) and keeps 3 (40 + 3 for turn 1);
    the Allies spend 6 + 3 of their shared 12 and the United States, the last, keeps 3."""
    found = _europe_events()
    pregame = [(t, e) for t, e in found if t.round == 0]
    assert [t.power for t, e in pregame if e.kind == "turn_started"] == ["germany", "ussr", "uk", "usa"]
    bought = {e.power: e.cost for _, e in pregame if e.kind == "purchased"}
    assert bought == {"germany": 9, "ussr": 6, "uk": 3}
    assert any(e.kind == "placed" and e.power == "germany" and e.space == "Finland"
               for _, e in pregame)
    kept = {e.power: (e.kept, e.ipcs) for _, e in pregame if e.kind == "special_cash_kept"}
    assert kept == {"germany": (3, 43), "usa": (3, 43)}
    # what each power found left of its side's pot: the Allies take from one pot in turn
    offered = [(e.power, e.pot) for _, e in pregame if e.kind == "special_cash_offered"]
    assert offered == [("germany", 12), ("ussr", 12), ("uk", 6), ("usa", 3)]
    first = [t for t, e in found if t.round == 1 and e.kind == "turn_started"][0]
    assert first.power == "germany" and first.events[0].ipcs == 43


# --------------------------------------------------------------------------- Global 1940's rules in the round

@pytest.fixture(scope="module")
def round_global():
    return example_round("global1940")


def _of_kind(turns, kind: str) -> list:
    return [(t, e) for t in turns for e in t.events if e.kind == kind]


# The seven rules the issue asks the round to show, as the event that shows each (by code).
GLOBAL_FEATURES = {
    "declaration of war": "war_declared",
    "scramble": "scrambled",
    "convoy disruption": "convoy_disrupted",
    "kamikaze strike": "dice_rolled",              # step "kamikaze", in a battle of its own
    "raid on a base": "raid_damage",
    "national objective paid": "objective_met",
    "national objective missed": "objective_missed",
    "a neutral's army appearing": "neutral_joined",
}


def _feature_events(game, turns) -> dict[str, list]:
    base_types = {k for k, u in game.ruleset.units.items() if u.has("base")}
    found = {name: [(t, e) for t, e in _of_kind(turns, kind)] for name, kind in GLOBAL_FEATURES.items()}
    found["kamikaze strike"] = [(t, e) for t, e in found["kamikaze strike"] if e.step == "kamikaze"]
    found["raid on a base"] = [(t, e) for t, e in found["raid on a base"] if e.unit_type in base_types]
    return found


def test_global_round_shows_every_rule_the_issue_asks_for(round_global):
    game, befores, turns = round_global
    found = _feature_events(game, turns)
    assert [name for name, events in found.items() if not events] == []
    assert len(turns) == 9 and {t.round for t in turns} == {1}
    assert [t.power for t in turns] == list(game.ruleset.turn_order)     # every slot once


def test_global_round_declares_war_and_japan_is_then_at_war(round_global):
    game, befores, turns = round_global
    declared = {(e.power, e.enemy) for _, e in _of_kind(turns, "war_declared")}
    assert declared == {("japan", "usa"), ("japan", "uk"), ("japan", "france")}
    assert {(e.power, e.enemy) for _, e in _of_kind(turns, "at_war")} == {("japan", "anzac")}
    japan = next(i for i, t in enumerate(turns) if t.power == "japan")
    for enemy in ("usa", "uk", "anzac", "france"):
        assert game.ruleset.relation("japan", enemy, befores[japan].relations) != "war"
        assert game.ruleset.relation("japan", enemy, turns[japan].state.relations) == "war"
    assert _of_kind(turns, "factories_upgraded")               # the USA enters the war [L429]


def test_global_round_raids_an_air_base_inoperative(round_global):
    game, befores, turns = round_global
    raids = _feature_events(game, turns)["raid on a base"]
    assert [(t.power, e.space, e.unit_type) for t, e in raids] == [
        ("germany", "United Kingdom", "air_base")]
    turn, raid = raids[0]
    assert raid.damage == raid.total == min(sum(raid.rolls), 6) > 0       # tactical: a die each
    bases = [u for u in turn.state.units["United Kingdom"] if u.type == "air_base"]
    assert [u.damage for u in bases] == [raid.total]
    assert raid.total >= int(game.ruleset.option("base_inoperative_damage", 3))   # inoperative


def test_global_round_has_a_neutral_army_join(round_global):
    game, befores, turns = round_global
    joined = _of_kind(turns, "neutral_joined")
    assert [(t.power, e.territory, e.power, e.units) for t, e in joined] == [
        ("germany", "Bulgaria", "germany", {"infantry": 4})]
    assert "neutral_army:4" in game.map["Bulgaria"].tags                  # its printed army
    i = turns.index(joined[0][0])
    assert befores[i].owners["Bulgaria"] == "pro_axis" and "Bulgaria" not in befores[i].units
    assert turns[i].state.owners["Bulgaria"] == "germany"
    assert Counter(u.type for u in turns[i].state.units["Bulgaria"]
                   if u.owner == "germany") == Counter(infantry=4 + 1)   # with the one that entered


def test_global_round_scrambles_into_a_sea_battle(round_global):
    game, befores, turns = round_global
    scrambles = _of_kind(turns, "scrambled")
    assert [(t.power, e.power, e.space, e.zone) for t, e in scrambles] == [
        ("uk", "germany", "Western Germany", "Sea Zone 112")]
    turn, scramble = scrambles[0]
    assert sum(scramble.units.values()) <= 3 and set(scramble.units) <= {"fighter", "tactical_bomber"}
    assert game.map.adjacent(scramble.space, scramble.zone)
    battle = _battles(turn)[scramble.zone]
    assert battle.attacker == "uk" and battle.defenders == ("germany",)
    for t, n in scramble.units.items():
        assert battle.defending_units.get(t, 0) >= n
    before = befores[turns.index(turn)]
    assert sum(1 for u in before.units["Western Germany"] if u.type == "air_base" and not u.damage)
    order = before.standing_orders["germany"].choice("scramble", scramble.space)
    assert (order.value, order.space) == ("yes", "Western Germany")   # Germany's own order


def test_global_round_has_a_kamikaze_strike_once_japan_is_at_war(round_global):
    game, befores, turns = round_global
    strikes = _feature_events(game, turns)["kamikaze strike"]
    assert len(strikes) == 1
    turn, dice = strikes[0]
    started = _battles(turn)[dice.battle]
    assert (started.battle_type, started.attacker, started.defenders) == ("kamikaze", "uk", ("japan",))
    assert "kamikaze" in game.map[started.space].tags
    order = befores[turns.index(turn)].standing_orders["japan"].choice("kamikaze", started.space)
    assert len(dice.rolls) == int(order.value) == 2 and dice.target == 2     # hit on 1-2 [L824]
    assert game.ruleset.relation("japan", "uk", befores[turns.index(turn)].relations) == "war"
    ended = [e for e in turn.events if isinstance(e, BattleEnded) and e.battle == dice.battle]
    assert len(ended) == 1                                       # the strikes end before the battle
    assert started.space in _battles(turn)                       # ... that is then fought


def test_global_round_disrupts_a_convoy_and_the_uk_loses_income(round_global):
    game, befores, turns = round_global
    losses = [(t, e) for t, e in _of_kind(turns, "convoy_disrupted") if e.loss]
    assert [(t.power, e.power, e.economy, e.zone) for t, e in losses] == [
        ("uk", "uk", "uk", "Sea Zone 106")]
    turn, convoy = losses[0]
    assert "convoy" in game.map[convoy.zone].tags
    assert convoy.loss == min(convoy.cap, sum(r for r in convoy.rolls if r <= 3))
    assert len(convoy.rolls) == 2 * sum(1 for u in befores[turns.index(turn)].units[convoy.zone]
                                        if u.type == "submarine")     # two dice per submarine
    income = [e for e in turn.events if e.kind == "income_collected"][0]
    assert ("convoy_disruption", -convoy.loss) in [tuple(i) for i in income.items]


def test_global_round_pays_and_misses_objectives(round_global):
    game, befores, turns = round_global
    met, missed = _of_kind(turns, "objective_met"), _of_kind(turns, "objective_missed")
    assert met and missed
    names = {o.name for o in game.ruleset.objectives}
    for turn, e in met + missed:
        assert e.objective in names and e.power == turn.power
    for turn, e in met:                          # each one paid is a line of that income
        collected = [i for i in turn.events if i.kind in ("income_collected", "economy_income")
                     and getattr(i, "economy", i.power) == e.economy]
        assert (e.objective, e.income) in [tuple(x) for i in collected for x in i.items]
    assert {t.power for t, _ in met} >= {"germany", "usa", "china", "uk", "anzac"}


def test_global_report_shows_each_rule(round_global, capsys, monkeypatch, tmp_path):
    """Each feature is in its turn's report, text and HTML, in the report's own wording."""
    import html as html_lib
    from adjudicator.present.wording import event_text, format_units, raid_summary
    monkeypatch.setenv("COLUMNS", "200")
    game, befores, turns = round_global
    published = examples.example("global1940").published
    reports: dict[int, tuple[str, str]] = {}

    def report(number: int) -> tuple[str, str]:
        """The turn's text report and HTML page, whitespace folded (rendered once)."""
        if number not in reports:
            code, text = pbem(capsys, "report", "-g", published, number)
            assert code == 0, text
            html_path = tmp_path / f"r{number}.html"
            code, out = pbem(capsys, "report", "-g", published, number, "--out", html_path)
            assert code == 0, out
            page = html_lib.unescape(html_path.read_text("utf-8"))
            reports[number] = " ".join(text.split()), " ".join(page.split())
        return reports[number]

    shown = 0
    for name, events in _feature_events(game, turns).items():
        for turn, e in events:
            flat, page = report(turn.turn_number)
            if name == "kamikaze strike":           # a battle box of its own, with its dice
                assert f"Battle: {e.battle}" in flat and e.battle in page
                assert " ".join(str(r) for r in e.rolls) in flat
            elif name == "raid on a base":          # the raid's box ends with what it did
                line = raid_summary(game, turn.power, e)
                assert f"Battle: {e.battle}" in flat and line in flat and line in page, line
            elif e.kind == "neutral_joined":         # one line: the territory with its army
                line = re.compile(rf"is joined by {re.escape(e.territory)} \([^)]*\), worth \d+ IPCs? "
                                  rf"of income, with its army of {re.escape(format_units(game, e.units))}")
                shown_text = " ".join(re.sub(r"<[^>]+>", "", page).split())      # styled spans
                assert line.search(flat) and line.search(shown_text), (name, line.pattern)
            else:
                line = " ".join(event_text(e, game).split())
                assert line in flat, (name, line)
                assert line in page, (name, line)
            shown += 1
    assert shown >= len(GLOBAL_FEATURES)


def test_pbem_show_svg_draws_every_example(example, capsys, tmp_path):
    """``pbem show --svg``: the board after the last turn, one unit chip per unit."""
    import xml.etree.ElementTree as ET
    state, _ = gamedir.current_state(example.published)
    code, out = pbem(capsys, "show", "-g", example.published, "--svg", tmp_path / "b.svg")
    assert code == 0, out
    root = ET.fromstring((tmp_path / "b.svg").read_text("utf-8"))
    drawn: Counter = Counter()
    for chip in root.iter():
        if chip.get("data-count") is not None and "object" not in chip.get("class", "").split():
            drawn[(chip.get("data-space"), chip.get("data-owner"), chip.get("data-type"))] += int(
                chip.get("data-count"))
    expected: Counter = Counter()      # units (Taktyczne Starcie's objects are chips too)
    for space, units in state.units.items():
        for unit in units:
            for u in (unit, *unit.cargo):
                expected[(space, u.owner, u.type)] += 1
    assert drawn == expected != Counter()
