"""``pbem keys``: key management."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markup import escape

from .common import (
    EXIT_OK,
)


def cmd_keys_new(args, console: Console) -> int:
    from ..io.keys import fingerprint, new_keypair
    key = new_keypair(args.path, comment=args.comment or Path(args.path).name)
    console.print(f"Wrote {escape(args.path)} (private, keep it secret) and {escape(args.path)}.pub")
    console.print(f"Fingerprint: {fingerprint(key.public_key())}")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("keys", help="key management")
    ksub = p.add_subparsers(dest="keys_command", required=True, metavar="ACTION")
    k = ksub.add_parser("new", help="create an ed25519 key pair (OpenSSH format)")
    k.add_argument("path")
    k.add_argument("--comment")
    k.set_defaults(func=cmd_keys_new)

