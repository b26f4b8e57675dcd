"""An exclusive lock on a campaign directory: one process advances a campaign at a time."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path

from simwright import locks
from simwright.campaign.status import CampaignError

LOCK_NAME = ".lock"


def campaign_lock(directory: Path) -> AbstractContextManager[None]:
    """Hold an exclusive, non-blocking ``flock`` on ``directory/.lock``.

    Raises :class:`CampaignError` when another process holds it. The lock dies
    with its process, so a campaign killed with SIGKILL can be resumed at once.
    """
    return locks.exclusive_lock(
        directory / LOCK_NAME,
        busy=lambda: CampaignError(
            f"campaign {directory.name} is being advanced by another process"
        ),
    )


def is_locked(directory: Path) -> bool:
    """True while some process holds the lock of the campaign in ``directory``."""
    return locks.is_locked(directory / LOCK_NAME)
