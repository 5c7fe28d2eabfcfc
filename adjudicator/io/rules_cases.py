"""Rules cases: a plain-text format for rules conformance tests, like Diplomacy's DATC cases
or python-chess's perft files.  Every edition keeps its cases in ``maps/<edition>/cases/``.

A file holds one or more cases, after a line naming the edition they are for
(``edition aa1942``: ``pbem cases FILE`` then needs no ``--ruleset``, and running them for
another edition is refused).  A case is a block of lines (``#`` starts a comment)::

    case 1941-move-03: a tank blitzes through an empty enemy territory
    source digest §4.2, checklist 1 [L321-L323]
    power germany                       # whose turn (default: the first in turn order)
    round 2                             # default 1
    options turkish_straits=false       # rule options (true/false/integers/words)
    position setup                      # the edition's setup (default) or "empty" (no units)
    clear Karelia, West Russia          # remove every unit from these spaces
    units West Russia: germany 2 tank   # add units: a power, then unit groups as in orders,
    units SZ 5: uk 1 cv (2 ftr)         #   cargo in parentheses
    aboard SZ 5: usa 1 ftr              # cargo of another power: it rides on the last unit
                                        #   listed there that carries its kind (land/air)
    standing germany: defend all: submerge never   # a power's standing defence orders
    cargo SZ 5: usa 1 ftr               # put units aboard a carrier/transport there with room
                                        #   (an ally's cargo)
    damage Germany: 4                   # damage on the factory there
    damage Germany: airbase 3           #   or on the first unit of that type there
    owner Karelia: germany              # who controls a territory ("neutral" for nobody)
    relation usa japan: war             # the war state between two owners (war, allied,
                                        #   neutral), as GameState.relations keeps it
    history japan attacked: French Indo China   # a per-power list kept in the game state
    ipcs germany 30
    state berlin_held_by_allies: true   # a value an edition's rule keeps (declared with
    state lanes_taken red: 2            #   turn_rules.declare_state; per power: the power
                                        #   after the key); true/false, integers, words,
    state ts_objects: {"44": {"factory": 1}}   # or JSON lists and objects
    standing uk: defend all: submerge never    # another power's standing defence orders
    orders:                             # the orders text, up to "end"
      combat:
      move 1 tank West Russia -> Karelia -> Archangel
    end
    dice attacker 1 defender 6 other 3  # every attacker die shows 1, every defender die 6,
                                        #   any other die (e.g. bombing damage) 3; or a
                                        #   script of faces: "dice 1 5 2 6 ..." in roll order
    expect valid                        # no error when the orders are checked
    expect rejected blitz_blocked line 2   # an error with this problem code (and line)
    expect rejected units_cannot_move line 4 why=captured_this_turn   # (and parameters)
    expect warning retreat_redirected
    expect no warning overbuying_refunded
    expect errors 3                     # exactly this many errors (no stray ones)
    expect skipped units_not_there line 5  # played: an order skipped with this reason
    expect units Archangel: germany 1 tank # played: exactly these units of that owner there
    expect no units Karelia: ussr          #   (cargo counted), or none at all
    expect owner Karelia: germany
    expect relation usa japan: war      # the war state between two owners after the turn
    expect ipcs germany 28
    expect damage Germany 4             # the factory's damage there
    expect damage SZ 5: battleship 0    # the damage of every unit of a type there
    expect event battle_ended space=Karelia outcome=attacker_wins
    expect event casualties side=defender killed=transport:1,infantry:2   # dict fields as
    expect event landed path="Sea Zone 14,Gibraltar"   #   type:count, tuple fields as a,b
    expect event casualties side=defender killed.infantry=2   # one key of a dict field
    expect event dice_rolled step=aa times=1                   # exactly one such event
    expect sequence battle_started battle_type=raid then battle_started space=Karelia
                                        # these events in this order (others may come between)
    expect no event aircraft_lost
    expect turn ussr round 2            # whose turn is next, and the round
    expect state ts_objects: {"44": {"factory": 2}}   # a value an edition's rule keeps
    expect winner Axis                  # or: expect no winner
    expect next germany round 1         # whose turn comes next (and in which round)
    expect unreadable line 1 "do not exist"   # the orders are refused when read (below)

A case may play several turns: after the first turn's orders, dice and expectations, a line
``turn POWER`` plays the turns that follow on the position the last one left, every power
before POWER passing (``pass``, no dice), then POWER's ``orders:``/``dice`` and the
expectations below it, which are about that turn (played, unless it has no dice and
expects its orders refused: then it is only checked)::

    turn germany                        # ussr's turn above; now germany's, on its result
    orders:
      buy 1 inf
      place 1 inf Germany
    end
    dice attacker 1 defender 6
    expect ipcs germany 40

``expect unreadable [line N] "TEXT"`` expects the orders to be refused when they are read (a
kind of order the edition lacks, orders for another power): a reading error on that line
whose message contains TEXT.  Nothing is checked or played then.

A case with ``dice`` is played (``adjudicate``) as well as checked; expectations about the
position after the turn need dice.  Names follow the orders language (aliases, ``SZ 5``).
Problem codes are those of ``present.wording``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import attrs

from ..model.errors import DataError

MAX_CASE_FILE = 1_000_000
MAX_TURNS = 20                    # ``turn`` lines in one case


@attrs.frozen
class Expectation:
    kind: str                     # valid, rejected, warning, skipped, units, no_units, owner,
                                  # ipcs, damage, event, no_event, sequence, winner,
                                  # no_winner, next (or turn), no_warning, errors
    args: tuple[str, ...] = ()
    line: int = 0                 # where in the case file (for failure messages)


@attrs.frozen
class LaterTurn:
    """A turn played on the position the case's previous turn left (``turn POWER``)."""
    power: str
    line: int
    orders: str = ""
    dice: tuple[str, ...] = ()
    expect: tuple[Expectation, ...] = ()


@attrs.frozen
class Case:
    name: str
    title: str
    file: str
    line: int
    source: str = ""
    power: str | None = None
    round: int = 1
    options: tuple[tuple[str, bool | int | str], ...] = ()
    position: str = "setup"
    edits: tuple[tuple[str, str, int], ...] = ()     # (verb, rest of line, file line)
    orders: str = ""
    dice: tuple[str, ...] = ()
    expect: tuple[Expectation, ...] = ()
    edition: str | None = None                       # the file's ``edition`` line
    later: tuple[LaterTurn, ...] = ()                # the turns after the first

    @property
    def played(self) -> bool:
        return bool(self.dice) or bool(self.later)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


_EXPECT = re.compile(r"^expect\s+(no\s+)?(\w+)\s*(.*)$", re.I)


def word_value(text: str):
    """An option's or a state value's text: true/false, an integer, a JSON list or object
    (``[...]``, ``{...}``: an edition's structured state), else the word."""
    if text[:1] in "[{":
        try:
            return json.loads(text)
        except ValueError as exc:
            raise DataError(f"not a JSON list or object: {text} ({exc})") from None
    low = text.casefold()
    if low in ("true", "false"):
        return low == "true"
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text


def parse_cases(text: str, file: str = "<cases>") -> list[Case]:
    """Every case in ``text``; ``DataError`` naming the line of the first problem."""
    if len(text) > MAX_CASE_FILE:
        raise DataError(f"{file}: a case file is limited to {MAX_CASE_FILE} characters")
    cases: list[Case] = []
    current: dict | None = None
    in_orders = False
    orders: list[str] = []
    edition: str | None = None

    def fail(number: int, message: str):
        raise DataError(f"{file}:{number}: {message}")

    def finish():
        if current is None:
            return
        later = tuple(LaterTurn(**{**t, "expect": tuple(t["expect"])}) for t in current["later"])
        if not current["expect"] and not any(t.expect for t in later):
            fail(current["line"], f"case {current['name']} expects nothing")
        cases.append(Case(**{**current, "edits": tuple(current["edits"]), "later": later,
                             "expect": tuple(current["expect"]), "options": tuple(current["options"])}))

    def turn() -> dict:
        """Where the orders, dice and expectations being read go: the last turn's."""
        return current["later"][-1] if current["later"] else current

    for number, raw in enumerate(text.split("\n"), start=1):
        if in_orders:
            if raw.strip().casefold() == "end":
                turn()["orders"] = "\n".join(orders) + "\n"
                in_orders = False
            else:
                orders.append(raw)
            continue
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        word = word.casefold().rstrip(":")
        rest = rest.strip()
        if word == "case":
            finish()
            name, _, title = rest.partition(":")
            if not name.strip():
                fail(number, "a case needs a name: 'case NAME: what it shows'")
            current = dict(name=name.strip(), title=title.strip(), file=file, line=number,
                           edits=[], expect=[], options=[], edition=edition, later=[])
            continue
        if word == "edition":
            if current is not None or edition is not None:
                fail(number, "'edition NAME' comes once, before the first case")
            if not re.fullmatch(r"[a-z][a-z0-9_-]{0,40}", rest):
                fail(number, "edition takes an edition's name, e.g. 'edition aa1942'")
            edition = rest
            continue
        if current is None:
            fail(number, "expected 'case NAME: title' first")
        if current["later"] and word in ("source", "power", "round", "options", "position"):
            fail(number, f"'{word}' describes the case's first turn: it comes before any 'turn'")
        if word == "source":
            current["source"] = rest
        elif word == "power":
            current["power"] = rest
        elif word == "round":
            if not rest.isdigit():
                fail(number, "round takes a number")
            current["round"] = int(rest)
        elif word == "options":
            for item in rest.split():
                key, sep, value = item.partition("=")
                if not sep:
                    fail(number, f"option '{item}' must be name=value")
                current["options"].append((key, word_value(value)))
        elif word == "position":
            if rest not in ("setup", "empty"):
                fail(number, "position is 'setup' or 'empty'")
            current["position"] = rest
        elif word in ("clear", "units", "aboard", "cargo", "standing", "damage", "owner", "ipcs",
                      "relation", "state", "history"):
            if current["later"]:
                fail(number, f"'{word}' sets up the position: it comes before the first 'turn'")
            current["edits"].append((word, rest, number))
        elif word == "turn":
            if not rest or len(rest.split()) != 1:
                fail(number, "expected 'turn POWER' (the power whose turn is played next)")
            if len(current["later"]) >= MAX_TURNS:
                fail(number, f"a case plays at most {MAX_TURNS + 1} turns")
            current["later"].append(dict(power=rest, line=number, expect=[]))
        elif word == "orders":
            in_orders, orders = True, []
            if rest:
                orders.append(rest)
        elif word == "dice":
            turn()["dice"] = tuple(rest.split())
        elif word == "expect":
            m = _EXPECT.match(line)
            if not m:
                fail(number, "expect what?")
            negated, kind, args = bool(m.group(1)), m.group(2).casefold(), m.group(3).strip()
            kind = f"no_{kind}" if negated else kind
            known = ("valid", "rejected", "warning", "skipped", "units", "no_units", "owner",
                     "ipcs", "damage", "event", "no_event", "sequence", "winner", "no_winner",
                     "turn", "next", "no_warning", "errors", "unreadable", "relation", "state")
            if kind not in known:
                fail(number, f"unknown expectation '{kind}' (known: {', '.join(known)})")
            turn()["expect"].append(Expectation(kind, (args,) if args else (), number))
        else:
            fail(number, f"unknown line '{word}'")
    if in_orders:
        fail(len(text.split("\n")), "orders: without 'end'")
    finish()
    names = [c.name for c in cases]
    dupes = {n for n in names if names.count(n) > 1}
    if dupes:
        raise DataError(f"{file}: case names used twice: {', '.join(sorted(dupes))}")
    return cases


def read_cases(path: str | Path) -> list[Case]:
    """The cases of a file, or of every ``*.txt`` file of a folder (in name order)."""
    path = Path(path)
    files = sorted(path.glob("*.txt")) if path.is_dir() else [path]
    out: list[Case] = []
    for f in files:
        if not f.is_file():
            raise DataError(f"{f}: not a case file")
        if f.stat().st_size > MAX_CASE_FILE:
            raise DataError(f"{f}: a case file is limited to {MAX_CASE_FILE} bytes")
        out += parse_cases(f.read_text(encoding="utf-8"), f.name)
    return out
