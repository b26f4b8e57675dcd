"""The :class:`Store`: transactional writes and queries of provenance records."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import create_engine, event, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.attributes import set_committed_value

from simwright.errors import StoreError
from simwright.store import models_agents as models_agents  # agent tables on Base.metadata
from simwright.store import models_campaign as models_campaign  # campaign tables on Base.metadata
from simwright.store import models_queue as models_queue  # the service's queue on Base.metadata
from simwright.store.migrate import upgrade
from simwright.store.models import (
    ArtifactRow,
    Base,
    DecisionRow,
    EngineCallRow,
    EventRow,
    RunRow,
    StepRow,
    utcnow,
)
from simwright.store.models_agents import AgentUsageRow
from simwright.store.paths import Roots, from_stored, to_stored
from simwright.store.records import EventRecord, StepOutcome
from simwright.store.urls import sqlite_path

RowT = TypeVar("RowT", bound=Base)


def sqlite_url(path: Path) -> str:
    """The SQLAlchemy URL of a SQLite database file."""
    return f"sqlite:///{path}"


def migration_lock(url: str) -> Path | None:
    """The file whose lock serialises migrations of a SQLite store (beside it)."""
    db = sqlite_path(url)
    return None if db is None else db.with_name(db.name + ".lock")


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA busy_timeout=10000")  # first: switching to WAL may have to wait
    cur.execute("PRAGMA journal_mode=WAL")  # readers never block the writer
    cur.execute("PRAGMA synchronous=NORMAL")  # durable across process kills in WAL mode
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


class Store:
    """Provenance records of runs behind SQLAlchemy (SQLite by default).

    Every write is one transaction: a process killed at any moment leaves either
    the state before or the state after a write, never half of it. Run directories
    are recorded relative to ``roots.runs`` and read back absolute
    (:mod:`simwright.store.paths`; default: ``runs/`` beside a SQLite file).
    """

    def __init__(self, url: str, roots: Roots | None = None) -> None:
        self.url = url
        self.roots = roots if roots is not None else Roots.beside(url)
        self.engine: Engine = create_engine(url)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            upgrade(self.engine, migration_lock(url))
        except Exception as exc:
            raise StoreError(f"cannot open the provenance store at {url}: {exc}") from exc
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @classmethod
    def at(cls, path: Path, roots: Roots | None = None) -> Store:
        """Open (creating if needed) the SQLite store at ``path``."""
        path.parent.mkdir(parents=True, exist_ok=True)
        return cls(sqlite_url(path), roots)

    @classmethod
    def existing(cls, url: str, roots: Roots | None = None) -> Store:
        """Open the store at ``url`` only if it exists: creates no file and no folder.

        For read-only commands; raises :class:`StoreError` for a SQLite file that is not there.
        """
        db = sqlite_path(url)
        if db is not None and not db.is_file():
            raise StoreError(f"no simwright store at {db}")
        return cls(url, roots)

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session committed on success and rolled back on any error."""
        with self._sessions.begin() as session:
            yield session

    # -- runs ---------------------------------------------------------------
    def create_run(
        self,
        run_id: str,
        protocol: str,
        *,
        request: str,
        params_json: str,
        workdir: str,
        version: str,
        entry_json: str | None = None,
        status: str = "running",
    ) -> RunRow:
        """Insert a new run with status ``running`` (``queued`` for one a worker will start).

        ``entry_json`` (the encoded first step) is recorded in the same transaction, so a
        run killed right after it was created can still be resumed from its first step.
        """
        row = RunRow(
            id=run_id,
            protocol=protocol,
            request=request,
            params_json=params_json,
            status=status,
            workdir=to_stored(workdir, self.roots.runs),
            simwright_version=version,
        )
        with self.transaction() as s:
            s.add(row)
            s.flush()
            s.add(EventRow(run_id=run_id, kind="run_started", message=request or protocol))
            if entry_json is not None:
                payload = json.dumps({"step": entry_json})
                s.add(
                    EventRow(
                        run_id=run_id, kind="entry", message="first step", payload_json=payload
                    )
                )
        return self._absolute(row)

    def _absolute(self, row: RunRow) -> RunRow:
        """``row`` with its directory absolute (recorded relative to the runs root)."""
        set_committed_value(row, "workdir", from_stored(row.workdir, self.roots.runs))
        return row

    def get_run(self, run_id: str) -> RunRow:
        """The run whose id is ``run_id`` or starts with it (must be unambiguous)."""
        with self._sessions() as s:
            exact = s.get(RunRow, run_id)
            if exact is not None:
                return self._absolute(exact)
            rows = s.scalars(select(RunRow).where(RunRow.id.startswith(run_id))).all()
        if not rows:
            raise StoreError(f"no run with id {run_id!r} (see `simwright runs`)")
        if len(rows) > 1:
            raise StoreError(f"run id {run_id!r} is ambiguous: {', '.join(r.id for r in rows)}")
        return self._absolute(rows[0])

    def list_runs(
        self,
        limit: int = 50,
        *,
        offset: int = 0,
        status: str | None = None,
        protocol: str | None = None,
    ) -> list[RunRow]:
        """The most recent runs first, optionally only those of a recorded ``status`` or
        ``protocol``; ``offset`` skips that many (pagination)."""
        q = select(RunRow)
        if status is not None:
            q = q.where(RunRow.status == status)
        if protocol is not None:
            q = q.where(RunRow.protocol == protocol)
        q = q.order_by(RunRow.created_at.desc(), RunRow.id.desc()).offset(offset).limit(limit)
        with self._sessions() as s:
            return [self._absolute(r) for r in s.scalars(q).all()]

    def events_after(self, run_id: str, after: int = 0, limit: int = 500) -> list[EventRow]:
        """Events of a run whose id is above ``after``, in order (event ids only grow)."""
        q = (
            select(EventRow)
            .where(EventRow.run_id == run_id, EventRow.id > after)
            .order_by(EventRow.id)
            .limit(limit)
        )
        with self._sessions() as s:
            return list(s.scalars(q).all())

    def queue_state(self, run_id: str) -> tuple[str, str | None] | None:
        """The run's state in the service's queue and its pending answer (None: never
        queued); :class:`~simwright.store.queue.RunQueue` changes it."""
        with self._sessions() as s:
            row = s.get(models_queue.QueueRow, run_id)
            return None if row is None else (row.state, row.choose)

    def set_run_status(
        self,
        run_id: str,
        status: str,
        *,
        error: str | None = None,
        event: EventRecord | None = None,
    ) -> None:
        """Change a run's status (with an optional event) in one transaction."""
        with self.transaction() as s:
            run = s.get(RunRow, run_id)
            if run is None:
                raise StoreError(f"no run {run_id!r}")
            run.status = status
            run.error = error
            run.updated_at = utcnow()
            if event is not None:
                s.add(
                    EventRow(
                        run_id=run_id,
                        kind=event.kind,
                        message=event.message,
                        payload_json=event.payload_json,
                    )
                )

    def mark_interrupted(self, run_id: str, message: str) -> None:
        """Mark the run and its running step attempts ``interrupted`` in one transaction.

        A completed run is left as it is.
        """
        with self.transaction() as s:
            run = s.get(RunRow, run_id)
            if run is None or run.status == "completed":
                return
            running = select(StepRow).where(StepRow.run_id == run_id, StepRow.status == "running")
            for step in s.scalars(running).all():
                step.status = "interrupted"
                step.error = message
                step.finished_at = utcnow()
            run.status = "interrupted"
            run.error = message
            run.updated_at = utcnow()
            s.add(EventRow(run_id=run_id, kind="run_interrupted", message=message))

    def mark_step(self, run_id: str, step_id: int, status: str, message: str) -> None:
        """Set the status of a step attempt left unfinished (e.g. ``killed``), with an event."""
        with self.transaction() as s:
            step = s.get(StepRow, step_id)
            if step is None or step.run_id != run_id:
                raise StoreError(f"no step {step_id} in run {run_id}")
            step.status = status
            step.error = message
            s.add(EventRow(run_id=run_id, step_id=step_id, kind=f"step_{status}", message=message))

    # -- steps --------------------------------------------------------------
    def begin_step(
        self,
        run_id: str,
        *,
        seq: int,
        attempt: int,
        name: str,
        step_json: str,
        inputs_hash: str,
        workdir: str,
    ) -> int:
        """Record that a step attempt started; returns its id."""
        row = StepRow(
            run_id=run_id,
            seq=seq,
            attempt=attempt,
            name=name,
            step_json=step_json,
            inputs_hash=inputs_hash,
            status="running",
            workdir=workdir,
        )
        with self.transaction() as s:
            s.add(row)
            s.flush()
            return row.id

    def finish_step(self, run_id: str, outcome: StepOutcome) -> None:
        """Write a finished step attempt and everything it produced, atomically."""
        with self.transaction() as s:
            step = s.get(StepRow, outcome.step_id)
            if step is None:
                raise StoreError(f"no step {outcome.step_id} in run {run_id}")
            self._apply_step(step, outcome)
            self._add_children(s, run_id, outcome)
            if outcome.run_status is not None:
                run = s.get(RunRow, run_id)
                assert run is not None
                run.status = outcome.run_status
                run.updated_at = utcnow()
                run.error = outcome.run_error
                if outcome.run_result_json is not None:
                    run.result_json = outcome.run_result_json

    @staticmethod
    def _apply_step(step: StepRow, o: StepOutcome) -> None:
        step.status = o.status
        step.successor = o.successor
        step.successor_json = o.successor_json
        step.decided_by = o.decided_by
        step.reason = o.reason
        step.structure_json = o.structure_json
        step.error = o.error
        step.wall_s = o.wall_s
        step.finished_at = utcnow()

    @staticmethod
    def _add_children(s: Session, run_id: str, o: StepOutcome) -> None:
        sid = o.step_id
        for a in o.artifacts:
            s.add(
                ArtifactRow(
                    run_id=run_id,
                    step_id=sid,
                    kind=a.kind,
                    path=a.path,
                    sha256=a.sha256,
                    size=a.size,
                    description=a.description,
                    schema_version=a.schema_version,
                )
            )
        for c in o.engine_calls:
            s.add(
                EngineCallRow(
                    run_id=run_id,
                    step_id=sid,
                    engine=c.engine,
                    command=c.command,
                    version=c.version,
                    exit_code=c.exit_code,
                    wall_s=c.wall_s,
                    stdout_tail=c.stdout_tail,
                    stderr_tail=c.stderr_tail,
                    extra_json=json.dumps(dict(c.extra), sort_keys=True),
                )
            )
        for d in o.decisions:
            s.add(
                DecisionRow(
                    run_id=run_id,
                    step_id=sid,
                    point=d.point,
                    options_json=_json_list(d.options),
                    chosen=d.chosen,
                    decided_by=d.decided_by,
                    inputs_json=d.inputs_json,
                    rationale=d.rationale,
                )
            )
        for e in o.events:
            s.add(
                EventRow(
                    run_id=run_id,
                    step_id=sid,
                    kind=e.kind,
                    message=e.message,
                    payload_json=e.payload_json,
                )
            )

    # -- queries ------------------------------------------------------------
    def steps(self, run_id: str) -> list[StepRow]:
        """All step attempts of a run in execution order."""
        return self._children(StepRow, run_id, StepRow.id)

    def artifacts(self, run_id: str) -> list[ArtifactRow]:
        """All artifacts of a run."""
        return self._children(ArtifactRow, run_id, ArtifactRow.id)

    def engine_calls(self, run_id: str) -> list[EngineCallRow]:
        """All engine calls of a run."""
        return self._children(EngineCallRow, run_id, EngineCallRow.id)

    def decisions(self, run_id: str) -> list[DecisionRow]:
        """All decisions of a run."""
        return self._children(DecisionRow, run_id, DecisionRow.id)

    def events(self, run_id: str) -> list[EventRow]:
        """All events of a run."""
        return self._children(EventRow, run_id, EventRow.id)

    def usage(self, run_id: str) -> list[AgentUsageRow]:
        """The model-usage rows of a run (the agents' ledger)."""
        return self._children(AgentUsageRow, run_id, AgentUsageRow.id)

    def add_event(self, run_id: str, event: EventRecord, step_id: int | None = None) -> None:
        """Record one event."""
        with self.transaction() as s:
            s.add(
                EventRow(
                    run_id=run_id,
                    step_id=step_id,
                    kind=event.kind,
                    message=event.message,
                    payload_json=event.payload_json,
                )
            )

    def _children(self, model: type[RowT], run_id: str, order: Any) -> list[RowT]:
        with self._sessions() as s:
            q = select(model).where(model.run_id == run_id).order_by(order)  # type: ignore[attr-defined]
            return list(s.scalars(q).all())


def _json_list(items: Sequence[str]) -> str:
    return json.dumps(list(items))
