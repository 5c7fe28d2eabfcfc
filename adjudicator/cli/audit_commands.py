"""Commands that check a published game: verify (with recorded digests) and compare."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..model.errors import PbemError
from .common import EXIT_OK, EXIT_REJECTED


def game_to_verify(args) -> str:
    """The directory ``pbem verify`` audits: ``-g DIR`` or the positional (kept for
    compatibility), refused as a usage error when it is plainly not a game -- an audit
    that "FAILED" reads as evidence of cheating."""
    from ..io.layout import GAME_FILE, TURN_RE, TURNS_DIR
    if args.game and args.game_dir and Path(args.game).resolve() != Path(args.game_dir).resolve():
        raise PbemError(f"two games given ({args.game_dir} and -g {args.game}): give one")
    directory = args.game or args.game_dir or "."
    path = Path(directory)
    if not path.exists():
        raise PbemError(f"{directory} does not exist: give the game directory "
                        "(pbem verify -g DIR)")
    if not path.is_dir():
        raise PbemError(f"{directory} is not a directory: give the game directory "
                        "(pbem verify -g DIR), not a file in it")
    turns = path / TURNS_DIR
    published = turns.is_dir() and any(TURN_RE.match(p.name) for p in turns.iterdir())
    if not (path / GAME_FILE).exists() and not published:
        inside = sorted(p.parent for p in path.glob(f"*/{GAME_FILE}"))
        hint = f" (did you mean {inside[0]}?)" if inside else ""
        raise PbemError(f"{directory} is not a game directory (no {GAME_FILE}): give the "
                        f"directory 'pbem new' created (pbem verify -g DIR){hint}")
    return directory


def cmd_verify(args, console: Console) -> int:
    from ..io.keys import load_public_key
    from ..service import known
    from ..service.audit import render_audit, verify_game
    from ..service.games import load_game
    from .progress import ProgressBar
    directory = game_to_verify(args)
    expected = load_public_key(args.gm_key) if args.gm_key else None
    recorded = known.read_known(args.known) if args.known else []
    with ProgressBar("Verifying turns", 0, no_color=getattr(args, "no_color", None)) as bar:
        report = verify_game(directory, load_game, expected_gm_key=expected,
                             require_replay=args.require_replay,
                             progress=lambda done, total: bar.update(done, total))
    if args.json:
        return _verify_json(args, report, known, recorded)
    render_audit(report, console, partial=args.partial)
    status = EXIT_OK if report.ok and (report.complete or args.partial) else EXIT_REJECTED
    if args.known:
        problems = known.compare_known(report.game_id, report.verified_files, recorded)
        for problem in problems:
            console.print(f"[bold red]{escape(problem)}[/]", soft_wrap=True)
        mine = sum(k.game_id == report.game_id for k in recorded)
        if not problems:
            console.print(f"Known files: all {mine} file(s) recorded for this game in "
                          f"{escape(args.known)} are here, unchanged.")
        else:
            status = EXIT_REJECTED
    if args.record and report.game_id is not None:
        added = known.record(args.record, report.game_id, report.verified_files)
        console.print(f"Recorded {added} new file digest(s) in {escape(args.record)}.")
    return status


def _verify_json(args, report, known, recorded) -> int:
    from .json_output import emit, verify_json
    problems = count = added = None
    if args.known:
        problems = known.compare_known(report.game_id, report.verified_files, recorded)
        count = sum(k.game_id == report.game_id for k in recorded)
    if args.record and report.game_id is not None:
        added = known.record(args.record, report.game_id, report.verified_files)
    data = verify_json(report, problems, count, added, partial=args.partial)
    emit(data)
    return EXIT_OK if data["ok"] else EXIT_REJECTED


def _print_version(console: Console, label: str, version) -> None:
    console.print(f"[bold]{escape(label)}[/]: {escape(str(version.path))}\n"
                  f"  digest {version.digest}")
    if version.problem is None:
        who = ("the game master key" if version.role == "the game master"
               else f"{escape(version.role)}, key")
        console.print(f"  signed by {who} {version.signed_by} (valid)")
    else:
        console.print(f"  [yellow]{escape(version.problem)}[/]")
    if version.signature:
        console.print(escape(version.signature.rstrip("\n")), highlight=False)


def cmd_compare(args, console: Console) -> int:
    from ..service.compare import compare_games
    result = compare_games(args.first, args.second)
    if not result.diverged:
        console.print(f"[green]No divergence[/]: the {result.files_compared} file(s) both "
                      "copies have are identical.")
        if result.longer:
            console.print(escape(result.longer), soft_wrap=True)
        return EXIT_OK
    console.print(f"[bold red]The copies diverge[/] at {escape(result.first.path.name)} "
                  f"(file {result.files_compared} of the chain).")
    _print_version(console, "first copy", result.first)
    _print_version(console, "second copy", result.second)
    if result.proof:
        who = escape(result.first.role)
        console.print(f"[bold red]Both versions are validly signed by the same key, that of "
                      f"{who}: {who} published two different histories (a fork).[/] "
                      "The two files and their .sig files are the proof (ssh-keygen -Y verify "
                      "checks them).", soft_wrap=True)
    else:
        console.print("The versions are not both validly signed by one key, so this is not a "
                      f"proof against {escape(result.first.role)} (one copy may have been "
                      "altered).",
                      soft_wrap=True)
    return EXIT_REJECTED


def register(sub) -> None:
    p = sub.add_parser("verify", help="audit a whole game: signatures, chain, seeds, dice, replay")
    p.add_argument("game_dir", nargs="?", metavar="DIR", help="the game directory (same as -g)")
    p.add_argument("-g", "--game", help="game directory (default: .)")
    p.add_argument("--gm-key", help="the game master's public key you expect (file or OpenSSH line); "
                                    "without it any consistently re-signed game would pass")
    p.add_argument("--require-replay", action="store_true",
                   help="fail if this program cannot re-adjudicate the game (other engine "
                        "version or rules) instead of noting it")
    p.add_argument("--partial", action="store_true",
                   help="accept an audit without the rules replay (a game made with another "
                        "engine or rules): signatures, chain, seeds and dice only; without "
                        "it such an audit exits 1")
    p.add_argument("--known", metavar="FILE",
                   help="check the game against the file digests you recorded (see --record): "
                        "a missing or different file means withheld turns or equivocation")
    p.add_argument("--record", metavar="FILE",
                   help="append the digest of every verified file to FILE (one line per file: "
                        "GAME_ID PATH DIGEST)")
    p.add_argument("--json", action="store_true",
                   help="print the audit as JSON (docs/json.md); exit status as without it")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("compare", help="find the first published file where two copies of a "
                                       "game differ, with both signatures")
    p.add_argument("first", metavar="DIR1")
    p.add_argument("second", metavar="DIR2")
    p.set_defaults(func=cmd_compare)
