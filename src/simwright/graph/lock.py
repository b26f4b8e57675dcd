"""The lock of a run directory: one process advances a run at a time, and a run whose
lock nobody holds is not running, whatever its record says.

The lock is an ``flock`` on ``<run_dir>/.lock``; the kernel releases it when its process
dies, even by SIGKILL, so a killed run can be resumed at once and shows as
``interrupted`` (:func:`live_status`) instead of ``running`` forever.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from simwright.errors import StoreError

LOCK_NAME = ".lock"
_TRIES = 20
_PAUSE_S = 0.05


@contextmanager
def run_lock(run_dir: Path) -> Iterator[None]:
    """Hold the exclusive lock of the run in ``run_dir`` (created if missing).

    Raises :class:`StoreError` when another process holds it. A reader probing the lock
    (:func:`lock_held`) holds it for an instant, so a busy lock is tried a few times.
    """
    run_dir.mkdir(parents=True, exist_ok=True)
    with (run_dir / LOCK_NAME).open("a+") as fh:
        for attempt in range(_TRIES):
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError as exc:
                if attempt == _TRIES - 1:
                    raise StoreError(
                        f"run {run_dir.name} is being executed by another process"
                    ) from exc
                time.sleep(_PAUSE_S)
        fh.seek(0)
        fh.truncate()
        fh.write(str(os.getpid()))
        fh.flush()
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def lock_held(run_dir: Path) -> bool:
    """True while some process holds the lock of the run in ``run_dir`` (creates nothing)."""
    try:
        fh = (run_dir / LOCK_NAME).open("rb")
    except OSError:
        return False
    with fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fh, fcntl.LOCK_UN)
    return False


def live_status(status: str, run_dir: Path) -> str:
    """A run's status as it is now: ``running`` only while a process holds its lock."""
    if status == "running" and not lock_held(run_dir):
        return "interrupted"
    return status


def live_step_status(step_status: str, run_is_live: bool) -> str:
    """A step attempt's status as it is now: a ``running`` attempt of a run that no
    process holds was killed."""
    if step_status == "running" and not run_is_live:
        return "killed"
    return step_status
