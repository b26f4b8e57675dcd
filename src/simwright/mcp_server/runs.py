"""The run tools: plan, run, status, results, inspect, cancel, resume.

:class:`RunTools` is plain Python over :class:`~simwright.api.Simwright` (no MCP
import: the tests call it directly too). Refused input raises a
:class:`~simwright.errors.SimwrightError` whose message the server returns as a tool
error; nothing stored changes. Limits (:class:`Limits`) bound what one call may ask:
the wait for a run, the runs in flight, the slice of a file returned.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simwright.api import Forbidden, Simwright, Spec
from simwright.api.requests import Request
from simwright.api.requests import plan as resolve_request
from simwright.contract.inspect import inspect_file
from simwright.errors import PolicyError, ValidationError
from simwright.jsonsafe import strict_json
from simwright.knowledge.planner.resolver import prepare
from simwright.mcp_server.models import (
    ArtifactRef,
    Inspection,
    Parameter,
    PlanView,
    Quantity,
    RunAction,
    RunResults,
    RunStarted,
    RunStatus,
    StepBrief,
)
from simwright.protocols.preflight import PreflightError
from simwright.store.queue import ACTIVE


@dataclass(frozen=True)
class Limits:
    """What one client may ask of the server (the service's limits, and the MCP's own)."""

    max_in_flight: int = 8
    """Runs queued or executing at once; ``run`` refuses more."""
    max_wait_s: float = 300.0
    """The longest ``run`` waits for its run to finish."""
    wait_core_hours: float = 0.05
    """``run`` waits only for runs estimated below this (a few minutes on one core)."""
    max_content_bytes: int = 262_144
    """The largest slice of a file ``inspect`` returns."""
    recent_events: int = 20
    """Events listed by ``status`` (the most recent)."""


def request_of(request: str | None, spec: Spec | None) -> Request:
    """Exactly one of words and a spec (a :class:`ValidationError` otherwise)."""
    if (request is None) == (spec is None):
        raise ValidationError("give exactly one of 'request' (words) and 'spec'")
    return spec if spec is not None else str(request)


def plan_view(
    request: str, planned: dict[str, Any], refusals: list[str], preflight: dict[str, Any] | None
) -> PlanView:
    """The tool's view of a plan (``Resolution.to_json()``): given and assumed
    parameters, refusals, the estimate."""
    data = strict_json(planned)
    params = {n: Parameter(**p) for n, p in data["parameters"].items()}
    checked = preflight if preflight is not None else data.get("preflight")
    return PlanView(
        request=request,
        protocol=data["protocol"],
        module=data.get("module"),
        runnable=not refusals,
        given={n: p for n, p in params.items() if p.source == "given"},
        assumed={n: p for n, p in params.items() if p.source != "given"},
        stated=data.get("phrases", []),
        refusals=refusals,
        warnings=data.get("warnings", []),
        inputs=data.get("inputs", []),
        estimate=(checked or {}).get("estimate"),
        alternatives=data.get("alternatives", []),
    )


class RunTools:
    """The run tools over one home's API; ``wake`` tells the dispatcher a run was queued."""

    def __init__(
        self,
        api: Simwright,
        limits: Limits | None = None,
        wake: Callable[[], None] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.api = api
        self.limits = limits or Limits()
        self.wake = wake
        self.clock = clock

    # -- planning and running -------------------------------------------------------
    def plan(self, request: str | None = None, spec: Spec | None = None) -> PlanView:
        """How a request is understood; a request the preflight or the build stage
        refuses comes back with ``runnable`` false and the reasons."""
        asked = request_of(request, spec)
        understood = resolve_request(asked, None, self.api.protocols, files=False)
        said = understood.request
        try:
            planned = prepare(understood, self.api.settings)
        except PreflightError as exc:
            checked = exc.preflight.as_dict()
            return plan_view(said, understood.to_json(), list(exc.preflight.problems), checked)
        except ValidationError as exc:  # the build stage refused an input
            return plan_view(said, understood.to_json(), [str(exc)], None)
        return plan_view(said, planned.to_json(), [], None)

    def submit(self, request: str | None = None, spec: Spec | None = None) -> tuple[str, PlanView]:
        """Create and queue a run (refused beyond :attr:`Limits.max_in_flight`)."""
        asked = request_of(request, spec)
        busy = len(self.api.queue.entries(ACTIVE))
        if busy >= self.limits.max_in_flight:
            raise PolicyError(
                f"{busy} runs are queued or executing (at most {self.limits.max_in_flight}): "
                "wait for one to finish"
            )
        submitted = self.api.submit(asked, files=False)
        self.wake()
        said = (asked.request or asked.protocol) if isinstance(asked, Spec) else asked
        return submitted.run_id, plan_view(said, submitted.plan, [], None)

    def wait_for(self, view: PlanView, wait_s: float) -> tuple[float, str]:
        """How long ``run`` may wait for a run of ``view``, and why not longer."""
        if wait_s <= 0:
            return 0.0, "not waited: poll `status` or read `results` later"
        hours = (view.estimate or {}).get("core_hours")
        if hours is not None and hours > self.limits.wait_core_hours:
            return 0.0, (
                f"not waited: estimated {hours:.3g} core-hours (waits only below "
                f"{self.limits.wait_core_hours}); poll `status`"
            )
        cap = min(wait_s, self.limits.max_wait_s)
        return cap, f"waited at most {cap:g} s"

    def started(self, run_id: str, view: PlanView, waited_s: float, note: str) -> RunStarted:
        """The answer of ``run`` after its wait."""
        finished = self.api.finished(run_id)
        status = self.api.status(run_id)["status"]
        return RunStarted(
            run_id=run_id,
            status=status,
            finished=finished,
            waited_s=round(waited_s, 3),
            note=note if finished or waited_s == 0 else note + "; still going: poll `status`",
            plan=view,
            results=self.results(run_id) if finished else None,
        )

    # -- reading --------------------------------------------------------------------
    def status(self, run_id: str, detail: bool = False) -> RunStatus:
        """A run as it is now (``detail``: everything recorded)."""
        data = strict_json(self.api.status(run_id))
        events = data["events"]
        pending = [
            d for d in data["decisions"] if d["kind"] == "decision_point" and d["chosen"] is None
        ]
        return RunStatus(
            run_id=data["run_id"],
            protocol=data["protocol"],
            status=data["status"],
            request=data["request"],
            created_at=data["created_at"],
            error=data["error"],
            queue=data["queue"],
            steps=[
                StepBrief(
                    seq=s["seq"],
                    attempt=s["attempt"],
                    name=s["name"],
                    status=s["status"],
                    wall_s=s["wall_s"],
                    error=s["error"],
                )
                for s in data["steps"]
            ],
            events=events[-self.limits.recent_events :],
            events_total=len(events),
            pending_decision=pending[-1] if pending else None,
            artifacts=len(data["artifacts"]),
            detail=data if detail else None,
        )

    def results(self, run_id: str) -> RunResults:
        """A run's values with units and uncertainties, references and files."""
        data = strict_json(self.api.results(run_id))
        return RunResults(
            run_id=data["run_id"],
            status=data["status"],
            values={n: Quantity(**q) for n, q in data["values"].items()},
            summary=data["summary"],
            references=data["references"],
            artifacts=[ArtifactRef(**a) for a in data["artifacts"]],
        )

    def files(self, run_id: str) -> Inspection:
        """The recorded files of a run."""
        return Inspection(run_id=run_id, files=self.results(run_id).artifacts)

    def inspect(
        self,
        run_id: str,
        path: str,
        content: bool = False,
        offset: int = 0,
        max_bytes: int = 16_384,
    ) -> Inspection:
        """A summary of a run's file; ``content``: a slice of its text from ``offset``.

        The path is confined to the run's directory exactly as the API confines it.
        """
        full = self.api.artifact(run_id, path)
        size = full.stat().st_size
        summary = inspect_file(full)
        if not content:
            return Inspection(run_id=run_id, path=path, size=size, summary=summary)
        if offset < 0 or max_bytes < 1:
            raise ValidationError("offset must be >= 0 and max_bytes >= 1")
        take = min(max_bytes, self.limits.max_content_bytes)
        text = read_text_slice(full, offset, take)
        end = offset + take
        return Inspection(
            run_id=run_id,
            path=path,
            size=size,
            summary=summary,
            content=text,
            offset=offset,
            next_offset=end if end < size else None,
        )

    # -- control --------------------------------------------------------------------
    def cancel(self, run_id: str) -> RunAction:
        """Cancel a queued run, or stop a running one."""
        state = self.api.cancel(run_id)
        self.wake()
        return RunAction(run_id=run_id, state=state)

    def resume(self, run_id: str, choose: str | None = None) -> RunAction:
        """Queue a run to continue; ``choose`` answers its pending decision point."""
        self.api.resume(run_id, choose=choose)
        self.wake()
        return RunAction(run_id=run_id, state="queued")


def read_text_slice(path: Path, offset: int, size: int) -> str:
    """``size`` bytes of a text file from ``offset`` (a binary file is refused)."""
    with path.open("rb") as fh:
        head = fh.read(8192)
        if b"\x00" in head:
            raise Forbidden(f"{path.name} is a binary file: read its summary instead")
        fh.seek(offset)
        data = fh.read(size)
    return data.decode("utf-8", errors="replace")
