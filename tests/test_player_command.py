"""``pbem player set/list``: an address added to a game after ``pbem new``, while the signed
game.json stays byte for byte what it was, and the game still verifies."""

from __future__ import annotations

from adjudicator.io.paths import EXAMPLE_DIR
from adjudicator.service import gamedir
from adjudicator.service.addresses import read_book, with_addresses
from adjudicator.service.mail.players import players_of
from tests.cli_helpers import pbem

USSR = sorted((EXAMPLE_DIR / "orders").glob("*.txt"))[0]


def _new(tmp_path, capsys):
    directory = tmp_path / "g"
    code, out = pbem(capsys, "new", directory, "--demo-seeds", "--email", "uk=tom@example.org",
                     "--unsigned-orders")
    assert code == 0, out
    return directory


def test_set_adds_an_address_and_leaves_the_signed_game_file_alone(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    directory = _new(tmp_path, capsys)
    signed = (directory / "game.json").read_bytes(), (directory / "game.json.sig").read_bytes()
    code, out = pbem(capsys, "player", "set", "Soviet Union", "--email", "Ivan@Example.org",
                     "--name", "Ivan", "-g", directory)
    assert code == 0, out
    assert "Soviet Union" in out and "Ivan <Ivan@Example.org>" in out and "game.json is not changed" in out
    assert read_book(directory) == {"ussr": {"email": "Ivan@Example.org", "name": "Ivan"}}
    assert ((directory / "game.json").read_bytes(), (directory / "game.json.sig").read_bytes()) == signed
    # pbem process now names the address; the game verifies as before
    code, out = pbem(capsys, "process", USSR, "-g", directory, "--demo-seeds")
    assert code == 0, out
    send = next(line for line in out.splitlines() if line.startswith("Send to"))
    assert "Ivan <Ivan@Example.org> (Soviet Union)" in send and "tom@example.org" in send
    code, out = pbem(capsys, "verify", "-g", directory)
    assert code == 0, out
    # the mail runner reads the same addresses (lower case, as it matches senders)
    gf, _ = gamedir.read_game(directory)
    assert gf.players["ussr"].email is None
    assert players_of(with_addresses(gf, directory))["ussr"].email == "ivan@example.org"


def test_set_changes_an_address_game_json_holds_and_list_shows_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    directory = _new(tmp_path, capsys)
    code, out = pbem(capsys, "player", "set", "uk", "--email", "tom@new.example.org", "-g", directory)
    assert code == 0, out
    code, out = pbem(capsys, "player", "list", "-g", directory)
    assert code == 0, out
    lines = out.splitlines()
    assert [line.split()[0] for line in lines[1:]] == ["Soviet", "Germany", "United", "Japan", "United"]
    uk = next(line for line in lines if "United Kingdom" in line)
    assert "tom@new.example.org (address book)" in uk and "unsigned orders" in uk
    assert "no address" in next(line for line in lines if "Germany" in line)


def test_set_refuses_what_is_not_an_address_power_or_change(tmp_path, capsys):
    directory = _new(tmp_path, capsys)
    for args, says in ((("Narnia", "--email", "a@example.org"), "unknown power 'Narnia'"),
                       (("ussr", "--email", "not-an-address"), "is not an email address"),
                       (("ussr", "--name", "x" * 101), "1-100 printable characters"),
                       (("ussr",), "give --email ADDRESS and/or --name NAME")):
        code, out = pbem(capsys, "player", "set", *args, "-g", directory)
        assert code == 2 and says in out and "Traceback" not in out, (args, out)
    assert not (directory / "addresses.json").exists()
    code, out = pbem(capsys, "player", "list", "-g", tmp_path / "nowhere")
    assert code == 2 and "not a game directory" in out


def test_a_broken_address_book_is_reported_not_used(tmp_path, capsys):
    directory = _new(tmp_path, capsys)
    (directory / "addresses.json").write_text('{"ussr": {"email": "nope"}}')
    code, out = pbem(capsys, "player", "list", "-g", directory)
    assert code == 2 and "addresses.json" in out and "is not an email address" in out
