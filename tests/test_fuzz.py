"""Property-based fuzzing (issue 8) of the orders grammar, the orders checker and the file
loaders: whatever the input, never an internal error (only a ``PbemError`` with a
message), never a change to the game directory when a command fails, and a bounded time
per input (hypothesis ``deadline``).  Fixed budget (``max_examples``, derandomized) so it
runs in CI in well under a minute."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.cli import main
from adjudicator.engine.turn import check
from adjudicator.io import keys, sshsig, turnfile
from adjudicator.io.codec import canonical_json
from adjudicator.io.parser import format_orders, parse_orders, parse_orders_partial, strip_positions
from adjudicator.model.errors import OrdersSyntaxError, PbemError
from conftest import PUBLISHED_GAME, snapshot
from helpers import game_1941, start_state

FUZZ = settings(max_examples=300, deadline=2000, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])
SLOW_FUZZ = settings(max_examples=15, deadline=20000, derandomize=True, database=None,
                     suppress_health_check=[HealthCheck.too_slow,
                                            HealthCheck.function_scoped_fixture])

WORDS = ["move", "load", "unload", "buy", "place", "battle", "defend", "power", "combat",
         "noncombat", "purchase", "retreat", "to", "if", "or", "after", "round", "attackers",
         "defenders", "tuv", "losses", "subs", "fire", "submerge", "never", "always", "losing",
         "all", "empty", "a", "an", "inf", "tank", "ftr", "bmr", "sub", "trn", "dd", "cv",
         "bb", "Karelia", "West Russia", "Russia", "Archangel", "Germany", "SZ 4", "sz5",
         "Ukraine", "Caucasus", "USSR", "game:", "turn:", "Anglo-Egypt Sudan"]
PUNCT = ["->", "-", ",", ":", ";", "(", ")", "#", "<", ">=", "=", "==", "*", "→", "=>", "≤"]
SEPARATORS = ["\n", "\n", "\n", "\r\n", "\n\n", "\r", "\x0b", "\x0c", "\x85", "\u2028"]

tokens = st.one_of(st.sampled_from(WORDS), st.sampled_from(PUNCT),
                   st.integers(0, 10**6).map(str), st.text(max_size=6))
lines = st.lists(tokens, max_size=10).map(" ".join)
orders_texts = st.tuples(
    st.sampled_from(["", "power: USSR\n", "power: USSR\ncombat:\n", "noncombat:\n"]),
    st.lists(st.tuples(lines, st.sampled_from(SEPARATORS)), max_size=25),
).map(lambda t: t[0] + "".join(a + b for a, b in t[1]))


@FUZZ
@given(orders_texts)
def test_orders_grammar_and_checker_never_fail_internally(text):
    game, state = game_1941(), start_state()
    try:
        orders, errors = parse_orders_partial(text, game, power=state.power)
    except OrdersSyntaxError as exc:            # a whole-file limit
        assert str(exc)
        return
    for error in errors:
        assert isinstance(error, OrdersSyntaxError) and str(error)
    try:
        problems = check(game, state, orders)
    except PbemError as exc:
        assert str(exc)
        return
    assert all(p.code for p in problems)
    if not errors:
        # the canonical text (what the dice are bound to) is a fixed point
        canonical = format_orders(orders, game)
        again = parse_orders(canonical, game, power=state.power)
        assert strip_positions(again) == strip_positions(orders)
        assert format_orders(again, game) == canonical


# --------------------------------------------------------------------------- file loaders

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.text(max_size=12),
              st.sampled_from(["sha256:" + "0" * 64, "ussr", "infantry", "Germany"])),
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.text(max_size=8), children, max_size=4)),
    max_leaves=12)


def _paths(doc, prefix=()):
    """Every path into a JSON document (dict keys and list indexes)."""
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, prefix + (i,))


@st.composite
def mutated(draw, path: Path):
    """A published file's JSON with one value replaced, one key removed or one added."""
    doc = json.loads(path.read_bytes())
    paths = [p for p in _paths(doc) if p]
    where = draw(st.sampled_from(paths))
    parent = doc
    for step in where[:-1]:
        parent = parent[step]
    action = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
    if action == "replace" or isinstance(parent, list):
        parent[where[-1]] = draw(json_values)
    elif action == "delete":
        del parent[where[-1]]
    else:
        parent[draw(st.text(min_size=1, max_size=8))] = draw(json_values)
    return doc


def _encode(doc) -> bytes:
    try:
        return canonical_json(doc)
    except PbemError:                        # e.g. a lone surrogate in a string
        return json.dumps(doc).encode()


GAME_FILE = PUBLISHED_GAME / "game.json"
TURN_FILE = PUBLISHED_GAME / "turns" / "0002-germany.json"


@FUZZ
@given(mutated(GAME_FILE))
def test_game_file_loader_never_fails_internally(doc):
    try:
        turnfile.decode_game_file(_encode(doc))
    except PbemError as exc:
        assert str(exc)


@FUZZ
@given(mutated(TURN_FILE))
def test_turn_file_loader_never_fails_internally(doc):
    try:
        turnfile.decode_turn_file(_encode(doc))
    except PbemError as exc:
        assert str(exc)


@FUZZ
@given(st.binary(max_size=300))
def test_loaders_take_any_bytes(data):
    for decode in (turnfile.decode_game_file, turnfile.decode_turn_file):
        with pytest.raises(PbemError):
            decode(data)


# --------------------------------------------------------------------------- commands

@pytest.fixture(scope="module")
def gm_template(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("fuzz") / "game"
    assert main(["new", str(d), "--demo-seeds"]) == 0
    return d


def _run(*args) -> int:
    try:
        return main([str(a) for a in args])
    except SystemExit as exc:               # argparse
        return exc.code


@SLOW_FUZZ
@given(orders_texts)
def test_process_with_any_orders_fails_cleanly_and_changes_nothing(gm_template, tmp_path_factory,
                                                                   text):
    d = tmp_path_factory.mktemp("p") / "game"
    shutil.copytree(gm_template, d)
    orders = d.parent / "orders.txt"
    orders.write_bytes(text.encode("utf-8", "surrogatepass"))
    before = snapshot(d)
    for args in (["check", orders, "-g", d, "--no-odds"],
                 ["process", orders, "-g", d, "--demo-seeds"]):
        code = _run(*args)
        assert code in (0, 1, 2)
        if code != 0:
            assert snapshot(d) == before, args
    shutil.rmtree(d.parent)


@SLOW_FUZZ
@given(mutated(GAME_FILE))
def test_commands_on_a_forged_game_file_fail_cleanly_and_change_nothing(gm_template,
                                                                         tmp_path_factory, doc):
    """A mutated, validly re-signed game.json through every command."""
    d = tmp_path_factory.mktemp("g") / "game"
    shutil.copytree(gm_template, d)
    path = d / "game.json"
    path.write_bytes(_encode(doc))
    gm = keys.load_private_key(d / ".secret" / "gm_ed25519")
    (d / "game.json.sig").write_text(sshsig.sign(path.read_bytes(), gm, "pbem-turn"))
    orders = d.parent / "orders.txt"
    orders.write_text("")
    for args in (["show", "-g", d], ["verify", d], ["check", orders, "-g", d, "--no-odds"],
                 ["process", orders, "-g", d, "--demo-seeds"]):
        before = snapshot(d)
        code = _run(*args)
        assert code in (0, 1, 2), args
        if code != 0:
            assert snapshot(d) == before, args
    shutil.rmtree(d.parent)
