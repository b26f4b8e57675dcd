"""The protocol of a batch scheduler as the durable runner sees it, and the values it returns."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from simwright.jobs import STOPPED_EXIT, EngineJob

FINISHED = "COMPLETED"
"""The final state of a job whose engine ran to its end (its exit code is known)."""
REQUEUED = "REQUEUED"
"""The end recorded for a continuable job the scheduler requeued, stopped by simwright."""


@dataclass(frozen=True)
class StateChange:
    """One state the scheduler reported for a job, ``at_s`` seconds after waiting began."""

    state: str
    at_s: float
    message: str = ""


@dataclass(frozen=True)
class JobEnd:
    """How a batch job ended: its final state, the engine's exit code (None when the engine
    did not run to its end: cancelled, preempted, out of wall time, lost) and the states
    seen while waiting."""

    state: str
    exit_code: int | None
    history: tuple[StateChange, ...] = ()
    message: str = ""

    @property
    def engine_finished(self) -> bool:
        """True when the engine ran to its end (whatever its exit code)."""
        return self.exit_code is not None

    @property
    def stopped_by(self) -> str:
        """``wall time`` or ``requeue`` for a job stopped before its end, else empty."""
        if self.exit_code != STOPPED_EXIT:
            return ""
        return "requeue" if self.state == REQUEUED else "wall time"

    def describe_history(self) -> str:
        """``QUEUED@0.0s ACTIVE@0.4s COMPLETED@1.3s``."""
        return " ".join(f"{c.state}@{c.at_s:.1f}s" for c in self.history)


class BatchBackend(Protocol):
    """A batch scheduler: submit, find a job by name, wait for it, cancel it."""

    @property
    def name(self) -> str:
        """``slurm`` or ``pbs``."""
        ...

    def submit(self, job: EngineJob, job_name: str) -> str:
        """Submit ``job`` under ``job_name``; the scheduler's job id."""
        ...

    def find(self, job_name: str) -> str | None:
        """The id of a job named ``job_name`` the scheduler still knows, or None."""
        ...

    def wait(
        self,
        job: EngineJob,
        job_id: str,
        monitor: Callable[[], None] | None = None,
        monitor_every_s: float = 2.0,
    ) -> JobEnd:
        """Follow job ``job_id`` (submitted now or before a restart) to its end."""
        ...

    def cancel(self, job_id: str) -> None:
        """Cancel job ``job_id`` (nothing when it has ended)."""
        ...
