"""Rulings as players read them: the words of a ruling without its source notes.

A ruling in game.toml cites where it comes from: seed lines (``[L727]``, ``[L540-L546]``),
digest sections (``(digest §4.1 [FLAG])``) and asides that argue from them (``(L524's 'only
submerged submarines' read as ...)``).  ``plain_ruling`` drops those notes and keeps the rule;
``pbem rules --sources`` shows the ruling as written.
"""

from __future__ import annotations

import re

_CITED_OWNER = re.compile(r"\[L\d+[^\]]*\]'s")        # "[L354]'s 'air units ...'"
_LINE_REF = re.compile(r"\s*\[L\d+[^\]]*\]")          # [L727], [L540-L546, L398]
_FLAG = re.compile(r"\s*\[FLAG\]s?")
_SOURCE_MARK = re.compile(r"§|\[L\d|\bL\d+\b")           # what makes an aside a source note
_SPACE_BEFORE = re.compile(r"\s+([,.;:)])")


def _parentheticals(text: str) -> list[tuple[int, int]]:
    """(start, end) of every outermost parenthesis pair, ``end`` past the closing one."""
    spans, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                spans.append((start, i + 1))
    return spans


def plain_ruling(text: str) -> str:
    """The ruling without seed line numbers, digest sections or asides made of them."""
    kept, last = [], 0
    for start, end in _parentheticals(text):
        if _SOURCE_MARK.search(text[start:end]):
            kept.append(text[last:start])
            last = end
    kept.append(text[last:])
    plain = _CITED_OWNER.sub("the rulebook's", "".join(kept))
    plain = _FLAG.sub("", _LINE_REF.sub("", plain))
    plain = re.sub(r"\s{2,}", " ", _SPACE_BEFORE.sub(r"\1", plain)).strip()
    return plain[:1].upper() + plain[1:]
