"""Helpers for the mail tests: a 1941 game with players' addresses (and keys), its
mail.toml, a Maildir inbox, one game master pass, and reading the outbox."""

from __future__ import annotations

import email
import email.policy
import mailbox
import shutil
from pathlib import Path

from adjudicator.io import keys
from adjudicator.service.games import load_game
from adjudicator.cli.mail_command import mail_renderers
from adjudicator.service import gamedir
from adjudicator.service.mail.config import load_config
from adjudicator.service.mail.runner import GameMaster

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_ORDERS = sorted((ROOT / "turns" / "aa1941-example" / "orders").glob("*.txt"))
CORPUS = Path(__file__).resolve().parent / "mail_corpus"
PLAYERS = {"ussr": "ivan@example.org", "germany": "hans@example.org", "uk": "tom@example.org",
           "japan": "taro@example.org", "usa": "sam@example.org"}
RENDERERS = mail_renderers()


def players_toml(players: dict[str, str] = PLAYERS) -> str:
    return "[players]\n" + "".join(f'{p} = "{a}"\n' for p, a in players.items())


def make_game(directory: Path, game_id: str, *, keyed: bool = False, key_dir: Path | None = None,
              emails: dict[str, str] = PLAYERS):
    """A new 1941 game (demo seeds) whose game file records each player's address.
    ``keyed``: also an ed25519 key per power, written to ``key_dir/<power>`` (private)."""
    game = load_game("aa1941")
    players = {power: {"email": address} for power, address in emails.items()}
    if keyed:
        key_dir.mkdir(parents=True, exist_ok=True)
        for power in players:
            if not (key_dir / power).exists():
                keys.new_keypair(key_dir / power, f"{power}@pbem-test")
            players[power]["key"] = str(key_dir / f"{power}.pub")
    gamedir.create_game(directory, game, game_id, created="2026-03-01", players=players,
                        seeds=gamedir.demo_seeds(game_id))
    return game


def write_mail_toml(directory: Path, body: str) -> None:
    (directory / "mail.toml").write_text(body, encoding="utf-8")


def maildir_toml(inbox: Path, address: str = "gm@example.org", extra: str = "") -> str:
    return (f'address = "{address}"\nname = "Game Master"\n{extra}\n'
            f'[inbox]\ntype = "maildir"\npath = "{inbox}"\n')


def deliver(inbox: Path, data: bytes) -> str:
    return mailbox.Maildir(inbox, create=True).add(data)


def game_master(directory: Path, game_id: str, **kw) -> GameMaster:
    return GameMaster(directory, load_config(directory), renderers=RENDERERS,
                      seeds=gamedir.demo_seeds(game_id), **kw)


def folder_keys(inbox: Path, folder: str | None) -> list[str]:
    box = mailbox.Maildir(inbox, create=False)
    if folder:
        box = box.get_folder(folder)
    return list(box.keys())


def outbox_messages(directory: Path, sub: str = "outbox") -> dict[str, email.message.EmailMessage]:
    d = directory / ".mail" / sub
    if not d.is_dir():
        return {}
    return {p.stem: email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            for p in sorted(d.glob("*.eml"))}


def body_text(msg) -> str:
    return msg.get_body(("plain",)).get_content()


def published(directory: Path) -> dict[str, bytes]:
    """The published files of a game directory (what every player's copy must equal)."""
    out = {}
    for p in sorted(directory.rglob("*")):
        rel = p.relative_to(directory).as_posix()
        if p.is_file() and (rel.startswith(("turns/", "orders/")) or rel in ("game.json", "game.json.sig")):
            out[rel] = p.read_bytes()
    return out


def copy_game(src: Path, dest: Path) -> Path:
    shutil.copytree(src, dest, symlinks=True)
    return dest


# --- a table of players on the real test servers (tests/mail_servers.py) ---------------

PASSWORD_ENV = "PBEM_TEST_MAIL_PASSWORD"


def server_settings(user: str, imap, smtp, certs) -> str:
    """The ``[inbox]``/``[send]`` part of a mail.toml for the test servers' ``user``."""
    return (f'[inbox]\ntype = "imap"\nhost = "127.0.0.1"\nport = {imap.imaps_port}\n'
            f'username = "{user}"\npassword_env = "{PASSWORD_ENV}"\nca_file = "{certs["ca"]}"\n'
            f'[send]\ntype = "smtp"\nhost = "127.0.0.1"\nport = {smtp.port}\n'
            f'security = "starttls"\nusername = "{user}"\npassword_env = "{PASSWORD_ENV}"\n'
            f'ca_file = "{certs["ca"]}"\n')


def player_keys(key_dir: Path, accounts: dict[str, str], **extra) -> dict[str, dict]:
    """A key pair per power (``accounts``: power -> mail user) and its player record."""
    key_dir.mkdir(exist_ok=True)
    records = {}
    for power, user in accounts.items():
        keys.new_keypair(key_dir / power, f"{user}@example.org")
        records[power] = {"key": str(key_dir / f"{power}.pub"), "email": f"{user}@example.org",
                          **{k: v(power) for k, v in extra.items()}}
    return records


def mail_folders(root: Path, gm: Path, key_dir: Path, accounts: dict[str, str],
                 imap, smtp, certs) -> dict[str, Path]:
    """The game master's mail.toml in ``gm`` and an empty folder per player with its own."""
    (gm / "mail.toml").write_text(f'address = "gm@example.org"\nname = "Game Master"\n'
                                  f'{server_settings("gm", imap, smtp, certs)}')
    players = {}
    for power, user in accounts.items():
        d = root / power
        d.mkdir()
        (d / "mail.toml").write_text(f'address = "{user}@example.org"\n'
                                     f'game_master = "gm@example.org"\n'
                                     f'key = "{key_dir / power}"\n'
                                     f'{server_settings(user, imap, smtp, certs)}')
        players[power] = d
    return players
