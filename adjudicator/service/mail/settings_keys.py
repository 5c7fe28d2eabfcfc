"""Every key of ``mail.toml``, documented once: the table docs/mail.md shows ("Every key",
``docs_table``; a test keeps the two equal) and the template ``pbem mail init`` writes
(``template``; a test loads it with ``config.load_config``).

A key's ``example`` is the value the template writes; ``roles`` the files it appears in:
``gm`` (a game master's game), ``player`` (a player's copy), ``tournament`` (a tournament
directory, whose one inbox ``pbem tournament mail run`` reads).  Keys the role needs are
written as settings, the others commented out with their default.
"""

from __future__ import annotations

import attrs

GM, PLAYER, TOURNAMENT = "gm", "player", "tournament"
ROLES = (GM, PLAYER, TOURNAMENT)
_ALL = frozenset(ROLES)
_SERVER = frozenset({GM, TOURNAMENT})


@attrs.frozen
class Key:
    table: str                     # "" (top level), "inbox", "send", "limits"
    name: str                      # "" for the row of a table itself
    default: str                   # as the docs show it
    meaning: str                   # Markdown, one line
    example: str = ""              # the TOML value the template writes ("": not written)
    roles: frozenset = _ALL
    needed: frozenset = frozenset()    # roles for which the template sets it (not commented)


KEYS: tuple[Key, ...] = (
    Key("", "address", "required",
        "your own address: the From of what pbem sends; for players, the address the game knows",
        '"you@example.org"', needed=_ALL),
    Key("", "name", "none", "display name in From", '"Your Name"'),
    Key("", "game_master", "none",
        "player side: the game master's address (`pbem mail send` needs it)",
        '"gm@example.org"', roles=frozenset({PLAYER}), needed=frozenset({PLAYER})),
    Key("", "key", "none",
        "player side: the OpenSSH Ed25519 private key that signs your orders (and, as a dice "
        "keeper, your turns; default: the key `pbem keeper join` / `pbem new --plays` noted)",
        '"~/.ssh/pbem_ed25519"', roles=frozenset({PLAYER})),
    Key("", "orders_copy", "none",
        "player side, games with dice keepers: more addresses that get a copy of your orders "
        "for the record, e.g. `[\"td@example.org\"]` (a tournament director)",
        '["td@example.org"]', roles=frozenset({PLAYER})),
    Key("", "state_dir", "`.mail`",
        "journal, outbox and sent mail (relative to the game directory)", '".mail"'),
    Key("", "poll_seconds", "60",
        "`--watch`: how often to look for mail when the server has no IMAP IDLE (1-86400)",
        "60"),
    Key("players", "", "none",
        "power = \"address\", only for game files without addresses", "",
        roles=frozenset({GM})),
    Key("inbox", "", "", "where the orders (or, for a player, the results) arrive"),
    Key("inbox", "type", "required", "`imap` or `maildir`", '"imap"', needed=_ALL),
    Key("inbox", "path", "required (maildir)",
        "a Maildir (what fetchmail, getmail, mbsync or a local MTA fill)", '"~/Mail/pbem"'),
    Key("inbox", "host", "required (imap)", "IMAP server", '"imap.example.org"', needed=_ALL),
    Key("inbox", "port", "993 (`tls`), 143", "IMAP port", "993"),
    Key("inbox", "security", "`tls`",
        "`tls` (implicit TLS), `starttls`, or `none` (only for a server on this machine)",
        '"tls"'),
    Key("inbox", "username", "required (imap)", "IMAP login", '"you@example.org"',
        needed=_ALL),
    Key("inbox", "password_env / password_command / password_keyring", "one required (imap)",
        "see below", '"pass show mail/pbem"', needed=_ALL),
    Key("inbox", "auth", "`password`",
        "`password`, or `oauth2`: SASL XOAUTH2 with an access token from the password source "
        "(see OAuth2 below)", '"password"'),
    Key("inbox", "ca_file", "system CAs",
        "a PEM file with the CA of a server with a private certificate", '"/path/to/ca.pem"'),
    Key("inbox", "folder", "`INBOX`", "the folder to read", '"INBOX"'),
    Key("inbox", "processed_folder", "`processed`",
        "where handled mail goes (IMAP folder or Maildir subfolder; created if missing)",
        '"processed"'),
    Key("inbox", "rejected_folder", "`rejected`", "where refused mail goes", '"rejected"'),
    Key("inbox", "quarantine_folder", "`quarantine`",
        "where a mail that cannot be parsed goes (the game master gets a notice)",
        '"quarantine"'),
    Key("inbox", "idle", "true", "use IMAP IDLE for `--watch` where the server offers it",
        "true"),
    Key("inbox", "timeout", "60", "seconds before a silent server counts as down", "60"),
    Key("send", "", "outbox", "how mail leaves; without a `[send]` table it waits in the outbox"),
    Key("send", "type", "`smtp` with a `host`, `sendmail` with a `command`, else `outbox`",
        "`smtp`, `sendmail` or `outbox` (no server: `.eml` files wait in `state_dir/outbox/`)",
        '"smtp"', needed=_SERVER),
    Key("send", "host", "required (smtp)", "SMTP server", '"smtp.example.org"',
        needed=_SERVER),
    Key("send", "port", "587 (`starttls`), 465 (`tls`), 25", "SMTP port", "587"),
    Key("send", "security", "`starttls`",
        "`starttls`, `tls` (implicit), or `none` (only for a server on this machine)",
        '"starttls"'),
    Key("send", "auth", "`password`", "`password`, or `oauth2` (needs `username`; see OAuth2 "
        "below)", '"password"'),
    Key("send", "username", "none", "SMTP login (then a password source is required)",
        '"you@example.org"', needed=_SERVER),
    Key("send", "password_env / password_command / password_keyring", "", "see below",
        '"pass show mail/pbem"', needed=_SERVER),
    Key("send", "ca_file", "system CAs", "as for the inbox", '"/path/to/ca.pem"'),
    Key("send", "timeout", "60", "seconds", "60"),
    Key("send", "command", "`/usr/sbin/sendmail -t -i`",
        "the sendmail command (split like a shell line, run without a shell)",
        '"/usr/sbin/sendmail -t -i"'),
    Key("limits", "", "", "bounds on what is read"),
    Key("limits", "max_message_bytes", "2097152",
        "larger mail is not read (the sender, if a player, is told)", "2097152"),
    Key("limits", "max_orders_bytes", "32768",
        "longer orders are refused (the orders parser's own limit)", "32768"),
    Key("limits", "max_attachment_bytes", "1048576", "larger attachments are ignored",
        "1048576"),
    Key("limits", "max_attachments", "20", "attachments beyond this are ignored", "20"),
    Key("limits", "max_messages_per_pass", "1000", "the rest waits for the next pass", "1000"),
)

_PASSWORD_ROW = "password_env / password_command / password_keyring"


def docs_table() -> str:
    """The "Every key" table of docs/mail.md (Markdown)."""
    rows = ["| key | default | meaning |", "|---|---|---|"]
    for key in KEYS:
        if key.name:
            name = " / ".join(f"`{n}`" for n in key.name.split(" / "))
            rows.append(f"| {name} | {key.default} | {key.meaning} |")
        elif key.table == "players":
            rows.append(f"| `[players]` | {key.default} | {key.meaning} |")
        else:
            rows.append(f"| **`[{key.table}]`** | {key.default} | {key.meaning} |")
    return "\n".join(rows) + "\n"


def template(role: str) -> str:
    """A ``mail.toml`` for ``role`` with every key that role may use, each once with its
    meaning: the keys it needs set to examples to replace, the others commented out."""
    if role not in ROLES:
        raise ValueError(role)
    what = {GM: "a game master's game", PLAYER: "a player's copy of a game",
            TOURNAMENT: "a tournament (its one inbox: pbem tournament mail run)"}[role]
    out = [f"# mail.toml -- the mail settings of {what}.",
           "# Written by 'pbem mail init'; every key is explained in docs/mail.md. Replace the",
           "# example values; a line starting with '#' is a default you may change. It holds",
           "# no password: each comes from password_env, password_command or password_keyring."]
    table = None
    for key in KEYS:
        if role not in key.roles:
            continue
        if key.table != table:
            table = key.table
            if table == "players":
                out += ["", *_wrapped(_plain(key.meaning)), "# [players]",
                        '# ussr = "ivan@example.org"']
                continue
            if table:
                out += ["", *_wrapped(_plain(key.meaning)), f"[{table}]"]
            if not key.name:
                continue
        if not key.name:
            continue
        names = [_PASSWORD_CHOICE] if key.name == _PASSWORD_ROW else [key.name]
        for name in names:
            line = f"{name} = {key.example}"
            note = _plain(key.meaning if key.meaning != "see below" else
                          "the password: password_env = \"VAR\", password_command = \"...\" "
                          "(first line printed) or password_keyring = \"SERVICE\"")
            if key.default and key.default not in ("required", "none") \
                    and "required" not in key.default:
                note += f" (default: {_plain(key.default)})"
            out += ["", *_wrapped(note), line if role in key.needed else "# " + line]
    return "\n".join(out) + "\n"


_PASSWORD_CHOICE = "password_command"


def _wrapped(text: str) -> list[str]:
    """``text`` as comment lines of at most 88 characters."""
    import textwrap
    return ["# " + line for line in textwrap.wrap(text, 86)]


def _plain(text: str) -> str:
    return text.replace("`", "").replace(" below", " in docs/mail.md")
