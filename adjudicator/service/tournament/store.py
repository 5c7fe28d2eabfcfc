"""The files of a tournament directory.

::

    tournament.toml            the settings (config.py; every key documented there)
    players.json               the registered players, in registration order
    rounds/NNNN.json           each round's pairings and byes (ladder: each challenge)
    bids/<game>/<player>.commit, <player>.reveal, placement.txt
                               sealed bids, their openings, the bid phase's orders
    games/<game>/              each game: a normal signed game directory
    log.jsonl                  recorded orders and what the tick did, one JSON object a line
    standings.json             the recorded standings (verify recomputes them from the games)
    notices/                   notices written as text when there is no mail.toml
    mail.toml, .mail/          optional: notices go out through the mail layer's outbox
    .secret/                   the game master's key of every game (never publish)

Every file is written atomically; the log is appended one whole line at a time (a line
cut short by a crash is ignored when read, and dropped by the next append).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path

import attrs

from ...io import fs
from ...io.storage import exclusive_lock, loads_json, parse_json_bytes, read_bytes, write_atomic
from ...model.errors import PbemError
from .bids import BidBox, Reveal
from .config import CONFIG_FILE, TournamentConfig, load_config
from .pairing import Pairing, RoundPlan
from .players import Player

PLAYERS_FILE = "players.json"
ROUNDS_DIR = "rounds"
BIDS_DIR = "bids"
GAMES_DIR = "games"
LOG_FILE = "log.jsonl"
BID_RESET = "bid_reset"          # log entry {game, reason, at}: the game's bids begin again
BID_DEFAULT = "bid_default"      # log entry {game, player, amount, at}: the deadline's bid
STANDINGS_FILE = "standings.json"
NOTICES_DIR = "notices"
SECRET_DIR = ".secret"
GM_KEY_FILE = "gm_ed25519"
GM_KEY_PATH_FILE = "gm_key_path"
PLACEMENT_FILE = "placement.txt"
MAX_LOG_BYTES = 64 * 1024 * 1024
MAX_LOG_LINE = 64 * 1024
_ROUND_RE = re.compile(r"^(\d{4})\.json$")


def _json(data) -> bytes:
    return (json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


class TournamentDir:
    """One tournament's directory."""

    def __init__(self, directory):
        self.dir = Path(directory)

    # ---- paths ---------------------------------------------------------------------------
    def path(self, *parts) -> Path:
        return self.dir.joinpath(*parts)

    def game_dir(self, game: str) -> Path:
        return self.path(GAMES_DIR, game)

    def relative(self, path) -> str:
        try:
            return Path(path).relative_to(self.dir).as_posix()
        except ValueError:
            return str(path)

    @property
    def exists(self) -> bool:
        return self.path(CONFIG_FILE).is_file()

    # ---- settings and players --------------------------------------------------------------
    def config(self) -> TournamentConfig:
        return load_config(self.dir)

    def players(self) -> tuple[Player, ...]:
        path = self.path(PLAYERS_FILE)
        if not path.exists():
            return ()
        data = parse_json_bytes(read_bytes(path, "players file"), path, "players file")
        try:
            return tuple(Player(p["id"], p["name"], p.get("email"), p.get("key"))
                         for p in data["players"])
        except (KeyError, TypeError) as exc:
            raise PbemError(f"{path}: not a players file ({exc})") from None

    def save_players(self, players) -> None:
        write_atomic(self.path(PLAYERS_FILE),
                     _json({"players": [attrs.asdict(p) for p in players]}), overwrite=True)

    # ---- rounds ----------------------------------------------------------------------------
    def rounds(self) -> list[RoundPlan]:
        rdir = self.path(ROUNDS_DIR)
        plans = []
        for entry in sorted(rdir.iterdir()) if rdir.is_dir() else ():
            if not _ROUND_RE.match(entry.name):
                continue
            data = parse_json_bytes(read_bytes(entry, "round file"), entry, "round file")
            try:
                for p in data["pairings"]:
                    sides = p.get("sides")
                    if len(p["players"]) != 2 or len(set(p["players"])) != 2 or (
                            sides is not None and (len(sides) != 2 or
                                                   set(sides.values()) != set(p["players"]))):
                        raise ValueError(f"pairing {p.get('game')!r} is not two players on "
                                         "two sides")
                plans.append(RoundPlan(
                    int(data["round"]),
                    tuple(Pairing(p["game"], int(data["round"]), tuple(p["players"]),
                                  p.get("sides")) for p in data["pairings"]),
                    tuple(data.get("byes", ()))))
            except (KeyError, TypeError, ValueError) as exc:
                raise PbemError(f"{entry}: not a round file ({exc})") from None
        return plans

    def save_round(self, plan: RoundPlan) -> Path:
        fs.mkdir(self.path(ROUNDS_DIR), exist_ok=True)
        path = self.path(ROUNDS_DIR, f"{plan.round:04d}.json")
        write_atomic(path, _json({
            "round": plan.round, "byes": list(plan.byes),
            "pairings": [{"game": p.game, "players": list(p.players), "sides": p.sides}
                         for p in plan.pairings]}))
        return path

    def pairings(self) -> list[Pairing]:
        return [p for plan in self.rounds() for p in plan.pairings]

    # ---- bids ------------------------------------------------------------------------------
    def bid_box(self, tournament: str, pairing: Pairing) -> BidBox:
        box = BidBox(tournament, pairing.game, pairing.players)
        folder = self.path(BIDS_DIR, pairing.game)
        for player in pairing.players:
            commit = folder / f"{player}.commit"
            if commit.exists():
                box = attrs.evolve(box, commitments={
                    **box.commitments, player: read_bytes(commit, "bid commitment", 1024)
                    .decode("ascii", "replace").strip()})
            reveal = folder / f"{player}.reveal"
            if reveal.exists():
                data = parse_json_bytes(read_bytes(reveal, "bid opening"), reveal, "bid opening")
                box = attrs.evolve(box, reveals={
                    **box.reveals, player: Reveal(data.get("amount"), str(data.get("nonce")))})
        defaults: dict[str, int] = {}
        for e in self.log():
            if e.get("game") != pairing.game:
                continue
            if e["kind"] == BID_RESET:
                defaults = {}
            elif e["kind"] == BID_DEFAULT and e.get("player") in pairing.players:
                defaults[e["player"]] = int(e["amount"])
        return attrs.evolve(box, defaults=defaults)

    def reset_bids(self, game: str, at: str) -> None:
        """Set a game's commitments, openings and placement aside (kept, in a folder named
        by the time of the reset), so that both players seal new bids."""
        folder = self.path(BIDS_DIR, game)
        if not folder.is_dir():
            return
        keep = folder / ("reset-" + at.replace(":", ""))
        keep.mkdir(exist_ok=True)
        for path in folder.iterdir():
            if path.is_file():
                path.rename(keep / path.name)

    def save_commit(self, game: str, player: str, digest: str) -> None:
        folder = self.path(BIDS_DIR, game)
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / f"{player}.commit", (digest + "\n").encode("ascii"))

    def save_reveal(self, game: str, player: str, amount: int, nonce: str) -> None:
        write_atomic(self.path(BIDS_DIR, game, f"{player}.reveal"),
                     _json({"amount": amount, "nonce": nonce}))

    def placement(self, game: str) -> str | None:
        path = self.path(BIDS_DIR, game, PLACEMENT_FILE)
        if not path.exists():
            return None
        return read_bytes(path, "bid orders", 16 * 1024).decode("utf-8", "replace")

    def save_placement(self, game: str, text: str) -> None:
        folder = self.path(BIDS_DIR, game)
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / PLACEMENT_FILE, text.encode("utf-8"))

    # ---- the log ---------------------------------------------------------------------------
    def log(self) -> list[dict]:
        path = self.path(LOG_FILE)
        if not path.exists():
            return []
        data = read_bytes(path, "tournament log", MAX_LOG_BYTES)
        entries = []
        lines = data.split(b"\n")
        for number, line in enumerate(lines[:-1], start=1):   # the last piece: cut short
            if not line.strip():
                continue
            try:
                entry = loads_json(line, f"{path}, line {number}")
            except PbemError:
                raise PbemError(f"{path}, line {number}: not a JSON object") from None
            if not isinstance(entry, dict) or "kind" not in entry:
                raise PbemError(f"{path}, line {number}: not a log entry")
            entries.append(entry)
        return entries

    def append(self, *entries: dict) -> None:
        """Append whole lines (and drop a line a crash cut short)."""
        path = self.path(LOG_FILE)
        lines = b"".join(json.dumps(e, sort_keys=True, ensure_ascii=False,
                                    separators=(",", ":")).encode("utf-8") + b"\n"
                         for e in entries)
        if any(len(line) > MAX_LOG_LINE for line in lines.split(b"\n")):
            raise PbemError("a log entry is too long")
        with open(path, "ab+") as fh:
            size = fh.seek(0, os.SEEK_END)
            if size:
                fh.seek(size - 1)
                if fh.read(1) != b"\n":
                    fh.seek(0)
                    content = fh.read()
                    fh.truncate(content.rfind(b"\n") + 1)
            fh.write(lines)
            fh.flush()
            os.fsync(fh.fileno())

    # ---- standings -------------------------------------------------------------------------
    def recorded_standings(self) -> dict | None:
        path = self.path(STANDINGS_FILE)
        if not path.exists():
            return None
        return parse_json_bytes(read_bytes(path, "standings file"), path, "standings file")

    def save_standings(self, data: dict) -> None:
        write_atomic(self.path(STANDINGS_FILE), _json(data), overwrite=True)

    # ---- secrets and locking ----------------------------------------------------------------
    def gm_key(self) -> Path:
        generated = self.path(SECRET_DIR, GM_KEY_FILE)
        if generated.exists():
            return generated
        note = self.path(SECRET_DIR, GM_KEY_PATH_FILE)
        if note.exists():
            location = Path(note.read_text(encoding="utf-8").strip())
            if location.exists():
                return location
            raise PbemError(f"the game master key of this tournament was {location} (noted "
                            f"in {note}), which no longer exists")
        raise PbemError(f"{self.dir} has no game master key in {SECRET_DIR}/")

    @contextlib.contextmanager
    def locked(self):
        """An exclusive lock on the tournament for one command (POSIX)."""
        sdir = self.path(SECRET_DIR)
        fs.mkdir(sdir, 0o700, exist_ok=True)
        with exclusive_lock(sdir / "lock", f"{self.dir} is being changed by another pbem "
                                           "process"):
            yield
