"""Taktyczne Starcie's nuclear weapons and aircraft bases on the main-map picture
(issue 27): silos and launchers armed or not, the aircraft aboard carriers and based at
airfields, and the areas a nuclear blast reached this turn.

* An **armed** silo holds a nuclear missile, an armed launcher an anti-missile (G26): the
  state ``ts_armed`` counts them per area (``engine/taktyczne/nuclear.py``).  The picture
  draws a silo or launcher as an armed or an unarmed chip (``data-armed``).  A bomber
  carrying an atomic bomb has the unit flag ``ts_atomic_armed``: its chip counts them
  (``data-atomic``).
* A **blast** (the ``ts_nuclear_blast`` event, ``model.ts_nuclear``) is a list of areas
  around a centre: each area reached is hatched and outlined, and a marker beside the
  centre's label names the cause.  ``blasts(events)`` reads the events; the drawing takes
  the list (``Blast``), so any cause of a blast draws the same way.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from html import escape

import attrs

from .board_objects import MapObject

# The state and flag the picture reads (engine/taktyczne/nuclear.py declares them;
# tests/test_taktyczne_war_picture.py checks the names agree).
ARMED_STATE, ATOMIC_FLAG = "ts_armed", "ts_atomic_armed"
ARMED_KINDS = ("silo", "launcher")            # objects that hold a weapon (L19.69)
BLAST_EVENT = "ts_nuclear_blast"
BLAST_RED, BLAST_FILL = "#B00020", "#F0E442"
CAUSE_TEXT = {"missile": "a nuclear missile", "silo": "an armed silo hit", "atomic_drop": "an atomic bomb",
              "atomic_shot_down": "a bomber shot down with an atomic bomb"}
MAX_BLASTS = 50                  # a turn's blasts drawn at most (a broken file stays drawable)


@attrs.frozen
class Blast:
    """A nuclear explosion over ``centre`` reaching ``areas`` (the centre included), by
    ``by``'s ``cause``."""

    centre: str
    areas: tuple[str, ...]
    cause: str = ""
    by: str = ""


def blasts(events: Iterable) -> list[Blast]:
    """The blasts of a turn, in the order they happened."""
    found = []
    for ev in events:
        if getattr(ev, "kind", "") == BLAST_EVENT and len(found) < MAX_BLASTS:
            areas = tuple(getattr(ev, "areas", ()) or (ev.centre,))
            found.append(Blast(ev.centre, areas, getattr(ev, "cause", ""), getattr(ev, "by", "")))
    return found


def armed_counts(extras: dict | None, area: str, objects: dict[str, int]) -> dict[str, int]:
    """Object kind -> how many of the ``objects`` of that kind in ``area`` are armed (the
    state ``ts_armed``, at most one weapon per object)."""
    found = (extras or {}).get(ARMED_STATE)
    here = found.get(area) if isinstance(found, dict) else None
    here = here if isinstance(here, dict) else {}
    return {kind: max(0, min(here.get(kind, 0) if isinstance(here.get(kind), int) else 0, objects.get(kind, 0)))
            for kind in ARMED_KINDS if objects.get(kind)}


def split_armed(objects: Sequence[MapObject], armed: dict[str, int]) -> list[MapObject]:
    """The objects with each silo or launcher kind cut into its armed and unarmed ones
    (``armed``: kind -> how many are armed, ``armed_counts``)."""
    out = []
    for obj in objects:
        if obj.kind not in ARMED_KINDS:
            out.append(obj)
            continue
        n = min(armed.get(obj.kind, 0), obj.count)
        out += [attrs.evolve(obj, count=c, armed=flag) for c, flag in ((n, True), (obj.count - n, False)) if c]
    return out


def aboard(units: Iterable, carries: set[str]) -> Counter:
    """(owner, type) -> the aircraft aboard carriers (cargo of a unit type in ``carries``)."""
    found: Counter = Counter()
    for unit in units:
        if unit.type in carries:
            for u in unit.cargo:
                found[(u.owner, u.type)] += 1
    return found


def atomic(units: Iterable) -> Counter:
    """(owner, type) -> the bombers carrying an atomic bomb (flag ``ts_atomic_armed``)."""
    return Counter((u.owner, u.type) for unit in units for u in (unit, *unit.cargo) if ATOMIC_FLAG in u.flags)


def atomic_mark(x: float, y: float, s: float = 1.0) -> str:
    """A small radiation sign at a bomber's chip: it carries an atomic bomb."""
    return f'<g class="atomic-mark">{trefoil(x + 11 * s, y + 2 * s, 3.2 * s)}</g>'


def missile_mark(armed: bool) -> str:
    """Drawn over a silo's or launcher's symbol at (0, 0): a red missile standing in it
    when armed, an empty shaft when not."""
    if armed:
        return (f'<path class="armed-mark" d="M7 1.4L8.6 3.4V8.2H5.4V3.4Z" fill="{BLAST_RED}" '
                f'stroke="#FFFFFF" stroke-width="0.7"/>')
    return ('<path class="unarmed-mark" d="M5.4 8.2V3.4H8.6V8.2" fill="#FFFFFF" stroke="#1E1E1E" '
            'stroke-width="0.8"/>')


def blast_title(blast: Blast, name_of) -> str:
    """``nuclear blast over 24 (a nuclear missile of Blue)``."""
    cause = CAUSE_TEXT.get(blast.cause, blast.cause.replace("_", " "))
    who = f" of {name_of(blast.by)}" if blast.by and cause else ""
    return f"nuclear blast over {blast.centre}" + (f" ({cause}{who})" if cause else "")


def blast_overlay(found: Sequence[Blast], paths: dict[str, str], name_of) -> str:
    """Every area a blast reached: hatched in yellow and red, outlined in red (``paths``:
    area -> its outline; ``name_of``: a power's name)."""
    if not found:
        return ""
    out = ['<g class="blasts">']
    for k, blast in enumerate(found):
        for area in blast.areas:
            if area not in paths:
                continue
            role = "centre" if area == blast.centre else "reached"
            title = blast_title(blast, name_of) + ("" if area == blast.centre else f": reaches {area}")
            out.append(f'<g class="blast-area {role}" data-space="{escape(area)}" '
                       f'data-centre="{escape(blast.centre)}" data-blast="{k}"><title>{escape(title)}</title>'
                       f'<path d="{paths[area]}" fill="url(#pbem-blast)" stroke="#FFFFFF" stroke-width="4"/>'
                       f'<path d="{paths[area]}" fill="none" stroke="{BLAST_RED}" '
                       f'stroke-width="{2.6 if role == "centre" else 1.6}"/></g>')
    out.append("</g>")
    return "\n".join(out)


BLAST_PATTERN = ('<pattern id="pbem-blast" width="8" height="8" patternUnits="userSpaceOnUse" '
                 'patternTransform="rotate(-45)">'
                 f'<rect width="8" height="8" fill="{BLAST_FILL}" fill-opacity="0.45"/>'
                 f'<line x1="0" y1="0" x2="0" y2="8" stroke="{BLAST_RED}" stroke-width="2.4" '
                 'stroke-opacity="0.55"/></pattern>')


def trefoil(cx: float, cy: float, r: float = 8.5) -> str:
    """The radiation sign: a yellow disc with three dark blades and a hub."""
    blades = []
    for k in range(3):
        a0 = math.radians(-90 + 120 * k - 30)
        a1 = math.radians(-90 + 120 * k + 30)
        r0, r1 = r * 0.28, r * 0.85
        blades.append(f"M{cx + r0 * math.cos(a0):.1f},{cy + r0 * math.sin(a0):.1f}"
                      f"L{cx + r1 * math.cos(a0):.1f},{cy + r1 * math.sin(a0):.1f}"
                      f"A{r1:g},{r1:g} 0 0 1 {cx + r1 * math.cos(a1):.1f},{cy + r1 * math.sin(a1):.1f}"
                      f"L{cx + r0 * math.cos(a1):.1f},{cy + r0 * math.sin(a1):.1f}Z")
    return (f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:g}" fill="{BLAST_FILL}" stroke="{BLAST_RED}" '
            f'stroke-width="1.6"/><path d="{"".join(blades)}" fill="#1E1E1E"/>'
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 0.18:.1f}" fill="#1E1E1E"/>')


def blast_marker(blast: Blast, cx: float, cy: float, name_of) -> str:
    """The sign beside the centre's label, titled with the cause and the areas reached."""
    title = blast_title(blast, name_of) + ": reaches " + ", ".join(blast.areas)
    return (f'<g class="blast" data-space="{escape(blast.centre)}" data-areas="{escape(" ".join(blast.areas))}" '
            f'data-cause="{escape(blast.cause)}"><title>{escape(title)}</title>{trefoil(cx, cy)}</g>')


def blast_marker_sample() -> str:
    """The sign for the legend, at (30, 0)."""
    return f'<g class="blast-sample">{trefoil(30, 0, 7)}</g>'
