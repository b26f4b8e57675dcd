"""Campaigns a previous service was advancing when it stopped or died: resumed at start.

The service advances campaigns in processes that die with it
(:mod:`simwright.service.campaign_jobs`); each leaves a marker while it runs, kept when
the service stops or is killed. When ``simwright serve`` starts, :func:`resume_interrupted`
looks at each marked campaign: a finished one (completed, failed) or one waiting for a
review is forgotten; one still held by a process (the previous one still dying, or a
command line advancing it) is waited for a while and left to it if it does not let go;
any other is advanced again, recorded in the campaign's audit trail with who (the
service) and why.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from simwright.api.campaigns import Campaigns
from simwright.api.errors import NotFound
from simwright.service.campaign_jobs import CampaignLauncher

WHO: Final = "service"
"""Who resumes a campaign after a restart, in its audit trail."""

REASON: Final = (
    "the service restarted while advancing this campaign; "
    "its process had ended with the previous service"
)
SETTLED: Final = frozenset({"completed", "failed", "needs_review"})
"""Statuses with nothing to advance (a review needs a human first)."""


@dataclass(frozen=True)
class Recovery:
    """How long a campaign still held by a process is waited for."""

    wait_s: float = 15.0
    poll_s: float = 0.2
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep


def resume_interrupted(
    campaigns: Campaigns, launcher: CampaignLauncher, recovery: Recovery = Recovery()
) -> list[str]:
    """Advance again the campaigns the previous service was advancing; their ids."""
    resumed = []
    for campaign_id in launcher.marked():
        if _resumable(campaigns, campaign_id, recovery):
            campaigns.record(campaign_id, WHO, "resume", {"reason": REASON})
            launcher.launch(campaign_id)
            resumed.append(campaign_id)
        else:
            launcher.forget(campaign_id)
    return resumed


def _resumable(campaigns: Campaigns, campaign_id: str, recovery: Recovery) -> bool:
    try:
        row = campaigns.campaign(campaign_id)
    except NotFound:
        return False
    if row.status in SETTLED:
        return False
    deadline = recovery.clock() + recovery.wait_s
    while campaigns.advancing(row.id):
        if recovery.clock() >= deadline:
            return False  # another process advances it: leave it to that one
        recovery.sleep(recovery.poll_s)
    return campaigns.campaign(row.id).status not in SETTLED
