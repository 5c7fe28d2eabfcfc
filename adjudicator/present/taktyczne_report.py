"""The report's sections for Taktyczne Starcie's own turn steps: the pregame's draw
(``ts_draw_setup``), the units recruited at the start of a turn (``ts_recruit``) and the
objects built at its end (``ts_build``).  Registered in ``report.REPORT_SECTIONS``.  The
event classes are imported by the sections themselves: every report imports this module,
and a report of another edition makes no Taktyczne class (issue 24)."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from .report_heading import section
from .wording import economy_event_text, setup_event_text


def _lines(console: Console, title: str, lines: list[str]) -> None:
    if not lines:
        return
    section(console, title)
    for line in lines:
        console.print(Text("  " + line))


def setup_section(console, game, events, before, after) -> None:
    from ..model.taktyczne import SetupEvent
    _lines(console, "The draw (L19.1-L19.14)",
           [setup_event_text(ev, game) for ev in events if isinstance(ev, SetupEvent)])


def recruit_section(console, game, events, before, after) -> None:
    from ..model.taktyczne import UnitsRecruited
    _lines(console, "Units recruited",
           [economy_event_text(ev, game) for ev in events if isinstance(ev, UnitsRecruited)])


def build_section(console, game, events, before, after) -> None:
    from ..model.taktyczne import ObjectBuilt
    _lines(console, "Objects built",
           [economy_event_text(ev, game) for ev in events if isinstance(ev, ObjectBuilt)])


SECTIONS = {"ts_draw_setup": (setup_section,), "ts_recruit": (recruit_section,),
            "ts_build": (build_section,)}
