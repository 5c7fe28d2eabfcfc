"""Strategic bombing (Spring 1942 rules digest §5.3.1 [L418-L430], §4.3 "Bomber"
[L797-L809]): a bomber may raid an enemy factory instead of fighting.  The raid is a
battle kind of its own (``engine.raids``): the territory's AA fire, then each surviving
bomber rolls ``damage`` (``"d6"``: one die) and the total is added to the factory's damage,
up to its cap.  A raiding bomber fights in no other battle that turn."""

from __future__ import annotations

from .base import Ability, register


@register
class StrategicBomber(Ability):
    name = "strategic_bomber"
    doc = "May raid an enemy factory instead of fighting: one die of damage per surviving bomber."
    params = {"damage": (str, "d6")}

    def check(self, unit, params):
        if params.get("damage", "d6") != "d6":
            return [f"strategic_bomber: damage '{params['damage']}' is not supported (d6)"]
        return []
