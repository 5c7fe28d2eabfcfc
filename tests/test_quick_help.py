"""``pbem --help`` without loading the commands (issue 11: startup under twice a bare
Python start, measured by benchmarks/bench_startup.py): the quick help is the full
parser's help, and it loads neither rich, attrs nor the engine."""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys

from adjudicator.cli import COMMANDS, build_parser
from adjudicator.cli.quick_help import (
    COMMAND_MODULES, COMMAND_SUMMARIES, command_of, is_quick, summary_parser, top_parser,
)


def commands(parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [(a.dest, a.help) for a in sub._choices_actions]


def test_summaries_are_what_the_commands_register():
    assert list(COMMAND_SUMMARIES) == commands(build_parser())


def test_each_command_is_registered_by_the_module_named_for_it():
    registered = {}
    for module in COMMANDS:
        parser, sub = top_parser()
        importlib.import_module(f"adjudicator.cli.{module}").register(sub)
        registered.update({name: module for name in sub.choices})
    assert registered == COMMAND_MODULES
    for name in COMMAND_MODULES:      # the parser built for one command knows it
        assert name in commands_of(build_parser(name))


def test_command_of_finds_the_first_word():
    assert command_of(["--no-color", "check", "x.txt"]) == "check"
    assert command_of(["tournament", "status"]) == "tournament"
    assert command_of(["nonsense", "status"]) is None and command_of(["--no-color"]) is None


def commands_of(parser: argparse.ArgumentParser) -> set[str]:
    return {name for name, _ in commands(parser)}


def test_quick_help_is_the_full_help():
    assert summary_parser().format_help() == build_parser().format_help()


def test_only_the_top_level_help_and_version_are_quick():
    assert all(is_quick([a]) for a in ("-h", "--help", "--version"))
    assert not any(is_quick(a) for a in ([], ["odds", "--help"], ["--help", "odds"], ["new"]))


def test_help_loads_no_rich_attrs_or_engine():
    code = ("import sys\nfrom adjudicator.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in sys.modules if m.split('.')[0] in ('rich', 'attr', 'attrs', 'lark',"
            " 'numpy') or m.startswith(('adjudicator.engine', 'adjudicator.model'))]\n"
            "print('HEAVY', heavy)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "usage: pbem" in out and "tournament" in out
    assert out.strip().endswith("HEAVY []"), out.splitlines()[-1]
