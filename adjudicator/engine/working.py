"""The board while a turn is being played: individual pieces with ids and per-turn flags.

``WorkingBoard`` is built from a ``GameState`` at the start of a turn, changed by the
phases, and turned back into a ``GameState`` at the end.  It is private to one call of
the turn engine, so mutating it keeps the engine pure.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Iterable

import attrs

from ..model.game import Game
from ..model.rules import ALLIED, NEUTRAL, WAR
from ..model.state import GameState, Unit
from ..model.units import Domain, UnitType
from .technology import TECHNOLOGIES, effective_type


@attrs.define(slots=False)   # a dict class: built faster than a slotted one (every turn
class Piece:                  # builds hundreds, twice: check and play)
    uid: int
    type: str
    owner: str
    _space: str                       # ``space``: where it is
    _carried_by: int | None = None    # ``carried_by``: uid of the transport/carrier it is aboard
    moves_used: int = 0               # movement points spent this turn (air: combat + noncombat)
    moved_in: set = attrs.field(factory=set)   # phases in which it moved ("combat", "noncombat")
    loaded_in: str | None = None      # phase in which it was loaded this turn (cargo)
    unloaded: bool = False            # transport: unloaded this turn, cannot move again
    unloaded_to: str | None = None    # transport: the one territory it unloaded into
    came_from: str | None = None      # space it entered its combat destination from
    order_line: int = 0               # line of the last order that moved, loaded or unloaded it
    start_space: str = ""
    damage: int = 0                   # persistent damage (e.g. a factory's bombing damage)
    captured: bool = False            # changed owner with its territory this turn
    flags: frozenset = frozenset()    # persistent marks (``Unit.flags``): set through the board
    # Per-turn marks, each named and set by the mechanic it belongs to (``battles.FOUGHT``,
    # ``battles.LAUNCHED``, ``battles.RETREATED``, ``battles.SEABORNE``, ``raids.RAIDING``):
    # gone with the turn, never a new field here.
    marks: set = attrs.field(factory=set)
    # A weak reference to its board: no reference cycle, so a board and its pieces are freed
    # as soon as a turn is done with them, not by the cyclic garbage collector (which cost a
    # quarter of ``pbem verify``'s time when every turn left two boards behind).
    _board: "weakref.ref[WorkingBoard] | None" = attrs.field(default=None, eq=False, repr=False)
    # The state's unit a piece of the starting position was made from (``to_units``).
    _unit: Unit | None = attrs.field(default=None, eq=False, repr=False)

    # Moving a piece (setting ``space`` or ``carried_by``) keeps its board's indexes right.
    @property
    def space(self) -> str:
        return self._space

    @space.setter
    def space(self, value: str) -> None:
        if self._board is not None and value != self._space:
            board = self._board()
            if board is not None:
                board._moved(self, value, self._carried_by)
        self._space = value

    @property
    def carried_by(self) -> int | None:
        return self._carried_by

    @carried_by.setter
    def carried_by(self, value: int | None) -> None:
        if self._board is not None and value != self._carried_by:
            board = self._board()
            if board is not None:
                board._moved(self, self._space, value)
        self._carried_by = value


# The defaults of ``Piece`` that are not made per piece, as class attributes too: the pieces
# of the starting position (``_new_piece``) store only what differs from them.
_SHARED_DEFAULTS = {f.name: f.default for f in attrs.fields(Piece)
                    if not isinstance(f.default, attrs.Factory) and f.default is not attrs.NOTHING}
for _name, _value in _SHARED_DEFAULTS.items():
    setattr(Piece, _name, _value)
_new = object.__new__


def _new_piece(uid: int, type_: str, owner: str, space: str, carried_by: int | None,
               damage: int, flags, board, unit: Unit | None = None) -> Piece:
    """``Piece(uid, type_, owner, space, carried_by, start_space=space, damage=damage,
    flags=flags, board=board)``, at a third of the cost (a board is built for every turn
    checked or played): unset fields read the class's defaults."""
    piece = _new(Piece)
    piece.uid, piece.type, piece.owner = uid, type_, owner
    piece._space = piece.start_space = space
    piece.moved_in = set()
    piece.marks = set()
    piece._board = board
    piece._unit = unit
    if carried_by is not None:
        piece._carried_by = carried_by
    if damage:
        piece.damage = damage
    if flags:
        piece.flags = frozenset(flags)
    return piece


class WorkingBoard:
    """Pieces by id, territory control, and the snapshot taken at the start of the turn.

    Pieces are also indexed by space (all of them, and those not aboard anything) and by
    carrier, kept up to date as pieces move (``Piece.space`` / ``carried_by`` assignments) or
    are removed, so that a query costs what is in one space, not what is on the board.
    Queries list pieces in id order, as a scan of ``pieces`` would."""

    def __init__(self, game: Game, state: GameState):
        self.game = game
        self.rules = game.ruleset
        self.map = game.map
        self.power = state.power
        self.round = state.round                  # the game round being played
        self.owners: dict[str, str] = dict(state.owners)
        self.start_owners: dict[str, str] = dict(state.owners)
        self.ipcs: dict[str, int] = dict(state.ipcs)
        self.relations: dict[str, str] = dict(state.relations)
        self.extras: dict = dict(state.extras)    # written through ``write_state`` only
        self._owned_types: dict[tuple[str, str], UnitType] = {}   # (type, owner) -> with its technologies
        self.pieces: dict[int, Piece] = {}
        self._in_space: dict[str, dict[int, Piece]] = {}      # every piece, cargo too
        self._on_board: dict[str, dict[int, Piece]] = {}      # pieces not aboard anything
        self._aboard: dict[int, dict[int, Piece]] = {}        # carrier uid -> its cargo
        self._next_uid = 1
        self._types_with: dict[str, frozenset[str]] = {}
        self._types_of_domain: dict[object, frozenset[str]] = {}
        self._ref = weakref.ref(self)
        # unit type -> count named by the move order being checked (``movement.do_move``):
        # abilities that pair units moving together read it (``blitz_with``)
        self.moving_together: dict[str, int] = {}
        # The spaces a piece entered or left (moved, aboard or ashore, added, removed): the
        # others keep their starting units unless a piece changed (``to_units``).
        self._touched: set[str] = set()
        self._start_units: dict[str, tuple[Unit, ...]] = dict(state.units)
        self._add_start(state)

    # -- construction ---------------------------------------------------------------------
    def _add_start(self, state: GameState) -> None:
        """The pieces of ``state``, numbered from 1 in the order of its spaces and units
        (what ``_add`` of each unit and its cargo gives, with the indexes filled in
        directly: this runs for every turn checked or played)."""
        uid = self._next_uid
        pieces, aboard, ref = self.pieces, self._aboard, self._ref
        for space in sorted(state.units):
            units = state.units[space]
            if not units:
                continue
            in_space = self._in_space.setdefault(space, {})
            on_board = self._on_board.setdefault(space, {})
            for unit in units:
                if unit.damage or unit.flags:
                    piece = _new_piece(uid, unit.type, unit.owner, space, None, unit.damage,
                                       unit.flags, ref, unit)
                else:                   # most pieces: what _new_piece does, written here
                    piece = _new(Piece)
                    piece.uid, piece.type, piece.owner = uid, unit.type, unit.owner
                    piece._space = piece.start_space = space
                    piece.moved_in = set()
                    piece.marks = set()
                    piece._board = ref
                    piece._unit = unit
                pieces[uid] = in_space[uid] = on_board[uid] = piece
                parent = uid
                uid += 1
                if unit.cargo:
                    cargo_of = aboard.setdefault(parent, {})
                    for cargo in unit.cargo:
                        piece = _new_piece(uid, cargo.type, cargo.owner, space, parent,
                                           cargo.damage, cargo.flags, ref, cargo)
                        pieces[uid] = in_space[uid] = cargo_of[uid] = piece
                        uid += 1
        self._next_uid = uid

    def _add(self, type_: str, owner: str, space: str, carried_by: int | None = None,
             damage: int = 0) -> Piece:
        piece = Piece(uid=self._next_uid, type=type_, owner=owner, space=space,
                      carried_by=carried_by, start_space=space, damage=damage)
        self.pieces[piece.uid] = piece
        self._index(piece, piece.space, piece.carried_by)
        piece._board = self._ref
        self._next_uid += 1
        return piece

    def _index(self, piece: Piece, space: str, carried_by: int | None) -> None:
        self._touched.add(space)
        self._in_space.setdefault(space, {})[piece.uid] = piece
        if carried_by is None:
            self._on_board.setdefault(space, {})[piece.uid] = piece
        else:
            self._aboard.setdefault(carried_by, {})[piece.uid] = piece

    def _unindex(self, piece: Piece) -> None:
        self._touched.add(piece.space)
        self._in_space.get(piece.space, {}).pop(piece.uid, None)
        if piece.carried_by is None:
            self._on_board.get(piece.space, {}).pop(piece.uid, None)
        else:
            self._aboard.get(piece.carried_by, {}).pop(piece.uid, None)

    def _moved(self, piece: Piece, space: str, carried_by: int | None) -> None:
        """``piece`` is about to be in ``space`` aboard ``carried_by`` (called by ``Piece``)."""
        if self.pieces.get(piece.uid) is not piece:
            return
        self._unindex(piece)
        self._index(piece, space, carried_by)

    def add_new(self, type_: str, owner: str, space: str) -> Piece:
        return self._add(type_, owner, space)

    def to_units(self) -> dict[str, tuple[Unit, ...]]:
        """Pieces back into per-space unit tuples (cargo nested), in a canonical order.

        A space no piece entered or left, whose pieces are unchanged, keeps the state's
        tuple when that tuple is one this method made (so in canonical order): a turn
        rebuilds only the spaces it touched."""
        units: dict[str, tuple[Unit, ...]] = {}
        rebuild: list[str] = []
        touched, in_space = self._touched, self._in_space
        for space, start in self._start_units.items():
            if space in touched or _CANONICAL.get(id(start)) is not start:
                rebuild.append(space)
                continue
            for piece in in_space.get(space, {}).values():
                unit = piece._unit
                if (piece.type is not unit.type or piece.owner is not unit.owner
                        or piece.damage != unit.damage or piece.flags or unit.flags):
                    rebuild.append(space)
                    break
            else:
                if start:
                    units[space] = start
        rebuild.extend(touched.difference(self._start_units))
        for space, made in self._units_at(rebuild).items():
            units[space] = made
        if len(_CANONICAL) > _MAX_CANONICAL:
            _CANONICAL.clear()
        for made in units.values():
            _CANONICAL[id(made)] = made
        return dict(sorted(units.items()))

    def _units_at(self, spaces: Iterable[str]) -> dict[str, tuple[Unit, ...]]:
        """The canonical unit tuples of ``spaces`` (those with a piece)."""
        aboard, on_board = self._aboard, self._on_board
        plain: dict[tuple, Unit] = {}             # units are frozen: equal ones are shared
        out: dict[str, tuple[Unit, ...]] = {}
        for space in spaces:
            here = on_board.get(space)
            if not here:
                continue
            units: list[Unit] = []
            for piece in sorted(here.values(), key=_uid):     # in id order
                found = aboard.get(piece.uid)
                if found:
                    # cargo units that sort alike are equal: their order among themselves is moot
                    cargo = tuple(sorted([Unit(c.type, c.owner, (), c.damage, tuple(sorted(c.flags)))
                                          for c in found.values()], key=_cargo_key))
                    units.append(Unit(piece.type, piece.owner, cargo, piece.damage,
                                      tuple(sorted(piece.flags))))
                    continue
                key = (piece.type, piece.owner, piece.damage, piece.flags)
                unit = plain.get(key)
                if unit is None:
                    unit = plain[key] = Unit(piece.type, piece.owner, (), piece.damage,
                                             tuple(sorted(piece.flags)))
                units.append(unit)
            out[space] = tuple(sorted(units, key=_unit_key))
        return out

    # -- queries --------------------------------------------------------------------------
    def types_with(self, ability: str) -> frozenset[str]:
        """The keys of the unit types with ``ability`` (a cheap test for scans of every
        piece: ``piece.type in board.types_with(...)``)."""
        found = self._types_with.get(ability)
        if found is None:
            found = self._types_with[ability] = frozenset(
                k for k, u in self.rules.units.items() if u.has(ability))
        return found

    def types_of_domain(self, domain) -> frozenset[str]:
        """The keys of the unit types of ``domain``."""
        found = self._types_of_domain.get(domain)
        if found is None:
            found = self._types_of_domain[domain] = frozenset(
                k for k, u in self.rules.units.items() if u.domain == domain)
        return found

    def spaces_of(self, power: str) -> set[str]:
        """The spaces where ``power`` has a piece that is not aboard anything."""
        return {p._space for p in self.pieces.values()
                if p.owner == power and p._carried_by is None}

    def utype(self, piece: Piece | str) -> UnitType:
        """A unit's type; for a piece, as its owner has it (the technologies it holds:
        ``engine.technology``)."""
        if isinstance(piece, str):
            return self.rules.units[piece]
        ut = self.rules.units[piece.type]
        if ut.technologies and self.extras.get(TECHNOLOGIES):
            key = (piece.type, piece.owner)
            found = self._owned_types.get(key)
            if found is None:
                held = tuple(self.extras[TECHNOLOGIES].get(piece.owner, ()))
                found = self._owned_types[key] = effective_type(ut, held)
            return found
        return ut

    def at(self, space: str, include_cargo: bool = False) -> list[Piece]:
        found = (self._in_space if include_cargo else self._on_board).get(space)
        return sorted(found.values(), key=_uid) if found else []

    def on_board(self, space: str) -> Iterable[Piece]:
        """The pieces in ``space`` that are not aboard anything, in no particular order (a
        cheaper ``at`` for a test of each piece)."""
        found = self._on_board.get(space)
        return found.values() if found else ()

    def cargo_of(self, carrier: Piece) -> list[Piece]:
        found = self._aboard.get(carrier.uid)
        return sorted(found.values(), key=_uid) if found else []

    def allied(self, a: str | None, b: str | None) -> bool:
        """Allied now (the relations in the state override the sides)."""
        return self.rules.relation(a, b, self.relations) == ALLIED

    def shares(self, owner: str | None, power: str) -> bool:
        """Whether ``power``'s units may ride on ``owner``'s transports and carriers: its
        own, or an ally's while both are at war (Global 1940 [L680, L1067, L1518]: a power
        at war with no one shares no ship; in editions where everyone is at war, any
        ally's)."""
        if owner == power:
            return True
        return (self.allied(owner, power) and self.at_war_with_anyone(owner)
                and self.at_war_with_anyone(power))

    def at_war_with_anyone(self, power: str | None) -> bool:
        """Whether the playing power ``power`` is at war with another power."""
        rules = self.rules
        return power in rules.powers and any(
            rules.relation(power, other, self.relations) == WAR
            for other in rules.powers if other != power)

    def enemy_of(self, power: str, other: str | None) -> bool:
        """Whether ``power`` treats ``other``'s units and land as hostile: every owner it is
        not allied with, except a playing power it is not at war with (relation ``neutral``
        between two powers: Global 1940's USA at the start), whose units it ignores and
        whose land it may not attack.  An owner that does not play and is not allied (a
        neutral territory) stays an enemy: it is attacked, never declared war on."""
        if other is None:
            return False
        relation = self.rules.relation(power, other, self.relations)
        if relation == NEUTRAL:
            powers = self.rules.powers
            return not (power in powers and other in powers)
        return relation != ALLIED

    def set_relation(self, a: str, b: str, relation: str) -> None:
        """The one door for changing the relation between two owners (``ALLIED``, ``WAR``
        or ``NEUTRAL``), kept in ``GameState.relations`` (a declaration of war, a neutral
        turning to a side)."""
        if relation not in (ALLIED, WAR, NEUTRAL) or a == b:
            raise ValueError(f"bad relation {relation!r} between {a!r} and {b!r}")
        self.relations["|".join(sorted((a, b)))] = relation

    def enemies_at(self, space: str, power: str | None = None) -> list[Piece]:
        power = power or self.power
        return [p for p in self.at(space) if self.enemy_of(power, p.owner)]

    def is_enemy_territory(self, space: str, power: str | None = None) -> bool:
        power = power or self.power
        t = self.map[space]
        return t.is_land and not t.impassable and self.enemy_of(power, self.owners.get(space))

    def is_friendly_territory(self, space: str, power: str | None = None) -> bool:
        power = power or self.power
        t = self.map[space]
        return t.is_land and self.allied(power, self.owners.get(space))

    def was_friendly_at_start(self, space: str, power: str | None = None) -> bool:
        power = power or self.power
        return self.map[space].is_land and self.allied(power, self.start_owners.get(space))

    def hostile_zone(self, zone: str, power: str | None = None) -> bool:
        """A sea zone is hostile if it holds enemy ``surface_warship`` units (subs and
        transports are ignored for this test, digest §3.4)."""
        return any(self.utype(p).has("surface_warship") for p in self.enemies_at(zone, power))

    def enemy_anti_sub_at(self, zone: str, power: str | None = None) -> bool:
        return any(self.utype(p).has("anti_sub") for p in self.enemies_at(zone, power))

    def factories_at(self, space: str) -> list[Piece]:
        """The units with the ``factory`` ability in ``space``."""
        return [p for p in self.at(space) if self.utype(p).has("factory")]

    def free_slots(self, carrier: Piece) -> tuple[int, int | None]:
        """(free slots, free large slots or None) aboard a transport or carrier."""
        rule = self.utype(carrier).cargo
        if rule is None:
            return 0, 0
        cargo = self.cargo_of(carrier)
        free = rule.slots - sum(rule.size(self.utype(c)) for c in cargo)
        if rule.large_slots is None:
            return free, None
        large = sum(1 for c in cargo if self.utype(c).cargo_size == "large")
        return free, rule.large_slots - large

    def can_carry(self, carrier: Piece, cargo: Piece | str) -> bool:
        """Whether ``carrier`` has room for ``cargo`` (a piece or a unit type key)."""
        rule = self.utype(carrier).cargo
        ctype = self.utype(cargo)
        if rule is None or ctype.domain != rule.domain:
            return False
        if carrier.damage and ctype.domain == Domain.AIR:
            return False        # a damaged carrier lands no aircraft (Global 1940 [L1540])
        if (rule.only_types and ctype.key not in rule.only_types) or ctype.key in rule.except_types:
            return False
        free, large_free = self.free_slots(carrier)
        if free < rule.size(ctype):
            return False
        if ctype.cargo_size == "large" and large_free is not None and large_free <= 0:
            return False
        return True

    def controls_all(self, side_of_power: str, territories: Iterable[str], at_start: bool = True) -> bool:
        owners = self.start_owners if at_start else self.owners
        return all(self.allied(side_of_power, owners.get(t)) for t in territories)

    def capital_held_by_owner(self, power: str) -> bool:
        capital = self.rules.powers[power].capital
        return self.owners.get(capital) == power

    # -- state an edition writes (the one door) ---------------------------------------------
    def set_flag(self, piece: Piece, flag: str, on: bool = True) -> None:
        """Set (or clear) a persistent mark on ``piece``, kept in the state between turns
        (``Unit.flags``).  ``flag`` must be declared by a rule (``turn_rules.declare_flag``)."""
        from .turn_rules import declared_flag
        declared_flag(flag)
        piece.flags = piece.flags | {flag} if on else piece.flags - {flag}

    def write_state(self, key: str, value, power: str | None = None) -> None:
        """Write an edition's persistent value under ``key`` (for ``power``, when given),
        kept in ``GameState.extras``, encoded in the turn file and covered by its hashes.
        ``key`` must be declared (``turn_rules.declare_state``) with the value's type."""
        from .turn_rules import checked_state
        checked_state(key, value, power)
        if key == TECHNOLOGIES:
            self._owned_types = {}
        if power is None:
            self.extras[key] = value
        else:
            per_power = dict(self.extras.get(key, {}))
            per_power[power] = value
            self.extras[key] = dict(sorted(per_power.items()))

    def read_state(self, key: str, power: str | None = None, default=None):
        """What ``write_state`` wrote (this turn or before), or ``default``."""
        found = self.extras.get(key, default if power is None else {})
        return found if power is None else found.get(power, default)

    def remove(self, piece: Piece) -> list[Piece]:
        """Remove a piece and its cargo; returns everything removed."""
        gone = [piece] + self.cargo_of(piece)
        for p in gone:
            if self.pieces.get(p.uid) is p:
                self._unindex(p)
                del self.pieces[p.uid]
                p._board = None
        return gone


# id -> a unit tuple ``to_units`` made (kept, so the id stays its own): a state's tuple found
# here is in canonical order, and a space of a new board left as it was keeps it
_CANONICAL: dict[int, tuple[Unit, ...]] = {}
_MAX_CANONICAL = 20_000


def _uid(piece: Piece) -> int:
    return piece.uid


def _cargo_key(unit: Unit) -> tuple:
    return unit.owner, unit.type, unit.damage, unit.flags


def _unit_key(unit: Unit) -> tuple:
    cargo = unit.cargo
    return (unit.owner, unit.type, unit.damage, len(cargo),
            tuple([(c.owner, c.type) for c in cargo]) if cargo else (), unit.flags)


def count_types(pieces: Iterable[Piece]) -> dict[str, int]:
    """``{unit type: count}`` in a stable order."""
    counts = Counter(p.type for p in pieces)
    return dict(sorted(counts.items()))


