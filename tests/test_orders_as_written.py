"""Orders as players write them (issue 9): the loose forms of forum posts and mail bodies
are read, and what stays ambiguous is still an error with its line, column and suggestion.

The hand-made game of tests/test_parser.py is used where a small map makes the case clear;
the real 1941 and 1942 maps where their aliases matter.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import attrs
import pytest

from adjudicator.engine import check
from adjudicator.io.loose_text import OrdersNote
from adjudicator.io.names import Names, abbreviation_skips, normalize
from adjudicator.io.parser import (
    format_orders, parse_orders, parse_orders_partial, strip_positions,
)
from adjudicator.model.board import Territory
from adjudicator.model.orders import Phase, UnitGroup
from adjudicator.present.wording import problem_text
from adjudicator.service.games import initial_state, load_game
from test_parser import errors_of, make_game, one_error

GAME = make_game()
C, NC = Phase.COMBAT, Phase.NONCOMBAT
CORPUS = Path(__file__).parent / "data" / "forum_orders"


def parse(text, power=None, game=GAME, notes=None):
    return parse_orders(text, game, power, notes=notes)


def same_as(loose: str, canonical: str, game=GAME, power=None) -> None:
    """``loose`` means exactly what ``canonical`` means."""
    got = strip_positions(parse(loose, power, game))
    want = strip_positions(parse(canonical, power, game))
    assert attrs.evolve(got, source="") == attrs.evolve(want, source=""), loose


def with_territories(game, *extra: Territory):
    territories = dict(game.map.territories)
    territories.update({t.key: t for t in extra})
    return attrs.evolve(game, map=attrs.evolve(game.map, territories=territories))


@pytest.fixture(scope="module", params=["aa1941", "aa1942"])
def edition(request):
    return load_game(request.param)


# ---- '-' as an arrow ------------------------------------------------------------------------------

@pytest.mark.parametrize("path", [
    "Karelia-Archangel", "Karelia - Archangel", "Karelia -Archangel", "Karelia- Archangel",
    "Karelia – Archangel", "Karelia--Archangel", "Karelia -- Archangel", "Karelia -> Archangel",
])
def test_hyphen_is_an_arrow_between_names(path):
    same_as(f"combat:\nmove 2 inf {path}", "combat:\nmove 2 inf Karelia -> Archangel")


def test_a_hyphen_inside_a_name_stays_in_the_name():
    same_as("combat:\nmove 1 tank Ukraine-Anglo-Egypt Sudan",
            "combat:\nmove 1 tank Ukraine -> Anglo-Egypt Sudan")
    same_as("combat:\nmove 1 tank Anglo-Egypt Sudan-Karelia-Archangel",
            "combat:\nmove 1 tank Anglo-Egypt Sudan -> Karelia -> Archangel")
    same_as("noncombat:\nmove 1 inf Anglo-Egypt Sudan - Anglo-Egypt Sudan",
            "noncombat:\nmove 1 inf Anglo-Egypt Sudan -> Anglo-Egypt Sudan")
    same_as("defend Anglo-Egypt Sudan: losses inf", "defend Anglo Egypt Sudan: losses inf")


def test_hyphens_between_sea_zones_and_in_load_lines():
    same_as("combat:\nmove 1 trn sz5-sz6-SZ 7", "combat:\nmove 1 trn SZ 5 -> SZ 6 -> SZ 7")
    same_as("combat:\nload 1 inf Germany-SZ 5\nunload 1 inf SZ 5-Karelia",
            "combat:\nload 1 inf Germany -> SZ 5\nunload 1 inf SZ 5 -> Karelia")


def test_a_misspelt_name_next_to_a_hyphen_is_reported_alone():
    error = one_error("combat:\nmove 2 inf Karelia-Archangle")
    assert (error.line, error.column, error.suggestion) == (2, 20, "Archangel")
    error = one_error("combat:\nmove 2 inf Karlia-Archangel")
    assert (error.column, error.suggestion) == (12, "Karelia")
    error = one_error("combat:\nmove 1 tank Ukraine -> Anglo-Egypt Sudn")
    assert error.suggestion == "Anglo-Egypt Sudan"


def test_a_hyphen_with_two_readings_is_an_error():
    game = with_territories(GAME, Territory("Nord", False), Territory("Sud", False),
                            Territory("Nord-Sud", False))
    error = one_error("combat:\nmove 1 inf Karelia-Nord-Sud", game=game)
    assert error.column == 12
    assert "several ways" in error.args[0]
    assert "Karelia -> Nord-Sud" in error.args[0] and "Karelia -> Nord -> Sud" in error.args[0]
    # a name that resolves as written wins over splitting it
    assert parse("combat:\nmove 1 inf Nord-Sud -> Karelia", game=game).combat[0].path == \
        ("Nord-Sud", "Karelia")


# ---- unit groups ----------------------------------------------------------------------------------

@pytest.mark.parametrize("groups", [
    "2 inf+1 arm", "2 inf + 1 arm", "2 inf and 1 tank", "2 inf, and 1 tank", "2 inf & 1 tank",
    "2x inf, 1x arm", "2 x inf, 1 x tank", "inf x2, tank x1", "inf x 2 + tank x 1",
    "2 inf, tank x1", "2X inf and 1× tank",
])
def test_unit_group_separators_and_x_counts(groups):
    same_as(f"buy {groups}", "buy 2 inf, 1 tank")
    same_as(f"combat:\nmove {groups} Karelia - Archangel",
            "combat:\nmove 2 inf, 1 tank Karelia -> Archangel")


def test_x_counts_with_cargo_and_long_unit_names():
    same_as("combat:\nmove trn x1 (2 inf + 1 arm) SZ 5 - SZ 6",
            "combat:\nmove 1 trn (2 inf, 1 tank) SZ 5 -> SZ 6")
    same_as("combat:\nmove aircraft carrier x2 SZ 5 -> SZ 6", "combat:\nmove 2 cv SZ 5 -> SZ 6")
    same_as("place inf x3 Germany", "place 3 inf Germany")


def test_x_count_errors_keep_their_columns():
    error = one_error("combat:\nmove inf x0 Karelia -> Archangel")     # a 0 in a list is fine,
    assert (error.column, error.args[0]) == (1, "this 'move' moves no units (every count is 0)")
    same_as("combat:\nmove 2 inf, 0 tank Karelia -> Archangel", "combat:\nmove 2 inf Karelia -> Archangel")
    error = one_error("buy infx x2")
    assert (error.column, error.suggestion) == (5, "Infantry")
    error = one_error("place inf x3")
    assert "where to place" in error.args[0]
    error = one_error("combat:\nmove 2y inf Karelia -> Archangel")
    assert (error.column, error.suggestion) == (7, "Infantry")


# ---- list prefixes, trailing ';', sections, 'when', 'then' --------------------------------------

@pytest.mark.parametrize("prefix", ["1.", "12.", "3)", "(4)", "-", "*", "•"])
def test_list_prefixes(prefix):
    same_as(f"{prefix} buy 2 inf\ncombat:\n  {prefix} move 2 inf Karelia -> Archangel",
            "buy 2 inf\ncombat:\nmove 2 inf Karelia -> Archangel")


def test_trailing_semicolons_and_columns_after_a_prefix():
    same_as("buy 2 inf;\ncombat:\nmove 2 inf Karelia -> Archangel ;;",
            "buy 2 inf\ncombat:\nmove 2 inf Karelia -> Archangel")
    error = one_error("combat:\n1. move 2 inf Karlia -> Archangel;")
    assert (error.column, error.suggestion) == (15, "Karelia")
    assert error.source_line == "1. move 2 inf Karlia -> Archangel;"


@pytest.mark.parametrize("combat,noncombat", [("CM:", "NCM:"), ("cm", "ncm"), ("CM moves:", "NCM:"),
                                              ("Combat Move", "Non Combat Move:")])
def test_cm_and_ncm_sections(combat, noncombat):
    orders = parse(f"{combat}\nmove 2 inf Karelia-Archangel\n{noncombat}\nmove 1 ftr Karelia-Archangel")
    assert [o.phase for o in orders.items] == [C, NC]


def test_a_section_in_front_of_an_order():
    same_as("CM: move 2 inf Karelia-Archangel\nNCM: move 1 ftr Karelia-Archangel",
            "combat:\nmove 2 inf Karelia -> Archangel\nnoncombat:\nmove 1 ftr Karelia -> Archangel")


def test_when_means_if_and_then_separates_losses():
    same_as("battle Karelia: retreat to Archangel when attackers < 3; losses inf then tank then ftr",
            "battle Karelia: retreat to Archangel if attackers < 3; losses inf, tank, ftr")
    same_as("battle Karelia: losses: inf, then tank and ftr;", "battle Karelia: losses inf, tank, ftr")
    same_as("defend all: losses inf then sub then tank; submerge losing",
            "defend all: losses inf, sub, tank; submerge losing")
    error = one_error("battle Karelia: retreat when attackers < 3 then")
    assert error.column == 44


# ---- power prefixes and whose orders ------------------------------------------------------------

@pytest.mark.parametrize("prefix", ["Ger:", "Germany:", "GERMAN :", "ger:"])
def test_power_prefixes(prefix):
    orders = parse(f"{prefix} buy 2 inf\n{prefix} combat:\n{prefix} move 2 inf Karelia-Archangel",
                   power="germany")
    assert orders.power == "germany" and len(orders.items) == 2
    assert parse(f"{prefix} buy 2 inf").power == "germany"


def test_a_power_alone_with_a_colon_is_a_header():
    assert parse("Germany:\nbuy 1 inf").power == "germany"


def test_a_prefix_naming_another_power_is_one_error():
    text = "Ger: buy 2 inf\ncombat:\n" + "".join(
        f"UK: move {n} inf Karelia -> Archangel\n" for n in range(1, 6))
    orders, errors = parse_orders_partial(text, GAME, "germany")
    assert len(errors) == 1 and orders.items == ()
    assert (errors[0].line, errors[0].column) == (3, 1)
    assert "Germany" in errors[0].args[0] and "United Kingdom" in errors[0].args[0]


def test_two_powers_in_one_file_is_one_error():
    orders, errors = parse_orders_partial("UK: buy 1 inf\nUSA: buy 1 inf\nUSA: buy 2 tank", GAME)
    assert len(errors) == 1 and errors[0].line == 2 and orders.items == ()
    assert "one power's orders per file" in errors[0].args[0]


def test_a_wrong_header_checks_nothing_else():
    text = "power: UK\ncombat:\nmove 2 inf Karlia -> Archangel\nmove 2 inf Nowhere -> Archangel"
    orders, errors = parse_orders_partial(text, GAME, "germany")
    assert [(e.line, e.column) for e in errors] == [(1, 8)] and orders.items == ()


def test_an_unknown_power_prefix_is_an_error_with_a_suggestion():
    error = one_error("Gremany: buy 2 inf")
    assert (error.column, error.suggestion) == (1, "Germany")
    # a name that is no power in front of units is where they are: it needs a target
    error = one_error("Karelia: buy 2 inf")
    assert "'Karelia:' in front of units" in error.args[0]


def test_lines_that_look_like_prefixes_are_still_orders():
    orders = parse("battle Germany: losses inf\ndefend Japan: losses inf\npower: Germany\n"
                   "buy: 1 inf\nplace: 1 inf Germany")
    assert orders.power == "germany" and len(orders.items) == 4


def test_every_move_of_another_powers_units_is_one_error():
    game = load_game("aa1941")
    state = initial_state(game, "t")                    # the Soviet Union moves first
    german = parse_orders("combat:\nmove 2 inf Eastern Europe -> Karelia\n"
                          "move 1 tank Ukraine -> Caucasus\nmove 1 ftr Germany -> Eastern Europe"
                          " -> West Russia", game)
    problems = [p for p in check(game, state, german) if p.is_error]
    assert [(p.code, p.params["orders_for"]) for p in problems] == \
        [("orders_of_another_power", "germany")]
    assert "Germany's orders" in problem_text(problems[0], game)
    # one foreign move among the Soviet ones is checked as usual
    mixed = parse_orders("combat:\nmove 2 inf Eastern Europe -> Karelia\n"
                         "move 1 inf Karelia -> Eastern Europe", game)
    codes = {p.code for p in check(game, state, mixed) if p.is_error}
    assert "orders_of_another_power" not in codes and "units_not_there" in codes


def test_an_adjacency_error_says_what_is_adjacent():
    game = load_game("aa1941")
    state = initial_state(game, "t")
    orders = parse_orders("combat:\nmove 1 inf Russia -> Germany\n"
                          "load 1 inf Archangel -> SZ 5", game)
    texts = [problem_text(p, game) for p in check(game, state, orders) if p.code == "not_adjacent"]
    neighbours = ", ".join(sorted(game.map.neighbours("Russia")))
    assert f"Russia is not adjacent to Germany (Russia borders {neighbours})" in texts
    assert any(t.startswith("Archangel is not adjacent to Sea Zone 5 (Archangel borders ")
               and "Sea Zone 4" in t for t in texts)


# ---- mail bodies ----------------------------------------------------------------------------------

MAIL = """\
Hi all,

buy 2 inf
combat:
move 2 inf Karelia-Archangel

Cheers,
Fritz
-- 
Fritz Example | sent from a phone
buy 99 nonsense

On Mon, 3 Mar 2025 at 10:00, GM <gm@example.org> wrote:
> Germany to move
"""


def test_mail_greeting_closing_and_signature_are_notes():
    notes: list[OrdersNote] = []
    orders = parse(MAIL, notes=notes)
    assert len(orders.items) == 2
    assert [(n.line, n.message.split(" ")[0]) for n in notes] == \
        [(1, "greeting"), (7, "closing"), (9, "the")]
    assert "signature" in notes[2].message and "4 lines after it" in notes[2].message
    assert str(notes[0]) == "line 1: note: greeting ignored: 'Hi all,'"


def test_quoted_history_is_a_note_wherever_it_is():
    notes: list[OrdersNote] = []
    text = ("Fritz wrote:\n> buy 2 tank\n>\n> (quoted)\n\nbuy 1 inf\n"
            "> combat:\n> move 2 inf Nowhere -> Archangel\nbuy 2 inf\n")
    assert [o.units[0].count for o in parse(text, notes=notes).items] == [1, 2]
    assert [str(n) for n in notes] == ["line 1: note: quoted text ('>') ignored (lines 1-4)",
                                       "line 7: note: quoted text ('>') ignored (lines 7-8)"]


@pytest.mark.parametrize("greeting", ["Hello", "Hi all,", "Hey guys!", "Dear GM,",
                                      "Good morning everyone"])
def test_greetings(greeting):
    assert len(parse(f"{greeting}\nbuy 1 inf").items) == 1


def test_chatter_among_the_orders_is_a_note_never_an_error():
    notes: list[OrdersNote] = []
    orders = parse("Here are my orders:\nbuy 1 inf\nHello\nbuy 1 inf\nCheers\nbuy 1 inf\n"
                   "End turn.", notes=notes)
    assert len(orders.items) == 3
    assert [str(n) for n in notes] == [
        "line 1: note: ignored: chatter 'Here are my orders:'",
        "line 3: note: ignored: chatter 'Hello'", "line 5: note: ignored: chatter 'Cheers'",
        "line 7: note: ignored: chatter 'End turn.'"]


def test_a_line_with_units_or_places_that_cannot_be_read_stays_an_error():
    errors = errors_of("buy 1 inf\nI attack Karelia now\n3 infx\nthe tank stays\n"
                       "Here are my orders for Karelia:")
    assert [e.line for e in errors] == [2, 3, 4, 5]


# ---- empty files and pass -------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "\n  \n", "# nothing\n", "power: Germany\n", "combat:\nnoncombat:",
                                  "Hi all,\n-- \nFritz"])
def test_an_empty_orders_file_is_an_error(text):
    error = one_error(text)
    assert (error.line, error.column) == (1, 1)
    assert "write 'pass'" in error.args[0]


def test_pass_is_a_turn_without_orders():
    orders = parse("power: Germany\npass  # nothing this turn", power="germany")
    assert orders.items == () and orders.power == "germany"
    assert format_orders(orders, GAME) == "power: Germany\npass\n"
    assert parse(format_orders(orders, GAME)).items == ()
    error = one_error("PASS\nbuy 1 inf")
    assert (error.line, error.column) == (1, 1) and "remove 'pass'" in error.args[0]


# ---- territory abbreviations and suggestions ----------------------------------------------------

def test_abbreviation_matching():
    assert abbreviation_skips("wrus", "west russia") == 0
    assert abbreviation_skips("wus", "western united states") == 0
    assert abbreviation_skips("wrus", "western united states") is None
    assert abbreviation_skips("e eur", "eastern europe") == 0
    assert abbreviation_skips("e europe", "western europe") is None
    assert abbreviation_skips("safr", "union of south africa") == 2
    assert abbreviation_skips("ws", "west russia") is None
    assert abbreviation_skips("we st", "west") is None    # a typed space is a word break


def test_suggestions_understand_abbreviations():
    game = with_territories(GAME, Territory("Western United States", False),
                            Territory("Caucasus", False))
    names = Names(game)
    cases = {"WRus": "West Russia", "W Rus": "West Russia", "WRussia": "West Russia",
             "WUS": "Western United States", "E Europe": "Eastern Europe",
             "E. Eur": "Eastern Europe", "W Europe": "Western Europe", "WEur": "Western Europe",
             "Cauc": "Caucasus", "Kar": "Karelia", "Ukr": "Ukraine", "Arch": "Archangel",
             "Karlia": "Karelia", "Archangle": "Archangel"}
    assert {text: names.suggest("space", text) for text in cases} == cases
    errors = errors_of("combat:\nmove 2 inf WRus -> E Europe", game=game)  # not aliases here
    assert [(e.column, e.suggestion) for e in errors] == [(12, "West Russia"),
                                                          (20, "Eastern Europe")]


def test_real_maps_suggest_the_right_territory(edition):
    names = Names(edition)
    east = "Eastern Europe"
    for text, key in {"WRuss": "West Russia", "W. Rus": "West Russia", "E Eur": east,
                      "East Eur": east, "E. Europ": east, "Cauca": "Caucasus"}.items():
        assert names.suggest("space", text) == key, text


REQUIRED_ALIASES = {
    "EEur": "Eastern Europe", "E. Europe": "Eastern Europe", "E Europe": "Eastern Europe",
    "WRus": "West Russia", "WR": "West Russia", "W. Russia": "West Russia", "Cauc": "Caucasus",
    "SE": "Southern Europe", "WE": "Western Europe", "Arch": "Archangel", "Ind": "India",
    "Aus": "Australia", "EUS": "Eastern United States", "WUS": "Western United States",
    "Ger": "Germany", "UK": "United Kingdom",
}


def test_real_maps_know_the_usual_abbreviations(edition):
    names = Names(edition)
    local = {"aa1941": {"Kar": "Karelia", "Ukr": "Ukraine"},
             "aa1942": {"Kar": "Karelia S.S.R.", "Ukr": "Ukraine S.S.R."}}[edition.ruleset.game_id]
    for text, key in {**REQUIRED_ALIASES, **local}.items():
        assert names.resolve_space(text) == key, text


def test_aliases_are_unambiguous_once_normalized(edition):
    """The loader checks exact collisions; this checks them as the parser compares names
    (dots, hyphens and case ignored, every sea zone spelling alike)."""
    owners: dict[str, str] = {}
    for territory in edition.map.territories.values():
        for spelling in (territory.key, *territory.aliases):
            form = normalize(spelling)
            assert owners.setdefault(form, territory.key) == territory.key, \
                (spelling, owners[form], territory.key)


RESERVED_IN_NAMES = {"and", "then", "to", "with", "if", "when", "or", "after", "losses"}


def test_no_name_contains_a_word_the_orders_reserve(edition):
    """'and', 'then', 'to' ... separate things inside an order, so no territory or unit
    name may use them as a word (nor end in 'x2')."""
    spellings = [s for t in edition.map.territories.values() for s in (t.key, *t.aliases)]
    spellings += [s for u in edition.ruleset.units.values() for s in (u.key, u.name, *u.aliases)]
    for spelling in spellings:
        words = normalize(spelling).split()
        assert not RESERVED_IN_NAMES & set(words), spelling
        assert not (len(words) > 1 and words[-1][0] in "x×" and words[-1][1:].isdigit()), spelling


def test_every_name_of_the_real_maps_parses_everywhere(edition):
    names = Names(edition)
    unit = next(iter(edition.ruleset.units.values()))
    for key, territory in edition.map.territories.items():
        for spelling in (key, *territory.aliases):
            assert names.resolve_space(spelling) == key
            orders = parse_orders(
                f"combat:\nmove 2 {unit.aliases[0] if unit.aliases else unit.key} {spelling} - "
                f"{spelling}\nbattle {spelling}: retreat to {spelling} when attackers < 3\n"
                f"defend {spelling}: losses {unit.key}\nplace {unit.key} x1 {spelling}", edition)
            assert orders.combat[0].path == (key, key), spelling
            assert orders.places[0].space == key


# ---- the forum corpus -----------------------------------------------------------------------------

CORPUS_POSTS = sorted(CORPUS.glob("*.txt"))


def test_the_corpus_covers_both_editions():
    assert {p.name.split("-")[0] for p in CORPUS_POSTS} == {"aa1941", "aa1942"}


@pytest.mark.parametrize("post", CORPUS_POSTS, ids=[p.stem for p in CORPUS_POSTS])
def test_forum_post(post):
    """tests/data/forum_orders/<edition>-<power>-<name>.txt, as a player posted it, reads as
    the canonical orders in the .expected file beside it (and its .notes, if any)."""
    edition, power, _ = post.stem.split("-", 2)
    game = load_game(edition)
    notes: list[OrdersNote] = []
    orders = parse_orders(post.read_text(encoding="utf-8"), game, power, notes=notes)
    assert format_orders(orders, game) == post.with_suffix(".expected").read_text(encoding="utf-8")
    expected_notes = post.with_suffix(".notes")
    assert [str(n) for n in notes] == (expected_notes.read_text(encoding="utf-8").splitlines()
                                       if expected_notes.exists() else [])
    again = parse_orders(format_orders(orders, game), game, power)
    assert format_orders(again, game) == format_orders(orders, game)
    assert sorted(map(repr, strip_positions(again).items)) == \
        sorted(map(repr, strip_positions(orders).items))


def test_unit_groups_of_the_corpus_are_counted_right():
    game = load_game("aa1941")
    orders = parse_orders((CORPUS / "aa1941-germany-forum-post.txt").read_text(), game, "germany")
    assert orders.combat[1].units == (UnitGroup(3, "infantry"), UnitGroup(2, "tank"))


# ---- openings as players post them (issue 19) -----------------------------------------------------

WRITTEN = Path(__file__).parent / "data" / "orders_as_written"
WRITTEN_POSTS = sorted(p for p in WRITTEN.glob("*.txt") if not p.with_suffix(".mistakes").exists())


def meaning(orders) -> tuple:
    """What a set of orders does, however it was grouped or ordered on the page: units
    bought, moved along each path in each phase, placed in each space; directives as
    written.  Two readings with the same meaning play the same turn."""
    bought: Counter = Counter()
    moved: Counter = Counter()
    placed: Counter = Counter()
    other = []
    for order in orders.items:
        if order.kind == "buy":
            bought.update({g.type: g.count for g in order.units})
        elif order.kind == "place":
            placed.update({(order.space, g.type): g.count for g in order.units})
        elif order.kind in ("move", "load", "unload"):
            where = getattr(order, "path", None) or (order.origin, getattr(order, "zone", None),
                                                     getattr(order, "target", None))
            for g in order.units:
                moved[(order.kind, order.phase, tuple(where), g.type, g.cargo)] += g.count
        else:
            other.append(repr(attrs.evolve(order, line=0)))
    return orders.power, bought, moved, placed, sorted(other)


def position_for(game, power):
    """The starting position with ``power`` to move (every opening is written for it)."""
    return attrs.evolve(initial_state(game, "t"), power=power)


def test_the_openings_cover_every_power_of_both_editions():
    written = {tuple(p.stem.split("-")[:2]) for p in WRITTEN_POSTS}
    for edition in ("aa1941", "aa1942"):
        for power in ("ussr", "germany", "uk", "japan", "usa"):
            assert (edition, power) in written, (edition, power)
    assert len(WRITTEN_POSTS) >= 30


@pytest.mark.parametrize("post", WRITTEN_POSTS, ids=[p.stem for p in WRITTEN_POSTS])
def test_an_opening_as_written_reads_as_intended(post):
    """tests/data/orders_as_written/<edition>-<power>-<style>.txt, written the way players
    post orders, reads without an error (chatter is a note) as the same orders as
    <edition>-<power>.intended, written by hand in the tool's own syntax; both are legal
    in the starting position, and what each line was read as parses back the same."""
    edition, power, style = post.stem.split("-", 2)
    game = load_game(edition)
    text = post.read_text(encoding="utf-8")
    echo: dict[int, list[str]] = {}
    orders, errors = parse_orders_partial(text, game, power, echo=echo)
    assert not errors, "\n".join(map(str, errors))
    intended = parse_orders((WRITTEN / f"{edition}-{power}.intended").read_text(), game, power)
    assert meaning(orders) == meaning(intended)
    assert [p for p in check(game, position_for(game, power), orders) if p.is_error] == []
    # every line holding something was read as something (an order, a header, a note)
    for number, line in enumerate(text.split("\n"), start=1):
        if line.split("#", 1)[0].strip():
            assert echo.get(number), (number, line)
    read_back = "\n".join(t for n in sorted(echo) for t in echo[n] if not t.startswith(("ignored", "(")))
    assert meaning(parse_orders(read_back, game, power)) == meaning(orders)


MISTAKES = sorted(WRITTEN.glob("*.mistakes"))


@pytest.mark.parametrize("post", MISTAKES, ids=[p.stem for p in MISTAKES])
def test_a_deliberate_mistake_is_reported_with_the_rules_message(post):
    """<name>.mistakes beside <name>.txt lists, one per line, 'LINE CODE' for every problem
    the check must report (CODE 'syntax' for a line that cannot be read), and nothing else:
    a syntax error never hides a rules error, and causes none."""
    from adjudicator.service.checking import check_orders
    edition, power, _ = post.stem.split("-", 2)
    game = load_game(edition)
    result = check_orders(game, position_for(game, power),
                          post.with_suffix(".txt").read_text(encoding="utf-8"), odds=False)
    found = sorted([(e.line, "syntax") for e in result.syntax_errors]
                   + [(p.line, p.code) for p in result.problems if p.is_error])
    want = sorted((int(n), code) for n, code in
                  (line.split() for line in post.read_text().splitlines() if line.strip()))
    assert found == want, [str(e) for e in result.syntax_errors] + \
        [problem_text(p, game) for p in result.problems]


# ---- the shapes of issue 19, one by one (the real 1941 map) ---------------------------------------

def test_lines_without_a_verb_take_the_sections():
    game = load_game("aa1941")
    same_as("Purchase\n4 ARM\n3x inf (9 IPC)\nCM:\n1. 3 inf Kar > WR\n* tnk Cauc -> WR\n"
            "NCM\n- ftr WR -> Russia\nPlacement:\nRussia: 3 inf\n2 tank Russia, 2 tank Caucasus",
            "buy 4 tank\nbuy 3 inf\ncombat:\nmove 3 inf Karelia -> West Russia\n"
            "move 1 tank Caucasus -> West Russia\nnoncombat:\nmove 1 ftr West Russia -> Russia\n"
            "place 3 inf Russia\nplace 2 tank Russia\nplace 2 tank Caucasus", game=game)


def test_origins_first_several_origins_prose_and_landings():
    game = load_game("aa1941")
    canonical = ("combat:\nmove 3 inf Karelia -> West Russia\nmove 3 inf Archangel -> West Russia\n"
                 "move 1 tank Caucasus -> West Russia")
    for written in ("Karelia: 3 inf -> West Russia\nArchangel: 3 inf -> West Russia\n"
                    "Caucasus: 1 tank -> West Russia",
                    "3 inf Karelia, 3 inf Archangel, 1 tank Caucasus -> West Russia",
                    "Attack West Russia with 3 inf from Karelia, 3 inf from Archangel and 1 tank "
                    "from Caucasus",
                    "Karelia -> WR: 3 inf\nArch > WR: 3 inf\nCauc > W.Russia: tank",
                    "Karelia  3 inf  -> West Russia\nArchangel 3 inf -> West Russia\n"
                    "Caucasus 1 tank -> West Russia",
                    "Karelia 3 inf, Archangel 3 inf, Caucasus 1 tank -> West Russia (all in)",
                    "Kar (3 inf), Arch (3 inf), Cauc (1 tank) -> WR",
                    "West Russia: 3 inf from Karelia, 3 inf from Archangel, 1 tank Caucasus"):
        same_as("combat:\n" + written, canonical, game=game)
    same_as("combat:\nmove 1 ftr Russia -> West Russia\nnoncombat:\nftr lands Archangel",
            "combat:\nmove 1 ftr Russia -> West Russia\nnoncombat:\n"
            "move 1 ftr West Russia -> Archangel", game=game)
    error = one_error("noncombat:\nbmr lands Norway", game=game)
    assert "no combat move above takes Bomber anywhere" in error.args[0]


def test_abbreviations_zone_forms_and_cost_notes():
    game = load_game("aa1941")
    same_as("buy: 1 tnk, 1 fig, 1 bmr (28 IPC)\nbuy 1 tra, 1 CV, 1 BB, 1 DD, 1 ss = 49 IPCs",
            "buy 1 tank, 1 ftr, 1 bmr\nbuy 1 trn, 1 cv, 1 bb, 1 dd, 1 sub", game=game)
    same_as("combat:\n1 BB z5 > SZ6\n1 sub sz 9 - Sea Zone 10", "combat:\nmove 1 bb Sea Zone 5 -> "
            "Sea Zone 6\nmove 1 sub Sea Zone 9 -> Sea Zone 10", game=game)
    same_as("combat:\n2 inf W.Russia - E.Europe", "combat:\nmove 2 inf West Russia -> Eastern Europe",
            game=game)
    same_as("Place: CV in z5\nbuy 1 cv", "place 1 cv Sea Zone 5\nbuy 1 cv", game=game)
    same_as("buy 2 inf, 0 tank\nplace all in Russia\nCombat move: none",
            "buy 2 inf\nplace 2 inf Russia", game=game)


def test_titles_greetings_and_endings_are_chatter():
    game = load_game("aa1941")
    notes: list[OrdersNote] = []
    orders = parse_orders("Germany R1\n== Soviet Union, round 1 ==\nHere are my orders:\n"
                          "buy 2 inf\nEnd turn.\nend of orders\n", game, notes=notes)
    assert len(orders.items) == 1
    assert [n.line for n in notes] == [1, 2, 3, 5, 6]


def test_did_you_mean_suggests_what_fits_where_it_was_expected():
    game = load_game("aa1941")
    _orders, errors = parse_orders_partial("combat:\nbmr Germny -> EEur\nbuy 2 inf (6 IPX)\n"
                                           "mvoe 2 inf Kar-WR\nend 2 inf\n", game)
    suggestions = [e.suggestion for e in errors]
    assert "nmr" not in suggestions and "defend" not in suggestions
    assert "Industrial Complex" not in suggestions
    assert errors[0].suggestion == "Germany"           # a place where a place goes
    assert "move" in suggestions                       # a verb where a verb goes


def test_an_unreadable_line_causes_no_follow_on_rules_error():
    from adjudicator.service.checking import check_orders
    game = load_game("aa1941")
    state = initial_state(game, "t")
    result = check_orders(game, state, "buy 2 inf, 0 tnk\nplace 2 inf Russia\n", odds=False)
    assert result.ok                                   # "0 tnk" is read: nothing bought
    result = check_orders(game, state, "buy 2 inf, 1 tankk\nplace 2 inf Russia\n", odds=False)
    assert [e.line for e in result.syntax_errors] == [1]
    assert [p.code for p in result.problems if p.is_error] == []    # not "no infantry bought"
    result = check_orders(game, state, "buy 2 inf\nplase 2 inf Russia\n", odds=False)
    assert [e.line for e in result.syntax_errors] == [2]
    assert [p.code for p in result.problems] == []                  # not "bought but not placed"
    # a rules mistake on a line that could be read is still reported
    result = check_orders(game, state, "buy 3 inf\nplase 3 inf Russia\n", odds=False)
    assert [p.code for p in result.problems if p.is_error] == ["purchase_too_expensive"]


def test_check_shows_how_each_line_was_read():
    from adjudicator.present.check_view import reading_lines
    from adjudicator.service.checking import check_orders
    game = load_game("aa1941")
    result = check_orders(game, initial_state(game, "t"),
                          "Hi all,\nBuy: 2 inf (6)\nCM:\n3 inf Kar > WR\nKarlia: 1 tank -> WR\n",
                          odds=False)
    assert [(r.line, r.read) for r in result.reading] == [
        (1, ("ignored: greeting",)), (2, ("purchase:", "buy 2 Infantry")), (3, ("combat:",)),
        (4, ("combat: move 3 Infantry Karelia -> West Russia",)), (5, ())]
    rows = reading_lines(result.reading)
    assert rows[0] == "How each line was read:"
    assert rows[5] == "  4  3 inf Kar > WR        -> combat: move 3 Infantry Karelia -> West Russia"
    assert rows[6].endswith("-> not read: see the error below")


def test_aliases_toml_adds_words_and_refuses_a_clash(tmp_path):
    import shutil
    from adjudicator.io.loader import DATA_FILES
    from adjudicator.model.errors import DataError
    source = Path(load_game("aa1941").source_dir)
    for name in DATA_FILES:
        shutil.copy(source / name, tmp_path / name)
    (tmp_path / "aliases.toml").write_text('[units]\ntank = ["panzer"]\n[spaces]\n'
                                           '"West Russia" = ["Smolensk"]\n', encoding="utf-8")
    names = Names(load_game(tmp_path))
    assert names.find("unit", "panzers") == "tank" and names.find("space", "Smolensk") == "West Russia"
    (tmp_path / "aliases.toml").write_text('[units]\ntank = ["ftr"]\nzeppelin = ["z"]\n',
                                           encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_game(tmp_path)
    assert "'ftr' is already a name of 'fighter'" in str(info.value)
    assert "units.zeppelin: no such unit" in str(info.value)
    (tmp_path / "aliases.toml").unlink()              # the file is optional
    assert Names(load_game(tmp_path)).find("unit", "tnk") is None


def test_a_powers_name_before_units_is_its_territory_only_when_nothing_else_is():
    game = load_game("aa1941")
    same_as("place:\nUK: 2 inf India\nUK: 1 tank\nbuy 2 inf, 1 tank",
            "place 2 inf India\nplace 1 tank United Kingdom\nbuy 2 inf, 1 tank", game=game, power="uk")
    same_as("UK:\npurchase:\nUK: 2 inf", "power: UK\nbuy 2 inf", game=game, power="uk")
    same_as("combat:\nRussia: 1 tank -> West Russia\nRussia: 1 inf Karelia -> West Russia",
            "combat:\nmove 1 tank Russia -> West Russia\nmove 1 inf Karelia -> West Russia",
            game=game, power="ussr")


def test_sections_that_say_none_are_a_turn_without_orders():
    game = load_game("aa1942")
    for text in ("Purchase: nothing\nCombat Move: N/A\nNCM: no moves\n", "CM: none\n"):
        assert parse_orders(text, game, "usa").items == ()
    error = one_error("combat:\nnoncombat:\n")
    assert "write 'pass'" in error.args[0]
