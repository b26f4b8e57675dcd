"""Exclusive advisory locks on a lock file: one process advances a run or a campaign at a time.

The lock is an ``flock`` on an open file, so it dies with its process: a run or a
campaign killed with SIGKILL can be resumed at once. The holder's process id is
written into the file for people who look.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from simwright.errors import StoreError

RUN_LOCK_NAME = ".lock"
"""The lock file in a run directory."""


@contextmanager
def exclusive_lock(path: Path, busy: Callable[[], Exception]) -> Iterator[None]:
    """Hold an exclusive, non-blocking ``flock`` on ``path`` (created if missing).

    When another process holds it, the exception made by ``busy()`` is raised
    (each caller names what is busy in its own error type).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise busy() from exc
        fh.seek(0)
        fh.truncate()
        fh.write(str(os.getpid()))
        fh.flush()
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def run_lock(run_dir: Path) -> AbstractContextManager[None]:
    """The lock of a run directory: one process advances a run (graph or agent) at a time.

    Raises :class:`~simwright.errors.StoreError` when another process holds it.
    """
    return exclusive_lock(
        run_dir / RUN_LOCK_NAME,
        busy=lambda: StoreError(f"run {run_dir.name} is being executed by another process"),
    )


def is_locked(path: Path) -> bool:
    """True while some process holds the lock on ``path``."""
    if not path.exists():
        return False
    with path.open("a+") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fh, fcntl.LOCK_UN)
    return False
