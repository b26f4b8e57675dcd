"""Pages of the dashboard's lists (runs, campaigns): ``limit``/``offset`` and the links.

A list asks for one row more than it shows, to know whether an older page exists; the
links keep the page's other query parameters (a status filter).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Final, TypeVar
from urllib.parse import urlencode

from fastapi import Query

DEFAULT_LIMIT: Final = 50
MAX_LIMIT: Final = 200

Limit = Annotated[int, Query(ge=1, le=MAX_LIMIT)]
Offset = Annotated[int, Query(ge=0, le=10**9)]

T = TypeVar("T")


@dataclass(frozen=True)
class Pager:
    """Where a page of a list starts, how many it shows, and the links to its neighbours."""

    path: str
    limit: int
    offset: int
    shown: int
    more: bool
    """True when an older page exists."""
    keep: Mapping[str, str] = field(default_factory=dict)
    """Other query parameters the links carry."""

    def href(self, offset: int) -> str:
        """The link to the page starting at ``offset``."""
        query = {**self.keep, "limit": str(self.limit), "offset": str(max(0, offset))}
        return f"{self.path}?{urlencode(query)}"

    @property
    def newer(self) -> str | None:
        """The previous (newer) page, or None on the first."""
        return self.href(self.offset - self.limit) if self.offset > 0 else None

    @property
    def older(self) -> str | None:
        """The next (older) page, or None on the last."""
        return self.href(self.offset + self.limit) if self.more else None

    @property
    def first(self) -> int:
        """The 1-based number of the page's first row."""
        return self.offset + 1 if self.shown else self.offset

    @property
    def last(self) -> int:
        """The 1-based number of the page's last row."""
        return self.offset + self.shown


def page_of(
    rows: Sequence[T],
    path: str,
    limit: int,
    offset: int,
    keep: Mapping[str, str | None] | None = None,
) -> tuple[list[T], Pager]:
    """The first ``limit`` of ``rows`` (fetched with one more) and the page's pager."""
    shown = list(rows[:limit])
    kept = {k: v for k, v in (keep or {}).items() if v}
    return shown, Pager(path, limit, offset, len(shown), len(rows) > limit, kept)
