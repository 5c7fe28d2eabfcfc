"""The square-by-square sealed mine layout (model/mine_grid.py, docs/taktyczne-mines.md §3)."""

import tomllib
from pathlib import Path

from hypothesis import given, settings, strategies as st

from adjudicator.model import mine_grid, mine_seal

MASTER = "ab" * 32
LAYOUT = ("G5", "F5", "H7")


def test_the_grid_is_the_boards_mine_rows():
    board = tomllib.loads(Path("maps/taktyczne/board.toml").read_text())["geometry"]
    assert len(mine_grid.COLUMNS) == board["columns"]
    assert (mine_grid.ROWS[0], mine_grid.ROWS[-1]) == tuple(board["mine_rows"])
    assert len(mine_grid.SQUARES) == 91


def test_a_grid_commitment_opens_as_a_whole_and_square_by_square():
    sealed = mine_grid.commitment("blue", "23", LAYOUT, MASTER)
    assert mine_seal.is_commitment(sealed) and mine_grid.is_grid(sealed)
    assert mine_seal.opens(sealed, "blue", "23", LAYOUT, MASTER)
    assert not mine_seal.opens(sealed, "blue", "23", ("G5", "F5"), MASTER)
    assert not mine_seal.opens(sealed, "blue", "22", LAYOUT, MASTER)
    leaves = mine_grid.leaves("blue", "23", LAYOUT, MASTER)
    assert mine_grid.leaves_open(sealed, "blue", "23", leaves)
    assert not mine_grid.leaves_open(sealed, "blue", "23", leaves[::-1])
    g5 = leaves[mine_grid.SQUARES.index("G5")]
    g6 = leaves[mine_grid.SQUARES.index("G6")]
    salt5 = mine_grid.square_salt(MASTER, "G5")
    salt6 = mine_grid.square_salt(MASTER, "G6")
    assert mine_grid.square_opens(g5, "blue", "23", "G5", True, salt5)
    assert not mine_grid.square_opens(g5, "blue", "23", "G5", False, salt5)   # binding
    assert mine_grid.square_opens(g6, "blue", "23", "G6", False, salt6)       # proved empty
    assert not mine_grid.square_opens(g6, "blue", "23", "G6", True, salt6)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.sampled_from(mine_grid.SQUARES), max_size=12), st.sampled_from(mine_grid.SQUARES))
def test_one_square_opened_tells_nothing_of_another(layout, square):
    """An opening publishes its square's own salt, derived one-way from the master: it
    opens no other square's leaf either way."""
    leaves = dict(zip(mine_grid.SQUARES, mine_grid.leaves("red", None, layout, MASTER)))
    salt = mine_grid.square_salt(MASTER, square)
    for other in mine_grid.SQUARES:
        if other != square:
            assert not mine_grid.square_opens(leaves[other], "red", None, other, True, salt)
            assert not mine_grid.square_opens(leaves[other], "red", None, other, False, salt)
    assert mine_grid.square_opens(leaves[square], "red", None, square, square in layout, salt)
