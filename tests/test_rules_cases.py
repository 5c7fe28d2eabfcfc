"""Rules conformance as data: every case in maps/<edition>/cases/ (format:
adjudicator/io/rules_cases.py), run against the engine, one test per case."""

from __future__ import annotations

import pytest

from adjudicator import editions
from adjudicator.io.rules_cases import parse_cases
from adjudicator.model.errors import DataError
from adjudicator.service.rules_cases import edition_cases, run_case

CASES = [(name, case) for name in editions.names() for case in edition_cases(name)]


@pytest.mark.parametrize("edition,case", CASES, ids=[c.name for _, c in CASES])
def test_rules_case(edition, case):
    result = run_case(case, edition)
    assert result.ok, f"{case.where} {case.title}:\n  " + "\n  ".join(result.failures)


def test_every_edition_has_cases():
    counts = {name: sum(1 for e, _ in CASES if e == name) for name in editions.names()}
    assert all(counts.values()), counts


def test_a_failing_expectation_is_reported():
    """The runner can fail: a case expecting the wrong outcome is reported with its line."""
    (case,) = parse_cases("""
case wrong: infantry cannot move two spaces
power ussr
orders:
combat:
move 3 inf Archangel -> Karelia -> Eastern Europe
end
expect valid
""", "inline")
    result = run_case(case, "aa1941")
    assert not result.ok and "path_too_long" in result.failures[0]


SEA_FIGHT = """
case sea: a battleship sinks a lone transport
power uk
position empty
units Sea Zone 8: uk 1 bb
units Sea Zone 7: germany 1 trn (2 inf)
standing germany: defend all: submerge never
orders:
combat:
move 1 bb SZ 8 -> SZ 7
end
dice attacker 6 defender 6
"""


@pytest.mark.parametrize("expectation, holds", [
    ("expect event casualties side=defender killed=transport:1 cargo_lost=infantry:2", True),
    ("expect event casualties side=defender killed=transport:2", False),
    ("expect event casualties side=defender killed=transport:1 damaged=", True),
    ("expect event moved path=\"Sea Zone 8,Sea Zone 7\"", True),
    ("expect event moved path=\"Sea Zone 8\"", False),
    ("expect turn japan round 1", True),
    ("expect turn japan round 2", False),
    ("expect errors 0", True),
    ("expect errors 1", False),
    ("expect damage SZ 7: battleship 0", True),
    ("expect damage SZ 7: battleship 1", False),
])
def test_expectations_about_events_turn_errors_and_damage(expectation, holds):
    (case,) = parse_cases(SEA_FIGHT + expectation + "\n", "inline")
    assert run_case(case, "aa1941").ok is holds


def test_cargo_of_another_power_and_standing_orders_build_the_position():
    """``aboard`` puts an ally's units on a carrying unit; ``standing`` gives a power its
    defence orders before the turn."""
    from adjudicator.service.games import load_game
    from adjudicator.service.rules_cases import build_position
    (case,) = parse_cases("""
case pos: an allied cargo and a standing order
power uk
position empty
units Sea Zone 4: uk 1 trn, 1 cv
aboard Sea Zone 4: ussr 2 inf
aboard Sea Zone 4: usa 1 ftr
standing germany: defend all: losses tank, inf
expect valid
""", "inline")
    state = build_position(load_game("aa1941"), case)
    trn, cv = state.units["Sea Zone 4"]
    assert [(u.type, u.owner) for u in trn.cargo] == [("infantry", "ussr")] * 2
    assert [(u.type, u.owner) for u in cv.cargo] == [("fighter", "usa")]
    assert state.standing_orders["germany"].for_space("Germany").loss_order == ("tank", "infantry")


def test_a_state_line_gives_the_position_an_editions_kept_value():
    """``state KEY: VALUE`` sets what a rule of the edition wrote in earlier turns
    (Europe's berlin_held_by_allies), ``state KEY POWER: VALUE`` a per-power value."""
    from adjudicator.service.games import load_game
    from adjudicator.service.rules_cases import build_position
    (case,) = parse_cases("""
case pos: Berlin held through Germany's turn
power ussr
position empty
state berlin_held_by_allies: true
expect valid
""", "inline")
    state = build_position(load_game("europe1999"), case)
    assert state.extras == {"berlin_held_by_allies": True}


@pytest.mark.parametrize("line, message, edition", [
    ("aboard Sea Zone 4: ussr 1 inf", "nothing there can carry infantry", "aa1941"),
    ("standing germany: buy 1 inf", "expected 'standing POWER: defend ...'", "aa1941"),
    ("state held_forever: true", "'held_forever' was not declared", "aa1941"),
    ("state berlin_held_by_allies: 3", "takes a bool, not 3", "europe1999"),
    ("state berlin_held_by_allies uk: true", "is kept per edition", "europe1999"),
    ("state berlin_held_by_allies true", "expected 'state KEY: VALUE'", "europe1999"),
])
def test_bad_position_lines_say_where(line, message, edition):
    (case,) = parse_cases(f"case x: y\nposition empty\n{line}\nexpect valid\n", "bad.txt")
    result = run_case(case, edition)
    assert not result.ok and "bad.txt:3" in result.failures[0] and message in result.failures[0]


@pytest.mark.parametrize("text,message", [
    ("expect valid", "expected 'case NAME: title' first"),
    ("case x: y\nexpect nothing", "unknown expectation 'nothing'"),
    ("case x: y\norders:\nbuy 1 inf", "orders: without 'end'"),
    ("case x: y\nround two\nexpect valid", "round takes a number"),
    ("case x: y", "expects nothing"),
])
def test_bad_case_files_say_where(text, message):
    with pytest.raises(DataError, match=message):
        parse_cases(text, "bad.txt")


POSITION_1942 = """
power uk
position empty
units Sea Zone 7: uk 1 cv
cargo Sea Zone 7: usa 1 ftr
units Sea Zone 6: germany 1 sub
standing germany: defend all: submerge never
orders:
combat:
move 1 cv SZ 7 -> SZ 6
end
dice attacker 6 defender 1
"""


@pytest.mark.parametrize("expect,holds", [
    ("expect units Sea Zone 6: germany 1 sub", True),
    ("expect event casualties side=attacker cargo_lost.fighter=1", True),   # the ally's fighter
    ("expect event casualties side=attacker cargo_lost.fighter=2", False),
    ("expect event dice_rolled step=surprise times=1", True),               # never submerged
    ("expect event dice_rolled step=surprise times=2", False),
    ("expect sequence battle_started then casualties side=attacker", True),
    ("expect sequence casualties side=attacker then battle_started", False),
    ("expect next japan round 1", True),                       # uk, then japan
    ("expect next germany round 1", False),
])
def test_case_format_extensions_can_fail(expect, holds):
    """cargo/standing lines, dict fields, times=, sequence and next: each both holds and
    fails on a concrete 1942 position."""
    (case,) = parse_cases(f"case x: y{POSITION_1942}{expect}\n", "inline")
    result = run_case(case, "aa1942")
    assert result.ok is holds, result.failures


@pytest.mark.parametrize("expect,holds", [
    ("expect rejected units_cannot_move line 2 why=static_unit", True),
    ("expect rejected units_cannot_move line 2 why=already_moved", False),
])
def test_rejections_match_parameters(expect, holds):
    (case,) = parse_cases(f"""case x: y
power germany
position empty
units Southern Europe: germany 1 ic
orders:
noncombat:
move 1 ic Southern Europe -> Germany
end
{expect}
""", "inline")
    assert run_case(case, "aa1942").ok is holds


@pytest.mark.parametrize("expectation, message", [
    ("expect no event casualties space=SZ7", "event casualties has no field space"),
    ("expect event casualties space=SZ7", "event casualties has no field space"),
    ("expect event casualties nothing.infantry=1", "has no field nothing.infantry"),
    ("expect sequence moved then casualties space=SZ7", "has no field space"),
    ("expect no event casulaties side=defender", "no event is called 'casulaties'"),
])
def test_an_expectation_naming_an_unknown_field_is_an_error_in_the_case(expectation, message):
    """A field the event does not have would make ``no event`` hold (and ``event`` fail)
    whatever happens: the runner refuses it, for positive and negative expectations."""
    (case,) = parse_cases(SEA_FIGHT + expectation + "\n", "inline")
    result = run_case(case, "aa1941")
    assert not result.ok and message in result.failures[0], result.failures


@pytest.mark.parametrize("expectation, message", [
    ("expect ipcs germany lots", "malformed expectation"),
    ("expect ipcs", "malformed expectation"),
    ("expect units Nowhere Land: uk 1 bb", "malformed expectation"),
    ("expect event casualties side", "expected 'event KIND field=value ...'"),
    ("expect damage SZ 7: battleship many", "malformed expectation"),
])
def test_a_malformed_expectation_is_refused_not_a_crash(expectation, message):
    (case,) = parse_cases(SEA_FIGHT + expectation + "\n", "inline")
    result = run_case(case, "aa1941")
    assert not result.ok and message in result.failures[0], result.failures


ONE_1942_CASE = """edition aa1942

case e: a sub moves two zones
power germany
position empty
units Sea Zone 5: germany 1 sub
orders:
noncombat:
move 1 sub SZ 5 -> SZ 6 -> SZ 7
end
expect valid
"""


def test_a_case_file_names_its_edition_and_runs_without_ruleset(tmp_path, capsys):
    from tests.cli_helpers import pbem
    path = tmp_path / "e.txt"
    path.write_text(ONE_1942_CASE)
    assert [c.edition for c in parse_cases(ONE_1942_CASE)] == ["aa1942"]
    code, out = pbem(capsys, "cases", path)
    assert code == 0 and "1 of 1 cases pass" in out, out


@pytest.mark.parametrize("header, message", [
    ("edition aa1941", "these cases are for edition aa1941, not aa1942"),
    ("edition nosuchgame", "no edition is called 'nosuchgame'"),
    ("", "names no edition"),
])
def test_a_wrong_or_missing_edition_is_refused(tmp_path, header, message):
    from adjudicator.service.rules_cases import run_edition
    path = tmp_path / "e.txt"
    path.write_text(ONE_1942_CASE.replace("edition aa1942", header))
    results = run_edition("aa1942" if header != "" else None, path)
    assert not results[0].ok and message in results[0].failures[0], results[0].failures


@pytest.mark.parametrize("text, message", [
    ("case x: y\nexpect valid\nedition aa1941", "comes once, before the first case"),
    ("edition aa1941\nedition aa1942\ncase x: y\nexpect valid", "comes once"),
    ("edition A&A 1941\ncase x: y\nexpect valid", "edition takes an edition's name"),
])
def test_bad_edition_lines_say_where(text, message):
    with pytest.raises(DataError, match=message):
        parse_cases(text, "bad.txt")


TWO_TURNS = """
case t: a raid, then the repair on the owner's next turn
power ussr
position empty
units Karelia: ussr 1 bmr
units Germany: germany 1 ic
owner Eastern Europe: ussr
orders:
combat:
move 1 bmr Karelia -> Eastern Europe -> Germany
bomb Germany with 1 bmr
noncombat:
move 1 bmr Germany -> Eastern Europe -> Karelia
end
dice attacker 1 defender 6 other 3
expect damage Germany 3
turn {power}
orders:
repair {points} Germany
end
"""


@pytest.mark.parametrize("power, points, expectation, holds", [
    ("germany", 3, "expect damage Germany 0", True),
    ("germany", 2, "expect damage Germany 0", False),          # the second turn's position
    ("germany", 2, "expect damage Germany 1", True),
    ("germany", 3, "expect turn uk round 1", True),
    ("uk", 3, "expect valid", False),                           # germany's turn: not uk's
])
def test_a_case_plays_several_turns_on_the_position_the_last_one_left(power, points,
                                                                       expectation, holds):
    (case,) = parse_cases(TWO_TURNS.format(power=power, points=points) + expectation + "\n",
                          "inline")
    result = run_case(case, "aa1942")
    assert result.ok is holds, result.failures


def test_the_powers_between_two_turns_pass():
    """germany -> (uk, japan pass) -> usa; a power that never plays again is reported."""
    case_text = TWO_TURNS.replace("repair {points} Germany", "").format(power="usa", points=0)
    (case,) = parse_cases(case_text + "expect turn ussr round 2\n", "inline")
    assert run_case(case, "aa1942").ok
    (case,) = parse_cases(case_text.replace("turn usa", "turn nobody") + "expect valid\n",
                          "inline")
    result = run_case(case, "aa1942")
    assert not result.ok and "nobody" in result.failures[0], result.failures


@pytest.mark.parametrize("text, message", [
    ("case x: y\nturn germany\nunits Germany: germany 1 inf\nexpect valid", "before the first 'turn'"),
    ("case x: y\nturn germany\npower uk\nexpect valid", "before any 'turn'"),
    ("case x: y\nturn\nexpect valid", "expected 'turn POWER'"),
])
def test_bad_turn_lines_say_where(text, message):
    with pytest.raises(DataError, match=message):
        parse_cases(text, "bad.txt")


@pytest.mark.parametrize("orders, expectation, holds", [
    ("repair 2 Germany", 'expect unreadable line 1 "do not exist"', True),
    ("repair 2 Germany", 'expect unreadable line 2 "do not exist"', False),
    ("repair 2 Germany", 'expect unreadable "for Soviet Union"', False),
    ("germany:\nbuy 1 inf", 'expect unreadable line 1 "these orders are for Soviet Union"', True),
    ("buy 1 inf", 'expect unreadable "do not exist"', False),        # read: nothing refused
    ("repair 2 Germany", "expect valid", False),                     # refused when read
])
def test_a_case_can_expect_the_orders_refused_when_read(orders, expectation, holds):
    (case,) = parse_cases(f"case r: y\npower ussr\norders:\n{orders}\nend\n{expectation}\n",
                          "inline")
    result = run_case(case, "aa1941")
    assert result.ok is holds, result.failures
    if not holds and expectation == "expect valid":
        assert "could not be read" in result.failures[0] and "'repair'" in result.failures[0]


def test_a_played_case_whose_orders_are_refused_says_why():
    (case,) = parse_cases("case r: y\npower ussr\norders:\ncombat:\nmove 3 inf Archangel -> "
                          "Karelia -> Eastern Europe\nend\ndice attacker 1 defender 6\n"
                          "expect owner Eastern Europe: ussr\n", "inline")
    result = run_case(case, "aa1941")
    assert not result.ok and "path_too_long" in result.failures[0], result.failures
