"""The FastAPI application: runs over HTTP, on the Python API (:class:`Simwright`).

Every route is a thin call of the API. Refused input is a 4xx with the message
(``{"error": ..., "error_type": ...}``) and changes nothing stored; a run is created
only after its request passed the planner, the preflight and the build stage.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from anyio import to_thread
from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator

from simwright import __version__
from simwright.api import Conflict, Forbidden, NotFound, RunFilter, Simwright, Spec
from simwright.api.campaigns import Campaigns
from simwright.errors import SimwrightError, StoreError
from simwright.jsonsafe import strict_json
from simwright.service.auth import Auth
from simwright.service.campaign_jobs import CampaignLauncher, resume_argv
from simwright.service.campaign_routes import campaign_router
from simwright.service.dashboard import UI_PREFIX, error_page, install_dashboard
from simwright.service.sse import stream

RUN_ID = r"^[A-Za-z0-9_.-]{1,64}$"
RunId = Annotated[str, PathParam(pattern=RUN_ID)]
"""A run id in a path: letters, digits, ``_``, ``.``, ``-``."""


class StrictJSON(JSONResponse):
    """JSON without NaN or Infinity (each becomes null, listed under ``non_finite``)."""

    def render(self, content: Any) -> bytes:
        """Render ``content`` as strict JSON: the C encoder refuses a non-finite number,
        and only then is the content walked to replace it (the walk in Python cost a
        third of a status request)."""
        try:
            return super().render(content)
        except ValueError:
            return super().render(strict_json(content))


class RunCreate(BaseModel):
    """A request in words, or a spec (exactly one)."""

    model_config = ConfigDict(extra="forbid")

    request: str | None = Field(default=None, min_length=1, max_length=2000)
    spec: Spec | None = None

    @model_validator(mode="after")
    def _one(self) -> RunCreate:
        if (self.request is None) == (self.spec is None):
            raise ValueError("give exactly one of 'request' (words) and 'spec'")
        return self


class ResumeBody(BaseModel):
    """An optional answer to the run's pending decision point."""

    model_config = ConfigDict(extra="forbid")

    choose: str | None = Field(default=None, min_length=1, max_length=128)


_STATUS = {NotFound: 404, Conflict: 409, Forbidden: 403, StoreError: 409}


def _error(exc: SimwrightError) -> JSONResponse:
    code = next((c for t, c in _STATUS.items() if isinstance(exc, t)), 422)
    body: dict[str, Any] = {"error": str(exc), "error_type": type(exc).__name__}
    details = getattr(exc, "details", None)
    if isinstance(details, dict):
        body.update(details)
    return StrictJSON(body, status_code=code)


def create_app(
    api: Simwright,
    auth: Auth,
    on_queued: Callable[[], None] = lambda: None,
    *,
    launcher: CampaignLauncher | None = None,
) -> FastAPI:
    """The application serving ``api``; ``auth`` checks each caller's token and scope;
    ``on_queued`` is called when the queue changed (a run queued or cancelled: the
    worker pool wakes up); ``launcher`` advances campaigns (by default ``simwright
    campaign resume``)."""
    app = FastAPI(
        title="simwright",
        version=__version__,
        description="Atomistic simulation runs: plan, submit, follow, read.",
        default_response_class=StrictJSON,
    )

    async def on_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, SimwrightError)
        if request.url.path.startswith(UI_PREFIX):
            code = next((c for t, c in _STATUS.items() if isinstance(exc, t)), 422)
            return error_page(request, str(exc), code)
        return _error(exc)

    app.add_exception_handler(SimwrightError, on_error)
    read = Depends(auth.scope("read"))
    run = Depends(auth.scope("run"))

    @app.get("/health")
    def health() -> dict[str, str]:
        """The service answers."""
        return {"status": "ok", "version": __version__}

    @app.post("/runs", dependencies=[run], status_code=201)
    def create_run(body: RunCreate, dry_run: bool = False) -> StrictJSON:
        """Plan a request (words or a spec) and queue its run; ``dry_run``: plan only."""
        request = body.spec if body.spec is not None else str(body.request)
        if dry_run:
            return StrictJSON({"plan": api.plan(request, files=False).to_json()}, 200)
        submitted = api.submit(request, files=False)
        on_queued()
        return StrictJSON(
            {"run_id": submitted.run_id, "status": "queued", "plan": submitted.plan}, 201
        )

    @app.get("/runs", dependencies=[read])
    def list_runs(
        status: Annotated[str | None, Query(max_length=32)] = None,
        protocol: Annotated[str | None, Query(max_length=128)] = None,
        limit: Annotated[int, Query(ge=1, le=500)] = 50,
        offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    ) -> dict[str, Any]:
        """Recent runs, newest first, filtered by status and protocol, a page at a time."""
        where = RunFilter(status=status, protocol=protocol, limit=limit, offset=offset)
        rows = api.runs(where)
        more = offset + len(rows) if len(rows) == limit else None
        return {"runs": rows, "limit": limit, "offset": offset, "next_offset": more}

    @app.get("/runs/{run_id}", dependencies=[read])
    async def get_run(run_id: RunId, verify: bool = False) -> StrictJSON:
        """Status, parameters, steps, decisions, engine calls, events, queue state."""
        if verify:  # re-hashes every file: off the event loop
            return StrictJSON(await to_thread.run_sync(lambda: api.status(run_id, verify=True)))
        # A few indexed reads on this thread's open read-only connection (a fraction of
        # a millisecond): cheaper inline than a trip through the thread pool, which
        # under load queues behind other requests and contends for the GIL.
        return StrictJSON(api.status(run_id))

    @app.get("/runs/{run_id}/results", dependencies=[read])
    def results(run_id: RunId) -> dict[str, Any]:
        """Values with units and uncertainties, references, and the recorded files."""
        return api.results(run_id)

    @app.get("/runs/{run_id}/timeline", dependencies=[read])
    def timeline(run_id: RunId) -> dict[str, Any]:
        """Steps, engine calls, decisions and events in time order."""
        return {"run_id": run_id, "timeline": api.timeline(run_id)}

    @app.get("/runs/{run_id}/artifacts/{path:path}", dependencies=[read])
    def artifact(run_id: RunId, path: str) -> FileResponse:
        """A file of the run's directory (a path leaving it is refused)."""
        return FileResponse(api.artifact(run_id, path))

    @app.get("/runs/{run_id}/events", dependencies=[read])
    def events(
        run_id: RunId,
        after: Annotated[int, Query(ge=0, le=2**62)] = 0,
        last_event_id: Annotated[str | None, Header(max_length=32)] = None,
    ) -> StreamingResponse:
        """Server-Sent Events of the run; resumes after ``Last-Event-ID`` (or ``after``)."""
        api.get_run(run_id)
        start = int(last_event_id) if last_event_id and last_event_id.isdigit() else after
        return StreamingResponse(
            stream(api, run_id, start),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    @app.post("/runs/{run_id}/cancel", dependencies=[run])
    def cancel(run_id: RunId) -> dict[str, str]:
        """Cancel a queued run, or stop a running one (it can be resumed)."""
        state = api.cancel(run_id)
        on_queued()  # the pool passes the cancellation on now
        return {"run_id": run_id, "state": state}

    @app.post("/runs/{run_id}/resume", dependencies=[run])
    def resume(run_id: RunId, request: Request, body: ResumeBody | None = None) -> dict[str, str]:
        """Queue a run to continue from its last completed step; ``choose`` (scope
        ``review``) answers its pending decision point."""
        choose = body.choose if body is not None else None
        if choose is not None:
            auth.require(request.headers.get("authorization"), "review")
        api.resume(run_id, choose=choose)
        on_queued()
        return {"run_id": run_id, "state": "queued"}

    campaigns = Campaigns(api.settings, api.store)
    launcher = launcher or CampaignLauncher(resume_argv(api.settings.home))
    app.include_router(campaign_router(campaigns, auth, launcher))
    install_dashboard(app, api, campaigns, auth, launcher, on_queued)
    return app
