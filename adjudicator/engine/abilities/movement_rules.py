"""Abilities that shape movement and control: small rules, one per ability.

Each is registered under the name used in ``units.toml``; the engine reaches them through
the hooks named in ``abilities.base`` (``may_move``, ``slot``...) or, for abilities that
only mark a unit, through ``UnitType.has(name)`` at the one place the rule applies (noted
in each docstring).
"""

from __future__ import annotations

from .base import Ability, register


@register
class Blitz(Ability):
    name = "blitz"
    doc = ("May move through an empty enemy territory as the first step of a combat move, "
           "capturing it (engine.movement.check_land_path asks ``passes_through``).")

    def passes_through(self, board, piece, space: str, index: int):
        """None if ``piece`` may pass through enemy ``space`` (the ``index``-th step of its
        path, from 0), else ``(problem code, params)``."""
        if index != 0:
            return "blitz_not_first", {"space": space}
        enemies = board.enemies_at(space, piece.owner)
        if enemies and all(board.utype(e).has("factory") for e in enemies):
            return "blitz_blocked_by_factory", {"space": space, "unit": enemies[0].type}
        if enemies:
            return "blitz_blocked", {"space": space}
        return None


@register
class BlitzWith(Ability):
    name = "blitz_with"
    doc = ("Blitzes as ``blitz`` when paired one to one with a ``partner`` unit moving in the "
           "same order (Global 1940's mechanized infantry with a tank [L1317-L1330]): the "
           "order names at least as many partners as units of this type "
           "(WorkingBoard.moving_together).")
    params = {"partner": (str, "tank")}

    def passes_through(self, board, piece, space: str, index: int):
        ut = board.utype(piece)
        partner = ut.param(self.name, "partner", "tank")
        together = board.moving_together
        if together.get(partner, 0) < together.get(ut.key, 0):
            return "blitz_needs_partner", {"unit": ut.key, "partner": partner, "space": space}
        return Blitz.passes_through(self, board, piece, space, index)


@register
class MovesThroughEnemy(Ability):
    name = "moves_through_enemy"
    doc = ("Passes hostile sea zones, unless an enemy anti_sub unit is there "
           "(rule in engine.movement.check_sea_path).  ``noncombat_end_hostile``: it may also "
           "end a noncombat move in a hostile zone (1941 [L577]); false in Spring 1942, where "
           "a noncombat move never ends where a battle would follow (digest §4.3 [FLAG]).")
    params = {"noncombat_end_hostile": (bool, True)}


def may_end_noncombat_in_hostile(unit) -> bool:
    """Whether a ship of type ``unit`` may end a noncombat move in a hostile sea zone."""
    return unit.has(MovesThroughEnemy.name) and unit.param(
        MovesThroughEnemy.name, "noncombat_end_hostile", True)


@register
class SurfaceWarship(Ability):
    name = "surface_warship"
    doc = "Makes a sea zone hostile to enemies and blocks their ships (WorkingBoard.hostile_zone)."


@register
class CarriesLand(Ability):
    name = "carries_land"
    doc = "A transport: carries land units by its cargo rule (engine.movement loading)."


@register
class CarriesAir(Ability):
    name = "carries_air"
    doc = "A carrier: carries carrier_based aircraft by its cargo rule."


@register
class CarrierBased(Ability):
    name = "carrier_based"
    doc = "May take off from and land on a friendly carrier."


@register
class CannotCapture(Ability):
    name = "cannot_capture"
    doc = "Never takes a territory (air units, AA guns)."

    def slot(self, unit, params, side):
        return {"captures": False}


@register
class Static(Ability):
    name = "static"
    doc = "Never moves and cannot be carried (factories)."

    def may_move(self, board, piece, phase):
        return "static_unit"


@register
class MovesOnlyNoncombat(Ability):
    name = "moves_only_noncombat"
    doc = ("Moves only in the noncombat move (AA guns); in combat move only as cargo "
           "already aboard since an earlier turn.  A unit captured this turn does not move.")

    def may_move(self, board, piece, phase):
        if phase == "combat":
            return "moves_only_noncombat"
        if getattr(piece, "captured", False):
            return "captured_this_turn"
        return None


@register
class CapturedWithTerritory(Ability):
    name = "captured_with_territory"
    doc = ("Changes owner with its territory instead of fighting: taken by the enemy who "
           "captures the territory (engine.capture asks ``changes_owner``).")

    def changes_owner(self, board, piece, new_owner: str, with_captured: bool) -> bool:
        """Whether ``piece`` goes to ``new_owner`` with its territory: an enemy's always;
        a factory always (1942: a freed capital's factory goes back with it); a friendly
        one only if an ally captured it this turn and the territory is liberated
        (``with_captured``, 1942 [L566])."""
        return piece.owner != new_owner and (
            board.enemy_of(new_owner, piece.owner) or board.utype(piece).has("factory")
            or (with_captured and piece.captured))


@register
class Noncombatant(Ability):
    name = "noncombatant"
    doc = ("Never on the battle board: it neither fights nor is chosen as a casualty and does "
           "not count for ending a battle (AA guns fire through their own battle step).")
