"""``pbem completion bash|zsh|tcsh``: a shell completion script, generated from the
command line's own parser by shtab (so it never falls behind a new option).

Enable it (docs/cli.md):  bash ``eval "$(pbem completion bash)"`` in ~/.bashrc, or save
it as ~/.local/share/bash-completion/completions/pbem; zsh: save ``pbem completion zsh``
as ``_pbem`` in a folder of ``$fpath`` before ``compinit``."""

from __future__ import annotations

import argparse

from rich.console import Console

from ..model.errors import PbemError
from .common import EXIT_OK

SHELLS = ("bash", "zsh", "tcsh")
# What the values of these options are, so the shell offers files or folders for them.
FILE_ARGS = {"orders", "signature", "report", "out", "svg", "png", "key", "gm_key", "known",
             "record", "config", "eml", "attackers_file"}
DIR_ARGS = {"game", "game_dir", "dir", "first", "second", "example"}


def _mark_paths(parser: argparse.ArgumentParser, shtab) -> None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _mark_paths(sub, shtab)
        elif action.dest in FILE_ARGS:
            action.complete = shtab.FILE
        elif action.dest in DIR_ARGS:
            action.complete = shtab.DIRECTORY


def completion_script(shell: str) -> str:
    """The completion script for ``shell`` (one of ``SHELLS``)."""
    try:
        import shtab
    except ImportError:
        raise PbemError("shell completion needs the shtab package: pip install shtab") from None
    from . import build_parser
    parser = build_parser()
    _mark_paths(parser, shtab)
    return shtab.complete(parser, shell=shell)


def cmd_completion(args, console: Console) -> int:
    import sys
    sys.stdout.write(completion_script(args.shell))
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("completion", help="print a shell completion script (bash, zsh, tcsh)",
                       description="Print a tab-completion script for your shell.  bash: add "
                                   "'eval \"$(pbem completion bash)\"' to ~/.bashrc.  zsh: "
                                   "'pbem completion zsh > ~/.zfunc/_pbem' and, in ~/.zshrc, "
                                   "'fpath=(~/.zfunc $fpath); autoload -Uz compinit; compinit'.")
    p.add_argument("shell", choices=SHELLS)
    p.set_defaults(func=cmd_completion)
