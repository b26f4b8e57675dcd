"""Write-ahead records of batch submissions, kept as events of the run in the store.

Before a job is handed to the scheduler, an ``job_intent`` event names it (its key, the
attempt number, the deterministic job name, the fingerprint of its inputs, the folder
it runs in); once the scheduler answers, ``job_submitted`` adds the job id; when it
ends, ``job_ended`` records the final state, exit code and state history. Each is
committed at once (``Store.add_event``), not with the step, so a controller killed at
any instant leaves enough for the next one to re-attach instead of submitting again:
an intent without an id is looked up by its job name.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from simwright.executors.backend import JobEnd
from simwright.store.records import EventRecord

if TYPE_CHECKING:
    from simwright.store.store import Store

INTENT: Final = "job_intent"
SUBMITTED: Final = "job_submitted"
ENDED: Final = "job_ended"


@dataclass(frozen=True)
class Submission:
    """One attempt to run an engine call as a batch job."""

    key: str
    attempt: int
    job_name: str
    fingerprint: str
    workdir: str
    executor: str
    job_id: str | None = None


@dataclass(frozen=True)
class Ending:
    """How a recorded attempt ended (from ``job_ended``)."""

    state: str
    exit_code: int | None
    history: str


@dataclass(frozen=True)
class Attempt:
    """An attempt as the journal knows it: the submission, its job id, and its end if any."""

    submission: Submission
    ending: Ending | None


class SubmissionJournal(Protocol):
    """Where submissions are recorded before the scheduler is asked, and read back."""

    def intent(self, sub: Submission) -> None:
        """Record that ``sub`` is about to be submitted."""
        ...

    def submitted(self, sub: Submission, job_id: str) -> None:
        """Record the scheduler's job id of ``sub``."""
        ...

    def ended(self, sub: Submission, job_id: str | None, end: JobEnd) -> None:
        """Record how ``sub`` ended."""
        ...

    def attempts(self, key: str) -> list[Attempt]:
        """Every recorded attempt of engine call ``key``, oldest first."""
        ...


class Journal:
    """The submission records of one run, written as events of the current step."""

    def __init__(self, store: Store, run_id: str, step_id: int) -> None:
        self.store = store
        self.run_id = run_id
        self.step_id = step_id

    def intent(self, sub: Submission) -> None:
        """Record that ``sub`` is about to be submitted (before the scheduler is asked)."""
        self._add(INTENT, f"submitting {sub.job_name}", _payload(sub))

    def submitted(self, sub: Submission, job_id: str) -> None:
        """Record the scheduler's job id of ``sub``."""
        self._add(SUBMITTED, f"{sub.executor} job {job_id}", {**_payload(sub), "job_id": job_id})

    def ended(self, sub: Submission, job_id: str | None, end: JobEnd) -> None:
        """Record how ``sub`` (job ``job_id``) ended."""
        self._add(ENDED, f"{sub.executor} job {job_id}: {end.state}", end_payload(sub, job_id, end))

    def attempts(self, key: str) -> list[Attempt]:
        """Every recorded attempt of engine call ``key``, oldest first."""
        records = [
            (row.kind, json.loads(row.payload_json)) for row in self.store.events(self.run_id)
        ]
        return fold_attempts(records, key)

    def _add(self, kind: str, message: str, payload: dict[str, Any]) -> None:
        self.store.add_event(
            self.run_id, EventRecord(kind, message, json.dumps(payload)), self.step_id
        )


def fold_attempts(records: list[tuple[str, dict[str, Any]]], key: str) -> list[Attempt]:
    """The attempts of ``key`` from ``(kind, payload)`` records in the order written."""
    subs: dict[int, Submission] = {}
    ends: dict[int, Ending] = {}
    for kind, data in records:
        if kind not in (INTENT, SUBMITTED, ENDED) or data.get("key") != key:
            continue
        sub = _submission(data)
        known = subs.get(sub.attempt)
        subs[sub.attempt] = sub if sub.job_id or known is None else known
        if kind == ENDED:
            ends[sub.attempt] = Ending(data["state"], data.get("exit_code"), data["history"])
    return [Attempt(subs[n], ends.get(n)) for n in sorted(subs)]


def payload(sub: Submission) -> dict[str, Any]:
    """The JSON payload of a submission record."""
    return _payload(sub)


def end_payload(sub: Submission, job_id: str | None, end: JobEnd) -> dict[str, Any]:
    """The JSON payload of a ``job_ended`` record."""
    return {
        **_payload(sub),
        "job_id": job_id,
        "state": end.state,
        "exit_code": end.exit_code,
        "history": end.describe_history(),
        "message": end.message,
    }


def _payload(sub: Submission) -> dict[str, Any]:
    return {
        "key": sub.key,
        "attempt": sub.attempt,
        "job_name": sub.job_name,
        "fingerprint": sub.fingerprint,
        "workdir": sub.workdir,
        "executor": sub.executor,
        "job_id": sub.job_id,
    }


def _submission(data: dict[str, Any]) -> Submission:
    return Submission(
        key=data["key"],
        attempt=int(data["attempt"]),
        job_name=data["job_name"],
        fingerprint=data["fingerprint"],
        workdir=data["workdir"],
        executor=data["executor"],
        job_id=data.get("job_id"),
    )
