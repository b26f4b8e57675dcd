"""Episodic memory: what worked before, recalled by similarity to a new task.

A :class:`MemoryRecord` keeps a successful run or subtask — its task in words, key
inputs and scripts, results with units, outcome and the run it came from. Records
live in their own SQLite file (``<home>/memory/memory.db``), apart from the
provenance store, with one embedding per record when an embedder is given. Search
is the same hybrid retrieval as the documentation (BM25 + dense, RRF); without an
embedder (no torch) it is BM25 alone.
"""

from __future__ import annotations

import builtins
import json
import secrets
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import numpy as np

from simwright.errors import StoreError
from simwright.knowledge.docs.normalize import tokenize
from simwright.knowledge.docs.retrieval import (
    DocPage,
    Embedder,
    Mode,
    RetrievalIndex,
    embedder_name,
)

Kind = Literal["run", "subtask"]
MEMORY_FILE = "memory.db"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    id TEXT PRIMARY KEY,
    created TEXT NOT NULL,
    kind TEXT NOT NULL,
    summary TEXT NOT NULL,
    task TEXT NOT NULL,
    inputs_json TEXT NOT NULL,
    scripts_json TEXT NOT NULL,
    results_json TEXT NOT NULL,
    outcome TEXT NOT NULL,
    source_run TEXT,
    embedder TEXT,
    embedding BLOB
);
CREATE INDEX IF NOT EXISTS ix_records_created ON records (created);
CREATE INDEX IF NOT EXISTS ix_records_source_run ON records (source_run);
"""
_COLUMNS = (
    "id, created, kind, summary, task, inputs_json, scripts_json, results_json, outcome, source_run"
)


class MemoryStoreError(StoreError):
    """The memory file cannot be opened or has no such record."""


@dataclass(frozen=True)
class MemoryRecord:
    """One remembered success: a run or a subtask, with what it took and what it gave.

    ``results`` maps a name to ``{"value": ..., "unit": ...}`` (plus ``uncertainty``
    when known); ``scripts`` maps a file name to its text.
    """

    id: str
    created: datetime
    kind: Kind
    summary: str
    task: str
    inputs: Mapping[str, Any] = field(default_factory=dict)
    scripts: Mapping[str, str] = field(default_factory=dict)
    results: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    outcome: str = "completed"
    source_run: str | None = None

    @classmethod
    def new(cls, kind: Kind, summary: str, task: str, **fields: Any) -> MemoryRecord:
        """A record with a fresh id and the current time."""
        created = datetime.now(UTC)
        rid = f"mem-{created:%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
        return cls(rid, created, kind, summary, task, **fields)

    def text(self) -> str:
        """What search matches against: summary, task, inputs, result names, outcome."""
        inputs = " ".join(f"{k} {v}" for k, v in _flat(self.inputs))
        results = " ".join(f"{k} {v.get('unit', '')}" for k, v in self.results.items())
        return f"{self.summary}\n{self.task}\n{inputs}\n{results}\n{self.outcome}"

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        return {
            "id": self.id,
            "created": self.created.isoformat(),
            "kind": self.kind,
            "summary": self.summary,
            "task": self.task,
            "inputs": dict(self.inputs),
            "scripts": dict(self.scripts),
            "results": {k: dict(v) for k, v in self.results.items()},
            "outcome": self.outcome,
            "source_run": self.source_run,
        }


def _flat(data: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in data.items():
        if isinstance(value, Mapping):
            yield from _flat(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def _row_record(row: tuple[Any, ...]) -> MemoryRecord:
    rid, created, kind, summary, task, inputs, scripts, results, outcome, source = row
    return MemoryRecord(
        rid,
        datetime.fromisoformat(created),
        kind,
        summary,
        task,
        json.loads(inputs),
        json.loads(scripts),
        json.loads(results),
        outcome,
        source,
    )


class MemoryStore:
    """Records in a SQLite file, searchable by similarity to a task."""

    def __init__(self, path: Path, embedder: Embedder | None = None) -> None:
        self.path = path
        self.embedder = embedder
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with self._db() as db:
                db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise MemoryStoreError(f"cannot open the memory at {path}: {exc}") from exc

    @classmethod
    def at_home(cls, home: Path, embedder: Embedder | None = None) -> MemoryStore:
        """The memory of a simwright home: ``<home>/memory/memory.db``."""
        return cls(home / "memory" / MEMORY_FILE, embedder)

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path)) as db, db:  # commits on success
            yield db

    def add(self, record: MemoryRecord) -> MemoryRecord:
        """Store ``record`` (replacing one with the same id) with its embedding."""
        vector = self._embed([record.text()])
        d = record.as_dict()
        values = (
            d["id"],
            d["created"],
            d["kind"],
            d["summary"],
            d["task"],
            json.dumps(d["inputs"], default=str),
            json.dumps(d["scripts"]),
            json.dumps(d["results"], default=str),
            d["outcome"],
            d["source_run"],
            self._name(),
            None if vector is None else vector[0].tobytes(),
        )
        with self._db() as db:
            db.execute(f"INSERT OR REPLACE INTO records VALUES ({', '.join('?' * 12)})", values)
        return record

    def get(self, record_id: str) -> MemoryRecord:
        """The record whose id is ``record_id`` or starts with it (unambiguously)."""
        with self._db() as db:
            rows = db.execute(
                f"SELECT {_COLUMNS} FROM records WHERE id = ? OR id LIKE ? ORDER BY id",
                (record_id, record_id.replace("%", "") + "%"),
            ).fetchall()
        exact = [r for r in rows if r[0] == record_id]
        if exact or len(rows) == 1:
            return _row_record((exact or rows)[0])
        if not rows:
            raise MemoryStoreError(f"no memory record {record_id!r} (see `simwright memory list`)")
        raise MemoryStoreError(f"memory id {record_id!r} is ambiguous: {len(rows)} records")

    def list(self, limit: int = 50, kind: Kind | None = None) -> builtins.list[MemoryRecord]:
        """The most recent records first (of one kind, if given)."""
        where, args = ("WHERE kind = ?", (kind,)) if kind else ("", ())
        with self._db() as db:
            rows = db.execute(
                f"SELECT {_COLUMNS} FROM records {where} ORDER BY created DESC LIMIT ?",
                (*args, limit),
            ).fetchall()
        return [_row_record(r) for r in rows]

    def for_run(self, run_id: str) -> builtins.list[MemoryRecord]:
        """Records made from the run ``run_id``."""
        with self._db() as db:
            rows = db.execute(
                f"SELECT {_COLUMNS} FROM records WHERE source_run = ?", (run_id,)
            ).fetchall()
        return [_row_record(r) for r in rows]

    def search(
        self, query: str, k: int = 5, mode: Mode = "hybrid"
    ) -> builtins.list[tuple[MemoryRecord, float]]:
        """The ``k`` records most similar to ``query``, best first, with their fused score.

        ``bm25`` matches words only and never embeds; ``hybrid`` and ``dense`` use the
        embedder when one is given (without one they fall back to words).
        """
        records, vectors = self._all_with_vectors() if mode != "bm25" else (self._all(), None)
        if not records or not query.strip():
            return []
        pages = [DocPage(r.id, r.summary, r.text()) for r in records]
        tokens = [tokenize(p.passage) for p in pages]
        index = RetrievalIndex(
            pages, tokens, vectors, self.embedder if vectors is not None else None
        )
        by_id = {r.id: r for r in records}
        if vectors is None and mode == "dense":
            mode = "bm25"
        return [(by_id[h.page], h.score) for h in index.search(query, k, mode)]

    def _all(self) -> builtins.list[MemoryRecord]:
        with self._db() as db:
            rows = db.execute(f"SELECT {_COLUMNS} FROM records").fetchall()
        return [_row_record(r) for r in rows]

    # -- embeddings -----------------------------------------------------------
    def _name(self) -> str | None:
        return embedder_name(self.embedder) if self.embedder is not None else None

    def _embed(self, texts: builtins.list[str]) -> np.ndarray | None:
        if self.embedder is None:
            return None
        return np.asarray(self.embedder.encode(texts), dtype=np.float32)

    def _all_with_vectors(self) -> tuple[builtins.list[MemoryRecord], np.ndarray | None]:
        with self._db() as db:
            rows = db.execute(f"SELECT {_COLUMNS}, embedder, embedding FROM records").fetchall()
        records = [_row_record(r[:10]) for r in rows]
        if self.embedder is None or not records:
            return records, None
        name = self._name()
        stale = [i for i, r in enumerate(rows) if r[10] != name or r[11] is None]
        vectors: dict[int, np.ndarray] = {
            i: np.frombuffer(r[11], dtype=np.float32) for i, r in enumerate(rows) if i not in stale
        }
        if stale:  # added without an embedder, or with another one: embed them now
            fresh = self._embed([records[i].text() for i in stale])
            assert fresh is not None
            self._store_vectors([(records[i].id, fresh[n]) for n, i in enumerate(stale)])
            vectors.update({i: fresh[n] for n, i in enumerate(stale)})
        return records, np.stack([vectors[i] for i in range(len(records))])

    def _store_vectors(self, items: builtins.list[tuple[str, np.ndarray]]) -> None:
        with self._db() as db:
            db.executemany(
                "UPDATE records SET embedder = ?, embedding = ? WHERE id = ?",
                [(self._name(), v.astype(np.float32).tobytes(), rid) for rid, v in items],
            )
