"""``/campaigns`` routes: create from a spec, read the grid, traces and review queue, decide.

Thin calls of :class:`~simwright.api.campaigns.Campaigns`. Reading needs scope
``read``, creating and resuming ``run``, deciding on a review event ``review``;
each decision is recorded with the caller's token name as the reviewer. A valid
decision resumes the campaign (``"resume": false`` in the body keeps it waiting).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator

from simwright.api import Forbidden, NotFound
from simwright.api.campaigns import Campaigns
from simwright.campaign.plan import plan as campaign_plan
from simwright.campaign.review import DecisionValidation
from simwright.service.auth import Auth
from simwright.service.campaign_jobs import CampaignLauncher

NAME = r"^[A-Za-z0-9_.-]{1,160}$"
CampaignId = Annotated[str, PathParam(pattern=NAME)]
"""A campaign id (or unique prefix) in a path."""
Name = Annotated[str, PathParam(pattern=NAME)]
"""A system, condition or event in a path."""


class CampaignCreate(BaseModel):
    """A campaign spec: as an object, or as YAML text (exactly one)."""

    model_config = ConfigDict(extra="forbid")

    spec: dict[str, Any] | None = None
    spec_yaml: str | None = Field(default=None, min_length=1, max_length=200_000)
    start: bool = Field(default=True, description="Start advancing it at once.")

    @model_validator(mode="after")
    def _one(self) -> CampaignCreate:
        if (self.spec is None) == (self.spec_yaml is None):
            raise ValueError("give exactly one of 'spec' (an object) and 'spec_yaml' (text)")
        return self


class Verdict(BaseModel):
    """Approve or reject: an optional rationale."""

    model_config = ConfigDict(extra="forbid")

    rationale: str = Field(default="", max_length=4000)
    resume: bool = Field(default=True, description="Resume the campaign when applied.")


class Choice(Verdict):
    """Choose any allowed action, optionally with the next segment's length."""

    action: str = Field(min_length=1, max_length=32)
    segment_steps: int | None = Field(default=None, ge=1, le=10**12)


def decided(validation: DecisionValidation) -> JSONResponse:
    """200 with the validation when the decision was applied, 422 when it was refused."""
    return JSONResponse(validation.as_dict(), status_code=200 if validation.valid else 422)


def campaign_router(campaigns: Campaigns, auth: Auth, launcher: CampaignLauncher) -> APIRouter:
    """The ``/campaigns`` routes over ``campaigns``; ``launcher`` advances them."""
    r = APIRouter(prefix="/campaigns", tags=["campaigns"])
    read = Depends(auth.scope("read"))
    run = Depends(auth.scope("run"))
    review = Depends(auth.scope("review"))

    @r.post("", status_code=201)
    def create(body: CampaignCreate, who: str = run, dry_run: bool = False) -> JSONResponse:
        """Validate a spec and record the campaign (``dry_run``: its plan only)."""
        spec = body.spec if body.spec is not None else str(body.spec_yaml)
        if dry_run:
            return JSONResponse({"plan": campaign_plan(campaigns.validate(spec))}, 200)
        campaign_id = campaigns.create(spec, who=who)
        if body.start:
            launcher.launch(campaign_id)
        return JSONResponse({"campaign_id": campaign_id, "started": body.start}, 201)

    @r.get("", dependencies=[read])
    def list_campaigns(
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
        offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    ) -> dict[str, Any]:
        """Campaigns, newest first, a page at a time."""
        return {"campaigns": campaigns.recent(limit=limit, offset=offset), "offset": offset}

    @r.get("/{campaign_id}", dependencies=[read])
    def status(campaign_id: CampaignId) -> dict[str, Any]:
        """States with accepted values, open events, and the systems × conditions grid."""
        return campaigns.status(campaign_id)

    @r.get("/{campaign_id}/states/{system}/{condition}", dependencies=[read])
    def trace(campaign_id: CampaignId, system: Name, condition: Name) -> dict[str, Any]:
        """One state's segment attempts (decision, rule, reason) and its samples."""
        return campaigns.trace(campaign_id, system, condition)

    @r.get("/{campaign_id}/reviews", dependencies=[read])
    def reviews(
        campaign_id: CampaignId,
        status: Annotated[str, Query(pattern="^(open|resolved|all)$")] = "open",
    ) -> dict[str, Any]:
        """The review queue: events with their evidence bundles and allowed actions."""
        events = campaigns.reviews(campaign_id, status=None if status == "all" else status)
        return {"campaign_id": campaigns.campaign(campaign_id).id, "events": events}

    @r.get("/{campaign_id}/reviews/{event}", dependencies=[read])
    def one_review(campaign_id: CampaignId, event: Name) -> dict[str, Any]:
        """One event (id, ``eNNNN`` or number) with its evidence and decisions."""
        return campaigns.review(campaign_id, event)

    @r.get("/{campaign_id}/actions", dependencies=[read])
    def actions(campaign_id: CampaignId) -> dict[str, Any]:
        """Who did what: the audit trail and every decision recorded."""
        return {
            "actions": campaigns.actions(campaign_id),
            "decisions": campaigns.history(campaign_id),
        }

    @r.get("/{campaign_id}/files/{path:path}", dependencies=[read])
    def file(campaign_id: CampaignId, path: str) -> FileResponse:
        """A file of the campaign's directory (report, plots, event files)."""
        return FileResponse(campaign_file(campaigns, campaign_id, path))

    def after(campaign_id: str, validation: DecisionValidation, resume: bool) -> JSONResponse:
        if validation.valid and resume:
            launcher.launch(campaigns.campaign(campaign_id).id)
        return decided(validation)

    @r.post("/{campaign_id}/reviews/{event}/approve")
    def approve(
        campaign_id: CampaignId, event: Name, body: Verdict, who: str = review
    ) -> JSONResponse:
        """Approve: accept (anomaly, reasoning), retry (failure), rebuild (conflict),
        acknowledge (batch complete)."""
        done = campaigns.approve(campaign_id, event, who=who, rationale=body.rationale)
        return after(campaign_id, done, body.resume)

    @r.post("/{campaign_id}/reviews/{event}/reject")
    def reject(
        campaign_id: CampaignId, event: Name, body: Verdict, who: str = review
    ) -> JSONResponse:
        """Reject: stop the state (the rest of its system's path is not run)."""
        done = campaigns.reject(campaign_id, event, who=who, rationale=body.rationale)
        return after(campaign_id, done, body.resume)

    @r.post("/{campaign_id}/reviews/{event}/choose")
    def choose(
        campaign_id: CampaignId, event: Name, body: Choice, who: str = review
    ) -> JSONResponse:
        """Take any action the event allows (``segment_steps`` with continue or retry)."""
        done = campaigns.decide(
            campaign_id,
            event,
            body.action,
            who=who,
            segment_steps=body.segment_steps,
            rationale=body.rationale,
        )
        return after(campaign_id, done, body.resume)

    @r.post("/{campaign_id}/resume")
    def resume(campaign_id: CampaignId, who: str = run) -> dict[str, Any]:
        """Advance the campaign again (after a decision, an interruption or a limit)."""
        row = campaigns.campaign(campaign_id)
        campaigns.record(row.id, who, "resume", {})
        launcher.launch(row.id)
        return {"campaign_id": row.id, "started": True}

    return r


def campaign_file(campaigns: Campaigns, campaign_id: str, path: str) -> Path:
    """A file of the campaign's directory; a path leaving it is refused (:class:`Forbidden`)."""
    root = Path(campaigns.campaign(campaign_id).workdir).resolve()
    rel = Path(path)
    if not path or rel.is_absolute() or ".." in rel.parts or "\x00" in path:
        raise Forbidden(f"{path!r} is not a path inside the campaign's directory")
    full = (root / rel).resolve()
    if not full.is_relative_to(root):
        raise Forbidden(f"{path!r} leads outside the campaign's directory")
    if not full.is_file() or full.name == ".lock":
        raise NotFound(f"campaign {campaign_id} has no file {path!r}")
    return full
