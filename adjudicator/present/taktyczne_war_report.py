"""The report's section for Taktyczne Starcie's war on the main map (issue 27): flights and
the fire at them, air strikes battle turn by battle turn, long-range gun shots, mines,
launches, interceptions and blasts, each in a sentence of ``wording.EVENT_TEXTS``.

An event belongs to the subsystem whose model module defines it (``model/ts_air.py``,
``ts_strike.py``, ``ts_guns.py``, ``ts_mines.py``, ``ts_nuclear.py``, ``ts_objects.py``:
contract 5 of issue 27), so an event a branch adds there is shown without a change here.
A **reaction** (an event in another player's turn, fired by a standing order) carries
``power`` and ``standing``: its line is followed by why it fired, the standing order's
canonical text or the default it fell back to.  An event with a ``battle_turn`` is shown
under the heading of its battle turn (an air strike's four, L23.63-L23.64).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.padding import Padding
from rich.text import Text

from ..model.events import Event
from ..model.game import Game
from .report_heading import section
from .wording import EVENT_CHOICES, event_text, power_name, standing_text, war_battle_turn_text

# The model modules of issue 27's subsystems, in the order the section shows them.
WAR_MODULES = {"ts_air": "Flights, overflight fire and evacuations",
               "ts_strike": "Air strikes",
               "ts_guns": "Long-range guns",
               "ts_mines": "Mines",
               "ts_nuclear": "Nuclear weapons",
               "ts_objects": "Objects destroyed"}
MODEL_PACKAGE = "adjudicator.model."
REACTION_STYLE = "bold magenta"
VOLLEY = "ts_strike_volley"                     # an air strike's shots in one battle turn


def war_group(event: Event) -> str | None:
    """The subsystem (a key of ``WAR_MODULES``) whose model module defines ``event``."""
    module = type(event).__module__
    if not module.startswith(MODEL_PACKAGE):
        return None
    name = module[len(MODEL_PACKAGE):]
    return name if name in WAR_MODULES else None


def war_events(events: Iterable[Event]) -> list[Event]:
    return [ev for ev in events if war_group(ev) is not None]


def is_reaction(event: Event) -> bool:
    """An event of a reaction (contract 5): it names who reacted and the standing order
    (or the default) that made it act."""
    standing = getattr(event, "standing", None)
    return isinstance(standing, str) and bool(standing) and bool(getattr(event, "power", None))


def battle_turn(event: Event) -> int | None:
    """The battle turn of an air strike's event (``turn`` of a ``ts_strike`` volley, or a
    ``battle_turn``), None for others."""
    found = getattr(event, "battle_turn", None)
    if found is None and war_group(event) == "ts_strike" and getattr(event, "kind", "") == VOLLEY:
        found = getattr(event, "turn", None)
    return found if isinstance(found, int) else None


def war_lines(game: Game | None, events: Iterable[Event]) -> list[tuple[str, str, int, str]]:
    """(group title, style, indent, line) for each line of the section, in the order
    things happened within each group: a battle turn's heading before its events, a
    reaction's "why" after its sentence."""
    found = war_events(events)
    out: list[tuple[str, str, int, str]] = []
    for group, title in WAR_MODULES.items():
        turn = None
        for ev in found:
            if war_group(ev) != group:
                continue
            number = battle_turn(ev)
            if number is not None and number != turn:
                turn = number
                out.append((title, "bold", 2, war_battle_turn_text(number, getattr(ev, "area", ""))))
            elif number is None:
                turn = None                     # the strike's end, the next strike
            indent = 4 if turn is not None else 2
            out.append((title, "", indent, event_text(ev, game)))
            if is_reaction(ev):
                out.append((title, REACTION_STYLE, indent + 2, "why: " + standing_text(
                    power_name(game, ev.power), ev.standing, EVENT_CHOICES.get(ev.kind, ""))))
    return out


def war_section(console: Console, game: Game, events, before, after) -> None:
    """The section, one heading per subsystem with events this turn."""
    current = None
    for title, style, indent, line in war_lines(game, events):
        if title != current:
            section(console, title)
            current = title
        console.print(Padding(Text(line, style=style), (0, 0, 0, indent)))   # wrapped lines keep it


# The war's events that make the page's few lines on the turn (``report.page_heading``).
HEADLINE_KINDS = ("ts_strike_ended", "ts_missile_intercepted", "ts_nuclear_blast", "ts_mines_fired",
                  "ts_lrg_reaction_fired", "ts_mine_reveal_wanted")


def war_headlines(events: Iterable[Event], game: Game | None) -> list[str]:
    """The war's lines for the HTML page's summary of the turn: strikes, blasts,
    interceptions, mines that went off, reaction shots, a battle waiting for a mine layout."""
    return [event_text(ev, game) for ev in events if getattr(ev, "kind", "") in HEADLINE_KINDS]


def war_kinds(events: Iterable[Event]) -> set[str]:
    """The kinds this section shows (the report's "Other events" leaves them out)."""
    return {ev.kind for ev in war_events(events)}
