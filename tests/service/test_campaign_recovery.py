"""Which marked campaigns a starting service resumes (``service/campaign_recovery.py``), on
a real store with the synthetic engine: an interrupted one is resumed and recorded with
who and why; one waiting for a review, one held by another process and an unknown one
are forgotten."""

from __future__ import annotations

import time
from pathlib import Path

from helpers.campaign import ESCALATING, SYNTHETIC
from simwright.api import Campaigns
from simwright.campaign.lock import campaign_lock
from simwright.service.campaign_jobs import CampaignLauncher
from simwright.service.campaign_recovery import REASON, Recovery, resume_interrupted
from simwright.settings import Settings
from simwright.store import Store


def test_only_interrupted_campaigns_are_resumed(settings: Settings, store: Store) -> None:
    campaigns = Campaigns(settings, store)
    waiting = campaigns.create(ESCALATING, who="alice")
    assert campaigns.run(waiting, who="alice", report=False).status == "needs_review"
    interrupted = campaigns.create(SYNTHETIC, who="alice")
    campaigns.cstore.set_campaign_status(interrupted, "running")  # as a killed process left it
    held = campaigns.create(SYNTHETIC | {"name": "held"}, who="alice")
    campaigns.cstore.set_campaign_status(held, "running")
    markers = settings.home / "service" / "campaigns"
    markers.mkdir(parents=True)
    for cid in (waiting, interrupted, held, "gone-20260101-000000-abcdef"):
        (markers / cid).write_text(cid)

    started: list[str] = []

    def argv(campaign_id: str) -> list[str]:
        started.append(campaign_id)
        return ["sleep", "60"]  # stands for the process advancing it

    launcher = CampaignLauncher(argv, state_dir=markers)
    ticks = iter(range(1000))
    recovery = Recovery(wait_s=3, clock=lambda: float(next(ticks)), sleep=lambda _s: None)
    try:
        with campaign_lock(Path(campaigns.campaign(held).workdir)):  # another process's
            assert resume_interrupted(campaigns, launcher, recovery) == [interrupted]
        deadline = time.monotonic() + 60
        while not started and time.monotonic() < deadline:
            time.sleep(0.05)  # the launcher's thread starts the process
    finally:
        launcher.stop()
    assert started == [interrupted]
    assert sorted(p.name for p in markers.iterdir()) == [interrupted]  # kept: stopped, not ended
    [entry] = [a for a in campaigns.actions(interrupted) if a["who"] == "service"]
    assert (entry["action"], entry["reason"]) == ("resume", REASON)
    assert all(a["who"] == "alice" for a in campaigns.actions(held) + campaigns.actions(waiting))
