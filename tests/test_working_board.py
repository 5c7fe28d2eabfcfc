"""WorkingBoard's indexes by space and by carrier (issue 11) answer exactly what a scan of
every piece answers, in the same order, whatever the engine does to the pieces."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.engine.working import WorkingBoard
from adjudicator.service.games import initial_state, load_game

GAME = load_game("aa1941")
STATE = initial_state(GAME, "index-test")
SPACES = sorted(GAME.map.territories)


def scan_at(board, space, include_cargo=False):
    return [p for p in board.pieces.values()
            if p.space == space and (include_cargo or p.carried_by is None)]


def scan_cargo(board, carrier):
    return [p for p in board.pieces.values() if p.carried_by == carrier.uid]


def assert_indexes_agree(board, spaces, carriers):
    for space in spaces:
        assert board.at(space) == scan_at(board, space)
        assert board.at(space, include_cargo=True) == scan_at(board, space, True)
    for carrier in carriers:
        assert board.cargo_of(carrier) == scan_cargo(board, carrier)


def act(board, kind, a, b, removed):
    """One change of the engine's kinds to the ``a``-th piece (``b``: another piece, a
    space); removed pieces are added to ``removed``."""
    pieces = list(board.pieces.values())
    piece, other = pieces[a % len(pieces)], pieces[b % len(pieces)]
    if kind == "move":
        piece.space = SPACES[b % len(SPACES)]
    elif kind == "board" and other is not piece:
        piece.carried_by, piece.space = other.uid, other.space
    elif kind == "unload":
        piece.carried_by = None
    elif kind == "remove":
        removed += board.remove(piece)
    elif kind == "add":
        board.add_new("infantry", piece.owner, SPACES[b % len(SPACES)])
    elif kind == "damage":
        piece.damage += 1
    elif kind == "owner":
        piece.owner = other.owner
    elif kind == "type":
        piece.type = other.type
    elif kind == "flag":
        piece.flags = piece.flags | {"frozen"}
    elif kind == "same":   # an equal value set again: the space may be rebuilt or kept
        piece.owner = str(piece.owner)


actions = st.lists(st.tuples(st.sampled_from(["move", "board", "unload", "remove", "add"]),
                             st.integers(0, 10_000), st.integers(0, 10_000)),
                   min_size=1, max_size=60)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=actions)
def test_indexes_follow_moves_loads_removals_and_new_pieces(actions):
    board = WorkingBoard(GAME, STATE)
    removed = []
    for kind, a, b in actions:
        act(board, kind, a, b, removed)
    for gone in removed:                      # a removed piece that moves stays off the board
        gone.space = SPACES[0]
        assert gone.uid not in board.pieces
    touched = {p.space for p in board.pieces.values()} | set(SPACES[:5])
    assert_indexes_agree(board, touched, list(board.pieces.values()) + removed)


def test_setup_board_indexes_every_space():
    board = WorkingBoard(GAME, STATE)
    assert_indexes_agree(board, SPACES, list(board.pieces.values()))
    assert sum(len(board.at(s, include_cargo=True)) for s in SPACES) == len(board.pieces)


def test_a_starting_piece_is_built_like_a_piece_made_the_usual_way():
    """``_new_piece`` skips ``Piece.__init__`` for speed: every field, including those made
    by a factory per piece (``moved_in``, ``marks``), must read as a normal piece's."""
    import attrs

    from adjudicator.engine.working import Piece, _new_piece
    fast = _new_piece(7, "infantry", "germany", "Germany", 3, 2, {"frozen"}, None)
    usual = Piece(7, "infantry", "germany", "Germany", 3, start_space="Germany", damage=2,
                  flags=frozenset({"frozen"}))
    for field in attrs.fields(Piece):
        assert getattr(fast, field.name) == getattr(usual, field.name), field.name
    for field in attrs.fields(Piece):
        if isinstance(field.default, attrs.Factory):      # never shared between pieces
            other = _new_piece(8, "infantry", "germany", "Germany", None, 0, (), None)
            assert getattr(fast, field.name) is not getattr(other, field.name), field.name


def rebuilt_units(board):
    """Every space's units made again from its pieces (what ``to_units`` gives when it
    reuses no tuple of the starting state)."""
    spaces = {p.space for p in board.pieces.values()}
    return dict(sorted(board._units_at(spaces).items()))


changes = st.lists(st.tuples(st.sampled_from(["move", "board", "unload", "remove", "add",
                                              "damage", "owner", "type", "flag", "same"]),
                             st.integers(0, 10_000), st.integers(0, 10_000)),
                   min_size=0, max_size=12)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=changes, shuffled=st.booleans())
def test_to_units_keeps_only_the_spaces_left_as_they_were(actions, shuffled):
    """``to_units`` reuses a space's tuple of the starting state when no piece entered,
    left or changed there, and that tuple is one it made (canonical): the same units as a
    rebuild of every space, whatever the turn did to the pieces."""
    import attrs

    canonical = attrs.evolve(STATE, units=WorkingBoard(GAME, STATE).to_units())
    start = canonical
    if shuffled:       # a state in another order (not made by to_units): sorted again
        start = attrs.evolve(canonical, units={s: tuple(reversed(u))
                                               for s, u in canonical.units.items()})
    board = WorkingBoard(GAME, start)
    for kind, a, b in actions:
        act(board, kind, a, b, [])
    units = board.to_units()
    assert units == rebuilt_units(board)
    assert list(units) == sorted(units)
    if not actions and not shuffled:
        assert all(units[s] is canonical.units[s] for s in units)    # nothing rebuilt
