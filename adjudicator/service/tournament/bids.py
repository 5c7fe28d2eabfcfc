"""Sides by sealed bid, and the bid phase.  Pure except for ``new_nonce``.

**Sealed bids.**  Each player of a pairing names the extra IPCs they want for playing the
bid side (Allies).  First each sends only a commitment, ``sha256`` of the bid and a secret
nonce (:func:`commitment`); a reveal is accepted only once both commitments are in, and
must open the player's own commitment; the amounts are shown only when both are revealed.
So nobody can see, or react to, the other's bid.  The lower bid plays the bid side with
its bid; equal bids are split by a bit of ``sha256`` of both nonces, which neither player
controls alone.

**The bid phase.**  The bid-side player places the bid as extra units, with orders of its
own, one unit group per line::

    bid: place 1 inf Karelia
    bid uk: place 1 dd Sea Zone 2        # the power, where the space does not tell

validated under the declared :class:`~.config.BidPolicy` (units per territory, only
territories owned at the start, own nationality, naval units only where the power already
has ships, aircraft, the total against the bid) and added to the starting position.
"""

from __future__ import annotations

import hashlib
import re
import secrets

import attrs

from ...io.names import Names
from ...io.parser import parse_orders
from ...model.errors import PbemError
from ...model.state import GameState, Unit
from ...model.units import Domain
from .config import BidPolicy

COMMIT_RE = re.compile(r"^sha256:[0-9a-f]{64}$")
NONCE_RE = re.compile(r"^[0-9a-f]{32,64}$")
MAX_BID_LINES = 200
MAX_BID_BYTES = 16 * 1024
_LINE_RE = re.compile(r"^\s*bid(?:\s+(?P<power>[^:]{1,40}?))?\s*:\s*(?P<order>place\b.*)$",
                      re.IGNORECASE)


def new_nonce() -> str:
    return secrets.token_hex(16)


def commitment(tournament: str, game: str, player: str, amount: int, nonce: str) -> str:
    """The commitment to a bid: binds the tournament, the game, the player and the amount."""
    text = f"pbem-bid-v1|{tournament}|{game}|{player}|{amount}|{nonce}"
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


@attrs.frozen
class Reveal:
    amount: int
    nonce: str


@attrs.frozen
class BidBox:
    """The sealed bids of one pairing, as far as they have come."""

    tournament: str
    game: str
    players: tuple[str, str]
    commitments: dict[str, str] = attrs.field(factory=dict)
    reveals: dict[str, Reveal] = attrs.field(factory=dict)
    defaults: dict[str, int] = attrs.field(factory=dict)    # given at the bid deadline

    def _own(self, player: str) -> None:
        if player not in self.players:
            raise PbemError(f"{player} does not play {self.game} ({' v '.join(self.players)})")

    def commit(self, player: str, digest: str) -> "BidBox":
        self._own(player)
        if not COMMIT_RE.match(digest):
            raise PbemError("a bid commitment is 'sha256:' and 64 hex digits "
                            "(from 'pbem tournament bid seal')")
        if player in self.commitments:
            raise PbemError(f"{player} has already committed a bid for {self.game}; a "
                            "commitment cannot be changed")
        return attrs.evolve(self, commitments={**self.commitments, player: digest})

    @property
    def sealed(self) -> bool:
        """Both commitments are in (or a default bid given): reveals may begin."""
        return all(p in self.commitments or p in self.defaults for p in self.players)

    def reveal(self, player: str, amount: int, nonce: str, max_bid: int) -> "BidBox":
        self._own(player)
        if not self.sealed:
            waiting = [p for p in self.players if p not in self.commitments]
            raise PbemError(f"no bid of {self.game} can be revealed before both are committed "
                            f"(waiting for {', '.join(waiting)})")
        if player in self.reveals:
            raise PbemError(f"{player} has already revealed the bid for {self.game}")
        if player in self.defaults:
            raise PbemError(f"the bid deadline of {self.game} passed: {player} was given the "
                            f"default bid of {self.defaults[player]} IPCs")
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 <= amount <= max_bid:
            raise PbemError(f"a bid is a whole number of IPCs from 0 to {max_bid}")
        if not NONCE_RE.match(nonce):
            raise PbemError("the nonce is the 32-64 hex digits 'bid seal' printed")
        opened = commitment(self.tournament, self.game, player, amount, nonce)
        if opened != self.commitments[player]:
            raise PbemError(f"this bid and nonce do not open {player}'s commitment for "
                            f"{self.game}")
        return attrs.evolve(self, reveals={**self.reveals, player: Reveal(amount, nonce)})

    @property
    def open(self) -> bool:
        """Every player's bid is known: revealed, or the default given at the deadline."""
        return all(p in self.reveals or p in self.defaults for p in self.players)

    def amount(self, player: str) -> int:
        return self.reveals[player].amount if player in self.reveals else self.defaults[player]

    def visible(self) -> dict[str, int | None]:
        """What anyone may be shown: each amount once both bids are known, else None."""
        if not self.open:
            return {p: None for p in self.players}
        return {p: self.amount(p) for p in self.players}

    def outcome(self) -> tuple[str, int] | None:
        """(the player who plays the bid side, the winning bid), once both are known.  Equal
        bids: a bit of both nonces; if one bid is a default, the player who bid in time;
        if both, a bit of the game's own name."""
        if not self.open:
            return None
        a, b = self.players
        if self.amount(a) != self.amount(b):
            return min(((a, self.amount(a)), (b, self.amount(b))), key=lambda x: x[1])
        in_time = [p for p in self.players if p in self.reveals]
        if len(in_time) == 1:
            return in_time[0], self.amount(a)
        seed = ("|".join(sorted(r.nonce for r in self.reveals.values())) if in_time
                else f"{self.tournament}|{self.game}")
        coin = hashlib.sha256(seed.encode()).digest()[0] & 1
        return (a if coin == 0 else b), self.amount(a)


# --------------------------------------------------------------------------- the bid phase

@attrs.frozen
class BidPlacement:
    line: int
    power: str
    unit: str
    count: int
    space: str


def parse_bid_orders(text: str, game, side: str) -> tuple[BidPlacement, ...]:
    """The bid orders of the player of ``side``; every line that is not a bid line, a
    comment or blank is an error (all errors at once, with their line numbers)."""
    if len(text.encode("utf-8")) > MAX_BID_BYTES:
        raise PbemError(f"bid orders are limited to {MAX_BID_BYTES} bytes")
    names = Names(game)
    powers = game.ruleset.powers
    placements: list[BidPlacement] = []
    errors: list[str] = []
    lines = text.splitlines()
    if len(lines) > MAX_BID_LINES:
        raise PbemError(f"bid orders are limited to {MAX_BID_LINES} lines")
    for number, raw in enumerate(lines, start=1):
        code = raw.split("#", 1)[0].strip()
        if not code:
            continue
        match = _LINE_RE.match(code)
        if match is None:
            errors.append(f"line {number}: not a bid line (write 'bid: place 1 inf Karelia')")
            continue
        power = None
        if match.group("power"):
            try:
                power = names.resolve_power(match.group("power"))
            except PbemError as exc:
                errors.append(f"line {number}: {exc}")
                continue
            if powers[power].side != side:
                errors.append(f"line {number}: {powers[power].name} is not on the {side} side")
                continue
        try:
            orders = parse_orders(match.group("order") + "\n", game)
        except PbemError as exc:
            detail = str(exc).splitlines()
            errors.append(f"line {number}: " + (detail[1].split(": ", 1)[-1] if len(detail) > 1
                                                else detail[0]))
            continue
        for place in orders.places:
            for group in place.units:
                placements.append(BidPlacement(number, power or "", group.type, group.count,
                                               place.space))
    if errors:
        raise PbemError("the bid orders have errors:\n" + "\n".join(errors))
    return tuple(placements)


def bid_problems(placements, game, start: GameState, policy: BidPolicy, side: str,
                 amount: int) -> list[str]:
    """Why these placements break the policy or the bid (empty: they are valid).  A
    placement without a power gets the owner of its territory, or the only power of
    ``side`` with ships in its sea zone."""
    problems: list[str] = []
    total = 0
    per_space: dict[str, int] = {}
    for p in _with_powers(placements, game, start, side, problems):
        utype = game.ruleset.units[p.unit]
        where = f"line {p.line}"
        terr = game.map[p.space]
        total += utype.cost * p.count
        per_space[p.space] = per_space.get(p.space, 0) + p.count
        if game.ruleset.powers[p.power].side != side:
            problems.append(f"{where}: {_power(game, p.power)} is not on the {side} side")
            continue
        if not utype.buyable:
            problems.append(f"{where}: {utype.display_plural} cannot be bought, so not bid")
        if utype.domain == Domain.AIR and not policy.allow_air:
            problems.append(f"{where}: the bid policy allows no aircraft")
        if utype.domain == Domain.SEA:
            if not terr.is_sea:
                problems.append(f"{where}: a naval unit goes in a sea zone, not {p.space}")
            elif policy.naval_only_with_ships and not _has_ships(start, p.space, p.power, game):
                problems.append(f"{where}: {_power(game, p.power)} has no ships in {p.space} "
                                "at the start (naval units only where that power has ships)")
        else:
            if terr.is_sea:
                problems.append(f"{where}: {utype.display_plural} are placed on land, not in "
                                f"{p.space}")
                continue
            owner = start.owners.get(p.space)
            if terr.impassable or owner is None:
                problems.append(f"{where}: {p.space} is neutral")
            elif policy.owned_at_start and game.ruleset.powers[owner].side != side:
                problems.append(f"{where}: {p.space} is not held by the {side} at the start")
            elif policy.own_nationality and owner != p.power:
                problems.append(f"{where}: {p.space} is {_power(game, owner)}'s; only "
                                f"{game.ruleset.powers[owner].adjective or owner} units may be "
                                "placed there")
    if policy.max_units_per_territory:
        for space, count in sorted(per_space.items()):
            if count > policy.max_units_per_territory:
                problems.append(f"{count} units in {space}: at most "
                                f"{policy.max_units_per_territory} per territory")
    if total > amount:
        problems.append(f"the units cost {total} IPCs, the bid is {amount}")
    return problems


def apply_bid(start: GameState, placements, game, side: str, amount: int,
              policy: BidPolicy) -> GameState:
    """The starting position with the bid's units added (and, with ``leftover = "bank"``,
    the unspent IPCs given to the first power of ``side`` in turn order)."""
    problems: list[str] = []
    resolved = _with_powers(placements, game, start, side, problems)
    if problems:
        raise PbemError("; ".join(problems))
    units = {space: list(us) for space, us in start.units.items()}
    spent = 0
    for p in resolved:
        units.setdefault(p.space, []).extend(Unit(p.unit, p.power) for _ in range(p.count))
        spent += game.ruleset.units[p.unit].cost * p.count
    ipcs = dict(start.ipcs)
    if policy.leftover == "bank" and amount > spent:
        first = next(k for k in game.ruleset.turn_order if game.ruleset.powers[k].side == side)
        key = game.ruleset.powers[first].economy.key
        ipcs[key] = ipcs.get(key, 0) + amount - spent
    return attrs.evolve(start, units={s: tuple(us) for s, us in sorted(units.items()) if us},
                        ipcs=ipcs)


def _with_powers(placements, game, start, side, problems) -> list[BidPlacement]:
    out = []
    for p in placements:
        if p.power:
            out.append(p)
            continue
        terr = game.map[p.space]
        if not terr.is_sea:
            owner = start.owners.get(p.space)
            if owner is None:
                problems.append(f"line {p.line}: {p.space} is neutral")
                continue
            out.append(attrs.evolve(p, power=owner))
            continue
        candidates = sorted({u.owner for u in start.units_at(p.space)
                             if game.ruleset.powers[u.owner].side == side
                             and game.ruleset.units[u.type].domain == Domain.SEA})
        if len(candidates) != 1:
            why = "several powers have ships there" if candidates else \
                f"no {side} ships are there at the start"
            problems.append(f"line {p.line}: name the power for {p.space}, {why} "
                            f"('bid uk: place ...')")
            continue
        out.append(attrs.evolve(p, power=candidates[0]))
    return out


def _has_ships(state: GameState, space: str, power: str, game) -> bool:
    return any(u.owner == power and game.ruleset.units[u.type].domain == Domain.SEA
               for u in state.units_at(space))


def _power(game, key: str) -> str:
    return game.ruleset.powers[key].name
