"""Read a page of the LAMMPS HTML manual (Sphinx output) into a :class:`DocPage`.

Only the standard library's :class:`html.parser.HTMLParser` is used. The parser turns
the page body (from the first ``<h1>`` to the footer) into a flat list of blocks:
headings, paragraphs and preformatted code; :func:`page_from_blocks` then picks the
title (every ``<h1>``), the first paragraph of the Description section and the code
of the Syntax section.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from simwright.knowledge.docs.retrieval import DocPage

_SPACES = re.compile(r"\s+")
_LOCAL_LINK = re.compile(r"^([\w.\-]+)\.html(?:#.*)?$")  # another page of the same manual
_ICONS = re.compile("[\ue000-\uf8ff]")  # private-use characters of icon fonts
_BLOCKS = {"h1": "h1", "h2": "h2", "h3": "h2", "p": "p", "pre": "pre"}
_SKIP = {"script", "style"}
MAX_SYNTAX_CHARS = 2000


@dataclass(frozen=True)
class Block:
    """A piece of a page: kind (h1, h2, p, pre) and its text."""

    kind: str
    text: str


class _BlockParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[Block] = []
        self._kind: str | None = None
        self._depth = 0  # nesting of the open block's own tag
        self._buf: list[str] = []
        self._skip = 0
        self._started = False
        self._ended = False
        self.links: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self._skip += 1
        elif tag == "footer" or ("role", "contentinfo") in attrs:
            self._ended = True
        elif tag == "h1":
            self._started = True
        elif tag == "a" and self._started and not self._ended:
            self._link(dict(attrs).get("href") or "")
        if self._kind is None and tag in _BLOCKS:
            self._kind, self._depth, self._buf = _BLOCKS[tag], 1, []
        elif self._kind is not None and _BLOCKS.get(tag) == self._kind:
            self._depth += 1

    def _link(self, href: str) -> None:
        if m := _LOCAL_LINK.match(href):
            self.links.add(m.group(1))

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self._skip = max(0, self._skip - 1)
            return
        if self._kind is None or _BLOCKS.get(tag) != self._kind:
            return
        self._depth -= 1
        if self._depth == 0:
            self._close()

    def handle_data(self, data: str) -> None:
        if self._kind is not None and not self._skip:
            self._buf.append(data)

    def _close(self) -> None:
        raw = "".join(self._buf)
        text = raw.strip("\n") if self._kind == "pre" else _clean(raw)
        if self._started and not self._ended and text:
            self.blocks.append(Block(self._kind or "p", text))
        self._kind, self._buf = None, []


def _clean(text: str) -> str:
    """Collapse spaces; drop the heading-link marks (``¶``, icon-font characters)."""
    text = _SPACES.sub(" ", _ICONS.sub("", text)).strip()
    return text.removesuffix("¶").strip()


def parse_page(html: str) -> tuple[list[Block], set[str]]:
    """The body of an HTML page as blocks (from its first ``<h1>`` to its footer), and the
    names of the manual's pages it links to."""
    parser = _BlockParser()
    start = html.find("<h1")  # skip the navigation that precedes the body
    parser.feed(html[start:] if start >= 0 else html)
    parser.close()
    return parser.blocks, parser.links


def _is_aside(text: str) -> bool:
    return text.startswith("Accelerator Variant")


def page_from_blocks(
    name: str, blocks: list[Block], source: str = "", links: Iterable[str] = ()
) -> DocPage:
    """Title (all ``<h1>``), Description's first paragraph and the Syntax code of a page.

    A page without a Description section is described by its first paragraph.
    """
    titles = [b.text for b in blocks if b.kind == "h1"]
    section = ""
    syntax: list[str] = []
    first_p = described = ""
    for b in blocks:
        if b.kind in ("h1", "h2"):
            section = b.text.strip().lower() if b.kind == "h2" else ""
        elif b.kind == "pre" and section == "syntax":
            syntax.append(b.text)
        elif b.kind == "p" and not _is_aside(b.text):
            if section == "description" and not described:
                described = b.text
            elif section not in ("syntax", "examples") and not first_p:
                first_p = b.text
    code = "\n".join(syntax)[:MAX_SYNTAX_CHARS]
    title = ", ".join(dict.fromkeys(titles)) or name
    others = tuple(sorted(set(links) - {name}))
    return DocPage(name, title, described or first_p, code, source, others)


def read_html_page(path: Path) -> DocPage:
    """The :class:`DocPage` of one HTML file; its page name is the file stem."""
    blocks, links = parse_page(path.read_text(encoding="utf-8", errors="replace"))
    return page_from_blocks(path.stem, blocks, str(path), links)
