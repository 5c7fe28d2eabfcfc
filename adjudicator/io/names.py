"""Resolving what players type to canonical keys: unit types, spaces and powers.

Matching ignores case, collapses whitespace, treats ``-`` and ``_`` as spaces and drops
``.``, ``'`` and ``"``.  Units also match with a plural ending removed ("tanks", "subs",
"infantries").  Sea zones match in every usual spelling ("SZ 5", "sz5", "5 Sea Zone",
"Sea Zone 5", "zone 5", "z5") as long as the map has that zone under any of those spellings.
There is no prefix matching: an unknown name gets a "did you mean" suggestion instead, and the
suggestion understands abbreviations and initials ("WRus" suggests West Russia, never
Western United States).

The parser, the engine and the CLI share one :class:`Names` per game for their messages.
"""

from __future__ import annotations

import difflib
import functools
import re
import weakref
from collections.abc import Iterable

from ..model.errors import PbemError
from ..model.game import Game

#: The word used for each kind of name in messages.
KIND_WORDS = {"unit": "unit type", "space": "territory or sea zone", "power": "power"}

_SEA_ZONE_PREFIX = re.compile(r"^(?:sea ?zone|sz|s z|zone|z)\s*0*(\d+)$")
# "W.Russia", "E.Europe": a dot before a word is a space ("Karelia S.S.R." keeps its dots).
_DOT_BEFORE_WORD = re.compile(r"\.(?=[^\W\d_]{2})")
_SEA_ZONE_SUFFIX = re.compile(r"^0*(\d+)\s*(?:sea ?zone|sz|s z)$")


@functools.lru_cache(maxsize=8192)     # pure, and asked for the same words order after order
def normalize(text: str) -> str:
    """The form names are compared in: lower case, one space between words, ``-``/``_`` as
    spaces, no dots or quotes, and every sea zone spelling turned into ``sea zone N``."""
    text = text.casefold().replace("→", " ")
    text = _DOT_BEFORE_WORD.sub(" ", text)
    text = re.sub(r"[.'\"`’]", "", text)
    text = re.sub(r"[\s_\-]+", " ", text).strip()
    match = _SEA_ZONE_PREFIX.match(text) or _SEA_ZONE_SUFFIX.match(text)
    if match:
        return f"sea zone {int(match.group(1))}"
    return text


def _singulars(text: str) -> list[str]:
    """Candidate singular forms of a normalized unit name (most specific first)."""
    out = []
    if text.endswith("ies") and len(text) > 4:
        out.append(text[:-3] + "y")
    if text.endswith("es") and len(text) > 3:
        out.append(text[:-2])
    if text.endswith("s") and len(text) > 2:
        out.append(text[:-1])
    return out


class UnknownName(PbemError):
    """``text`` names no ``kind`` ("unit", "space" or "power"), or several (``candidates``)."""

    def __init__(self, kind: str, text: str, suggestion: str | None = None,
                 candidates: tuple[str, ...] = ()):
        self.kind = kind
        self.text = text
        self.suggestion = suggestion
        self.candidates = candidates
        word = KIND_WORDS.get(kind, kind)
        if candidates:
            message = f"{word} '{text}' is ambiguous: it could be " + " or ".join(
                f"'{c}'" for c in candidates)
        else:
            message = f"unknown {word} '{text}'"
        super().__init__(message)

    @property
    def message(self) -> str:
        """The message without the suggestion (for OrdersSyntaxError, which adds it)."""
        return self.args[0]

    def __str__(self) -> str:
        text = self.args[0]
        if self.suggestion:
            text += f" (did you mean '{self.suggestion}'?)"
        return text


class _Table:
    """Normalized spellings -> canonical keys for one kind of name."""

    def __init__(self, kind: str, plurals: bool = False):
        self.kind = kind
        self.plurals = plurals
        self.forms: dict[str, set[str]] = {}
        self.display: dict[str, str] = {}          # key -> canonical display name
        self.order: dict[str, int] = {}            # key -> registration order (stable messages)
        self._suggestions: dict[str, str | None] = {}   # normalized text -> suggestion

    def add(self, key: str, display: str, spellings: Iterable[str]) -> None:
        self._suggestions.clear()
        self.display.setdefault(key, display)
        self.order.setdefault(key, len(self.order))
        for spelling in (key, display, *spellings):
            if spelling:
                form = normalize(spelling)
                if form:
                    self.forms.setdefault(form, set()).add(key)

    def _lookup(self, form: str) -> set[str]:
        keys = self.forms.get(form)
        if keys:
            return keys
        if self.plurals:
            for singular in _singulars(form):
                keys = self.forms.get(singular)
                if keys:
                    return keys
        return set()

    def find(self, text: str) -> str | None:
        keys = self._lookup(normalize(text))
        return next(iter(keys)) if len(keys) == 1 else None

    def resolve(self, text: str) -> str:
        keys = self._lookup(normalize(text))
        if len(keys) == 1:
            return next(iter(keys))
        if keys:
            ordered = sorted(keys, key=lambda k: self.order[k])
            raise UnknownName(self.kind, text.strip(),
                              candidates=tuple(self.display[k] for k in ordered))
        raise UnknownName(self.kind, text.strip(), self.suggest(text))

    def suggest(self, text: str) -> str | None:
        """The display name of the key whose spelling is closest to ``text``: a spelling
        that ``text`` abbreviates (initials or word prefixes: "WRus", "E Eur", "Cauc") ranks
        above any misspelling; then the closest spelling by letters (difflib)."""
        form = normalize(text)
        if form not in self._suggestions:
            if len(self._suggestions) > 1024:
                self._suggestions.clear()
            self._suggestions[form] = self._suggest(form)
        return self._suggestions[form]

    def _suggest(self, form: str) -> str | None:
        if not form:
            return None
        tries = [form] + (_singulars(form) if self.plurals else [])
        best: tuple[tuple, str] | None = None
        for attempt in tries:
            matcher = difflib.SequenceMatcher()
            matcher.set_seq2(attempt)
            for spelling, keys in self.forms.items():
                if len(keys) != 1:
                    continue
                score = _closeness(matcher, attempt, spelling)
                if score is None:
                    continue
                key = next(iter(keys))
                rank = (score, -self.order[key])
                if best is None or rank > best[0]:
                    best = (rank, key)
        return self.display[best[1]] if best else None


_FUZZY_CUTOFF = 0.6


def _closeness(matcher: difflib.SequenceMatcher, typed: str, spelling: str) -> tuple | None:
    """How well the normalized ``typed`` (``matcher``'s second sequence) matches the
    normalized ``spelling``, as a sortable tuple, or None if it does not: (1, -skipped
    words, ratio) when ``typed`` abbreviates it, (0, 0, ratio) when it is only similar
    letter by letter."""
    matcher.set_seq1(spelling)
    skipped = abbreviation_skips(typed, spelling) if len(typed) > 1 else None
    if skipped is not None:
        return (1, -skipped, matcher.ratio())
    if matcher.real_quick_ratio() < _FUZZY_CUTOFF or matcher.quick_ratio() < _FUZZY_CUTOFF:
        return None
    ratio = matcher.ratio()
    return (0, 0, ratio) if ratio >= _FUZZY_CUTOFF else None


def abbreviation_skips(typed: str, spelling: str) -> int | None:
    """If ``typed`` abbreviates ``spelling`` (both normalized), the fewest words of
    ``spelling`` it leaves out before its last piece; else None.

    Every typed word is read as prefixes of consecutive words of the spelling, in order:
    "wrus" = w(est) rus(sia), "e eur" = e(astern) eur(ope), "wus" = w(estern) u(nited)
    s(tates), "safr" = s(outh) afr(ica) with "union of" left out.  A typed word never
    spans two typed words' worth of the spelling across a space the player wrote."""
    words = spelling.split()
    typed_words = typed.split()
    if not typed_words or not words or len(typed) > len(spelling):
        return None
    letters = "".join(typed_words)
    starts = set()
    position = 0
    for word in typed_words:
        starts.add(position)
        position += len(word)

    memo: dict[tuple[int, int], int | None] = {}

    def go(i: int, j: int) -> int | None:
        if i == len(letters):
            return 0
        if (i, j) in memo:
            return memo[(i, j)]
        best = None
        for k in range(j, len(words)):
            word = words[k]
            for length in range(1, min(len(word), len(letters) - i) + 1):
                if letters[i + length - 1] != word[length - 1]:
                    break
                if length > 1 and (i + length - 1) in starts:
                    break                 # a piece never runs over a space the player wrote
                rest = go(i + length, k + 1)
                if rest is not None:
                    total = (k - j) + rest
                    best = total if best is None else min(best, total)
        memo[(i, j)] = best
        return best

    return go(0, 0)


class Names:
    """Every name a player may use in one game, and the canonical key each one means."""

    def __init__(self, game: Game):
        self.game = game
        self.units = _Table("unit", plurals=True)
        for unit in game.ruleset.units.values():
            self.units.add(unit.key, unit.name,
                           (*unit.aliases, unit.plural, unit.display_plural))
        self.spaces = _Table("space")
        for territory in game.map.territories.values():
            self.spaces.add(territory.key, territory.key, territory.aliases)
        self.powers = _Table("power")
        for power in game.ruleset.powers.values():
            self.powers.add(power.key, power.name, (*power.aliases, power.adjective))
        self._tables = {"unit": self.units, "space": self.spaces, "power": self.powers}

    # ---- resolving -----------------------------------------------------------------------

    def resolve_unit(self, text: str) -> str:
        """The unit type key ``text`` names; raises :class:`UnknownName`."""
        return self.units.resolve(text)

    def resolve_space(self, text: str) -> str:
        """The territory / sea zone key ``text`` names; raises :class:`UnknownName`."""
        return self.spaces.resolve(text)

    def resolve_power(self, text: str) -> str:
        """The power key ``text`` names; raises :class:`UnknownName`."""
        return self.powers.resolve(text)

    def resolve(self, kind: str, text: str) -> str:
        return self._tables[kind].resolve(text)

    def find(self, kind: str, text: str) -> str | None:
        """Like :meth:`resolve` but returns None instead of raising."""
        return self._tables[kind].find(text)

    def suggest(self, kind: str, text: str) -> str | None:
        """The canonical name closest to ``text`` (unit: display name, space: key, power:
        display name), or None if nothing is close."""
        return self._tables[kind].suggest(text)

    # ---- display -------------------------------------------------------------------------

    def unit_name(self, key: str, count: int = 1) -> str:
        """Display name of a unit type: "Tank", or its plural when ``count != 1``."""
        unit = self.game.ruleset.units.get(key)
        if unit is None:
            return key
        return unit.name if count == 1 else unit.display_plural

    def space_name(self, key: str) -> str:
        return key

    def power_name(self, key: str) -> str:
        power = self.game.ruleset.powers.get(key)
        return power.name if power else key


_BUILT: dict[int, tuple[weakref.ref, Names]] = {}


def names_of(game: Game) -> Names:
    """The name index of ``game``, built once per game object (a game's names never change;
    the suggestions it remembers are the same for every caller)."""
    found = _BUILT.get(id(game))
    if found is not None and found[0]() is game:
        return found[1]
    names = Names(game)
    key = id(game)

    def forget(ref, built=_BUILT):          # the game is gone: so is its index
        if built.get(key, (None,))[0] is ref:
            del built[key]

    _BUILT[key] = (weakref.ref(game, forget), names)
    return names
