"""Bring a database to the newest schema with Alembic, programmatically.

Several simwright commands started at once on a new home all find an empty database;
:func:`upgrade` serialises them with an exclusive lock on a file beside a SQLite
database, and the ones that waited find it migrated and do nothing.

Alembic is imported only when a migration is due: the head revision is read from the
migration scripts' ``revision``/``down_revision`` lines and the database's revision
from its ``alembic_version`` table, so a command on a current store (``runs``,
``show``) does not pay for importing Alembic. A test checks both against Alembic.
"""

from __future__ import annotations

import re
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Final

from simwright.locks import waiting_lock

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy.engine import Connection, Engine

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config() -> Config:
    """An Alembic configuration pointing at simwright's migration scripts."""
    # lazy: Alembic takes about a quarter of a second to import; only a migration needs it
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


_REVISION = re.compile(r'^(down_revision|revision)\s*=\s*(?:"([^"]*)"|None)\s*$', re.M)


def head_revision() -> str:
    """The newest schema revision shipped with this version of simwright: the one
    revision of the migration scripts that no other script names as its parent."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for script in (MIGRATIONS / "versions").glob("*.py"):
        for key, value in _REVISION.findall(script.read_text(encoding="utf-8")):
            (revisions if key == "revision" else parents).add(value)
    heads = revisions - parents
    if len(heads) != 1:
        raise RuntimeError(f"the migration scripts have {len(heads)} heads: {sorted(heads)}")
    return heads.pop()


def current_revision(engine: Engine) -> str | None:
    """The schema revision the database is at (None for an empty database)."""
    with engine.connect() as conn:
        return _revision(conn)


def _revision(conn: Connection) -> str | None:
    # lazy: the plain reader (store/reading.py) imports this module without SQLAlchemy
    from sqlalchemy import inspect, text

    if not inspect(conn).has_table("alembic_version"):
        return None
    row = conn.execute(text("SELECT version_num FROM alembic_version")).first()
    return None if row is None else str(row[0])


PG_MIGRATION_LOCK: Final = 0x5157_0001
"""The PostgreSQL advisory-lock key that serialises migrations of one database."""


def upgrade(engine: Engine, lock_path: Path | None = None) -> None:
    """Upgrade ``engine``'s database to the head revision (no-op when already there).

    Concurrent openers of a new database migrate it once: with ``lock_path`` (SQLite)
    under an exclusive lock on that file; on PostgreSQL under a transaction-scoped
    advisory lock (its DDL is transactional, so the migration and the lock end together).
    The revision is read again once the lock is held (another process may have migrated).
    """
    head = head_revision()
    if current_revision(engine) == head:
        return
    with waiting_lock(lock_path) if lock_path is not None else nullcontext():
        # lazy: SQLAlchemy's text() only when a migration may be due
        from sqlalchemy import text

        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_MIGRATION_LOCK})
            if _revision(conn) == head:
                return
            # lazy: Alembic takes about a quarter of a second to import; only a migration needs it
            from alembic import command

            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
