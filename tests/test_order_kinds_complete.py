"""Every registered order kind is complete (``adjudicator/io/kinds``): its grammar has the
rule, its example parses, is written back and parses to the same order of its model class;
the engine functions it names exist and raise the problem codes it names; every code has
its wording; the report has the section it names.  And every order class of the model is
some kind's."""

from __future__ import annotations

import importlib
import inspect
import re

import pytest
from lark import Lark

from adjudicator.io import kinds as kinds_package
from adjudicator.io.kinds import ISSUERS, KINDS, PHASE, OrderSyntax
from adjudicator.io.parser import ALL_KINDS, format_orders, grammar_text, parse_orders, strip_positions
from adjudicator.model import orders
from adjudicator.model.orders import Order, StandingChoice
from adjudicator.present.report import FIXED_SECTIONS, REPORT_SECTIONS
from adjudicator.present.wording import PROBLEMS
from adjudicator.service.games import load_game

from test_tidewar_edition import tidewar  # noqa: F401  (fixture)

PACKAGE_KINDS = tuple(KINDS)         # before any test edition's plug-in adds its own
EDITIONS = ("aa1941", "aa1942", "europe1999", "global1940", "taktyczne")
HEADINGS = {"combat": "combat:\n", "noncombat": "noncombat:\n", PHASE: "combat:\n"}


def resolve(name: str):
    """An engine function, class or module by its name under ``adjudicator.engine`` (a
    plug-in's by its full module path)."""
    for prefix in ("adjudicator.engine.", ""):
        parts = (prefix + name).split(".")
        for cut in range(len(parts), 0, -1):
            try:
                found = importlib.import_module(".".join(parts[:cut]))
                for attr in parts[cut:]:
                    found = getattr(found, attr)
            except (ImportError, AttributeError):
                continue
            return found
    raise LookupError(name)


def raises(code: str, source: str, kind: str) -> bool:
    """Whether ``source`` can raise ``code``: written whole, or put together from the kind's
    name or a quoted stem and a quoted suffix ("nmr" + "_with_orders", "overbuying" +
    "_refunded")."""
    if f'"{code}"' in source:
        return True
    for cut in (m.start() for m in re.finditer("_", code)):
        head, tail = code[:cut], code[cut:]
        if (head == kind or f'"{head}"' in source) and (f'{tail}"' in source):
            return True
    return False


def check_complete(syntax: OrderSyntax, games) -> None:
    name = syntax.kind
    # the grammar: a rule of the kind's name, and the whole grammar builds with it
    assert re.search(rf"^{name}\s*:", syntax.fragment(), re.M), f"{name}: no grammar rule '{name}:'"
    Lark(grammar_text((name,)), parser="lalr", start="start")
    # the model class, the issuer, the phase
    assert syntax.model is not None and issubclass(syntax.model, Order), name
    assert syntax.model.kind == name, f"{name}: its model class is of kind {syntax.model.kind}"
    assert syntax.issuer in ISSUERS, name
    assert syntax.section in ("purchase", "combat", "noncombat", "place", "standing", PHASE), name
    # the example: read, written, read again
    text = HEADINGS.get(syntax.section, "") + syntax.example
    tried = []
    for game in games:
        if game.ruleset.plan.order_kinds and name not in game.ruleset.plan.order_kinds:
            continue
        try:
            orders = parse_orders(text, game)
        except Exception as exc:               # a name of another edition's map
            tried.append(f"{game.edition}: {exc}")
            continue
        assert [type(o) for o in orders.items] == [syntax.model], f"{name}: {orders.items}"
        written = format_orders(orders, game)
        assert strip_positions(parse_orders(written, game)) == strip_positions(orders), written
        break
    else:
        pytest.fail(f"{name}: its example reads in no edition listing it: {tried}")
    # what the layers above do with it
    assert syntax.engine, f"{name}: names no engine function"
    sources = "".join(inspect.getsource(inspect.getmodule(resolve(e))) for e in syntax.engine)
    for code in syntax.problems:
        assert code in PROBLEMS, f"{name}: problem '{code}' has no wording"
        assert raises(code, sources, name), f"{name}: '{code}' is raised by none of {syntax.engine}"
    assert syntax.report in REPORT_SECTIONS or syntax.report in FIXED_SECTIONS, \
        f"{name}: no report section '{syntax.report}'"


@pytest.fixture(scope="module")
def games():
    return [load_game(e) for e in EDITIONS]


@pytest.mark.parametrize("name", PACKAGE_KINDS)
def test_every_kind_of_the_package_is_complete(name, games):
    check_complete(KINDS[name], games)


def test_a_plug_in_kind_is_complete_the_same_way(tidewar):  # noqa: F811
    game = load_game("tidewar")
    check_complete(KINDS["toll"], [game])


def test_every_order_class_of_the_model_is_a_registered_kind():
    orders.load_all()            # every module of order classes that ``model.orders`` names
    found, stack = set(), list(Order.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if (cls.__module__.removeprefix("adjudicator.model.") in orders.MODULES
                and cls is not StandingChoice):
            found.add(cls.kind)
    assert found <= set(PACKAGE_KINDS)


def test_the_package_kinds_are_its_grammar_files_and_its_own_fragments():
    """Each kind with a file in grammar/kinds/ is one of the parser's fixed kinds; the others
    carry their fragment, and every module of io/kinds registers one kind."""
    files = {p.stem for p in kinds_package.KIND_GRAMMARS.glob("*.lark")}
    assert files == set(ALL_KINDS)
    assert {k for k in PACKAGE_KINDS if KINDS[k].grammar} == set(PACKAGE_KINDS) - files
    modules = {p.stem for p in (kinds_package.KIND_GRAMMARS.parents[1] / "adjudicator" / "io"
                                / "kinds").glob("*.py")} - {"__init__", "base"}
    assert modules == set(PACKAGE_KINDS)


def test_a_kind_with_an_unknown_issuer_is_refused():
    with pytest.raises(ValueError, match="unknown issuer"):
        kinds_package.kind("x", [], [], "", (), "standing", issuer="someone")
