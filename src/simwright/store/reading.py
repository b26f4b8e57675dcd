"""Reading a run's record without SQLAlchemy, for the quick read-only commands.

``simwright runs`` and ``simwright show`` answer in well under a second only if they do
not import SQLAlchemy and map the schema (about 0.3 s). :class:`SqliteReader` reads a
SQLite store at the head schema revision with the standard library, opened read-only;
:class:`~simwright.store.store.Store` offers the same methods (:class:`RunReader`), and
:func:`open_reader` chooses: the plain reader where it can, the store otherwise (another
database, or a schema that needs a migration first). The rows of both satisfy the
``*Fields`` protocols below, so the views that print them do not care which read them;
a test compares the two readers row by row on one store.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol, cast

from simwright.errors import StoreError
from simwright.store.paths import Roots, from_stored
from simwright.store.urls import sqlite_path


class RunFields(Protocol):
    """What the views read of a run row."""

    id: str
    protocol: str
    request: str
    params_json: str
    status: str
    workdir: str
    result_json: str | None
    error: str | None
    simwright_version: str
    created_at: datetime
    updated_at: datetime


class StepFields(Protocol):
    """What the views read of a step attempt."""

    id: int
    seq: int
    attempt: int
    name: str
    status: str
    successor: str | None
    decided_by: str | None
    reason: str | None
    inputs_hash: str
    wall_s: float | None
    workdir: str
    structure_json: str | None
    error: str | None
    step_json: str
    started_at: datetime
    finished_at: datetime | None


class ArtifactFields(Protocol):
    """What the views and the integrity check read of an artifact."""

    path: str
    kind: str
    sha256: str
    size: int
    schema_version: str
    step_id: int
    description: str


class EngineCallFields(Protocol):
    """What the views read of an engine call."""

    engine: str
    command: str
    version: str
    exit_code: int
    wall_s: float
    step_id: int
    stdout_tail: str
    stderr_tail: str
    extra_json: str


class DecisionFields(Protocol):
    """What the views read of a decision."""

    step_id: int
    point: str
    options_json: str
    chosen: str | None
    decided_by: str
    rationale: str
    inputs_json: str


class EventFields(Protocol):
    """What the views read of an event."""

    id: int
    kind: str
    message: str
    step_id: int | None
    payload_json: str
    created_at: datetime


class UsageFields(Protocol):
    """What the usage ledger reads of a model-usage row."""

    role: str
    subtask: str
    model: str
    requests: int
    input_tokens: int
    output_tokens: int
    prompt_tokens: int
    cost_usd: float
    ok: bool


class RunReader(Protocol):
    """Read access to the record of runs (the store, or :class:`SqliteReader`)."""

    def get_run(self, run_id: str) -> RunFields:
        """The run whose id is ``run_id`` or starts with it (must be unambiguous)."""
        ...

    def list_runs(self, limit: int = 50) -> Sequence[RunFields]:
        """The most recent runs first."""
        ...

    def steps(self, run_id: str) -> Sequence[StepFields]:
        """All step attempts of a run in execution order."""
        ...

    def artifacts(self, run_id: str) -> Sequence[ArtifactFields]:
        """All artifacts of a run."""
        ...

    def engine_calls(self, run_id: str) -> Sequence[EngineCallFields]:
        """All engine calls of a run."""
        ...

    def decisions(self, run_id: str) -> Sequence[DecisionFields]:
        """All decisions of a run."""
        ...

    def events(self, run_id: str) -> Sequence[EventFields]:
        """All events of a run."""
        ...

    def usage(self, run_id: str) -> Sequence[UsageFields]:
        """The model-usage rows of a run."""
        ...

    def events_after(self, run_id: str, after: int = 0, limit: int = 500) -> Sequence[EventFields]:
        """Events of a run whose id is above ``after``, in order (event ids only grow)."""
        ...

    def queue_state(self, run_id: str) -> tuple[str, str | None] | None:
        """The run's state in the service's queue and its pending answer (None: never
        queued)."""
        ...

    def close(self) -> None:
        """Release the database connections."""
        ...


_DATETIMES = frozenset({"created_at", "updated_at", "started_at", "finished_at"})


class _Row:
    """A row as attributes; date-time columns parsed as the ORM parses them."""

    __slots__ = ("_values",)

    def __init__(self, row: sqlite3.Row) -> None:
        self._values = {k: row[k] for k in row.keys()}  # noqa: SIM118 (sqlite3.Row)

    def __getattr__(self, name: str) -> Any:
        try:
            value = self._values[name]
        except KeyError:
            raise AttributeError(name) from None
        if name in _DATETIMES and isinstance(value, str):
            return datetime.fromisoformat(value)
        if name == "ok" and isinstance(value, int):
            return bool(value)
        return value

    def absolute(self, name: str, root: Path | None) -> None:
        """Make the recorded path in column ``name`` absolute against ``root``."""
        self._values[name] = from_stored(self._values[name], root)


class SqliteReader:
    """A SQLite store read with the standard library, read-only (:class:`RunReader`).

    Each thread keeps one read-only connection and reuses it: opening a connection
    and reading the schema again for every query cost more than the queries (the
    service answers a status with nine of them). Reads outside a transaction see the
    latest committed state (the store is in WAL mode: readers never block the writer).
    """

    def __init__(self, path: Path, roots: Roots | None = None) -> None:
        self._path = path
        self._runs_root = (roots if roots is not None else Roots.beside(f"sqlite:///{path}")).runs
        self._uri = f"{path.resolve().as_uri()}?mode=ro"
        self._local = threading.local()
        self._opened: dict[int, tuple[threading.Thread, sqlite3.Connection]] = {}
        self._lock = threading.Lock()

    def _connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            # used by its own thread only; closed by close() or once its thread ended
            conn = sqlite3.connect(self._uri, uri=True, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            self._local.conn = conn
            with self._lock:
                for key, (thread, old) in list(self._opened.items()):
                    if not thread.is_alive():  # a pool's thread that retired
                        old.close()
                        del self._opened[key]
                self._opened[id(conn)] = (threading.current_thread(), conn)
        return conn

    def _run(self, row: _Row) -> RunFields:
        """A run row with its directory absolute (recorded relative to the runs root)."""
        row.absolute("workdir", self._runs_root)
        return cast(RunFields, row)

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[_Row]:
        try:
            return [_Row(r) for r in self._connection().execute(sql, args).fetchall()]
        except sqlite3.Error as exc:
            self._forget()
            raise StoreError(f"cannot read the store {self._path}: {exc}") from exc

    def _forget(self) -> None:
        """Drop this thread's connection (after an error: the next query opens anew)."""
        conn = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None:
            with self._lock:
                self._opened.pop(id(conn), None)
            conn.close()

    def revision(self) -> str | None:
        """The schema revision of the database (None before the first migration)."""
        tables = self._query("SELECT name FROM sqlite_master WHERE name = 'alembic_version'")
        if not tables:
            return None
        rows = self._query("SELECT version_num FROM alembic_version")
        return str(rows[0].version_num) if rows else None

    def get_run(self, run_id: str) -> RunFields:
        """The run whose id is ``run_id`` or starts with it (must be unambiguous)."""
        exact = self._query("SELECT * FROM runs WHERE id = ?", (run_id,))
        if exact:
            return self._run(exact[0])
        pattern = run_id.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = self._query("SELECT * FROM runs WHERE id LIKE ? ESCAPE '\\'", (pattern,))
        if not rows:
            raise StoreError(f"no run with id {run_id!r} (see `simwright runs`)")
        if len(rows) > 1:
            raise StoreError(f"run id {run_id!r} is ambiguous: {', '.join(r.id for r in rows)}")
        return self._run(rows[0])

    def list_runs(self, limit: int = 50) -> Sequence[RunFields]:
        """The most recent runs first."""
        rows = self._query("SELECT * FROM runs ORDER BY created_at DESC LIMIT ?", (limit,))
        return [self._run(r) for r in rows]

    def _children(self, table: str, run_id: str) -> list[_Row]:
        return self._query(f"SELECT * FROM {table} WHERE run_id = ? ORDER BY id", (run_id,))

    def steps(self, run_id: str) -> Sequence[StepFields]:
        """All step attempts of a run in execution order."""
        return cast(Sequence[StepFields], self._children("steps", run_id))

    def artifacts(self, run_id: str) -> Sequence[ArtifactFields]:
        """All artifacts of a run."""
        return cast(Sequence[ArtifactFields], self._children("artifacts", run_id))

    def engine_calls(self, run_id: str) -> Sequence[EngineCallFields]:
        """All engine calls of a run."""
        return cast(Sequence[EngineCallFields], self._children("engine_calls", run_id))

    def decisions(self, run_id: str) -> Sequence[DecisionFields]:
        """All decisions of a run."""
        return cast(Sequence[DecisionFields], self._children("decisions", run_id))

    def events(self, run_id: str) -> Sequence[EventFields]:
        """All events of a run."""
        return cast(Sequence[EventFields], self._children("events", run_id))

    def usage(self, run_id: str) -> Sequence[UsageFields]:
        """The model-usage rows of a run."""
        return cast(Sequence[UsageFields], self._children("agent_usage", run_id))

    def events_after(self, run_id: str, after: int = 0, limit: int = 500) -> Sequence[EventFields]:
        """Events of a run whose id is above ``after``, in order (event ids only grow)."""
        rows = self._query(
            "SELECT * FROM events WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?",
            (run_id, after, limit),
        )
        return cast(Sequence[EventFields], rows)

    def queue_state(self, run_id: str) -> tuple[str, str | None] | None:
        """The run's state in the service's queue and its pending answer (None: never
        queued)."""
        rows = self._query("SELECT state, choose FROM service_queue WHERE run_id = ?", (run_id,))
        return None if not rows else (str(rows[0].state), rows[0].choose)

    def close(self) -> None:
        """Close every thread's connection (a later query opens a new one)."""
        with self._lock:
            opened, self._opened = self._opened, {}
        for _, conn in opened.values():
            conn.close()
        self._local = threading.local()


def open_reader(db_url: str, roots: Roots | None = None) -> RunReader:
    """A reader of the existing store at ``db_url``: the plain SQLite reader when the
    database is a SQLite file at the head revision, else the store itself (which
    migrates an older schema first). Raises :class:`StoreError` when there is no store.
    """
    # lazy: migrate reads the scripts' revisions; imported here to keep this module bare
    from simwright.store.migrate import head_revision

    path = sqlite_path(db_url)
    if path is not None and path.is_file():
        reader = SqliteReader(path, roots)
        if reader.revision() == head_revision():
            return reader
    # lazy: SQLAlchemy only for another database or a schema that needs a migration
    from simwright.store.store import Store

    return Store.existing(db_url, roots)
