"""Read a page of the LAMMPS manual's reStructuredText sources (``doc/src/*.rst``).

A small line-based reader, enough for the manual's conventions: titles underlined with
``=``, sections underlined with another punctuation character, code in
``.. code-block::`` / ``.. parsed-literal::`` directives or after ``::``. It produces
the same blocks as the HTML reader, so both share :func:`page_from_blocks`.
"""

from __future__ import annotations

import re
from pathlib import Path

from simwright.knowledge.docs.html import Block, page_from_blocks
from simwright.knowledge.docs.retrieval import DocPage

_UNDERLINE = re.compile(r"^([=\-\"'~^*+#`:.])\1{2,}\s*$")
_CODE = re.compile(r"^\s*\.\.\s+(code-block|parsed-literal|code|sourcecode)::")
_DIRECTIVE = re.compile(r"^\s*\.\.(\s|$)")
_ITEM = re.compile(r"^\s*([*+-]|#\.|\d+\.)\s+")
_DOC_ROLE = re.compile(r":doc:`(?:[^`<]*<)?([^`<>]+?)>?`")
_INLINE = (
    (re.compile(r":[\w-]+:`([^`<]*?)\s*(?:<[^>]*>)?`"), r"\1"),  # :doc:`text <target>`
    (re.compile(r"``([^`]+)``"), r"\1"),
    (re.compile(r"`([^`<]+?)\s*(?:<[^>]*>)?`_{1,2}"), r"\1"),  # `text <url>`_
    (re.compile(r"\*\*([^*]+)\*\*"), r"\1"),
    (re.compile(r"\*([^*\s][^*]*)\*"), r"\1"),
    (re.compile(r"\\ "), ""),
    (re.compile(r"\\(.)"), r"\1"),
    (re.compile(r"\s+"), " "),
)


def plain(text: str) -> str:
    """Inline reStructuredText markup reduced to its words."""
    for pattern, repl in _INLINE:
        text = pattern.sub(repl, text)
    return text.strip()


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _block_end(lines: list[str], start: int, indent: int) -> int:
    """Index after the indented block that follows ``start`` (deeper than ``indent``)."""
    i = start
    while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > indent):
        i += 1
    return i


def _dedent(lines: list[str]) -> str:
    body = [ln for ln in lines if ln.strip()]
    cut = min((_indent(ln) for ln in body), default=0)
    return "\n".join(ln[cut:].rstrip() for ln in lines).strip("\n")


def _is_heading(lines: list[str], i: int) -> bool:
    nxt = lines[i + 1] if i + 1 < len(lines) else ""
    text = lines[i].rstrip()
    return bool(text and not text[0].isspace() and _UNDERLINE.match(nxt)) and (
        len(nxt.rstrip()) >= len(text)
    )


def parse_rst_blocks(text: str) -> list[Block]:
    """The page as blocks: ``h1`` (``=`` titles), ``h2``, ``p``, ``li`` and ``pre``."""
    lines = text.splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip() or _UNDERLINE.match(line):
            i += 1
        elif _is_heading(lines, i):
            kind = "h1" if lines[i + 1].lstrip()[0] == "=" else "h2"
            blocks.append(Block(kind, plain(line)))
            i += 2
        elif _CODE.match(line):
            end = _block_end(lines, i + 1, _indent(line))
            blocks.append(Block("pre", plain_code(_dedent(lines[i + 1 : end]))))
            i = end
        elif _DIRECTIVE.match(line):
            i = _block_end(lines, i + 1, _indent(line))
        else:
            i = _paragraph(lines, i, blocks)
    return [b for b in blocks if b.text]


def _paragraph(lines: list[str], i: int, blocks: list[Block]) -> int:
    start = i
    i += 1
    while i < len(lines) and lines[i].strip() and not _ITEM.match(lines[i]):
        if _is_heading(lines, i) or _DIRECTIVE.match(lines[i]):
            break
        i += 1
    raw = " ".join(ln.strip() for ln in lines[start:i])
    kind = "li" if _ITEM.match(lines[start]) else "p"
    text = plain(_ITEM.sub("", raw, count=1) if kind == "li" else raw)
    literal = text.endswith("::")  # "text::" introduces a literal block
    blocks.append(Block(kind, text[:-1] if literal else text))
    if literal:
        end = _block_end(lines, i, _indent(lines[start]))
        blocks.append(Block("pre", plain_code(_dedent(lines[i:end]))))
        i = end
    return i


def rst_links(text: str) -> set[str]:
    """Names of the pages that ``:doc:`` roles in ``text`` point to."""
    return {m.group(1).rsplit("/", 1)[-1] for m in _DOC_ROLE.finditer(text)}


def plain_code(text: str) -> str:
    """Code with the emphasis marks of ``parsed-literal`` blocks removed."""
    return re.sub(r"\*([^*\s][^*]*)\*", r"\1", text)


def read_rst_page(path: Path) -> DocPage:
    """The :class:`DocPage` of one ``.rst`` file; its page name is the file stem."""
    text = path.read_text(encoding="utf-8", errors="replace")
    return page_from_blocks(path.stem, parse_rst_blocks(text), str(path), rst_links(text))
