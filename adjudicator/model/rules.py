"""Powers, rule options and the shape of a turn: the edition's vocabulary.

Everything here is read from ``maps/<edition>/game.toml`` and ``units.toml``.  The engine
never tests a unit's *name*; it tests named abilities, and it runs the turn steps, battle
stages, battle kinds and income items the edition lists, so one engine serves every edition.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from .reprs import attrs_repr
from .conditions import Objective, VictoryRule
from .units import CargoRule, Domain, UnitType

__all__ = ["CargoRule", "Domain", "UnitType", "Economy", "Nation", "Power", "TurnPlan", "Ruleset",
           "VictoryRule", "Objective", "ALLIED", "WAR", "NEUTRAL"]

ALLIED, WAR, NEUTRAL = "allied", "war", "neutral"


@attrs.frozen(repr=False)
class Economy:
    """A treasury with its own capital.  Every power has at least one (key = the power's
    key); an edition may give a power two (Global 1940's United Kingdom).  ``plunders``:
    the enemy capitals whose treasury this economy takes when its power captures them
    (else the power's main economy does)."""

    __repr__ = attrs_repr
    key: str
    capital: str
    starting_ipcs: int = 0
    plunders: tuple[str, ...] = ()


@attrs.frozen(repr=False)
class Nation:
    """An owner that does not play (Global 1940's neutral nations, Europe's Middle East):
    it owns spaces and units but has no turn, treasury, capital or orders.  With a ``side``
    it belongs to that side, as a power does: allied with its powers, at war with the other
    side's; without one it is neutral towards everybody (``Ruleset.relation``)."""

    __repr__ = attrs_repr
    key: str
    name: str
    side: str = ""
    liberated: bool = False    # land of it an ally takes back returns to it (Europe's Middle East)


@attrs.frozen(repr=False)
class Power:
    __repr__ = attrs_repr
    key: str                   # e.g. "ussr"
    name: str                  # e.g. "Soviet Union"
    side: str                  # e.g. "Allies"
    capital: str               # territory key holding the capital
    capital_city: str          # e.g. "Moscow"
    starting_ipcs: int
    aliases: tuple[str, ...] = ()
    adjective: str = ""        # e.g. "Soviet", for reports
    economies: tuple[Economy, ...] = ()

    @property
    def economy(self) -> Economy:
        """The power's (first) economy: its own key and capital unless the data says more."""
        return self.economies[0] if self.economies else Economy(self.key, self.capital,
                                                                 self.starting_ipcs)

    @property
    def all_economies(self) -> tuple[Economy, ...]:
        """Every economy of the power, its first (main) one first."""
        return self.economies or (self.economy,)


@attrs.frozen(repr=False)
class TurnPlan:
    """The shape of a turn, from the edition's data.

    ``steps``: the steps of a power's turn, in order (names of ``engine.steps``).
    ``round_end``: steps run after the last power of a round.
    ``pregame``: the steps of each power's turn in round 0, a pre-game round played once,
    in turn order, before round 1 (Europe's special cash); empty: the game starts in round 1.
    ``battle_kinds``: the order battles are fought in during conduct combat.
    ``battle_stages``: the stages of one combat round; each is a group of battle steps that
    fire together (``engine.combat.steps``), casualties removed after each stage.
    ``income``: the items of a power's income (``engine.income``).
    ``order_kinds``: the order statements this edition accepts.
    ``rules``: the edition rules played (``engine.turn_rules``: hooks for the whole turn).
    ``raid``: what a strategic bombing raid's dice do (``engine.raids.RAID_EFFECTS``).
    ``move_phase``: the phase of moves written under no ``combat:``/``noncombat:`` header,
    for an edition whose turn has one phase of moves (Taktyczne Starcie: ``combat``);
    empty: moves need a header."""

    __repr__ = attrs_repr
    steps: tuple[str, ...]
    round_end: tuple[str, ...] = ()
    pregame: tuple[str, ...] = ()
    battle_kinds: tuple[str, ...] = ("amphibious", "general")
    battle_stages: tuple[tuple[str, ...], ...] = (("surprise_strike",), ("main_fire",))
    income: tuple[str, ...] = ("territories",)
    order_kinds: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    raid: str = "factory_damage"
    move_phase: str = ""


# Options the engine offers every edition, whatever its game.toml lists (name -> default).
# A game sets them when it is created (``pbem new --option low_luck=true``); they are then
# part of its options like the edition's own.
ENGINE_OPTIONS: dict[str, bool | int | str] = {
    "low_luck": False,      # Low Luck dice (docs/low-luck.md)
}


@attrs.frozen(repr=False)
class Ruleset:
    """Rule options and turn structure for one edition.  ``rulings`` records how gaps and
    disagreements between sources were settled (shown by ``pbem rules``)."""

    __repr__ = attrs_repr
    game_id: str
    title: str
    turn_order: tuple[str, ...]
    units: dict[str, UnitType]
    powers: dict[str, Power]
    victory: tuple[VictoryRule, ...]
    plan: TurnPlan = TurnPlan(steps=())
    dice_sides: int = 6
    options: dict[str, bool | int | str] = attrs.field(factory=dict)
    rulings: tuple[str, ...] = ()
    # units.toml's stat profiles (name -> description; the ``unit_stats`` option picks one);
    # empty for an edition with a single set of numbers.
    stat_profiles: dict[str, str] = attrs.field(factory=dict)
    nations: dict[str, Nation] = attrs.field(factory=dict)   # owners that do not play
    # game.toml ``[[relation]]``: relations at the start that differ from the sides ("a|b"
    # with the keys sorted -> ALLIED/WAR/NEUTRAL), copied into the first GameState.relations
    starting_relations: dict[str, str] = attrs.field(factory=dict)
    # game.toml ``[[objective]]``: national objectives, paid by the income item
    # ``national_objectives`` while option ``national_objectives`` is on
    objectives: tuple[Objective, ...] = ()

    def option(self, name: str, default=None):
        return self.options.get(name, default)

    def side_of(self, power: str) -> str:
        return self.powers[power].side

    def relation(self, a: str | None, b: str | None,
                 overrides: Mapping[str, str] | None = None) -> str:
        """``ALLIED``, ``WAR`` or ``NEUTRAL`` between two owners, powers or nations (an
        owner is allied with itself; an unowned space is neutral): owners of the same side
        are allied, of two sides at war; a nation without a side is neutral.  ``overrides`` (from the game state, keyed
        ``"a|b"`` with the keys sorted) replace the relation the sides imply."""
        if a is None or b is None:
            return NEUTRAL
        if a == b:
            return ALLIED
        if overrides:
            found = overrides.get("|".join(sorted((a, b))))
            if found is not None:
                return found
        side_a, side_b = self._side(a), self._side(b)
        if side_a and side_b:               # powers, and nations that belong to a side
            return ALLIED if side_a == side_b else WAR
        return NEUTRAL

    def _side(self, owner: str) -> str:
        if owner in self.powers:
            return self.powers[owner].side
        nation = self.nations.get(owner)
        return nation.side if nation is not None else ""

    def allied(self, a: str | None, b: str | None) -> bool:
        """Same side (a power is allied with itself).  Neutral (None) is allied with nobody."""
        return self.relation(a, b) == ALLIED
