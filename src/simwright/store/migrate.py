"""Bring a database to the newest schema with Alembic, programmatically.

Several simwright commands started at once on a new home all find an empty database;
:func:`upgrade` serialises them with an exclusive lock on a file beside a SQLite
database, and the ones that waited find it migrated and do nothing.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config() -> Config:
    """An Alembic configuration pointing at simwright's migration scripts."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def head_revision() -> str:
    """The newest schema revision shipped with this version of simwright."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The schema revision the database is at (None for an empty database)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, lock_path: Path | None = None) -> None:
    """Upgrade ``engine``'s database to the head revision (no-op when already there).

    With ``lock_path`` the migration runs under an exclusive lock on that file, and the
    revision is read again once the lock is held (another process may have migrated).
    """
    head = head_revision()
    if current_revision(engine) == head:
        return
    with _exclusive(lock_path):
        if current_revision(engine) == head:
            return
        cfg = alembic_config()
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")


@contextmanager
def _exclusive(lock_path: Path | None) -> Iterator[None]:
    """Hold a blocking ``flock`` on ``lock_path`` (nothing when it is None)."""
    if lock_path is None:
        yield
        return
    with lock_path.open("a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
