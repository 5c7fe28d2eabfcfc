"""One-line commands load only what they use (issues 24 and 25): ``pbem status`` and
``pbem check --no-odds`` import neither numpy, networkx, openskill nor the odds calculator
(and status no lark: naming the order kinds does not load the parser; no tomllib: the map
data comes from the cache), no rich at all (their lines are plain text or markup read
without rich when the output is not a terminal), no ``logging`` unless something is
logged (status: lark imports it for check), and a command builds only its own module's
parser; ``pbem odds`` of a small battle loads the battle engine, not the turn's, and reads
a plain unit list without the orders grammar (no lark).  A command makes only the
order and event classes it meets: ``model.orders`` and ``model.events`` name them, each
defined in a smaller module imported on first use (``model.lazy``)."""

from __future__ import annotations

import shutil
import subprocess
import sys

from adjudicator.io import paths
from adjudicator.model import events, orders

GAME = paths.ROOT / "turns" / "aa1941-example" / "game"
TAKTYCZNE = paths.ROOT / "turns" / "taktyczne-example" / "game"
ORDERS = paths.ROOT / "turns" / "aa1941-example" / "orders" / "01-ussr.txt"

# Taktyczne Starcie's classes (the board, its events, the main map's): no other edition's
# command makes them (the codec imports them for a file that names one of their events)
BOARD_CLASSES = ("adjudicator.model.tactical", "adjudicator.model.taktyczne",
                 "adjudicator.model.live_battle_events", "adjudicator.model.live_battle_state")
# the modules of order and event classes that a 1941 command never makes (the other
# editions' own), and Taktyczne Starcie's helpers that its order kinds import when they
# read or write one of its orders (battle plans, targets, mines)
OTHER_EDITIONS = (*(f"adjudicator.model.{m}" for m in (
    "europe_orders", "global_orders", "taktyczne_orders", "live_battle", "mine_orders",
    "ts_gun_orders", "events_global", "events_politics", "battle_plan", "plan_text",
    "ts_targets", "mine_grid", "mine_seal")),
    "adjudicator.io.plan_words", "adjudicator.io.target_words", "adjudicator.io.tactical_data")
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
    made = {m.removeprefix("adjudicator.model.") for m in loaded}
    # the state's standing orders alone; no event class at all
    assert made & set(orders.MODULES) == {"order_base", "standing_orders"}, made & set(orders.MODULES)
    assert not made & set(events.MODULES), made & set(events.MODULES)


RICH_EXTRAS = ("rich.table", "rich.progress", "rich.live", "rich.panel", "rich.syntax")


def test_check_without_odds_loads_no_numerics():
    loaded = modules_of("check", str(ORDERS), "-g", str(GAME), "--no-odds")
    assert "adjudicator.service.checking" in loaded
    assert not heavy(loaded), sorted(heavy(loaded))[:5]
    for absent in ("adjudicator.engine.combat.sweep", "adjudicator.engine.combat.odds",
                   "adjudicator.engine.combat.chain", "adjudicator.cli.mail_command",
                   "adjudicator.cli.planning", *RICH_EXTRAS, *BOARD_CLASSES, "rich",
                   "rich.console", "rich.markup", "secrets", "importlib.resources", *OTHER_EDITIONS,
                   "adjudicator.model.events_corrections", "adjudicator.model.events_europe",
                   "adjudicator.model.statement_orders"):   # no nmr, no concede written
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
    for absent in (*BOARD_CLASSES, "adjudicator.present.board_battle_replay", *OTHER_EDITIONS,
                   "adjudicator.model.move_orders", "adjudicator.model.purchase_orders",
                   "adjudicator.model.events_corrections", "adjudicator.model.events_europe",
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
                   "adjudicator.model.event_base", *OTHER_EDITIONS,
                   "lark", "adjudicator.io.parser", "logging"):     # a plain unit list
        assert absent not in loaded, absent


def test_the_lazy_names_of_orders_and_events_are_their_modules_classes():
    """``model.orders`` and ``model.events`` name each class in the module that defines it,
    and ``events.KINDS`` gives each event kind's module: every event class of those modules
    is there, and no other (the codec imports the module of a kind it reads)."""
    for facade in (orders, events):
        for module, names in facade.MODULES.items():
            for name in names:
                assert getattr(facade, name) is getattr(
                    __import__(f"adjudicator.model.{module}", fromlist=[name]), name), name
    found = {cls.kind: cls.__module__.removeprefix("adjudicator.model.")
             for cls in events.all_event_classes().values()
             if cls.__module__.removeprefix("adjudicator.model.") in events.MODULES}
    assert found == events.KINDS


def test_event_classes_live_in_the_model():
    """Every event class of the package (its engine plug-ins' too: Global 1940's politics,
    neutrals and held victory) is defined in ``adjudicator.model``."""
    from adjudicator.engine import neutrals, politics, victory  # noqa: F401
    outside = {cls.__module__ for cls in events.all_event_classes().values()
               if cls.__module__.startswith("adjudicator.")
               and not cls.__module__.startswith("adjudicator.model.")}
    assert not outside, outside


DECODE = ("import sys\n"
          "from adjudicator.io.codec import converter\n"
          "from adjudicator.model.events import Event\n"
          "ev = converter.structure({'kind': 'neutral_joined', 'territory': 'Sweden',"
          " 'power': 'germany', 'units': {'infantry': 3}}, Event)\n"
          "print(type(ev).__name__, ev.units)\n"
          "print('MODULES', sorted(m for m in sys.modules if m.startswith('adjudicator')))\n")


def test_a_process_that_loaded_no_plug_in_decodes_a_global_event():
    """``neutral_joined`` (Global 1940's neutrals) decodes in a process that never loaded
    the edition's plug-ins, making only the module of that kind's classes."""
    done = subprocess.run([sys.executable, "-c", DECODE], capture_output=True, text=True,
                          cwd=paths.ROOT)
    assert done.returncode == 0, done.stderr
    first, modules = done.stdout.splitlines()
    assert first == "NeutralJoined {'infantry': 3}"
    loaded = set(eval(modules.removeprefix("MODULES ")))
    assert "adjudicator.model.events_politics" in loaded
    for absent in ("adjudicator.engine.neutrals", "adjudicator.engine", "adjudicator.editions",
                   "adjudicator.model.events_turn", "adjudicator.model.events_battle",
                   "adjudicator.model.events_global", *BOARD_CLASSES):
        assert absent not in loaded, absent
