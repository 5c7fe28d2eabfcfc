"""The turn report, rendered with rich from the event log alone.

The report reads only the events a turn produced (the same ones the turn file and the
audit use), so what players read is exactly what the engine did.  Two optional states
(before / after the turn) only add income figures that the events cannot give.

Public API::

    render_report(events, game, console, state_before=None, state_after=None)
    report_text(events, game, state_before=None, state_after=None) -> str
    report_html(events, game, state_before=None, state_after=None) -> str
    report_document(path, events, game, state_before=None, state_after=None)
    battle_summaries(events) -> list[str]
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable
from functools import partial
from pathlib import Path

from rich import box
from rich.console import Console, Group
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..model.events import (
    AircraftLost,
    BattleEnded,
    BattleStarted,
    BestOfRolled,
    Blitzed,
    Captured,
    Casualties,
    DiceRolled,
    Event,
    IncomeCollected,
    Landed,
    Loaded,
    LowLuckBestOfRolled,
    LowLuckRolled,
    Moved,
    OrderReduced,
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
    TreasuryRaided,
    TurnStarted,
    Unloaded,
    UnitsCaptured,
    VictoryDeclared,
    NoMovesReceived,
)
from ..model.dice import read_number
from ..model.game import Game
from .report_heading import section as _section
from .wording import (
    BEST_OF_TARGET, EVENT_TEXTS, LOW_LUCK_NUMBER_TARGET, correction_text, currency, event_text,
    format_units, technology_name, unit_name,
)
from .wording import (
    AIRCRAFT_LOST, CASUALTY_REASONS, INCOME_REASONS, LANDED, VICTORY_RULES, battle_summary,
    problem_text, raid_summary, render, retreat_reason,
)
from ..model.state import GameState
from .board_svg import power_styles
from .board_battle_list import board_battles
from .report_board import board_figure
from .report_page import PageHeading, report_page

REPORT_WIDTH = 100
PHONE_REPORT_WIDTH = 53     # columns of the HTML report's phone layout: 11 px type in 374 px
NARROW_BELOW = 60           # a console narrower than this gets the compact dice tables
ARROW = " → "

# Colours.  Sides get a colour each; dice hits are coloured by the side that rolled them.
AXIS_STYLE = "bold dark_orange3"
ALLIES_STYLE = "bold dodger_blue2"
NEUTRAL_STYLE = "bold"
ATTACKER_HIT_STYLE = "bold green"
DEFENDER_HIT_STYLE = "bold red"
MISS_STYLE = "dim"
WARNING_STYLE = "bold yellow"

_BATTLE_EVENTS = (DiceRolled, Submerged, Casualties, Retreated, RaidDamage, TreasuryRaided, BattleEnded)

STEP_NAMES = {"aa": "AA fire", "bombard": "bombardment", "surprise": "surprise strike",
              "attack": "attack", "defence": "defence", "raid": "bombing"}

_OUTCOME_TEXT = {
    "attacker_wins": "attacker wins",
    "defender_wins": "defender holds",
    "both_destroyed": "both sides destroyed",
    "attacker_retreats": "attacker retreats",
    "stalemate": "stalemate",
}


# --------------------------------------------------------------------------- names


def _plain(value) -> str:
    """Enum members (e.g. ``Phase.COMBAT``) by value, anything else as ``str``."""
    return str(getattr(value, "value", value))


def power_name(game: Game, key: str | None) -> str:
    """Display name of a power ("Soviet Union"); the key itself if unknown; "neutral" for None."""
    if not key:
        return "neutral"
    power = game.ruleset.powers.get(key) or game.ruleset.nations.get(key)
    return power.name if power else key


def power_adjective(game: Game, key: str) -> str:
    power = game.ruleset.powers.get(key)
    if power is None:
        return key
    return power.adjective or power.name


def side_style(side: str | None) -> str:
    s = (side or "").lower()
    if s.startswith("axis"):
        return AXIS_STYLE
    if s.startswith("all"):
        return ALLIES_STYLE
    return NEUTRAL_STYLE


def power_style(game: Game, key: str | None) -> str:
    """A power's name as the board picture marks it: readable text on the power's colour
    (board_svg.power_styles); a power the board does not know, by its side's colour."""
    style = power_styles(game).get(key) if key else None
    if style is None:
        power = game.ruleset.powers.get(key) if key else None
        return side_style(power.side if power else None)
    return f"bold {style.text} on {style.strong}"


def power_colour(game: Game, key: str | None) -> str:
    """The power's colour on the board (for borders and rules), else its side's."""
    style = power_styles(game).get(key) if key else None
    return style.strong if style else side_style(None).replace("bold ", "")


def power_text(game: Game, key: str | None) -> Text:
    return Text(power_name(game, key), style=power_style(game, key))


def format_path(path: Iterable[str]) -> str:
    return ARROW.join(path)


def _powers_text(game: Game, keys: Iterable[str]) -> Text:
    text = Text()
    for i, key in enumerate(keys):
        if i:
            text.append(", ")
        text.append_text(power_text(game, key))
    return text


def _line_cell(line: int) -> str:
    return str(line) if line else ""


# --------------------------------------------------------------------------- summaries


def _battle_summary_line(game: Game | None, battle: "_Battle") -> str:
    started, ended = battle.started, battle.ended
    if started is not None and started.battle_type == "raid":
        damage = next((ev for ev in battle.events if isinstance(ev, (RaidDamage, TreasuryRaided))), None)
        return raid_summary(game, started.attacker, damage)
    retreat_to = next((ev.destination for ev in battle.events if isinstance(ev, Retreated)), None)
    summary = battle_summary(game, ended, started.attacker if started else None,
                             started.defenders if started else (), retreat_to)
    if ended.space and ended.space not in summary:
        summary = f"{ended.space}: {summary}"
    return summary


def battle_summaries(events: Iterable[Event], game: Game | None = None) -> list[str]:
    """One line per finished battle, in the order fought (e.g. for CLI output); board
    battles (Taktyczne Starcie) after the others."""
    events = list(events)
    lines = [_battle_summary_line(game, b) for b in _group_battles(events) if b.ended]
    boards = board_battles(events)
    if not boards:
        return lines
    from .board_battle_replay import battle_outcome     # the board's classes, when needed
    name = partial(power_name, game) if game is not None else str
    return lines + [battle_outcome(b, name) for b in boards]


# --------------------------------------------------------------------------- battles


class _Battle:
    """The events of one battle, from its BattleStarted to its BattleEnded."""

    def __init__(self, battle: str, started: BattleStarted | None = None):
        self.battle = battle
        self.started = started
        self.events: list[Event] = []
        self.ended: BattleEnded | None = None


def _group_battles(events: list[Event]) -> list[_Battle]:
    battles: list[_Battle] = []
    open_: dict[str, _Battle] = {}
    ended: dict[str, _Battle] = {}     # a raid's damage dice come after its BattleEnded
    for ev in events:
        if isinstance(ev, BattleStarted):
            b = _Battle(ev.battle, ev)
            battles.append(b)
            open_[ev.battle] = b
            ended.pop(ev.battle, None)
        elif isinstance(ev, _BATTLE_EVENTS):
            b = open_.get(ev.battle)
            if b is None and not isinstance(ev, BattleEnded) and ev.battle in ended:
                ended[ev.battle].events.append(ev)
                continue
            if b is None:                      # events of a battle never started: keep them
                b = _Battle(ev.battle)
                battles.append(b)
                open_[ev.battle] = b
            if isinstance(ev, BattleEnded):
                b.ended = ev
                del open_[ev.battle]
                ended[ev.battle] = b
            else:
                b.events.append(ev)
    return battles


def _side_label(game: Game, battle: _Battle, side: str) -> Text:
    label = Text(side.capitalize(), style="bold")
    started = battle.started
    if started is not None:
        keys = (started.attacker,) if side == "attacker" else started.defenders
        label.append(" (")
        label.append_text(_powers_text(game, keys))
        label.append(")")
    return label


def _dice_text(ev: DiceRolled) -> Text:
    hit_style = ATTACKER_HIT_STYLE if ev.side == "attacker" else DEFENDER_HIT_STYLE
    text = Text()
    for i, face in enumerate(ev.rolls):
        if i:
            text.append(" ")
        if face <= ev.target:
            text.append(f"{face}*", style=hit_style)
        else:
            text.append(str(face), style=MISS_STYLE)
    return text


def _best_of_text(ev: BestOfRolled) -> Text:
    """Each unit's dice in the order drawn, the one it keeps marked (``*`` a hit), the
    others dimmed; units apart by a wide gap."""
    hit_style = ATTACKER_HIT_STYLE if ev.side == "attacker" else DEFENDER_HIT_STYLE
    text = Text()
    n = ev.dice
    for unit, kept in enumerate(ev.kept):
        if unit:
            text.append("  ")
        faces = ev.rolls[unit * n:(unit + 1) * n]
        keep_at = faces.index(kept) if kept in faces else -1
        for i, face in enumerate(faces):
            if i:
                text.append(" ")
            if i != keep_at:
                text.append(str(face), style="dim")
            elif face <= ev.target:
                text.append(f"{face}*", style=hit_style)
            else:
                text.append(str(face), style=MISS_STYLE)
    return text


def _low_luck_number_text(ev: LowLuckBestOfRolled, sides: int) -> Text:
    """A Low Luck remainder read from several dice: the dice and the number they make."""
    if not ev.rolls:
        return Text()
    hit_style = ATTACKER_HIT_STYLE if ev.side == "attacker" else DEFENDER_HIT_STYLE
    number = read_number(ev.rolls, sides)
    text = Text(" ".join(map(str, ev.rolls)) + " = ")
    text.append(f"{number}*" if number <= ev.target else str(number),
                style=hit_style if number <= ev.target else MISS_STYLE)
    return text


def _side_word(side: str, narrow: bool) -> str:
    return side[:3].capitalize() if narrow else side.capitalize()


def _dice_table(game: Game, rolls: list[DiceRolled], narrow: bool = False) -> Table:
    """The dice of a round.  ``narrow`` (a phone's width): one space between columns (the
    table's divider),
    short headings and sides ("Att", "Def"), so that no word is cut."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 0) if narrow else (0, 1))
    table.add_column("Step", min_width=11 if narrow else None)
    table.add_column("Side")
    table.add_column("Unit", min_width=10 if narrow else None)
    table.add_column("#", justify="right")
    table.add_column("On" if narrow else "Hits on")
    table.add_column("Dice" if narrow else "Dice (* = hit)", overflow="fold")
    table.add_column("Hits", justify="right", min_width=4 if narrow else None)
    for ev in rolls:
        hit_style = ATTACKER_HIT_STYLE if ev.side == "attacker" else DEFENDER_HIT_STYLE
        damage = ev.step == "raid"
        if isinstance(ev, LowLuckBestOfRolled):   # a group counted in 36ths: several dice
            table.add_row(
                STEP_NAMES.get(ev.step, ev.step),
                Text(_side_word(ev.side, narrow), style=hit_style.replace("bold ", "")),
                format_units(game, ev.units), str(len(ev.rolls)),
                LOW_LUCK_NUMBER_TARGET.format(sure=ev.sure, target=ev.target, per_hit=ev.per_hit)
                if ev.rolls else f"{ev.sure} sure",
                _low_luck_number_text(ev, game.ruleset.dice_sides),
                Text(str(ev.hits), style=hit_style if ev.hits else MISS_STYLE))
            continue
        if isinstance(ev, BestOfRolled):      # each unit keeps the best of its dice
            table.add_row(
                STEP_NAMES.get(ev.step, ev.step),
                Text(_side_word(ev.side, narrow), style=hit_style.replace("bold ", "")),
                unit_name(game, ev.unit_type, len(ev.kept)), str(len(ev.rolls)),
                BEST_OF_TARGET.format(target=ev.target, dice=ev.dice), _best_of_text(ev),
                Text(str(ev.hits), style=hit_style if ev.hits else MISS_STYLE))
            continue
        if isinstance(ev, LowLuckRolled):     # a group: sure hits plus one die for the rest
            table.add_row(
                STEP_NAMES.get(ev.step, ev.step),
                Text(_side_word(ev.side, narrow), style=hit_style.replace("bold ", "")),
                format_units(game, ev.units), str(len(ev.rolls)),
                f"{ev.sure} sure" + (f" + ≤{ev.target}" if ev.rolls else ""),
                _dice_text(ev), Text(str(ev.hits), style=hit_style if ev.hits else MISS_STYLE))
            continue
        table.add_row(
            STEP_NAMES.get(ev.step, ev.step),
            Text(_side_word(ev.side, narrow), style=hit_style.replace("bold ", "")),
            unit_name(game, ev.unit_type, 1 if ev.step == "aa" else len(ev.rolls)),  # one gun fires
            str(len(ev.rolls)),
            "damage" if damage else f"≤{ev.target}",
            Text(" ".join(map(str, ev.rolls))) if damage else _dice_text(ev),
            Text(str(sum(ev.rolls)) if damage else str(ev.hits),
                 style=hit_style if (ev.hits or damage) else MISS_STYLE),
        )
    return table


def _battle_line(game: Game, battle: _Battle, ev: Event) -> Text:
    if isinstance(ev, Casualties):
        text = Text("  ✗ ")
        text.append_text(_side_label(game, battle, ev.side))
        parts = []
        if any(ev.killed.values()):
            parts.append(f"loses {format_units(game, ev.killed)}")
        if any(ev.damaged.values()):
            parts.append(f"damaged: {format_units(game, ev.damaged)}")
        if any(ev.cargo_lost.values()):
            parts.append(f"cargo lost: {format_units(game, ev.cargo_lost)}")
        text.append(" " + ("; ".join(parts) if parts else "no losses"))
        reason = CASUALTY_REASONS.get(ev.reason, ev.reason)
        if reason:
            text.append(f" ({reason})", style="italic")
        return text
    if isinstance(ev, Submerged):
        text = Text("  ↓ ")
        text.append_text(_side_label(game, battle, ev.side))
        text.append(f" submerges {format_units(game, ev.units)}")
        return text
    if isinstance(ev, Retreated):
        text = Text("  ← ")
        text.append_text(_side_label(game, battle, "attacker"))
        text.append(f" retreats {format_units(game, ev.units)} to {ev.destination}")
        text.append(f" ({retreat_reason(ev.reason, ev.condition)})", style="italic")
        return text
    if isinstance(ev, RaidDamage):
        text = Text("  ⚒ ")
        text.append(f"{unit_name(game, ev.unit_type)} in {ev.space} takes {ev.damage} damage "
                    f"(dice {sum(ev.rolls)}; now {ev.total})")
        return text
    if isinstance(ev, TreasuryRaided):
        return Text("  ⚒ " + event_text(ev, game))
    return Text(f"  {ev!r}")


def _battle_panel(game: Game, battle: _Battle, narrow: bool = False) -> Panel:
    parts: list = []
    started = battle.started
    title = Text("Battle: ", style="bold")
    title.append(battle.battle, style="bold")
    if started is not None:
        title.append(f" — {started.battle_type}")
        forces = Table.grid(padding=(0, 1))
        forces.add_column(no_wrap=True)
        forces.add_column()
        forces.add_row(_side_label(game, battle, "attacker"),
                       format_units(game, started.attacking_units))
        forces.add_row(_side_label(game, battle, "defender"),
                       format_units(game, started.defending_units))
        parts.append(forces)

    rounds: dict[int, list[Event]] = {}
    for ev in battle.events:
        rounds.setdefault(getattr(ev, "round", 1), []).append(ev)
    for rnd in sorted(rounds):
        evs = rounds[rnd]
        rolls = [ev for ev in evs if isinstance(ev, DiceRolled)]
        first_roll = next((i for i, ev in enumerate(evs) if isinstance(ev, DiceRolled)), len(evs))
        before = [ev for ev in evs[:first_roll] if not isinstance(ev, DiceRolled)]
        after = [ev for ev in evs[first_roll:] if not isinstance(ev, DiceRolled)]
        parts.append(Text(""))
        parts.append(Text(f"Round {rnd}", style="bold underline"))
        parts.extend(_battle_line(game, battle, ev) for ev in before)
        if rolls:
            parts.append(_dice_table(game, rolls, narrow))
        parts.extend(_battle_line(game, battle, ev) for ev in after)

    ended = battle.ended
    border = power_colour(game, started.attacker) if started else "white"
    if ended is not None:
        parts.append(Text(""))
        outcome = _OUTCOME_TEXT.get(ended.outcome, ended.outcome.replace("_", " "))
        rounds_word = "round" if ended.rounds == 1 else "rounds"
        parts.append(Text(f"Result: {outcome} after {ended.rounds} {rounds_word}."))
        losses = Text("Attacker lost ")
        losses.append(f"{format_units(game, ended.attacker_lost)} (TUV {ended.attacker_tuv_lost})")
        losses.append("; defender lost ")
        losses.append(f"{format_units(game, ended.defender_lost)} (TUV {ended.defender_tuv_lost})")
        losses.append(f"; TUV swing {ended.tuv_swing}.")
        parts.append(losses)
        parts.append(Text(_battle_summary_line(game, battle), style="bold"))
    else:
        parts.append(Text("(battle not finished in this log)", style=WARNING_STYLE))
    return Panel(Group(*parts), title=title, title_align="left", border_style=border,
                 box=box.ROUNDED)


# --------------------------------------------------------------------------- sections


def _move_phase(events: list[Event]) -> list[tuple[str, Event]]:
    """Movement events tagged with their phase (a blitz happens during a combat move)."""
    tagged = []
    for ev in events:
        if isinstance(ev, (Moved, Loaded, Unloaded)):
            tagged.append((_plain(ev.phase), ev))
        elif isinstance(ev, Blitzed):
            tagged.append(("combat", ev))
    return tagged


# A move of Taktyczne's main turn into an area its power fought for on the board this turn.
ATTACK_KINDS = ("ts_board_battle", "ts_live_battle_started")
REVEAL_WANTED = "ts_mine_reveal_wanted"        # the mover's battle waits for a sealed layout


def _moves_table(game: Game, rows: list[Event], attacks: frozenset = frozenset()) -> Table:
    """The moves; ``attacks``: (power, area) of the turn's attacks, whose moves say so."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("Line", justify="right", style="dim")
    table.add_column("Action")
    table.add_column("Units")
    table.add_column("Route", overflow="fold")
    for ev in rows:
        if isinstance(ev, Moved):
            action = (Text("attack", style="bold") if (ev.power, ev.path[-1]) in attacks
                      else "move")
            table.add_row(_line_cell(ev.line), action, format_units(game, ev.units),
                          format_path(ev.path))
        elif isinstance(ev, Loaded):
            table.add_row(_line_cell(ev.line), "load", format_units(game, ev.units),
                          f"{ev.origin}{ARROW}{ev.zone} (onto transports)")
        elif isinstance(ev, Unloaded):
            action = Text("amphibious", style="bold") if ev.amphibious else "unload"
            route = f"{ev.zone}{ARROW}{ev.target}"
            if ev.amphibious:
                route += " (amphibious assault)"
            table.add_row(_line_cell(ev.line), action, format_units(game, ev.units), route)
        elif isinstance(ev, Blitzed):
            route = Text(f"through {ev.territory}, taken from ")
            route.append_text(power_text(game, ev.previous_owner))
            table.add_row("", Text("blitz", style="bold"), "", route)
    return table


def _header(console: Console, game: Game, events: list[Event],
            state_before: GameState | None) -> TurnStarted | None:
    started = next((ev for ev in events if isinstance(ev, TurnStarted)), None)
    title = Text(game.ruleset.title or game.game_id, style="bold")
    body = Text()
    if started is None and any(ev.kind == "corrected" for ev in events):
        round_ = f" — round {state_before.round}" if state_before is not None else ""
        body.append(f"Game master's correction{round_}")
    elif started is not None:
        body.append_text(power_text(game, started.power))
        offered = next((ev for ev in events if ev.kind == "special_cash_offered"), None)
        if offered is not None and started.round == 0:     # pre-game: the pot is what it spends
            body.append(f" — round {started.round} (pre-game)")
            body.append(f"\nSpecial cash left for its side: {offered.pot}"
                        f" · IPCs for turn 1: {started.ipcs}")
        else:
            body.append(f" — round {started.round}")
            body.append(f"\n{_money(game)} at start: {started.ipcs}")
    elif state_before is not None:
        body.append_text(power_text(game, state_before.power))
        body.append(f" — round {state_before.round}")
        body.append(f"\n{_money(game)} at start: {state_before.ipcs.get(state_before.power, 0)}")
    else:
        body.append("Turn report")
    held = _technologies_held(state_before, started.power if started else
                              state_before.power if state_before is not None else None)
    if held:
        body.append(f"\nTechnologies held: {held}")
    if not events:
        body.append("\nNo events were recorded for this turn.", style="dim")
    for ev in events:                       # a missed deadline (tournaments: the tick's NMR)
        if isinstance(ev, NoMovesReceived):
            body.append("\n" + _missed_turn_text(ev, events), style="bold")
    corrections = [ev for ev in events if ev.kind == "corrected"]     # by kind: no class made
    if corrections:
        body.append("\nNo orders were played; the game master changed the position:",
                    style="bold")
        for ev in corrections:
            body.append(f"\n  - {correction_text(ev, game)}")
        body.append(f"\nReason: {corrections[0].reason}", style="bold")
    border = power_colour(game, started.power) if started else "white"
    console.print(Panel(body, title=title, title_align="left", border_style=border,
                        box=box.HEAVY, expand=True))
    return started


def _money(game: Game) -> str:
    """The report's heading for a treasury: "IPCs", or Taktyczne's "Points"."""
    word = currency(game)
    return word[0].upper() + word[1:]


def _technologies_held(state: GameState | None, power: str | None) -> str:
    """The technologies ``power`` held at the start of its turn (Global 1940's research)."""
    if state is None or power is None:
        return ""
    held = (state.extras.get("technologies") or {}).get(power) or ()
    return ", ".join(technology_name(t) for t in held)


def _skipped(console: Console, game: Game, events: list[Event]) -> None:
    skipped = [ev for ev in events if isinstance(ev, (OrderSkipped, OrderReduced))]
    if not skipped:
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("Line", justify="right", style=WARNING_STYLE)
    table.add_column("Order")
    table.add_column("Why it was skipped", overflow="fold")
    for ev in skipped:
        why = problem_text((ev.reason, ev.params), game)
        if isinstance(ev, OrderReduced):
            why = f"only {format_units(game, ev.moved, 'nothing')} moved: {why}"
        table.add_row(str(ev.line), ev.order, why)
    console.print()
    console.print(Panel(table, title=Text("Orders not carried out", style=WARNING_STYLE),
                        title_align="left", border_style="yellow"))


def _event_lines(console: Console, game: Game, events: list[Event], kinds: tuple[str, ...]) -> None:
    """The sentence (``wording.EVENT_TEXTS``) of each event of ``kinds``, in the order they happened."""
    for ev in events:
        if ev.kind in kinds:
            console.print(Padding(Text(event_text(ev, game)), (0, 0, 0, 2)))   # wrapped lines keep it


def _purchases(console: Console, game: Game, events: list[Event]) -> None:
    buys = [ev for ev in events if isinstance(ev, Purchased)]
    repairs = [ev for ev in events if isinstance(ev, Repaired)]
    if not (buys or repairs or any(ev.kind in PURCHASE_KINDS for ev in events)):
        return
    _section(console, "Purchases")
    for ev in repairs:
        console.print(Text(f"  {power_name(game, ev.power)} repairs {ev.points} damage in "
                           f"{ev.space} for {ev.cost} IPCs ({ev.ipcs_left} left)"))
    _event_lines(console, game, events, PURCHASE_KINDS)
    if not buys:
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("Power")
    table.add_column("Units")
    table.add_column("Cost", justify="right")
    table.add_column("IPCs left", justify="right")
    for ev in buys:
        table.add_row(power_text(game, ev.power), format_units(game, ev.units, "nothing"),
                      str(ev.cost), str(ev.ipcs_left))
    console.print(table)


def _moves(console: Console, game: Game, events: list[Event], phase: str, title: str) -> None:
    rows = [ev for ph, ev in _move_phase(events) if ph == phase]
    if not rows:
        return
    _section(console, title)
    mover = next((ev.power for ev in events if isinstance(ev, TurnStarted)), None)
    attacks = frozenset([(ev.attacker, ev.area) for ev in events if ev.kind in ATTACK_KINDS]
                        + [(mover, ev.area) for ev in events if ev.kind == REVEAL_WANTED])
    console.print(_moves_table(game, rows, attacks))


def _battles(console: Console, game: Game, events: list[Event]) -> None:
    battles = _group_battles(events)
    if not (battles or any(ev.kind in BATTLE_KINDS for ev in events)):
        return
    _section(console, "Battles")
    _event_lines(console, game, events, BATTLE_KINDS)
    for battle in battles:
        console.print(_battle_panel(game, battle, narrow=console.width < NARROW_BELOW))


#: Events of a friendly neutral's territory joining a power (its ``Captured`` is no conquest).
JOINING_KINDS = ("neutral_joined", "mongolia_joined")


def joined_territories(events: Iterable[Event]) -> dict[str, dict[str, int]]:
    """The territories that joined a power this turn (friendly neutrals, the pact), each
    with the army that joined with it."""
    return {ev.territory: dict(getattr(ev, "units", {}) or {})   # type: ignore[attr-defined]
            for ev in events if ev.kind in JOINING_KINDS}


def _territory_changes(console: Console, game: Game, events: list[Event]) -> None:
    rows = [ev for ev in events if isinstance(ev, (Captured, Plundered, UnitsCaptured))]
    if not (rows or any(ev.kind in TERRITORY_KINDS for ev in events)):
        return
    _section(console, "Territory changes")
    joined = joined_territories(events)
    valued = any(t.ipc for t in game.map.land())
    for ev in rows:
        text = Text("  ")
        if isinstance(ev, UnitsCaptured):
            text.append_text(power_text(game, ev.by))
            text.append(f" takes {format_units(game, ev.units)} in {ev.territory} from ")
            text.append_text(power_text(game, ev.from_power))
        elif isinstance(ev, Captured) and ev.territory in joined:
            text.append_text(power_text(game, ev.by))
            text.append(" is joined by ")
            text.append(ev.territory, style="bold")
            text.append(" (")
            text.append_text(power_text(game, ev.from_power))
            text.append(f"), worth {ev.ipc} IPC{'' if ev.ipc == 1 else 's'} of income")
            army = joined[ev.territory]
            if army:
                text.append(f", with its army of {format_units(game, army)}")
        elif isinstance(ev, Captured):
            text.append_text(power_text(game, ev.by))
            text.append(" liberates " if ev.liberated else " captures ")
            text.append(ev.territory, style="bold")
            if ev.from_power:
                text.append(" from ")
                text.append_text(power_text(game, ev.from_power))
            else:
                text.append(" (held by no one)")
            if valued:                          # an edition whose land has IPC values
                text.append(f" (worth {ev.ipc} IPC{'' if ev.ipc == 1 else 's'} of income)")
        else:
            text.append_text(power_text(game, ev.by))
            text.append(f" plunders {ev.ipcs} IPCs from ")
            text.append_text(power_text(game, ev.from_power))
        console.print(text)
    _event_lines(console, game, events, TERRITORY_KINDS)


def _aircraft(console: Console, game: Game, events: list[Event]) -> None:
    rows = [ev for ev in events if isinstance(ev, (AircraftLost, Landed))]
    if not rows:
        return
    _section(console, "Aircraft")
    for ev in rows:
        text = Text("  ")
        text.append_text(power_text(game, ev.power))
        if isinstance(ev, AircraftLost):
            text.append(f" loses {format_units(game, ev.units)} in {ev.space}")
        else:
            text.append(f" lands {format_units(game, ev.units)}: {format_path(ev.path)}")
        reason = (AIRCRAFT_LOST if isinstance(ev, AircraftLost) else LANDED).get(ev.reason, ev.reason)
        if reason:
            text.append(f" ({render(reason, {'line': getattr(ev, 'line', 0)})})", style="italic")
        console.print(text)


def _placements(console: Console, game: Game, events: list[Event]) -> None:
    rows = [ev for ev in events if isinstance(ev, (Placed, Refunded))]
    if not rows:
        return
    _section(console, "Placement")
    for ev in rows:
        text = Text("  ")
        text.append_text(power_text(game, ev.power))
        if isinstance(ev, Placed):
            text.append(f" places {format_units(game, ev.units)} in {ev.space}")
        else:
            text.append(f" is refunded {ev.ipcs} IPCs for {format_units(game, ev.units)}"
                        " (could not be placed)")
        console.print(text)


def _income(console: Console, game: Game, events: list[Event],
            state_before: GameState | None, state_after: GameState | None) -> None:
    change: dict[str, int] = {}
    plunder: dict[str, int] = {}
    collected: dict[str, IncomeCollected] = {}
    involved: set[str] = set()
    for ev in events:
        if isinstance(ev, Captured):
            change[ev.by] = change.get(ev.by, 0) + ev.ipc
            change[ev.from_power] = change.get(ev.from_power, 0) - ev.ipc
            involved.update((ev.by, ev.from_power))
        elif isinstance(ev, Plundered):
            plunder[ev.by] = plunder.get(ev.by, 0) + ev.ipcs
            plunder[ev.from_power] = plunder.get(ev.from_power, 0) - ev.ipcs
            involved.update((ev.by, ev.from_power))
        elif isinstance(ev, IncomeCollected):
            collected[ev.power] = ev
            involved.add(ev.power)
    if state_before is None and state_after is None and not involved:
        if any(ev.kind in INCOME_KINDS for ev in events):
            _section(console, "Income")
            _event_lines(console, game, events, INCOME_KINDS)
        return
    order = list(game.ruleset.turn_order) + [k for k in game.ruleset.powers
                                              if k not in game.ruleset.turn_order]
    if state_before is None and state_after is None:
        powers = [k for k in order if k in involved]
    else:
        powers = order
    # a neutral nation that lost a territory collects no income: no row of its own
    powers += sorted(k for k in involved if k and k not in powers and k in game.ruleset.powers)

    _section(console, "Income")
    narrow = console.width < NARROW_BELOW        # a phone: short headings, one space apart
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, collapse_padding=narrow)
    table.add_column("Power", min_width=8 if narrow else None)
    for heading, short in (("Income before", "Was"), ("Change", "+/-"), ("Income now", "Now"),
                           ("Plunder", "Plunder"), ("Collected", "Got"), (_money(game), _money(game))):
        table.add_column(short if narrow else heading, justify="right")
    dash = Text("—", style="dim")
    for key in powers:
        delta = change.get(key, 0)
        before = _projected(game, state_before, key)
        after = _projected(game, state_after, key)
        if before is not None and after is not None:
            delta = after - before              # what moved it: captures, or an edition's objects
        elif before is None and after is not None:
            before = after - delta
        if after is None and before is not None:
            after = before + delta
        coll = collected.get(key)
        ipcs = coll.total if coll else (state_after.ipcs.get(key) if state_after else None)
        delta_style = "green" if delta > 0 else "red" if delta < 0 else "dim"
        pl = plunder.get(key, 0)
        table.add_row(
            power_text(game, key),
            str(before) if before is not None else dash,
            Text(f"{delta:+d}", style=delta_style),
            str(after) if after is not None else dash,
            Text(f"{pl:+d}", style="green" if pl > 0 else "red") if pl else dash,
            (str(coll.income) + (f" ({INCOME_REASONS.get(coll.reason, coll.reason)})"
                                 if coll.reason else "")) if coll else dash,
            str(ipcs) if ipcs is not None else dash,
        )
    console.print(table)
    _event_lines(console, game, events, INCOME_KINDS)


def _missed_turn_text(ev: NoMovesReceived, events: list[Event]) -> str:
    """What a missed deadline meant for this turn file: a battle turn of a live board battle
    is played by the side's plan and collects nothing; a turn collects its income only if
    the turn's events say so."""
    by = f" by {ev.deadline}" if ev.deadline else ""
    if any(e.kind == "ts_live_battle_turn" for e in events):
        return f"No moves received{by}: the side's battle plan plays this battle turn."
    collected = any(isinstance(e, IncomeCollected) for e in events)
    return (f"No moves received{by}: no purchase, no moves; standing defence orders apply"
            + (" and income is collected." if collected else "."))


def _projected(game: Game, state: GameState | None, power: str) -> int | None:
    """``power``'s income as the engine projects it from ``state`` (None: no state)."""
    return None if state is None else game.projected_income(state.owners, power, state.extras)


def _politics(console: Console, game: Game, events: list[Event]) -> None:
    """Declarations of war, neutrals joining or raising their armies, a power entering the war."""
    if any(ev.kind in POLITICS_KINDS for ev in events):
        _section(console, "Politics")
        _event_lines(console, game, events, POLITICS_KINDS)


def _standing_orders(console: Console, game: Game, events: list[Event]) -> None:
    rows = [ev for ev in events if isinstance(ev, StandingOrdersChanged)]
    if not rows:
        return
    _section(console, "Standing orders")
    for ev in rows:
        text = Text("  ")
        text.append_text(power_text(game, ev.power))
        text.append(f" now has {ev.count} standing order{'s' if ev.count != 1 else ''}")
        console.print(text)


def _victory(console: Console, game: Game, events: list[Event]) -> None:
    for ev in events:
        if isinstance(ev, VictoryDeclared):
            text = Text(f"{ev.side} win", style=side_style(ev.side))
            text.append(" the game!", style="bold")
            if ev.territories:
                label = VICTORY_RULES.get(ev.rule, ev.rule.replace("_", " "))
                text.append(f"\n{label[0].upper()}{label[1:]}: {', '.join(ev.territories)}")
            console.print()
            console.print(Panel(text, title="Victory", title_align="left", box=box.DOUBLE,
                                border_style=side_style(ev.side).replace("bold ", "")))


# --------------------------------------------------------------------------- public API


def render_report(events: Iterable[Event], game: Game, console: Console,
                  state_before: GameState | None = None,
                  state_after: GameState | None = None) -> None:
    """Print the turn report for ``events`` to ``console``."""
    events = list(events)
    _header(console, game, events, state_before)
    _skipped(console, game, events)
    plan = game.ruleset.plan
    shown: set = set()
    pregame = state_before is not None and state_before.round == 0 and plan.pregame
    for step in (plan.pregame if pregame else plan.steps + plan.round_end) or STANDARD_STEPS:
        for section in REPORT_SECTIONS.get(step, ()):
            if section not in shown:
                shown.add(section)
                section(console, game, events, state_before, state_after)
    if _s_board_battles not in shown:            # an edition whose steps do not place them
        _s_board_battles(console, game, events, state_before, state_after)
    _politics(console, game, events)
    _standing_orders(console, game, events)
    _other_events(console, game, events, shown)
    _victory(console, game, events)


def _s_board_battles(console, game, events, before, after):
    """Each board battle replayed move by move (``report_board_battles``): after the step
    that fights them, or after the turn's steps."""
    if board_battles(events) or any(ev.kind in LIVE_BATTLE_KINDS for ev in events):
        from .report_board_battles import board_battle_panels   # the board's classes
        _section(console, "Board battles")
        _event_lines(console, game, events, LIVE_BATTLE_KINDS)
        board_battle_panels(console, game, events)


def _s_purchases(console, game, events, before, after):
    _purchases(console, game, events)


def _s_combat_moves(console, game, events, before, after):
    _moves(console, game, events, "combat", "Combat moves")


def _s_battles(console, game, events, before, after):
    _battles(console, game, events)
    _territory_changes(console, game, events)


def _s_noncombat_moves(console, game, events, before, after):
    _moves(console, game, events, "noncombat", "Noncombat moves")


def _s_main_turn(console, game, events, before, after):
    """Taktyczne Starcie's main turn: its moves and attacks in the order written, then the
    areas that changed hands (the board battles are replayed after it, ``_s_board_battles``)."""
    _moves(console, game, events, "main", "Moves and attacks (in the order written)")
    _territory_changes(console, game, events)


def _s_aircraft(console, game, events, before, after):
    _aircraft(console, game, events)


def _s_placements(console, game, events, before, after):
    _placements(console, game, events)


# The report's sections for each turn step an edition lists, in the order of its steps (a
# plug-in registers the sections of its own steps here; events no section shows are listed
# under "Other events" when ``wording.EVENT_TEXTS`` has their sentence).  The aircraft
# section goes with the noncombat move: landings end the flights.  A game without steps
# (a bare test game) shows the sections of the standard turn.
REPORT_SECTIONS: dict[str, tuple] = {
    "purchase": (_s_purchases,),
    "combat_move": (_s_combat_moves,),
    "conduct_combat": (_s_battles,),
    "noncombat_move": (_s_noncombat_moves, _s_aircraft),
    "mobilize": (_s_placements,),
    "land_aircraft": (_s_aircraft,),
    "collect_income": (_income,),
    "special_cash_purchase": (_s_purchases,),        # Europe's pre-game round
    "special_cash_placement": (_s_placements,),
}
from .taktyczne_report import SECTIONS as _TAKTYCZNE_SECTIONS  # noqa: E402
from .taktyczne_war_report import war_headlines, war_kinds, war_section  # noqa: E402
REPORT_SECTIONS.update(_TAKTYCZNE_SECTIONS)
# Taktyczne Starcie's main turn: its moves and attacks, then its board battles replayed.
# Then its war on the main map (issue 27: flights, strikes, guns, mines, nuclear weapons).
REPORT_SECTIONS["ts_main_turn"] = (_s_main_turn, war_section, _s_board_battles)
# The sections every report has whatever the steps (an order kind names the section that
# shows it: a step above or one of these; ``io/kinds``).
FIXED_SECTIONS = ("heading", "board battles", "politics", "standing orders", "other events", "victory")
STANDARD_STEPS = ("purchase", "combat_move", "conduct_combat", "noncombat_move", "mobilize",
                  "land_aircraft", "collect_income")


# The events with a sentence in ``wording.EVENT_TEXTS`` that a section shows, by the
# section that shows them (its heading printed for them alone if need be); "Other events"
# lists the rest.  ``ts_board_battle`` is the board battle's panel itself.
PURCHASE_KINDS = ("special_cash_offered", "special_cash_kept", "research_rolled", "technology_gained",
                  "economy_paid")
BATTLE_KINDS = ("scrambled", "rocket_fired", "paratroopers_dropped")
TERRITORY_KINDS = ("units_changed", "factory_removed", "liberation_units_placed", "ts_player_eliminated")
INCOME_KINDS = ("objective_met", "objective_missed", "economy_income", "convoy_disrupted",
                "middle_east_paid")
POLITICS_KINDS = ("war_declared", "at_war", "declaration_deferred", "neutral_army_raised",
                  "neutrals_turned", "factories_upgraded")
LIVE_BATTLE_KINDS = ("ts_live_battle_started", "ts_live_battle_turn")
SECTION_KINDS = {_s_purchases: PURCHASE_KINDS,
                 # a treasury raid in its raid's panel, a neutral joining in its capture's line
                 _s_battles: BATTLE_KINDS + TERRITORY_KINDS + ("treasury_raided",) + JOINING_KINDS,
                 _s_main_turn: TERRITORY_KINDS + JOINING_KINDS, _income: INCOME_KINDS,
                 _s_board_battles: LIVE_BATTLE_KINDS + ("ts_board_battle",)}


def _other_events(console: Console, game: Game, events: list[Event], sections=frozenset()) -> None:
    """Events with a sentence in ``wording.EVENT_TEXTS`` (an edition's plug-ins add theirs
    there) that none of the ``sections`` printed shows: one line each, in the order they
    happened."""
    shown = war_kinds(events) | set(POLITICS_KINDS) | set(SECTION_KINDS[_s_board_battles])
    for section in sections:
        shown.update(SECTION_KINDS.get(section, ()))
    rows = [ev for ev in events if ev.kind in EVENT_TEXTS and ev.kind not in shown]
    if not rows:
        return
    _section(console, "Other events")
    for ev in rows:
        console.print(Padding(Text(event_text(ev, game)), (0, 0, 0, 2)))


def _recording_console(width: int = REPORT_WIDTH) -> Console:
    return Console(record=True, width=width, file=io.StringIO(), force_terminal=True,
                   color_system="truecolor", legacy_windows=False, soft_wrap=False,
                   no_color=False)


def report_text(events: Iterable[Event], game: Game, state_before: GameState | None = None,
                state_after: GameState | None = None) -> str:
    """The report as plain text (no ANSI codes), 100 columns wide."""
    console = _recording_console()
    render_report(events, game, console, state_before, state_after)
    return console.export_text(styles=False)


def page_heading(events: list[Event], game: Game, state_before: GameState | None = None,
                 state_after: GameState | None = None) -> PageHeading:
    """The HTML page's title (game, turn, power), who moves next, and the turn in lines."""
    started = next((ev for ev in events if isinstance(ev, TurnStarted)), None)
    power = started.power if started else (state_before.power if state_before else None)
    rnd = started.round if started else (state_before.round if state_before else None)
    known = state_before or state_after
    game_id = known.game_id if known else ""
    turn = (state_before.turn_number if state_before else
            state_after.turn_number - 1 if state_after else None)
    title = ", ".join(part for part in (
        f"turn {turn}" if turn else "", power_name(game, power) if power else "") if part)
    title = f"{game_id}: {title}" if game_id and title else (title or game_id or "Turn report")
    subtitle = game.ruleset.title or game.game_id
    if rnd:
        subtitle += f", round {rnd}"
    over = state_after is not None and state_after.winner is not None
    if over:
        next_line = f"Game over: {state_after.winner} win."
    elif state_after is not None:
        next_line = (f"Next to move: {power_name(game, state_after.power)} "
                     f"(turn {state_after.turn_number}, round {state_after.round})")
    else:
        next_line = "Next to move: see the game directory (pbem status)"
    lines = ([event_text(ev, game) for ev in events if ev.kind in LIVE_BATTLE_KINDS]
             + battle_summaries(events, game) + war_headlines(events, game))
    joined = joined_territories(events)
    for ev in events:
        if isinstance(ev, Captured) and ev.territory in joined:
            lines.append(f"{power_name(game, ev.by)} is joined by {ev.territory} "
                         f"({power_name(game, ev.from_power)})")
        elif isinstance(ev, Captured):
            verb = "liberates" if ev.liberated else "captures"
            held = (f"from {power_name(game, ev.from_power)}" if ev.from_power
                    else "(held by no one)")
            lines.append(f"{power_name(game, ev.by)} {verb} {ev.territory} {held}")
    return PageHeading(title, subtitle, next_line, over, tuple(lines))


def report_html(events: Iterable[Event], game: Game, state_before: GameState | None = None,
                state_after: GameState | None = None) -> str:
    """The report as a standalone HTML page (``report_page``): title, who moves next, the
    board picture after the turn, the full report."""
    events = list(events)
    codes = []
    for width in (REPORT_WIDTH, PHONE_REPORT_WIDTH):     # a desktop's and a phone's
        console = _recording_console(width)
        render_report(events, game, console, state_before, state_after)
        codes.append(console.export_html(inline_styles=True, code_format="{code}"))
    figures = board_figure(events, game, state_after)
    if board_battles(events):
        from .report_board_battles import board_battle_figures   # the board's classes
        figures += board_battle_figures(events, game)
    return report_page(page_heading(events, game, state_before, state_after), codes[0],
                       figures, phone_code=codes[1])


def report_document(path: str | os.PathLike, events: Iterable[Event], game: Game,
                    state_before: GameState | None = None,
                    state_after: GameState | None = None) -> str:
    """The report in the format ``path``'s extension names: HTML for ``.html``/``.htm``,
    plain text for ``.txt``.  Raises ``ValueError`` for another extension."""
    suffix = Path(path).suffix.lower()
    if suffix in (".html", ".htm"):
        return report_html(events, game, state_before, state_after)
    if suffix == ".txt":
        return report_text(events, game, state_before, state_after)
    raise ValueError(f"cannot tell the report format from {Path(path).name!r}: use .txt or .html")
