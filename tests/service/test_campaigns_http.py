"""Campaigns over real HTTP (``simwright serve``): scoped tokens, a review event approved
by a named reviewer, the campaign resumed by the service to its end.

The campaign is one synthetic state that relaxes too slowly: its budget is spent in two
instant segments and a CONVERGENCE_ANOMALY waits for a human.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from helpers.campaign import ESCALATING
from helpers.service import Server, free_port
from simwright.service.config import add_token


def _token(home: Path, name: str, *scopes: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {add_token(home, name, scopes)}"}


def wait_for(
    client: httpx.Client, url: str, done: Callable[[dict[str, Any]], bool], limit_s: float = 120
) -> dict[str, Any]:
    """GET ``url`` until ``done`` holds for its JSON (fails after ``limit_s``)."""
    deadline = time.monotonic() + limit_s
    while True:
        data = client.get(url).json()
        if done(data):
            return data
        assert time.monotonic() < deadline, f"gave up waiting on {url}: {data.get('status')}"
        time.sleep(0.3)


@pytest.fixture
def tokens(tmp_path: Path) -> Iterator[tuple[Server, dict[str, dict[str, str]]]]:
    home = tmp_path / "home"
    made = {
        "reader": _token(home, "reader", "read"),
        "operator": _token(home, "operator", "read", "run"),
        "reviewer": _token(home, "alice-reviewer", "read", "review"),
    }
    server = Server(home, free_port()).start()
    yield server, made
    server.stop()


def test_a_review_event_is_approved_by_a_named_reviewer(
    tokens: tuple[Server, dict[str, dict[str, str]]],
) -> None:
    server, t = tokens
    with httpx.Client(base_url=server.url, timeout=60) as c:
        assert (
            c.post("/campaigns", json={"spec": ESCALATING}, headers=t["reader"]).status_code == 403
        )
        bad = c.post("/campaigns", json={"spec_yaml": "name: x\n"}, headers=t["operator"])
        assert bad.status_code == 422 and "invalid campaign spec" in bad.json()["error"]
        plan = c.post("/campaigns?dry_run=true", json={"spec": ESCALATING}, headers=t["operator"])
        assert plan.json()["plan"]["totals"]["states"] == 1
        assert c.get("/campaigns", headers=t["reader"]).json()["campaigns"] == []

        created = c.post("/campaigns", json={"spec": ESCALATING}, headers=t["operator"])
        assert created.status_code == 201, created.text
        cid = created.json()["campaign_id"]
        url = f"/campaigns/{cid}"
        c.headers.update(t["reader"])
        status = wait_for(c, url, lambda d: d["status"] == "needs_review" and not d["advancing"])
        [[cell]] = status["grid"]["rows"]
        assert (cell["status"], cell["label"]) == ("needs_review", "needs review")
        trace = c.get(f"{url}/states/a/p50").json()
        assert [s["rule"] for s in trace["segments"]][-1] == "budget_exhausted"
        [event] = c.get(f"{url}/reviews").json()["events"]
        assert event["kind"] == "CONVERGENCE_ANOMALY" and event["evidence"]["state"]
        review = f"{url}/reviews/{event['event_id']}"

        assert c.post(f"{review}/approve", json={}).status_code == 403  # reader
        assert c.post(f"{review}/approve", json={}, headers=t["operator"]).status_code == 403
        refused = c.post(f"{review}/choose", json={"action": "retry"}, headers=t["reviewer"])
        assert refused.status_code == 422 and not refused.json()["valid"]
        assert "not allowed for CONVERGENCE_ANOMALY" in refused.json()["problems"][0]

        ok = c.post(f"{review}/approve", json={"rationale": "slow, but flat enough"},
                    headers=t["reviewer"])  # fmt: skip
        assert ok.status_code == 200 and ok.json()["reviewer"] == "alice-reviewer"
        again = c.post(f"{review}/reject", json={}, headers=t["reviewer"])
        assert again.status_code == 409  # resolved already

        done = wait_for(c, url, lambda d: d["status"] == "completed" and not d["advancing"])
        assert done["grid"]["rows"][0][0]["status"] == "archived"
        audit = c.get(f"{url}/actions").json()
        assert [(a["who"], a["action"]) for a in audit["actions"]][:2] == [
            ("operator", "create"),
            ("alice-reviewer", "decide"),
        ]
        decisions = [(d["reviewer"], d["action"], d["valid"]) for d in audit["decisions"]]
        assert decisions == [("alice-reviewer", "retry", False), ("alice-reviewer", "accept", True)]
        report = c.get(f"{url}/files/report/report.md")
        assert report.status_code == 200 and b"Campaign escalates" in report.content
        assert c.get(f"{url}/files/..%2F..%2Fconfig.toml").status_code in (403, 404)
        assert c.get(f"{url}/states/a/nope").status_code == 404
