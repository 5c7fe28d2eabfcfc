"""The event log: everything that happens in a turn, in order.

The report, the turn file and the audit all read the same events.  Each event class has
a ``kind`` tag used in files.  Events carry codes and parameters, never sentences: the
wording lives in ``adjudicator.present.wording``.  Unit lists are ``{unit type: count}``
dicts keyed by type, with an ``owner`` where it matters.

This module names every event class of the turn engine; each is defined in a smaller
module (``event_base``, ``events_turn``, ``events_movement``, ``events_battle``,
``events_corrections``, and each edition's own: ``events_europe``, ``events_global``,
``events_politics``) imported on first use of one of its names (``model.lazy``), and
``KINDS`` says which module defines each ``kind`` tag, so that reading a file makes only
the classes of the events it holds.  A new event class goes in the module of its subject
and is named in ``MODULES`` and ``KINDS`` (``tests/test_startup_imports.py`` checks both).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .event_base import Event
from .lazy import lazy_names

if TYPE_CHECKING:      # the names as a type checker sees them
    from .events_battle import (
        BattleEnded, BattleStarted, BestOfRolled, Casualties, DiceRolled,
        LowLuckBestOfRolled, LowLuckRolled, RaidDamage, Resurfaced, Retreated, Submerged,
        TreasuryRaided, UnitsRepaired
    )
    from .events_corrections import Corrected
    from .events_europe import MiddleEastPaid, SpecialCashKept, SpecialCashOffered, UnitsConverted
    from .events_global import (
        ConvoyDisrupted, FactoryRemoved, LiberationUnitsPlaced, ObjectiveMet,
        ObjectiveMissed, ParatroopersDropped, RepairedAtBase, ResearchRolled, RocketFired,
        Scrambled, TechnologyGained
    )
    from .events_movement import (
        AircraftLost, Blitzed, Captured, Landed, Loaded, Moved, Plundered, UnitsCaptured,
        Unloaded
    )
    from .events_politics import (
        AtWar, DeclarationDeferred, FactoriesUpgraded, MongoliaJoined, NeutralArmyRaised,
        NeutralJoined, NeutralsTurned, WarDeclared
    )
    from .events_turn import (
        EconomyIncome, EconomyPaid, IncomeCollected, NoMovesReceived, OrderReduced,
        OrderSkipped, Placed, Purchased, Refunded, Repaired, StandingOrdersChanged,
        TurnStarted, UnitsChanged, VictoryDeclared, VictoryDenied, VictoryInSight
    )

# each module of this package that defines event classes, and the names it defines
MODULES: dict[str, tuple[str, ...]] = {
    "event_base": ("Event",),
    "events_turn": ("TurnStarted", "Purchased", "Repaired", "Placed", "Refunded",
                    "UnitsChanged", "EconomyPaid", "IncomeCollected",
                    "EconomyIncome", "OrderSkipped", "OrderReduced",
                    "StandingOrdersChanged", "VictoryDeclared",
                    "NoMovesReceived", "VictoryInSight", "VictoryDenied"),
    "events_movement": ("Moved", "Loaded", "Unloaded", "Blitzed", "Captured", "UnitsCaptured",
                        "Plundered", "AircraftLost", "Landed"),
    "events_battle": ("BattleStarted", "DiceRolled", "BestOfRolled", "LowLuckRolled",
                      "LowLuckBestOfRolled", "Submerged", "Casualties",
                      "Retreated", "BattleEnded", "RaidDamage",
                      "TreasuryRaided", "Resurfaced", "UnitsRepaired"),
    "events_corrections": ("Corrected",),
    "events_europe": ("UnitsConverted", "MiddleEastPaid", "SpecialCashOffered",
                      "SpecialCashKept"),
    "events_global": ("Scrambled", "RepairedAtBase", "ObjectiveMet", "ObjectiveMissed",
                      "ConvoyDisrupted", "FactoryRemoved",
                      "LiberationUnitsPlaced", "ResearchRolled",
                      "TechnologyGained", "RocketFired",
                      "ParatroopersDropped"),
    "events_politics": ("WarDeclared", "AtWar", "DeclarationDeferred", "FactoriesUpgraded",
                        "NeutralArmyRaised", "NeutralsTurned",
                        "NeutralJoined", "MongoliaJoined"),
}
HOMES = {name: module for module, names in MODULES.items() for name in names}

# kind tag -> the module of ``MODULES`` that defines its class
KINDS: dict[str, str] = {
    **dict.fromkeys((
        "turn_started", "purchased", "repaired", "placed", "refunded", "units_changed",
        "economy_paid", "income_collected", "economy_income", "order_skipped",
        "order_reduced", "standing_orders_changed", "victory", "no_moves_received",
        "victory_in_sight", "victory_denied"
    ), "events_turn"),
    **dict.fromkeys((
        "moved", "loaded", "unloaded", "blitzed", "captured", "units_captured",
        "plundered", "aircraft_lost", "landed"
    ), "events_movement"),
    **dict.fromkeys((
        "battle_started", "dice_rolled", "best_of_rolled", "low_luck_rolled",
        "low_luck_best_of_rolled", "submerged", "casualties", "retreated",
        "battle_ended", "raid_damage", "treasury_raided", "resurfaced", "units_repaired"
    ), "events_battle"),
    **dict.fromkeys((
        "corrected",
    ), "events_corrections"),
    **dict.fromkeys((
        "units_converted", "middle_east_paid", "special_cash_offered",
        "special_cash_kept"
    ), "events_europe"),
    **dict.fromkeys((
        "scrambled", "repaired_at_base", "objective_met", "objective_missed",
        "convoy_disrupted", "factory_removed", "liberation_units_placed",
        "research_rolled", "technology_gained", "rocket_fired", "paratroopers_dropped"
    ), "events_global"),
    **dict.fromkeys((
        "war_declared", "at_war", "declaration_deferred", "factories_upgraded",
        "neutral_army_raised", "neutrals_turned", "neutral_joined", "mongolia_joined"
    ), "events_politics"),
}

__getattr__, __dir__, _load_named = lazy_names(__package__, "events", HOMES)
__all__ = list(HOMES)

# The other modules of events, imported by ``all_event_classes(load=True)`` (to read a file
# whose events they define) and by nothing else of the model: a command that reads a 1941
# turn file makes none of their classes.  A new module of events adds its name here.
EVENT_MODULES: tuple[str, ...] = (
    "live_battle_events",
    "taktyczne",
    "ts_air",           # Taktyczne Starcie's war on the main map (issue 27): aircraft,
    "ts_strike",        # the air strike,
    "ts_guns",          # long-range guns,
    "ts_mines",         # mines and sealed layouts,
    "ts_nuclear",       # nuclear weapons
    "ts_objects",       # and objects destroyed
)


def load_kind(kind: str) -> bool:
    """Import the module of ``MODULES`` that defines the event tagged ``kind``; False if
    none does (the kind of another module of events, or of none)."""
    module = KINDS.get(kind)
    if module is not None:
        import_module(f"{__package__}.{module}")
    return module is not None


def load_event_modules() -> None:
    """Import every module of ``MODULES`` and ``EVENT_MODULES`` (their classes then
    exist)."""
    _load_named()
    for name in EVENT_MODULES:
        import_module(f"{__package__}.{name}")


def all_event_classes(base: type = Event, load: bool = True) -> dict[str, type]:
    """Map ``kind`` tag -> event class, for reading event logs back from files (``base``:
    another tagged family, such as the board battle's ``model.tactical.BoardEvent``).
    ``load``: first import every module of events (``MODULES``, ``EVENT_MODULES``); without
    it, only the classes of the modules already imported."""
    if load:
        load_event_modules()
    found: dict[str, type] = {}
    stack: list[Any] = list(base.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        # @attrs.frozen builds a new slotted class; the original (field-less) class object
        # lingers in __subclasses__() until garbage-collected.  Skip those stale copies.
        if "__attrs_attrs__" in cls.__dict__:
            found[cls.kind] = cls
    return found
