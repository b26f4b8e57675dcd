"""Exclusive advisory locks on a lock file: one process advances a run or a campaign at a time.

The lock is an ``flock`` on an open file, so it dies with its process: a run or a
campaign killed with SIGKILL can be resumed at once. The holder's process id is
written into the file for people who look. :mod:`simwright.graph.lock` (runs) and
:mod:`simwright.campaign.lock` (campaigns) are built on the first two functions;
:func:`waiting_lock` serialises the store's schema migrations.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def exclusive_lock(
    path: Path, busy: Callable[[], Exception], *, tries: int = 1, pause_s: float = 0.05
) -> Iterator[None]:
    """Hold an exclusive, non-blocking ``flock`` on ``path`` (created if missing).

    A lock held by another process is tried ``tries`` times, ``pause_s`` apart (a
    reader probing with :func:`is_locked` holds it for an instant); then the exception
    made by ``busy()`` is raised (each caller names what is busy in its own error type).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+") as fh:
        for attempt in range(tries):
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError as exc:
                if attempt == tries - 1:
                    raise busy() from exc
                time.sleep(pause_s)
        fh.seek(0)
        fh.truncate()
        fh.write(str(os.getpid()))
        fh.flush()
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def is_locked(path: Path) -> bool:
    """True while some process holds the lock on ``path`` (creates nothing)."""
    try:
        fh = path.open("rb")
    except OSError:
        return False
    with fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fh, fcntl.LOCK_UN)
    return False


@contextmanager
def waiting_lock(path: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path``, waiting for as long as another process
    holds it (the first of several commands started at once on a new store migrates
    it; the others wait, then find it migrated)."""
    with path.open("a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
