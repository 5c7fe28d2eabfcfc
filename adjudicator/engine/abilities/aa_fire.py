"""Anti-aircraft fire (Spring 1942 rules digest §4.3 "AA gun", [L739-L747]).

Before the first round of a land battle, the defender's AA guns in the territory fire
once at the *attacking* aircraft (never at aircraft flying over).  With ``dice =
"per_attacking_aircraft"`` (1942) one die is rolled for each attacking aircraft and names
it, so each aircraft is hit on ``value`` or less independently; ``guns_per_battle`` is how
many guns fire in one battle (1942: one, whoever owns the others).  Hits are removed at once: those
aircraft do not fire.  AA guns themselves are ``noncombatant`` in the same data.
The same fire opens a strategic bombing raid (``engine.raids``).

``targets`` names what the guns fire at: ``["air"]`` (default), or ``["air", "airborne"]``
(Global 1940: paratroopers "are subjected to AA fire just like air units" [L1182]): then
the attacking units that came by air this turn (``BattleUnit.airborne``) are shot at as
aircraft are -- they count towards the dice and may be chosen for the hits
(``combat.board.Slot.aa_target``).
"""

from __future__ import annotations

from ..combat.board import ONLY_AIR
from ..combat.model import DEF, Volley
from ..combat.stepbase import BattleStep, register_step
from .base import REQUIRED, Ability, register


@register
class AAFire(Ability):
    name = "aa_fire"
    doc = "Fires before round 1 at attacking aircraft (one die per aircraft, hit on value)."
    params = {"value": (int, REQUIRED), "dice": (str, "per_attacking_aircraft"),
              "guns_per_battle": (int, 1), "shots_per_gun": (int, 0),
              "targets": (tuple, ("air",))}

    def check(self, unit, params):
        problems = []
        if params.get("dice") != "per_attacking_aircraft":
            problems.append(f"aa_fire: dice '{params.get('dice')}' is not supported "
                            "(per_attacking_aircraft)")
        if params.get("guns_per_battle") not in (0, 1):
            problems.append("aa_fire: guns_per_battle must be 1 (one gun fires) or 0 (every gun)")
        if params.get("shots_per_gun", 0) < 0:
            problems.append("aa_fire: shots_per_gun must not be negative (0: no cap)")
        if not 1 <= params.get("value", 1) <= 20:
            problems.append("aa_fire: value must be between 1 and 20")
        targets = params.get("targets", ("air",))
        if "air" not in targets or not set(targets) <= set(TARGETS):
            problems.append(f"aa_fire: targets must be 'air', optionally with 'airborne' "
                            f"(got {list(targets)})")
        return problems

    def aa_targets(self, unit, params) -> frozenset[str]:
        """What the guns fire at: "air", and "airborne" for units that came by air."""
        return frozenset(params.get("targets", ("air",)))


TARGETS = ("air", "airborne")


def aa_dice(guns, aircraft: int) -> int:
    """How many AA dice the ``aa_fire`` units among ``guns`` roll at ``aircraft`` attacking
    aircraft (and airborne units they fire at): one per target, capped by the first gun
    type's ``shots_per_gun`` times the guns that fire (all of them when ``guns_per_battle =
    0``, else that many)."""
    firing = [u for u in guns if u.type.has("aa_fire")]
    if not firing:
        return 0
    shots = firing[0].type.param("aa_fire", "shots_per_gun", 0)
    if not shots:
        return aircraft
    per_battle = firing[0].type.param("aa_fire", "guns_per_battle", 1)
    n_guns = len(firing) if per_battle == 0 else min(per_battle, len(firing))
    return min(aircraft, shots * n_guns)


def aa_volleys(board, guns, targets) -> list[Volley]:
    """The AA dice against ``targets`` ((slot, count present), ...): one volley per
    aircraft type, aimed at that type, from the first gun type in ``guns``; when the guns'
    ``shots_per_gun`` leaves targets unshot, one volley at any of them (``aa_dice``:
    the attacker chooses).  Airborne units the guns fire at (``Slot.aa_target``) share
    the same type as units that came otherwise, so their dice are not aimed: their hits
    go to the targets the attacker chooses."""
    gun = next((u for u in guns if u.type.has("aa_fire")), None)
    if gun is None:
        return []
    value = gun.type.param("aa_fire", "value", 1)
    targets = list(targets)
    shot = sum(n for slot, n in targets if slot.aa_target)
    dice = aa_dice(guns, shot)
    if dice < shot:
        return [Volley(DEF, "aa", gun.type.key, dice, value, ONLY_AIR)] if dice else []
    out = []
    for slot, n in targets:
        if n and slot.is_air:
            out.append(Volley(DEF, "aa", gun.type.key, n, value, board.aimed_class(slot.key)))
    airborne = sum(n for slot, n in targets if slot.aa_target and not slot.is_air)
    if airborne:
        out.append(Volley(DEF, "aa", gun.type.key, airborne, value, ONLY_AIR))
    return out


@register_step
class AAFireStep(BattleStep):
    name = "aa_fire"
    first_round_only = True

    def volleys(self, board, side_idx, side, summ, enemy):
        if side_idx != DEF or board.is_sea or not enemy.aa_targets:
            return []
        attackers = board.slots[1 - side_idx]
        return aa_volleys(board, board.support[DEF], zip(attackers, enemy.present))
