"""Orders as data: what the grammar produces and the engine consumes.

Every order keeps the ``line`` (1-based) it came from so that validation errors can point
at it.  Names here are canonical keys (unit type keys, territory keys, power keys): the
parser resolves abbreviations and aliases before building these objects.

Each order class has a ``kind`` (the name an edition lists in ``order_kinds``): its module
``adjudicator/io/kinds/<kind>.py`` holds its grammar fragment (or names its file in
``grammar/kinds/``), reading, canonical writing, phase and issuer, and names the engine
functions that check and carry it out, their problem codes and its report section.

This module names every order class; each is defined in a smaller module (``order_base``,
``standing_orders``, ``order_set``, ``purchase_orders``, ``move_orders``, ``battle_orders``,
``statement_orders``, and each edition's own: ``europe_orders``, ``global_orders``,
``taktyczne_orders``, ``live_battle``, ``mine_orders``, ``ts_gun_orders``) imported on
first use of one of its names (``model.lazy``), and the order kinds (``io.kinds``) name
their class rather than import it: a command makes only the classes it meets (issue 24).
A new order class goes in the module of its edition or subject and is named in
``MODULES``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import lazy_names

if TYPE_CHECKING:      # the names as a type checker sees them
    from .battle_orders import BattleDirective, Bomb, Bombard, RetreatCondition
    from .europe_orders import Convert, InterceptOrder, Keep, MiddleEastOrder
    from .global_orders import (
        CanalOrder, Declare, KamikazeOrder, LiberationOrder, Paratroop, Research, Rocket,
        ScrambleOrder, ShareOrder
    )
    from .live_battle import BoardAction, LiveOrder
    from .mine_orders import MinefieldOrder, OpenOrder, RevealOrder
    from .move_orders import Load, Move, Unload
    from .order_base import ALL, Comparison, Order, Phase, SubmergePolicy, UnitGroup
    from .order_set import OrderSet
    from .purchase_orders import Buy, Place, Repair
    from .standing_orders import DefenceOrder, StandingChoice, StandingOrders
    from .statement_orders import Concede, Nmr
    from .taktyczne_orders import (
        AirDefenceOrder, AntimissileOrder, Arm, Build, DefencePlanOrder, EvacuateOrder,
        Launch, PatrolOrder, PlanOrder, Recruit, ScuttleOrder, StrikeOrder
    )
    from .ts_gun_orders import LrgFireOrder, LrgReactOrder

# each module of this package that defines order classes, and the names it defines
MODULES: dict[str, tuple[str, ...]] = {
    "order_base": ("Phase", "UnitGroup", "ALL", "Order", "Comparison", "SubmergePolicy"),
    "standing_orders": ("DefenceOrder", "StandingChoice", "StandingOrders"),
    "purchase_orders": ("Buy", "Repair", "Place"),
    "move_orders": ("Move", "Load", "Unload"),
    "battle_orders": ("RetreatCondition", "Bomb", "Bombard", "BattleDirective"),
    "statement_orders": ("Nmr", "Concede"),
    "order_set": ("OrderSet",),
    "europe_orders": ("InterceptOrder", "MiddleEastOrder", "Keep", "Convert"),
    "global_orders": ("ShareOrder", "CanalOrder", "ScrambleOrder", "KamikazeOrder",
                      "LiberationOrder", "Declare", "Research", "Rocket",
                      "Paratroop"),
    "live_battle": ("BoardAction", "LiveOrder"),           # Taktyczne's live board battles,
    "mine_orders": ("MinefieldOrder", "RevealOrder", "OpenOrder"),      # its sealed mines
    "ts_gun_orders": ("LrgFireOrder", "LrgReactOrder"),                 # and long-range guns
    "taktyczne_orders": ("PlanOrder", "DefencePlanOrder", "PatrolOrder", "EvacuateOrder",
                         "Recruit", "Build", "Arm", "Launch",
                         "AntimissileOrder", "ScuttleOrder",
                         "StrikeOrder", "AirDefenceOrder"),
}
HOMES = {name: module for module, names in MODULES.items() for name in names}

__getattr__, __dir__, load_all = lazy_names(__package__, "orders", HOMES)
__all__ = list(HOMES)
