"""Everything an agent run writes to the provenance store.

An agent run is a row of ``runs`` (protocol ``agent``) with its directory
``runs/<run_id>/``. Model requests go to ``agent_usage`` (one row each), subtasks
to ``agent_subtasks``, committee rounds to ``agent_reviews``; orchestration events
to ``events``. Each executor attempt is recorded as a step (``subtask:<id>``) with
the files of its working directory as artifacts and its engine calls (dry runs,
runs), so ``simwright show`` lists them like any protocol step.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from sqlalchemy import select

from simwright import __version__
from simwright.agents.usage.ledger import UsageEntry
from simwright.errors import ValidationError
from simwright.graph import codec
from simwright.graph.runner import new_run_id
from simwright.settings import Settings
from simwright.store import RunRow, Store, sha256_file
from simwright.store.models import utcnow
from simwright.store.models_agents import AgentReviewRow, AgentSubtaskRow, AgentUsageRow
from simwright.store.paths import to_stored
from simwright.store.records import ArtifactRecord, EngineCall, EventRecord, StepOutcome

AGENT_PROTOCOL = "agent"
HELD_STATUS = "needs_review"
"""The status of a run that waits for a person (a plan to approve, a Fail verdict)."""
MAX_ARTIFACTS = 200


class AgentRecorder:
    """Writes the records of one agent run."""

    def __init__(self, store: Store, run_id: str, run_dir: Path) -> None:
        self.store = store
        self.run_id = run_id
        self.run_dir = run_dir
        self._seq = len(store.steps(run_id))

    @classmethod
    def start(
        cls, store: Store, settings: Settings, request: str, params: Mapping[str, Any]
    ) -> AgentRecorder:
        """Create the run (status ``running``) and its directory."""
        run_id = new_run_id()
        run_dir = settings.runs_path / run_id
        run_dir.mkdir(parents=True)
        store.create_run(
            run_id,
            AGENT_PROTOCOL,
            request=request,
            params_json=codec.dumps(json.loads(json.dumps(dict(params), default=str))),
            workdir=str(run_dir),
            version=__version__,
        )
        return cls(store, run_id, run_dir)

    @classmethod
    def reopen(
        cls, store: Store, run_id: str, purpose: Literal["resume", "feedback", "approve"] = "resume"
    ) -> AgentRecorder:
        """The recorder of a stored agent run, to go on with it (status back to ``running``).

        ``resume``: a killed or failed run (not a completed one, nor one held for a
        person); ``feedback``: any run (a new turn); ``approve``: a run held for review.
        """
        row = store.get_run(run_id)
        if row.protocol != AGENT_PROTOCOL:
            raise ValidationError(f"run {row.id} is a {row.protocol} run, not an agent run")
        held = row.status == HELD_STATUS
        if purpose == "resume" and row.status == "completed":
            raise ValidationError(
                f"agent run {row.id} already completed; nothing to resume "
                f'(to go on with it: simwright ask --continue {row.id} "feedback")'
            )
        if purpose == "resume" and held:
            raise ValidationError(
                f"agent run {row.id} waits for a person: simwright ask --approve {row.id} "
                f'or simwright ask --continue {row.id} "change ..."'
            )
        if purpose == "approve" and not held:
            raise ValidationError(
                f"agent run {row.id} is {row.status}, not waiting for approval; nothing to approve"
            )
        run_dir = Path(row.workdir)
        if not run_dir.is_dir():
            raise ValidationError(f"cannot resume {row.id}: its folder {run_dir} is missing")
        with store.transaction() as s:
            run = s.get(RunRow, row.id)
            assert run is not None
            run.status, run.error, run.updated_at = "running", None, utcnow()
        return cls(store, row.id, run_dir)

    def usage_entries(self) -> list[UsageEntry]:
        """The model requests already booked for this run (a resumed ledger starts with them)."""
        with self.store.transaction() as s:
            q = select(AgentUsageRow).where(AgentUsageRow.run_id == self.run_id)
            rows = s.scalars(q.order_by(AgentUsageRow.id)).all()
            return [
                UsageEntry(
                    r.role,
                    r.subtask,
                    r.model,
                    r.input_tokens,
                    r.output_tokens,
                    r.prompt_tokens,
                    r.cost_usd,
                    r.ok,
                    r.requests,
                )
                for r in rows
            ]

    def subtasks(self) -> list[AgentSubtaskRow]:
        """The run's subtask rows in the order they were planned or added."""
        with self.store.transaction() as s:
            q = select(AgentSubtaskRow).where(AgentSubtaskRow.run_id == self.run_id)
            rows = list(s.scalars(q.order_by(AgentSubtaskRow.id)).all())
            s.expunge_all()
            return rows

    # -- usage and events ---------------------------------------------------
    def usage(self, e: UsageEntry) -> None:
        """Write one model request."""
        with self.store.transaction() as s:
            s.add(
                AgentUsageRow(
                    run_id=self.run_id,
                    role=e.role,
                    subtask=e.subtask,
                    model=e.model,
                    ok=e.ok,
                    requests=e.requests,
                    input_tokens=e.input_tokens,
                    output_tokens=e.output_tokens,
                    prompt_tokens=e.prompt_tokens,
                    cost_usd=e.cost_usd,
                )
            )

    def note(self, kind: str, message: str, payload: Mapping[str, Any]) -> None:
        """Write an event of the run."""
        self.store.add_event(
            self.run_id, EventRecord(kind, message[:2000], json.dumps(dict(payload), default=str))
        )

    # -- subtasks and reviews ----------------------------------------------
    def subtask(
        self,
        subtask_id: str,
        *,
        executor: str,
        instruction: str,
        spec: Mapping[str, Any],
        status: str,
        attempts: int = 0,
        report: Mapping[str, Any] | None = None,
        child_run_id: str | None = None,
        revision: int = 0,
    ) -> None:
        """Insert or update a subtask."""
        with self.store.transaction() as s:
            q = select(AgentSubtaskRow).where(
                AgentSubtaskRow.run_id == self.run_id, AgentSubtaskRow.subtask_id == subtask_id
            )
            row = s.scalars(q).first()
            if row is None:
                row = AgentSubtaskRow(run_id=self.run_id, subtask_id=subtask_id)
                s.add(row)
            row.executor = executor
            row.instruction = instruction
            row.spec_json = json.dumps(dict(spec), default=str)
            row.status = status
            row.attempts = attempts
            row.report_json = json.dumps(dict(report or {}), default=str)
            row.child_run_id = child_run_id
            row.revision = revision
            row.updated_at = utcnow()

    def review(
        self,
        subtask_id: str,
        *,
        point: str,
        round_: int,
        verdict: str,
        votes: Sequence[Mapping[str, Any]],
        feedback: str,
    ) -> None:
        """Write one round of the critic committee."""
        with self.store.transaction() as s:
            s.add(
                AgentReviewRow(
                    run_id=self.run_id,
                    subtask_id=subtask_id,
                    point=point,
                    round=round_,
                    verdict=verdict,
                    votes_json=json.dumps([dict(v) for v in votes]),
                    feedback=feedback,
                )
            )

    # -- executor attempts as steps -----------------------------------------
    def attempt(
        self,
        subtask_id: str,
        attempt: int,
        workdir: Path,
        *,
        status: str,
        engine_calls: Iterable[EngineCall] = (),
        error: str | None = None,
        wall_s: float = 0.0,
        spec: Mapping[str, Any] | None = None,
    ) -> None:
        """Record one executor attempt as a step with its files and engine calls."""
        self._seq += 1
        spec_json = json.dumps(dict(spec or {}), default=str, sort_keys=True)
        step_id = self.store.begin_step(
            self.run_id,
            seq=self._seq,
            attempt=attempt,
            name=f"subtask:{subtask_id}",
            step_json=spec_json,
            inputs_hash=_hash(spec_json),
            workdir=to_stored(workdir, self.run_dir),
        )
        self.store.finish_step(
            self.run_id,
            StepOutcome(
                step_id=step_id,
                status=status,
                wall_s=wall_s,
                decided_by="agent",
                error=error,
                artifacts=tuple(self._artifacts(workdir)),
                engine_calls=tuple(engine_calls),
            ),
        )

    def _artifacts(self, workdir: Path) -> list[ArtifactRecord]:
        if not workdir.is_dir():
            return []
        files = sorted(p for p in workdir.rglob("*") if p.is_file())[:MAX_ARTIFACTS]
        out = []
        for path in files:
            try:
                rel = str(path.resolve().relative_to(self.run_dir.resolve()))
            except ValueError:
                continue
            out.append(ArtifactRecord(rel, sha256_file(path), path.stat().st_size, _kind(path)))
        return out

    # -- the end ------------------------------------------------------------
    def finish(self, status: str, result: Mapping[str, Any] | None, error: str | None) -> None:
        """Set the run's final status, result and error in one transaction."""
        with self.store.transaction() as s:
            run = s.get(RunRow, self.run_id)
            assert run is not None
            run.status = status
            run.error = error
            run.result_json = json.dumps(dict(result), default=str) if result is not None else None
            run.updated_at = utcnow()


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _kind(path: Path) -> str:
    suffix = path.suffix.lower()
    return {
        ".h5": "table",
        ".extxyz": "structure",
        ".xyz": "structure",
        ".json": "json",
        ".lammps": "script",
        ".in": "script",
        ".inp": "script",
        ".yaml": "script",
    }.get(suffix, "file")


def elapsed(start: float) -> float:
    """Seconds since ``start`` (``time.perf_counter``)."""
    return time.perf_counter() - start
