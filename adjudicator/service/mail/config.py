"""``mail.toml``: how a game master's (or a player's) pbem reaches the mail.

The file sits in the game directory beside ``game.json`` and is never published or
signed; user-level defaults under it come from the platform's config directory
(``defaults``).  It holds no password: each password comes from an environment variable, a
``password_command`` or the system keyring.  Every key is documented in
docs/mail.md; an unknown key is an error (a typo must not silently change behaviour).
"""

from __future__ import annotations

import ipaddress
import shlex
from pathlib import Path

import attrs

from ...io.orders_text import MAX_ORDERS_BYTES
from ...io.storage import read_toml
from ...model.errors import PbemError
from .address import parse_address
from .defaults import load_user_defaults, merged

CONFIG_FILE = "mail.toml"
MAX_CONFIG_BYTES = 64 * 1024


class ConfigError(PbemError):
    """mail.toml is missing, malformed or incomplete."""


@attrs.frozen
class PasswordSource:
    """Where a password comes from (at most one of the three)."""

    env: str | None = None
    command: tuple[str, ...] | None = None
    keyring_service: str | None = None

    @property
    def configured(self) -> bool:
        return bool(self.env or self.command or self.keyring_service)


@attrs.frozen
class ImapConfig:
    host: str
    port: int
    security: str                 # "tls" (implicit, 993) | "starttls" (143) | "none" (loopback only)
    username: str
    password: PasswordSource
    ca_file: Path | None = None
    folder: str = "INBOX"
    processed: str = "processed"
    rejected: str = "rejected"
    quarantine: str = "quarantine"        # mail that cannot be read
    idle: bool = True
    timeout: float = 60.0
    auth: str = "password"        # "password" | "oauth2" (SASL XOAUTH2, the token from the source)
    kind: str = "imap"


@attrs.frozen
class MaildirConfig:
    path: Path
    processed: str = "processed"
    rejected: str = "rejected"
    quarantine: str = "quarantine"        # mail that cannot be read
    kind: str = "maildir"


@attrs.frozen
class SmtpConfig:
    host: str
    port: int
    security: str                 # "starttls" (587) | "tls" (465) | "none" (loopback only)
    username: str | None
    password: PasswordSource
    ca_file: Path | None = None
    timeout: float = 60.0
    auth: str = "password"        # "password" | "oauth2" (SASL XOAUTH2, the token from the source)
    kind: str = "smtp"


@attrs.frozen
class SendmailConfig:
    command: tuple[str, ...] = ("/usr/sbin/sendmail", "-t", "-i")
    kind: str = "sendmail"


@attrs.frozen
class OutboxConfig:
    """No server: ready-to-send .eml files stay in the outbox for your own mail client."""

    kind: str = "outbox"


@attrs.frozen
class Limits:
    max_message_bytes: int = 2 * 1024 * 1024
    max_orders_bytes: int = MAX_ORDERS_BYTES     # what the orders parser accepts
    max_attachment_bytes: int = 1024 * 1024
    max_attachments: int = 20
    max_messages_per_pass: int = 1000


@attrs.frozen
class MailConfig:
    path: Path                               # the mail.toml this came from
    game_dir: Path
    address: str                             # your own address: the From of what pbem sends
    name: str = ""
    game_master: str | None = None           # player side: where orders are sent
    key: Path | None = None                  # player side: private key that signs orders
    players: dict[str, str] = attrs.Factory(dict)   # power -> address (games without addresses)
    orders_copy: tuple[str, ...] = ()        # player side: who else gets a copy of your orders
    state_dir: Path = Path(".mail")
    poll_seconds: float = 60.0
    inbox: ImapConfig | MaildirConfig | None = None
    send: SmtpConfig | SendmailConfig | OutboxConfig = OutboxConfig()
    limits: Limits = Limits()

    @property
    def state_path(self) -> Path:
        return self.state_dir if self.state_dir.is_absolute() else self.game_dir / self.state_dir


# --------------------------------------------------------------------------- reading

_TOP = {"address", "name", "game_master", "key", "players", "orders_copy", "state_dir",
        "poll_seconds",
        "inbox", "send", "limits"}
_PASSWORD = {"password_env", "password_command", "password_keyring"}
_IMAP = {"type", "host", "port", "security", "username", "ca_file", "folder",
         "processed_folder", "rejected_folder", "quarantine_folder", "idle", "timeout",
         "auth"} | _PASSWORD
_MAILDIR = {"type", "path", "processed_folder", "rejected_folder", "quarantine_folder"}
_SMTP = {"type", "host", "port", "security", "username", "ca_file", "timeout",
         "auth"} | _PASSWORD
_SENDMAIL = {"type", "command"}
_OUTBOX = {"type"}


def load_config(game_dir, path=None, user_defaults: Path | None = None) -> MailConfig:
    """Read ``path`` (default ``GAME_DIR/mail.toml``) over the user-level defaults
    (``defaults.user_config_path()`` unless ``user_defaults`` names the file) and check
    every key."""
    game_dir = Path(game_dir)
    path = Path(path) if path else game_dir / CONFIG_FILE
    defaults, source = load_user_defaults(user_defaults, ConfigError, _TOP)
    if not path.exists() and source is None:
        raise ConfigError(f"no mail settings: {path} does not exist (see docs/mail.md for "
                          "an example)")
    data = (read_toml(path, "mail settings", MAX_CONFIG_BYTES, ConfigError)
            if path.exists() else {})
    return parse_config(merged(defaults, data), path, game_dir)


def parse_config(data: dict, path: Path, game_dir: Path) -> MailConfig:
    r = _Reader(path)
    r.keys(data, _TOP, "")
    base = path.parent
    address = r.address(data, "address", required=True)
    players = data.get("players", {})
    r.table(players, "players")
    players = {str(power).lower(): r.address(players, power, where="players")
               for power in players}
    key = r.string(data, "key")
    state_dir = r.string(data, "state_dir") or ".mail"
    inbox = _inbox(r, data.get("inbox"), base) if "inbox" in data else None
    send = _send(r, data.get("send"), base) if "send" in data else OutboxConfig()
    limits = _limits(r, data.get("limits", {}))
    copies = data.get("orders_copy", [])
    if not isinstance(copies, list) or len(copies) > 20:
        raise ConfigError(f"{path}: orders_copy must be a list of at most 20 addresses")
    copies = tuple(r.address({"orders_copy": c}, "orders_copy", required=True) for c in copies)
    return MailConfig(
        path=path, game_dir=Path(game_dir), address=address, orders_copy=copies,
        name=r.string(data, "name") or "",
        game_master=r.address(data, "game_master"),
        key=_path(key, base) if key else None,
        players=players, state_dir=Path(state_dir).expanduser(),
        poll_seconds=r.number(data, "poll_seconds", 60.0, low=1.0, high=86400.0),
        inbox=inbox, send=send, limits=limits)


def _path(value: str, base: Path) -> Path:
    p = Path(value).expanduser()
    return p if p.is_absolute() else base / p


def _inbox(r: "_Reader", table, base: Path):
    r.table(table, "inbox")
    kind = r.choice(table, "type", ("imap", "maildir"), "inbox", required=True)
    if kind == "maildir":
        r.keys(table, _MAILDIR, "inbox")
        return MaildirConfig(path=_path(r.string(table, "path", "inbox", required=True), base),
                             processed=r.folder(table, "processed_folder", "processed"),
                             rejected=r.folder(table, "rejected_folder", "rejected"),
                             quarantine=r.folder(table, "quarantine_folder", "quarantine"))
    r.keys(table, _IMAP, "inbox")
    security = r.choice(table, "security", ("tls", "starttls", "none"), "inbox") or "tls"
    host = r.string(table, "host", "inbox", required=True)
    r.plain_allowed(host, security, "inbox")
    ca = r.string(table, "ca_file", "inbox")
    return ImapConfig(
        host=host, port=r.port(table, 993 if security == "tls" else 143, "inbox"),
        security=security, username=r.string(table, "username", "inbox", required=True),
        password=r.password(table, "inbox", required=True),
        ca_file=_path(ca, base) if ca else None,
        folder=r.string(table, "folder", "inbox") or "INBOX",
        processed=r.folder(table, "processed_folder", "processed"),
        rejected=r.folder(table, "rejected_folder", "rejected"),
        quarantine=r.folder(table, "quarantine_folder", "quarantine"),
        idle=r.boolean(table, "idle", True, "inbox"),
        timeout=r.number(table, "timeout", 60.0, low=1.0, high=3600.0, where="inbox"),
        auth=r.choice(table, "auth", ("password", "oauth2"), "inbox") or "password")


def send_type(table: dict) -> str:
    """``[send]``'s ``type`` when it is not given: ``smtp`` with a ``host``, ``sendmail``
    with a ``command``, else ``outbox`` (as without a ``[send]`` table)."""
    return "smtp" if "host" in table else "sendmail" if "command" in table else "outbox"


def _send(r: "_Reader", table, base: Path):
    r.table(table, "send")
    kind = r.choice(table, "type", ("smtp", "sendmail", "outbox"), "send") or send_type(table)
    if kind == "outbox":
        r.keys(table, _OUTBOX, "send")
        return OutboxConfig()
    if kind == "sendmail":
        r.keys(table, _SENDMAIL, "send")
        command = r.string(table, "command", "send")
        return SendmailConfig(tuple(shlex.split(command))) if command else SendmailConfig()
    r.keys(table, _SMTP, "send")
    security = r.choice(table, "security", ("starttls", "tls", "none"), "send") or "starttls"
    host = r.string(table, "host", "send", required=True)
    r.plain_allowed(host, security, "send")
    username = r.string(table, "username", "send")
    auth = r.choice(table, "auth", ("password", "oauth2"), "send") or "password"
    if auth == "oauth2" and not username:
        raise ConfigError(f"{r.path}: [send] auth = \"oauth2\" needs a username")
    ca = r.string(table, "ca_file", "send")
    return SmtpConfig(
        host=host, port=r.port(table, {"tls": 465, "starttls": 587}.get(security, 25), "send"),
        security=security, username=username,
        password=r.password(table, "send", required=bool(username)),
        ca_file=_path(ca, base) if ca else None,
        timeout=r.number(table, "timeout", 60.0, low=1.0, high=3600.0, where="send"),
        auth=auth)


def _limits(r: "_Reader", table) -> Limits:
    r.table(table, "limits")
    r.keys(table, set(attrs.fields_dict(Limits)), "limits")
    defaults = Limits()
    values = {}
    for name in attrs.fields_dict(Limits):
        value = table.get(name, getattr(defaults, name))
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ConfigError(f"{r.path}: [limits] {name} must be a positive whole number")
        values[name] = value
    return Limits(**values)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _Reader:
    """Typed access to a TOML table with messages that name the file and the key."""

    def __init__(self, path: Path):
        self.path = path

    def _where(self, where: str, key: str) -> str:
        return f"{self.path}: " + (f"[{where}] {key}" if where else key)

    def keys(self, table: dict, known: set[str], where: str) -> None:
        for key in table:
            if key == "password":
                raise ConfigError(f"{self._where(where, key)}: passwords are never stored in "
                                  "mail.toml; use password_env, password_command or "
                                  "password_keyring")
            if key not in known:
                raise ConfigError(f"{self._where(where, key)}: unknown setting (known: "
                                  f"{', '.join(sorted(known))})")

    def table(self, value, where: str) -> None:
        if not isinstance(value, dict):
            raise ConfigError(f"{self.path}: [{where}] must be a table")

    def string(self, table: dict, key: str, where: str = "", required: bool = False):
        value = table.get(key)
        if value is None:
            if required:
                raise ConfigError(f"{self._where(where, key)} is required")
            return None
        if not isinstance(value, str) or not value.strip() or "\n" in value or "\r" in value:
            raise ConfigError(f"{self._where(where, key)} must be a one-line string")
        return value.strip()

    def address(self, table: dict, key: str, where: str = "", required: bool = False):
        value = self.string(table, key, where, required)
        if value is None:
            return None
        addr = parse_address(value)
        if addr is None:
            raise ConfigError(f"{self._where(where, key)}: {value!r} is not a mail address")
        return addr

    def choice(self, table: dict, key: str, options, where: str, required: bool = False):
        value = self.string(table, key, where, required)
        if value is not None and value not in options:
            raise ConfigError(f"{self._where(where, key)} must be one of {', '.join(options)}, "
                              f"not {value!r}")
        return value

    def folder(self, table: dict, key: str, default: str) -> str:
        return self.string(table, key) or default

    def port(self, table: dict, default: int, where: str) -> int:
        value = table.get("port", default)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 65536:
            raise ConfigError(f"{self._where(where, 'port')} must be a port number (1-65535)")
        return value

    def boolean(self, table: dict, key: str, default: bool, where: str) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise ConfigError(f"{self._where(where, key)} must be true or false")
        return value

    def number(self, table: dict, key: str, default: float, *, low: float, high: float,
               where: str = "") -> float:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise ConfigError(f"{self._where(where, key)} must be a number from {low:g} to {high:g}")
        return float(value)

    def password(self, table: dict, where: str, required: bool) -> PasswordSource:
        given = [k for k in _PASSWORD if k in table]
        if len(given) > 1:
            raise ConfigError(f"{self.path}: [{where}] give only one of {', '.join(sorted(given))}")
        if not given:
            if required:
                raise ConfigError(f"{self.path}: [{where}] needs a password source: "
                                  "password_env, password_command or password_keyring")
            return PasswordSource()
        key = given[0]
        value = self.string(table, key, where, required=True)
        if key == "password_env":
            return PasswordSource(env=value)
        if key == "password_command":
            try:
                argv = tuple(shlex.split(value))
            except ValueError as exc:
                raise ConfigError(f"{self._where(where, key)}: {exc}") from None
            return PasswordSource(command=argv)
        return PasswordSource(keyring_service=value)

    def plain_allowed(self, host: str, security: str, where: str) -> None:
        if security == "none" and not is_loopback(host):
            raise ConfigError(f"{self._where(where, 'security')} = \"none\" is allowed only "
                              f"for a server on this machine (127.0.0.1, ::1, localhost), "
                              f"not {host}: the login would travel unencrypted")
