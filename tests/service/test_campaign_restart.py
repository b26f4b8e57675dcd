"""A campaign interrupted by the service's death resumes when the service starts again.

A real ``simwright serve`` advances a synthetic campaign (one system, two pressures,
each segment taking a fraction of a second); the service is killed (SIGKILL: its
campaign process dies with it) once a segment is stored, a new service starts on the
same home, and the campaign completes, its resumption recorded with who and why.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from helpers.campaign import SYNTHETIC, merged
from helpers.service import Server, free_port
from simwright.api import Campaigns, Simwright
from simwright.service.campaign_recovery import REASON
from simwright.settings import Settings

SLOW = merged(
    SYNTHETIC,
    {
        "name": "restarted",
        "systems": [{"name": "a", "parameters": {"capacity": 100.0}}],
        "conditions": [
            {"name": "p50", "pressure_bar": 50.0},
            {"name": "p10", "pressure_bar": 10.0},
        ],
        "segment": {"parameters": {"segment_wall_s": 0.3}},
    },
)
"""Two states of a few segments each, every segment taking 0.3 s of wall time."""


def until(check: Callable[[], bool], what: str, limit_s: float = 120) -> None:
    """Wait until ``check()`` holds (fails, naming ``what``, after ``limit_s``)."""
    deadline = time.monotonic() + limit_s
    while not check():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.1)


@pytest.mark.slow
def test_a_campaign_killed_with_the_service_resumes_when_it_starts_again(tmp_path: Path) -> None:
    home = tmp_path / "home"
    first = Server(home, free_port()).start()
    try:
        created = httpx.post(f"{first.url}/campaigns", json={"spec": SLOW}, timeout=60)
        assert created.status_code == 201, created.text
        cid = created.json()["campaign_id"]
        api = Simwright(Settings(home=home, threads=1))
        campaigns = Campaigns(api.settings, api.store)

        def a_segment_is_stored() -> bool:
            segments = campaigns.trace(cid, "a", "p50")["segments"]
            return any(s["status"] == "completed" for s in segments)

        until(a_segment_is_stored, "the first segment")
    finally:
        first.kill()
    until(lambda: not campaigns.advancing(cid), "the campaign's process to die")
    assert campaigns.status(cid)["status"] == "interrupted"  # recorded running, lock free
    assert (home / "service" / "campaigns" / cid).is_file()  # the service was advancing it

    marker = home / "service" / "campaigns" / cid
    second = Server(home, free_port()).start()
    try:
        until(lambda: campaigns.status(cid)["status"] == "completed", "the campaign to complete")
        until(lambda: not marker.exists(), "its process to end by itself (marker removed)")
    finally:
        second.stop()
    grid = campaigns.grid(cid).to_json()
    assert [c["status"] for c in grid["rows"][0]] == ["archived", "archived"]
    resumed = [a for a in campaigns.actions(cid) if a["who"] == "service"]
    assert [(a["action"], a["reason"]) for a in resumed] == [("resume", REASON)]
    api.close()
