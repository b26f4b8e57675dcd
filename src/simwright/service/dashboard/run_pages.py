"""Dashboard pages of runs: the list, one run (graph, timeline, progress, results, plots,
report, files), and the new-run form that shows the plan before it submits.

Pages read through the Python API (:class:`~simwright.api.Simwright`) like the JSON
routes do; the run page follows a live run over ``/ui/runs/{id}/events`` (the same
Server-Sent Events as ``/runs/{id}/events``, authorised by the dashboard's cookie).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi import Path as PathParam
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, StreamingResponse

from simwright.api import FINISHED, RunFilter, Simwright
from simwright.errors import SimwrightError
from simwright.service.dashboard.paging import DEFAULT_LIMIT, Limit, Offset, page_of
from simwright.service.dashboard.render import FILE_HEADERS, markdown, page
from simwright.service.dashboard.session import UI_PREFIX, Session, read_form
from simwright.service.dashboard.stepgraph import layout
from simwright.service.sse import stream

RunId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_.-]{1,64}$")]
PLOT_SUFFIXES = (".png", ".svg", ".jpg", ".jpeg")
SUMMARY_LIMIT = (12, 20_000_000)
"""At most this many files, each at most this many bytes, are summarised on a run's page."""


def summaries(api: Simwright, run_id: str, artifacts: list[dict[str, Any]]) -> dict[str, str]:
    """Compact text summaries (:func:`~simwright.contract.inspect.inspect_file`) of a run's
    data files (tables, structures, trajectories), by path; plots and reports are shown."""
    # lazy: the contract readers (numpy, h5py) are needed only on a run's page
    from simwright.contract.inspect import inspect_file

    count, largest = SUMMARY_LIMIT
    chosen = [
        a for a in artifacts if a["kind"] not in ("plot", "report") and (a["size"] or 0) <= largest
    ][:count]
    return {a["path"]: inspect_file(api.artifact(run_id, a["path"])) for a in chosen}


def step_graph(api: Simwright, protocol: str, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """The protocol's steps in order, each with its successors and the run's latest status
    of it, the graph laid out for an inline SVG with the run's path on it, and the graph
    as Mermaid text (None when the protocol is unknown here)."""
    # lazy: the protocol registry is needed only on a run's page
    from simwright.protocols.registry import get_protocol

    try:
        graph = get_protocol(protocol, api.protocols).graph
    except SimwrightError:
        return {"steps": [], "mermaid": None, "svg": None}
    latest = {s["name"]: s["status"] for s in steps}
    taken = {(s["name"], s["successor"]) for s in steps if s["successor"]}
    names = [s.label() for s in graph.steps]
    return {
        "steps": [
            {
                "name": s.label(),
                "description": s.describe(),
                "next": list(graph.edges[s.label()]),
                "status": latest.get(s.label(), "not started"),
            }
            for s in graph.steps
        ],
        "mermaid": graph.mermaid(),
        "svg": layout(names, graph.edges, latest, taken),
    }


def _report(api: Simwright, run_id: str, artifacts: list[dict[str, Any]]) -> Any:
    path = next(
        (a["path"] for a in artifacts if a["kind"] == "report" and a["path"].endswith(".md")),
        None,
    )
    if path is None:
        return None
    text = api.artifact(run_id, path).read_text(encoding="utf-8", errors="replace")
    folder = str(PurePosixPath(path).parent)
    base = f"{UI_PREFIX}/runs/{run_id}/files/" + ("" if folder == "." else folder + "/")
    return markdown(text, base)


def run_pages(api: Simwright, session: Session, on_queued: Callable[[], None]) -> APIRouter:
    """Routes of the runs' pages."""
    r = APIRouter(prefix=UI_PREFIX, include_in_schema=False)

    def common(request: Request, scope: str = "read") -> dict[str, Any]:
        return {"user": session.user(request, scope), "csrf": session.csrf(request)}

    @r.get("/", response_class=HTMLResponse)
    def runs(
        request: Request,
        status: Annotated[str | None, Query(max_length=32)] = None,
        limit: Limit = DEFAULT_LIMIT,
        offset: Offset = 0,
    ) -> HTMLResponse:
        """Runs, newest first, a page at a time, with their status (kept live)."""
        ctx = common(request)
        found = api.runs(RunFilter(status=status or None, limit=limit + 1, offset=offset))
        rows, pager = page_of(found, f"{UI_PREFIX}/", limit, offset, {"status": status})
        return page(request, "runs.html", title="Runs", page_id="runs", runs=rows,
                    pager=pager, **ctx)  # fmt: skip

    @r.get("/runs.json")
    def runs_json(request: Request) -> dict[str, Any]:
        """Statuses of recent runs, for the list's live updates."""
        session.user(request, "read")
        rows = api.runs(RunFilter(limit=100))
        return {"runs": [{"run_id": x["run_id"], "status": x["status"]} for x in rows]}

    @r.get("/runs/{run_id}", response_class=HTMLResponse)
    def run(request: Request, run_id: RunId) -> HTMLResponse:
        """One run: status, graph, live progress, timeline, results, plots, report, files."""
        ctx = common(request)
        status = api.status(run_id)
        results = api.results(run_id)
        artifacts = status["artifacts"]
        plots = [a for a in artifacts if a["path"].lower().endswith(PLOT_SUFFIXES)]
        return page(
            request,
            "run.html",
            title=f"Run {run_id}",
            page_id="run",
            run=status,
            finished=status["status"] in FINISHED or status["status"] == "interrupted",
            graph=step_graph(api, status["protocol"], status["steps"]),
            timeline=api.timeline(run_id),
            results=results,
            plots=plots,
            report=_report(api, run_id, artifacts),
            summaries=summaries(api, run_id, artifacts),
            pending=[
                d
                for d in status["decisions"]
                if d["kind"] == "decision_point" and d["chosen"] is None
            ],
            last_event=status["events"][-1]["id"] if status["events"] else 0,
            **ctx,
        )

    @r.get("/runs/{run_id}/files/{path:path}")
    def file(request: Request, run_id: RunId, path: str) -> FileResponse:
        """A file of the run's directory (confined to it)."""
        session.user(request, "read")
        return FileResponse(api.artifact(run_id, path), headers=FILE_HEADERS)

    @r.get("/runs/{run_id}/events")
    def events(
        request: Request,
        run_id: RunId,
        after: Annotated[int, Query(ge=0, le=2**62)] = 0,
        last_event_id: Annotated[str | None, Header(max_length=32)] = None,
    ) -> StreamingResponse:
        """The run's Server-Sent Events (as ``/runs/{id}/events``)."""
        session.user(request, "read")
        api.get_run(run_id)
        start = int(last_event_id) if last_event_id and last_event_id.isdigit() else after
        return StreamingResponse(
            stream(api, run_id, start),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    @r.get("/new", response_class=HTMLResponse)
    def new(request: Request) -> HTMLResponse:
        """The form for a request in words."""
        ctx = common(request, "run")
        return page(request, "new.html", title="New run", page_id="new", request_text="", **ctx)

    @r.post("/plan", response_class=HTMLResponse)
    async def plan(request: Request) -> HTMLResponse:
        """The plan of the request (given and assumed parameters, cost), or why it is
        refused; nothing is created."""
        form = await read_form(request)
        session.check_form(request, form)
        ctx = common(request, "run")
        text = form.get("request", "").strip()[:2000]
        try:
            resolved = await run_in_threadpool(api.plan, text, files=False)
        except SimwrightError as exc:
            details = getattr(exc, "details", None)
            return page(
                request,
                "new.html",
                status_code=422,
                title="New run",
                page_id="new",
                request_text=text,
                refusal=str(exc),
                details=details if isinstance(details, dict) else None,
                **ctx,
            )
        return page(
            request, "plan.html", title="Plan", page_id="plan", plan=resolved.to_json(),
            request_text=text, **ctx,
        )  # fmt: skip

    @r.post("/submit")
    async def submit(request: Request) -> RedirectResponse:
        """Submit the planned request; on to its page."""
        form = await read_form(request)
        session.check_form(request, form)
        session.user(request, "run")
        submitted = await run_in_threadpool(api.submit, form.get("request", "")[:2000], files=False)
        on_queued()
        return RedirectResponse(f"{UI_PREFIX}/runs/{submitted.run_id}", status_code=303)

    @r.post("/runs/{run_id}/cancel")
    async def cancel(request: Request, run_id: RunId) -> RedirectResponse:
        """Cancel a queued run or stop a running one."""
        form = await read_form(request)
        session.check_form(request, form)
        session.user(request, "run")
        await run_in_threadpool(api.cancel, run_id)
        return RedirectResponse(f"{UI_PREFIX}/runs/{run_id}", status_code=303)

    @r.post("/runs/{run_id}/resume")
    async def resume(request: Request, run_id: RunId) -> RedirectResponse:
        """Resume a run; ``choose`` (scope ``review`` too) answers its pending decision."""
        form = await read_form(request)
        session.check_form(request, form)
        session.user(request, "run")
        choose = form.get("choose", "")[:128] or None
        if choose is not None:
            session.user(request, "review")
        await run_in_threadpool(lambda: api.resume(run_id, choose=choose))
        on_queued()
        return RedirectResponse(f"{UI_PREFIX}/runs/{run_id}", status_code=303)

    return r
