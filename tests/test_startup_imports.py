"""One-line commands load only what they use (issues 24 and 25): ``pbem status`` and
``pbem check --no-odds`` import neither numpy, networkx, openskill nor the odds calculator
(and status no lark: naming the order kinds does not load the parser; no tomllib: the map
data comes from the cache), no rich at all (their lines are plain text or markup read
without rich when the output is not a terminal), no ``logging`` unless something is
logged (status: lark imports it for check), and a command builds only its own module's
parser; ``pbem odds`` of a small battle loads the battle engine, not the turn's, and reads
a plain unit list without the orders grammar (no lark)."""

from __future__ import annotations

import shutil
import subprocess
import sys

from adjudicator.io import paths

GAME = paths.ROOT / "turns" / "aa1941-example" / "game"
TAKTYCZNE = paths.ROOT / "turns" / "taktyczne-example" / "game"
ORDERS = paths.ROOT / "turns" / "aa1941-example" / "orders" / "01-ussr.txt"

# Taktyczne Starcie's classes (the board, its events, the main map's): no other edition's
# command makes them (the codec imports them for a file that names one of their events)
BOARD_CLASSES = ("adjudicator.model.tactical", "adjudicator.model.taktyczne",
                 "adjudicator.model.live_battle_events", "adjudicator.model.live_battle_state")
HEAVY = ("numpy", "networkx", "openskill", "scipy", "threadpoolctl")
LOADED = ("import sys, os\nos.environ.pop('FORCE_COLOR', None)\nos.environ.pop('TTY_COMPATIBLE', None)\n"
          "from adjudicator.cli import main\n"
          "status = main(sys.argv[1:])\n"
          "print('MODULES', sorted(m for m in sys.modules if m.startswith(("
          "'numpy', 'networkx', 'openskill', 'scipy', 'threadpoolctl', 'adjudicator', 'rich', "
          "'cryptography', 'lark', 'tomllib', 'logging', 'secrets', 'importlib.resources'))))\n"
          "sys.exit(status)\n")


def modules_of(*argv: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", LOADED, *argv], capture_output=True,
                          text=True, cwd=paths.ROOT)
    assert done.returncode in (0, 1), done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("MODULES"))
    return set(eval(line.removeprefix("MODULES ")))


def heavy(modules: set[str]) -> set[str]:
    return {m for m in modules if m.split(".")[0] in HEAVY}


def test_status_loads_no_numerics_no_checker_and_no_other_command():
    modules_of("status", "-g", str(GAME))          # the map data into the cache (a fresh one)
    loaded = modules_of("status", "-g", str(GAME))
    assert "adjudicator.service.status" in loaded        # it did run
    assert not heavy(loaded), sorted(heavy(loaded))[:5]
    for absent in ("adjudicator.engine.combat.sweep", "adjudicator.engine.combat.odds",
                   "adjudicator.service.checking", "adjudicator.io.parser", "lark", "tomllib",
                   "adjudicator.cli.game_commands", "adjudicator.cli.tournament_command",
                   "adjudicator.service.tournament", "adjudicator.service.mail.player",
                   "adjudicator.model.events", *BOARD_CLASSES,    # events read as plain data
                   "logging", "secrets", "importlib.resources"):
        assert absent not in loaded, absent


RICH_EXTRAS = ("rich.table", "rich.progress", "rich.live", "rich.panel", "rich.syntax")


def test_check_without_odds_loads_no_numerics():
    loaded = modules_of("check", str(ORDERS), "-g", str(GAME), "--no-odds")
    assert "adjudicator.service.checking" in loaded
    assert not heavy(loaded), sorted(heavy(loaded))[:5]
    for absent in ("adjudicator.engine.combat.sweep", "adjudicator.engine.combat.odds",
                   "adjudicator.engine.combat.chain", "adjudicator.cli.mail_command",
                   "adjudicator.cli.planning", *RICH_EXTRAS, *BOARD_CLASSES, "rich",
                   "rich.console", "rich.markup", "secrets", "importlib.resources"):
        assert absent not in loaded, absent


def test_check_with_odds_of_a_1941_turn_makes_no_board_classes(tmp_path):
    game = tmp_path / "game"                 # the example before its first turn
    shutil.copytree(GAME, game, ignore=shutil.ignore_patterns("turns", "orders"))
    loaded = modules_of("check", str(ORDERS), "-g", str(game))
    assert "adjudicator.engine.combat.chain" in loaded            # the odds were computed
    for absent in (*BOARD_CLASSES, "adjudicator.service.board_check"):
        assert absent not in loaded, absent


def test_show_of_a_1941_game_makes_no_board_classes():
    loaded = modules_of("show", "-g", str(GAME), "--no-color")
    assert "adjudicator.present.report" in loaded
    for absent in (*BOARD_CLASSES, "adjudicator.present.board_battle_replay",
                   "lark", "logging", "secrets", "importlib.resources", "cryptography"):
        assert absent not in loaded, absent


def test_a_taktyczne_turn_read_in_a_new_process_finds_its_event_classes():
    """The codec imports the modules of events (``events.EVENT_MODULES``) when a file names
    a kind it has not made: turn 10 of the example has a board battle (``ts_board_battle``,
    its board's events inside), which the report replays."""
    done = subprocess.run([sys.executable, "-m", "adjudicator", "report", "10", "-g",
                           str(TAKTYCZNE), "--no-color"], capture_output=True, text=True,
                          cwd=paths.ROOT)
    assert done.returncode == 0, done.stderr
    assert "Board battles" in done.stdout and "battle turn" in done.stdout.lower()


def test_status_prints_without_rich():
    """Its lines are plain text (cli/plain_output.py): rich is not imported at all (it
    was, for the console alone, before issue 24's plain output)."""
    loaded = modules_of("status", "-g", str(GAME))
    assert "adjudicator.cli.plain_output" in loaded      # it did print
    assert not {m for m in loaded if m.split(".")[0] == "rich"}, sorted(loaded)[:5]
    assert "adjudicator.present.report" not in loaded


def test_odds_of_a_small_battle_needs_no_numpy():
    modules_of("odds", "3 inf, 1 tank", "vs", "4 inf")    # the prepared game into the cache
    loaded = modules_of("odds", "3 inf, 1 tank", "vs", "4 inf")
    assert "adjudicator.engine.combat.chain" in loaded
    assert not heavy(loaded), sorted(heavy(loaded))[:5]
    for absent in ("adjudicator.engine.turn", "adjudicator.io.turnfile",
                   "adjudicator.service.gamedir", "cryptography",
                   "adjudicator.present.report", "rich.progress",     # no report, no bar
                   "adjudicator.model.events", "adjudicator.engine.income",   # no event classes
                   "lark", "adjudicator.io.parser", "logging"):     # a plain unit list
        assert absent not in loaded, absent
