"""The provenance store: runs, steps, artifacts, engine calls, decisions and events.

SQLAlchemy 2 on SQLite by default; the schema is managed by Alembic migrations so
that a PostgreSQL URL works unchanged.
"""

from simwright.store import models_agents as models_agents  # agent tables on Base.metadata
from simwright.store import models_campaign as models_campaign  # campaign tables on Base.metadata
from simwright.store import models_queue as models_queue  # the service's queue on Base.metadata
from simwright.store.models import (
    ArtifactRow,
    DecisionRow,
    EngineCallRow,
    EventRow,
    RunRow,
    StepRow,
)
from simwright.store.store import Store, sha256_file

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
