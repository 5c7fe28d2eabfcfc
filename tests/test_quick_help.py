"""``pbem --help`` without loading the commands (issue 11: startup under twice a bare
Python start, measured by benchmarks/bench_startup.py): the quick help is the full
parser's help, and it loads neither rich, attrs nor the engine."""

from __future__ import annotations

import argparse
import subprocess
import sys

from adjudicator.cli import build_parser
from adjudicator.cli.quick_help import COMMAND_SUMMARIES, is_quick, summary_parser


def commands(parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [(a.dest, a.help) for a in sub._choices_actions]


def test_summaries_are_what_the_commands_register():
    assert list(COMMAND_SUMMARIES) == commands(build_parser())


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
