"""Tests for the turn report (adjudicator.report) and the board view (adjudicator.board_view).

A small game is built by hand so these tests do not depend on the map loader.
"""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from adjudicator.model.board import GameMap, Territory
from adjudicator.present.board_view import format_stack, render_board, territory_income
from adjudicator.model.corrections import Edit
from adjudicator.model.events import (  # noqa: I001
    MiddleEastPaid, Resurfaced, SpecialCashKept, SpecialCashOffered, UnitsConverted, UnitsRepaired,
    UnitsChanged, RepairedAtBase, Scrambled,
    EconomyIncome,
    ObjectiveMet, ObjectiveMissed, ConvoyDisrupted, FactoryRemoved, LiberationUnitsPlaced,
    EconomyPaid, ResearchRolled, TechnologyGained, RocketFired, ParatroopersDropped,
    BestOfRolled,
    LowLuckBestOfRolled,
    LowLuckRolled,
    TreasuryRaided,
    OrderReduced,
    AircraftLost,
    BattleEnded,
    BattleStarted,
    Blitzed,
    Captured,
    Casualties,
    DiceRolled,
    IncomeCollected,
    Landed,
    Loaded,
    Moved,
    Corrected,
    NoMovesReceived,
    OrderSkipped,
    Placed,
    Plundered,
    Purchased,
    RaidDamage,
    Refunded,
    Repaired,
    Retreated,
    StandingOrdersChanged,
    Submerged,
    TurnStarted,
    Unloaded,
    UnitsCaptured,
    VictoryDeclared,
    all_event_classes,
)
from adjudicator.model import events as events_module
from adjudicator.model.errors import PbemError
from adjudicator.model.orders import Comparison, RetreatCondition
from adjudicator.model.game import Game
from adjudicator.present.report import (
    battle_summaries,
    format_units,
    render_report,
    report_html,
    report_text,
    report_document,
)
from adjudicator.model.rules import Domain, Power, Ruleset, UnitType
from adjudicator.model.state import GameState, Unit


# --------------------------------------------------------------------------- fixtures


def _unit(key, name, domain, cost, plural=""):
    return UnitType(key=key, name=name, domain=domain, cost=cost, attack=1, defense=1, move=1,
                    plural=plural)


def make_game() -> Game:
    units = {
        "infantry": _unit("infantry", "Infantry", Domain.LAND, 3, plural="Infantry"),
        "artillery": _unit("artillery", "Artillery", Domain.LAND, 4, plural="Artillery"),
        "tank": _unit("tank", "Tank", Domain.LAND, 6),
        "fighter": _unit("fighter", "Fighter", Domain.AIR, 10),
        "bomber": _unit("bomber", "Bomber", Domain.AIR, 12),
        "submarine": _unit("submarine", "Submarine", Domain.SEA, 6),
        "destroyer": _unit("destroyer", "Destroyer", Domain.SEA, 8),
        "battleship": _unit("battleship", "Battleship", Domain.SEA, 20),
        "carrier": _unit("carrier", "Aircraft Carrier", Domain.SEA, 14),
        "transport": _unit("transport", "Transport", Domain.SEA, 7),
    }
    powers = {
        "ussr": Power("ussr", "Soviet Union", "Allies", "Russia", "Moscow", 24, adjective="Soviet"),
        "germany": Power("germany", "Germany", "Axis", "Germany", "Berlin", 40, adjective="German"),
        "uk": Power("uk", "United Kingdom", "Allies", "United Kingdom", "London", 30,
                    adjective="British"),
    }
    T = Territory
    territories = {t.key: t for t in [
        T("Germany", False, ipc=10, original_owner="germany", capital_of="germany"),
        T("Norway", False, ipc=3, original_owner="germany"),
        T("Finland", False, ipc=1, original_owner="germany"),
        T("Ukraine", False, ipc=2, original_owner="ussr"),
        T("West Russia", False, ipc=2, original_owner="ussr"),
        T("Karelia", False, ipc=2, original_owner="ussr"),
        T("Belorussia", False, ipc=2, original_owner="ussr"),
        T("Russia", False, ipc=8, original_owner="ussr", capital_of="ussr"),
        T("United Kingdom", False, ipc=8, original_owner="uk", capital_of="uk"),
        T("Sweden", False, impassable=True),
        T("Sea Zone 5", True),
        T("Sea Zone 6", True),
        T("Sea Zone 12", True),
    ]}
    ruleset = Ruleset(game_id="test", title="Test 1941", turn_order=("ussr", "germany", "uk"),
                      units=units, powers=powers, victory=())
    gmap = GameMap(map_id="test", territories=territories, adjacency={})
    return Game(ruleset=ruleset, map=gmap, setup=(), content_hash="sha256:0")


STATE_BEFORE = GameState(
    game_id="g1", map_id="test", round=2, power="germany",
    owners={"Germany": "germany", "Norway": "germany", "Finland": "germany",
            "Ukraine": "ussr", "West Russia": "ussr", "Karelia": "ussr", "Belorussia": "ussr",
            "Russia": "ussr", "United Kingdom": "uk"},
    units={}, ipcs={"germany": 40, "ussr": 10, "uk": 5},
)

STATE_AFTER = GameState(
    game_id="g1", map_id="test", round=2, power="uk",
    owners={"Germany": "germany", "Norway": "germany", "Finland": "germany",
            "Ukraine": "germany", "West Russia": "ussr", "Karelia": "germany",
            "Belorussia": "germany", "Russia": "ussr", "United Kingdom": "uk"},
    units={}, ipcs={"germany": 38, "ussr": 5, "uk": 5},
)


def make_events():
    return [
        TurnStarted(power="germany", round=2, ipcs=40),
        Purchased(power="germany", units={"infantry": 4, "tank": 1}, cost=18, ipcs_left=22),
        Moved(power="germany", phase="combat", units={"infantry": 2, "tank": 1},
              path=("Ukraine", "West Russia", "Karelia"), line=3),
        Loaded(power="germany", units={"infantry": 1, "artillery": 1}, origin="Norway",
               zone="Sea Zone 5", line=4),
        Unloaded(power="germany", units={"infantry": 1, "artillery": 1}, zone="Sea Zone 5",
                 target="Karelia", amphibious=True, line=5),
        Blitzed(power="germany", territory="Belorussia", previous_owner="ussr"),
        Captured(territory="Belorussia", by="germany", from_power="ussr", ipc=2),
        BattleStarted(battle="Sea Zone 5 (sea)", space="Sea Zone 5", battle_type="amphibious-sea",
                      attacker="germany", defenders=("uk",),
                      attacking_units={"submarine": 1, "transport": 1},
                      defending_units={"destroyer": 1}),
        Submerged(battle="Sea Zone 5 (sea)", round=1, side="attacker", units={"submarine": 1}),
        DiceRolled(battle="Sea Zone 5 (sea)", round=1, step="defence", side="defender",
                   unit_type="destroyer", target=2, rolls=(6,), hits=0),
        Retreated(battle="Sea Zone 5 (sea)", round=1, destination="Sea Zone 6",
                  units={"transport": 1}, reason="condition",
                  condition=RetreatCondition("Sea Zone 6", None, "attackers", Comparison.LT, 2)),
        BattleEnded(battle="Sea Zone 5 (sea)", space="Sea Zone 5", outcome="attacker_retreats",
                    rounds=1, attacker_lost={}, defender_lost={}, attacker_tuv_lost=0,
                    defender_tuv_lost=0, tuv_swing=0),
        BattleStarted(battle="Karelia", space="Karelia", battle_type="land", attacker="germany",
                      defenders=("ussr",), attacking_units={"infantry": 3, "tank": 1},
                      defending_units={"infantry": 3}),
        DiceRolled(battle="Karelia", round=1, step="attack", side="attacker", unit_type="infantry",
                   target=1, rolls=(4, 1, 6), hits=1),
        DiceRolled(battle="Karelia", round=1, step="attack", side="attacker", unit_type="tank",
                   target=3, rolls=(2,), hits=1),
        DiceRolled(battle="Karelia", round=1, step="defence", side="defender",
                   unit_type="infantry", target=2, rolls=(5, 3, 2), hits=1),
        Casualties(battle="Karelia", round=1, side="defender", killed={"infantry": 2}),
        Casualties(battle="Karelia", round=1, side="attacker", killed={"infantry": 1},
                   cargo_lost={"artillery": 1}, reason="hits"),
        DiceRolled(battle="Karelia", round=2, step="attack", side="attacker", unit_type="tank",
                   target=3, rolls=(3,), hits=1),
        DiceRolled(battle="Karelia", round=2, step="defence", side="defender",
                   unit_type="infantry", target=2, rolls=(4,), hits=0),
        Casualties(battle="Karelia", round=2, side="defender", killed={"infantry": 1},
                   damaged={"battleship": 1}, reason="defenceless"),
        BattleEnded(battle="Karelia", space="Karelia", outcome="attacker_wins", rounds=2,
                    attacker_lost={"infantry": 1}, defender_lost={"infantry": 3},
                    attacker_tuv_lost=3, defender_tuv_lost=9, tuv_swing=6, captured=True),
        Captured(territory="Karelia", by="germany", from_power="ussr", ipc=2),
        Captured(territory="Ukraine", by="germany", from_power="ussr", ipc=2),
        Plundered(by="germany", from_power="ussr", ipcs=5),
        AircraftLost(power="germany", space="Sea Zone 12", units={"fighter": 1},
                     reason="no_landing"),
        Moved(power="germany", phase="noncombat", units={"infantry": 2},
              path=("Germany", "Finland"), line=9),
        Landed(power="germany", units={"bomber": 1}, path=("Karelia", "Germany"),
               reason="no_order"),
        Placed(power="germany", units={"infantry": 4}, space="Germany"),
        Refunded(power="germany", units={"tank": 1}, ipcs=6),
        OrderSkipped(line=12, order="move 2 inf Karelia -> Finland", reason="units_not_there",
                     params={"unit": "infantry", "count": 2, "space": "Karelia"}),
        OrderReduced(line=13, order="move 2 fighter Karelia -> Germany", moved={"fighter": 1},
                     reason="units_cannot_move",
                     params={"unit": "fighter", "count": 2, "space": "Karelia", "found": 1,
                             "blocked": 0}),
        IncomeCollected(power="germany", income=20, total=48, reason="",
                        items=(("territories", 20),)),
        EconomyIncome(power="germany", economy="germany_reserve", income=3, total=3,
                      items=(("tolls", 3),)),
        TreasuryRaided(battle="Karelia (raid)", space="Karelia", power="ussr", rolls=(3, 5),
                       lost=8, total=2),
        MiddleEastPaid(payer="uk", payee="germany", amount=3, owed=5, short=2),
        SpecialCashOffered(power="germany", pot=12),
        SpecialCashKept(power="germany", kept=3, ipcs=43),
        ResearchRolled(power="germany", bought=2, cost=10, kept=1, rolls=(6, 2, 3),
                       breakthrough=True, kept_now=0),
        TechnologyGained(power="germany", chart=2, roll=2, technology="jet_fighters",
                         held=("jet_fighters", "radar")),
        RocketFired(power="uk", base="United Kingdom", target="Western Germany",
                    unit="infantry", roll=4, damage=4, total=4),
        ParatroopersDropped(power="germany", base="Germany", target="Eastern Poland", count=2),
        UnitsConverted(territory="Karelia", by="ussr", from_power="uk", units={"infantry": 1}),
        ObjectiveMet(power="germany", economy="germany", objective="germany_trade", income=5,
                     territories=("Karelia",)),
        ObjectiveMissed(power="germany", economy="germany", objective="germany_egypt"),
        ConvoyDisrupted(power="uk", economy="uk_pacific", zone="Sea Zone 5", rolls=(1, 4), cap=6, loss=1),
        FactoryRemoved(space="Karelia", by="ussr", units=("industrial_complex",)),
        LiberationUnitsPlaced(power="uk", units={"infantry": 4}, space="United Kingdom"),
        EconomyPaid(power="uk", economy="uk_pacific", cost=9, ipcs_left=8),
        UnitsRepaired(space="Sea Zone 5", power="germany", units={"battleship": 1}),
        Scrambled(power="ussr", space="Karelia", zone="Sea Zone 5", units={"fighter": 2}),
        RepairedAtBase(space="Sea Zone 5", power="germany", units={"battleship": 1}),
        UnitsChanged(space="Karelia", power="germany", from_type="industrial_complex",
                     to_type="industrial_complex", count=1),
        Resurfaced(space="Sea Zone 5", power="germany", units={"submarine": 1}),
        StandingOrdersChanged(power="germany", count=3),
        VictoryDeclared(side="Axis", rule="capitals", territories=("Russia", "United Kingdom")),
        Repaired(power="germany", space="Germany", points=2, cost=2, ipcs_left=20),
        RaidDamage(battle="Karelia", space="Karelia", unit_type="industrial_complex",
                   rolls=(3, 5), damage=4, total=4),
        UnitsCaptured(territory="Karelia", by="germany", from_power="ussr",
                      units={"industrial_complex": 1}),
        NoMovesReceived(power="germany", deadline="2026-11-30T12:00Z"),
        Corrected(Edit("ipcs", target="germany", amount=30), "a purchase was read twice"),
        LowLuckRolled(battle="Karelia", round=2, step="attack", side="attacker",
                      unit_type="infantry", target=2, rolls=(5,), hits=1,
                      units={"infantry": 2, "tank": 1}, total=8, sure=1),
        BestOfRolled(battle="Karelia", round=2, step="attack", side="attacker",
                     unit_type="bomber", target=4, rolls=(5, 3, 6, 5), hits=1, dice=2,
                     kept=(3, 5)),
        LowLuckBestOfRolled(battle="Karelia", round=2, step="attack", side="attacker",
                            unit_type="bomber", target=14, rolls=(1, 3), hits=2,
                            units={"bomber": 1, "fighter": 1}, total=50, sure=1, per_hit=36),
    ]


def text_of(events=None, **kw):
    return report_text(make_events() if events is None else events, make_game(), **kw)


# --------------------------------------------------------------------------- report


# Global 1940's politics, neutrals and held victory: their events were its plug-ins' until
# they moved into the model (issue 24); the Global example game (test_example_game.py) has them
PLUG_IN_KINDS = {"war_declared", "at_war", "declaration_deferred", "factories_upgraded",
                 "neutral_army_raised", "neutrals_turned", "neutral_joined", "mongolia_joined",
                 "victory_in_sight", "victory_denied"}


def test_fixture_covers_every_event_kind():
    """Every event ``model.events`` names (a test edition's plug-in may add its own)."""
    kinds = {type(ev).kind for ev in make_events()}
    ours = {k for k, cls in all_event_classes().items()
            if cls.__module__.removeprefix("adjudicator.model.") in events_module.MODULES}
    assert kinds == ours - PLUG_IN_KINDS


def test_best_of_dice_show_every_die_and_the_one_kept():
    """Heavy Bombers (ability best_of): both dice of each bomber, the kept one marked; a Low
    Luck remainder counted in 36ths shows its two dice and the number they make."""
    text = text_of()
    assert "≤4, best of 2" in text
    assert "5 3*  6 5" in text
    assert "1 sure + ≤14 of 36" in text
    assert "1 3 = 3*" in text


def test_other_events_read_their_wording():
    """Events with a sentence in ``wording.EVENT_TEXTS`` get one line each, from the event
    alone (a second economy's income, a raid on the treasury)."""
    text = text_of()
    assert "Germany collects 3 IPCs in its germany reserve economy (3 now)" in text
    assert "bombing dice 3, 5: Soviet Union loses 8 IPCs (2 left)" in text          # in its raid's panel
    assert "Middle East payment to Germany (owed 5): United Kingdom pays 3, 2 unpaid and lost" in text
    assert "Germany keeps 3 IPCs of the special cash for turn 1 (43 IPCs now)" in text
    assert "Germany has 12 IPCs of its side's special cash to spend or keep" in text
    assert "national objective (germany trade): Germany collects 5 IPCs" in text
    assert ("national objective (a German land unit in Axis-held Egypt): not met, Germany collects "
            "nothing") in " ".join(text.split())
    assert "convoy disruption in Sea Zone 5: dice 1, 4 cost United Kingdom (UK Pacific economy)" in text
    assert "the factory in Karelia, Chinese land retaken by Soviet Union, is removed from the game" in text
    assert "United Kingdom, liberated, places 4 Infantry in United Kingdom free of charge" in text
    assert "United Kingdom's UK Pacific economy pays 9 IPCs of the purchase (8 left)" in text
    assert ("Germany rolls 3 research dice (2 bought for 10 IPCs, 1 kept): 6, 2, 3: a "
            "breakthrough") in text
    assert ("Germany's breakthrough: chart 2, roll 2: Jet Fighters (technologies held: "
            "Jet Fighters, Radar)") in text
    assert ("United Kingdom's rocket from United Kingdom hits the Infantry in Western Germany: "
            "roll 4, 4 damage") in text
    assert "2 of Germany's paratroopers fly from Germany into the attack on Eastern Poland" in text


def test_header_shows_power_round_and_ipcs():
    text = text_of()
    assert "Test 1941" in text
    assert "Germany — round 2" in text
    assert "IPCs at start: 40" in text


def test_a_pregame_header_shows_the_pot_not_the_treasury():
    """Round 0 of an edition with a pre-game round (Europe [L250-L251]): the header says so
    and shows what is left of the side's special cash beside the IPCs kept for turn 1."""
    events = [TurnStarted("germany", 0, 40), SpecialCashOffered("germany", 12),
              SpecialCashKept("germany", 3, 43)]
    text = text_of(events)
    assert "Germany — round 0 (pre-game)" in text
    assert "Special cash left for its side: 12 · IPCs for turn 1: 40" in text
    assert "IPCs at start" not in text


def test_text_has_no_ansi_and_fits_width():
    text = text_of()
    assert "\x1b[" not in text
    assert max(len(line) for line in text.splitlines()) <= 100


def test_purchases_and_refunds():
    text = text_of()
    row = next(line for line in text.splitlines() if "4 Infantry, 1 Tank" in line)
    assert re.search(r"Germany\s+4 Infantry, 1 Tank\s+18\s+22", row), row
    assert "refunded 6 IPCs for 1 Tank" in text


def test_moves_grouped_by_phase_with_paths():
    text = text_of()
    combat = text.index("Combat moves")
    noncombat = text.index("Noncombat moves")
    assert combat < noncombat
    path = text.index("Ukraine → West Russia → Karelia")
    assert combat < path < noncombat
    assert combat < text.index("Norway → Sea Zone 5") < noncombat
    assert combat < text.index("Sea Zone 5 → Karelia (amphibious assault)") < noncombat
    assert combat < text.index("through Belorussia, taken from Soviet Union") < noncombat
    assert noncombat < text.index("Germany → Finland")
    # order lines are shown
    assert re.search(r"^\s*3\s+move\s+2 Infantry, 1 Tank\s+Ukraine", text, re.M)


def _battle_block(text, name):
    start = text.index(f"Battle: {name}")
    end = text.find("Battle: ", start + 1)
    return text[start:end if end != -1 else len(text)]


def test_dice_faces_in_order_in_round_table():
    block = _battle_block(text_of(), "Karelia")
    r1 = block.index("Round 1")
    r2 = block.index("Round 2")
    assert r1 < r2
    round1 = block[r1:r2]
    # hits marked with "*", misses plain, in the order rolled
    assert re.search(r"attack\s+Attacker\s+Infantry\s+3\s+≤1\s+4 1\* 6\s+1", round1), round1
    assert re.search(r"attack\s+Attacker\s+Tank\s+1\s+≤3\s+2\*\s+1", round1)
    assert re.search(r"defence\s+Defender\s+Infantry\s+3\s+≤2\s+5 3 2\*\s+1", round1)
    round2 = block[r2:]
    assert re.search(r"Tank\s+1\s+≤3\s+3\*\s+1", round2)
    assert re.search(r"Infantry\s+1\s+≤2\s+4\s+0", round2)


def test_battle_forces_casualties_and_summary():
    block = _battle_block(text_of(), "Karelia")
    assert "Battle: Karelia — land" in block
    assert re.search(r"Attacker \(Germany\)\s+3 Infantry, 1 Tank", block)
    assert re.search(r"Defender \(Soviet Union\)\s+3 Infantry", block)
    round1 = block[block.index("Round 1"):block.index("Round 2")]
    assert "Defender (Soviet Union) loses 2 Infantry" in round1
    assert "Attacker (Germany) loses 1 Infantry; cargo lost: 1 Artillery" in round1
    round2 = block[block.index("Round 2"):]
    assert "loses 1 Infantry; damaged: 1 Battleship (defenceless)" in round2
    assert "Germany wins, taking Karelia after 2 rounds; TUV swing +6" in block
    assert "attacker wins after 2 rounds" in block


def test_submerge_retreat_and_generated_summary():
    block = _battle_block(text_of(), "Sea Zone 5 (sea)")
    assert "Battle: Sea Zone 5 (sea) — amphibious-sea" in block
    # the submerge came before the dice in the log, so it is shown before the table
    assert block.index("submerges 1 Submarine") < block.index("≤2")
    assert "retreats 1 Transport to Sea Zone 6 (retreat condition: attackers < 2)" in block
    assert block.index("≤2") < block.index("retreats 1 Transport")
    assert "Germany retreats from Sea Zone 5 to Sea Zone 6 after 1 round; TUV swing +0" in block


def test_battles_appear_in_order_fought():
    text = text_of()
    assert text.index("Battle: Sea Zone 5 (sea)") < text.index("Battle: Karelia")


def test_captures_plunder_aircraft_placement():
    text = text_of()
    assert "Germany captures Karelia from Soviet Union (worth 2 IPCs of income)" in text
    assert "Germany captures Belorussia from Soviet Union" in text
    assert "Germany plunders 5 IPCs from Soviet Union" in text
    assert "Germany loses 1 Fighter in Sea Zone 12 (no landing space in range)" in text
    assert "Germany lands 1 Bomber: Karelia → Germany (no landing order)" in text
    assert "Germany places 4 Infantry in Germany" in text
    assert "Germany now has 3 standing orders" in text


def test_liberation_wording():
    events = [Captured(territory="Karelia", by="ussr", from_power="germany", ipc=2,
                       liberated=True)]
    assert "Soviet Union liberates Karelia from Germany" in text_of(events)


def test_skipped_orders_show_line_and_reason():
    text = text_of()
    assert "Orders not carried out" in text
    assert re.search(r"12\s+move 2 inf Karelia -> Finland\s+needs 2 Infantry in Karelia, but none", text)
    # shown prominently, right after the header
    assert text.index("Orders not carried out") < text.index("Purchases")


def test_reduced_order_says_what_moved_and_why_not_all():
    events = [OrderReduced(line=7, order="move 2 fighter West Russia -> Russia", moved={"fighter": 1},
                           reason="units_cannot_move",
                           params={"unit": "fighter", "count": 2, "space": "West Russia", "found": 1,
                                   "blocked": 0})]
    text = text_of(events)
    assert re.search(r"7\s+move 2 fighter West Russia -> Russia\s+only 1 Fighter moved: needs 2", text)


def test_income_table_from_events():
    text = text_of()
    income = text[text.index("Income\n") if "Income\n" in text else text.index("Income"):]
    ger = next(line for line in income.splitlines() if line.strip().startswith("Germany"))
    # change +6 (3 captures of 2), plunder +5, collected 20, IPCs 48
    assert re.search(r"\+6\s+—\s+\+5\s+20\s+48", ger), ger
    rus = next(line for line in income.splitlines() if line.strip().startswith("Soviet Union"))
    assert re.search(r"-6\s+—\s+-5", rus), rus


def test_income_table_with_states():
    text = text_of(state_before=STATE_BEFORE, state_after=STATE_AFTER)
    income = text[text.rindex("Income"):]
    ger = next(line for line in income.splitlines() if line.strip().startswith("Germany"))
    assert re.search(r"Germany\s+14\s+\+6\s+20\s+\+5\s+20", ger), ger
    rus = next(line for line in income.splitlines() if line.strip().startswith("Soviet Union"))
    assert re.search(r"Soviet Union\s+16\s+-6\s+10\s+-5\s+—\s+5", rus), rus
    uk = next(line for line in income.splitlines() if line.strip().startswith("United Kingdom"))
    assert re.search(r"United Kingdom\s+8\s+\+0\s+8", uk), uk


def test_victory():
    text = text_of()
    assert "Axis win the game!" in text
    assert "Capitals held: Russia, United Kingdom" in text


def test_battle_summaries():
    assert battle_summaries(make_events(), make_game()) == [
        "Germany retreats from Sea Zone 5 to Sea Zone 6 after 1 round; TUV swing +0",
        "Germany wins, taking Karelia after 2 rounds; TUV swing +6",
    ]
    assert battle_summaries([]) == []


def test_html_contains_summary_and_colours():
    html = report_html(make_events(), make_game())
    assert html.lstrip().lower().startswith("<!doctype html")
    assert "Germany wins, taking Karelia after 2 rounds; TUV swing +6" in html
    assert "Ukraine → West Russia → Karelia" in html
    # the report twice: laid out for a desktop, and for a phone (shown below 600 px)
    desktop, phone = html.split('<div class="report phone">')
    assert '<div class="report desktop">' in desktop
    # hits are coloured by the side that rolled them: attacker green, defender red
    for copy in (desktop, phone):
        hit_spans = re.findall(r'<span style="([^"]*)">(\d)\*</span>', copy)
        # (the last two: a heavy bomber's kept die, a Low Luck number read from two dice)
        assert [face for _, face in hit_spans] == ["1", "2", "2", "3", "3", "3"]
        assert ["#008000" in style for style, _ in hit_spans] == [True, True, False, True,
                                                                   True, True]
        assert "#800000" in hit_spans[2][0]
    # powers are named in their colour on the board: white on Germany's grey
    assert re.search(r'<span style="[^"]*background-color: #4d4d4d[^"]*">Germany</span>', desktop)


def test_render_to_a_given_console():
    console = Console(file=io.StringIO(), width=100, force_terminal=True)
    render_report(make_events(), make_game(), console)
    out = console.file.getvalue()
    assert "\x1b[" in out             # rich styled it
    assert "TUV swing 6" in out


def test_empty_event_list():
    text = text_of([])
    assert "Turn report" in text
    assert "No events" in text
    assert report_html([], make_game())
    text = text_of([], state_before=STATE_BEFORE, state_after=STATE_AFTER)
    assert "Germany — round 2" in text


def test_unfinished_and_orphan_battle_events_do_not_crash():
    events = [
        DiceRolled(battle="Ukraine", round=1, step="attack", side="attacker",
                   unit_type="mystery", target=2, rolls=(1, 5), hits=1),
        BattleStarted(battle="Karelia", space="Karelia", battle_type="land", attacker="germany",
                      defenders=("ussr", "uk"), attacking_units={"tank": 2},
                      defending_units={"infantry": 1}),
    ]
    text = text_of(events)
    assert "battle not finished" in text
    assert "Defender (Soviet Union, United Kingdom)" in text
    assert "mystery" in text


def test_format_units_uses_display_names():
    game = make_game()
    assert format_units(game, {"infantry": 3, "tank": 2, "carrier": 1}) == \
        "3 Infantry, 2 Tanks, 1 Aircraft Carrier"
    assert format_units(game, {}) == "nothing"


# --------------------------------------------------------------------------- report files


def test_report_document_format_follows_the_extension():
    game = make_game()
    txt = report_document("turn.txt", make_events(), game)
    assert "Germany wins, taking Karelia" in txt and "<html" not in txt.lower()
    html = report_document("TURN.HTML", make_events(), game)
    assert "<html" in html.lower() and "Germany wins, taking Karelia" in html


def test_saved_report_refuses_to_overwrite_and_leaves_no_temp(tmp_path):
    from adjudicator.cli.common import save_report as _save_report
    game = make_game()
    target = tmp_path / "turn.txt"
    target.write_text("keep me", encoding="utf-8")
    with pytest.raises(PbemError, match="already exists"):
        _save_report(str(target), make_events(), game)
    assert target.read_text(encoding="utf-8") == "keep me"
    _save_report(str(target), make_events(), game, overwrite=True)
    assert "TUV swing 6" in target.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["turn.txt"]


def test_report_with_unknown_extension_is_refused(tmp_path):
    from adjudicator.cli.common import save_report as _save_report
    with pytest.raises(ValueError):
        report_document("turn.pdf", make_events(), make_game())
    with pytest.raises(PbemError, match="use .txt or .html"):
        _save_report(str(tmp_path / "turn.pdf"), make_events(), make_game())
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- board view


def board_state() -> GameState:
    g, r, b = "germany", "ussr", "uk"
    return GameState(
        game_id="g1", map_id="test", round=3, power="germany",
        owners={"Germany": g, "Norway": g, "Karelia": r, "Russia": r, "United Kingdom": b,
                "Finland": g},
        units={
            "Germany": (Unit("infantry", g),) * 5 + (Unit("tank", g),) * 2 + (Unit("fighter", g),),
            "Norway": (Unit("artillery", g),),
            "Karelia": (Unit("infantry", r),) * 4 + (Unit("fighter", b),),
            "Russia": (Unit("infantry", r),) * 7,
            "Sea Zone 5": (
                Unit("transport", g, cargo=(Unit("infantry", g), Unit("tank", g))),
                Unit("transport", g, cargo=(Unit("infantry", g), Unit("tank", g))),
                Unit("transport", g),
                Unit("battleship", g),
            ),
            "Sea Zone 12": (Unit("carrier", b, cargo=(Unit("fighter", b),)),
                            Unit("destroyer", b), Unit("destroyer", b)),
        },
        ipcs={g: 31, r: 12, b: 0},
    )


def board_text(**kw) -> str:
    console = Console(record=True, width=100, file=io.StringIO())
    render_board(make_game(), board_state(), console, **kw)
    return console.export_text(styles=False)


def test_board_lists_every_unit_count():
    text = board_text()
    germany = next(line for line in text.splitlines() if line.strip().startswith("Germany  "))
    assert "5 Infantry, 2 Tanks, 1 Fighter" in germany
    assert "capital" in germany
    assert re.search(r"Norway\s+3\s+1 Artillery", text)
    assert re.search(r"Karelia\s+2\s+4 Infantry; United Kingdom: 1 Fighter", text)
    assert re.search(r"Russia\s+8\s+capital\s+7 Infantry", text)
    assert re.search(r"Finland\s+1\s+—", text)
    assert re.search(r"Sea Zone 5\s+Germany: 1 Battleship, 1 Transport, "
                     r"2× Transport \(Infantry, Tank\)", text)
    assert re.search(r"Sea Zone 12\s+United Kingdom: 2 Destroyers, 1 Aircraft Carrier \(Fighter\)",
                     text)
    assert "Sweden" not in text                   # neutral omitted
    assert max(len(line) for line in text.splitlines()) <= 100


def test_board_overview_ipcs_and_income():
    text = board_text()
    assert re.search(r"▶ Germany\s+Axis\s+31\s+14\s+3\s+17", text)   # 8 + 1 + 4 ships + 4 cargo
    assert re.search(r"Soviet Union\s+Allies\s+12\s+10\s+2\s+11", text)
    assert "Germany — 31 IPCs, income 14" in text
    assert "Sea zones" in text
    # turn order: ussr, germany, uk
    assert text.index("Soviet Union — 12 IPCs") < text.index("Germany — 31 IPCs") \
        < text.index("United Kingdom — 0 IPCs")
    # sea zones in natural order
    assert text.index("Sea Zone 5 ") < text.index("Sea Zone 12 ")


def test_board_for_one_power():
    text = board_text(power="uk")
    assert "United Kingdom — 0 IPCs, income 8" in text
    assert "Germany — 31 IPCs" not in text
    assert "Sea Zone 12" in text
    assert "Sea Zone 5 " not in text


def test_board_helpers():
    game = make_game()
    assert territory_income(game, board_state(), "germany") == 14
    stack = (Unit("carrier", "uk", cargo=(Unit("fighter", "uk"), Unit("fighter", "ussr"))),)
    assert format_stack(game, stack) == "1 Aircraft Carrier (Fighter, Soviet Fighter)"
    two = (Unit("carrier", "uk", cargo=(Unit("fighter", "uk"),) * 2),) * 2 + (Unit("carrier", "uk"),)
    assert format_stack(game, two) == "1 Aircraft Carrier, 2× Aircraft Carrier (2 Fighters)"


def test_noncombat_load_and_unload_are_listed_under_noncombat():
    # A turn with no combat at all: loads and unloads say their own phase.
    events = [Loaded("germany", {"infantry": 2}, "Germany", "Sea Zone 5", 4, "noncombat"),
              Unloaded("germany", {"infantry": 2}, "Sea Zone 5", "Norway", False, 5, "noncombat")]
    text = text_of(events)
    assert "Combat moves" not in text
    noncombat = text.index("Noncombat moves")
    assert noncombat < text.index("Germany → Sea Zone 5") and noncombat < text.index("Sea Zone 5 → Norway")


def test_board_shows_standing_defence_orders():
    import attrs as _attrs
    from adjudicator.model.orders import DefenceOrder, StandingOrders, SubmergePolicy
    state = _attrs.evolve(board_state(), standing_orders={
        "ussr": StandingOrders((DefenceOrder(None, ("infantry", "tank")),
                                DefenceOrder("Karelia", (), SubmergePolicy.NEVER)))})
    console = Console(record=True, width=100, file=io.StringIO())
    render_board(make_game(), state, console)
    text = console.export_text(styles=False)
    assert "Standing defence orders" in text
    assert re.search(r"Soviet Union\s+all spaces\s+Infantry, Tank\s+default", text)
    assert re.search(r"Soviet Union\s+Karelia\s+default\s+never", text)
    assert "Standing defence orders" not in board_text()


def test_a_correction_shows_each_edit_and_its_reason():
    text = text_of([Corrected(Edit("undo", turn=4), "orders of the wrong game"),
                    Corrected(Edit("ipcs", target="germany", amount=30),
                              "orders of the wrong game")])
    assert "Game master's correction" in text
    assert "the position before turn 4 is restored" in text
    assert "Germany's IPCs are set to 30" in text
    assert "Reason: orders of the wrong game" in text


def test_a_unit_type_changed_where_it_stands_reads_with_names():
    """A captured major factory turned minor (Global 1940): the types' names, not keys."""
    from adjudicator.model.events import UnitsChanged
    from adjudicator.present.wording import event_text
    from adjudicator.service.games import load_game
    game = load_game("global1940")
    text = event_text(UnitsChanged("France", "germany", "major_factory", "minor_factory", 1), game)
    assert text == ("1 Major Industrial Complex in France becomes Minor Industrial Complex "
                    "(Germany's now)")


def test_a_friendly_neutral_joining_is_no_conquest_and_has_no_income_row():
    """Global 1940's example, Germany's turn 1: Bulgaria (pro-Axis) joins Germany [L343].
    The report says it joined (not 'captures ... from Pro-Axis Neutral'), and the neutral,
    which collects no income, has no row of its own in the Income table."""
    from pathlib import Path

    from adjudicator.io import layout
    from adjudicator.service import gamedir
    from adjudicator.service.games import load_game

    game_dir = Path(__file__).resolve().parent.parent / "turns" / "global1940-example" / "game"
    gf, _ = gamedir.read_game(game_dir)
    game = load_game(gf.ruleset, options=gf.options)
    first = layout.list_turns(game_dir)[0]
    tf = gamedir.read_turn(game_dir, first[2], gf)
    joined = [ev for ev in tf.events if ev.kind == "neutral_joined"]
    assert [ev.territory for ev in joined] == ["Bulgaria"]
    console = Console(file=io.StringIO(), width=120, color_system=None, record=True)
    render_report(tf.events, game, console, gf.initial_state, tf.state)
    text = console.export_text()
    assert "Germany is joined by Bulgaria (Pro-Axis Neutral), worth 1 IPC of income" in text
    assert "captures Bulgaria" not in text
    income = text[text.index("Income"):]
    assert not any(line.strip().startswith("Pro-Axis") for line in income.splitlines())
    from adjudicator.present.report import page_heading
    assert page_heading(list(tf.events), game, gf.initial_state, tf.state).lines.count(
        "Germany is joined by Bulgaria (Pro-Axis Neutral)") == 1
