"""HTML mail to plain text, enough to read orders typed into an HTML mail client.

Block elements and ``<br>`` become line breaks, entities are decoded, ``<script>``,
``<style>`` and ``<head>`` are dropped, and so is quoted history: ``<blockquote>`` and
the quote containers of the common clients (Gmail's ``gmail_quote``, Thunderbird's
``moz-cite-prefix``, Outlook's ``divRplyFwdMsg`` / ``appendonsend``).

Only what a mail client shows is read: an element that is hidden (the ``hidden``
attribute, or a style -- inline or a ``<style>`` rule for its class or id -- with
``display: none``, ``visibility: hidden``, ``opacity: 0``, ``font-size: 0``, a zero
height or width with ``overflow: hidden``, or Outlook's ``mso-hide: all``) is dropped
with everything inside it, so no orders can hide in a mail that the player never saw.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCK = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table",
          "ul", "ol", "hr", "section", "article", "header", "footer", "address"}
_SKIP = {"script", "style", "head", "title", "blockquote", "template", "object", "iframe",
         "svg", "math"}
_HIDING = re.compile(
    r"display\s*:\s*none|visibility\s*:\s*(hidden|collapse)|opacity\s*:\s*0*(\.0*)?\s*(;|!|$)"
    r"|font-size\s*:\s*0*(\.0*)?\s*(px|pt|em|rem|%)?\s*(;|!|$)|mso-hide\s*:\s*all", re.I)
_ZERO_BOX = re.compile(r"(max-)?(height|width)\s*:\s*0*(\.0*)?\s*(px|pt|em|rem|%)?\s*(;|!|$)", re.I)
_OVERFLOW_HIDDEN = re.compile(r"overflow\s*:\s*hidden", re.I)
_STYLE_BLOCK = re.compile(r"<style\b[^>]*>(.*?)(</style\s*>|$)", re.I | re.S)
_CSS_RULE = re.compile(r"([^{}]*)\{([^{}]*)\}")
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_SIMPLE_SELECTOR = re.compile(r"^[a-z0-9]*([.#])([A-Za-z0-9_-]+)$", re.I)


def hides(style: str) -> bool:
    """Whether a CSS declaration list makes its element invisible."""
    return bool(_HIDING.search(style) or (_ZERO_BOX.search(style)
                                          and _OVERFLOW_HIDDEN.search(style)))


def _hidden_selectors(html: str) -> tuple[set[str], set[str]]:
    """(classes, ids) that the document's ``<style>`` rules hide (simple selectors
    ``.name``, ``#name``, ``tag.name``; a rule hiding anything else is not understood
    and hides nothing here -- the rare miss shows text a client would not)."""
    classes: set[str] = set()
    ids: set[str] = set()
    for block in _STYLE_BLOCK.finditer(html[:1_000_000]):
        css = _CSS_COMMENT.sub("", block.group(1))
        for selectors, body in _CSS_RULE.findall(css):
            if not hides(body):
                continue
            for selector in selectors.split(","):
                m = _SIMPLE_SELECTOR.match(selector.strip())
                if m:
                    (classes if m.group(1) == "." else ids).add(m.group(2).lower())
    return classes, ids
_QUOTE_CLASSES = {"gmail_quote", "moz-cite-prefix", "yahoo_quoted", "protonmail_quote"}
_QUOTE_IDS = {"divrplyfwdmsg", "appendonsend", "mail-editor-reference-message-container"}
_VOID = {"br", "hr", "img", "meta", "link", "input", "area", "base", "col", "embed", "source",
         "track", "wbr"}


class _Converter(HTMLParser):
    def __init__(self, hidden_classes: set[str] = frozenset(), hidden_ids: set[str] = frozenset()):
        super().__init__(convert_charrefs=True)
        self.hidden_classes, self.hidden_ids = hidden_classes, hidden_ids
        self.out: list[str] = []
        self.stack: list[tuple[str, bool]] = []     # (tag, starts a skipped region)
        self.skipping = 0
        self.pre = 0

    def handle_starttag(self, tag, attrs_):
        attrs_ = dict(attrs_)
        classes = set((attrs_.get("class") or "").lower().split())
        ident = (attrs_.get("id") or "").lower()
        skip = (tag in _SKIP or bool(classes & (_QUOTE_CLASSES | self.hidden_classes))
                or ident in _QUOTE_IDS or ident in self.hidden_ids
                or "hidden" in attrs_ or hides(attrs_.get("style") or ""))
        if tag in _BLOCK and not self.skipping:
            self.out.append("\n")
        if tag == "pre":
            self.pre += 1
        if tag in _VOID:
            return
        self.stack.append((tag, skip))
        if skip:
            self.skipping += 1

    def handle_startendtag(self, tag, attrs_):
        if tag in _BLOCK and not self.skipping:
            self.out.append("\n")

    def handle_endtag(self, tag):
        if tag in _VOID:
            return
        # Close up to the matching tag (HTML in mail is often not well formed).
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                for _t, skip in self.stack[i:]:
                    if skip:
                        self.skipping -= 1
                del self.stack[i:]
                break
        if tag == "pre":
            self.pre = max(0, self.pre - 1)
        if tag in _BLOCK and not self.skipping:
            self.out.append("\n")

    def handle_data(self, data):
        if self.skipping:
            return
        if not self.pre:
            data = " ".join(data.replace("\r", " ").replace("\n", " ").split(" "))
        self.out.append(data)


def html_to_text(html: str) -> str:
    conv = _Converter(*_hidden_selectors(html))
    try:
        conv.feed(html)
        conv.close()
    except (AssertionError, ValueError):   # the parser gave up on broken markup
        pass
    lines = [" ".join(line.replace("\xa0", " ").split()) if not conv.pre else line
             for line in "".join(conv.out).split("\n")]
    text, blank = [], False
    for line in lines:
        if not line.strip():
            if text and not blank:
                text.append("")
            blank = True
            continue
        text.append(line)
        blank = False
    return "\n".join(text).strip("\n") + "\n"
