"""The campaign tools registered on the MCP server, with their typed arguments and
scopes: ``campaigns``, ``campaign_status``, ``campaign_trace`` and ``campaign_reviews``
read (scope ``read``); ``campaign_decide`` approves, rejects or chooses (scope
``review``), recorded with the caller's name (its token's over HTTP).
"""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field

from simwright.mcp_server.access import READ, WRITE, Access, refusals
from simwright.mcp_server.campaigns import (
    CampaignList,
    CampaignStatus,
    CampaignTools,
    DecisionMade,
    ReviewQueue,
    StateTrace,
    Verdict,
)

CampaignId = Annotated[
    str,
    Field(min_length=1, max_length=200, description="A campaign id (or a unique prefix)."),
]
Name = Annotated[str, Field(min_length=1, max_length=200)]
EventRef = Annotated[
    str, Field(min_length=1, max_length=64, description="An event id, eNNNN or its number.")
]


def register_campaign_tools(server: MCPServer, tools: CampaignTools, access: Access) -> None:
    """Register the campaign tools on ``server``."""

    @server.tool(name="campaigns", annotations=READ)
    def list_campaigns(
        ctx: Context,
        limit: Annotated[int, Field(ge=1, le=200, description="How many.")] = 20,
        offset: Annotated[int, Field(ge=0, description="How many newer ones to skip.")] = 0,
    ) -> CampaignList:
        """The home's campaigns, newest first, each with its live status (running,
        needs_review, interrupted, completed...)."""
        access.check(ctx, "read")
        with refusals():
            return tools.recent(limit, offset)

    @server.tool(annotations=READ)
    def campaign_status(ctx: Context, campaign: CampaignId) -> CampaignStatus:
        """A campaign now: its status, whether a process advances it, the grid of
        systems × conditions (each cell's status and label, cycles, local steps,
        accepted values), its states and open events."""
        access.check(ctx, "read")
        with refusals():
            return tools.status(campaign)

    @server.tool(annotations=READ)
    def campaign_trace(
        ctx: Context, campaign: CampaignId, system: Name, condition: Name
    ) -> StateTrace:
        """One state's segment attempts (decision, rule, reason) and its samples of
        each observable against local steps."""
        access.check(ctx, "read")
        with refusals():
            return tools.trace(campaign, system, condition)

    @server.tool(annotations=READ)
    def campaign_reviews(
        ctx: Context,
        campaign: CampaignId,
        event: Annotated[
            str | None,
            Field(default=None, max_length=64, description="Only this event (id or number)."),
        ] = None,
        status: Literal["open", "resolved", "all"] = "open",
    ) -> ReviewQueue:
        """The review queue: events with their message, event.json, the full evidence
        bundle, the actions a human may take, and the decisions recorded on them."""
        access.check(ctx, "read")
        with refusals():
            return tools.reviews(campaign, event, status)

    @server.tool(annotations=WRITE)
    def campaign_decide(
        ctx: Context,
        campaign: CampaignId,
        event: EventRef,
        verdict: Verdict,
        action: Annotated[
            Literal["continue", "accept", "retry", "stop", "rebuild", "acknowledge"] | None,
            Field(default=None, description="With verdict `choose`: the action."),
        ] = None,
        segment_steps: Annotated[
            int | None, Field(default=None, ge=1, description="Next segment's length.")
        ] = None,
        rationale: Annotated[str, Field(max_length=2000, description="Why.")] = "",
    ) -> DecisionMade:
        """Decide an open review event: `approve` (the action its kind approves with:
        accept, retry, rebuild or acknowledge), `reject` (stop) or `choose` an `action`.
        Validated exactly as `simwright campaign approve` validates it; a refused
        decision is an error naming every problem and the event stays open."""
        who = access.check(ctx, "review")
        with refusals():
            return tools.decide(
                campaign,
                event,
                verdict,
                who=who,
                action=action,
                segment_steps=segment_steps,
                rationale=rationale,
            )
