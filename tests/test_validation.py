"""Order validation against the 1941 rules and map: each test is a concrete position and
the rule (digest section / checklist item of shared/rules/aa1941.md) it exercises."""

from __future__ import annotations

import pytest

from adjudicator.engine.turn import check
from helpers import errors, game_1941, orders, position, start_state, units, text


def problems_for(text: str, state=None, game=None):
    game = game or game_1941()
    state = state or start_state(game)
    return check(game, state, orders(text, state, game))


def only_error(text: str, state=None, game=None) -> str:
    found = errors(problems_for(text, state, game))
    assert len(found) == 1, found
    return found[0]


def test_valid_soviet_opening_has_no_problems():
    found = problems_for("""
        buy 2 inf
        combat:
        move 3 inf Karelia -> West Russia
        move 3 inf Archangel -> West Russia
        move 1 tank, 1 ftr Russia -> West Russia
        noncombat:
        move 1 ftr West Russia -> Russia
        place 2 inf Russia
    """)
    assert errors(found) == []


def test_adjacency_is_checked():
    assert "not adjacent" in only_error("combat:\nmove 3 inf Karelia -> Ukraine")


def test_infantry_moves_one():
    message = only_error("combat:\nmove 3 inf Archangel -> Karelia -> Eastern Europe")
    assert "moves 1" in message


def test_neutral_territory_is_impassable():
    # Checklist 33 [L139]: neutrals cannot be entered, attacked or flown over.
    assert "neutral" in only_error("combat:\nmove 1 tank Caucasus -> Turkey")


def test_combat_move_must_end_in_enemy_territory():
    # §5.2: no ending the combat move in a friendly space (except the four cases).
    assert "noncombat" in only_error("combat:\nmove 3 inf Archangel -> Russia")


def test_land_units_never_enter_enemy_territory_in_noncombat():
    assert "enemy territory" in only_error("noncombat:\nmove 3 inf Karelia -> West Russia")


def test_land_units_must_stop_in_enemy_territory():
    state = position(power="germany")
    # West Russia (German) -> Karelia (Soviet, 3 inf) -> Archangel: must stop in Karelia.
    message = only_error("combat:\nmove 1 tank Ukraine -> West Russia -> Karelia -> Archangel", state)
    assert "moves 2" in message or "must stop" in message


def test_blitz_through_empty_enemy_territory_captures_it_at_once():
    # Checklist 3 [L323]: the tank takes the first territory during combat move.
    game = game_1941()
    state = position(power="germany", clear=("Karelia",))
    problems = check(game, state, orders("combat:\nmove 1 tank Eastern Europe -> Karelia -> Archangel", state))
    assert errors(problems) == []


def test_blitz_may_end_where_it_started():
    # Checklist 4 [L641].
    state = position(power="germany", clear=("Karelia",))
    assert errors(problems_for("combat:\nmove 1 tank Eastern Europe -> Karelia -> Eastern Europe",
                               state)) == []


def test_blitz_stopped_by_enemy_units():
    state = position(power="germany")
    assert "enemy units" in only_error("combat:\nmove 1 tank Eastern Europe -> Karelia -> Archangel", state) \
        or "must stop" in only_error("combat:\nmove 1 tank Eastern Europe -> Karelia -> Archangel", state)


def test_blitz_stopped_by_enemy_factory():
    # Checklist 2 [L254, L323]: an enemy industrial complex stops a blitz even if empty.
    # Factories are units: Russia keeps only its Soviet industrial complex.
    state = position(power="germany", place={"Russia": units("1 industrial_complex", "ussr"),
                                             "West Russia": units("2 tank", "germany")})
    message = only_error("combat:\nmove 1 tank West Russia -> Russia -> Archangel", state)
    assert "cannot blitz through Russia: it holds enemy units" in message


def test_ships_stop_in_hostile_sea_zone():
    # §4.8: ships cannot move through enemy sea zones (surface warships make them hostile).
    state = position(power="uk", place={"Sea Zone 7": units("1 destroyer", "germany")})
    message = only_error("combat:\nmove 1 bb Sea Zone 8 -> Sea Zone 7 -> Sea Zone 6", state)
    assert "hostile" in message


def test_submarine_passes_hostile_zone_without_destroyer():
    # §4.12: subs move through enemy zones unless an enemy destroyer is there.
    state = position(power="uk", place={"Sea Zone 7": units("1 battleship", "germany"),
                                        "Sea Zone 6": units("1 transport", "germany")})
    assert errors(problems_for("combat:\nmove 1 sub Sea Zone 8 -> Sea Zone 7 -> Sea Zone 6", state)) == []


def test_submarine_stops_on_entering_zone_with_destroyer():
    state = position(power="uk", place={"Sea Zone 7": units("1 destroyer", "germany"),
                                        "Sea Zone 6": units("1 transport", "germany")})
    assert "destroyer" in only_error("combat:\nmove 1 sub Sea Zone 8 -> Sea Zone 7 -> Sea Zone 6", state)


def test_turkish_straits_close_the_black_sea():
    # Checklist 32 [L141]: no ship may enter or leave the Black Sea zone.
    state = position(power="germany", place={"Sea Zone 17": units("1 destroyer", "germany")})
    assert "straits" in only_error("noncombat:\nmove 1 dd Sea Zone 17 -> Sea Zone 18", state)


def test_straits_open_when_the_option_is_off():
    game = game_1941(turkish_straits=False)
    state = position(start_state(game), power="germany",
                     place={"Sea Zone 17": units("1 destroyer", "germany")})
    assert errors(problems_for("noncombat:\nmove 1 dd Sea Zone 17 -> Sea Zone 18", state, game)) == []


def test_suez_needs_both_territories_at_start_of_turn():
    # Checklist 30 [L147-L149].
    state = position(power="uk", place={"Sea Zone 17": units("1 destroyer", "uk")})
    assert errors(problems_for("noncombat:\nmove 1 dd Sea Zone 17 -> Sea Zone 28", state)) == []
    axis_holds_sudan = position(state, owners={"Anglo-Egypt Sudan": "germany"})
    assert "Suez" in only_error("noncombat:\nmove 1 dd Sea Zone 17 -> Sea Zone 28", axis_holds_sudan)


def test_aircraft_ignore_canals_and_fly_over_sea():
    # Checklist 31.
    state = position(power="uk", owners={"Anglo-Egypt Sudan": "germany", "Middle East": "germany"},
                     place={"Sea Zone 17": units("1 fighter", "uk")})
    found = errors(problems_for("noncombat:\nmove 1 ftr Sea Zone 17 -> Sea Zone 28 -> Anglo-Egypt Sudan", state))
    assert not any("Suez" in e for e in found)


def test_no_kamikaze_attacks():
    # §4.5: an air unit must keep enough movement to reach a landing space.
    # Western Europe -> SZ 10 uses 3 of the fighter's 4 moves; no German land is 1 away.
    state = position(power="germany")
    message = only_error("combat:\nmove 1 ftr Western Europe -> SZ 8 -> SZ 9 -> SZ 10", state)
    assert "landing" in message


def test_air_range_is_enforced():
    message = only_error("combat:\nmove 1 ftr Russia -> Archangel -> Karelia -> Eastern Europe -> Germany -> Western Europe")
    assert "range" in message


def test_air_cannot_land_in_territory_captured_this_turn():
    # Checklist 17 [L555, L573, L657]: landing needs a territory friendly since the start of the turn.
    message = only_error("""
        combat:
        move 3 inf Karelia -> West Russia
        move 1 tank Caucasus -> Ukraine
        move 1 ftr Russia -> Caucasus -> Ukraine
        noncombat:
        move 1 ftr Ukraine -> West Russia
    """)
    assert "cannot land" in message


def test_ipc_budget():
    assert "IPCs" in only_error("buy 3 tank")


def test_factory_limit_on_purchase():
    state = position(ipcs={"ussr": 100})
    # Soviet factories: Russia (3) + Caucasus (2) = 5 units.
    assert "place only 5" in only_error("buy 6 inf", state)


def test_factory_limit_on_placement():
    state = position(ipcs={"ussr": 100})
    message = only_error("buy 4 inf\nplace 4 inf Russia", state)
    assert "limit" in message


def test_capital_captured_cannot_buy():
    # Checklist 25 [L501-L503].
    state = position(owners={"Russia": "germany"}, place={"Russia": units("1 infantry", "germany")})
    assert "capital" in only_error("buy 1 inf", state)


def test_transport_capacity_never_two_tanks():
    # Checklist 46 [L795].
    state = position(power="germany", place={"Sea Zone 5": units("1 transport", "germany"),
                                             "Germany": units("2 tank", "germany")})
    assert "room" in only_error("noncombat:\nload 2 tank Germany -> Sea Zone 5", state)


def test_transport_carries_a_tank_and_an_infantry():
    state = position(power="germany", place={"Sea Zone 5": units("1 transport", "germany")})
    assert errors(problems_for("""
        combat:
        load 1 tank, 1 inf Germany -> SZ 5
        move 1 trn (1 inf, 1 tank) SZ 5 -> SZ 6
        unload 1 inf, 1 tank SZ 6 -> United Kingdom
    """.replace("Germany -> SZ 5", "Western Europe -> SZ 5"), state)) == []


def test_cargo_loaded_in_combat_must_land():
    # Checklist 36 [L331, L807].
    state = position(power="germany", place={"Sea Zone 5": units("1 transport", "germany")})
    message = only_error("combat:\nload 1 inf Western Europe -> SZ 5", state)
    assert "amphibious" in message


def test_unload_into_friendly_territory_is_noncombat():
    state = position(power="germany", place={"Sea Zone 5": units("1 transport", "germany")})
    found = errors(problems_for("combat:\nload 1 inf Western Europe -> SZ 5\n"
                                "unload 1 inf SZ 5 -> Norway Finland", state))
    assert any("unload there under 'noncombat:'" in e for e in found), found


def test_placing_sea_units_next_to_factory():
    state = position(power="germany", ipcs={"germany": 30})
    assert errors(problems_for("buy 1 dd\nplace 1 dd SZ 5", state)) == []
    assert "not next to a factory" in only_error("buy 1 dd\nplace 1 dd SZ 6", state)


def test_land_units_cannot_be_placed_at_sea():
    # Checklist 35 [L593].
    assert "at sea" in only_error("buy 1 inf\nplace 1 inf SZ 4")


def test_every_violation_is_reported_at_once():
    found = errors(problems_for("""
        buy 9 tank
        combat:
        move 3 inf Karelia -> Ukraine
        move 1 tank Caucasus -> Turkey
    """))
    assert len(found) == 3, found


def test_orders_for_the_wrong_power_are_refused():
    game = game_1941()
    state = start_state(game)
    from adjudicator.io.parser import parse_orders
    with pytest.raises(Exception):
        parse_orders("power: Germany\nbuy 1 inf", game, power=state.power)


def test_errors_in_every_phase_are_reported_together():
    found = errors(problems_for("""
        buy 1 inf
        combat:
        move 3 inf Karelia -> Ukraine
        noncombat:
        move 1 tank Caucasus -> Turkey
        place 1 inf SZ 4
    """))
    assert any("not adjacent" in e for e in found)
    assert any("neutral" in e for e in found)
    assert any("at sea" in e for e in found)


def test_retreat_destination_no_attacker_came_from_is_a_warning():
    # §5.3.2 condition B: retreat only to a space at least one attacking unit came from.
    found = problems_for("""
        combat:
        move 3 inf Karelia -> West Russia
        battle West Russia: retreat to Russia if attackers < 2
    """)
    warnings = [text(p) for p in found if p.severity == "warning"]
    assert errors(found) == []
    assert any("no attacking unit comes from Russia" in w and "Karelia" in w for w in warnings), warnings
