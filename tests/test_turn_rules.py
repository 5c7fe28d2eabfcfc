"""Rules of a whole turn, played with scripted dice on concrete 1941 positions.  Each test
names the checklist item of shared/rules/aa1941.md §6 (or the section) it exercises."""

from __future__ import annotations

from collections import Counter

from adjudicator.model.events import (AircraftLost, BattleEnded, Blitzed, Captured, IncomeCollected,
                                Landed, OrderSkipped, Plundered, Purchased, VictoryDeclared)
from helpers import SideDice, game_1941, kinds, orders, play, position, units
from helpers import text as problem_text

HIT, MISS = 1, 6


def test_leaving_a_territory_empty_keeps_control():
    # Checklist 1 [L236].
    result = play("noncombat:\nmove 3 inf Karelia -> Archangel", position(), SideDice(MISS, MISS))
    assert result.state.owners["Karelia"] == "ussr"
    assert "Karelia" not in result.state.units


def test_blitz_takes_the_first_territory_and_its_income_at_once():
    # Checklist 3 [L323]: the tank takes Karelia during combat move, income moves at once.
    state = position(power="germany", clear=("Karelia", "Archangel"))
    result = play("combat:\nmove 1 tank Eastern Europe -> Karelia -> Archangel", state, SideDice(MISS, MISS))
    assert [e.territory for e in kinds(result.events, Blitzed)] == ["Karelia"]
    assert result.state.owners["Karelia"] == "germany"
    assert result.state.owners["Archangel"] == "germany"
    income = kinds(result.events, IncomeCollected)[0]
    assert income.income == 12 + 1 + 1        # Germany's 12 plus Karelia and Archangel


def test_attacker_wins_and_captures_with_a_land_unit():
    state = position()
    result = play("combat:\nmove 3 inf Karelia -> West Russia", state, SideDice(HIT, MISS))
    assert result.state.owners["West Russia"] == "ussr"
    ended = kinds(result.events, BattleEnded)[0]
    assert ended.outcome == "attacker_wins"
    assert ended.captured
    from adjudicator.present.report import battle_summaries
    assert any("taking West Russia" in s for s in battle_summaries(result.events, game_1941()))


def test_aircraft_alone_cannot_capture():
    # Checklist 16 [L481-L485]: only aircraft survive -> no capture.
    state = position(place={"West Russia": units("1 infantry", "germany")})
    result = play("combat:\nmove 1 ftr Russia -> West Russia\nnoncombat:\nmove 1 ftr West Russia -> Russia",
                  state, SideDice(HIT, MISS))
    assert kinds(result.events, BattleEnded)[0].outcome == "attacker_wins"
    assert result.state.owners["West Russia"] == "germany"
    assert Counter(u.type for u in result.state.units["Russia"])["fighter"] == 1


def test_both_sides_destroyed_defender_keeps_the_territory():
    # Checklist 16: if both sides are wiped out the defender keeps it.
    state = position(place={"West Russia": units("1 infantry", "germany")})
    result = play("combat:\nmove 1 inf Karelia -> West Russia", state, SideDice(HIT, HIT))
    assert kinds(result.events, BattleEnded)[0].outcome == "both_destroyed"
    assert result.state.owners["West Russia"] == "germany"


def test_capital_capture_plunders_the_treasury():
    # Checklist 25 [L501-L503]: the attacker takes all the owner's unspent IPCs.
    state = position(power="germany", place={"Russia": units("1 infantry", "ussr"),
                                            "West Russia": units("3 tank", "germany")},
                     ipcs={"ussr": 18})
    result = play("combat:\nmove 3 tank West Russia -> Russia", state, SideDice(HIT, MISS))
    assert result.state.owners["Russia"] == "germany"
    plunder = kinds(result.events, Plundered)[0]
    assert (plunder.by, plunder.from_power, plunder.ipcs) == ("germany", "ussr", 18)
    assert result.state.ipcs["ussr"] == 0
    income = kinds(result.events, IncomeCollected)[0]
    assert income.income == 12 + 3                      # Russia is worth 3
    assert result.state.ipcs["germany"] == 12 + 18 + 15


def test_power_without_its_capital_collects_no_income_and_cannot_buy():
    # Checklist 25: no income, no purchase while the capital is held.
    state = position(owners={"Russia": "germany"}, place={"Russia": units("1 infantry", "germany")},
                     ipcs={"ussr": 5})
    result = play("noncombat:\nmove 3 inf Karelia -> Archangel", state, SideDice(MISS, MISS))
    assert result.state.ipcs["ussr"] == 5
    assert not kinds(result.events, Purchased)
    income = kinds(result.events, IncomeCollected)
    assert [(e.income, e.reason) for e in income] == [(0, "capital_lost")]


def test_liberation_returns_the_territory_without_plunder():
    # §5.3.3, checklist 26: the UK frees Soviet Karelia: it goes back to the USSR.
    state = position(power="uk", owners={"Karelia": "germany"},
                     place={"Karelia": units("1 infantry", "germany"),
                            "Norway Finland": (), "Sea Zone 4": (),
                            "Archangel": units("2 infantry", "uk")})
    result = play("combat:\nmove 2 inf Archangel -> Karelia", state, SideDice(HIT, MISS))
    captured = kinds(result.events, Captured)[0]
    assert captured.liberated and captured.by == "ussr"
    assert result.state.owners["Karelia"] == "ussr"
    assert not kinds(result.events, Plundered)


def test_liberator_keeps_territory_while_owners_capital_is_enemy_held():
    # Checklist 27 [L495].
    state = position(power="uk", owners={"Karelia": "germany", "Russia": "germany"},
                     place={"Karelia": units("1 infantry", "germany"),
                            "Russia": units("1 infantry", "germany"),
                            "Archangel": units("2 infantry", "uk")})
    result = play("combat:\nmove 2 inf Archangel -> Karelia", state, SideDice(HIT, MISS))
    assert result.state.owners["Karelia"] == "uk"


def test_freed_capital_brings_back_territories_held_by_allies():
    # Checklist 28 [L505]: the UK frees Moscow; Soviet Karelia held by the UK returns too.
    state = position(power="uk", owners={"Russia": "germany", "Karelia": "uk"},
                     place={"Russia": units("1 infantry", "germany"),
                            "Archangel": units("2 infantry", "uk")})
    result = play("combat:\nmove 2 inf Archangel -> Russia", state, SideDice(HIT, MISS))
    assert result.state.owners["Russia"] == "ussr"
    assert result.state.owners["Karelia"] == "ussr"


def test_defending_fighters_whose_carrier_sinks_land_nearby_or_are_lost():
    # Checklist 14 [L543, L693]: one move to a friendly territory, before noncombat.
    # UK carrier with its fighter in SZ 14 (next to Gibraltar, British) is sunk by German subs.
    state = position(power="germany", place={"Sea Zone 15": units("3 submarine", "germany")})
    result = play("combat:\nmove 3 sub SZ 15 -> SZ 14", state, SideDice(HIT, MISS))
    landed = kinds(result.events, Landed)
    assert landed and landed[0].power == "uk" and landed[0].path[-1] == "Gibraltar"
    assert any(u.type == "fighter" and u.owner == "uk" for u in result.state.units["Gibraltar"])


def test_attacking_fighter_is_lost_when_its_only_deck_sinks():
    # Checklist 18 [L571, L695]: aircraft that cannot reach a landing space are destroyed.
    state = position(power="germany", place={"Sea Zone 9": units("1 carrier", "germany")})
    result = play("""
        combat:
        move 1 ftr Western Europe -> SZ 8 -> SZ 9 -> SZ 10
        move 1 cv SZ 9 -> SZ 10
        battle SZ 10: losses cv, ftr, trn
    """, state, SideDice(HIT, HIT))
    # Round 1: fighter and carrier both hit, sinking the destroyer and transport; the
    # destroyer fires back from the casualty line and sinks the carrier.  The fighter has
    # 1 move left and no German territory or deck within reach.
    assert kinds(result.events, BattleEnded)[0].outcome == "attacker_wins"
    lost = kinds(result.events, AircraftLost)
    assert [(e.power, e.space, e.units) for e in lost] == [("germany", "Sea Zone 10", {"fighter": 1})]
    assert not any(u.owner == "germany" for u in result.state.units.get("Sea Zone 10", ()))


def test_orders_made_impossible_by_a_battle_are_skipped_not_fatal():
    # PBEM: noncombat orders naming units that died are skipped and reported.
    state = position(place={"West Russia": units("3 infantry", "germany")})
    result = play("""
        combat:
        move 1 ftr Russia -> West Russia
        noncombat:
        move 1 ftr West Russia -> Russia
    """, state, SideDice(MISS, HIT))
    skipped = kinds(result.events, OrderSkipped)
    assert skipped and skipped[0].line == 5


def test_aircraft_without_landing_orders_fly_to_the_nearest_landing_space():
    state = position(place={"West Russia": units("1 infantry", "germany")})
    result = play("combat:\nmove 3 inf Karelia -> West Russia\nmove 1 ftr Russia -> West Russia",
                  state, SideDice(HIT, MISS))
    landed = kinds(result.events, Landed)
    assert landed and landed[0].path[0] == "West Russia"
    assert landed[0].path[-1] in {"Russia", "Archangel", "Caucasus", "Karelia"}


def test_amphibious_assault_sea_battle_then_landing():
    # §5.3.1: the sea battle clears the zone, then the cargo lands and fights.
    state = position(power="germany", place={"Sea Zone 5": units("1 transport, 1 battleship", "germany"),
                                             "Sea Zone 6": units("1 destroyer", "uk"),
                                             "Norway Finland": ()},
                     owners={"Norway Finland": "uk"}, add={"Norway Finland": units("1 infantry", "uk")})
    result = play("""
        combat:
        load 1 inf, 1 tank Western Europe -> SZ 5
        move 1 trn (1 inf, 1 tank) SZ 5 -> SZ 6
        move 1 bb SZ 5 -> SZ 6
        unload 1 inf, 1 tank SZ 6 -> Norway Finland
    """, state, SideDice(HIT, MISS))
    battles = [e.space for e in kinds(result.events, BattleEnded)]
    assert battles == ["Sea Zone 6", "Norway Finland"]
    assert result.state.owners["Norway Finland"] == "germany"
    assert Counter(u.type for u in result.state.units["Norway Finland"]) == {"infantry": 1, "tank": 1}


def test_failed_sea_battle_keeps_cargo_aboard_and_overland_units_fight_one_round():
    # §5.3.1 step 3, checklist 38 [L373]: the sea part fails (the lone transport must
    # retreat), so its cargo never lands, but the overland attack on Karelia still fights.
    state = position(power="germany", place={"Sea Zone 6": units("1 transport", "germany"),
                                             "Sea Zone 5": units("1 battleship", "uk")})
    result = play("""
        combat:
        load 1 inf Norway Finland -> SZ 6
        move 1 trn (1 inf) SZ 6 -> SZ 5
        unload 1 inf SZ 5 -> Karelia
        move 1 inf Eastern Europe -> Karelia
        battle Karelia: retreat to Eastern Europe after round 1
    """, state, SideDice(MISS, MISS))
    ended = {e.space: e for e in kinds(result.events, BattleEnded)}
    assert ended["Sea Zone 5"].outcome == "attacker_retreats"
    assert ended["Karelia"].outcome == "attacker_retreats" and ended["Karelia"].rounds == 1
    transport = [u for u in result.state.units["Sea Zone 6"] if u.type == "transport"]
    assert [c.type for c in transport[0].cargo] == ["infantry"]
    assert result.state.owners["Karelia"] == "ussr"


def test_victory_is_declared_at_the_end_of_the_us_turn():
    # §1.5: the Axis win holding two Allied capitals at the end of the US turn.
    state = position(power="usa", owners={"Russia": "germany", "United Kingdom": "germany"},
                     place={"Russia": units("1 infantry", "germany"),
                            "United Kingdom": units("1 infantry", "germany")})
    result = play("pass", state, SideDice(MISS, MISS))
    assert kinds(result.events, VictoryDeclared)[0].side == "Axis"
    assert result.state.winner == "Axis"


def test_no_victory_check_after_other_powers():
    state = position(power="germany", owners={"Russia": "germany", "United Kingdom": "germany"},
                     place={"Russia": units("1 infantry", "germany"),
                            "United Kingdom": units("1 infantry", "germany")})
    result = play("pass", state, SideDice(MISS, MISS))
    assert result.state.winner is None


def test_turn_passes_to_the_next_power_and_round():
    result = play("pass", position(power="usa"), SideDice(MISS, MISS))
    assert (result.state.power, result.state.round) == ("ussr", 2)
    assert result.state.turn_number == 2


def test_standing_orders_are_stored_and_used_by_the_defender():
    # PBEM standing orders: the German loss order for West Russia applies on the USSR's turn.
    game = game_1941()
    state = position(power="germany", place={"West Russia": units("1 infantry, 1 tank", "germany")})
    after = play("defend West Russia: losses tank, inf", state, SideDice(MISS, MISS)).state
    assert after.standing_orders["germany"].for_space("West Russia").loss_order == ("tank", "infantry")
    from attrs import evolve
    soviet_turn = evolve(after, power="ussr")
    result = play("combat:\nmove 1 inf Karelia -> West Russia", soviet_turn, SideDice(HIT, MISS), game)
    from adjudicator.model.events import Casualties
    first = [c for c in kinds(result.events, Casualties) if c.side == "defender"][0]
    assert first.killed == {"tank": 1}


def test_own_fighters_riding_an_attacking_carrier_take_off_and_survive_it():
    # §4.6 [L695]: every own fighter on an attacking carrier takes off before the battle,
    # does not fight, and lands afterwards; here the carrier is sunk and the fighters fly
    # home to the United Kingdom (2 spaces away).
    from adjudicator.model.state import Unit
    carrier = Unit("carrier", "uk", (Unit("fighter", "uk"), Unit("fighter", "uk")))
    state = position(power="uk", place={"Sea Zone 7": (carrier,), "Sea Zone 6": units("1 battleship", "germany")})
    result = play("combat:\nmove 1 cv (2 ftr) SZ 7 -> SZ 6", state, SideDice(MISS, HIT))
    started = [e for e in result.events if type(e).__name__ == "BattleStarted"][0]
    assert started.attacking_units == {"carrier": 1}
    assert not kinds(result.events, AircraftLost)
    landed = kinds(result.events, Landed)
    assert sum(e.units["fighter"] for e in landed) == 2
    assert Counter(u.type for u in result.state.units["United Kingdom"])["fighter"] == 1 + 2


def test_allied_transport_loaded_now_unloaded_on_the_owners_next_turn():
    # §4.13 / checklist 45 [L797]: load on your turn, the ally moves it on its turn, you
    # unload on your next turn, never the same turn.
    from adjudicator.engine.turn import check
    game = game_1941()
    state = position(place={"Sea Zone 4": units("1 transport", "uk")})
    same_turn = "noncombat:\nload 2 inf Archangel -> SZ 4\nunload 2 inf SZ 4 -> Karelia"
    problems = check(game, state, orders(same_turn, state, game))
    assert any("aboard transports" in problem_text(p) for p in problems if p.severity == "error")
    after_load = play("noncombat:\nload 2 inf Archangel -> SZ 4", state, SideDice(MISS, MISS)).state
    transport = after_load.units["Sea Zone 4"][-1]
    assert transport.owner == "uk" and [c.owner for c in transport.cargo] == ["ussr", "ussr"]
    from attrs import evolve
    next_soviet_turn = evolve(after_load, power="ussr")
    result = play("noncombat:\nunload 2 inf SZ 4 -> Karelia", next_soviet_turn, SideDice(MISS, MISS))
    assert Counter(u.type for u in result.state.units["Karelia"])["infantry"] == 3 + 2


def test_zone_with_only_enemy_subs_or_transports_does_not_block_ships():
    # Checklist 5 [L256]: enemy subs and transports do not block movement.
    from adjudicator.engine.turn import check
    game = game_1941()
    state = position(power="uk", place={"Sea Zone 7": units("1 submarine, 1 transport", "germany")})
    text = "noncombat:\nmove 1 bb SZ 8 -> SZ 7 -> SZ 6"
    assert [p for p in check(game, state, orders(text, state, game)) if p.severity == "error"] == []


def test_warship_ending_with_lone_enemy_transports_sinks_them():
    # Checklist 6 [L791, L857]: it is a battle, and the transports are defenceless.
    from adjudicator.model.events import Casualties
    state = position(power="uk", place={"Sea Zone 7": units("1 transport", "germany")})
    result = play("combat:\nmove 1 bb SZ 8 -> SZ 7", state, SideDice(MISS, MISS))
    lost = [c for c in kinds(result.events, Casualties) if c.side == "defender"]
    assert lost and lost[0].reason == "defenceless" and lost[0].killed == {"transport": 1}
    assert not any(u.owner == "germany" for u in result.state.units["Sea Zone 7"])


def test_fighter_may_end_in_enemy_zone_where_a_new_carrier_is_placed():
    # Checklist 19 [L565] and 34 [L595]: the new carrier is placed in the enemy zone (no
    # battle) and the fighter lands on it.
    state = position(power="germany", ipcs={"germany": 30},
                     place={"Sea Zone 5": units("1 destroyer", "uk")})
    result = play("""
        buy 1 cv
        noncombat:
        move 1 ftr Germany -> SZ 5
        place 1 cv SZ 5
    """, state, SideDice(MISS, MISS))
    carriers = [u for u in result.state.units["Sea Zone 5"] if u.type == "carrier"]
    assert carriers and [c.type for c in carriers[0].cargo] == ["fighter"]
    assert not kinds(result.events, AircraftLost)


def test_allied_units_in_the_attacked_zone_sit_out():
    # Checklist 24 [L411, L513-L515]: a US destroyer in the zone neither fights nor is hit.
    state = position(power="uk", place={"Sea Zone 7": units("1 destroyer", "usa") + units("1 submarine", "germany")})
    result = play("combat:\nmove 1 bb SZ 8 -> SZ 7\nbattle SZ 7: subs fire", state, SideDice(MISS, HIT))
    started = [e for e in result.events if type(e).__name__ == "BattleStarted"][0]
    assert started.attacking_units == {"battleship": 1}
    assert any(u.owner == "usa" and u.type == "destroyer" for u in result.state.units["Sea Zone 7"])


def test_liberator_cannot_use_the_liberated_factory():
    # Checklist 29 [L653]: the UK liberates Caucasus (Soviet factory); it may not place there.
    from adjudicator.engine.turn import check
    game = game_1941()
    state = position(power="uk", ipcs={"uk": 30}, owners={"Caucasus": "ussr"})
    text = "buy 1 inf\nplace 1 inf Caucasus"
    errors = [problem_text(p) for p in check(game, state, orders(text, state, game)) if p.severity == "error"]
    assert any("no factory you have controlled" in e for e in errors)


def test_no_fighter_placed_on_an_allied_carrier():
    # Checklist 35 [L597].
    from adjudicator.engine.turn import check
    game = game_1941()
    state = position(power="uk", ipcs={"uk": 30}, place={"Sea Zone 7": units("1 carrier", "usa")})
    errors = [problem_text(p) for p in check(game, state, orders("buy 1 ftr\nplace 1 ftr SZ 7", state, game))
              if p.severity == "error"]
    assert any("no carrier of yours" in e for e in errors)


def test_ships_starting_in_a_hostile_zone_may_leave_without_fighting():
    # Checklist 40 [L266-L275]: option (d), leave and not fight; it cannot move again in noncombat.
    state = position(power="uk", place={"Sea Zone 8": units("1 battleship", "uk") + units("1 destroyer", "germany")})
    result = play("combat:\nmove 1 bb SZ 8 -> SZ 9", state, SideDice(MISS, MISS))
    assert not [e for e in result.events if type(e).__name__ == "BattleStarted"]
    assert any(u.type == "battleship" and u.owner == "uk" for u in result.state.units["Sea Zone 9"])


def test_two_amphibious_landings_on_one_target_fight_one_land_battle():
    # §5.3.1 step 2: all attacking units, from every transport and overland, fight together.
    from adjudicator.model.state import Unit
    trn = lambda *cargo: Unit("transport", "uk", tuple(Unit(c, "uk") for c in cargo))  # noqa: E731
    state = position(power="uk", place={"Sea Zone 7": (trn("infantry"),),
                                        "Sea Zone 6": (trn("infantry", "infantry"),),
                                        "Western Europe": units("2 infantry", "germany")},
                     clear=("Sea Zone 5", "Sea Zone 8"))
    result = play("combat:\nunload 1 inf SZ 7 -> Western Europe\nunload 2 inf SZ 6 -> Western Europe",
                  state, SideDice(HIT, MISS))
    started = [e for e in result.events if type(e).__name__ == "BattleStarted"]
    assert [(e.space, e.attacking_units) for e in started] == [("Western Europe", {"infantry": 3})]
    assert result.state.owners["Western Europe"] == "uk"


def test_fighters_cannot_take_off_after_their_carrier_moved():
    # §4.6 [L661, L691]: to fight, a fighter takes off before the carrier moves.
    from adjudicator.model.state import Unit
    from adjudicator.engine.turn import check
    game = game_1941()
    cv = Unit("carrier", "usa", (Unit("fighter", "usa"), Unit("fighter", "usa")))
    state = position(power="usa", place={"Sea Zone 42": (cv,), "Sea Zone 39": units("1 submarine", "japan"),
                                         "Sea Zone 46": units("1 destroyer", "japan")},
                     clear=("Sea Zone 45",))
    text = "combat:\nmove 1 cv SZ 42 -> SZ 40 -> SZ 39\nmove 2 ftr SZ 39 -> SZ 45 -> SZ 46"
    errors = [problem_text(p) for p in check(game, state, orders(text, state, game)) if p.severity == "error"]
    assert any("carrier that has already moved" in e for e in errors), errors


def test_escort_may_ignore_a_lone_sub_in_the_landing_zone():
    # §5.3.1 step 1: with only subs/transports defending, the attacker may ignore them.
    from adjudicator.model.state import Unit
    trn = Unit("transport", "uk", (Unit("infantry", "uk"), Unit("infantry", "uk")))
    state = position(power="uk", place={"Sea Zone 8": (trn, Unit("destroyer", "uk")),
                                        "Sea Zone 7": units("1 submarine", "germany"),
                                        "Western Europe": units("1 infantry", "germany")},
                     clear=("Sea Zone 5",))
    text = "combat:\nmove 1 trn, 1 dd SZ 8 -> SZ 7\nunload 2 inf SZ 7 -> Western Europe"
    result = play(text, state, SideDice(HIT, MISS))
    assert [e.space for e in kinds(result.events, BattleEnded)] == ["Western Europe"]
    assert result.state.owners["Western Europe"] == "uk"
    fought = play(text + "\nbattle SZ 7: subs fire", state, SideDice(HIT, MISS))
    assert [e.space for e in kinds(fought.events, BattleEnded)] == ["Sea Zone 7", "Western Europe"]


def test_ships_leaving_a_hostile_zone_sink_lone_transports_where_they_end():
    # §6.6 [L791]: ending a combat move with only enemy transports destroys them.
    state = position(power="uk", add={"Sea Zone 8": units("1 destroyer", "germany")},
                     place={"Sea Zone 7": units("1 transport", "germany")})
    result = play("combat:\nmove 1 bb SZ 8 -> SZ 7", state, SideDice(HIT, MISS))
    assert not any(u.owner == "germany" for u in result.state.units["Sea Zone 7"])


def test_aircraft_attacking_a_sea_zone_alone_can_retreat():
    # §5.3.2 condition B: retreating aircraft stay in the space and land in noncombat.
    from adjudicator.model.events import Retreated
    state = position(power="germany", place={"Sea Zone 8": units("1 battleship", "uk")})
    result = play("combat:\nmove 1 ftr Western Europe -> SZ 8\nmove 1 ftr Germany -> Western Europe -> SZ 8\n"
                  "battle SZ 8: retreat if attackers < 5", state, SideDice(MISS, MISS))
    assert kinds(result.events, Retreated)
    assert kinds(result.events, BattleEnded)[0].rounds == 1
    assert Counter(u.type for u in result.state.units["Western Europe"])["fighter"] == 2
