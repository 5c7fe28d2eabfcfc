"""Helpers for the tournament tests: a tournament directory with players, scripted
orders from the bundled example game, and an injected clock."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from adjudicator.engine.turn import check
from adjudicator.io import keys, sshsig
from adjudicator.io.parser import parse_orders
from adjudicator.service import gamedir
from adjudicator.service.tournament import organiser

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_ORDERS = ROOT / "turns" / "aa1941-example" / "orders"
START = dt.datetime(2025, 3, 1, 12, 0, tzinfo=dt.timezone.utc)


def settings(path: Path, **changes) -> None:
    """Set ``section.key = value`` lines of a tournament.toml (value as TOML text)."""
    text = path.read_text(encoding="utf-8")
    for dotted, value in changes.items():
        section, key = dotted.split("__")
        pattern = re.compile(rf"(^\[{section}\][^\n]*\n(?:(?!^\[).)*?^){key} = [^\n#]*",
                             re.M | re.S)
        text, count = pattern.subn(lambda m: f"{m.group(1)}{key} = {value} ", text, count=1)
        assert count == 1, dotted
    path.write_text(text, encoding="utf-8")


def make_tournament(tmp_path: Path, players: int, keyed: int = 0, name: str = "cup",
                    ruleset: str = "aa1941", **changes) -> tuple[Path, dict]:
    """A tournament of ``players`` players (the first ``keyed`` with signing keys) playing
    ``ruleset``; returns its directory and player id -> private key."""
    tdir = tmp_path / name
    organiser.new_tournament(tdir, name.title(), ruleset, START)
    settings(tdir / "tournament.toml", **changes)
    private = {}
    for i in range(players):
        pub = None
        if i < keyed:
            kpath = tmp_path / f"key{i}"
            private[f"p{i:02d}"] = keys.new_keypair(kpath, f"p{i:02d}")
            pub = str(kpath) + ".pub"
        organiser.add_player(tdir, f"Player {i:02d}", f"p{i:02d}@example.org", pub, START,
                             pid=f"p{i:02d}")
    organiser.tick(tdir, START)        # the edited settings are announced before play
    return tdir, private


def example_orders(power: str) -> str:
    return next(EXAMPLE_ORDERS.glob(f"*-{power}.txt")).read_text(encoding="utf-8")


def scripted_orders(tdir: Path, game_id: str, concede: bool = False) -> str:
    """This power's orders: the example game's round-1 orders where they are still valid,
    else ``pass`` (or ``concede``)."""
    ctx = organiser.open_tournament(tdir)
    gdir = ctx.tdir.game_dir(game_id)
    state, _ = gamedir.current_state(gdir)
    if concede:
        return f"power: {state.power}\nconcede\n"
    if state.round == 1:
        text = example_orders(state.power)
        orders = parse_orders(text, ctx.game, power=state.power)
        if not any(p.is_error for p in check(ctx.game, state, orders)):
            return text
    return f"power: {state.power}\npass\n"


def send(tdir: Path, game_id: str, text: str, private: dict, player: str,
         now: dt.datetime):
    """Submit orders as the player would: signed, with game and turn headers, if the
    player has a key."""
    key = private.get(player)
    signature = None
    if key is not None:
        state, _ = gamedir.current_state(organiser.open_tournament(tdir).tdir.game_dir(game_id))
        text = f"game: {game_id}\nturn: {state.turn_number}\n" + text
        signature = sshsig.sign(text.encode("utf-8"), key, sshsig.NAMESPACE_ORDERS)
    return organiser.submit_orders(tdir, game_id, text.encode("utf-8"), signature, now)
