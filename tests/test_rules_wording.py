"""What players read about the 1941 rules: the exact sentence of each problem and battle
summary, on the positions of the rules cases (maps/aa1941/cases).  The cases check the
codes and outcomes; these tests check the wording (present.wording), which a case cannot."""

from __future__ import annotations

import functools

import pytest

from adjudicator.io.parser import parse_orders
from adjudicator.model.errors import OrdersSyntaxError
from adjudicator.model.events import BattleEnded, BattleStarted, Retreated
from adjudicator.present.wording import battle_summary, problem_text
from adjudicator.service.rules_cases import edition_cases, run_case
from helpers import game_1941, start_state


@functools.lru_cache(maxsize=None)
def _cases() -> dict:
    return {c.name: c for c in edition_cases("aa1941")}


def _run(name: str):
    result = run_case(_cases()[name], "aa1941")
    assert result.ok, result.failures
    return result


@pytest.mark.parametrize("case, code, sentence", [
    ("1941-move-02", "not_adjacent", "Karelia is not adjacent to Ukraine (Karelia borders Archangel, "
     "Eastern Europe, Norway Finland, Sea Zone 4, Sea Zone 5, West Russia)"),
    ("1941-move-03", "path_too_long", "Infantry moves 1, the path is 2 long"),
    ("1941-move-05", "impassable", "Turkey is neutral and impassable"),
    ("1941-move-08", "combat_move_to_friendly",
     "a combat move must end in an enemy territory; Russia is friendly (move it under 'noncombat:')"),
    ("1941-move-09", "noncombat_into_enemy",
     "land units may never enter enemy territory West Russia in noncombat"),
    ("1941-move-17", "blitz_blocked", "cannot blitz through Karelia: it holds enemy units"),
    ("1941-move-18", "blitz_blocked_by_factory",
     "cannot blitz through Russia: an enemy industrial complex there stops land units"),
    ("1941-sea-01", "must_stop_in_hostile_zone", "ships must stop on entering hostile sea zone Sea Zone 7"),
    ("1941-sea-03", "sub_stopped_by_anti_sub",
     "a submarine must stop on entering Sea Zone 7: an enemy destroyer is there"),
    ("1941-sea-24", "straits_closed", "no ship may enter or leave Sea Zone 18 (the straits are closed)"),
    ("1941-sea-18", "canal_closed", "the Suez Canal is not controlled by your side since the start of "
     "the turn (Middle East, Anglo-Egypt Sudan)"),
    ("1941-air-01", "air_range", "Fighter has a range of 4; it has used 0 and this path needs 5 more"),
    ("1941-air-03", "air_no_landing", "Fighter attacking Sea Zone 10 could not reach any landing space "
     "with its remaining 1 moves (no carrier deck with room either) (no kamikaze attacks; land it on a "
     "territory friendly since the start of the turn or on a carrier with room)"),
    ("1941-air-07", "air_cannot_land_there", "Fighter cannot land in West Russia: it must be a territory "
     "friendly since the start of the turn, or a carrier with room"),
    ("1941-air-18", "units_cannot_move", "needs 2 Fighters in Sea Zone 40, found 0 that can move "
     "(2 cannot: it rode on a carrier that has already moved (order fighters off a carrier before the "
     "carrier moves))"),
    ("1941-trn-01", "no_transport_room", "no transport of your side in Sea Zone 5 has room for Tank"),
    ("1941-trn-04", "cargo_not_unloaded", "Infantry loaded in combat must be unloaded in an amphibious assault"),
    ("1941-trn-05", "unload_friendly_in_combat", "Norway Finland is friendly: unload there under 'noncombat:'"),
    ("1941-trn-18", "ally_transport_cargo_next_turn",
     "your infantry aboard United Kingdom's transport in Sea Zone 4 were loaded this turn: cargo "
     "on an ally's transport unloads on your next turn, after the ally has moved it"),
    ("1941-trn-12", "transport_unloaded_elsewhere",
     "the transport in Sea Zone 5 carrying your infantry already unloads into Germany this turn: "
     "a transport unloads into one territory per turn"),
    ("1941-trn-20", "ally_cargo_not_yours",
     "the infantry aboard your transports in Sea Zone 4 are Soviet Union's: the cargo's owner "
     "unloads it, on its own turn"),
    ("1941-prod-01", "purchase_too_expensive", "the purchase costs 18 IPCs; Soviet Union has 7"),
    ("1941-prod-03", "overbuying",
     "6 units bought but your factories can place only 5 this turn (no deliberate overbuying)"),
    ("1941-prod-04", "factory_limit", "cannot place Infantry in Russia: the factory limit near Russia is reached"),
    ("1941-prod-07", "no_factory_adjacent", "cannot place Destroyer in Sea Zone 6: Sea Zone 6 is not next "
     "to a factory you have controlled since the start of the turn"),
    ("1941-prod-08", "land_unit_placed_at_sea", "cannot place Infantry in Sea Zone 4: land units cannot be "
     "placed at sea (not even onto transports)"),
    ("1941-prod-11", "no_carrier_room",
     "cannot place Fighter in Sea Zone 7: no carrier of yours in Sea Zone 7 with room for a fighter"),
    ("1941-prod-13", "no_factory_here", "cannot place Infantry in Caucasus: Caucasus has no factory you "
     "have controlled since the start of the turn"),
    ("1941-prod-19", "capital_lost_no_purchase",
     "Soviet Union's capital is in enemy hands: it cannot buy or repair"),
    ("1941-combat-37", "retreat_redirected",
     "no attacking unit comes from Russia, so the retreat will go to Karelia instead (legal: Karelia)"),
])
def test_problem_sentence(case, code, sentence):
    found = [problem_text(p, game_1941()) for p in _run(case).problems if p.code == code]
    assert found == [sentence]


@pytest.mark.parametrize("case, space, summary", [
    ("1941-combat-01", "West Russia", "Soviet Union wins, taking West Russia after 1 round; TUV swing +9"),
    ("1941-combat-03", "West Russia", "Both sides destroyed in West Russia after 1 round; TUV swing +0"),
    ("1941-combat-34", "Karelia", "Soviet Union and United Kingdom hold Karelia after 1 round; TUV swing -6"),
    ("1941-combat-14", "Sea Zone 7", "United Kingdom wins in Sea Zone 7 at once; TUV swing +23"),
    ("1941-combat-36", "West Russia",
     "Soviet Union retreats from West Russia to Karelia after 2 rounds; TUV swing +0"),
    ("1941-combat-08", "Sea Zone 7",
     "Stalemate in Sea Zone 7 at once: no unit can hit the other side; TUV swing +0"),
    ("1941-combat-33", "Sea Zone 6",
     "Stalemate in Sea Zone 6 after 3 rounds: no unit can hit the other side; TUV swing -26"),
])
def test_battle_summary(case, space, summary):
    """The report's one-line summary (TripleA's style) of a battle the case really fought."""
    game = game_1941()
    events = _run(case).events
    started = next(e for e in events if isinstance(e, BattleStarted) and e.space == space)
    ended = next(e for e in events if isinstance(e, BattleEnded) and e.space == space)
    retreat = next((e.destination for e in events if isinstance(e, Retreated) and e.battle == ended.battle),
                   None)
    assert battle_summary(game, ended, started.attacker, started.defenders, retreat) == summary


def test_orders_for_the_wrong_power_are_refused():
    game = game_1941()
    with pytest.raises(OrdersSyntaxError, match="Germany"):
        parse_orders("power: Germany\nbuy 1 inf", game, power=start_state(game).power)


def test_a_count_of_other_orders_reads_in_words_not_order_s():
    from adjudicator.present.wording import problem_text
    assert problem_text(("nmr_with_orders", {"count": 1})).endswith("remove the other order")
    assert problem_text(("concede_with_orders", {"count": 3})).endswith("remove the 3 other orders")
    assert problem_text(("board_live_other_orders", {"count": 2})).endswith("remove the 2 other orders")
