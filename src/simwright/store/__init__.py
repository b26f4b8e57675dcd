"""The provenance store: runs, steps, artifacts, engine calls, decisions and events.

SQLAlchemy 2 on SQLite by default; the schema is managed by Alembic migrations so
that a PostgreSQL URL works unchanged.

The names below load on first use (PEP 562): a module that needs only the plain
records (:mod:`simwright.store.records`) or the integrity check does not import
SQLAlchemy. :mod:`simwright.store.store` registers every table (agents, campaigns)
on the metadata before it opens a database.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simwright.lazy import lazy_exports

if TYPE_CHECKING:
    from simwright.store.hashing import sha256_file
    from simwright.store.models import (
        ArtifactRow,
        DecisionRow,
        EngineCallRow,
        EventRow,
        RunRow,
        StepRow,
    )
    from simwright.store.store import Store

_WHERE = {
    "ArtifactRow": "models",
    "DecisionRow": "models",
    "EngineCallRow": "models",
    "EventRow": "models",
    "RunRow": "models",
    "StepRow": "models",
    "Store": "store",
    "sha256_file": "hashing",
}

__all__ = [
    "ArtifactRow",
    "DecisionRow",
    "EngineCallRow",
    "EventRow",
    "RunRow",
    "StepRow",
    "Store",
    "sha256_file",
]


__getattr__ = lazy_exports(__name__, _WHERE)
