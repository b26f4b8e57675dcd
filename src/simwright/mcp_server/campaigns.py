"""The ``campaign_review`` tool: a campaign's open review events, one event with its
evidence, and a decision on it, validated exactly as ``simwright campaign approve``
validates it (:meth:`~simwright.campaign.runner.CampaignRunner.approve`).

It calls the campaign layer directly; when the Python API gains campaign functions
(``api/campaigns.py``), this module should call those instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from simwright.campaign.events import EVENT_FILE, EVIDENCE_FILE, read_json
from simwright.campaign.report import event_json
from simwright.campaign.repository import CampaignStore
from simwright.campaign.runner import CampaignRunner, resolve_event
from simwright.campaign.segment_engines import make_engine
from simwright.campaign.status import CampaignError
from simwright.settings import Settings
from simwright.store import Store
from simwright.store.models_campaign import CampaignEventRow

ACTIONS = ("continue", "accept", "retry", "stop", "rebuild", "acknowledge")
"""What a human may decide on an event (each event allows some of them)."""


class Review(BaseModel):
    """Open events, one event with its evidence, or the verdict on a decision."""

    model_config = ConfigDict(frozen=True)

    campaign_id: str | None = None
    open_events: list[dict[str, Any]] = Field(default_factory=list)
    event: dict[str, Any] | None = Field(default=None, description="event.json of the event")
    evidence: dict[str, Any] | None = Field(default=None, description="its evidence bundle")
    status: str | None = None
    decision: dict[str, Any] | None = Field(
        default=None, description="the validation of a decision (valid, problems, outcome)"
    )


class CampaignTools:
    """Review of one home's campaigns."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings

    def open_events(self, campaign: str | None) -> Review:
        """Open events of ``campaign`` (all campaigns' without it), oldest first."""
        cstore = CampaignStore(self.store)
        if campaign:
            row = cstore.campaign(campaign)
            events = [event_json(e) for e in cstore.events(row.id, status="open")]
            return Review(campaign_id=row.id, open_events=events)
        with self.store.transaction() as s:
            q = (
                select(CampaignEventRow)
                .where(CampaignEventRow.status == "open")
                .order_by(CampaignEventRow.created_at)
            )
            rows = list(s.scalars(q).all())
            events = [{"campaign_id": r.campaign_id, **event_json(r)} for r in rows]
        return Review(open_events=events)

    def show(self, campaign: str, event: str) -> Review:
        """One event with its evidence and status."""
        cstore = CampaignStore(self.store)
        row = cstore.campaign(campaign)
        found = resolve_event(cstore, row.id, event)
        directory = Path(found.directory)
        return Review(
            campaign_id=row.id,
            event=read_json(directory / EVENT_FILE),
            evidence=read_json(directory / EVIDENCE_FILE),
            status=found.status,
        )

    def decide(
        self,
        campaign: str,
        event: str,
        action: str,
        segment_steps: int | None = None,
        rationale: str = "",
        reviewer: str = "mcp",
    ) -> Review:
        """Record a decision on an open event; a decision the validation refuses raises
        (:class:`CampaignError` naming every problem) and changes nothing."""
        cstore = CampaignStore(self.store)
        row = cstore.campaign(campaign)
        runner = CampaignRunner(
            self.store,
            make_engine(row.engine, self.settings),
            root=self.settings.home / "campaigns",
        )
        found = resolve_event(cstore, row.id, event)
        decision = {
            "event_id": found.id,
            "action": action,
            "confidence": 1.0,
            "parameter_changes": {"segment_steps": segment_steps} if segment_steps else {},
            "rationale": rationale,
        }
        validation = runner.approve(row.id, found.id, decision, reviewer)
        if not validation.valid:
            raise CampaignError("decision refused: " + "; ".join(validation.problems))
        return Review(campaign_id=row.id, status="decided", decision=validation.as_dict())
