"""What the MCP tools return: typed values, each a JSON object for the client.

Nested parts whose shape belongs to another layer (a preflight estimate, a step's
record) stay plain JSON objects; the top-level fields are typed so that a client and
a model see the schema of each tool's answer.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class Parameter(_Out):
    """One parameter of a plan: its value, unit and where it came from."""

    value: Any
    unit: str | None = None
    source: str = Field(description="given (stated in the request) or how it was assumed")
    text: str | None = Field(default=None, description="the request's own words, if given")


class PlanView(_Out):
    """How a request is understood, and whether a run of it would be accepted."""

    request: str
    protocol: str
    module: str | None
    runnable: bool = Field(description="True when `run` would accept the request as is")
    given: dict[str, Parameter] = Field(description="parameters the request stated")
    assumed: dict[str, Parameter] = Field(description="defaults for what it did not state")
    stated: list[dict[str, str]] = Field(description="each stated choice and how it is honoured")
    refusals: list[str] = Field(description="why a run would be refused (empty when runnable)")
    warnings: list[str]
    inputs: list[str] = Field(description="what the run would build (structure, engines...)")
    estimate: dict[str, Any] | None = Field(
        description="atoms, MD steps, SCF cycles, output bytes, core-hours, and the basis"
    )
    alternatives: list[dict[str, Any]]


class Quantity(_Out):
    """A reported value with its unit, uncertainty and the file it came from."""

    value: Any
    unit: str | None = None
    uncertainty: Any = None
    source: str | None = None


class ArtifactRef(_Out):
    """A recorded file of a run (a path relative to the run's directory)."""

    path: str
    kind: str
    sha256: str
    size: int


class RunResults(_Out):
    """A run's values, summary, references and files."""

    run_id: str
    status: str
    values: dict[str, Quantity]
    summary: str
    references: list[Any]
    artifacts: list[ArtifactRef]


class RunStarted(_Out):
    """A run accepted by ``run``: its id, and its results when it finished in the wait."""

    run_id: str
    status: str
    finished: bool
    waited_s: float
    note: str
    plan: PlanView
    results: RunResults | None = None


class StepBrief(_Out):
    """One step attempt of a run."""

    seq: int
    attempt: int
    name: str
    status: str
    wall_s: float | None
    error: str | None


class RunStatus(_Out):
    """A run as it is now: status, steps, recent events, queue state, open decision."""

    run_id: str
    protocol: str
    status: str
    request: str
    created_at: str | None
    error: str | None
    queue: dict[str, Any] | None
    steps: list[StepBrief]
    events: list[dict[str, Any]] = Field(description="the most recent events, oldest first")
    events_total: int
    pending_decision: dict[str, Any] | None
    artifacts: int
    detail: dict[str, Any] | None = Field(
        default=None, description="everything recorded (with detail=true)"
    )


class Inspection(_Out):
    """A run's recorded files, or one file: its summary, and a slice of its text."""

    run_id: str
    path: str | None = Field(default=None, description="the file inspected (none: a listing)")
    files: list[ArtifactRef] = Field(default_factory=list, description="the run's files")
    size: int | None = None
    summary: str | None = Field(default=None, description="what the file holds, in brief")
    content: str | None = None
    offset: int = 0
    next_offset: int | None = Field(default=None, description="where the next slice starts")


class RunAction(_Out):
    """The answer to a cancel or resume: the run and its state in the queue."""

    run_id: str
    state: str
