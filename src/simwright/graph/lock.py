"""The lock of a run directory: one process advances a run at a time, and a run whose
lock nobody holds is not running, whatever its record says.

The lock is an ``flock`` on ``<run_dir>/.lock``; the kernel releases it when its process
dies, even by SIGKILL, so a killed run can be resumed at once and shows as
``interrupted`` (:func:`live_status`) instead of ``running`` forever.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path

from simwright.errors import StoreError
from simwright.locks import exclusive_lock, is_locked

LOCK_NAME = ".lock"
_TRIES = 20
_PAUSE_S = 0.05


def run_lock(run_dir: Path) -> AbstractContextManager[None]:
    """Hold the exclusive lock of the run in ``run_dir`` (created if missing).

    Raises :class:`StoreError` when another process holds it. A reader probing the lock
    (:func:`lock_held`) holds it for an instant, so a busy lock is tried a few times.
    """
    return exclusive_lock(
        run_dir / LOCK_NAME,
        busy=lambda: StoreError(f"run {run_dir.name} is being executed by another process"),
        tries=_TRIES,
        pause_s=_PAUSE_S,
    )


def lock_held(run_dir: Path) -> bool:
    """True while some process holds the lock of the run in ``run_dir`` (creates nothing)."""
    return is_locked(run_dir / LOCK_NAME)


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
