"""Load an edition's data (``maps/<edition>/*.toml``) into a :class:`Game`, and build its
starting :class:`GameState`.

A folder holds ``game.toml`` (powers, turn order, the turn plan, victory, options, rulings),
``units.toml``, ``map.toml`` and ``setup.toml``.  Every file is checked; all problems found are
reported together in one :class:`DataError`, each naming its file and entry.

This module reads and checks the *shape* of the data.  Whether the abilities, turn steps
and battle steps it names exist, and the abilities' parameters, is checked against the
engine's registries by ``editions.prepare`` (``service.games.load_game`` does both).

Unit abilities are written as a list of names or single-key tables with parameters:
``abilities = ["blitz", { support = { targets = ["infantry"], attack = 1 } }]``.  A unit may
have ``[unit.profiles.<name>]`` tables overriding its numbers; the option ``unit_stats``
selects a profile.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path
from typing import Any

import attrs

from . import tomlcache
from ..model.board import Canal, GameMap, Territory
from ..model.errors import DataError
from ..model.game import Game, SetupEntry
from .geometry import with_geometry
from .paths import GRAMMAR_DIR, MAPS_DIR
from ..model.conditions import Objective, VictoryRule
from ..model.rules import (ALLIED, ENGINE_OPTIONS, NEUTRAL, WAR, CargoRule, Domain, Economy,
                           Nation, Power, Ruleset, TurnPlan, UnitType)
from ..model.state import GameState, Unit

DATA_FILES = ("game.toml", "units.toml", "map.toml", "setup.toml", "aliases.toml")
# Data files a game folder may leave out (read as empty): aliases.toml, the words players
# use for units and spaces beyond the names and aliases of units.toml and map.toml.
MAY_BE_MISSING = ("aliases.toml",)
OPTIONAL_FILES = ("geometry.toml",)
# Rules files of an edition's own that the rules hash covers when the folder has them
# (Taktyczne Starcie's battle board, read into ``Game.tables`` by ``service.games``).
HASHED_IF_PRESENT = ("board.toml",)
PROFILE_FIELDS = ("cost", "attack", "defense", "move")
DEFAULT_LOSSES = ("cheapest", "weakest")   # the default_losses option (a defender's default)
MAX_NUMBER = 10_000         # bound on every number in the data (costs, values, counts)


# --------------------------------------------------------------------------- public API

def game_dir(name_or_path: str | Path) -> Path:
    """The folder of a game: a path to an existing folder, or a name under ``MAPS_DIR``."""
    bare = isinstance(name_or_path, str) and not any(c in name_or_path for c in "/\\")
    if bare and (MAPS_DIR / name_or_path).is_dir():
        return (MAPS_DIR / name_or_path).resolve()
    if Path(name_or_path).is_dir():
        return Path(name_or_path).resolve()
    if bare:
        known = sorted(p.name for p in MAPS_DIR.iterdir() if p.is_dir()) if MAPS_DIR.is_dir() else []
        raise DataError(f"unknown game '{name_or_path}' (known: {', '.join(known) or 'none'})")
    raise DataError(f"game folder not found: {name_or_path}")


def content_hash(directory: str | Path) -> str:
    """``sha256:<hex>`` over the rules' data files (``DATA_FILES``) of a game folder, in name
    order, each preceded by its name and byte length, then the same way the grammar files
    of the order language the edition reads: ``grammar/core.lark`` and the file of each
    order kind its game.toml ``[turn] orders`` lists (every file when it lists none).  So
    the rules hash changes when that edition's language does, and a kind another edition
    adds never changes it.  Presentation files (the board's ``geometry.toml``) and the rules
    cases are not hashed: redrawing the board never invalidates a game."""
    digest = hashlib.sha256()
    for path in sorted((p for p in Path(directory).glob("*.toml")
                        if p.name in DATA_FILES or p.name in HASHED_IF_PRESENT),
                       key=lambda p: p.name):
        data = path.read_bytes()
        digest.update(f"{path.name}\n{len(data)}\n".encode("utf-8"))
        digest.update(data)
    kinds = _listed_order_kinds(Path(directory))
    for path in sorted(p for p in GRAMMAR_DIR.rglob("*.lark") if p.is_file()):
        name = path.relative_to(GRAMMAR_DIR).as_posix()
        if kinds is not None and path.parent != GRAMMAR_DIR and path.stem not in kinds:
            continue
        data = path.read_bytes()
        digest.update(f"grammar/{name}\n{len(data)}\n".encode("utf-8"))
        digest.update(data)
    return "sha256:" + digest.hexdigest()


def _listed_order_kinds(directory: Path) -> frozenset[str] | None:
    """game.toml's ``[turn] orders``, or None when it lists none or cannot be read (the
    loader reports a broken game.toml)."""
    try:
        doc = tomlcache.loads((directory / "game.toml").read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    turn = doc.get("turn")
    listed = turn.get("orders") if isinstance(turn, dict) else None
    if not isinstance(listed, list) or not listed or not all(isinstance(k, str) for k in listed):
        return None
    return frozenset(listed)


def load_game(name_or_path: str | Path,
              options: dict[str, bool | int | str] | None = None) -> Game:
    """Read and validate a game folder.  ``options`` overrides ``[options]`` of game.toml
    (e.g. ``{"turkish_straits": False}``); the closed straits and the victory rules follow the
    resulting options."""
    directory = game_dir(name_or_path)
    docs = _read_docs(directory)
    return with_geometry(_Builder(docs, options or {}).build(directory), directory)


def read_map(doc: dict[str, Any], where: str = "map.toml") -> GameMap:
    """A ``GameMap`` from one parsed map document in the format of ``map.toml`` (its
    ``territories`` and ``connections``), checked as ``load_game`` checks it; every problem
    is reported together in one :class:`DataError` naming ``where``."""
    builder = _Builder({"map.toml": doc}, {})
    game_map = builder.game_map(builder.territories(), {})
    if builder.problems:
        raise DataError(_report(Path(where), builder.problems))
    return game_map


def initial_state(game: Game, game_id: str) -> GameState:
    """The state before the first turn: round 1 (round 0 when the edition has a pre-game
    round, ``[turn] pregame``), first power in turn order to play, original owners,
    starting IPCs, setup units (fighters at sea go aboard their power's carriers)."""
    rules, gmap = game.ruleset, game.map
    owners = {t.key: t.original_owner for t in gmap.territories.values() if t.original_owner}
    units: dict[str, list[Unit]] = {}
    for entry in game.setup:
        units.setdefault(entry.space, []).extend(
            _place(entry, rules, gmap[entry.space].is_sea))
    return GameState(
        game_id=game_id,
        map_id=gmap.map_id,
        round=0 if rules.plan.pregame else 1,
        power=rules.turn_order[0],
        owners=owners,
        units={space: tuple(us) for space, us in units.items() if us},
        ipcs={e.key: (p.starting_ipcs if i == 0 else e.starting_ipcs)
              for p in rules.powers.values() for i, e in enumerate(p.all_economies)},
        turn_number=1,
        relations=dict(rules.starting_relations),
    )


# --------------------------------------------------------------------------- placing units

def _carry_capacity(carrier: UnitType, passenger: UnitType) -> int:
    cargo = carrier.cargo
    if cargo is None or cargo.domain != passenger.domain:
        return 0
    if cargo.only_types and passenger.key not in cargo.only_types:
        return 0
    return cargo.slots


def _place(entry: SetupEntry, rules: Ruleset, at_sea: bool) -> list[Unit]:
    """Units of one setup entry; at sea, air units are loaded onto the power's carriers."""
    order = list(rules.units)
    counts = sorted(entry.units.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 99)
    pieces: list[tuple[UnitType, list[Unit]]] = []
    passengers: list[UnitType] = []
    for key, n in counts:
        utype = rules.units[key]
        if at_sea and utype.domain == Domain.AIR:
            passengers.extend([utype] * n)
        else:
            pieces.extend((utype, []) for _ in range(n))
    for passenger in passengers:
        for carrier, aboard in pieces:
            if len(aboard) < _carry_capacity(carrier, passenger):
                aboard.append(Unit(passenger.key, entry.power))
                break
        else:
            raise DataError(f"setup: no room for {entry.power} {passenger.key} in {entry.space}")
    return [Unit(u.key, entry.power, tuple(aboard)) for u, aboard in pieces]


# --------------------------------------------------------------------------- reading files

def _read_docs(directory: Path) -> dict[str, dict]:
    docs, problems = {}, []
    for name in DATA_FILES:
        path = directory / name
        try:
            docs[name] = tomlcache.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            if name in MAY_BE_MISSING:
                docs[name] = {}
            else:
                problems.append(f"{name}: file missing")
        except ValueError as exc:       # tomllib.TOMLDecodeError or UnicodeDecodeError
            problems.append(f"{name}: not valid TOML: {exc}")
    if problems:
        raise DataError(_report(directory, problems))
    return docs


def _report(directory: Path, problems: list[str]) -> str:
    head = f"{len(problems)} problem{'s' if len(problems) != 1 else ''} in game data {directory}:"
    return "\n".join([head, *(f"  - {p}" for p in problems)])


def _fold(name: str) -> str:
    return " ".join(name.split()).casefold()


class _Builder:
    """Converts the four parsed documents into attrs objects, collecting every problem."""

    def __init__(self, docs: dict[str, dict], option_overrides: dict):
        self.docs = docs
        self.overrides = option_overrides
        self.problems: list[str] = []
        self._words: dict[str, str] = {}     # folded territory name/alias -> territory

    # helpers -------------------------------------------------------------
    def err(self, file: str, entry: str, message: str) -> None:
        self.problems.append(f"{file}: {entry}: {message}")

    def field(self, file: str, entry: str, table: Any, name: str, kind, default=...):
        """``table[name]`` checked against ``kind``; records a problem and returns None."""
        if not isinstance(table, dict):
            self.err(file, entry, "must be a table")
            return None
        if name not in table:
            if default is ...:
                self.err(file, entry, f"missing '{name}'")
                return None
            return default
        value = table[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            self.err(file, entry, f"'{name}' must be {kind.__name__}, not {value!r}")
            return None
        return value

    def str_list(self, file: str, entry: str, table: dict, name: str) -> tuple[str, ...]:
        value = self.field(file, entry, table, name, list, [])
        if value is None:
            return ()
        if not all(isinstance(v, str) for v in value):
            self.err(file, entry, f"'{name}' must be a list of strings")
            return ()
        return tuple(value)

    def entries(self, file: str, key: str) -> list:
        value = self.docs[file].get(key, [])
        if not isinstance(value, list):
            self.err(file, key, "must be an array")
            return []
        return value

    # build ---------------------------------------------------------------
    def build(self, directory: Path) -> Game:
        options = self.options()
        units = self.units(options)
        territories = self.territories()
        units, territories = self.player_words(units, territories)
        game_map = self.game_map(territories, options)
        if "tangents" in self.docs["map.toml"]:
            game_map = attrs.evolve(game_map, tangents=self.tangents(game_map))
        nations = self.nations()
        powers = self.playing(self.powers(territories, nations), options)
        ruleset = attrs.evolve(self.ruleset(units, powers, territories, options), nations=nations,
                               starting_relations=self.relations({**powers, **nations}),
                               objectives=self.objectives(powers))
        setup = self.setup(units, {**powers, **nations}, territories)
        if self.problems:
            raise DataError(_report(directory, self.problems))
        return Game(ruleset=ruleset, map=game_map, setup=setup,
                    content_hash=content_hash(directory), source_dir=str(directory))

    # aliases.toml --------------------------------------------------------
    def player_words(self, units: dict[str, UnitType], territories: dict[str, Territory]
                     ) -> tuple[dict[str, UnitType], dict[str, Territory]]:
        """Units and territories with the spellings of aliases.toml added to their aliases:
        ``[units] <unit key> = [...]`` and ``[spaces] "<territory or sea zone>" = [...]``.
        A spelling that is already another unit's (or space's) name is refused."""
        f = "aliases.toml"
        doc = self.docs.get(f, {})
        for section in doc:
            if section not in ("units", "spaces"):
                self.err(f, section, "unknown table (expected [units] and [spaces])")
        units, territories = dict(units), dict(territories)
        for section, things in (("units", units), ("spaces", territories)):
            table = doc.get(section, {})
            if not isinstance(table, dict):
                self.err(f, section, "must be a table")
                continue
            taken: dict[str, str] = {}
            for key, thing in things.items():
                for word in (key, getattr(thing, "name", key), *thing.aliases):
                    taken.setdefault(_fold(word), key)
            for key in table:
                spellings = self.str_list(f, f"{section}.{key}", table, key)
                if key not in things:
                    self.err(f, f"{section}.{key}", f"no such {section[:-1]}")
                    continue
                added = []
                for word in spellings:
                    other = taken.setdefault(_fold(word), key)
                    if other != key:
                        self.err(f, f"{section}.{key}", f"'{word}' is already a name of '{other}'")
                    elif word not in things[key].aliases:
                        added.append(word)
                things[key] = attrs.evolve(things[key], aliases=(*things[key].aliases, *added))
        return units, territories

    # units.toml ----------------------------------------------------------
    def units(self, options: dict) -> dict[str, UnitType]:
        f = "units.toml"
        units: dict[str, UnitType] = {}
        names: dict[str, str] = {}
        pending_only: list[tuple[str, tuple[str, ...]]] = []
        profile = self.profile_name(options)
        for i, raw in enumerate(self.unit_entries()):
            key = self.field(f, f"unit[{i}]", raw, "key", str)
            if key is None:
                continue
            e = f"unit '{key}'"
            if key in units:
                self.err(f, e, "defined twice")
                continue
            domain = self._enum(f, e, Domain, self.field(f, e, raw, "domain", str), "domain")
            abilities, params = self._abilities(f, e, raw.get("abilities", []))
            nums = {n: self.field(f, e, raw, n, int) for n in PROFILE_FIELDS}
            nums.update(self._profile(f, e, raw, profile))
            for n, v in nums.items():
                if v is not None and not 0 <= v <= MAX_NUMBER:
                    self.err(f, e, f"'{n}' must be between 0 and {MAX_NUMBER}")
            cargo = self._cargo(f, e, raw.get("cargo") if isinstance(raw, dict) else None)
            if cargo is not None and cargo.only_types:
                pending_only.append((key, cargo.only_types))
            for need, dom in (("carries_land", Domain.LAND), ("carries_air", Domain.AIR)):
                if (need in abilities) != (cargo is not None and cargo.domain == dom):
                    self.err(f, e, f"ability '{need}' needs a cargo rule of domain '{dom.value}', "
                                   "and such a cargo rule needs the ability")
            size = self.field(f, e, raw, "cargo_size", str, "small")
            if size not in ("small", "large", None):
                self.err(f, e, f"cargo_size must be 'small' or 'large', not '{size}'")
            name = self.field(f, e, raw, "name", str, key.capitalize()) or key
            aliases = self.str_list(f, e, raw, "aliases")
            for word in dict.fromkeys(map(_fold, (key, name, *aliases))):
                if names.get(word, key) != key:
                    self.err(f, e, f"name or alias '{word}' is also used by unit '{names[word]}'")
                names.setdefault(word, key)
            buyable = self.field(f, e, raw, "buyable", bool, True)
            technologies = self._technologies(f, e, raw.get("technologies", {}))
            if domain is None or None in nums.values():
                continue
            units[key] = UnitType(
                key=key, name=name, domain=domain, abilities=frozenset(abilities),
                aliases=aliases, cargo=cargo, cargo_size=size or "small",
                plural=self.field(f, e, raw, "plural", str, "") or "",
                buyable=bool(buyable), params=params, technologies=technologies, **nums)
        for key, only in pending_only:
            for t in only:
                if t not in units:
                    self.err(f, f"unit '{key}'", f"cargo only_types names unknown unit '{t}'")
        if not units and not any(p.startswith(f) for p in self.problems):
            self.err(f, "unit", "no unit types defined")
        return units

    def unit_entries(self) -> list:
        """units.toml's ``[[unit]]`` entries; ``[unit.<key>]`` tables (Taktyczne Starcie's
        cost table, which carries each cost's source) are read as entries with that key."""
        table = self.docs["units.toml"].get("unit", [])
        if isinstance(table, dict):
            return [{"key": key, **raw} if isinstance(raw, dict) else raw
                    for key, raw in table.items()]
        return self.entries("units.toml", "unit")

    def profiles(self) -> dict[str, str]:
        """The ``[profiles]`` units.toml describes: name -> description."""
        described = self.docs["units.toml"].get("profiles", {})
        if not isinstance(described, dict) or not all(isinstance(v, str) for v in described.values()):
            return {}
        return dict(described)

    def profile_name(self, options: dict) -> str | None:
        """The stat profile in force: the ``unit_stats`` option, else ``default_profile``;
        it must be one of the ``[profiles]`` units.toml describes."""
        f = "units.toml"
        doc = self.docs[f]
        described = doc.get("profiles", {})
        if not isinstance(described, dict):
            self.err(f, "profiles", "must be a table of profile name = description")
            described = {}
        chosen = options.get("unit_stats", doc.get("default_profile"))
        if chosen is not None and chosen not in described:
            self.err(f, "profiles", f"unit_stats '{chosen}' is not a profile "
                                    f"(known: {', '.join(sorted(described)) or 'none'})")
        return chosen

    def _abilities(self, f, e, raw) -> tuple[list[str], dict]:
        """Ability names and their raw parameters (lists become tuples)."""
        names: list[str] = []
        params: dict[str, dict] = {}
        if not isinstance(raw, list):
            self.err(f, e, "'abilities' must be a list")
            return names, params
        for item in raw:
            if isinstance(item, str):
                name, values = item, {}
            elif isinstance(item, dict) and len(item) == 1:
                name, values = next(iter(item.items()))
                if not isinstance(values, dict):
                    self.err(f, e, f"ability '{name}': parameters must be a table")
                    continue
            else:
                self.err(f, e, f"an ability is a name or a one-key table, not {item!r}")
                continue
            if name in params:
                self.err(f, e, f"ability '{name}' listed twice")
                continue
            names.append(name)
            params[name] = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
        return names, params

    def _technologies(self, f, e, raw) -> dict:
        """``technologies = { jet_fighters = { attack = 4 }, radar = { abilities = [...] } }``:
        what each technology changes for an owner holding it (new numbers, abilities)."""
        out: dict[str, dict] = {}
        if not isinstance(raw, dict):
            self.err(f, e, "'technologies' must be a table")
            return out
        for tech, changes in raw.items():
            if not isinstance(changes, dict):
                self.err(f, e, f"technology '{tech}': must be a table")
                continue
            entry: dict = {}
            for name, value in changes.items():
                if name == "abilities":
                    names, params = self._abilities(f, f"{e} technology '{tech}'", value)
                    entry["abilities"] = {n: params[n] for n in names}
                elif name in ("attack", "defense", "cost", "move"):
                    if not isinstance(value, int) or isinstance(value, bool) \
                            or not 0 <= value <= MAX_NUMBER:
                        self.err(f, e, f"technology '{tech}': '{name}' must be between 0 and "
                                       f"{MAX_NUMBER}")
                        continue
                    entry[name] = value
                else:
                    self.err(f, e, f"technology '{tech}': unknown field '{name}' (known: "
                                   "abilities, attack, cost, defense, move)")
            out[tech] = entry
        return out

    def _profile(self, f, e, raw, profile) -> dict:
        """The numbers a unit's selected stat profile overrides."""
        profiles = raw.get("profiles", {}) if isinstance(raw, dict) else {}
        if not isinstance(profiles, dict):
            self.err(f, e, "'profiles' must be a table")
            return {}
        for pname, values in profiles.items():
            if not isinstance(values, dict) or set(values) - set(PROFILE_FIELDS):
                self.err(f, e, f"profile '{pname}' may set only {', '.join(PROFILE_FIELDS)}")
        chosen = profiles.get(profile) if profile else None
        if not isinstance(chosen, dict):
            return {}
        return {n: self.field(f, f"{e} profile '{profile}'", chosen, n, int)
                for n in PROFILE_FIELDS if n in chosen}

    def _enum(self, f, e, enum, value, what):
        if value is None:
            return None
        try:
            return enum(value)
        except ValueError:
            self.err(f, e, f"unknown {what} '{value}' (known: {', '.join(m.value for m in enum)})")
            return None

    def _cargo(self, f, e, raw) -> CargoRule | None:
        if raw is None:
            return None
        domain = self._enum(f, e, Domain, self.field(f, e + " cargo", raw, "domain", str), "cargo domain")
        slots = self.field(f, e + " cargo", raw, "slots", int)
        large = self.field(f, e + " cargo", raw, "large_slots", int, None)
        only = self.str_list(f, e + " cargo", raw, "only_types") if isinstance(raw, dict) else ()
        excluded = self.str_list(f, e + " cargo", raw, "except_types") if isinstance(raw, dict) else ()
        size = self.field(f, e + " cargo", raw, "large_size", int, 1) or 1
        if slots is not None and slots < 1:
            self.err(f, e, "cargo slots must be at least 1")
        if slots is not None and not 1 <= size <= slots:
            self.err(f, e, "cargo large_size must be between 1 and slots")
        if domain is None or slots is None:
            return None
        return CargoRule(domain=domain, slots=slots, large_slots=large, only_types=only,
                         except_types=excluded, large_size=size)

    # map.toml: territories ----------------------------------------------
    def territories(self) -> dict[str, Territory]:
        f = "map.toml"
        result: dict[str, Territory] = {}
        words = self._words
        for i, raw in enumerate(self.entries(f, "territories")):
            name = self.field(f, f"territories[{i}]", raw, "name", str)
            if name is None:
                continue
            e = f"territory '{name}'"
            sea = self.field(f, e, raw, "sea", bool, False)
            ipc = self.field(f, e, raw, "ipc", int, 0)
            owner = self.field(f, e, raw, "owner", str, None)
            capital = self.field(f, e, raw, "capital", str, None)
            if isinstance(raw, dict) and "factory" in raw:
                self.err(f, e, "'factory' is not a map flag: factories are units "
                               "(put an industrial_complex in setup.toml)")
            city = self.field(f, e, raw, "victory_city", str, None)
            tags = self.str_list(f, e, raw, "tags")
            impassable = self.field(f, e, raw, "impassable", bool, False)
            island = self.field(f, e, raw, "island", bool, False)
            aliases = self.str_list(f, e, raw, "aliases")
            if name in result:
                self.err(f, e, "defined twice")
                continue
            for word in [name, *aliases]:
                other = words.get(_fold(word))
                if other is not None and other != name:
                    what = "name" if word == name else f"alias '{word}'"
                    self.err(f, e, f"{what} collides with the name or an alias of '{other}'")
                else:
                    words[_fold(word)] = name
            if sea and (capital or city or impassable or island):
                self.err(f, e, "a sea zone cannot have a capital, victory_city, impassable "
                               "or island (it may have an owner and an ipc value)")
            if ipc is not None and not 0 <= ipc <= MAX_NUMBER:
                self.err(f, e, f"ipc must be between 0 and {MAX_NUMBER}")
            if impassable and owner:
                self.err(f, e, "an impassable neutral cannot have an owner")
            result[name] = Territory(
                key=name, is_sea=bool(sea), ipc=ipc or 0, original_owner=owner,
                capital_of=capital, impassable=bool(impassable), island=bool(island),
                aliases=aliases, victory_city=city,
                tags=frozenset(tags) | ({"victory_cities"} if city else frozenset()))
        return result

    def known(self, f: str, e: str, territories: dict, name: Any, what: str = "territory") -> bool:
        if isinstance(name, str) and name in territories:
            return True
        hint = ""
        if isinstance(name, str) and _fold(name) in self._words:
            hint = f" (did you mean '{self._words[_fold(name)]}'?)"
        self.err(f, e, f"unknown {what} {name!r}{hint}")
        return False

    # map.toml: adjacency, canals, straits ------------------------------
    def game_map(self, territories: dict[str, Territory], options: dict) -> GameMap:
        f = "map.toml"
        adjacency: dict[str, set[str]] = {k: set() for k in territories}
        seen: dict[frozenset, int] = {}
        for i, pair in enumerate(self.entries(f, "connections")):
            e = f"connections[{i}] {pair!r}"
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
                self.err(f, e, "a connection must be a pair of territory names")
                continue
            a, b = pair
            known_a = self.known(f, e, territories, a)
            known_b = self.known(f, e, territories, b)
            if not (known_a and known_b):
                continue
            if a == b:
                self.err(f, e, "connects a territory to itself")
                continue
            key = frozenset(pair)
            if key in seen:
                self.err(f, e, f"listed twice (also connections[{seen[key]}])")
                continue
            seen[key] = i
            adjacency[a].add(b)
            adjacency[b].add(a)
        for name, t in territories.items():
            land_neighbours = [n for n in adjacency[name] if territories[n].is_land]
            if not adjacency[name]:
                self.err(f, f"territory '{name}'", "has no neighbours")
            elif t.is_land and t.island != (not land_neighbours):
                why = f"borders land ({land_neighbours[0]})" if land_neighbours else "has only sea neighbours"
                self.err(f, f"territory '{name}'", f"island = {str(t.island).lower()}, but it {why}")
        canals = tuple(self._canals(territories, adjacency))
        closed = self._straits(territories, options)
        map_id = self.field(f, "map_id", self.docs[f], "map_id", str) or ""
        return GameMap(map_id=map_id, territories=territories,
                       adjacency={k: frozenset(v) for k, v in adjacency.items()},
                       canals=canals, closed_zones=closed)

    def tangents(self, game_map: GameMap) -> dict[str, frozenset[str]]:
        """map.toml's ``tangents``: pairs of spaces touching at a single point (L15 of
        Taktyczne Starcie), never bordering too."""
        f = "map.toml"
        found: dict[str, set[str]] = {}
        for i, pair in enumerate(self.entries(f, "tangents")):
            e = f"tangents[{i}]"
            if not (isinstance(pair, list) and len(pair) == 2
                    and all(self.known(f, e, game_map.territories, p) for p in pair)):
                self.err(f, e, "must be a pair of two spaces of the map")
            elif pair[0] == pair[1] or game_map.adjacent(*pair):
                self.err(f, e, f"{pair[0]} and {pair[1]} must be two spaces that do not border")
            else:
                found.setdefault(pair[0], set()).add(pair[1])
                found.setdefault(pair[1], set()).add(pair[0])
        return {k: frozenset(v) for k, v in sorted(found.items())}

    def _canals(self, territories, adjacency):
        f = "map.toml"
        for i, raw in enumerate(self.entries(f, "canal")):
            name = self.field(f, f"canal[{i}]", raw, "name", str) or f"canal[{i}]"
            e = f"canal '{name}'"
            zones = self.str_list(f, e, raw, "zones")
            control = self.str_list(f, e, raw, "controlled_by")
            open_to = self.str_list(f, e, raw, "open_to")
            if len(zones) != 2:
                self.err(f, e, "zones must name exactly 2 sea zones")
                continue
            ok = True
            for z in zones:
                if self.known(f, e, territories, z) and not territories[z].is_sea:
                    self.err(f, e, f"'{z}' is not a sea zone")
                    ok = False
                ok = ok and z in territories
            for t in control:
                if self.known(f, e, territories, t) and territories[t].is_sea:
                    self.err(f, e, f"controlled_by '{t}' is a sea zone")
            if not control:
                self.err(f, e, "controlled_by must name at least one territory")
            if ok and zones[1] not in adjacency[zones[0]]:
                self.err(f, e, f"'{zones[0]}' and '{zones[1]}' are not connected")
            if ok:
                yield Canal(name=name, zones=(zones[0], zones[1]), controlled_by=control,
                            open_to=open_to)

    def _straits(self, territories, options) -> frozenset[str]:
        f = "map.toml"
        raw = self.docs[f].get("straits")
        if raw is None:
            return frozenset()
        option = self.field(f, "straits", raw, "option", str, None)
        zones = self.str_list(f, "straits", raw, "closed_zones")
        for z in zones:
            if self.known(f, "straits", territories, z) and not territories[z].is_sea:
                self.err(f, "straits", f"closed zone '{z}' is not a sea zone")
        if option is not None and option not in options:
            self.err(f, "straits", f"option '{option}' is not defined in game.toml [options]")
        on = options.get(option, False) if option is not None else True
        return frozenset(zones) if on else frozenset()

    # game.toml -----------------------------------------------------------
    def options(self) -> dict:
        f = "game.toml"
        raw = self.docs[f].get("options", {})
        if not isinstance(raw, dict):
            self.err(f, "options", "must be a table")
            raw = {}
        options = dict(raw)
        for name, value in self.overrides.items():
            known = options.get(name, ENGINE_OPTIONS.get(name))
            if known is None:
                names = sorted({*options, *ENGINE_OPTIONS})
                self.err("options", name, f"unknown option (known: {', '.join(names)})")
            elif type(value) is not type(known):
                self.err("options", name, f"must be {type(known).__name__}, not {value!r}")
            else:
                options[name] = value
        if options.get("default_losses", "cheapest") not in DEFAULT_LOSSES:
            self.err(f, "options", f"default_losses must be one of {', '.join(DEFAULT_LOSSES)}")
        return options

    def nations(self) -> dict[str, Nation]:
        """game.toml ``[[nation]]``: owners that do not play (key, name, optional side, and
        ``liberated``: whether its land an ally takes back returns to it)."""
        f = "game.toml"
        found: dict[str, Nation] = {}
        for i, raw in enumerate(self.entries(f, "nation")):
            key = self.field(f, f"nation[{i}]", raw, "key", str)
            name = self.field(f, f"nation[{i}]", raw, "name", str)
            side = self.field(f, f"nation[{i}]", raw, "side", str, "") or ""
            liberated = self.field(f, f"nation[{i}]", raw, "liberated", bool, False) or False
            if key is None or name is None:
                continue
            if key in found:
                self.err(f, f"nation '{key}'", "defined twice")
            found[key] = Nation(key, name, side, liberated)
        return found

    def relations(self, owners) -> dict[str, str]:
        """game.toml ``[[relation]] between = [a, b], state = "war"|"allied"|"neutral"``:
        how two owners stand at the start where the sides do not say it (Global 1940's
        neutral USA and Soviet Union), keyed as ``GameState.relations``."""
        f = "game.toml"
        found: dict[str, str] = {}
        for i, raw in enumerate(self.entries(f, "relation")):
            e = f"relation[{i}]"
            pair = self.str_list(f, e, raw, "between")
            state = self.field(f, e, raw, "state", str)
            if len(pair) != 2 or pair[0] == pair[1]:
                self.err(f, e, "between must name two different owners")
                continue
            unknown = [k for k in pair if k not in owners]
            if unknown:
                self.err(f, e, f"unknown power or nation {unknown[0]!r}")
                continue
            if state not in (ALLIED, WAR, NEUTRAL):
                self.err(f, e, f"state must be one of {ALLIED}, {WAR}, {NEUTRAL}, not {state!r}")
                continue
            key = "|".join(sorted(pair))
            if key in found:
                self.err(f, e, f"{pair[0]} and {pair[1]} are given twice")
            found[key] = state
        return dict(sorted(found.items()))

    def objectives(self, powers) -> tuple[Objective, ...]:
        """game.toml ``[[objective]]``: ``name``, ``power``, ``value``, ``condition`` (a
        condition for the power), optional ``economy``, ``per_territory``, ``once``.  The
        condition's shape is checked with the victory conditions (``editions.prepare``)."""
        f = "game.toml"
        found: list[Objective] = []
        for i, raw in enumerate(self.entries(f, "objective")):
            e = f"objective[{i}]"
            name = self.field(f, e, raw, "name", str)
            power = self.field(f, e, raw, "power", str)
            value = self.field(f, e, raw, "value", int)
            condition = self.field(f, e, raw, "condition", dict)
            economy = self.field(f, e, raw, "economy", str, "") or ""
            per = self.field(f, e, raw, "per_territory", bool, False)
            once = self.field(f, e, raw, "once", bool, False)
            if None in (name, power, value, condition):
                continue
            unknown = set(raw) - {"name", "power", "value", "condition", "economy",
                                  "per_territory", "once"}
            if unknown:
                self.err(f, e, f"unknown key(s) {', '.join(sorted(unknown))}")
            if power not in powers:
                self.err(f, e, f"unknown power '{power}'")
                continue
            if economy and economy not in {x.key for x in powers[power].all_economies}:
                self.err(f, e, f"power '{power}' has no economy '{economy}'")
            if any(o.name == name for o in found):
                self.err(f, e, f"objective '{name}' is defined twice")
            found.append(Objective(name, power, value, condition, economy, bool(per), bool(once)))
        return tuple(found)

    def _economies(self, f: str, e: str, raw, territories) -> tuple[Economy, ...]:
        """A power's ``economies = [{key, capital, starting_ipcs, plunders}]`` (the first is
        its main one and starts with the power's ``starting_ipcs``)."""
        found = []
        items = raw.get("economies", []) if isinstance(raw, dict) else []
        if not isinstance(items, list):
            self.err(f, e, "economies must be a list of tables")
            return ()
        for j, item in enumerate(items):
            where = f"{e} economies[{j}]"
            key = self.field(f, where, item, "key", str)
            capital = self.field(f, where, item, "capital", str)
            start = self.field(f, where, item, "starting_ipcs", int, 0) or 0
            plunders = self.str_list(f, where, item, "plunders") if isinstance(item, dict) else ()
            if key is None or capital is None:
                continue
            if all(self.known(f, where + " plunders", territories, t) for t in plunders) and \
                    self.known(f, where + " capital", territories, capital):
                found.append(Economy(key, capital, start, plunders))
        if len({x.key for x in found}) != len(found):
            self.err(f, e, "two economies have the same key")
        return tuple(found)

    def powers(self, territories: dict[str, Territory],
               nations: dict[str, Nation] | None = None) -> dict[str, Power]:
        f = "game.toml"
        powers: dict[str, Power] = {}
        words: dict[str, str] = {}
        for i, raw in enumerate(self.entries(f, "power")):
            key = self.field(f, f"power[{i}]", raw, "key", str)
            if key is None:
                continue
            e = f"power '{key}'"
            if key in powers:
                self.err(f, e, "defined twice")
                continue
            drawn = self.docs[f].get("capitals") == "drawn"
            vals = {n: self.field(f, e, raw, n, str, "" if drawn and n.startswith("capital") else ...)
                    for n in ("name", "side", "capital", "capital_city")}
            ipcs = self.field(f, e, raw, "starting_ipcs", int)
            aliases = self.str_list(f, e, raw, "aliases")
            for word in dict.fromkeys(map(_fold, (key, *aliases))):
                if words.get(word, key) != key:
                    self.err(f, e, f"alias '{word}' is also used by power '{words[word]}'")
                words.setdefault(word, key)
            if None in vals.values() or ipcs is None:
                continue
            powers[key] = Power(key=key, starting_ipcs=ipcs, aliases=aliases,
                                adjective=self.field(f, e, raw, "adjective", str, "") or "",
                                economies=self._economies(f, e, raw, territories), **vals)
        for key, p in powers.items():
            e = f"power '{key}'"
            if self.docs[f].get("capitals") == "drawn":
                if p.capital:
                    self.err(f, e, "the capitals are drawn in the game (capitals = \"drawn\"): "
                                   "no power has one in the data")
            elif self.known(f, e + " capital", territories, p.capital):
                if territories[p.capital].capital_of != key:
                    self.err(f, e, f"capital '{p.capital}' is not marked capital = \"{key}\" in map.toml")
            income = sum(t.ipc for t in territories.values() if t.original_owner == key)
            if self.docs[f].get("starting_ipcs_equal_income") and income != p.starting_ipcs:
                self.err(f, e, f"starting_ipcs is {p.starting_ipcs}, but its territories are worth {income}")
        for t in territories.values():
            for attr in ("original_owner", "capital_of"):
                value = getattr(t, attr)
                owners = powers if attr == "capital_of" else {**powers, **(nations or {})}
                if value is not None and value not in owners:
                    field = "owner" if attr == "original_owner" else "capital"
                    what = "a power" if attr == "capital_of" else "a power or a nation"
                    self.err("map.toml", f"territory '{t.key}'", f"{field} '{value}' is not {what}")
        return powers

    dropped: frozenset[str] = frozenset()
    dropped_sides: frozenset[str] = frozenset()

    def playing(self, powers: dict[str, Power], options: dict) -> dict[str, Power]:
        """The powers in the game: with an option ``players`` (Taktyczne Starcie's 2 to 4),
        the first that many of the turn order; the others are not in the game."""
        if "players" not in options:
            return powers
        f = "game.toml"
        count, order = options["players"], self.str_list(f, "turn_order", self.docs[f], "turn_order")
        low = self.field(f, "min_players", self.docs[f], "min_players", int, 1) or 1
        if not isinstance(count, int) or isinstance(count, bool) or not low <= count <= len(order):
            self.err(f, "options", f"players must be a whole number from {low} to {len(order)}, "
                                   f"not {count!r}")
            return powers
        self.dropped = frozenset(order[count:])
        self.dropped_sides = frozenset(p.side for k, p in powers.items() if k in self.dropped)
        return {k: p for k, p in powers.items() if k not in self.dropped}

    def ruleset(self, units, powers, territories, options) -> Ruleset:
        f = "game.toml"
        doc = self.docs[f]
        order = tuple(p for p in self.str_list(f, "turn_order", doc, "turn_order")
                      if p not in self.dropped)
        for p in order:
            if p not in powers:
                self.err(f, "turn_order", f"unknown power '{p}'")
        for p, n in Counter(order).items():
            if n > 1:
                self.err(f, "turn_order", f"power '{p}' appears {n} times")
        for p in powers:
            if p not in order:
                self.err(f, "turn_order", f"power '{p}' is missing")
        table = self.victory_table(options)
        victory = tuple(self._victory(table, powers))
        if not victory:
            self.err(f, table, "no victory rules defined")
        for other in ("victory", *self.victory_tables):
            if other != table and other in doc:
                list(self._victory(other, powers))     # validate it too
        rulings = self.str_list(f, "rulings", doc, "rulings")
        dice_sides = self.field(f, "dice_sides", doc, "dice_sides", int, 6) or 6
        if not 2 <= dice_sides <= 100:
            self.err(f, "dice_sides", "must be between 2 and 100")
        return Ruleset(
            game_id=self.field(f, "id", doc, "id", str) or "",
            title=self.field(f, "title", doc, "title", str) or "",
            turn_order=order, units=units, powers=powers, victory=victory,
            plan=self.plan(), dice_sides=dice_sides, options=options, rulings=rulings,
            stat_profiles=self.profiles())

    victory_tables: tuple[str, ...] = ()

    def victory_table(self, options: dict) -> str:
        """``victory`` unless an option names another table (``victory_option`` in
        game.toml maps option names to tables, e.g. short_game -> short_victory)."""
        f = "game.toml"
        mapping = self.docs[f].get("victory_options", {})
        if not isinstance(mapping, dict):
            self.err(f, "victory_options", "must be a table of option = table name")
            return "victory"
        self.victory_tables = tuple(v for v in mapping.values() if isinstance(v, str))
        for option, table in mapping.items():
            if option not in options:
                self.err(f, "victory_options", f"'{option}' is not an option")
            elif options[option] is True:
                return table
        return "victory"

    def plan(self) -> TurnPlan:
        f = "game.toml"
        raw = self.docs[f].get("turn")
        if not isinstance(raw, dict):
            self.err(f, "turn", "missing [turn] table (steps, battle_kinds, battle_stages, "
                                "income, orders)")
            return TurnPlan(steps=())
        stages = raw.get("battle_stages", [["surprise_strike"], ["main_fire"]])
        if not (isinstance(stages, list) and stages and all(
                isinstance(s, list) and s and all(isinstance(n, str) for n in s) for s in stages)):
            self.err(f, "turn", "battle_stages must be a list of lists of step names")
            stages = []
        return TurnPlan(
            steps=self.str_list(f, "turn", raw, "steps"),
            round_end=self.str_list(f, "turn", raw, "round_end"),
            pregame=self.str_list(f, "turn", raw, "pregame"),
            battle_kinds=self.str_list(f, "turn", raw, "battle_kinds") or ("amphibious", "general"),
            battle_stages=tuple(tuple(s) for s in stages),
            income=self.str_list(f, "turn", raw, "income") or ("territories",),
            order_kinds=self.str_list(f, "turn", raw, "orders"),
            rules=self.str_list(f, "turn", raw, "rules"),
            raid=self.field(f, "turn", raw, "raid", str, "factory_damage") or "factory_damage",
            move_phase=self._move_phase(raw))

    def _move_phase(self, raw: dict) -> str:
        phase = self.field("game.toml", "turn", raw, "move_phase", str, "") or ""
        if phase not in ("", "combat", "noncombat"):
            self.err("game.toml", "turn", f"move_phase must be 'combat' or 'noncombat', not '{phase}'")
            return ""
        return phase

    def _victory(self, table, powers):
        f = "game.toml"
        sides = {p.side for p in powers.values()}
        for i, raw in enumerate(self.entries(f, table)):
            e = f"{table}[{i}]"
            side = self.field(f, e, raw, "side", str)
            check = self.field(f, e, raw, "check", str)
            condition = self.field(f, e, raw, "condition", dict)
            name = self.field(f, e, raw, "name", str, table) or table
            held = self.field(f, e, raw, "held", dict, None)
            if side in self.dropped_sides - sides or (
                    isinstance(check, str) and check[6:] in self.dropped):
                continue                  # the rule of a power not in this game
            if side is not None and side not in sides:
                self.err(f, e, f"unknown side '{side}' (known: {', '.join(sorted(sides))})")
            if check is not None and check != "end_of_round" and not (
                    check.startswith("after:") and check[6:] in powers):
                self.err(f, e, f"check must be 'end_of_round' or 'after:<power>', not '{check}'")
            if None not in (side, check, condition):
                yield VictoryRule(side=side, check=check, condition=condition, name=name, held=held)

    # setup.toml ----------------------------------------------------------
    def setup(self, units, powers, territories) -> tuple[SetupEntry, ...]:
        f = "setup.toml"
        result, seen = [], {}
        for i, raw in enumerate(self.entries(f, "setup")):
            power = self.field(f, f"setup[{i}]", raw, "power", str)
            space = self.field(f, f"setup[{i}]", raw, "territory", str)
            e = f"setup[{i}] ({power} in {space})"
            counts = self.field(f, e, raw, "units", dict)
            if None in (power, space, counts):
                continue
            ok = power in powers
            if not ok:
                self.err(f, e, f"unknown power '{power}'")
            ok = self.known(f, e, territories, space) and ok
            if (power, space) in seen:
                self.err(f, e, f"listed twice (also setup[{seen[(power, space)]}])")
            seen[(power, space)] = i
            clean = {}
            for key, n in counts.items():
                if key not in units:
                    self.err(f, e, f"unknown unit type '{key}'")
                    ok = False
                elif not isinstance(n, int) or isinstance(n, bool) or n < 1:
                    self.err(f, e, f"{key} count must be a positive integer, not {n!r}")
                    ok = False
                else:
                    clean[key] = n
            if ok:
                self._check_place(e, power, territories[space], clean, units, powers)
                result.append(SetupEntry(power=power, space=space, units=clean))
        return tuple(result)

    def _check_place(self, e, power, where: Territory, counts, units, powers) -> None:
        """A unit starts on land its power or an ally of the same side holds (Global 1940
        starts British units in France), never on an impassable space."""
        f = "setup.toml"
        if where.impassable:
            self.err(f, e, f"'{where.key}' is impassable: no unit may be there")
            return
        if where.is_land:
            holder = powers.get(where.original_owner)
            if where.original_owner != power and (holder is None or holder.side != powers[power].side):
                self.err(f, e, f"'{where.key}' is not controlled by {power} at the start "
                               f"(owner: {where.original_owner or 'neutral'})")
            for key in counts:
                if units[key].domain == Domain.SEA:
                    self.err(f, e, f"{key} is a sea unit and cannot be on land ('{where.key}')")
            return
        passengers = []
        for key, n in counts.items():
            dom = units[key].domain
            if dom == Domain.LAND:
                self.err(f, e, f"{key} is a land unit and cannot start in sea zone '{where.key}' "
                               "(setup has no cargo)")
            elif dom == Domain.AIR:
                passengers.extend([units[key]] * n)
        carriers = [units[k] for k, n in counts.items() for _ in range(n) if units[k].cargo]
        used = [0] * len(carriers)
        for p in passengers:
            slot = next((c for c, carrier in enumerate(carriers)
                         if used[c] < _carry_capacity(carrier, p)), None)
            if slot is None:
                self.err(f, e, f"{p.key} in sea zone '{where.key}' has no room on a {power} "
                               "carrier (air units at sea start aboard carriers)")
                return
            used[slot] += 1
