"""The model's classes (and the files', ``io.turnfile``) made with ``repr=False`` print
as attrs would (``model/reprs.py``, issue 24): for one instance of each class met in the example games (their definitions,
states, orders and turn files' events), the report fixture's events and every order
kind's example, ``repr`` is what a twin class with attrs' own ``__repr__`` and the same
fields gives."""

from __future__ import annotations

import sys
from pathlib import Path

import attrs
import pytest

from adjudicator.io import layout, paths
from adjudicator.io.kinds import KINDS
from adjudicator.io.parser import parse_orders
from adjudicator.io import turnfile
from adjudicator.io.turnfile import decode_turn_file
from adjudicator.model import events, orders
from adjudicator.model.corrections import Correction, Edit
from adjudicator.model.reprs import attrs_repr
from adjudicator.service import gamedir
from adjudicator.service.games import load_game

sys.path.insert(0, str(Path(__file__).parent))
from test_order_kinds_complete import HEADINGS  # noqa: E402
from test_report import make_events  # noqa: E402

EXAMPLES = ("aa1941", "aa1942", "europe1999", "global1940")
EDITIONS = (*EXAMPLES, "taktyczne")


def _walk(value, found: dict, depth: int = 0) -> None:
    """One instance of each class made with ``attrs_repr`` inside ``value``."""
    if depth > 12:
        return
    if attrs.has(type(value)):
        cls = type(value)
        if cls.__repr__ is attrs_repr and cls not in found:
            found[cls] = value
        for a in attrs.fields(cls):
            _walk(getattr(value, a.name), found, depth + 1)
    elif isinstance(value, dict):
        for k, v in list(value.items())[:50]:
            _walk(k, found, depth + 1)
            _walk(v, found, depth + 1)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in list(value)[:50]:
            _walk(v, found, depth + 1)


def _attrs_own_repr(value) -> str:
    """``repr(value)`` by a twin of its class whose ``__repr__`` attrs generates."""
    cls = type(value)
    fields = attrs.fields(cls)
    twin = attrs.make_class(cls.__name__, {a.name: attrs.field(repr=a.repr, init=a.init)
                                           for a in fields}, frozen=True)
    twin.__qualname__ = cls.__qualname__
    made = twin(**{a.name: getattr(value, a.name) for a in fields if a.init})
    return repr(made)


@pytest.fixture(scope="module")
def instances() -> dict:
    found: dict = {}
    for ev in make_events():
        _walk(ev, found)
    for ev in (events.WarDeclared("germany", "ussr", "unprovoked"),   # none in the examples
               events.DeclarationDeferred("usa", "japan"),
               events.NeutralArmyRaised("Sweden", "sweden", {"infantry": 3}),
               events.NeutralsTurned("sweden", "allies", "germany"),
               events.MongoliaJoined("Buryatia", "ussr", {"infantry": 1}),
               events.NeutralJoined("Turkey", "uk", {"infantry": 8}), events.Event(),
               events.VictoryInSight("axis", "capitals", 5, ("Moscow",)),
               events.VictoryDenied("axis", "capitals", 2),
               Correction((Edit("ipcs", power="germany", amount=3),), "a typo")):
        _walk(ev, found)
    for edition in EDITIONS:
        game = load_game(edition)
        for kind in game.ruleset.plan.order_kinds:
            syntax = KINDS[kind]
            try:
                _walk(parse_orders(HEADINGS.get(syntax.section, "") + syntax.example, game),
                      found)
            except Exception:      # noqa: BLE001  (an example naming another map's places)
                continue
    for edition in EXAMPLES:
        game = load_game(edition)
        _walk(game, found)
        example = paths.ROOT / "turns" / f"{edition}-example"
        for text in sorted((example / "orders").glob("*.txt")):
            try:
                _walk(parse_orders(text.read_text(encoding="utf-8"), game), found)
            except Exception:      # noqa: BLE001  (an example's bad orders on purpose)
                continue
        directory = example / "game"
        _walk(gamedir.read_game(directory), found)
        for _, _, path in layout.list_turns(directory):
            _walk(decode_turn_file(path.read_bytes(), path), found)
    _walk(turnfile.KeeperRecord("sha256:00", None), found)     # no keepers in the examples
    # the files of schema 1, from today's (the examples have none): each field as today's
    # file of the same kind has it
    for old, new in ((turnfile.GameFileV1, turnfile.GameFile),
                     (turnfile.TurnFileV1, turnfile.TurnFile)):
        today = found[new]
        values = {a.name: getattr(today, a.name, "x") for a in attrs.fields(old)}
        _walk(old(**{**values, "events": ({"kind": "moved"},)} if "events" in values
                   else values), found)
    return found


def test_the_instances_cover_every_class_that_uses_it(instances):
    events.load_event_modules()
    orders.load_all()
    made = {v for name, module in list(sys.modules.items())
            if name.startswith("adjudicator.model.") or name == "adjudicator.io.turnfile"
            for v in vars(module).values()
            if isinstance(v, type) and attrs.has(v) and v.__module__ == name
            and v.__repr__ is attrs_repr}
    assert len(made) > 100
    assert made <= set(instances), sorted(c.__name__ for c in made - set(instances))


def test_each_prints_as_attrs_would(instances):
    for cls, value in instances.items():
        assert repr(value) == _attrs_own_repr(value), cls.__name__


def test_an_instance_met_again_inside_itself_prints_as_dots():
    @attrs.frozen(repr=False)
    class Box:
        __repr__ = attrs_repr
        items: list

    box = Box([])
    box.items.append(box)
    assert repr(box) == "Box(items=[...])"
