"""A 1941 game with dice keepers and no game master, for the keeper tests: Al (the host)
plays the Allies, Bea joins with the Axis; by default each power's dice are kept by the
next opponent in turn order (USSR by Germany, Germany by the UK, the UK by Japan, Japan by
the USA, the USA by Germany)."""

from __future__ import annotations

import email
import email.policy
import hashlib
import mailbox
import shutil
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from adjudicator.cli import main
from adjudicator.io import keys, sshsig
from adjudicator.io.layout import ORDERS_DIR, TURNS_DIR
from adjudicator.io.storage import write_atomic
from adjudicator.service import gamedir, keeper_join
from adjudicator.service.games import load_game

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_ORDERS = sorted((ROOT / "turns" / "aa1941-example" / "orders").glob("*.txt"))
GAME_ID = "club-keepers"
ALLIES, AXIS = ("ussr", "uk", "usa"), ("germany", "japan")
EMAIL = {"al": "al@example.org", "bea": "bea@example.org"}
SIDE_OF = {**{p: "al" for p in ALLIES}, **{p: "bea" for p in AXIS}}


def make_keys(base: Path) -> dict[str, Path]:
    """al and bea's private key files under ``base/keys``, derived from public labels:
    with demo seeds, the dice (bound to the players' signatures) are the same in every
    run, so the example's later orders find the positions they were written for."""
    out = {}
    for who in ("al", "bea"):
        path = base / "keys" / who
        if not path.exists():
            key = Ed25519PrivateKey.from_private_bytes(
                hashlib.sha256(f"pbem-test-key|{who}".encode()).digest())
            keys.make_private_dirs(path.parent)
            write_atomic(path, key.private_bytes(Encoding.PEM, PrivateFormat.OpenSSH,
                                                 NoEncryption()), mode=0o600)
            write_atomic(path.with_name(who + ".pub"),
                         (keys.public_key_line(key, f"{who}@pbem-test") + "\n").encode())
        out[who] = path
    return out


def keeper_game(base: Path, game_id: str = GAME_ID, **create) -> dict[str, Path]:
    """Bea joins, Al hosts: the two players' directories {"al": ..., "bea": ...}, each with
    the game file (demo seeds).  ``create``: more ``create_game`` keywords."""
    game = load_game("aa1941")
    key = make_keys(base)
    demo = gamedir.demo_seeds(game_id)
    bea, al = base / "bea", base / "al"
    join = keeper_join.read_join(keeper_join.join_game(
        bea, game, game_id, key["bea"], list(AXIS), email=EMAIL["bea"], name="Bea", seeds=demo))
    players = {p: {"key": str(key["al"]) + ".pub", "email": EMAIL["al"], "name": "Al"}
               for p in ALLIES}
    gamedir.create_game(al, game, game_id, gm_key_path=key["al"], players=players,
                        joins=[join], host="ussr", seeds=demo, created="2026-03-01", **create)
    for name in ("game.json", "game.json.sig"):
        shutil.copy(al / name, bea / name)
    return {"al": al, "bea": bea}


def signed_orders(base: Path, who: str, turn: int, path: Path, game_id: str = GAME_ID,
                  extra: bytes = b"") -> tuple[bytes, str]:
    """Example orders with ``game:``/``turn:`` headers, signed by ``who``."""
    text = f"game: {game_id}\nturn: {turn}\n".encode() + path.read_bytes() + extra
    key = keys.load_private_key(base / "keys" / who)
    return text, sshsig.sign(text, key, sshsig.NAMESPACE_ORDERS)


def share(src: Path, dest: Path) -> None:
    """Copy the published turns of ``src`` into ``dest`` (what a player receives)."""
    for sub in (TURNS_DIR, ORDERS_DIR):
        (dest / sub).mkdir(exist_ok=True)
        for p in (src / sub).iterdir():
            if not p.name.startswith(".") and not (dest / sub / p.name).exists():
                shutil.copy(p, dest / sub / p.name)


def keeper_dir(dirs: dict[str, Path], power: str) -> Path:
    """The directory of the player who keeps ``power``'s dice (by the default assignment)."""
    gf, _ = gamedir.read_game(dirs["al"])
    return dirs[SIDE_OF[gf.dice_keepers[power]]]


def play_turns(base: Path, dirs: dict[str, Path], count: int) -> None:
    """Play the first ``count`` example turns, each processed in its keeper's copy and
    shared with the other player."""
    game = load_game("aa1941")
    demo = gamedir.demo_seeds(GAME_ID)
    for path in EXAMPLE_ORDERS[:count]:
        state, _ = gamedir.current_state(dirs["al"])
        text, sig = signed_orders(base, SIDE_OF[state.power], state.turn_number, path)
        keeper = keeper_dir(dirs, state.power)
        gamedir.process_turn(keeper, game, text, orders_signature=sig, seeds=demo)
        for other in dirs.values():
            if other != keeper:
                share(keeper, other)


# --------------------------------------------------------------------------- mail

def mail_toml(who: str, base: Path) -> str:
    return (f'address = "{EMAIL[who]}"\nname = "{who.title()}"\n'
            f'key = "{base / "keys" / who}"\n'
            f'[inbox]\ntype = "maildir"\npath = "{base / "inbox" / who}"\n'
            f'[send]\ntype = "outbox"\n')


def route(dirs: dict[str, Path], base: Path, hold=None) -> list[bytes]:
    """The mail server: every mail waiting in a player's outbox is delivered to each of
    its recipients' inboxes (To and Cc), and moved to sent/ as a mail client would.
    ``hold(msg) -> bool``: keep such mails back (returned, not delivered)."""
    held = []
    inbox_of = {address: base / "inbox" / who for who, address in EMAIL.items()}
    for d in dirs.values():
        outbox, sent = d / ".mail" / "outbox", d / ".mail" / "sent"
        if not outbox.is_dir():
            continue
        sent.mkdir(parents=True, exist_ok=True)
        for path in sorted(outbox.glob("*.eml"), key=lambda p: (p.stat().st_mtime_ns, p.name)):
            data = path.read_bytes()
            msg = email.message_from_bytes(data, policy=email.policy.default)
            if hold is not None and hold(msg):
                held.append(data)
            else:
                deliver(data, inbox_of)
            path.rename(sent / path.name)
    return held


def deliver(data: bytes, inbox_of: dict[str, Path]) -> None:
    msg = email.message_from_bytes(data, policy=email.policy.default)
    for field in ("To", "Cc"):
        for _name, address in email.utils.getaddresses(msg.get_all(field) or []):
            if address.lower() in inbox_of:
                mailbox.Maildir(inbox_of[address.lower()], create=True).add(data)


def pbem(*argv) -> int:
    return main([str(a) for a in argv])
