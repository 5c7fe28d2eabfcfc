"""Running the command line in-process from a test."""

from __future__ import annotations

from adjudicator.cli import main


def pbem(capsys, *args) -> tuple[int, str]:
    """Run ``pbem ARGS`` in-process: (exit status, stdout + stderr)."""
    try:
        code = main([str(a) for a in args])
    except SystemExit as exc:            # argparse
        code = exc.code
    out = capsys.readouterr()
    return code, out.out + out.err
