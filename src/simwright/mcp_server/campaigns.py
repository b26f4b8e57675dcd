"""The campaign tools: the list, a campaign's status grid, a state's trace, the review
queue with evidence bundles, and decisions on review events.

Every tool calls :class:`~simwright.api.campaigns.Campaigns`, as the service's
``/campaigns`` routes and the dashboard do: a decision is built and validated exactly
as ``simwright campaign approve`` validates it, recorded with its reviewer in the store
and appended, with who took it, to the campaign's audit trail (``actions.jsonl``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from simwright.api.campaigns import Campaigns
from simwright.campaign.status import CampaignError

Verdict = Literal["approve", "reject", "choose"]
"""How a human answers a review event: approve (the action its kind approves with),
reject (``stop``) or choose an action."""

ACTIONS = ("continue", "accept", "retry", "stop", "rebuild", "acknowledge")
"""What a human may choose on an event (each event allows some of them)."""


class CampaignList(BaseModel):
    """Campaigns, newest first, a page at a time."""

    model_config = ConfigDict(frozen=True)

    campaigns: list[dict[str, Any]] = Field(
        description="campaign_id, name, objective, status (live), engine, created/updated"
    )
    limit: int
    offset: int


class CampaignStatus(BaseModel):
    """A campaign now: status, the systems × conditions grid, states and open events."""

    model_config = ConfigDict(frozen=True)

    campaign_id: str
    status: str
    advancing: bool = Field(description="a process advances it now")
    grid: dict[str, Any] = Field(description="systems, conditions, rows of cells (status, label)")
    detail: dict[str, Any] = Field(description="as `simwright campaign status --json`")


class StateTrace(BaseModel):
    """One state's segment attempts and its samples against local steps."""

    model_config = ConfigDict(frozen=True)

    campaign_id: str
    system: str
    condition: str
    segments: list[dict[str, Any]] = Field(description="seq, attempt, decision, rule, reason")
    samples: dict[str, Any] = Field(description="local_steps and values per observable")


class ReviewQueue(BaseModel):
    """Review events with their evidence bundles, allowed actions and decisions."""

    model_config = ConfigDict(frozen=True)

    campaign_id: str
    events: list[dict[str, Any]]


class DecisionMade(BaseModel):
    """A decision on a review event, applied (it was valid) and recorded with who."""

    model_config = ConfigDict(frozen=True)

    campaign_id: str
    event_id: str
    reviewer: str
    action: str
    outcome: str
    validation: dict[str, Any] = Field(description="the decision's validation, as recorded")
    next: str = Field(description="what advances the campaign now")


class CampaignTools:
    """The campaign tools of one home, over the campaign API."""

    def __init__(self, campaigns: Campaigns) -> None:
        self.campaigns = campaigns

    def recent(self, limit: int = 20, offset: int = 0) -> CampaignList:
        """Campaigns, newest first, each with its live status."""
        rows = self.campaigns.recent(limit=limit, offset=offset)
        return CampaignList(campaigns=rows, limit=limit, offset=offset)

    def status(self, campaign: str) -> CampaignStatus:
        """The campaign's status, grid and states."""
        data = self.campaigns.status(campaign)
        return CampaignStatus(
            campaign_id=str(data["campaign_id"]),
            status=str(data["status"]),
            advancing=bool(data["advancing"]),
            grid=data["grid"],
            detail={k: v for k, v in data.items() if k != "grid"},
        )

    def trace(self, campaign: str, system: str, condition: str) -> StateTrace:
        """One state's segment attempts and samples."""
        data = self.campaigns.trace(campaign, system, condition)
        return StateTrace(
            campaign_id=str(data["campaign_id"]),
            system=system,
            condition=condition,
            segments=data["segments"],
            samples=data["samples"],
        )

    def reviews(self, campaign: str, event: str | None, status: str) -> ReviewQueue:
        """The review queue (``open``, ``resolved`` or ``all`` events), or one event."""
        row = self.campaigns.campaign(campaign)
        if event is not None:
            return ReviewQueue(campaign_id=row.id, events=[self.campaigns.review(row.id, event)])
        wanted = None if status == "all" else status
        return ReviewQueue(campaign_id=row.id, events=self.campaigns.reviews(row.id, status=wanted))

    def decide(
        self,
        campaign: str,
        event: str,
        verdict: Verdict,
        *,
        who: str,
        action: str | None = None,
        segment_steps: int | None = None,
        rationale: str = "",
    ) -> DecisionMade:
        """Approve, reject or choose ``action`` on an open event as ``who``; a decision
        the validation refuses raises :class:`CampaignError` naming every problem (it is
        recorded as refused; the event stays open)."""
        row = self.campaigns.campaign(campaign)
        if verdict == "approve":
            validation = self.campaigns.approve(row.id, event, who=who, rationale=rationale)
        elif verdict == "reject":
            validation = self.campaigns.reject(row.id, event, who=who, rationale=rationale)
        else:
            if action is None:
                raise CampaignError(f"choose needs an action: one of {', '.join(ACTIONS)}")
            validation = self.campaigns.decide(
                row.id, event, action, who=who, segment_steps=segment_steps, rationale=rationale
            )
        if not validation.valid:
            raise CampaignError("decision refused: " + "; ".join(validation.problems))
        chosen = (validation.decision or {}).get("action", action or verdict)
        return DecisionMade(
            campaign_id=row.id,
            event_id=validation.event_id,
            reviewer=validation.reviewer,
            action=str(chosen),
            outcome=validation.outcome,
            validation=validation.as_dict(),
            next=(
                f"resume the campaign to act on it: `simwright campaign resume {row.id}`, "
                f"or POST /campaigns/{row.id}/resume on the service"
            ),
        )
