"""Inputs that could exhaust the machine are refused with a clear message (issue 8):
orders over the size, line or number limits, control characters that would end a line,
huge numbers in JSON, unit counts that would be expanded, files that are not regular."""

from __future__ import annotations

import json
import os
import shutil
import threading

import pytest

from adjudicator.cli import main
from adjudicator.io import codec, keys, orders_text, sshsig, storage, turnfile
from adjudicator.io.codec import canonical_json
from adjudicator.io.limits import MAX_UNITS
from adjudicator.io.parser import parse_orders, parse_orders_partial
from adjudicator.model.errors import OrdersSyntaxError, PbemError, StateFileError
from adjudicator.service import gamedir
from helpers import game_1941, start_state

USSR = "ussr"


def parse(text):
    return parse_orders(text, game_1941(), power=USSR)


def errors_of(text):
    return parse_orders_partial(text, game_1941(), power=USSR)[1]


# --------------------------------------------------------------------------- orders limits

def test_orders_over_the_byte_limit_are_refused_before_parsing():
    text = "# " + "x" * orders_text.MAX_ORDERS_BYTES
    with pytest.raises(orders_text.OrdersLimitError, match="at most 32768 bytes"):
        parse(text)
    # multi-byte characters count as bytes
    text = "#" + "♞" * (orders_text.MAX_ORDERS_BYTES // 3 + 1)
    assert len(text) < orders_text.MAX_ORDERS_BYTES
    with pytest.raises(orders_text.OrdersLimitError, match="bytes"):
        parse(text)
    assert str(orders_text.OrdersLimitError("x")) == "x"      # no line/column to show


def test_orders_over_the_line_limit_are_refused():
    parse("\n" * (orders_text.MAX_LINES - 1) + "pass")          # exactly the limit: fine
    with pytest.raises(orders_text.OrdersLimitError, match="501 lines; at most 500"):
        parse("\n" * orders_text.MAX_LINES + "buy 1 inf")


def test_a_long_line_is_an_error_at_its_position():
    long = "buy 1 inf  " + "#" * orders_text.MAX_LINE_CHARS
    errors = errors_of(f"power: USSR\n{long}\nbuy 1 tank\n")
    assert [(e.line, e.column) for e in errors] == [(2, orders_text.MAX_LINE_CHARS + 1)]
    assert "511 characters long; at most 500" in errors[0].args[0]
    orders, _ = parse_orders_partial(f"{long}\nbuy 1 tank\n", game_1941(), power=USSR)
    assert [g.type for b in orders.buys for g in b.units] == ["tank"]


@pytest.mark.parametrize("number", ["10000", "9" * 5000, "0" * 4 + "1"])
def test_numbers_over_four_digits_are_errors_not_crashes(number):
    line = f"buy {number} inf"[: orders_text.MAX_LINE_CHARS]
    errors = errors_of(line)
    assert len(errors) == 1 and errors[0].column == 5
    assert "too large (at most 4 digits)" in errors[0].args[0]
    assert errors_of("buy 9999 inf") == []                   # the largest number accepted
    assert errors_of("combat:\nmove 1 inf abc12345 -> Karelia")[0].args[0].startswith("unknown")


def test_errors_stop_after_the_limit():
    errors = errors_of("buy 2 xyzzy\n" * 200)
    assert len(errors) == orders_text.MAX_ERRORS + 1
    assert errors[-1].line == orders_text.MAX_ERRORS + 1
    assert "stopped after 50 errors" in errors[-1].args[0]
    assert len(errors_of("buy 2 xyzzy\n" * 50)) == 50   # no stop note when nothing is left


@pytest.mark.parametrize("char, name", [
    ("\x0b", "vertical tab"), ("\x0c", "form feed"), ("\x85", "NEL"), ("\u2028", "LINE SEPARATOR"),
    ("\u2029", "PARAGRAPH SEPARATOR"), ("\r", "carriage return"), ("\x00", "NUL"),
    ("\u202e", "RIGHT-TO-LEFT OVERRIDE"), ("\x1c", "control character"),
])
def test_other_line_breaks_and_controls_are_errors_with_their_position(char, name):
    """'# I will not buy anything this turn<VT>buy 2 inf' must not buy 2 infantry."""
    text = f"power: USSR\n# I will not buy anything this turn{char}buy 2 inf\n"
    orders, errors = parse_orders_partial(text, game_1941(), power=USSR)
    assert orders.buys == ()
    assert [(e.line, e.column) for e in errors] == [(2, 36)]
    assert name in errors[0].args[0] and "not allowed in orders" in errors[0].args[0]
    assert f"U+{ord(char):04X}" in errors[0].args[0]


def test_lf_and_crlf_end_lines_alike_and_tabs_are_fine():
    lf = parse("power: USSR\nbuy 2 inf\t# two\n")
    crlf = parse("power: USSR\r\nbuy 2 inf\t# two\r\n")
    assert [b.units for b in lf.buys] == [b.units for b in crlf.buys] and lf.buys
    assert parse("\ufeffbuy 1 inf").buys                   # a leading byte-order mark


# --------------------------------------------------------------------------- headers

def test_headers_are_read_and_skipped_by_the_parser():
    text = "# hello\nGame: club-7\n  TURN :  12 \npower: USSR\nbuy 1 inf\n"
    assert orders_text.read_headers(text) == orders_text.Headers("club-7", 12)
    assert [g.type for b in parse(text).buys for g in b.units] == ["infantry"]
    assert orders_text.read_headers("buy 1 inf\n") == orders_text.Headers()


def test_headers_after_the_first_order_are_not_headers():
    text = "buy 1 inf\ngame: club-7\n"
    assert orders_text.read_headers(text) == orders_text.Headers()
    assert [e.line for e in errors_of(text)] == [2]          # the parser reports the line


@pytest.mark.parametrize("text, message", [
    ("turn: twelve\n", "must be a turn number"), ("turn: 0\n", "must be a turn number"),
    ("turn: 12345678\n", "must be a turn number"), ("game: two words\n", "one word"),
    ("game:\n", "one word"), ("game: a\ngame: b\n", "second game header"),
])
def test_malformed_headers(text, message):
    with pytest.raises(OrdersSyntaxError, match=message):
        orders_text.read_headers(text)


def test_check_headers():
    text = "game: g1\nturn: 3\n"
    assert orders_text.check_headers(text, "g1", 3) == orders_text.Headers("g1", 3)
    with pytest.raises(PbemError, match="for turn 3, but the game is at turn 4"):
        orders_text.check_headers(text, "g1", 4)
    with pytest.raises(PbemError, match="for game 'g1', not 'g2'"):
        orders_text.check_headers(text, "g2", 3)


# --------------------------------------------------------------------------- JSON numbers

@pytest.mark.parametrize("literal", ["1" * 5000, "-" + "9" * 30, "1e999", "NaN", "-Infinity"])
def test_huge_json_numbers_are_refused_not_internal_errors(literal):
    with pytest.raises(StateFileError, match="out of range"):
        storage.parse_json_bytes(f'{{"a": {literal}}}'.encode(), "f.json")


def _units_doc(count):
    doc = codec.encode_state(start_state())
    doc["units"]["Germany"] = [{"type": "infantry", "owner": "germany", "count": count}]
    return doc


@pytest.mark.parametrize("count", [MAX_UNITS + 1, 10**7, 10**17])
def test_unit_counts_are_bounded_before_any_unit_is_built(count, monkeypatch):
    built = []
    monkeypatch.setattr(codec, "Unit", lambda *a: built.append(a))
    with pytest.raises(codec.DecodeError, match=f"more than {MAX_UNITS} units"):
        codec.decode_state(_units_doc(count))
    assert built == []


@pytest.mark.parametrize("spaces", [1, 2, 7])
def test_within_limits_counts_cargo_and_shared_tuples_as_decoding_does(spaces):
    """``within_limits`` (which counts each unit tuple once and remembers it) accepts a
    state exactly when ``decode_state`` does: at the bound and one past it, the units
    spread over spaces that share one tuple, cargo counted, nested cargo too."""
    from adjudicator.model.state import Unit
    base = start_state()
    ship = Unit("transport", "ussr", (Unit("infantry", "ussr"), Unit("tank", "ussr")))
    nested = Unit("carrier", "ussr", (Unit("fighter", "ussr", (Unit("infantry", "ussr"),)),))
    for extra in (0, 1):
        per_space = MAX_UNITS // spaces - 4         # each space: these, and 4 in cargo
        rest = MAX_UNITS - (per_space + 4) * spaces
        shared = (ship, nested) + (Unit("infantry", "ussr"),) * (per_space - 2)
        units = {f"s{i}": shared for i in range(spaces)}
        units["last"] = (Unit("infantry", "ussr"),) * (rest + extra) if rest + extra else ()
        state = base.__class__(**{**{f: getattr(base, f) for f in (
            "game_id", "map_id", "round", "power", "owners", "ipcs")}, "units": units})
        for _ in range(2):                             # the second time from what it remembers
            assert codec.within_limits(state) is (extra == 0)
        doc = codec.encode_state(state)
        if extra:
            with pytest.raises(codec.DecodeError, match=f"more than {MAX_UNITS} units"):
                codec.decode_state(doc)
        else:
            codec.decode_state(doc)


@pytest.mark.parametrize("field, value", [("round", -1), ("round", 10**6),   # round 0: pre-game
                                          ("turn_number", 10**7), ("ipcs", 10**9)])
def test_rounds_turns_and_ipcs_are_bounded(field, value):
    doc = codec.encode_state(start_state())
    if field == "ipcs":
        doc["ipcs"]["ussr"] = value
    else:
        doc[field] = value
    with pytest.raises(codec.DecodeError, match="out of range"):
        codec.decode_state(doc)


def test_a_huge_count_in_a_resigned_game_json_is_refused_at_once(tmp_path, capsys):
    """Signature first, then bounds, then expansion: show/check/process/report/verify all
    refuse a game.json whose count is 10**7, with a message, without expanding it."""
    d = tmp_path / "g"
    gamedir.create_game(d, game_1941(), "g", created="x", seeds=gamedir.demo_seeds("g"))
    path = d / "game.json"
    doc = json.loads(path.read_bytes())
    doc["initial_state"]["units"]["Germany"][0]["count"] = 10**7
    path.write_bytes(canonical_json(doc))
    orders = tmp_path / "o.txt"
    orders.write_text("")
    for args in (["show", "-g", d], ["check", orders, "-g", d], ["report", "-g", d]):
        assert main([str(a) for a in args]) == 2
        assert "signature does not verify" in capsys.readouterr().err
    gm = keys.load_private_key(d / ".secret" / "gm_ed25519")
    (d / "game.json.sig").write_text(sshsig.sign(path.read_bytes(), gm, "pbem-turn"))
    for args in (["show", "-g", d], ["check", orders, "-g", d], ["report", "-g", d],
                 ["process", orders, "-g", d]):
        assert main([str(a) for a in args]) == 2
        assert f"more than {MAX_UNITS} units" in capsys.readouterr().err
    assert main(["verify", str(d)]) == 1
    assert "refusing to expand them" in capsys.readouterr().out


# --------------------------------------------------------------------------- regular files

@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


def _refused_without_blocking(call):
    """Run ``call`` in a thread: it must raise a PbemError within seconds, not block."""
    outcome = {}

    def run():
        try:
            call()
        except PbemError as exc:
            outcome["error"] = str(exc)
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(10)
    assert not thread.is_alive(), "blocked"
    return outcome.get("error", "")


def test_fifo_device_and_symlinks_to_them_are_refused(tmp_path, fifo):
    link = tmp_path / "link"
    link.symlink_to(fifo)
    zero = tmp_path / "zero"
    zero.symlink_to("/dev/zero")
    for path in (fifo, link, zero, "/dev/zero"):
        assert "not a regular file" in _refused_without_blocking(
            lambda: storage.read_regular(path, "orders file", 100))
    regular = tmp_path / "regular"
    regular.write_bytes(b"12345")
    via_link = tmp_path / "via-link"
    via_link.symlink_to(regular)
    assert storage.read_regular(via_link, "f", 5) == b"12345"
    with pytest.raises(StateFileError, match="5 bytes is over the limit of 4"):
        storage.read_regular(regular, "f", 4)


def test_cli_refuses_fifo_orders_and_a_fifo_game_file(tmp_path, fifo, capsys):
    d = tmp_path / "g"
    assert main(["new", str(d), "--demo-seeds"]) == 0
    capsys.readouterr()
    for args in (["check", fifo, "-g", d], ["process", fifo, "-g", d, "--demo-seeds"],
                 ["check", "/dev/zero", "-g", d]):
        result = {}
        thread = threading.Thread(target=lambda: result.setdefault("code", main(
            [str(a) for a in args])), daemon=True)
        thread.start()
        thread.join(10)
        assert result.get("code") == 2
        assert "not a regular file" in capsys.readouterr().err
    shutil.copytree(d, tmp_path / "copy")
    (tmp_path / "copy" / "game.json").unlink()
    os.mkfifo(tmp_path / "copy" / "game.json")
    for args in (["show", "-g", tmp_path / "copy"], ["verify", tmp_path / "copy"]):
        result = {}
        thread = threading.Thread(target=lambda: result.setdefault("code", main(
            [str(a) for a in args])), daemon=True)
        thread.start()
        thread.join(10)
        assert result.get("code") in (1, 2)
        out = capsys.readouterr()
        assert "not a regular file" in out.out + out.err


@pytest.mark.parametrize("path, where", [
    ("turns/aa1941-example/game/game.json", ("options",)),
    ("tests/data/aa1941-schema1/turns/0001-ussr.json", ("events", 0)),   # kept as raw JSON
])
def test_deeply_nested_json_is_refused_not_a_recursion_crash(path, where):
    from conftest import ROOT
    doc = json.loads((ROOT / path).read_bytes())
    deep = cur = {}
    for _ in range(900):
        cur["a"] = cur = {}
    target = doc
    for step in where:
        target = target[step]
    target["deep"] = deep
    decode = turnfile.decode_game_file if path.endswith("game.json") else turnfile.decode_turn_file
    with pytest.raises(StateFileError, match="nested too deeply"):
        decode(json.dumps(doc).encode())


def test_process_refuses_huge_orders_before_anything_else(tmp_path):
    d = tmp_path / "g"
    gamedir.create_game(d, game_1941(), "g", created="x", seeds=gamedir.demo_seeds("g"))
    with pytest.raises(orders_text.OrdersLimitError):
        gamedir.process_turn(d, game_1941(), b"#" * (orders_text.MAX_ORDERS_BYTES + 1))
    assert not list((d / "turns").iterdir())
