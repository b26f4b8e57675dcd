"""Dashboard pages of campaigns: the list (and a spec form), the systems × conditions
grid, one state's trace, and the review queue with approve / reject / choose.

Decisions go through :class:`~simwright.api.campaigns.Campaigns` with the visitor's
token name as the reviewer and need scope ``review``; a valid one resumes the
campaign. Each cell of the grid says its status in words, not by colour alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse

from simwright.api.campaign_views import STATUS_LABELS
from simwright.api.campaigns import Campaigns
from simwright.campaign.spec import CampaignSpec
from simwright.errors import SimwrightError
from simwright.service.campaign_jobs import CampaignLauncher
from simwright.service.campaign_routes import campaign_file
from simwright.service.dashboard.charts import line_chart
from simwright.service.dashboard.paging import DEFAULT_LIMIT, Limit, Offset, page_of
from simwright.service.dashboard.render import FILE_HEADERS, page
from simwright.service.dashboard.session import UI_PREFIX, Session, read_form

NAME = r"^[A-Za-z0-9_.-]{1,160}$"
Name = Annotated[str, PathParam(pattern=NAME)]
VERDICTS = ("approve", "reject", "choose")


def _charts(campaigns: Campaigns, campaign_id: str, trace: dict[str, Any]) -> list[Any]:
    spec = CampaignSpec.model_validate_json(campaigns.campaign(campaign_id).spec_json)
    samples = trace["samples"]
    out = []
    for name, values in samples["values"].items():
        rule = spec.acceptance.get(name)
        chart = line_chart(
            samples["local_steps"], values, window_steps=rule.window_steps if rule else None
        )
        if chart is not None:
            out.append({"name": name, "unit": spec.observable_unit(name) or "1", "chart": chart})
    return out


def _report_plots(campaigns: Campaigns, campaign_id: str) -> list[str]:
    report = Path(campaigns.campaign(campaign_id).workdir) / "report"
    return sorted(p.name for p in report.glob("*.png")) if report.is_dir() else []


def campaign_pages(campaigns: Campaigns, session: Session, launcher: CampaignLauncher) -> APIRouter:
    """Routes of the campaigns' pages."""
    r = APIRouter(prefix=f"{UI_PREFIX}/campaigns", include_in_schema=False)

    def common(request: Request, scope: str = "read") -> dict[str, Any]:
        return {"user": session.user(request, scope), "csrf": session.csrf(request)}

    @r.get("", response_class=HTMLResponse)
    def campaign_list(
        request: Request, limit: Limit = DEFAULT_LIMIT, offset: Offset = 0
    ) -> HTMLResponse:
        """Campaigns, newest first, a page at a time, and a form for a new one."""
        ctx = common(request)
        found = campaigns.recent(limit=limit + 1, offset=offset)
        rows, pager = page_of(found, f"{UI_PREFIX}/campaigns", limit, offset)
        return page(request, "campaigns.html", title="Campaigns", page_id="campaigns",
                    campaigns=rows, pager=pager, spec_text="", **ctx)  # fmt: skip

    @r.post("", response_class=HTMLResponse)
    async def create(request: Request) -> Any:
        """Create a campaign from the YAML in the form and start it."""
        form = await read_form(request)
        session.check_form(request, form)
        ctx = common(request, "run")
        text = form.get("spec", "")[:200_000]
        try:
            campaign_id = await run_in_threadpool(campaigns.create, text, who=ctx["user"])
        except SimwrightError as exc:
            found = campaigns.recent(limit=DEFAULT_LIMIT + 1)
            rows, pager = page_of(found, f"{UI_PREFIX}/campaigns", DEFAULT_LIMIT, 0)
            return page(request, "campaigns.html", status_code=422, title="Campaigns",
                        page_id="campaigns", campaigns=rows, pager=pager, spec_text=text,
                        refusal=str(exc), **ctx)  # fmt: skip
        launcher.launch(campaign_id)
        return RedirectResponse(f"{UI_PREFIX}/campaigns/{campaign_id}", status_code=303)

    @r.get("/{campaign_id}", response_class=HTMLResponse)
    def campaign(request: Request, campaign_id: Name) -> HTMLResponse:
        """The grid of states, open events, report plots and who did what."""
        ctx = common(request)
        data = campaigns.status(campaign_id)
        cid = data["campaign_id"]
        return page(
            request,
            "campaign.html",
            title=f"Campaign {data['name']}",
            page_id="campaign",
            c=data,
            labels=STATUS_LABELS,
            plots=_report_plots(campaigns, cid),
            actions=campaigns.actions(cid),
            decisions=campaigns.history(cid),
            **ctx,
        )

    @r.get("/{campaign_id}/grid.json")
    def grid_json(request: Request, campaign_id: Name) -> dict[str, Any]:
        """The grid and status, for the page's live updates."""
        session.user(request, "read")
        row = campaigns.campaign(campaign_id)
        data = campaigns.grid(row.id).to_json()
        data["status"] = campaigns.status(row.id)["status"]
        data["advancing"] = campaigns.advancing(row.id)
        return data

    @r.get("/{campaign_id}/states/{system}/{condition}", response_class=HTMLResponse)
    def state(request: Request, campaign_id: Name, system: Name, condition: Name) -> HTMLResponse:
        """One state's samples against local steps and its segment attempts."""
        ctx = common(request)
        trace = campaigns.trace(campaign_id, system, condition)
        cid = trace["campaign_id"]
        return page(request, "state.html", title=f"{system} / {condition}", page_id="state",
                    campaign_id=cid, trace=trace, charts=_charts(campaigns, cid, trace),
                    **ctx)  # fmt: skip

    @r.get("/{campaign_id}/reviews", response_class=HTMLResponse)
    def reviews(request: Request, campaign_id: Name, decided: str | None = None) -> HTMLResponse:
        """Open events with their evidence and the decision forms; resolved ones below."""
        ctx = common(request)
        cid = campaigns.campaign(campaign_id).id
        events = campaigns.reviews(cid, status=None)
        last = None
        if decided:
            found = [e for e in events if e["event_id"] == decided and e["reviews"]]
            last = found[0]["reviews"][-1] if found else None
        return page(
            request,
            "reviews.html",
            title="Review queue",
            page_id="reviews",
            campaign_id=cid,
            open_events=[e for e in events if e["status"] == "open"],
            closed_events=[e for e in events if e["status"] != "open"],
            last=last,
            **ctx,
        )

    @r.post("/{campaign_id}/reviews/{event}/decide")
    async def decide(request: Request, campaign_id: Name, event: Name) -> RedirectResponse:
        """Approve, reject or choose an action, as the signed-in reviewer."""
        form = await read_form(request)
        session.check_form(request, form)
        who = session.user(request, "review")
        verdict = form.get("verdict", "")
        rationale = form.get("rationale", "")[:4000]
        if verdict == "approve":
            done = await run_in_threadpool(
                campaigns.approve, campaign_id, event, who=who, rationale=rationale
            )
        elif verdict == "reject":
            done = await run_in_threadpool(
                campaigns.reject, campaign_id, event, who=who, rationale=rationale
            )
        else:
            steps = form.get("segment_steps", "").strip()
            done = await run_in_threadpool(
                lambda: campaigns.decide(
                    campaign_id,
                    event,
                    form.get("action", "")[:32],
                    who=who,
                    segment_steps=int(steps) if steps.isdigit() else None,
                    rationale=rationale,
                )
            )
        cid = campaigns.campaign(campaign_id).id
        if done.valid:
            launcher.launch(cid)
        url = f"{UI_PREFIX}/campaigns/{cid}/reviews?decided={done.event_id}"
        return RedirectResponse(url, status_code=303)

    @r.post("/{campaign_id}/resume")
    async def resume(request: Request, campaign_id: Name) -> RedirectResponse:
        """Advance the campaign again (after an interruption, a limit or a decision)."""
        form = await read_form(request)
        session.check_form(request, form)
        who = session.user(request, "run")
        cid = campaigns.campaign(campaign_id).id
        await run_in_threadpool(campaigns.record, cid, who, "resume", {})
        launcher.launch(cid)
        return RedirectResponse(f"{UI_PREFIX}/campaigns/{cid}", status_code=303)

    @r.get("/{campaign_id}/files/{path:path}")
    def file(request: Request, campaign_id: Name, path: str) -> FileResponse:
        """A file of the campaign's directory (report plots...)."""
        session.user(request, "read")
        return FileResponse(
            campaign_file(campaigns, campaign_id, path),
            headers=FILE_HEADERS,
        )

    return r
