"""An exclusive lock on a campaign directory: one process advances a campaign at a time."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from simwright.campaign.status import CampaignError

LOCK_NAME = ".lock"


@contextmanager
def campaign_lock(directory: Path) -> Iterator[None]:
    """Hold an exclusive, non-blocking ``flock`` on ``directory/.lock``.

    Raises :class:`CampaignError` when another process holds it. The lock dies
    with its process, so a campaign killed with SIGKILL can be resumed at once.
    """
    directory.mkdir(parents=True, exist_ok=True)
    with (directory / LOCK_NAME).open("a+") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise CampaignError(
                f"campaign {directory.name} is being advanced by another process"
            ) from exc
        fh.seek(0)
        fh.truncate()
        fh.write(str(os.getpid()))
        fh.flush()
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def is_locked(directory: Path) -> bool:
    """True while some process holds the lock of the campaign in ``directory``."""
    path = directory / LOCK_NAME
    if not path.exists():
        return False
    with path.open("a+") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fh, fcntl.LOCK_UN)
    return False
