"""The game master's signing key for ``pbem new`` and ``pbem process``: a key file (asking
for its passphrase if it has one) or a key held in ssh-agent."""

from __future__ import annotations

import getpass
import os
import sys

from ..model.errors import PbemError

PASSPHRASE_ENV_HELP = ("read the key's passphrase from environment variable VAR (never from "
                       "the command line); without it pbem asks when run in a terminal")


def add_key_options(p, key_help: str) -> None:
    """``--key`` and ``--passphrase-env``."""
    p.add_argument("--key", help=key_help)
    p.add_argument("--passphrase-env", metavar="VAR", help=PASSPHRASE_ENV_HELP)


def passphrase_source(env_var: str | None, interactive: bool | None = None):
    """``ask(path) -> bytes`` for a key protected by a passphrase: from the environment
    variable ``env_var`` if given, else typed at the terminal (no echo), else None (the key
    loader then says what to do)."""
    if env_var:
        def from_env(path) -> bytes:
            value = os.environ.get(env_var)
            if value is None:
                raise PbemError(f"environment variable {env_var} (--passphrase-env) is not set; "
                                f"it should hold the passphrase of {path}")
            return value.encode("utf-8")
        return from_env
    if interactive is None:
        interactive = sys.stdin is not None and sys.stdin.isatty()
    if not interactive:
        return None

    def from_terminal(path) -> bytes:
        try:
            return getpass.getpass(f"Passphrase for {path}: ").encode("utf-8")
        except EOFError:
            raise PbemError(f"no passphrase typed for {path}") from None
    return from_terminal


def gm_signing_key(source, args):
    """Load the key at ``source`` (private key file, or a public key whose private half is
    in ssh-agent) using the passphrase options in ``args``."""
    from ..io.keys import load_signing_key
    return load_signing_key(os.path.expanduser(str(source)),
                            passphrase_source(getattr(args, "passphrase_env", None)))
