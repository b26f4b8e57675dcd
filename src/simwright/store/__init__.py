"""The provenance store: runs, steps, artifacts, engine calls, decisions and events.

SQLAlchemy 2 on SQLite by default; the schema is managed by Alembic migrations so
that a PostgreSQL URL works unchanged.

The names below load on first use (PEP 562): a module that needs only the plain
records (:mod:`simwright.store.records`) or the integrity check does not import
SQLAlchemy. :mod:`simwright.store.store` registers every table (agents, campaigns)
on the metadata before it opens a database.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

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


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` on first use."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'simwright.store' has no attribute {name!r}")
    value = getattr(import_module(f"simwright.store.{module}"), name)
    globals()[name] = value
    return value
