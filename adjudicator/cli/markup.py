"""Rich's console markup (``[red]...[/]``) read without importing rich (issue 24:
start-up): ``escape`` is ``rich.markup.escape``, and ``markup_text`` the text rich shows
for a line of markup, or None when only rich can tell."""

from __future__ import annotations

import re

# what rich's print would turn into something else: control characters (tabs, carriage
# returns, escapes) and its emoji codes (':name:', ':name-text:'; rich._emoji_replace's
# expression): any name but digits, which only ':100:' and ':1234:' are (rich's list is
# not loaded: about 0.4 times a bare interpreter's start-up)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_EMOJI_CODE = re.compile(r"(:(\S*?)(?:(?:\-)(emoji|text))?:)")
_DIGIT_EMOJI = ("100", "1234")
# rich.markup's tags ([red], [/], [bold red]) and escape(): the same expressions
_TAG = re.compile(r"\[([a-z#/@][^[]*?)]")
_ESCAPE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")


def rich_would_change(text: str) -> bool:
    """Whether rich prints ``text`` as something else (an emoji, a control character)."""
    return bool(_CONTROL.search(text)) or any(
        not m[2].isdigit() or m[2] in _DIGIT_EMOJI for m in _EMOJI_CODE.finditer(text))


def escape(markup: str) -> str:
    """``rich.markup.escape``, without importing rich: text shown as it is in markup."""
    markup = _ESCAPE.sub(lambda m: f"{m[1]}{m[1]}\\{m[2]}", markup)
    if markup.endswith("\\") and not markup.endswith("\\\\"):
        return markup + "\\"
    return markup


def markup_text(markup: str) -> str | None:
    """The text rich shows for ``markup`` (its tags dropped), or None if only rich can
    tell: an escaped bracket or a backslash, a handler tag (``[@click]``), a closing tag
    that closes nothing (rich raises), an emoji code or a control character."""
    if "\\" in markup or any(rich_would_change(part) for part in (markup, *_TAG.split(markup))):
        return None
    opened: list[str] = []
    for tag in _TAG.findall(markup):
        if tag.startswith("@"):
            return None
        if not tag.startswith("/"):
            opened.append(tag.split("=")[0].strip())
        elif not opened or tag[1:].strip() not in ("", opened[-1]):
            return None
        else:
            opened.pop()
    return _TAG.sub("", markup)
