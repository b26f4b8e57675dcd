"""A small, safe Markdown renderer for run reports (``report.md``) in the dashboard.

Covers what simwright's reports use: headings, paragraphs, lists, pipe tables,
fenced code, inline code, bold, italics, links and images. Every piece of text is
HTML-escaped before any markup is added, so raw HTML in a report is shown as text;
links keep only ``http(s)``, ``mailto`` and relative targets, and images only
relative paths (resolved against ``image_base``, the run's file route).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from typing import Final

_FENCE: Final = re.compile(r"^\s*(```|~~~)")
_HEADING: Final = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET: Final = re.compile(r"^\s*[-*+]\s+(.*)$")
_NUMBERED: Final = re.compile(r"^\s*\d+[.)]\s+(.*)$")
_TABLE_RULE: Final = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_IMAGE: Final = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
_LINK: Final = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_CODE: Final = re.compile(r"`([^`]+)`")
_BOLD: Final = re.compile(r"\*\*(.+?)\*\*")
_ITALIC: Final = re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])")
_SAFE_LINK: Final = re.compile(r"^(https?://|mailto:|#|[A-Za-z0-9_./-])")
_SAFE_PATH: Final = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_./-]*$")


def render(text: str, image_base: str = "") -> str:
    """``text`` (Markdown) as HTML with every piece of text escaped."""
    return "\n".join(_blocks(text.splitlines(), image_base))


def _blocks(lines: list[str], base: str) -> Iterator[str]:
    i = 0

    def inline(s: str) -> str:
        return _inline(s, base)

    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif _FENCE.match(line):
            end = next((j for j in range(i + 1, len(lines)) if _FENCE.match(lines[j])), len(lines))
            code = html.escape("\n".join(lines[i + 1 : end]))
            yield f"<pre><code>{code}</code></pre>"
            i = end + 1
        elif m := _HEADING.match(line):
            level = len(m.group(1))
            yield f"<h{level}>{inline(m.group(2))}</h{level}>"
            i += 1
        elif _is_table(lines, i):
            end = _run(lines, i, lambda s: s.strip().startswith("|"))
            yield _table(lines[i:end], inline)
            i = end
        elif _BULLET.match(line) or _NUMBERED.match(line):
            pattern = _BULLET if _BULLET.match(line) else _NUMBERED
            end = _run(lines, i, pattern.match)
            tag = "ul" if pattern is _BULLET else "ol"
            items = "".join(f"<li>{inline(_item(pattern, s))}</li>" for s in lines[i:end])
            yield f"<{tag}>{items}</{tag}>"
            i = end
        else:
            end = _run(lines, i, lambda s: bool(s.strip()) and not _starts_block(s))
            end = max(end, i + 1)
            yield f"<p>{inline(' '.join(s.strip() for s in lines[i:end]))}</p>"
            i = end


def _item(pattern: re.Pattern[str], line: str) -> str:
    m = pattern.match(line)
    return m.group(1) if m else line


def _starts_block(line: str) -> bool:
    return bool(
        _FENCE.match(line)
        or _HEADING.match(line)
        or _BULLET.match(line)
        or _NUMBERED.match(line)
        or line.strip().startswith("|")
    )


def _run(lines: list[str], start: int, keep: Callable[[str], object]) -> int:
    end = start
    while end < len(lines) and bool(keep(lines[end])):
        end += 1
    return end


def _is_table(lines: list[str], i: int) -> bool:
    return (
        lines[i].strip().startswith("|")
        and i + 1 < len(lines)
        and bool(_TABLE_RULE.match(lines[i + 1]))
    )


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _table(lines: list[str], inline: Callable[[str], str]) -> str:
    head = "".join(f'<th scope="col">{inline(c)}</th>' for c in _cells(lines[0]))
    body = "".join(
        "<tr>" + "".join(f"<td>{inline(c)}</td>" for c in _cells(row)) + "</tr>"
        for row in lines[2:]
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _inline(text: str, base: str) -> str:
    """Escape ``text``, then add the inline markup (code spans are left alone)."""
    parts = _CODE.split(text)
    out = []
    for n, part in enumerate(parts):
        if n % 2:
            out.append(f"<code>{html.escape(part)}</code>")
            continue
        s = html.escape(part, quote=True)
        s = _IMAGE.sub(lambda m: _image(m, base), s)
        s = _LINK.sub(_link, s)
        s = _BOLD.sub(r"<strong>\1</strong>", s)
        s = _ITALIC.sub(r"<em>\1</em>", s)
        out.append(s)
    return "".join(out)


def _image(m: re.Match[str], base: str) -> str:
    alt, src = m.group(1), html.unescape(m.group(2))
    if not _SAFE_PATH.match(src) or ".." in src.split("/"):
        return f"[image: {alt}]"
    return f'<img src="{html.escape(base + src)}" alt="{alt}" loading="lazy">'


def _link(m: re.Match[str]) -> str:
    label, target = m.group(1), html.unescape(m.group(2))
    head = target.split("/", 1)[0]
    scheme = head.split(":", 1)[0].lower() if ":" in head else ""
    if scheme not in ("", "http", "https", "mailto") or not _SAFE_LINK.match(target):
        return label
    return f'<a href="{html.escape(target)}" rel="noopener noreferrer">{label}</a>'
