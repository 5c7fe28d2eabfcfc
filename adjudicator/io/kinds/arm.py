"""``arm missile 12``, ``arm antimissile 12``, ``arm bomb 44``: Taktyczne Starcie's nuclear
weapons, bought at the start of the turn (L19.57, L19.64-L19.65, L23.39-L23.42): a missile
into the buyer's unarmed silo, an anti-missile into his unarmed launcher, anywhere; an
atomic bomb onto his bomber at a facility of his (ruling G26).

Its grammar fragment is here (``ARM_GRAMMAR``); model ``model.orders.Arm``; issued by the
mover under 'purchase:'; checked and carried out by ``engine.taktyczne.nuclear.arm`` (step
``ts_arm``); its ``NuclearArmed`` event is in the report's other events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model import orders
from .base import PURCHASE, kind, name_trees, word_choice

if TYPE_CHECKING:
    from ...model.orders import Arm
    from lark import Tree

ARM_GRAMMAR = """
arm: ARM _COLON? WORD name
ARM.3: /arms?\\b/i
"""

WEAPON_WORDS = {"missile": "nuclear_missile", "missiles": "nuclear_missile",
                "nuclear-missile": "nuclear_missile", "nuke": "nuclear_missile",
                "antimissile": "anti_missile", "anti-missile": "anti_missile",
                "antimissiles": "anti_missile", "anti-missiles": "anti_missile",
                "bomb": "atomic_bomb", "atomic-bomb": "atomic_bomb", "a-bomb": "atomic_bomb"}
WRITTEN = {"nuclear_missile": "missile", "anti_missile": "antimissile", "atomic_bomb": "bomb"}


def build_arm(b, line, tree: Tree) -> None:
    what = word_choice(b, line, tree, WEAPON_WORDS, "a weapon to arm: missile (into a silo), "
                                                    "antimissile (into a launcher) or bomb (onto a bomber)")
    if what is None:
        return
    space = b.resolve(line, "space", name_trees(tree)[0].children)
    if space is not None:
        b.add(orders.Arm(what, space, line.number))


def write_arm(order: Arm, names) -> str:
    return f"arm {WRITTEN[order.what]} {order.space}"


kind("arm", ["ARM"], ["arm"], "arm missile 12", {"WORD", "INT", "_COLON", "$END"}, PURCHASE,
     grammar=ARM_GRAMMAR, model="Arm", engine=["taktyczne.nuclear.arm"],
     problems=["ts_no_bomber_here", "ts_no_weapon_producer", "ts_no_holder", "ts_holder_armed",
               "ts_too_expensive"],
     report="other events")(build_arm)(write_arm)
