"""HTML mail to plain text, enough to read orders typed into an HTML mail client.

Block elements and ``<br>`` become line breaks, entities are decoded, ``<script>``,
``<style>`` and ``<head>`` are dropped, and so is quoted history: ``<blockquote>`` and
the quote containers of the common clients (Gmail's ``gmail_quote``, Thunderbird's
``moz-cite-prefix``, Outlook's ``divRplyFwdMsg`` / ``appendonsend``).
"""

from __future__ import annotations

from html.parser import HTMLParser

_BLOCK = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table",
          "ul", "ol", "hr", "section", "article", "header", "footer", "address"}
_SKIP = {"script", "style", "head", "title", "blockquote"}
_QUOTE_CLASSES = {"gmail_quote", "moz-cite-prefix", "yahoo_quoted", "protonmail_quote"}
_QUOTE_IDS = {"divrplyfwdmsg", "appendonsend", "mail-editor-reference-message-container"}
_VOID = {"br", "hr", "img", "meta", "link", "input", "area", "base", "col", "embed", "source",
         "track", "wbr"}


class _Converter(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.stack: list[tuple[str, bool]] = []     # (tag, starts a skipped region)
        self.skipping = 0
        self.pre = 0

    def handle_starttag(self, tag, attrs_):
        attrs_ = dict(attrs_)
        classes = set((attrs_.get("class") or "").lower().split())
        skip = (tag in _SKIP or bool(classes & _QUOTE_CLASSES)
                or (attrs_.get("id") or "").lower() in _QUOTE_IDS)
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
    conv = _Converter()
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
