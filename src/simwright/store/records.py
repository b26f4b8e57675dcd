"""Plain values the runner hands to the store to be written in one transaction."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

TAIL_CHARS = 4000
"""How much of an engine's stdout and stderr is kept in the provenance record."""


@dataclass(frozen=True)
class EngineCall:
    """The record of one call of an engine (a subprocess or an in-process calculator)."""

    engine: str
    command: str
    version: str
    exit_code: int
    wall_s: float
    stdout_tail: str = ""
    stderr_tail: str = ""
    workdir: str = ""
    extra: Mapping[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when the engine exited with status 0."""
        return self.exit_code == 0


def tail(text: str, limit: int = TAIL_CHARS) -> str:
    """The last ``limit`` characters of ``text``."""
    return text if len(text) <= limit else text[-limit:]


@dataclass(frozen=True)
class ArtifactRecord:
    """A file to record: path relative to the run directory, hash, size and meaning."""

    path: str
    sha256: str
    size: int
    kind: str
    description: str = ""
    schema_version: str = ""


@dataclass(frozen=True)
class DecisionRecord:
    """A decision taken (or left open) at a decision point."""

    point: str
    options: tuple[str, ...]
    chosen: str | None
    decided_by: str
    inputs_json: str = "{}"
    rationale: str = ""


@dataclass(frozen=True)
class EventRecord:
    """An event to record against the current step."""

    kind: str
    message: str = ""
    payload_json: str = "{}"


@dataclass(frozen=True)
class StepOutcome:
    """Everything a finished step attempt writes, committed atomically.

    ``run_status`` and friends update the run in the same transaction, so the
    store never shows a completed last step with a run still marked running.
    """

    step_id: int
    status: str
    wall_s: float
    successor: str | None = None
    successor_json: str | None = None
    decided_by: str | None = None
    reason: str | None = None
    structure_json: str | None = None
    error: str | None = None
    artifacts: tuple[ArtifactRecord, ...] = ()
    engine_calls: tuple[EngineCall, ...] = ()
    decisions: tuple[DecisionRecord, ...] = ()
    events: tuple[EventRecord, ...] = field(default_factory=tuple)
    run_status: str | None = None
    run_result_json: str | None = None
    run_error: str | None = None
