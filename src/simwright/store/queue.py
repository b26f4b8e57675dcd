"""The run queue of the service, kept in the store (table ``service_queue``).

One row per run the service was asked to execute: its state moves
``queued -> running -> done`` (or ``cancelling -> cancelled``). Each change is one
transaction, and a claim is a conditional update, so two dispatchers could never
take the same run; a service restarted after a crash re-queues the runs its dead
workers held (:meth:`RunQueue.requeue_orphans`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select, update

from simwright.errors import StoreError
from simwright.store.models import EventRow, RunRow, utcnow
from simwright.store.models_queue import QueueRow
from simwright.store.store import Store

ACTIVE = ("queued", "running", "cancelling")
"""Queue states of a run the service has not finished with."""


@dataclass(frozen=True)
class QueueEntry:
    """A run's place in the queue (a value copied out of its row)."""

    run_id: str
    state: str
    choose: str | None
    worker_pid: int | None
    attempts: int


def _entry(row: QueueRow) -> QueueEntry:
    return QueueEntry(row.run_id, row.state, row.choose, row.worker_pid, row.attempts)


class RunQueue:
    """Queue operations over a :class:`Store`, each one transaction."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def enqueue(self, run_id: str, *, choose: str | None = None, message: str = "") -> None:
        """Queue ``run_id`` for a worker (a new run, or a resume with an optional answer).

        Refuses a run the service is already executing or has queued.
        """
        with self.store.transaction() as s:
            row = s.get(QueueRow, run_id)
            if row is not None and row.state in ACTIVE:
                raise StoreError(f"run {run_id} is already {row.state} in the service")
            if row is None:
                row = QueueRow(run_id=run_id, state="queued", attempts=0)
                s.add(row)
            row.state = "queued"
            row.choose = choose
            row.worker_pid = None
            row.queued_at = row.updated_at = utcnow()
            s.add(EventRow(run_id=run_id, kind="queued", message=message or "queued"))

    def get(self, run_id: str) -> QueueEntry | None:
        """The queue entry of ``run_id`` (None when the service never took it)."""
        with self.store.transaction() as s:
            row = s.get(QueueRow, run_id)
            return None if row is None else _entry(row)

    def entries(self, states: tuple[str, ...] = ACTIVE) -> list[QueueEntry]:
        """Entries in ``states``, oldest first."""
        with self.store.transaction() as s:
            q = select(QueueRow).where(QueueRow.state.in_(states)).order_by(QueueRow.queued_at)
            return [_entry(r) for r in s.scalars(q).all()]

    def claim(self, run_id: str) -> bool:
        """Move a queued run to ``running``; False when it is no longer queued."""
        with self.store.transaction() as s:
            done = s.execute(
                update(QueueRow)
                .where(QueueRow.run_id == run_id, QueueRow.state == "queued")
                .values(state="running", attempts=QueueRow.attempts + 1, updated_at=utcnow())
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def set_worker(self, run_id: str, pid: int) -> None:
        """Record the process id of the worker executing ``run_id``."""
        with self.store.transaction() as s:
            s.execute(update(QueueRow).where(QueueRow.run_id == run_id).values(worker_pid=pid))

    def finish(self, run_id: str, state: str, message: str = "") -> None:
        """End a run's job with ``state`` (``done`` or ``cancelled``), with an event."""
        with self.store.transaction() as s:
            row = s.get(QueueRow, run_id)
            if row is None:
                return
            row.state = state
            row.worker_pid = None
            row.updated_at = utcnow()
            if state == "cancelled":
                run = s.get(RunRow, run_id)
                if run is not None and run.status in ("queued", "running", "interrupted"):
                    run.status = "cancelled"
                    run.error = message or "cancelled through the service"
                    run.updated_at = utcnow()
                s.add(EventRow(run_id=run_id, kind="cancelled", message=message or "cancelled"))

    def request_cancel(self, run_id: str) -> str:
        """Cancel a queued run at once, or ask for a running one to be stopped.

        Returns the new state (``cancelled`` or ``cancelling``); refuses a run the service
        is not executing.
        """
        entry = self.get(run_id)
        if entry is None or entry.state not in ACTIVE:
            raise StoreError(f"run {run_id} is not queued or running in the service")
        if entry.state == "queued":
            self.finish(run_id, "cancelled", "cancelled before it started")
            return "cancelled"
        with self.store.transaction() as s:
            s.execute(
                update(QueueRow)
                .where(QueueRow.run_id == run_id, QueueRow.state == "running")
                .values(state="cancelling", updated_at=utcnow())
            )
        return "cancelling"

    def requeue_orphans(self) -> list[str]:
        """Queue again the runs held by workers of a service that died; returns their ids.

        Called once by a starting service, which holds the service lock: no other
        dispatcher's worker can be alive. A run being cancelled is cancelled.
        """
        found: list[str] = []
        for entry in self.entries(("running", "cancelling")):
            if entry.state == "cancelling":
                self.finish(entry.run_id, "cancelled", "cancelled (the service stopped)")
                continue
            with self.store.transaction() as s:
                row = s.get(QueueRow, entry.run_id)
                assert row is not None
                row.state = "queued"
                row.worker_pid = None
                row.updated_at = utcnow()
                s.add(
                    EventRow(
                        run_id=entry.run_id,
                        kind="requeued",
                        message="the service restarted; the run resumes from its last step",
                    )
                )
            found.append(entry.run_id)
        return found
