"""A target priority as players write it (Taktyczne Starcie, issue 27, contract 4):
``aa, tanks, factory`` / ``AA guns then tank IV and airfields`` read into the canonical
words of ``model.ts_targets`` (class words, unit type keys, object kinds), in order.

Words are separated by commas, ``then``, ``and`` or ``>``; plurals, spaces and a few
synonyms are forgiven (``anti-aircraft``, ``guns``, ``tank IV``); an unknown word is an
error with the nearest known word ("did you mean").  At most ``MAX_WORDS`` words."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from ..model.ts_targets import OBJECT_KINDS, OBJECTS, UNIT_CLASSES, UNITS

MAX_WORDS = 32

_SYNONYMS = {
    "aa": "aa", "aa gun": "aa", "aa guns": "aa", "anti-aircraft": "aa", "anti aircraft": "aa",
    "flak": "aa", "antiaircraft": "aa", "aa_gun": "aa",
    "tank": "tanks", "armour": "tanks", "armor": "tanks",
    "warship": "warships", "ship": "warships", "ships": "warships",
    "at gun": "at_guns", "at guns": "at_guns", "anti-tank gun": "at_guns",
    "anti-tank guns": "at_guns", "atg": "at_guns", "at_gun": "at_guns",
    "lrg": "lrgs", "long-range gun": "lrgs", "long-range guns": "lrgs",
    "long range gun": "lrgs", "long range guns": "lrgs", "artillery": "lrgs",
    "ferry": "ferries", "transport": "ferries", "transports": "ferries",
    "carrier": "carriers", "aircraft carrier": "carriers", "aircraft carriers": "carriers",
    "fighter": "fighters", "bomber": "bombers",
    "unit": UNITS, "anything": UNITS, "any unit": UNITS, "any": UNITS,
    "object": OBJECTS, "any object": OBJECTS, "buildings": OBJECTS,
    "factories": "factory", "armament factory": "factory", "shipyards": "shipyard",
    "airfields": "airfield", "airbase": "airfield", "air base": "airfield",
    "silos": "silo", "nuclear silo": "silo", "launchers": "launcher",
    "anti-missile launcher": "launcher",
}
_ROMAN = {"i": "1", "ii": "2", "iii": "3", "iv": "4"}
_RANKED = re.compile(r"^(tank|warship|ship)s?\s*_?\s*(i{1,3}|iv|[1-4])$")
_SPLIT = re.compile(r"\s*(?:,|;|>|\bthen\b|\band\b|\bfirst\b)\s*", re.IGNORECASE)


def vocabulary() -> dict[str, str]:
    """Every word read, to its canonical word."""
    words = {w: w for w in (*UNIT_CLASSES, *OBJECT_KINDS, UNITS, OBJECTS)}
    words.update({t: t for types in UNIT_CLASSES.values() for t in types})
    words.update(_SYNONYMS)
    return words


def read_word(phrase: str) -> str:
    """One phrase to its canonical word; ValueError with a "did you mean" when unknown."""
    text = " ".join(phrase.casefold().replace("_", " ").split())
    ranked = _RANKED.match(text)
    if ranked:
        kind = "warship" if ranked.group(1) == "ship" else ranked.group(1)
        return f"{kind}_{_ROMAN.get(ranked.group(2), ranked.group(2))}"
    words = vocabulary()
    for candidate in (text, text.replace(" ", "_"), text.rstrip("s")):
        if candidate in words:
            return words[candidate]
    close = difflib.get_close_matches(text, list(words), n=1, cutoff=0.6)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    raise ValueError(f"'{phrase.strip()}' is not a target{hint}: say e.g. 'aa, tanks, factory'")


def read_targets(text: str | Iterable[str]) -> tuple[str, ...]:
    """A written priority to its canonical words, in order, each once."""
    phrases = _SPLIT.split(text) if isinstance(text, str) else list(text)
    phrases = [p for p in phrases if p and p.strip()]
    if len(phrases) > MAX_WORDS:
        raise ValueError(f"a target priority of at most {MAX_WORDS} words, not {len(phrases)}")
    out: list[str] = []
    for phrase in phrases:
        word = read_word(phrase)
        if word not in out:
            out.append(word)
    return tuple(out)
