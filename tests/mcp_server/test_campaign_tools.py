"""The campaign tools through an SDK client, on a real store and a synthetic campaign
that escalates: one state relaxes too slowly, its budget is spent in two instant
segments and a CONVERGENCE_ANOMALY waits for a human.

In-process the client lists the campaign, reads its grid, the state's trace and the
review queue with the evidence, has a decision the validation refuses come back as a
tool error (the event stays open), and approves; the decision is recorded with who took
it. Over HTTP (``simwright mcp --transport http``) a token without the scope ``review``
cannot decide, and a reviewer's rejection is recorded under its token's name.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult

from helpers.campaign import ESCALATING
from helpers.mcp import McpHttp
from simwright.api import Campaigns, Simwright
from simwright.mcp_server.runs import Limits
from simwright.mcp_server.server import Access, build_server, make_tools
from simwright.service.config import add_token
from simwright.settings import Settings


@pytest.fixture
def api(tmp_path: Path) -> Any:
    a = Simwright(Settings(home=tmp_path / "home", threads=1))
    yield a
    a.close()


def needs_review(api: Simwright) -> str:
    """A campaign advanced until its one state waits for a human; its id."""
    campaigns = Campaigns(api.settings, api.store)
    campaign_id = campaigns.create(ESCALATING, who="operator")
    assert campaigns.run(campaign_id, who="operator", report=False).status == "needs_review"
    return campaign_id


def calls(api: Simwright, *requests: tuple[str, dict[str, Any]]) -> list[CallToolResult]:
    """Call tools in turn through one SDK client connected in-process (over stdio rules)."""
    server = build_server(make_tools(api, Limits(), lambda: None), Access())

    async def go() -> list[CallToolResult]:
        async with Client(server) as client:
            return [await client.call_tool(name, args) for name, args in requests]

    return asyncio.run(go())


def ok(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def refused(result: CallToolResult) -> str:
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    assert isinstance(text, str)
    return text


def test_a_review_event_is_read_and_approved_through_the_tools(api: Simwright) -> None:
    cid = needs_review(api)
    decide = {"campaign": cid, "event": "1"}
    listed, status, trace, queue, wrong, unknown, approved, after = calls(
        api,
        ("campaigns", {"limit": 5}),
        ("campaign_status", {"campaign": cid}),
        ("campaign_trace", {"campaign": cid, "system": "a", "condition": "p50"}),
        ("campaign_reviews", {"campaign": cid}),
        ("campaign_decide", decide | {"verdict": "choose", "action": "retry"}),
        ("campaign_trace", {"campaign": cid, "system": "a", "condition": "nope"}),
        ("campaign_decide", decide | {"verdict": "approve", "rationale": "flat enough"}),
        ("campaign_reviews", {"campaign": cid, "status": "all"}),
    )
    [row] = ok(listed)["campaigns"]
    assert (row["campaign_id"], row["status"]) == (cid, "needs_review")
    grid = ok(status)
    assert grid["status"] == "needs_review" and grid["advancing"] is False
    [[cell]] = grid["grid"]["rows"]
    assert (cell["status"], cell["label"]) == ("needs_review", "needs review")
    segments = ok(trace)["segments"]
    assert [s["seq"] for s in segments] == [1, 2] and segments[-1]["rule"] == "budget_exhausted"
    assert ok(trace)["samples"]["local_steps"][-1] == 2000
    [event] = ok(queue)["events"]
    assert event["kind"] == "CONVERGENCE_ANOMALY" and event["evidence"]["state"]
    assert event["allowed_actions"] == ["accept", "continue", "stop"]

    assert "not allowed for CONVERGENCE_ANOMALY" in refused(wrong)
    assert "no state a/nope" in refused(unknown)
    decision = ok(approved)
    assert (decision["action"], decision["reviewer"]) == ("accept", "mcp")
    assert decision["validation"]["valid"] is True and cid in decision["next"]
    [resolved] = ok(after)["events"]
    assert resolved["status"] != "open"

    campaigns = Campaigns(api.settings, api.store)
    assert [(d["reviewer"], d["action"], d["valid"]) for d in campaigns.history(cid)] == [
        ("mcp", "retry", False),
        ("mcp", "accept", True),
    ]
    assert [(a["who"], a["action"]) for a in campaigns.actions(cid)][-2:] == [
        ("mcp", "decide"),
        ("mcp", "decide"),
    ]
    assert campaigns.run(cid, who="operator", report=False).status == "completed"


def test_over_http_deciding_needs_the_review_scope_and_records_the_token(tmp_path: Path) -> None:
    home = tmp_path / "home"
    api = Simwright(Settings(home=home, threads=1))
    cid = needs_review(api)
    reader = add_token(home, "reader", ("read",))
    reviewer = add_token(home, "bob-reviewer", ("read", "review"))
    server = McpHttp(home).start()
    try:

        async def as_(token: str, name: str, args: dict[str, Any]) -> CallToolResult:
            headers = {"Authorization": f"Bearer {token}"}
            async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
                transport = streamable_http_client(server.url, http_client=http)
                async with Client(transport) as client:
                    return await client.call_tool(name, args)

        reject = {"campaign": cid, "event": "1", "verdict": "reject", "rationale": "too slow"}
        assert ok(asyncio.run(as_(reader, "campaign_reviews", {"campaign": cid})))["events"]
        assert "lacks the scope 'review'" in refused(
            asyncio.run(as_(reader, "campaign_decide", reject))
        )
        decision = ok(asyncio.run(as_(reviewer, "campaign_decide", reject)))
        assert (decision["action"], decision["reviewer"]) == ("stop", "bob-reviewer")
    finally:
        server.stop()
    history = Campaigns(api.settings, api.store).history(cid)
    assert [(d["reviewer"], d["action"]) for d in history] == [("bob-reviewer", "stop")]
    api.close()
