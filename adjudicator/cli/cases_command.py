"""``pbem cases``: run rules cases (the conformance tests kept with each edition's data)."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from .common import DEFAULT_RULESET, EXIT_OK, EXIT_REJECTED


def cmd_cases(args, console: Console) -> int:
    from ..service.rules_cases import run_edition
    edition = args.ruleset or (None if args.path else DEFAULT_RULESET)
    results = run_edition(edition, args.path)
    failed = [r for r in results if not r.ok]
    for r in results:
        if not r.ok or args.verbose:
            mark = "[green]ok[/]" if r.ok else "[red bold]FAIL[/]"
            console.print(f"{mark} {escape(r.case.name)}: {escape(r.case.title)} "
                          f"[dim]({escape(r.case.where)})[/]", soft_wrap=True)
            for why in r.failures:
                console.print(f"    {escape(why)}", soft_wrap=True)
    console.print(f"{len(results) - len(failed)} of {len(results)} cases pass"
                  + (f"; [red bold]{len(failed)} fail[/]" if failed else ""))
    return EXIT_REJECTED if failed else EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("cases", help="run the rules cases of an edition (conformance tests)")
    p.add_argument("path", nargs="?", help="a case file or folder (default: the edition's cases)")
    from .. import editions
    p.add_argument("--ruleset", "--map", dest="ruleset", default=None, metavar="NAME",
                   help=f"edition: {', '.join(editions.names())} (default: the one the case "
                        f"file names, or {DEFAULT_RULESET} for the edition's own cases)")
    p.add_argument("-v", "--verbose", action="store_true", help="list passing cases too")
    p.set_defaults(func=cmd_cases)
