"""The Python API: plan, submit or run, follow and read runs.

The command line, the service and later clients (an MCP server, a dashboard) all call
:class:`Simwright`. It owns no logic of its own beyond wiring: requests go through the
one request path (:mod:`simwright.api.requests`), runs through the :class:`Runner`,
records through the :class:`Store`, and runs submitted for later through the store's
:class:`RunQueue`, which a worker process executes (:meth:`Simwright.execute`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from simwright.api.errors import Conflict, Forbidden, NotFound
from simwright.api.observer import StoreObserver
from simwright.api.requests import Request, plan
from simwright.api.views import event_json, results_json, run_json, show_json, timeline_json
from simwright.errors import StoreError
from simwright.executors.factory import job_runners
from simwright.graph import FixedChoice, Runner
from simwright.graph.codec import loads
from simwright.graph.lock import lock_held
from simwright.graph.observer import RunObserver
from simwright.graph.runner import RunOutcome
from simwright.kg.auto import completion_hooks
from simwright.knowledge.planner.resolver import Resolution
from simwright.protocols.preflight import preflight
from simwright.protocols.registry import Protocol, get_protocol
from simwright.settings import Settings
from simwright.store import RunRow, Store
from simwright.store.paths import Roots
from simwright.store.queue import ACTIVE, RunQueue
from simwright.store.reading import RunFields, RunReader, SqliteReader, sqlite_path

FINISHED = ("completed", "failed", "needs_review", "cancelled")
"""Run statuses after which nothing happens unless someone resumes the run."""


class RunFilter(BaseModel):
    """Which runs to list: by recorded status and protocol, a page at a time."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    status: str | None = Field(default=None, max_length=32)
    protocol: str | None = Field(default=None, max_length=128)
    limit: int = Field(default=50, ge=1, le=500)
    offset: int = Field(default=0, ge=0, le=10**9)


@dataclass(frozen=True)
class Submitted:
    """A run created and queued for a worker: its id and the plan it runs."""

    run_id: str
    plan: dict[str, Any]


class Simwright:
    """simwright as a library: one home's settings, its store and its protocols."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store | None = None,
        protocols: Mapping[str, Protocol] | None = None,
    ) -> None:
        self.settings = settings
        self.protocols = protocols
        self._store = store
        self._reader: RunReader | None = None

    # -- the store ------------------------------------------------------------
    @property
    def store(self) -> Store:
        """The provenance store (opened, and created if needed, on first use)."""
        if self._store is None:
            url = self.settings.db_url
            if url.startswith("sqlite:///"):
                Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
            self._store = Store(url, Roots(self.settings.runs_path, self.settings.campaigns_path))
        return self._store

    @property
    def reader(self) -> RunReader:
        """The read side: the standard-library SQLite reader on a SQLite store (several
        times cheaper per query than the ORM), else the store itself."""
        store = self.store  # opened first: the schema is at the head revision
        if self._reader is None:
            path = sqlite_path(store.url)
            self._reader = SqliteReader(path, store.roots) if path is not None else store
        return self._reader

    @property
    def queue(self) -> RunQueue:
        """The run queue of the service, in the store."""
        return RunQueue(self.store)

    def close(self) -> None:
        """Release the store's connections (and the reader's)."""
        if self._reader is not None and self._reader is not self._store:
            self._reader.close()
        if self._store is not None:
            self._store.close()

    # -- requests -------------------------------------------------------------
    def plan(self, request: Request, *, files: bool = True) -> Resolution:
        """How ``request`` is understood, with the preflight's estimate and the inputs a
        run would build; raises (a :class:`~simwright.errors.SimwrightError`) when a run
        would be refused. Creates nothing."""
        return plan(request, self.settings, self.protocols, files=files)

    def submit(self, request: Request, *, files: bool = True) -> Submitted:
        """Plan ``request``, create its run (``queued``) and queue it for a worker.

        A refused request creates nothing.
        """
        resolved = self.plan(request, files=files)
        proto = resolved.protocol
        runner = Runner(self.store, self.settings)
        run_id = runner.create(
            proto.graph,
            proto.first_step(resolved.params),
            protocol=proto.name,
            params=resolved.params,
            request=resolved.request,
        )
        self.queue.enqueue(run_id, message="submitted")
        return Submitted(run_id, resolved.to_json())

    def run(self, request: Request, *, observer: RunObserver | None = None) -> RunOutcome:
        """Plan ``request`` and execute its run here, now (what ``simwright run`` does)."""
        resolved = self.plan(request)
        proto = resolved.protocol
        assert resolved.preflight is not None  # planned with settings
        settings = resolved.preflight.run_settings(self.settings)
        runner = Runner(
            self.store,
            settings,
            observer=observer,
            jobs=job_runners(settings, self.store),
            hooks=completion_hooks(settings),
        )
        return runner.start(
            proto.graph,
            proto.first_step(resolved.params),
            protocol=proto.name,
            params=resolved.params,
            request=resolved.request,
        )

    def execute(self, run_id: str, *, choose: str | None = None) -> RunOutcome:
        """Execute (start or resume) a stored run in this process, recording its progress
        as events (what a service worker does)."""
        row = self.get_run(run_id)
        proto = get_protocol(row.protocol, self.protocols)
        settings = run_settings(proto, row, self.settings)
        runner = Runner(
            self.store,
            settings,
            decider=FixedChoice(choose) if choose else None,
            observer=StoreObserver(self.store, row.id),
            jobs=job_runners(settings, self.store),
            hooks=completion_hooks(settings),
        )
        return runner.resume(proto.graph, row.id)

    # -- reading --------------------------------------------------------------
    def get_run(self, run_id: str) -> RunRow:
        """The run whose id is exactly ``run_id`` (:class:`NotFound` otherwise)."""
        try:
            row = self.store.get_run(run_id)
        except StoreError as exc:
            raise NotFound(f"no run with id {run_id!r}") from exc
        if row.id != run_id:
            raise NotFound(f"no run with id {run_id!r} (give the whole id)")
        return row

    def runs(self, where: RunFilter | None = None) -> list[dict[str, Any]]:
        """Recent runs, newest first, filtered and paginated."""
        f = where or RunFilter()
        rows = self.store.list_runs(f.limit, offset=f.offset, status=f.status, protocol=f.protocol)
        return [run_json(r) for r in rows]

    def _read_run(self, run_id: str) -> RunFields:
        """The run whose id is exactly ``run_id``, read by :attr:`reader` (cheap)."""
        try:
            row = self.reader.get_run(run_id)
        except StoreError as exc:
            raise NotFound(f"no run with id {run_id!r}") from exc
        if row.id != run_id:
            raise NotFound(f"no run with id {run_id!r} (give the whole id)")
        return row

    def status(self, run_id: str, *, verify: bool = False) -> dict[str, Any]:
        """Everything recorded about a run (steps, decisions, engine calls, events) and
        its place in the service's queue; ``verify`` re-hashes its files."""
        row = self._read_run(run_id)
        data = show_json(self.reader, row, verify=verify)
        entry = self.reader.queue_state(row.id)
        data["queue"] = None if entry is None else {"state": entry[0], "choose": entry[1]}
        return data

    def results(self, run_id: str) -> dict[str, Any]:
        """A run's values with units, uncertainties and the files behind them."""
        return results_json(self.store, self.get_run(run_id))

    def timeline(self, run_id: str) -> list[dict[str, Any]]:
        """What happened in a run, in time order."""
        return timeline_json(self.store, self.get_run(run_id))

    def events(self, run_id: str, *, after: int = 0, limit: int = 500) -> list[dict[str, Any]]:
        """A run's events whose id is above ``after``, in order."""
        row = self._read_run(run_id)
        return [event_json(e) for e in self.reader.events_after(row.id, after, limit)]

    def finished(self, run_id: str) -> bool:
        """True when nothing more will happen to the run unless someone resumes it."""
        row = self._read_run(run_id)
        entry = self.reader.queue_state(row.id)
        if entry is not None and entry[0] in ACTIVE:
            return False
        return row.status in FINISHED or not lock_held(Path(row.workdir))

    def artifact(self, run_id: str, path: str) -> Path:
        """The file ``path`` of a run's directory; a path leaving the directory (``..``,
        absolute, a link pointing out) is refused (:class:`Forbidden`)."""
        run_dir = Path(self.get_run(run_id).workdir).resolve()
        rel = Path(path)
        if not path or rel.is_absolute() or ".." in rel.parts or "\x00" in path:
            raise Forbidden(f"{path!r} is not a path inside the run's directory")
        full = (run_dir / rel).resolve()
        if not full.is_relative_to(run_dir):
            raise Forbidden(f"{path!r} leads outside the run's directory")
        if not full.is_file():
            raise NotFound(f"run {run_id} has no file {path!r}")
        return full

    # -- control --------------------------------------------------------------
    def cancel(self, run_id: str) -> str:
        """Cancel a queued run, or stop a running one (its worker is interrupted; the run
        can be resumed later). Returns ``cancelled`` or ``cancelling``."""
        row = self.get_run(run_id)
        try:
            return self.queue.request_cancel(row.id)
        except StoreError as exc:
            raise Conflict(str(exc)) from exc

    def resume(self, run_id: str, *, choose: str | None = None) -> None:
        """Queue an interrupted, failed, cancelled or waiting run to continue from its
        last completed step (``choose`` answers its pending decision point)."""
        row = self.get_run(run_id)
        if row.status == "completed":
            raise Conflict(f"run {run_id} is completed: nothing to resume")
        if lock_held(Path(row.workdir)):
            raise Conflict(f"run {run_id} is being executed by another process")
        proto = get_protocol(row.protocol, self.protocols)
        run_settings(proto, row, self.settings)  # the preflight refuses before queueing
        try:
            self.queue.enqueue(row.id, choose=choose, message="resume requested")
        except StoreError as exc:
            raise Conflict(str(exc)) from exc


def run_settings(proto: Protocol, row: RunRow, settings: Settings) -> Settings:
    """``settings`` for executing a stored run: its parameters pass the same preflight as
    a new run (engines present, limits), which also sets the engine-call time limit."""
    params = loads(row.params_json) if row.params_json not in (None, "", "{}") else None
    if isinstance(params, BaseModel):
        return preflight(proto, params, settings).require().run_settings(settings)
    return settings
