"""The layout of a game directory: file names and where each file lives.

::

    game.json, game.json.sig           the game file and its SSHSIG (namespace pbem-turn)
    turns/NNNN-<power>.json(.sig)      one signed turn file per power-turn
    orders/NNNN-<power>.txt            the orders as accepted for that turn (exact bytes)
    addresses.json                     players' addresses and names added after pbem new
                                       (pbem player set; not signed, not published)
    .secret/                           game master only -- never publish
        next-seed                      the committed seed of the next turn the game master keeps
        next-seed-<power>              a dice keeper's committed seed (a player's copy)
        gm_ed25519, gm_ed25519.pub     the game master's key, if generated here
        gm_key_path                    else where the key given to ``pbem new --key`` lives
        player_key_path                a keeper's: where the player's own key lives
"""

from __future__ import annotations

import re
from pathlib import Path

from .turnfile import GAME_MASTER, orders_file_name, turn_file_name

GAME_FILE = "game.json"
TURNS_DIR = "turns"
ORDERS_DIR = "orders"
SECRET_DIR = ".secret"
SEED_FILE = "next-seed"
GM_KEY_FILE = "gm_ed25519"
GM_KEY_PATH_FILE = "gm_key_path"
LOCK_FILE = "lock"
PLAYER_KEY_PATH_FILE = "player_key_path"
ADDRESS_BOOK = "addresses.json"        # pbem player set (service/addresses.py)
JOIN_FILE = "keeper-join.json"          # what `pbem keeper join` writes for the host

TURN_RE = re.compile(r"^(\d{4,})-([A-Za-z0-9_-]+)\.json$")
TURN_SIG_RE = re.compile(r"^(\d{4,})-([A-Za-z0-9_-]+)\.json\.sig$")
ORDERS_RE = re.compile(r"^(\d{4,})-([A-Za-z0-9_-]+)\.txt$")


def seed_file(keeper: str) -> str:
    """The name, in ``.secret/``, of the committed seed of ``keeper``'s next turn."""
    return SEED_FILE if keeper == GAME_MASTER else f"{SEED_FILE}-{keeper}"


def sig_path(path: Path) -> Path:
    """Where the detached signature of ``path`` lives: ``path`` + ``.sig``."""
    path = Path(path)
    return path.with_name(path.name + ".sig")


def game_file_path(directory) -> Path:
    return Path(directory) / GAME_FILE


def turn_path(directory, turn_number: int, power: str) -> Path:
    return Path(directory) / TURNS_DIR / turn_file_name(turn_number, power)


def orders_path(directory, turn_number: int, power: str) -> Path:
    return Path(directory) / ORDERS_DIR / orders_file_name(turn_number, power)


def list_turns(directory) -> list[tuple[int, str, Path]]:
    """The turn files present, as (turn number, power, path), in turn order."""
    tdir = Path(directory) / TURNS_DIR
    if not tdir.is_dir():
        return []
    found = []
    for entry in tdir.iterdir():
        m = TURN_RE.match(entry.name)
        if m:
            found.append((int(m.group(1)), m.group(2), entry))
    found.sort(key=lambda t: (t[0], t[1]))
    return found


