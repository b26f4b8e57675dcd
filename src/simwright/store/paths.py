"""Paths in the store: written relative to a root, read back absolute.

A run's directory is recorded relative to the *runs root* (``runs_dir``, by default
``<home>/runs``), a campaign's directory relative to the *campaigns root*
(``campaigns_dir``, by default ``<home>/campaigns``); paths inside a run (step
directories, artifacts) or a campaign (segments, restarts, archives, events) are
recorded relative to that run's or campaign's own directory. A home moved or copied
elsewhere (store and files together) therefore reads and resumes where it now lies.

Stores written before this rule hold absolute paths: :func:`from_stored` returns an
absolute path unchanged, so they are read as before. A path outside its root is
recorded absolute (nothing is lost, it just does not move with the home).

Standard library only: the quick SQLite reader (:mod:`simwright.store.reading`) uses it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from simwright.store.urls import sqlite_path


@dataclass(frozen=True)
class Roots:
    """The roots run and campaign directories are recorded against (None: record absolute)."""

    runs: Path | None = None
    campaigns: Path | None = None

    @classmethod
    def beside(cls, url: str) -> Roots:
        """The default roots of a store at ``url``: ``runs/`` and ``campaigns/`` beside a
        SQLite file (the home's layout); none for another database."""
        db = sqlite_path(url)
        if db is None:
            return cls()
        home = db.resolve().parent
        return cls(home / "runs", home / "campaigns")


def to_stored(path: str | Path, root: Path | None) -> str:
    """``path`` as recorded: relative (POSIX) to ``root`` when it lies inside it, else as given."""
    text = str(path)
    if root is None or not text:
        return text
    prefix = f"{root}/"
    if text.startswith(prefix) and "/../" not in text and "/./" not in text:
        return text[len(prefix) :]  # the common case, without pathlib (once per cycle)
    candidate = Path(text)
    if not candidate.is_absolute():
        return PurePosixPath(candidate).as_posix()
    if not candidate.is_relative_to(root):  # perhaps through a link: compare real paths
        root, candidate = root.resolve(), candidate.resolve()
        if not candidate.is_relative_to(root):
            return text
    return candidate.relative_to(root).as_posix() or "."


def from_stored(stored: str, root: Path | None) -> str:
    """A recorded path made absolute against ``root`` (an absolute one is returned as is)."""
    if not stored or root is None or Path(stored).is_absolute():
        return stored
    return str(root / stored)


def resolve(stored: str, root: Path) -> Path:
    """A recorded path as a :class:`~pathlib.Path` under ``root`` (absolute ones unchanged)."""
    return root / stored
