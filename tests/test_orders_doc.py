"""docs/orders.md stays honest: its territory alias tables are generated from the map data
(run ``python tests/test_orders_doc.py`` to rewrite them after changing a map's aliases), and
every loose form the document shows is read as it says."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.io.names import normalize  # noqa: E402
from adjudicator.service.games import load_game  # noqa: E402

DOC = ROOT / "docs" / "orders.md"
EDITIONS = ("aa1941", "aa1942")             # the loose example below is written for their maps
ALIAS_TABLES = EDITIONS + ("europe1999",)   # every edition with an alias table in docs/orders.md
BLOCK = re.compile(r"(<!-- aliases: (\w+) .*?-->\n)(.*?)(<!-- end aliases -->)", re.DOTALL)


def player_aliases(territory) -> list[str]:
    """The aliases that are more than another spelling of the key ("SZ 5" for Sea Zone 5
    is one of the sea zone spellings every map accepts, documented once)."""
    key = normalize(territory.key)
    return [a for a in territory.aliases if normalize(a) != key]


def alias_table(edition: str) -> str:
    game = load_game(edition)
    rows = [f"| {t.key} | " + ", ".join(f"`{a}`" for a in player_aliases(t)) + " |"
            for t in sorted(game.map.territories.values(), key=lambda t: (t.is_sea, t.key))
            if player_aliases(t)]
    count = sum(len(player_aliases(t)) for t in game.map.territories.values())
    return "\n".join([f"{count} aliases for {len(rows)} territories:", "",
                      "| Territory | Also written |", "|---|---|", *rows]) + "\n"


def rewrite(text: str) -> str:
    return BLOCK.sub(lambda m: m.group(1) + alias_table(m.group(2)) + m.group(4), text)


def test_the_alias_tables_are_those_of_the_maps():
    text = DOC.read_text(encoding="utf-8")
    found = {m.group(2): m.group(3) for m in BLOCK.finditer(text)}
    assert set(found) == set(ALIAS_TABLES)
    for edition in ALIAS_TABLES:
        assert found[edition] == alias_table(edition), \
            f"docs/orders.md: the {edition} alias table is stale; run python tests/test_orders_doc.py"


def _examples(heading: str) -> list[str]:
    """The lines of the first code block under ``heading`` in docs/orders.md."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split(heading, 1)[1]
    return section.split("```", 2)[1].strip("\n").splitlines()


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_loose_example_reads_as_the_canonical_one(edition):
    from adjudicator.io.parser import format_orders, parse_orders
    game = load_game(edition)
    loose = "\n".join(_examples("## Orders as you would write them in a post"))
    canonical = "\n".join(_examples("It reads exactly as:")) + "\n"
    assert format_orders(parse_orders(loose, game, "germany"), game) == canonical


if __name__ == "__main__":
    DOC.write_text(rewrite(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"rewrote the alias tables of {DOC}")
