"""The board as rich tables: each power's territories and units, then the sea zones.

``render_board(game, state, console, power=None)`` prints an overview (IPCs, income,
territory and unit counts per power, in turn order), one table per power listing the
territories it controls with the units in them, and a table of occupied sea zones.
Neutral territories are omitted.  With ``power`` given, only that power's table and the
sea zones holding its units are shown (after the overview).
"""

from __future__ import annotations

import re
from collections import Counter

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..model.game import Game
from .board_objects import drawn_capitals, map_objects
from .report import power_adjective, power_colour, power_name, power_style, power_text, unit_name
from .wording import currency, economy_name
from ..model.state import GameState, Unit


def _natural_key(name: str) -> list:
    """Sort "Sea Zone 2" before "Sea Zone 10"."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name)]


def _unit_order(game: Game, key: str) -> tuple[int, str]:
    keys = list(game.ruleset.units)
    return (keys.index(key) if key in keys else len(keys), key)


def territory_income(game: Game, state: GameState, power: str) -> int:
    """What ``power`` would collect now (the engine's projection of the edition's income
    items, ``Game.projected_income``)."""
    return game.projected_income(state.owners, power, state.extras)


def _cargo_label(game: Game, unit: Unit) -> str:
    """``Transport (Infantry, Tank)``, ``Aircraft Carrier (2 Fighters)``; cargo of another
    power gets its adjective."""
    counts: Counter = Counter((c.owner, c.type) for c in unit.cargo)
    parts = []
    for owner, t in sorted(counts, key=lambda k: (k[0] != unit.owner, _unit_order(game, k[1]))):
        n = counts[(owner, t)]
        name = unit_name(game, t, n)
        if owner != unit.owner:
            name = f"{power_adjective(game, owner)} {name}"
        parts.append(name if n == 1 else f"{n} {name}")
    return f"{unit_name(game, unit.type)} ({', '.join(parts)})"


def format_stack(game: Game, units: tuple[Unit, ...] | list[Unit]) -> str:
    """One owner's units: ``3 Infantry, 1 Tank, 2× Transport (Infantry, Tank)`` (each of
    the two transports carries an infantry and a tank)."""
    plain: Counter = Counter()
    loaded: Counter = Counter()
    for u in units:
        if u.cargo:
            loaded[(u.type, _cargo_label(game, u))] += 1
        else:
            plain[(u.type, u.damage)] += 1
    parts = []
    types = sorted({t for t, _ in plain} | {t for t, _ in loaded}, key=lambda t: _unit_order(game, t))
    for t in types:
        for (pt, damage), n in sorted(plain.items()):
            if pt == t:
                hurt = f" ({damage} damage)" if damage else ""
                parts.append(f"{n} {unit_name(game, t, n)}{hurt}")
        for (lt, label), n in sorted(loaded.items()):
            if lt == t:
                parts.append(f"1 {label}" if n == 1 else f"{n}× {label}")
    return ", ".join(parts)


def units_text(game: Game, units: tuple[Unit, ...], home: str | None = None) -> Text:
    """Units in one space, grouped by owner; the ``home`` power's units come first without
    an owner label, other powers' units are labelled with the power's name."""
    if not units:
        return Text("—", style="dim")
    owners: list[str] = []
    for u in units:
        if u.owner not in owners:
            owners.append(u.owner)
    order = list(game.ruleset.turn_order)
    owners.sort(key=lambda o: (o != home, order.index(o) if o in order else len(order), o))
    text = Text()
    for i, owner in enumerate(owners):
        if i:
            text.append("; ")
        stack = format_stack(game, [u for u in units if u.owner == owner])
        if owner != home:
            text.append(f"{power_name(game, owner)}: ", style=power_style(game, owner))
        text.append(stack)
    return text


def _marks(game: Game, key: str, state: GameState | None = None) -> str:
    """A territory's marks: capital (in the map data, or drawn in the game: "capital of
    Blue" when another's), victory city, and the objects the state keeps there
    (present/board_objects.py: "factory", "2 factories", "shipyard over S05")."""
    terr = game.map.territories.get(key)
    if terr is None:
        return ""
    marks = []
    extras = state.extras if state is not None else None
    drawn = drawn_capitals(extras).get(key)
    if terr.capital_of:
        marks.append("capital")
    elif drawn:
        holder = state.owners.get(key) if state is not None else None
        marks.append("capital" if drawn == holder else f"capital of {power_name(game, drawn)}")
    if terr.victory_city:
        marks.append(f"victory city {terr.victory_city}")
    for obj in map_objects(extras, key):
        what = obj.kind.replace("_", " ")
        if obj.count > 1:
            what = f"{obj.count} {'factories' if obj.kind == 'factory' else what + 's'}"
        marks.append(f"{what} over {obj.sea}" if obj.sea else what)
    return ", ".join(marks)


def _powers_in_order(game: Game, state: GameState) -> list[str]:
    order = list(game.ruleset.turn_order)
    order += [k for k in game.ruleset.powers if k not in order]
    economies = {e.key for p in game.ruleset.powers.values() for e in p.economies}
    extra = sorted({o for o in state.owners.values() if o and o not in order}
                   | {k for k in state.ipcs if k not in order and k not in economies})
    return order + extra


def treasury_text(game: Game, state: GameState, key: str) -> str:
    """A power's IPCs: its main economy's, then its other economies' by name ("34 (UK
    Pacific 18)")."""
    power = game.ruleset.powers.get(key)
    others = power.economies[1:] if power else ()
    text = str(state.ipcs.get(key, 0))
    if others:
        text += " (" + ", ".join(f"{economy_name(game, e.key)} {state.ipcs.get(e.key, 0)}"
                                 for e in others) + ")"
    return text


def _overview(game: Game, state: GameState) -> Table:
    title = f"{game.ruleset.title or game.game_id} — round {state.round}"
    if state.power:
        title += f", {power_name(game, state.power)} to play"
    table = Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD)
    sides = _has_sides(game)
    table.add_column("Power")
    if sides:
        table.add_column("Side")
    table.add_column(_money(game), justify="right")
    table.add_column("Income", justify="right")
    table.add_column("Territories", justify="right")
    table.add_column("Units", justify="right")
    counts = state.unit_counts(include_cargo=True)
    for key in _powers_in_order(game, state):
        power = game.ruleset.powers.get(key)
        name = power_text(game, key)
        if key == state.power:
            name = Text("▶ ").append_text(name)
        territories = sum(1 for o in state.owners.values() if o == key)
        units = sum(n for (owner, _), n in counts.items() if owner == key)
        side = [power.side if power else ""] if sides else []
        table.add_row(name, *side, treasury_text(game, state, key),
                      str(territory_income(game, state, key)), str(territories), str(units))
    return table


def _has_sides(game: Game) -> bool:
    """Whether powers play in sides (Axis and Allies), not each for himself (Taktyczne)."""
    return any(p.side and p.side != key for key, p in game.ruleset.powers.items())


def _money(game: Game) -> str:
    word = currency(game)
    return word[0].upper() + word[1:]


def _power_table(game: Game, state: GameState, key: str) -> Table | None:
    territories = [t for t, o in state.owners.items() if o == key]
    if not territories:
        return None
    drawn = drawn_capitals(state.extras)

    def sort_key(t: str):
        terr = game.map.territories.get(t)
        capital = (terr and terr.capital_of == key) or drawn.get(t) == key
        return (not capital, _natural_key(t))

    title = power_text(game, key)
    title.append(f" — {treasury_text(game, state, key)} {currency(game)}, income "
                 f"{territory_income(game, state, key)}", style="bold")
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  border_style=power_colour(game, key))
    valued = any(t.ipc for t in game.map.land())         # Taktyczne's areas have no IPC value
    table.add_column("Territory", no_wrap=True)
    if valued:
        table.add_column("IPC", justify="right")
    table.add_column("", style="dim", no_wrap=True)
    table.add_column("Units", overflow="fold")
    for t in sorted(territories, key=sort_key):
        terr = game.map.territories.get(t)
        value = [str(terr.ipc) if terr else "?"] if valued else []
        table.add_row(t, *value, _marks(game, t, state),
                      units_text(game, state.units_at(t), home=key))
    return table


def _sea_table(game: Game, state: GameState, power: str | None) -> Table | None:
    zones = []
    for key, units in state.units.items():
        terr = game.map.territories.get(key)
        if not units or terr is None or not terr.is_sea:
            continue
        if power is not None and not any(u.owner == power or any(c.owner == power for c in u.cargo)
                                         for u in units):
            continue
        zones.append(key)
    return _spaces_table(game, state, "Sea zones", "Sea zone", zones)


def _stray_units(game: Game, state: GameState) -> Table | None:
    """Units in land spaces nobody controls (should not happen) or unknown spaces."""
    rows = []
    for key, units in state.units.items():
        terr = game.map.territories.get(key)
        if units and (terr is None or (terr.is_land and state.owners.get(key) is None)):
            rows.append(key)
    return _spaces_table(game, state, "Other spaces", "Space", rows)


def _spaces_table(game: Game, state: GameState, title: str, header: str,
                  spaces: list[str]) -> Table | None:
    """A table of ``spaces`` (natural order: 2 before 10) and their units; None if empty."""
    if not spaces:
        return None
    table = Table(title=title, title_justify="left", title_style="bold",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(header, no_wrap=True)
    table.add_column("Units", overflow="fold")
    for key in sorted(spaces, key=_natural_key):
        table.add_row(key, units_text(game, state.units_at(key)))
    return table


def render_board(game: Game, state: GameState, console: Console, power: str | None = None) -> None:
    """Print the board: overview, one table per power (turn order), then sea zones."""
    console.print(_overview(game, state))
    powers = [power] if power is not None else _powers_in_order(game, state)
    for key in powers:
        table = _power_table(game, state, key)
        if table is not None:
            console.print(table)
    sea = _sea_table(game, state, power)
    if sea is not None:
        console.print(sea)
    if power is None:
        stray = _stray_units(game, state)
        if stray is not None:
            console.print(stray)
    standing = _standing_orders_table(game, state, power)
    if standing is not None:
        console.print(standing)


def _standing_orders_table(game: Game, state: GameState, power: str | None) -> Table | None:
    """Each power's standing defence orders (they apply until replaced)."""
    rows = []
    for key in _powers_in_order(game, state):
        orders = state.standing_orders.get(key)
        if orders is None or (power is not None and key != power):
            continue
        for d in orders.defences:
            losses = ", ".join(game.ruleset.units[u].name if u in game.ruleset.units else u
                               for u in d.loss_order) or "default"
            submerge = d.submerge.value if d.submerge is not None else "default"
            rows.append((power_name(game, key), d.space or "all spaces", losses, submerge))
    if not rows:
        return None
    table = Table(title="Standing defence orders", title_justify="left", title_style="bold",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    for col in ("Power", "Where", "Loss order", "Submarines"):
        table.add_column(col, overflow="fold")
    for row in rows:
        table.add_row(*row)
    return table
