"""The markdown body of a knowledge module as a tree of sections (## and ### headings)."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


class Section(BaseModel):
    """A heading, the text right under it, and its subsections.

    A root without a title has level 0; its text is whatever precedes the first
    heading.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: str
    level: int
    text: str
    children: tuple[Section, ...] = ()

    @property
    def slug(self) -> str:
        """The title in lower case with runs of non-alphanumerics as '-'."""
        return slugify(self.title)

    def child(self, name: str) -> Section | None:
        """The direct subsection whose title or slug is ``name`` (case-insensitive)."""
        key = slugify(name)
        return next((c for c in self.children if c.slug == key), None)

    def find(self, path: str) -> Section | None:
        """The section at ``path``: titles separated by '/', e.g. 'Production/Thermostat'."""
        node: Section | None = self
        for part in (p for p in path.split("/") if p.strip()):
            node = node.child(part) if node is not None else None
        return node

    def paths(self, prefix: str = "") -> list[str]:
        """The paths of all sections below this one, depth first."""
        out: list[str] = []
        for c in self.children:
            path = f"{prefix}{c.title}"
            out.append(path)
            out.extend(c.paths(path + "/"))
        return out

    def render(self) -> str:
        """Markdown of this section and its subsections."""
        head = f"{'#' * self.level} {self.title}\n\n" if self.level else ""
        parts = [head + self.text.strip()]
        parts.extend(c.render() for c in self.children)
        return "\n\n".join(p for p in parts if p.strip()).strip() + "\n"

    def plain_text(self) -> str:
        """Titles and text of this section and all below it, for indexing."""
        return "\n".join([self.title, self.text, *(c.plain_text() for c in self.children)])


def slugify(text: str) -> str:
    """Lower case with runs of characters other than letters and digits as '-'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def parse_sections(body: str) -> Section:
    """The section tree of a markdown ``body`` (headings in code fences are ignored).

    A body with one top-level ``#`` title and nothing before it has that title as its
    root, so that paths start at its ``##`` sections ('Production/Thermostat').
    """
    headings: list[tuple[int, str, list[str]]] = [(0, "", [])]
    in_fence = False
    for line in body.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
        m = None if in_fence else _HEADING.match(line)
        if m:
            headings.append((len(m.group(1)), m.group(2), []))
        else:
            headings[-1][2].append(line)
    root = _nest(headings)
    if not root.text and len(root.children) == 1 and root.children[0].level == 1:
        return root.children[0]
    return root


def _nest(flat: list[tuple[int, str, list[str]]]) -> Section:
    """Build the tree from headings in document order (a deeper heading nests)."""
    stack: list[tuple[int, str, str, list[Section]]] = []

    def close() -> None:
        level, title, text, kids = stack.pop()
        stack[-1][3].append(Section(title=title, level=level, text=text, children=tuple(kids)))

    for level, title, lines in flat:
        while stack and stack[-1][0] >= level and level > 0:
            close()
        stack.append((level, title, "\n".join(lines).strip(), []))
    while len(stack) > 1:
        close()
    level, title, text, kids = stack[0]
    return Section(title=title, level=level, text=text, children=tuple(kids))
