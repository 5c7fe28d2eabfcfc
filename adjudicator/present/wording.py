"""The words: every problem code and event reason the engine produces, as English text.

The engine and the files speak in codes and parameters (``model.problems``, ``model.events``);
this module is the one place that turns them into sentences, so a translation or a change
of tone touches nothing else.  Templates use ``{name}`` placeholders; parameters named
``unit``/``units`` (unit keys, ``{key: count}``), ``power``/``orders_for`` (power keys) are
shown by display name, lists joined with commas.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..model.game import Game
from ..model.problems import Problem

PROBLEMS: dict[str, str] = {
    "convert_not_soviet": "only the Soviet Union converts Allied units (the Great Patriotic War)",
    "convert_not_soviet_factory": "{space} is not an originally Soviet territory with a factory that the Soviet Union holds: no conversion there",
    "convert_units_missing": "there are not that many American or British land or air units in {space} to convert",
    "unit_submerged": "the {unit} submerged in a battle this turn and stays down until step 6: it cannot move",
    "not_in_pregame": "the pre-game round has only 'buy', 'place', 'keep' and standing orders: no '{kind}' before round 1",
    "special_cash_too_little": "costs {cost} IPCs but only {ipcs} of the special cash are left",
    "special_cash_no_unit_there": "special-cash units go only where you already have a unit, and {space} has none of yours",
    "special_cash_wrong_domain": "{unit_plural} cannot stand in {space}",
    "special_cash_keep_too_much": "cannot keep {amount} IPCs: only {ipcs} of the special cash are left",
    "research_off": "research is an optional rule this game does not play (option research is off)",
    "research_not_allowed": "{power} may not research [L1145]",
    "research_too_many": "{dice} research dice are more than one order may buy (at most {most})",
    "research_no_chart": "name the chart a breakthrough rolls on, 'chart 1' or 'chart 2' "
                         "(example: 'research 3 dice, chart 2')",
    "research_too_expensive": "research dice for {cost} IPCs cost more than the {ipcs} IPCs there are",
    "research_unknown_economy": "'{economy}' is no economy of {power} that can pay (a UK economy: uk or uk_pacific)",
    "research_economy_pays": "the payments named ({paid}) are more than the {cost} IPCs the dice cost, "
                             "or than an economy has",
    "rocket_no_technology": "{power} has no Rockets technology [L1180]",
    "rocket_no_base": "rockets are fired from an operative air base of yours, and {space} has none",
    "rocket_base_used": "the air base in {space} fires one rocket a turn",
    "rocket_no_target": "{space} has no enemy facility a rocket can damage",
    "rocket_too_far": "{target} is more than 4 spaces from {space} (not counting a path over neutral land)",
    "paratroop_no_technology": "{power} has no Paratroopers technology [L1182]",
    "paratroop_too_many": "at most {most} paratroopers fly from the air base in {space}",
    "paratroop_no_base": "paratroopers fly from a territory with an operative air base of yours, and {space} has none",
    "paratroop_no_infantry": "{space} has fewer than {count} of your infantry that have not moved this turn",
    "paratroop_not_hostile": "paratroopers drop into a hostile territory, and {space} is not",
    "paratroop_too_far": "{target} is more than 3 spaces from {space} (not counting a path over neutral land)",
    "paratroop_no_attack": "paratroopers join an attack by your land units (overland or from the sea) on {space}, and none moved in",
    "keep_not_in_pregame": "'keep' keeps special cash in the pre-game round (round 0) only",
    "special_cash_not_placed": "bought with the special cash but not placed: {units}; their {ipcs} IPCs go back to the special cash",
    "middle_east_aa_moved": "the {unit} in the Middle East has already moved this round (any Ally may move it, once per round)",
    "carrier_damaged": "the {unit} is aboard a damaged carrier: it cannot take off until the carrier is repaired at a naval base",
    "unit_frozen": "the {unit} was converted by the Soviet Union and cannot move until its next turn",
    # -- Global 1940: politics (engine/politics.py) and neutrals (engine/neutrals.py)
    "declare_not_enemy": "{power} cannot declare war on {enemy}: only on a power of the other side",
    "already_at_war": "{power} is already at war with {enemy}",
    "may_not_declare": "{power} may not declare war on {enemy} yet (the political rules: the USSR on Germany "
                       "or Italy from its 4th turn or once provoked, the USA once provoked or at its 3rd "
                       "Collect Income, China on Germany or Italy once provoked)",
    "not_at_war": "the {unit} may not enter {space}: it is held by, or holds units of, a power not at war "
                  "with its owner (declare war first, at the start of the combat move)",
    "neutral_power_stays_home": "the {unit} may not enter {space}: a power at war with no one (the USSR: "
                                "no one on that board) stays out of other nations' and neutral territories",
    "neutral_power_land": "the {unit} may not enter {space}: it belongs to a power at war with no one",
    "china_closed": "the {unit} may not enter China ({space}) while its power is not at war with Japan",
    "japan_near_usa": "while not at war with the USA, Japanese ships may not end their move within two sea "
                      "zones of Western United States or Alaska ({space})",
    "usa_near_japan": "while not at war with Japan, US ships may not end their move next to Japanese land ({space})",
    "usa_europe_waters": "while not at war with Germany or Italy, US ships on the Europe board end their move "
                         "only next to US land ({space}; warships may patrol Sea Zone 102)",
    "friendly_neutral": "{space} is a friendly neutral: it cannot be attacked; land units move into it in noncombat move",
    "neutral_overflight": "the {unit} may not fly over or land in the neutral {space} (nor in land taken from a "
                          "neutral this turn) unless attacking it",
    "neutral_not_through": "the {unit} may move into the neutral {space} but not through it",
    "neutral_entry_units": "only infantry, artillery, mechanized infantry and tanks take over a friendly neutral ({space})",
    "dutch_uk_anzac_only": "only the UK and ANZAC move into the Dutch territory {space} while no Axis power holds it",
    "dutch_needs_war": "Japan may attack the Dutch territory {space} only once it is at war with the UK and ANZAC",
    # -- the turn
    "game_over": "the game is over: the {side} have won",
    "wrong_power": "it is {power}'s turn, these orders are for {orders_for}",
    "nmr_with_orders": "'nmr' (no moves received) stands alone: remove the {other_orders}",
    "concede_with_orders": "'concede' stands alone: remove the {other_orders}",
    "concede_without_opponent": "a concession needs exactly one other side to win",
    "standing_unknown": "this edition has no standing order '{name}'",
    "standing_bad_value": "standing order '{name}' takes one of {values}, not '{value}'",
    "orders_of_another_power": "it is {power}'s turn, but every move is of {orders_for}'s "
                               "units: these look like {orders_for}'s orders (nothing else "
                               "was checked)",
    # -- which units
    "units_not_there": "needs {count} {unit_n}{cargo_text} in {space}, but none of yours is there now "
                       "(lost in battle, moved away, or never there)",
    "units_cannot_move": "needs {count} {unit_n}{cargo_text} in {space}, found {found} that can move{blocked_text}",
    # why a unit may not move (also the {why} of units_cannot_move)
    "static_unit": "never moves",
    "already_moved": "has already moved in this phase",
    "aboard_transport": "is aboard a transport (unload it instead)",
    "carrier_moved_first": "rode on a carrier that has already moved (order fighters off a carrier "
                           "before the carrier moves)",
    "loaded_this_turn": "was loaded this turn (loading is its whole move)",
    "transport_unloaded": "has unloaded this turn and cannot move again",
    "raided_this_turn": "is on a bombing raid this turn",
    "moved_in_combat": "moved in combat this turn",
    "fought_this_turn": "fought this turn",
    "landed_from_sea": "landed from the sea this turn",
    "moves_only_noncombat": "moves only in the noncombat move",
    "captured_this_turn": "was captured this turn and cannot move",
    # -- paths
    "path_too_short": "the path needs at least a start and a destination",
    "not_adjacent": "{a} is not adjacent to {b} ({a} borders {neighbours})",
    "impassable": "{space} is neutral and impassable",
    "land_unit_at_sea": "{unit} cannot enter sea zones (load it onto a transport)",
    "path_too_long": "{unit} moves {move}, the path is {length} long",
    "noncombat_into_enemy": "land units may never enter enemy territory {space} in noncombat",
    "must_stop_in_enemy": "{unit} must stop in enemy territory {space}",
    "blitz_not_first": "a blitz must go through the enemy territory as its first step ({space})",
    "blitz_blocked": "cannot blitz through {space}: it holds enemy units",
    "blitz_needs_partner": "a {unit} blitzes through {space} only paired with a {partner} moving in the same order (one {partner} for each)",
    "blitz_blocked_by_factory": "cannot blitz through {space}: an enemy {unit_lower} there stops "
                                "land units",
    "combat_move_to_friendly": "a combat move must end in an enemy territory; {space} is friendly "
                               "(move it under 'noncombat:')",
    "air_range": "{unit} has a range of {move}; it has used {used} and this path needs {length} more",
    "ship_on_land": "{unit} cannot enter land",
    "straits_closed": "no ship may enter or leave {zone} (the straits are closed)",
    "canal_closed": "the {canal} is not controlled by your side since the start of the turn "
                    "({territories})",
    "kamikaze_bad_value": "a kamikaze order takes a number of strikes from 0 to {most}, "
                          "optionally 'on <ship type>', not '{value}'",
    "kamikaze_not_warship": "kamikaze strikes aim at surface warships only, not {target_name}",
    "assault_beside_enemy_subs": "no unloading from {zone} into {space}: enemy submarines you do not "
                                 "attack are there, and no warship of yours is",
    "raid_no_such_target": "no enemy {target_name} in {space} that {unit_plural_lower} may raid",
    "canal_not_granted": "the {canal} is held by a power you are not at war with ({territories}) "
                         "that has not granted passage (its standing order 'canal <territory>: yes')",
    "sub_stopped_by_anti_sub": "a submarine must stop on entering {space}: an enemy destroyer is there",
    "must_stop_in_hostile_zone": "ships must stop on entering hostile sea zone {space}",
    "noncombat_into_hostile_zone": "ships cannot end a noncombat move in hostile sea zone {space}",
    # -- loading
    "load_direction": "load from a territory into a sea zone: 'load 2 inf Germany -> SZ 5'",
    "load_in_hostile_zone": "no loading in hostile sea zone {zone}",
    "load_not_land": "only land units can be loaded onto transports",
    "no_transport_room": "no transport of {whose} in {zone} has room for {unit}",
    "unload_direction": "unload from a sea zone into a territory: 'unload 2 inf SZ 6 -> Norway Finland'",
    "unload_friendly_in_combat": "{space} is friendly: unload there under 'noncombat:'",
    "unload_enemy_in_noncombat": "{space} is enemy territory: an amphibious assault is a combat move",
    "unload_in_hostile_zone": "no unloading in hostile sea zone {zone}",
    "no_cargo_to_unload": "not enough {unit_plural} of yours aboard transports in {zone} that can "
                          "unload into {space}",
    "transport_unloaded_elsewhere": "the transport in {zone} carrying your {unit_plural_lower} "
                                    "already unloads into {other} this turn: a transport unloads "
                                    "into one territory per turn",
    "transport_retreated": "the transport in {zone} carrying your {unit_plural_lower} retreated "
                           "from its sea battle: its cargo cannot unload this turn",
    "transport_escaped": "the transport in {zone} carrying your {unit_plural_lower} started the "
                         "turn beside enemy units in {start} and left: it may load or unload in "
                         "the noncombat move but takes part in no combat this turn",
    "ally_transport_cargo_next_turn": "your {unit_plural_lower} aboard {power}'s transport in "
                                      "{zone} were loaded this turn: cargo on an ally's transport "
                                      "unloads on your next turn, after the ally has moved it",
    "ally_cargo_not_yours": "the {unit_plural_lower} aboard your transports in {zone} are "
                            "{power}'s: the cargo's owner unloads it, on its own turn",
    "transport_moved_in_combat": "the transport in {zone} carrying your {unit_plural_lower} moved "
                                 "or fought in the combat move: it cannot unload in the noncombat "
                                 "move",
    # -- combat moves
    "air_no_battle": "{unit} must end its combat move in a battle; {space} has nothing to attack",
    "air_no_landing": "{unit} attacking {space} could not reach any landing space with its "
                      "remaining {moves} moves{deck_text} (no kamikaze attacks; land it on a "
                      "territory friendly since the start of the turn or on a carrier with room)",
    "ship_no_battle": "{unit} ends its combat move in {space} with no battle or amphibious assault "
                      "there: move it under 'noncombat:'",
    "assault_zone_stays_hostile": "no unit of yours in {zone} can fight the enemy warships "
                                  "there, so the transports cannot unload into {space}: an "
                                  "assault's transports must end in a sea zone that is friendly "
                                  "or can become friendly after the sea battle",
    "attack_without_attack_value": "{unit} has no attack value: it attacks {space} only beside "
                                   "a unit of yours there that has one",
    "cargo_not_unloaded": "{unit} loaded in combat must be unloaded in an amphibious assault",
    "directive_without_battle": "no battle in {space} follows from your combat moves; this "
                                "directive has no effect",
    "retreat_not_adjacent": "retreat destination {destination} is not adjacent to {space}",
    "retreat_redirected": "no attacking unit comes from {destination}, so the retreat will go to "
                          "{instead} instead (legal: {legal})",
    "retreat_impossible": "units attacking {space} cannot retreat to {destination}; only aircraft "
                          "can break off",
    "partial_retreat_refused": "in this edition the attackers in {space} retreat together (option "
                               "partial_retreat = \"{allowed}\"): a retreat cannot name only "
                               "{units}; write 'retreat' without units",
    "partial_retreat_units_missing": "the retreat from {space} names {count} {unit_n}, but {present} "
                                     "attack there",
    "retreat_landing_unreachable": "the aircraft retreating from {space} cannot reach or land in "
                                   "{destination}; they will land in the noncombat move instead",
    "raid_not_enemy": "{space} is not an enemy territory: nothing to bomb",
    "raid_no_factory": "{space} has no enemy factory that bombing can damage",
    "raid_not_bomber": "{unit} cannot make a strategic bombing raid",
    "tactical_bomber_target": "{unit_plural} raid only air and naval bases: {space} has no enemy base to raid",
    "raid_bombers_missing": "needs {count} {unit_n} that ended their combat move in {space}, "
                            "found {found}",
    "bombard_no_assault": "no amphibious assault on {space} to bombard",
    "bombard_not_able": "{unit} cannot bombard",
    "bombard_ships_missing": "needs {count} {unit_n} in the sea zones the assault on {space} "
                             "comes from, found {found}",
    "bombard_more_than_landing": "{count} ships named to bombard {space}, but only {landing} land "
                                 "units go ashore there: at most one ship bombards per land unit "
                                 "unloaded, so only the first {landing} fire",
    # -- landing
    "air_cannot_land_there": "{unit} cannot land in {space}: it must be a territory friendly since "
                             "the start of the turn, or a carrier with room",
    "carrier_duty_unmet": "{unit} counted on a carrier reaching {zone} to land (your landing plan), "
                          "but none with room is there at the end of the turn; that carrier move "
                          "is mandatory",
    # -- purchase, repair
    "capital_lost_no_purchase": "{power}'s capital is in enemy hands: it cannot buy or repair",
    "economy_capital_lost_no_purchase": "the capital of {power}'s {economy} economy is in enemy hands: that economy cannot buy or repair",
    "not_buyable": "{unit_plural} cannot be bought in this game",
    "china_cannot_buy": "China may not buy {unit_plural} now (it buys only {allowed}; artillery only while the Burma Road is open)",
    "liberation_bad_units": "a liberation order lists units: 'liberation: 2 inf, 1 art'",
    "liberation_not_placeable": "{unit_plural} cannot be placed on liberation: land or air units only, no facility",
    "liberation_too_expensive": "the units chosen for the liberation cost {cost} IPCs; at most {budget} are paid",
    "china_limits": "Chinese units may not enter {space}: only Chinese land, Kwangtung and Burma, never a sea zone",
    "purchase_too_expensive": "the purchase costs {cost} IPCs; {power} has {ipcs}",
    "economy_purchase_too_expensive": "what is placed in the land of {power}'s {economy} economy costs {cost} IPCs; that economy has {ipcs}",
    "repair_too_expensive": "the repair costs {cost} IPCs; {power} has {ipcs}",
    "overbuying": "{bought} units bought{economy_text} but your factories can place only {capacity} "
                  "this turn (no deliberate overbuying)",
    "naval_overbuying": "{bought} sea units bought but coastal factories can place only {capacity}",
    "overbuying_refunded": "{bought} units bought{economy_text} but your factories can place only "
                           "{capacity} this turn; what is not placed will be refunded",
    "naval_overbuying_refunded": "{bought} sea units bought but coastal factories can place only "
                                 "{capacity}; what is not placed will be refunded",
    "nothing_to_repair": "no damaged factory of yours in {space}",
    "repair_too_much": "the factory in {space} has {damage} damage; {points} cannot be repaired",
    # -- placement ("cannot place {unit} in {space}: ...")
    "not_bought": "no {unit_lower} was bought this turn (a rejected purchase buys nothing)",
    "all_placed": "all {unit_plural_lower} bought this turn are already placed",
    "factory_at_sea": "a factory is placed in a territory",
    "factory_not_held_since_start": "a new factory goes only in a territory you have controlled "
                                    "since the start of the turn",
    "factory_territory_too_poor": "{space} is worth too little for a factory",
    "factory_already_there": "{space} already has a factory",
    "base_at_sea": "an air or naval base is placed in a territory",
    "base_not_held_since_start": "a new {unit_lower} goes only in a territory you have "
                                 "controlled since the start of the turn",
    "base_already_there": "{space} already has a {unit_lower}",
    "naval_base_inland": "a naval base goes only in a territory on the coast; {space} has none",
    "factory_on_island": "this factory is never built on an island",
    "factory_not_original_land": "this factory is built only on land you held at the start of "
                                 "the game",
    "upgrade_no_factory": "an upgrade is placed on a minor factory of yours, and {space} has none",
    "upgrade_damaged": "the factory in {space} is damaged: repair it in the same purchase to upgrade it",
    "ship_placed_on_land": "{unit_plural} are placed in a sea zone next to a factory",
    "land_unit_placed_at_sea": "land units cannot be placed at sea (not even onto transports)",
    "air_placed_at_sea": "{unit_plural} can only be placed in a factory territory",
    "no_carrier_room": "no carrier of yours in {space} with room for a fighter",
    "no_factory_here": "{space} has no factory you have controlled since the start of the turn",
    "no_factory_adjacent": "{space} is not next to a factory you have controlled since the start "
                           "of the turn",
    "factory_limit": "the factory limit near {space} is reached",
    "units_not_placed": "bought but not placed by any order: {units}; they will be placed at your "
                        "factories (capital first) or refunded",
    # -- Taktyczne Starcie's battle board (engine/tactical/)
    "board_battle_kind": "a board battle is 'land' or 'sea', not '{battle}'",
    "board_deploy_started": "units are deployed before the first battle turn only",
    "board_wrong_battle": "{piece} ({piece_kind}) does not fight in a {battle} battle on the board",
    "board_piece_repeated": "{piece} is on the board already (at most {most} units in a battle)",
    "board_deploy_row": "{piece} deploys in its own rows {low}-{high}, and {square} is not one of them",
    "board_square_taken": "{square} is taken: one unit per square, and no unit passes through another",
    "board_mine_row": "a mine goes in its owner's rows {low}-{high}, once per square; {square} is not such a square",
    "board_cannot_fire": "{piece} cannot fire at {at}: not in a straight free line within range, or outside its zone",
    "board_not_orthogonal": "{piece} moves one square at a time, vertically or horizontally: {square} is not next to it",
    "board_own_mine": "{piece} may not enter {square}: its own side mined it",
    "board_confined": "{piece} stays in its own rows 1-3: {square} is outside them",
    "board_battle_over": "the board battle is over",
    "board_too_far": "{piece} has {points} movement points in a battle turn; the paths take {steps}",
    "board_no_target": "{at} is no enemy unit on the board, so {piece} cannot fire at it",
    "board_shots": "{piece} fires 1 to {most} shots in a battle turn, not {shots}",
    "board_no_piece": "{piece} is not on the board",
    "board_not_your_turn": "{piece} cannot act: it is the {side}'s battle turn",
    "board_already_acted": "{piece} has already acted in this battle turn",
    "board_square_unknown": "'{square}' is no square of a side's half: a column A-{last_column} and a row 1-{rows}, such as 'C2'",
    "board_formation_unknown": "there is no formation '{formation}' (known: {known})",
    "board_plan_unit_unknown": "the plan places {piece}, which is not in this battle",
    "board_too_many_mines": "the plan lays {count} mines; the side has {most}",
    "board_too_many_units": "more units than free squares in the own rows {low}-{high}",
    "board_doctrine": "a doctrine's {part} is one of {known}, not '{value}'",
    "board_odds_runs": "the odds of a board battle take 1 to {most} simulated battles, not {runs}",
    # -- live board battles (issue 26, t26live: engine/taktyczne/live.py)
    "board_live_order_repeated": "{piece} has a board line already this battle turn (each unit acts once, L31.11)",
    "board_live_too_many": "{count} board lines in one battle turn; at most {most}",
    "board_live_target_gone": "the target was destroyed earlier in this battle turn: the unit moved without firing",
    "board_live_unit_gone": "the unit was destroyed earlier in this battle turn: its line was skipped",
    "board_not_live": "board lines are for a live board battle's battle turn; no live battle waits for this power",
    "board_live_state": "the live board battle kept in the game state cannot be read: {detail}",
    "board_live_wrong_power": "the live board battle waits for the {side}'s battle turn, played by {waits_for}, not {power}",
    "live_not_attacked": "'live {area}' names an area no attack of this turn reaches: no battle is played live there",
    "board_live_other_orders": "a live board battle waits for this power's battle turn: only board lines (or the game master's nmr) are accepted: remove the {other_orders}",
    # Taktyczne Starcie's economy (engine/taktyczne/economy.py)
    "ts_not_buyable": "{unit} cannot be recruited (the edition's units.toml says why)",
    "ts_no_producer": "no object of yours in {space} produces {unit}: land units at your factory's area, ships in your shipyard's sea (L27.10, L27.21)",
    "ts_no_airfield": "aircraft need an airfield of yours in {space} (L27.22-L27.23)",
    "ts_blockaded": "another player's units are in {space}: your shipyard there produces nothing (blockade, L27.11)",
    "ts_stack_full": "{space} would hold {points} points of units, more than {limit} (L19.17)",
    "ts_too_expensive": "costs {cost} points, you have {points}",
    "ts_no_presence": "no {what} in {space}: objects are built where your units are or an object of yours stands (L27.3)",
    "ts_no_coast": "{sea} is not a sea bordering {space}: a shipyard stands over one (L27.5)",
    "ts_sea_occupied": "another player's units are in {sea}: no shipyard over it (L27.5)",
    "ts_no_shipyard": "you have no shipyard over {space}: a carrier is built into a shipyard's sea (L27.12)",
    "ts_build_where": "a {what} is built as 'build factory 44', 'build shipyard 44 over S05', 'build airfield 44' or 'build carrier S05', not in {space}",
    # Taktyczne Starcie battle plans as orders (engine/taktyczne/plans.py)
    "plan_formation_unknown": "the plan for {area} names the formation '{formation}', which the board "
                              "does not have (known: {known}); the plan is fought in 'line'",
    "plan_square_unknown": "the plan for {area}: '{square}' is no square of a side's half: a column "
                           "A-{last_column} and a row 1-{rows}, such as 'G3'",
    "plan_square_row": "the plan for {area}: a {unit} deploys in its side's rows {low}-{high} "
                       "(counted from its own edge), and {square} is not one of them",
    "plan_mine_row": "the plan for {area}: mines go in the side's rows {low}-{high} (counted from "
                     "its own edge), and {square} is not one of them",
    "plan_square_twice": "the plan for {area} puts two things on {square}: one unit or mine a square",
    "plan_unit_not_on_board": "the plan for {area} places a {unit}, which does not fight on the battle "
                              "board (tanks, warships, anti-tank and long-range guns do)",
    "plan_unit_wrong_board": "the plan for {area} places a {unit}, which does not fight on the "
                             "{battle} board",
    "plan_not_attacked": "there is a battle plan for {area}, but no attack on it this turn: the plan "
                         "is not used",
    "plan_unit_not_in_battle": "the plan for {area} names {square} for one {unit} more than fight "
                               "there: that square is not used",
    "plan_too_many_mines": "the plan for {area} names mine square {square}, but the side has only "
                           "{count} mines there: that square is not used",
    "plan_unreadable": "a standing battle plan that cannot be read: {reason}",
}

PLACEMENT_CODES = frozenset({
    "not_bought", "all_placed", "factory_at_sea", "factory_not_held_since_start",
    "factory_territory_too_poor", "factory_already_there", "factory_on_island",
    "factory_not_original_land", "base_at_sea", "base_not_held_since_start", "base_already_there",
    "naval_base_inland", "upgrade_no_factory", "upgrade_damaged", "ship_placed_on_land",
    "land_unit_placed_at_sea", "air_placed_at_sea", "no_carrier_room", "no_factory_here",
    "no_factory_adjacent", "factory_limit", "special_cash_no_unit_there", "special_cash_wrong_domain"})

CASUALTY_REASONS = {"hits": "", "defenceless": "defenceless", "cannot_retreat": "cannot retreat"}
# the dice table's "hits on" column for units keeping the best of several dice (event
# best_of_rolled) and for a Low Luck remainder read from several dice (low_luck_best_of_rolled)
BEST_OF_TARGET = "≤{target}, best of {dice}"
LOW_LUCK_NUMBER_TARGET = "{sure} sure + ≤{target} of {per_hit}"
AIRCRAFT_LOST = {"no_landing": "no landing space in range", "carrier_sunk": "carrier sunk, nowhere to land",
                 "scramble_home_lost": "its air base's territory was captured, nowhere to land",
                 "interceptor_home_lost": "its territory was captured, nowhere to land"}
LANDED = {"carrier_sunk": "carrier sunk", "no_order": "no landing order",
          "scrambled": "back from a scramble", "retreat": "retreated there from its battle",
          "interceptor_home_lost": "its territory was captured after it intercepted",
          "order_failed": "order on line {line} could not land it"}
INCOME_REASONS = {"capital_lost": "capital in enemy hands"}
INCOME_ITEMS = {"territories": "territories"}
VICTORY_RULES = {"capitals": "capitals held", "short_game": "short game: capitals held",
                 "victory_cities": "victory cities held", "total_victory": "all victory cities held",
                 "axis_capitals": "Axis capitals held"}


# What an edition's treasury counts, where it is not IPCs (Taktyczne Starcie's points, L19.12).
CURRENCIES = {"taktyczne": "points"}


def currency(game: Game | None) -> str:
    """The word for an edition's money: "IPCs", or Taktyczne Starcie's "points"."""
    return CURRENCIES.get(game.edition, "IPCs") if game is not None else "IPCs"


def unit_name(game: Game | None, key: str, count: int = 1) -> str:
    """Display name of a unit type, plural when ``count`` != 1."""
    ut = game.ruleset.units.get(key) if game else None
    if ut is None:
        return key
    return ut.name if count == 1 else ut.display_plural


def format_units(game: Game | None, units: Mapping[str, int], empty: str = "nothing") -> str:
    """``{"infantry": 3, "tank": 1}`` -> ``"3 Infantry, 1 Tank"`` (event order kept, none of
    a type left out)."""
    parts = [f"{n} {unit_name(game, key, n)}" for key, n in units.items() if n]
    return ", ".join(parts) if parts else empty


def units_text(game: Game | None, units: Mapping[str, int]) -> str:
    """``{"infantry": 2}`` -> "2 Infantry"."""
    return ", ".join(f"{n} {unit_name(game, k, n)}" for k, n in units.items()) or "nothing"


def power_name(game: Game | None, key: str | None) -> str:
    if not key:
        return "neutral"
    power = (game.ruleset.powers.get(key) or game.ruleset.nations.get(key)) if game else None
    return power.name if power else key


POWER_PARAMS = ("power", "orders_for", "by", "from_power", "payer", "payee",
                "enemy", "nation")   # shown by name


def _values(game: Game | None, code: str, params: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key in POWER_PARAMS:
            value = power_name(game, value)
        elif key == "units" and isinstance(value, Mapping):
            value = units_text(game, value)
        elif key == "why" and value:
            value = PROBLEMS.get(value, value)
        elif isinstance(value, (list, tuple)):
            value = ", ".join(map(str, value))
        out[key] = value
    unit = params.get("unit")
    if isinstance(unit, str):
        count = params.get("count", 1)
        out["unit"] = unit_name(game, unit)
        out["unit_n"] = unit_name(game, unit, count if isinstance(count, int) else 2)
        out["unit_plural"] = unit_name(game, unit, 2)
        out["unit_lower"] = out["unit"].lower()
        out["unit_plural_lower"] = out["unit_plural"].lower()
    count = params.get("count")
    if isinstance(count, int):
        out["other_orders"] = "other order" if count == 1 else f"{count} other orders"
    cargo = params.get("cargo")
    out["cargo_text"] = ("" if cargo is None else " carrying " + (units_text(game, cargo)
                                                                  if cargo else "nothing"))
    economy = params.get("economy")
    if isinstance(economy, str) and economy:
        out["economy"] = economy_name(game, economy)
    out["economy_text"] = (f" ({out['economy']} economy)" if isinstance(economy, str) and economy
                           and economy != params.get("power") else "")
    if isinstance(params.get("objective"), str):
        out["objective"] = objective_name(params["objective"])
    blocked, why = params.get("blocked"), params.get("why")
    out["blocked_text"] = f" ({blocked} cannot: it {PROBLEMS.get(why, why)})" if blocked and why else ""
    out["deck_text"] = "" if not params.get("decks") else " (no carrier deck with room either)"
    out["whose"] = "your side" if params.get("allied") else "yours"
    target = params.get("target")
    if isinstance(target, str):
        out["target_name"] = unit_name(game, target).lower()
    for key in ("from_type", "to_type"):          # a unit type changed where it stands
        if isinstance(params.get(key), str):
            count = params.get("count", 1)
            out[key.replace("_type", "_name")] = unit_name(
                game, params[key], count if isinstance(count, int) else 1)
    rule = params.get("rule")
    if isinstance(rule, str):
        out["rule_text"] = VICTORY_RULES.get(rule, rule.replace("_", " "))
    if code in ("research_rolled", "technology_gained"):
        out.update(_research_values(params))
    if code == "ts_board_battle":
        out.update(_board_battle_values(params, game))
    if code in ("ts_overflight_fire", "ts_aircraft_evacuated"):
        out.update(_air_values(params, game))
    if code == "ts_live_battle_turn":
        skipped = params.get("skipped", ())
        out["by_text"] = ("missed the deadline: the plan played" if params.get("by_plan")
                          else "played")
        out["skipped_text"] = (f", {len(skipped)} line{'' if len(skipped) == 1 else 's'} skipped"
                               if skipped else "")
        out["next_text"] = (f"; {power_name(game, params['next_power'])} plays next"
                            if params.get("next_power") else "; the battle is over")
        out["board_text"] = "".join(f"; {board_event_text(e)}" for e in params.get("board_events", ())
                                    if e.kind != "board_turn_started")
        out["power"] = power_name(game, params.get("power"))
    if code == "ts_live_battle_started":
        out.update(attacker=power_name(game, params.get("attacker")),
                   defender=power_name(game, params.get("defender")),
                   next_power=power_name(game, params.get("next_power")))
    if code in STRIKE_EVENT_CODES:
        out.update(_strike_values(code, params, game))
    if code == "ts_main_map_taken":
        out.update(attacker=power_name(game, params["attacker"]), defender=power_name(game, params["defender"]),
                   captured_text=units_text(game, params["captured"]),
                   destroyed_text=units_text(game, params["destroyed"]))
    if code == "ts_player_eliminated":
        out.update(player=power_name(game, params["player"]))
    if code.startswith(WAR_PREFIXES):              # Taktyczne Starcie's war (issue 27, below)
        out.update(_war_values(code, params, game))
    if code in NUCLEAR_CODES:                      # Taktyczne Starcie's nuclear weapons (below)
        out.update(_nuclear_values(params, game))
    if code in LRG_EVENTS:
        out.update(_lrg_values(params, game))
    if code == "ts_turn_limit":
        out["standings_text"] = ", ".join(
            f"{power_name(game, p)} {areas} areas and {pts} points" for p, areas, pts in params["standings"])
        winner = params["winner"]
        out["winner_text"] = f"{power_name(game, winner)} wins" if winner else "no one wins"
    return out


# Global 1940's second economy and its national objectives [L451-L589] (maps/global1940/game.toml
# ``economies`` and ``[[objective]]``): what each one asks, as a report names it.
ECONOMY_NAMES = {"uk": "UK Europe", "uk_pacific": "UK Pacific"}
OBJECTIVE_NAMES = {
    "germany_soviet_trade": "not at war with the Soviet Union",
    "germany_soviet_cities": "5 for each of Novgorod, Volgograd and Russia held",
    "germany_caucasus": "the Axis holds Caucasus",
    "germany_egypt": "a German land unit in Axis-held Egypt",
    "germany_scandinavia": "Denmark and Norway held, Sweden not on the Allies' side",
    "germany_middle_east": "2 for each of Iraq, Persia and Northwest Persia held",
    "ussr_convoy": ("the Archangel convoy: Sea Zone 125 free of Axis warships, Archangel held, "
                    "no other Allies on Soviet land"),
    "ussr_spread_of_communism": "3 for each originally German, Italian or pro-Axis territory held",
    "ussr_berlin": "Germany taken, once",
    "japan_american_trade": ("not at war with the United States, no attack on French Indo China, "
                             "no unprovoked declaration on the UK or ANZAC"),
    "japan_defense_perimeter": ("the Axis holds Guam, Midway, Wake Island, the Gilbert Islands and "
                                "the Solomon Islands"),
    "japan_capitals": ("5 for each of India, New South Wales, the Hawaiian Islands and Western "
                       "United States the Axis holds"),
    "japan_dutch_east_indies": "the Axis holds Sumatra, Java, Borneo and Celebes",
    "usa_homeland": "Eastern, Central and Western United States held",
    "usa_outer_territories": ("Alaska, the Aleutian Islands, the Hawaiian Islands, Johnston Island "
                              "and the Line Islands held"),
    "usa_defense_obligations": "Mexico, Southeast Mexico, Central America and West Indies held",
    "usa_philippines": "the Philippines held",
    "usa_france": "a US land unit in France",
    "china_burma_road": "the Burma Road: the Allies hold India, Burma, Yunnan and Szechwan",
    "uk_original_europe": "all of UK Europe's original territories held",
    "uk_pacific_kwangtung_malaya": "Kwangtung and Malaya held",
    "italy_roman_empire": "the Axis holds 3 of Gibraltar, Southern France, Greece and Egypt",
    "italy_mare_nostrum": "Mare Nostrum: no Allied surface warship in Sea Zones 92 to 99",
    "italy_north_africa": "the Axis holds Morocco, Algeria, Tunisia, Libya, Tobruk and Alexandria",
    "italy_middle_east": "2 for each of Iraq, Persia and Northwest Persia held",
    "anzac_malaya_and_home": "an Allied power holds Malaya, ANZAC all its original territories",
    "anzac_strategic_islands": ("the Allies hold Dutch New Guinea, New Guinea, New Britain and the "
                                "Solomon Islands"),
}


def economy_name(game: Game | None, key: str) -> str:
    """An economy as a report names it: its name above, a power's main one by the power's
    name, else its key in words."""
    if key in ECONOMY_NAMES:
        return ECONOMY_NAMES[key]
    if game is not None and key in game.ruleset.powers:
        return power_name(game, key)
    return key.replace("_", " ")


def objective_name(key: str) -> str:
    """What a national objective asks (``OBJECTIVE_NAMES``), else its key in words."""
    return OBJECTIVE_NAMES.get(key, key.replace("_", " "))


# Global 1940's technologies (research charts 1 and 2 [L1176-L1210]).
TECHNOLOGY_NAMES = {
    "advanced_artillery": "Advanced Artillery", "rockets": "Rockets",
    "paratroopers": "Paratroopers", "increased_factory_production": "Increased Factory Production",
    "war_bonds": "War Bonds", "improved_mech_infantry": "Improved Mechanized Infantry",
    "super_submarines": "Super Submarines", "jet_fighters": "Jet Fighters",
    "improved_shipyards": "Improved Shipyards", "radar": "Radar",
    "long_range_aircraft": "Long-Range Aircraft", "heavy_bombers": "Heavy Bombers",
}


def technology_name(key: str) -> str:
    return TECHNOLOGY_NAMES.get(key, key.replace("_", " "))


def _research_values(params: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    rolled = len(params.get("rolls", ()))
    out["dice_text"] = str(rolled)
    bought, kept = params.get("bought", 0), params.get("kept", 0)
    out["bought_text"] = (f" ({bought} bought for {params.get('cost', 0)} IPCs"
                          + (f", {kept} kept" if kept else "") + ")")
    kept_now = params.get("kept_now", 0)
    out["breakthrough_text"] = ("a breakthrough" if params.get("breakthrough") else
                                "no breakthrough" + (f" ({kept_now} dice kept)" if kept_now else ""))
    out["technology_name"] = technology_name(params.get("technology", ""))
    out["again_text"] = ", already held: nothing gained" if params.get("already_held") else ""
    out["held_text"] = ", ".join(technology_name(t) for t in params.get("held", ())) or "none"
    return out


def render(template: str, values: Mapping[str, Any]) -> str:
    """Fill ``template``; a placeholder without a value is shown as ``?``."""
    fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    return template.format(**{f: values.get(f, "?") for f in fields})


def problem_text(problem: Problem | tuple[str, Mapping[str, Any]], game: Game | None = None) -> str:
    """The sentence for a problem (or a ``(code, params)`` pair)."""
    code, params = (problem.code, problem.params) if isinstance(problem, Problem) else problem
    values = _values(game, code, params)
    text = render(PROBLEMS.get(code, code.replace("_", " ")), values)
    if code in PLACEMENT_CODES:
        text = f"cannot place {values.get('unit', '?')} in {values.get('space', '?')}: {text}"
    return text


# Events shown one per line in the report's "Other events" (by event ``kind``; the
# template's placeholders are the event's fields, shown as in problems).  An edition's
# plug-in adds the sentences of its own events here.
EVENT_TEXTS: dict[str, str] = {
    "units_converted": "{by} takes over {from_power}'s {units} in {territory} (they cannot move until its next turn)",
    "units_repaired": "{power}'s damaged {units} in {space} repaired (step 6)",
    "resurfaced": "{power}'s submerged {units} in {space} resurface (step 6)",
    # Global 1940's optional research (engine/research.py)
    "research_rolled": "{power} rolls {dice_text} research dice{bought_text}: {rolls}: "
                       "{breakthrough_text}",
    "technology_gained": "{power}'s breakthrough: chart {chart}, roll {roll}: {technology_name}"
                         "{again_text} (technologies held: {held_text})",
    "rocket_fired": "{power}'s rocket from {base} hits the {unit} in {target}: roll {roll}, "
                    "{damage} damage ({total} now)",
    "paratroopers_dropped": "{count} of {power}'s paratroopers fly from {base} into the attack on {target}",
    "special_cash_kept": "{power} keeps {kept} IPCs of the special cash for turn 1 ({ipcs} IPCs now)",
    "special_cash_offered": "{power} has {pot} IPCs of its side's special cash to spend or keep",
    "middle_east_paid": "Middle East payment to {payee} (owed {owed}): {payer} pays {amount}, {short} unpaid and lost",
    "treasury_raided": "bombing dice {rolls}: {power} loses {lost} IPCs ({total} left)",
    "economy_income": "{power} collects {income} IPCs in its {economy} economy ({total} now)",
    # Global 1940 politics and neutrals (engine/politics.py, engine/neutrals.py)
    "war_declared": "{power} declares war on {enemy} ({how})",
    "at_war": "{power} is at war with {enemy} too ({by}'s declaration)",
    "declaration_deferred": "{power}'s declaration of war on {enemy} waits for the start of its "
                            "Collect Income (its third turn)",
    "neutral_army_raised": "{territory}'s neutrality is violated: its army of {units} is placed ({nation})",
    "neutrals_turned": "every remaining {nation} territory now sides with the {side} ({by} attacked a strict neutral)",
    "neutral_joined": "{territory} joins {power}, with its army of {units}",
    "victory_in_sight": "victory in sight for the {side} ({rule_text}: {territories}): held at the end "
                        "of every turn for a complete round, they win at the end of round {round}",
    "victory_denied": "victory no longer in sight for the {side} ({rule_text}, held {turns} turns in a "
                      "row): a complete round is counted again from when it holds again",
    "factories_upgraded": "{power} enters the war: its minor factories in {territories} are major factories now",
    "mongolia_joined": "{territory} joins {power} under the Soviet-Mongolian pact, with its army of {units}",
    "economy_paid": "{power}'s {economy} economy pays {cost} IPCs of the purchase ({ipcs_left} left)",
    "liberation_units_placed": "{power}, liberated, places {units} in {space} free of charge (once per game)",
    "factory_removed": "the factory in {space}, Chinese land retaken by {by}, is removed from the game",
    "objective_met": "national objective ({objective}): {power}{economy_text} collects {income} IPCs",
    "objective_missed": "national objective ({objective}): not met, {power}{economy_text} collects nothing",
    "convoy_disrupted": "convoy disruption in {zone}: dice {rolls} cost {power}{economy_text} {loss} IPCs (at most {cap})",
    "scrambled": "{power} scrambles {units} from {space} into {zone}",
    "repaired_at_base": "{power}'s damaged {units} in {space} repaired at a naval base",
    "units_changed": "{count} {from_name} in {space} becomes {to_name} ({power}'s now)",
}


# The events of a board battle (model/tactical.py), one sentence each.  Squares are
# whole-board names: C3a is the attacker's row 3, C3d the defender's.
BOARD_EVENT_TEXTS: dict[str, str] = {
    "board_deployed": "{side} deploys {piece} ({piece_kind}) on {square}",
    "board_mines_laid": "{side} lays {count} mines, their squares secret",
    "board_turn_started": "battle turn {turn}: the {side} plays",
    "board_moved": "{side} {piece} moves {path_text}",
    "board_shot": "{side} {piece} fires{back_text} at {at}{gap_text}: needs {need}, rolls {roll}, {hit_text}",
    "board_mine_exploded": "a {side} mine on {square} destroys {piece}",
    "board_guns_lost": "the {side}'s long-range guns {pieces} are destroyed with the lost battle",
    "board_mines_revealed": "the battle is over: the {side}'s mines that did not go off were on {squares}",
    "board_battle_ended": "the board battle ends after battle turn {turn}: the {winner} wins ({reason_text})",
}

BOARD_END_REASONS: dict[str, str] = {
    "attacker_beaten": "the attacker has no unit left that fights",
    "defender_beaten": "the defender has no unit left that fights",
    "mines_cleared": "the attacker's tanks or warships reached the defender's rows 1-3, clearing the mines",
    "mines_spent": "the defender's units are gone and every mine of his went off",
    "turn_cap": "the battle-turn limit: the defender holds",
    "stalemate": "no tank or warship is left on either side, so no shot is possible any more: the defender holds",
    "nothing_to_fight": "the defender has nothing on the board",
}


def board_event_text(event: Any) -> str:
    """The sentence for one board-battle event."""
    import attrs
    values = dict(attrs.asdict(event, recurse=False))
    values["path_text"] = " > ".join(values.get("path", ()))
    values["back_text"] = " back" if values.get("back") else ""
    gap = values.get("gap", -1)
    values["gap_text"] = f" ({gap} squares between)" if isinstance(gap, int) and gap >= 0 else ""
    values["hit_text"] = f"a hit: {values.get('at')} is destroyed" if values.get("hit") else "a miss"
    values["reason_text"] = BOARD_END_REASONS.get(values.get("reason", ""), values.get("reason", ""))
    values["pieces"] = ", ".join(values.get("pieces", ()))
    values["squares"] = ", ".join(values.get("squares", ()))
    return render(BOARD_EVENT_TEXTS.get(event.kind, event.kind.replace("_", " ")), values)


# A board battle of the main turn replayed in the report and by ``pbem show --battle``
# (present/board_battle_replay.py): a sentence per board event, the side named with its power.
BOARD_REPLAY_TEXTS: dict[str, str] = {
    "title": "Board battle in {area} ({board} board): {attacker} attacks {defender}{live}",
    "side": "the {side} ({power})",
    "nothing": "nothing",
    "mines_count": "{count} mine{s}",
    "force": "{who} brings {units}",
    "plan": "{who} plays by the plan: {plan}",
    "formation": "formation {formation}",
    "squares": "own squares {squares}",
    "mine_squares": "{count} mine squares of its own",
    "doctrine": "{stance}, {target}, fires when it needs {fire_at} or less",
    "deployed": "{who} deploys {placed}",
    "mines_laid": "{who} lays {count} mines, their squares secret",
    "turn": "Battle turn {turn}: {who}",
    "idle": "no move, no shot",
    "moved": "{unit} moves {path}",
    "gap": "{gap} squares between",
    "gun_shot": "a gun's shot",
    "shot": "{unit} fires at {target} ({gap}): needs {need}, rolls {roll}: {verdict}",
    "shot_back": "{unit} fires back at {target} ({gap}): needs {need}, rolls {roll}: {verdict}",
    "hit": "a hit, {target} is destroyed",
    "miss": "a miss",
    "mine": "a mine of {who} on {square} destroys {unit}",
    "guns_lost": "{who} loses its long-range guns with the battle: {units}",
    "mines_revealed": "the battle is over: the mines of {who} that did not go off are revealed on {squares}",
    "end": "The battle ends after battle turn {turn}: {who} wins, {reason}",
    "won": "{winner} wins the board battle in {area} after {turns} battle turns: {reason}",
    "no_winner": "the board battle in {area} ends after {turns} battle turns without a winner: {reason}",
    "lost": "{power} loses on the main map: {units}",
}


# A doctrine's target priority (``model.tactical.TARGET_PRIORITIES``) in words.
BOARD_TARGET_WORDS: dict[str, str] = {
    "best": "targets by the best exchange", "highest_rank": "targets the highest rank first",
    "nearest": "targets the nearest first", "guns_first": "targets guns first",
    "tanks_first": "targets tanks and warships first",
}


def board_replay_text(code: str, **values: Any) -> str:
    """A sentence of a board battle's replay (``BOARD_REPLAY_TEXTS``)."""
    return render(BOARD_REPLAY_TEXTS[code], values)


def board_odds_text(odds: Any) -> str:
    """A board battle's Monte Carlo odds (``engine.tactical.odds.BoardOdds``) in words,
    labelled as the estimate they are, with their 95% bounds."""
    def share(side: str) -> str:
        low, high = odds.interval(side)
        return f"{100 * odds.wins[side]:.1f}% (95%: {100 * low:.1f}-{100 * high:.1f})"

    return (f"attacker wins {share('attacker')}, defender holds {share('defender')}; "
            f"{odds.turns:.1f} battle turns on average (within {odds.turns_bound:.1f}). "
            f"An estimate from {odds.runs} battles played by the plan interpreter "
            f"v{odds.interpreter}: each percentage within {100 * odds.error_bound:.1f} points, "
            f"95% of the time")


# Taktyczne Starcie's drawn setup (``model.taktyczne`` events).
SETUP_EVENT_TEXTS: dict[str, str] = {
    "ts_order_rolled": "turn order, roll {round}: {rolls_text}",
    "ts_turn_order": "the turn order is {order_text}",
    "ts_capital_rolled": "{player} rolls {first} and {second}: area {area}{outcome_text}",
    "ts_capital_assigned": "{player} has rolled {rolls} times without a free area and takes {area}, the lowest one free",
    "ts_start_granted": "{player} starts with {points} points and a free armament factory in the capital, {factory}",
}

CAPITAL_OUTCOMES: dict[str, str] = {
    "capital": " becomes {player}'s capital",
    "taken": " is {other}'s capital already: {player} rolls again",
    "near": " borders or touches {other}'s capital: {player} rolls again",
}


def setup_event_text(event: Any, game: Game | None = None) -> str:
    """The sentence for one event of Taktyczne Starcie's drawn setup (players by name with
    ``game``)."""
    import attrs
    values = dict(attrs.asdict(event, recurse=False))
    for key in ("player", "other"):
        if values.get(key):
            values[key] = power_name(game, values[key])
    values["rolls_text"] = ", ".join(f"{power_name(game, p)} {f}" for p, f in values.get("rolls", ())) \
        if isinstance(values.get("rolls"), tuple) else ""
    values["order_text"] = ", ".join(power_name(game, p) for p in values.get("order", ()))
    first, second = values.get("dice", (0, 0))
    values.update(first=first, second=second)
    outcome = CAPITAL_OUTCOMES.get(values.get("outcome", ""), "")
    values["outcome_text"] = render(outcome, values) if outcome else ""
    return render(SETUP_EVENT_TEXTS.get(event.kind, event.kind.replace("_", " ")), values)


# Taktyczne Starcie's main turn: its problems and events (engine/taktyczne/main_turn.py).
PROBLEMS.update({
    "ts_one_area": "a unit moves one bordering area a turn (L19.19): write one move per area, not {path}",
    "ts_not_bordering": "{target} does not border {space} (tangent areas do not count, L19.19)",
    "ts_units_missing": "needs {count} {unit} in {space} that have not moved this turn; found {found}",
    "ts_air_war_waits": "an air order at an area of another player's units is an air strike (L23.8, L23.74): write it as one ('strike 34: 2 bomber 22 -> 34'), not as a move",
    "ts_ship_on_land": "a {unit} stays at sea: {target} is land",
    "ts_aboard_lands_only": "a {unit} aboard a ferry moves only by landing on a bordering land area; {target} is a sea (its ferry carries it there, G8)",
    "ts_scuttle_unused": "'scuttle {space}': you do not attack {space} in this turn, so the line does nothing",
    "ts_no_ferry": "a {unit} goes to sea only aboard an own ferry, and there is none of yours in {space}",
    "ts_ferry_over": "a ferry carries land units worth at most {limit} points (L27.19); in {space} that would be {points}",
    "ts_ferries_over": "the ferries in one sea carry at most {limit} points of land units (L27.20); in {space} that would be {points}",
    "ts_stack_over": "the units in one area are worth at most {limit} points (L19.17); in {space} that would be {points}",
    "ts_attack_over": "an attack brings at most {limit} points (L23.74); this one on {target} brings {points}",
    "ts_attacked_twice": "{target} has already been attacked this turn: an area is attacked from one area once a turn (L19.35, ruling G9)",
    "ts_single_origin": "an area is attacked by units from one area (L19.35): {target} is attacked from {space} on this line already",
    "ts_cannot_attack": "a {unit} cannot attack {target}: only units that fight on the board of its terrain attack (L19.47)",
    "ts_no_board": "this edition has no battle board (board.toml)",
})
EVENT_TEXTS.update({
    "ts_main_map_taken": "{attacker} takes {area} from {defender}: {captured_text} captured, {destroyed_text} destroyed",
    "ts_player_eliminated": "{player} is eliminated (no unit and no area left); {by} takes his {points} points",
    "ts_turn_limit": "the turn limit: the game ends after round {round}; {standings_text}; {winner_text}",
})


# Taktyczne Starcie's main turn (``model.taktyczne`` events): a battle fought on the board.
EVENT_TEXTS["ts_board_battle"] = ("{attacker} attacks {defender} in {area} on the {board} board"
                                  "{live_text}: {winner_text} after {turns} battle turns{losses_text}")

# Taktyczne Starcie's aircraft on the main map (issue 27, t27air: engine/taktyczne/air.py,
# model.ts_air events).
PROBLEMS.update({
    "ts_air_range": "aircraft fly at most {limit} bordering areas a turn (L19.29, L23.8); this route has {steps}",
    "ts_air_alone": "aircraft fly in orders of their own: an order naming aircraft names only aircraft (L23.9)",
    "ts_air_no_base": "aircraft move only to an area with an airfield of yours or a sea with a carrier of yours (L19.29, L23.9); {target} is neither",
    "ts_air_no_room": "{target} takes {room} more points of aircraft (the 12-point stack, a carrier's 12 points, L19.17, L27.13); these are worth {points}",
    "ts_air_over_guns": "the route flies over {areas}, where another player has AA guns or based fighters: they fire at it (L23.61-L23.62)",
    "ts_evacuate_unknown": "no area {space} on the map",
    "ts_no_carrier": "aircraft bought at a shipyard go onto a carrier of yours in its sea (L27.23); there is none in {space}",
    "ts_carrier_full": "your carriers in {space} have no room for {points} more points of aircraft (12 points each, L27.13)",
})
EVENT_TEXTS["ts_overflight_fire"] = ("{power}'s {shooters} in {area} fire {shots_text} at {mover}'s aircraft "
                                     "flying over ({leg_text}): {rolls}; {lost_text}")
EVENT_TEXTS["ts_aircraft_evacuated"] = ("{power}'s {units} based in {area} lost their base ({cause_text}): "
                                        "{to_text}")


def _air_values(params: Mapping[str, Any], game: Game | None) -> dict[str, Any]:
    """The parts of the air war's sentences (``ts_overflight_fire``, ``ts_aircraft_evacuated``)."""
    lost = params.get("lost")
    to = params.get("to")
    path = params.get("path") or ()
    return {"mover": power_name(game, params.get("mover")),
            "shooters": "AA guns" if params.get("shooters") == "aa" else "fighters",
            "shots_text": f"{params.get('count')} shot" + ("" if params.get("count") == 1 else "s"),
            "leg_text": {"out": "on the way out", "back": "on the way back"}.get(params.get("leg"), "moving"),
            "lost_text": f"{units_text(game, lost)} shot down" if lost else "none hit",
            "cause_text": {"battle_lost": "the battle there is lost", "base_destroyed": "the base is destroyed",
                           "blast": "a nuclear blast"}.get(params.get("cause"), params.get("cause")),
            "to_text": (f"they fly to {to} by {' -> '.join(path)}" if to
                        else "no base in range with room: destroyed (L23.76)")}


# Live board battles (issue 26, t26live: model.live_battle events).
EVENT_TEXTS["ts_live_battle_started"] = ("{attacker} attacks {defender} in {area} on the {board} board, "
                                         "played live by mail: the turn waits for the battle; "
                                         "{next_power} plays the first battle turn")
EVENT_TEXTS["ts_live_battle_turn"] = ("battle turn {turn} in {area}: {power} ({side}) {by_text}"
                                      "{skipped_text}{board_text}{next_text}")


def _board_battle_values(params: Mapping[str, Any], game: Game | None) -> dict[str, Any]:
    """The parts of a ``ts_board_battle`` sentence: the winner and each power's losses."""
    winner = params.get("winner")
    losses = [f"{power_name(game, power)} loses {units_text(game, dict(sorted(Counter(lost).items())))}"
              for power, lost in params.get("losses", ()) if lost]
    return {"winner_text": f"{power_name(game, winner)} wins" if winner else "no one wins",
            "losses_text": "; " + "; ".join(losses) if losses else "",
            "live_text": " (played live by mail)" if params.get("live") else "",
            "attacker": power_name(game, params.get("attacker")),
            "defender": power_name(game, params.get("defender"))}


# Taktyczne Starcie's economy events (engine/taktyczne/economy.py), in the report's sections
# of the steps ts_recruit and ts_build.
ECONOMY_EVENT_TEXTS: dict[str, str] = {
    "ts_recruited": "{power} recruits {units_text} in {space} for {cost} points ({points_left} left)",
    "ts_built": "{power} builds {a_what} in {space}{over_text} for {price} points ({points_left} left)",
}


def with_article(noun: str) -> str:
    """``a silo``, ``an airfield``, ``an anti-missile``."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun if noun else noun


def economy_event_text(event: Any, game: Game | None = None) -> str:
    """The sentence for one of Taktyczne Starcie's economy events."""
    import attrs
    values = dict(attrs.asdict(event, recurse=False))
    values["power"] = power_name(game, values["power"])
    values["units_text"] = units_text(game, dict(values.get("units", ()))) if "units" in values else ""
    values["over_text"] = f" over {values['over']}" if values.get("over") else ""
    values["a_what"] = with_article(object_name(str(values.get("what", ""))))
    return render(ECONOMY_EVENT_TEXTS.get(event.kind, event.kind.replace("_", " ")), values)


def correction_text(event: Any, game: Game | None = None) -> str:
    """One edit of a game master's correction (a ``Corrected`` event), in words."""
    edit = event.edit
    if edit.action == "undo":
        return f"the position before turn {edit.turn} is restored (turn {edit.turn} undone)"
    if edit.action == "set":
        parts = [f"{power_name(game, owner)} {units_text(game, counts)}"
                 for owner, counts in sorted(edit.units.items())]
        return f"the units in {edit.target} are set to " + ("; ".join(parts) or "none")
    if edit.action == "ipcs":
        return f"{power_name(game, edit.target)}'s {currency(game)} are set to {edit.amount}"
    if edit.action == "owner":
        if not edit.power:
            return f"{edit.target} is now held by no one"
        return f"{edit.target} is now controlled by {power_name(game, edit.power)}"
    return edit.action


def event_text(event: Any, game: Game | None = None) -> str:
    """The sentence for an event of a kind in ``EVENT_TEXTS``."""
    import attrs
    params = attrs.asdict(event, recurse=False)
    return render(EVENT_TEXTS.get(event.kind, event.kind.replace("_", " ")),
                  _values(game, event.kind, params))


def problem_line(problem: Problem, game: Game | None = None) -> str:
    """``line 3: error: ...`` (as ``pbem check`` prints it)."""
    where = f"line {problem.line}: " if problem.line else ""
    return f"{where}{problem.severity}: {problem_text(problem, game)}"


def retreat_reason(reason: str, condition) -> str:
    if reason == "no_fire":
        return "no attacking unit can fire"
    if condition is None:
        return "retreat condition"
    parts = []
    if condition.after_round is not None:
        parts.append(f"after round {condition.after_round}")
    if condition.side is not None and condition.comparison is not None and condition.threshold is not None:
        unit = " TUV" if condition.measure == "tuv" else ""
        comparison = getattr(condition.comparison, "value", condition.comparison)
        parts.append(f"{condition.side}{unit} {comparison} {condition.threshold}")
    return "retreat condition: " + (" and ".join(parts) or "always")


def raid_summary(game: Game | None, attacker: str | None, damage) -> str:
    """"Germany bombs United Kingdom: 3 damage to the Industrial Complex (now 3)"; a raid on
    the treasury (Europe's ``treasury_raided``): "Soviet Union bombs Germany: Germany loses 2
    IPCs (57 left)"."""
    att = power_name(game, attacker) if attacker else "the attacker"
    if damage is None:
        return f"{att}'s raid is shot down before it bombs"
    if getattr(damage, "kind", "") == "treasury_raided":
        return (f"{att} bombs {damage.space}: {power_name(game, damage.power)} loses "
                f"{damage.lost} IPCs ({damage.total} left)")
    return (f"{att} bombs {damage.space}: {damage.damage} damage to the "
            f"{unit_name(game, damage.unit_type)} (now {damage.total})")


def battle_summary(game: Game | None, ended, attacker: str | None = None,
                   defenders: tuple[str, ...] = (), retreat_to: str | None = None,
                   names: Mapping[str, str] | None = None) -> str:
    """TripleA's one-liner: "Germany wins, taking Karelia after 2 rounds; TUV swing +9".
    ``names``: power display names when there is no ``game``."""
    def name(key: str) -> str:
        return (names or {}).get(key) or power_name(game, key)

    att = name(attacker) if attacker else "the attacker"
    dfn = " and ".join(name(d) for d in defenders) or "the defender"
    space = ended.space
    rounds = ended.rounds
    when = "at once" if rounds == 0 else f"after {rounds} round{'s' if rounds != 1 else ''}"
    outcome = ended.outcome
    if outcome == "attacker_wins" and ended.captured:
        text = f"{att} wins, taking {space} {when}"
    elif outcome == "attacker_wins":
        text = f"{att} wins in {space} {when}"
    elif outcome == "defender_wins":
        text = f"{dfn} {'hold' if len(defenders) > 1 else 'holds'} {space} {when}"
    elif outcome == "both_destroyed":
        text = f"Both sides destroyed in {space} {when}"
    elif outcome == "attacker_retreats":
        text = f"{att} retreats from {space} to {retreat_to or '?'} {when}"
    else:
        text = f"Stalemate in {space} {when}: no unit can hit the other side"
    return f"{text}; TUV swing {ended.tuv_swing:+d}"


# Taktyczne Starcie's war on the main map (issue 27, t27show: the report's section
# present/taktyczne_war_report.py).  A reaction's line is followed by why it fired
# (``standing_text``); an air strike's volleys under their battle turn (``war_battle_turn_text``).
DEFAULT_PREFIX, RULE_PREFIX = "default", "rule"
LONG_DIGEST = re.compile(r"\b(sha256[._][0-9a-f]{12})[0-9a-f]{4,}")     # a sealed layout's commitment, shortened


# Standing choices whose key is not the words a player writes (``react lrg 24: fire``).
WRITTEN_CHOICES = {"lrg_react": "react lrg", "air_defence": "air defence"}
# The standing choice of an event whose default names only its value ("default: reach").
EVENT_CHOICES = {"ts_missile_intercepted": "antimissile", "ts_antimissile_held": "antimissile"}


def standing_text(who: str, standing: str, choice: str = "") -> str:
    """Why a reaction fired: ``standing`` is the canonical text of ``who``'s standing order,
    or ``default`` / ``default: <name>`` when he wrote none (contract 5 of issue 27);
    ``choice``: the standing choice a bare default value belongs to (``antimissile``)."""
    if standing == DEFAULT_PREFIX or standing.startswith(DEFAULT_PREFIX + ":"):
        name = standing.partition(":")[2].strip()
        first, _, value = name.partition(" ")
        if first in WRITTEN_CHOICES and value:          # the default value of a standing choice
            name = f"{WRITTEN_CHOICES[first]}: {value.removeprefix('(').removesuffix(')')}"
        elif choice and name and " " not in name:        # a bare value: "reach"
            name = f"{choice}: {name}"
        name = name.replace("_", " ")
        return f"{who} wrote no standing order for it: the default" + (f" ({name})" if name else "")
    if standing.startswith(RULE_PREFIX):               # no choice: the rules make it act (AA guns)
        return f"no choice for {who}: the {standing}"
    return f"{who}'s standing order «{short_digest(standing)}»"


def short_digest(text: str) -> str:
    """A sealed layout's commitment in ``text`` shortened to its first 12 hex digits."""
    return LONG_DIGEST.sub(lambda m: m.group(1) + "…", text)


def war_battle_turn_text(turn: int, area: str) -> str:
    """The heading of an air strike's battle turn: in it the defender's AA guns, the
    attacker's fighters, the defender's fighters, the attacker's bombers (L23.63-L23.64)."""
    return f"Battle turn {turn} over {area}" if area else f"Battle turn {turn}"


def _war_values(code: str, params: Mapping[str, Any], game: Game | None) -> dict[str, Any]:
    """The parts of issue 27's sentences that are more than a field: units given as a list
    of unit types (the mines' victims, a strike's targets) named and counted."""
    out: dict[str, Any] = {}
    units = params.get("units")
    if isinstance(units, (list, tuple)) and all(isinstance(u, str) for u in units):
        out["units"] = units_text(game, dict(sorted(Counter(units).items()))) if units else "nothing"
    if code == "ts_minefield_retired":
        out["revealed_text"] = "revealed" if params.get("revealed") else "opened squares of"
    commitment = params.get("commitment")
    if isinstance(commitment, str):                # 64 hex digits do not fit a phone's line
        out["commitment"] = short_digest(commitment)
    return out


WAR_PREFIXES = ("ts_air", "ts_strike", "ts_lrg", "ts_gun", "ts_mine", "ts_nuclear", "ts_launch", "ts_anti")
# Taktyczne Starcie's air strike (t27strike: model.ts_strike events, engine/taktyczne/air_strike.py,
# docs/taktyczne-air-strike.md).
PROBLEMS.update({
    "ts_strike_no_enemy": "nothing of another player's to strike in {target}: no units and no objects of his there",
    "ts_strike_not_aircraft": "only fighters and bombers fly a strike (L23.54); a {unit} does not",
    "ts_strike_route": "the route {path} must go from the aircraft's base through bordering areas to {target} (and back): L23.8",
    "ts_strike_range": "aircraft fly at most {limit} bordering areas out and {limit} back (L19.29, ruling G20); this route is {out} out and {back} back",
    "ts_strike_over": "at most {limit} points of aircraft strike one area (L23.53, L23.74); this strike on {target} brings {points}",
    "ts_strike_base": "the way back ends at {space}, which is not a base of yours with room: aircraft land at an own airfield or carrier (L23.9)",
    "ts_strike_after_board": "{target} was attacked on the ground earlier this turn; the main-map battle comes first (L23.79-L23.80): write the strike before the attack",
    "ts_strike_clauses_differ": "the strike on {target} says its {clause} on line {first} already, differently: that line's holds for the whole strike",
    "ts_air_defence_unreadable": "an air defence order reads 'target <words>' and/or 'bombers bomb|hold': {reason}",
})
EVENT_TEXTS.update({
    "ts_strike_launched": "{power} {strike_text} {target} held by {defender} with {flights_text} ({points} points){priority_text}",
    "ts_strike_volley": "{power}'s {arm_text} {shots_text}",
    "ts_strike_ended": "the strike on {area} ends after {turns_text} ({reason_text}): {power} loses {lost_text}; {defender} loses {destroyed_text}{objects_text}",
    "ts_strike_home": "{power}'s {units} {fly_text} home from {area} and {land_text} at {base}",
    "ts_defending_bombers": "{power}'s bombers in {area} bomb {attacker}'s attackers first (L23.77-L23.78): {shots_text}",
})
STRIKE_EVENT_CODES = frozenset({"ts_strike_launched", "ts_strike_volley", "ts_strike_ended", "ts_strike_home",
                                "ts_defending_bombers"})
# An arm's volley, by one shooter and by several (a bomber drops one bomb a battle turn).
_STRIKE_ARMS = {"aa": ("AA gun fires at", "AA guns fire at"),
                "fighters": ("fighter fires at", "fighters fire at"),
                "bombers": ("bomber bombs", "bombers bomb")}
_STRIKE_ENDS = {"bombs_spent": "the bombs are spent", "stay": "the bombers fly home as ordered",
                "losses": "the losses ordered to turn home are reached",
                "no_bombers": "no bomber is left", "no_targets": "nothing is left to bomb",
                "sweep": "a sweep is one attack", "shot_down": "every attacker is shot down"}


def _shot_text(game: Game | None, shot: Any) -> str:
    get = shot.get if isinstance(shot, Mapping) else lambda k: getattr(shot, k)
    target = str(get("target"))
    name = target_name(game, target)
    name = name if game is not None and target in game.ruleset.units else "the " + name
    if not get("needed"):
        return "the target with its atomic bomb"
    result = "a hit" if get("hit") else "a miss"
    return f"{name}: {get('roll')}, {result} ({'a 6' if get('needed') == '6' else 'an even roll'} needed)"


def _strike_values(code: str, params: Mapping[str, Any], game: Game | None) -> dict[str, Any]:
    out: dict[str, Any] = {k: power_name(game, params[k]) for k in ("defender", "attacker")
                           if params.get(k)}
    if "shots" in params:
        out["shots_text"] = "; ".join(_shot_text(game, s) for s in params["shots"]) or "nothing"
    if code == "ts_strike_launched":
        flights = []
        for f in params.get("flights", ()):
            get = f.get if isinstance(f, Mapping) else lambda k, f=f: getattr(f, k)
            flights.append(f"{units_text(game, get('units'))} from {get('out')[0]} "
                           f"({' -> '.join(get('out'))}, back {' -> '.join(get('back'))})")
        out["flights_text"] = "; ".join(flights)
        out["strike_text"] = "sweeps" if params.get("sweep") else "strikes"
        priority = params.get("priority") or ()
        out["priority_text"] = f", targets {', '.join(priority)}" if priority else ""
    if code == "ts_strike_volley":
        arm = _STRIKE_ARMS.get(params.get("arm"))
        out["arm_text"] = (arm[len(params.get("shots") or ()) != 1] if arm
                           else str(params.get("arm")))
    if code == "ts_strike_ended":
        out["reason_text"] = _STRIKE_ENDS.get(params.get("reason"), params.get("reason"))
        out["lost_text"] = units_text(game, params.get("lost") or {}) or "nothing"
        out["destroyed_text"] = units_text(game, params.get("destroyed") or {}) or "no unit"
        objects = params.get("objects") or ()
        out["objects_text"] = (f" and the {', '.join(object_name(key) for key in objects)}"
                               if objects else "")
        turns = params.get("turns")
        out["turns_text"] = f"{turns} battle turn{'' if turns == 1 else 's'}"
    if code == "ts_strike_home":
        one = sum((params.get("units") or {}).values()) == 1
        out["fly_text"], out["land_text"] = ("flies", "lands") if one else ("fly", "land")
    return out


# Taktyczne Starcie's nuclear weapons and objects destroyed (issue 27, t27nuke:
# model/ts_nuclear.py, model/ts_objects.py, engine/taktyczne/nuclear.py).
PROBLEMS.update({
    "ts_no_bomber_here": "no bomber of yours without an atomic bomb at a factory or shipyard of yours in {space}: an atomic bomb is loaded where it is bought (G26)",
    "ts_no_weapon_producer": "you hold no factory and no shipyard: they produce missiles and anti-missiles (L27.10, L27.21)",
    "ts_no_holder": "you have no {holder} in {space}: a {what_name} goes into your own {holder} (L19.56-L19.57, L19.63-L19.64, G26)",
    "ts_holder_armed": "every {holder} of yours in {space} is armed already: each holds one (L19.69)",
    "ts_blast_own_units": "the blast over {target} reaches your own units in {areas}: they are destroyed too (L19.59)",
    "ts_no_armed_silo": "you have no armed silo{space_text}: a missile is launched from your silo holding one (L19.56-L19.58)",
})
NUCLEAR_CODES = frozenset({"ts_nuclear_armed", "ts_missile_launched", "ts_missile_intercepted",
                           "ts_antimissile_held", "ts_nuclear_blast", "ts_object_destroyed",
                           "ts_no_holder", "ts_no_armed_silo"})
EVENT_TEXTS.update({
    "ts_nuclear_armed": "{power} buys {a_what_name} into {space} for {price} points ({points_left} left)",
    "ts_missile_launched": "{power} launches the nuclear missile of the silo in {silo} at {target}",
    "ts_missile_intercepted": "{power}'s anti-missile from {launcher} destroys {by}'s missile at {target} high up, with no effect ({why_text})",
    "ts_antimissile_held": "{power} does not fire an anti-missile at {by}'s missile at {target} ({why_text})",
    "ts_nuclear_blast": "a nuclear explosion ({cause_text}) over {centre}{radius_text}: {destroyed_text}{capitals_text}",
    "ts_object_destroyed": "{owner_text}{armed_text}{object_name} in {area} destroyed ({cause_text})",
})
_NUCLEAR_CAUSES = {"missile": "a missile", "silo": "an armed silo hit", "atomic_drop": "an atomic bomb dropped",
                   "atomic_shot_down": "a bomber shot down with its atomic bomb", "bomb": "by a bomb",
                   "lrg": "by a long-range gun", "blast": "by the blast"}
_OBJECT_NAMES = {"silo": "nuclear silo", "launcher": "anti-missile launcher", "factory": "factory",
                 "airfield": "airfield"}


def object_name(key: str) -> str:
    """A Taktyczne object by its key in ``ts_objects`` ("silo", "airfield S05"): "nuclear
    silo", "airfield over S05"."""
    kind, _, sea = key.partition(" ")
    return _OBJECT_NAMES.get(kind, kind.replace("_", " ")) + (f" over {sea}" if sea else "")


def target_name(game: Game | None, target: str) -> str:
    """What a shot or a bomb was aimed at: a unit type by its name as written ("Warship I",
    never lower-cased: the numeral is part of it), else an object by ``object_name``."""
    if game is not None and target in game.ruleset.units:
        return unit_name(game, target)
    return object_name(target)


def _nuclear_values(params: Mapping[str, Any], game: Game | None) -> dict[str, Any]:
    """The parts of the nuclear events' and problems' sentences."""
    out: dict[str, Any] = {}
    what = params.get("what")
    if isinstance(what, str):
        out["what_name"] = unit_name(game, what).lower()
        out["a_what_name"] = with_article(out["what_name"])
    if "space" in params:
        out["space_text"] = f" in {params['space']}" if params.get("space") else ""
    if "targeted" in params:
        out["why_text"] = ("the missile is aimed at his area" if params["targeted"]
                           else "the blast would reach his areas")
    cause = params.get("cause")
    if isinstance(cause, str):
        out["cause_text"] = _NUCLEAR_CAUSES.get(cause, cause.replace("_", " "))
    if params.get("radius"):
        areas = [a for a in params.get("areas", ()) if a != params.get("centre")]
        out["radius_text"] = (" and its bordering and tangent areas " + ", ".join(areas)
                              if params["radius"] == "full" and areas else " only")
    if "destroyed" in params:
        parts = [f"{units_text(game, dict(found))} in {area}"
                 for area, found in sorted(params["destroyed"].items()) if found]
        out["destroyed_text"] = "destroys " + "; ".join(parts) if parts else "no unit destroyed"
        held = params.get("capitals", ())
        out["capitals_text"] = f"; the capital {', '.join(held)} stands (L19.60-L19.61)" if held else ""
    key = params.get("key")
    if isinstance(key, str):
        out["object_name"] = object_name(key)
        owner = params.get("owner")
        out["owner_text"] = f"{power_name(game, owner)}'s " if owner else "the "
        out["armed_text"] = "armed " if params.get("armed") else ""
    return out


# Taktyczne Starcie's long-range guns (t27lrg: model.ts_guns events, engine/taktyczne/guns.py,
# docs/taktyczne-guns.md).
LRG_EVENTS = ("ts_lrg_fired", "ts_lrg_reaction_fired")
EVENT_TEXTS.update({
    "ts_lrg_fired": "{power}'s long-range gun in {gun} fires at {owner}'s {target_name} in {area}: {roll_text}",
    "ts_lrg_reaction_fired": ("{power}'s long-range gun in {gun} fires at {mover}'s {target_name} entering "
                              "{area}{ferry_text}: {roll_text}"),
})
PROBLEMS.update({
    "ts_lrg_missing": "no long-range gun of yours in {space} that has not fired this turn (one shot a turn, L31.33)",
    "ts_lrg_fought": ("the long-range guns in {space} fought on the battle board this turn: a gun is used "
                      "once a turn, on the main map or on the board (L31.31-L31.32, L31.37)"),
    "ts_lrg_used": ("a long-range gun in {space} fired on the main map this turn, so it cannot fight on the "
                    "board too (L31.31-L31.32)"),
    "ts_lrg_not_bordering": "a long-range gun in {space} fires only at bordering areas (L31.34); {target} does not border it",
    "ts_lrg_no_target": ("nothing in {target} a long-range gun may fire at: another player's units (not mines, "
                         "not aircraft) or objects (not capitals), L31.34-L31.35"),
    "ts_lrg_react_unreadable": "a reaction order for long-range guns that cannot be read: {reason}",
})


def _lrg_values(params: Mapping[str, Any], game: Game | None) -> dict[str, Any]:
    """The parts of a long-range gun shot's sentence: whose target, and what the die did."""
    cargo = params.get("cargo") or {}
    hit = params.get("hit")
    sunk = f", with {units_text(game, cargo)} aboard" if cargo else ""
    return {"owner": power_name(game, params.get("owner")),
            "mover": power_name(game, params.get("mover")),
            "target_name": target_name(game, params.get("target", "")),
            "ferry_text": " before it lands" if params.get("before_unload") else "",
            "roll_text": f"rolls {params.get('roll')}, " + (f"hit: destroyed{sunk}" if hit
                                                             else "a miss (a 6 hits, L31.36)")}


# Taktyczne Starcie's mines (t27mines: model.ts_mines events, engine/taktyczne/mines.py,
# docs/taktyczne-mines.md).
EVENT_TEXTS.update({
    "ts_mine_reveal_wanted": ("the battle in {area} needs {power}'s sealed mine layout for {scope} "
                              "({mines} mines): the turn waits for {power} to reveal it"),
    "ts_mine_layout_revealed": ("{power} reveals the mine layout for {scope} ({squares}); it opens "
                                "the commitment {commitment}"),
    "ts_mine_reveal_missed": ("{power} did not reveal the mine layout in time: the {count} mines in "
                              "{area} are lost"),
    "ts_mines_fired": "{power}'s mines in {area} went off on {squares}, destroying {units}",
    "ts_minefield_retired": ("the battle in {area} {revealed_text} {power}'s sealed mine layout "
                             "for {scope}: that standing minefield order is withdrawn, and "
                             "{power} seals a new one for the next battle (pbem mines seal)"),
})
PROBLEMS.update({
    "ts_mine_where": ("a {unit} goes on an area of your own (L27.24): land for an anti-tank mine, "
                      "a sea bordering your land for an underwater mine; {space} is not"),
    "ts_no_mine_producer": ("a {unit} is made at a factory or shipyard of yours (L31.47): an "
                            "anti-tank mine at a factory (L27.21), an underwater mine at a "
                            "shipyard whose sea holds no other player's units (L27.10-L27.11); "
                            "you hold none"),
    "ts_mines_in_clear": ("the plan for {area} names mine squares in clear text, which the orders "
                          "would publish: seal them instead (pbem mines seal, then the "
                          "'minefield' line it prints)"),
    "ts_minefield_value": ("a minefield line holds a commitment 'sha256_<64 hex digits>' or "
                           "'grid_<64 hex digits>' or 'none', not {value!r}"),
    "ts_reveal_not_wanted": "no battle waits for a mine layout of yours: the reveal line does nothing",
    "ts_reveal_scope": "the battle waits for your layout for {scope}; this line reveals {written}",
    "ts_reveal_unreadable": "a reveal line is 'reveal <area|all>: <squares> salt_<64 hex digits>': {reason}",
    "ts_reveal_wrong": ("the squares and salt do not open your commitment {commitment} for {scope}: "
                        "reveal the layout you sealed (pbem mines reveal prints it)"),
    "ts_reveal_missing": "the battle in {area} waits for your mine layout for {scope}: write its reveal line",
    "ts_reveal_other_orders": ("while a battle waits for a mine layout, a turn file holds only 'reveal' "
                               "lines (or the game master's nmr): {count} other lines; send them in your own turn"),
    "ts_reveal_wrong_power": ("the battle in {area} waits for {waits_for}'s mine layout: this turn file "
                              "is {waits_for}'s 'reveal' (or the game master's nmr), not {power}'s orders"),
})


# A live battle on a square-by-square sealed mine layout (t27livemines: model.ts_mines_live,
# engine/taktyczne/sealed_live.py, docs/taktyczne-mines.md §3).
EVENT_TEXTS.update({
    "ts_mine_leaves_published": ("{power} publishes the sealed leaves of the mine layout for {scope} "
                                 "(they open {commitment}, {standing}): the live battle in {area} "
                                 "starts with {mines} mines whose squares stay sealed"),
    "ts_mine_squares_wanted": ("{attacker}'s battle turn in {area} enters {power}'s sealed squares "
                               "{squares}: it is played, with the dice rolled now, once {power} "
                               "opens those its units reach ({standing})"),
    "ts_mine_squares_opened": ("{power} opens the sealed squares {squares} in {area}: mined {mined} "
                               "({standing})"),
    "ts_mine_openings_missed": ("{power} did not open the sealed squares in time: his {count} sealed "
                                "mines in {area} are lost ({standing})"),
})
PROBLEMS.update({
    "ts_open_own_mine": ("{square} holds your own sealed mine: your units may not enter it (L31.53)"),
    "ts_open_not_wanted": "no live battle waits for these squares of yours to be opened: the open line does nothing",
    "ts_open_unreadable": "an open line of a sealed mine layout needs {reason}",
    "ts_open_wrong": ("the opening of {square} does not match the commitment {commitment}: it is "
                      "refused (pbem mines reveal writes the right one from your .secret/)"),
    "ts_open_missing": "the live battle in {area} waits for the openings of {squares}: write them (pbem mines reveal)",
    "ts_open_other_orders": ("while a live battle waits for sealed squares to be opened, a turn file "
                             "holds only 'open' lines (or the game master's nmr): {count} other lines"),
    "ts_open_wrong_power": ("the live battle waits for {waits_for} to open sealed squares: this turn "
                            "file is {waits_for}'s 'open' lines (or the game master's nmr), not {power}'s orders"),
})


# What a paused turn waits for (``pbem status``: ``service.status.awaiting``), after
# "<power> to move".
AWAITING_TEXTS = {
    "mine_openings": ("{attacker}'s battle turn {turn} in {area} is written and waits for {power} "
                      "to open the sealed mine squares it enters ({squares}: pbem mines reveal)"),
    "mine_leaves": ("the live battle in {area} waits for {power} to publish the leaves of the "
                    "sealed mine layout (pbem mines reveal)"),
    "mine_reveal": "the battle in {area} waits for {power} to reveal the sealed mine layout (pbem mines reveal)",
    "battle_turn": "the live board battle in {area} waits for battle turn {turn}",
}


def awaiting_text(what: str, values: Mapping[str, Any], name=lambda key: key) -> str:
    """The sentence for what a paused turn waits for; ``name`` shows a power key."""
    shown = {k: (name(v) if k in ("power", "attacker") else
                 ", ".join(v) if isinstance(v, list) else v) for k, v in values.items()}
    return AWAITING_TEXTS[what].format(**shown)
