"""The editions layer: the registry of Axis & Allies editions (``registry``) and the
built-in ones, registered on import."""

from .registry import Edition, get, names, prepare, register, unregister

register(Edition("aa1941", "Axis & Allies 1941", "aa1941"))
register(Edition("aa1942", "Axis & Allies Spring 1942", "aa1942"))
register(Edition("europe1999", "Axis & Allies Europe", "europe1999",
                 plugins=("adjudicator.engine.abilities.first_strike", "adjudicator.engine.abilities.aa_fire_chosen",
                          "adjudicator.engine.abilities.free_submerge",
                          "adjudicator.engine.convoys", "adjudicator.engine.overflight",
                          "adjudicator.engine.escorted_raids", "adjudicator.engine.original_factories",
                          "adjudicator.engine.great_patriotic_war", "adjudicator.engine.capital_held",
                          "adjudicator.engine.middle_east", "adjudicator.engine.end_of_turn",
                          "adjudicator.engine.special_cash",
                          "adjudicator.engine.allied_casualties")))
register(Edition("global1940", "Axis & Allies Global 1940 (Second Edition)", "global1940",
                 plugins=("adjudicator.engine.economies",
                          "adjudicator.engine.politics", "adjudicator.engine.neutrals",
                          "adjudicator.engine.objectives",
                          "adjudicator.engine.convoy_disruption",
                          "adjudicator.engine.china",
                          "adjudicator.engine.liberation_bonus",
                          "adjudicator.engine.abilities.aa_fire_chosen",
                          "adjudicator.engine.bases", "adjudicator.engine.scramble",
                          "adjudicator.engine.facility_raids", "adjudicator.engine.kamikaze",
                          "adjudicator.engine.research")))

register(Edition("taktyczne", "Taktyczne Starcie (a variant on an invented map with house costs)",
                 "taktyczne", plugins=("adjudicator.engine.taktyczne.edition",
                          "adjudicator.engine.taktyczne.main_turn",
                          "adjudicator.engine.taktyczne.live_turn")))

__all__ = ["Edition", "get", "names", "prepare", "register", "unregister"]
