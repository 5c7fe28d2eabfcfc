"""``codec.canonical_json`` (one recursive walk, number lists on one line) writes exactly
the layout of its definition, ``codec._dump``, for any JSON value (issue 11: canonical
JSON re-encoding was a hot spot of ``pbem verify``)."""

from __future__ import annotations

import enum

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.io import codec

scalars = (st.none() | st.booleans() | st.integers(-10**20, 10**20)
           | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
           | st.sampled_from(["[\n1,\n2\n]", "\n  3", "[1, 2]", "é ☃ \u2028", "\\"]))
# unit groups (written in one piece), and dicts with their keys but other values
groups = st.fixed_dictionaries({"count": scalars | st.integers(1, 99), "owner": scalars,
                                "type": scalars | st.sampled_from(["infantry", "tank"])})
values = st.recursive(scalars | groups, lambda inner: st.lists(inner, max_size=5)
                      | st.lists(st.integers(-5, 10**6) | st.floats(-1e9, 1e9), max_size=6)
                      | st.dictionaries(st.text(max_size=6), inner, max_size=5)
                      | st.fixed_dictionaries({"count": inner, "owner": inner, "type": inner}),
                      max_leaves=40)


@settings(max_examples=400, deadline=None)
@given(value=values)
def test_the_fast_encoder_writes_the_canonical_layout(value):
    assert codec.canonical_json(value) == (codec._dump(value, 0) + "\n").encode("utf-8")


@pytest.mark.parametrize("bad", [{1: 2}, [{"a": {None: 1}}], {"a": [[{2.5: "x"}]]}])
def test_keys_must_be_strings(bad):
    with pytest.raises(TypeError, match="keys must be strings"):
        codec.canonical_json(bad)


class _Level(enum.IntEnum):
    LOW = 1


@pytest.mark.parametrize("value", [(1, 2), {"a": (3, "x"), "b": []}, [_Level.LOW, 2],
                                   {"count": _Level.LOW, "owner": "a", "type": "b"},
                                   {"count": True, "owner": "a", "type": "b"},
                                   [{"count": 2, "owner": "é\n", "type": "☃"}],
                                   {"n": _Level.LOW}, [True, 1], [1.5, -0.0, 1e16], "☃\n",
                                   [[], {}, None]])
def test_tuples_bools_and_int_subclasses_are_written_as_defined(value):
    assert codec.canonical_json(value) == (codec._dump(value, 0) + "\n").encode("utf-8")


@pytest.mark.parametrize("bad", [float("nan"), [1, float("inf")], {"a": object()}])
def test_values_json_cannot_write_are_refused(bad):
    with pytest.raises((ValueError, TypeError)):
        codec.canonical_json(bad)


names = st.dictionaries(st.sampled_from([f"t{i}" for i in range(40)]),
                        st.sampled_from(["uk", "germany", "ussr", "é"]), min_size=30)
changes = st.lists(st.tuples(st.sampled_from([f"t{i}" for i in range(40)]),
                             st.sampled_from(["uk", "japan", 1, True, None, ["uk"]])), max_size=3)


@settings(max_examples=150, deadline=None)
@given(first=names, steps=st.lists(changes, min_size=1, max_size=4), depth=st.integers(0, 2))
def test_large_dicts_of_names_written_again_as_defined(first, steps, depth):
    """A large dict of str values is written once per line start and reused while an equal
    one follows (a state's owners, turn after turn): the next, changed (a value no longer
    a str, another name), equal but another object, or mutated in place, is written as
    defined."""
    value = first
    for change in steps:
        for copy in (False, True):      # the object itself, then an equal copy
            nested = dict(value) if copy else value
            for _ in range(depth):
                nested = {"state": nested}
            assert codec.canonical_json(nested) == (codec._dump(nested, 0) + "\n").encode()
        for key, item in change:         # in place: the text written before is stale
            value[key] = item


def test_a_states_spaces_are_written_as_defined_again_and_after_a_change():
    """A space's unit groups written before (``codec.UnitGroups``, by its tuple) give the
    text of the groups, also after the state moved on."""
    import attrs

    from adjudicator.service.games import initial_state, load_game
    state = initial_state(load_game("aa1941"), "units-text")
    space = next(s for s, units in state.units.items() if len(units) > 2)
    later = attrs.evolve(state, units={**state.units, space: state.units[space][1:]})
    for each in (state, later, state, later):
        plain = codec.encode_state(each)
        assert isinstance(plain["units"][space], codec.UnitGroups)
        as_lists = {**plain, "units": {s: list(g) for s, g in plain["units"].items()}}
        assert codec.canonical_json(plain) == (codec._dump(as_lists, 0) + "\n").encode()
