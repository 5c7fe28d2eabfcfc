"""Passwords for mail servers: from an environment variable, a command, or the keyring.

Never from mail.toml, never from the game directory.  ``password_command`` is split like a
shell line but run without a shell; its first line of output is the password.
"""

from __future__ import annotations

import os
import subprocess

from ...model.errors import PbemError
from .config import PasswordSource

COMMAND_TIMEOUT = 30


def get_password(source: PasswordSource, username: str, what: str) -> str:
    """The password for ``username`` on the server ``what`` names (for messages)."""
    if source.env:
        value = os.environ.get(source.env)
        if not value:
            raise PbemError(f"{what}: the environment variable {source.env} (password_env) "
                            "is not set")
        return value
    if source.command:
        return _from_command(source.command, what)
    if source.keyring_service:
        return _from_keyring(source.keyring_service, username, what)
    raise PbemError(f"{what}: no password source is configured")


def _from_command(argv: tuple[str, ...], what: str) -> str:
    try:
        done = subprocess.run(list(argv), capture_output=True, timeout=COMMAND_TIMEOUT,
                              stdin=subprocess.DEVNULL, check=False)
    except FileNotFoundError:
        raise PbemError(f"{what}: password_command {argv[0]!r} was not found") from None
    except subprocess.TimeoutExpired:
        raise PbemError(f"{what}: password_command did not finish within "
                        f"{COMMAND_TIMEOUT} s") from None
    except OSError as exc:
        raise PbemError(f"{what}: password_command cannot run: {exc.strerror}") from None
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()[:1]
        raise PbemError(f"{what}: password_command failed (exit status {done.returncode})"
                        + (f": {detail[0][:200]}" if detail else ""))
    lines = done.stdout.decode("utf-8", "replace").splitlines()
    if not lines or not lines[0]:
        raise PbemError(f"{what}: password_command printed no password")
    return lines[0]


def _from_keyring(service: str, username: str, what: str) -> str:
    try:
        import keyring
        import keyring.errors
    except ImportError:
        raise PbemError(f"{what}: password_keyring needs the optional 'keyring' package "
                        "(pip install 'pbem-adjudicator[keyring]')") from None
    try:
        value = keyring.get_password(service, username)
    except keyring.errors.KeyringError as exc:
        raise PbemError(f"{what}: the system keyring failed: {exc}") from None
    if not value:
        raise PbemError(f"{what}: no password for {username} under {service!r} in the system "
                        f"keyring (store one with: keyring set {service} {username})")
    return value
