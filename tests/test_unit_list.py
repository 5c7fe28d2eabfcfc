"""``pbem odds`` reads a plain unit list ("3 inf, 1 tank") without the orders grammar
(io/unit_list.py, issue 24): whatever it reads, it reads as ``parser.parse_units`` does,
for every unit name of every edition, and everything else is left to the grammar."""

from __future__ import annotations

import pytest

from adjudicator import editions
from adjudicator.io.names import names_of
from adjudicator.io.parser import parse_units
from adjudicator.io.unit_list import plain_unit_groups
from adjudicator.model.errors import OrdersSyntaxError
from adjudicator.service.games import load_game

OTHER_WORDS = ("a", "an", "and", "one", "two", "x", "vs", "to", "then", "retreat", "losses",
               "subs", "with", "cargo", "empty", "none", "attack", "fire", "never", "move")


def grammar_reading(text, game):
    try:
        return parse_units(text, game)
    except OrdersSyntaxError:
        return None


@pytest.mark.parametrize("ruleset", editions.names())
def test_every_unit_word_is_read_as_the_grammar_reads_it(ruleset):
    game = load_game(ruleset)
    forms = names_of(game)._tables["unit"].forms
    words = sorted({w for f in forms for w in (f, f + "s", f.upper(), f.title())
                    if w.isascii() and w.isalpha()} | set(OTHER_WORDS))
    read = 0
    for i, word in enumerate(words):
        other = words[(i * 7 + 3) % len(words)]
        for text in (f"1 {word}", f" 12 {word} ", f"3 {word}, 2 {other}", f"2 {other},1 {word}"):
            plain = plain_unit_groups(text, game)
            if plain is not None:
                read += 1
                assert plain == grammar_reading(text, game), (ruleset, text)
    assert read > len(forms)          # the plain reading is the common case


def test_anything_else_is_left_to_the_grammar():
    game = load_game("aa1941")
    assert plain_unit_groups("3 inf, 1 tank", game) is not None
    for text in ("0 inf", "10001 inf", "01 inf", "2x inf", "two inf", "3 inf and 1 tank",
                 "1 cv (2 ftr)", "3 infantery", "3 inf,", "", "3 heavy bomber", "1 inf\n1 tank",
                 "3 inf " + "x" * 1000):
        assert plain_unit_groups(text, game) is None, text
