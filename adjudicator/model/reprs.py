"""``attrs_repr``: the ``__repr__`` attrs generates, written once for every class.

attrs compiles a ``__repr__`` for each class it makes, about a third of what making a
class costs (issue 24: a command makes 30 to 120 of them before it does anything).  A class
made with ``repr=False`` that takes this one (in its body, or from a base class) prints
exactly as attrs would: ``Name(field=value, ...)`` over the fields attrs shows, a field's own
repr callable if it has one, ``...`` for an instance met again inside itself."""

from __future__ import annotations

import threading

import attrs

_REPRING = threading.local()


def attrs_repr(self) -> str:
    """``repr(self)`` as attrs' generated ``__repr__`` writes it."""
    try:
        seen = _REPRING.ids
    except AttributeError:
        seen = _REPRING.ids = set()
    if id(self) in seen:
        return "..."
    seen.add(id(self))
    try:
        parts = []
        for a in type(self).__attrs_attrs__:
            if a.repr is False:
                continue
            value = getattr(self, a.name) if a.init else getattr(self, a.name, attrs.NOTHING)
            parts.append(f"{a.name}={value!r}" if a.repr is True else f"{a.name}={a.repr(value)}")
        return f"{type(self).__qualname__.rsplit('>.', 1)[-1]}({', '.join(parts)})"
    finally:
        seen.discard(id(self))
