"""Copy a whole store into an empty one: the path from a SQLite file to PostgreSQL.

Every table of the schema is copied row by row in foreign-key order, keys included, in
one transaction on the target (a failure leaves the target as it was). Both stores are
at the head revision (opening them migrates). On PostgreSQL the id sequences are moved
past the copied keys, so new rows do not collide with copied ones. Paths inside the
rows are copied as written: relative ones (:mod:`simwright.store.paths`) resolve against
the run and campaign roots of whoever opens the target, absolute ones (older stores)
must be visible where the target is used.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Integer, Table, func, insert, select, text

from simwright.errors import StoreError
from simwright.store.models import Base, RunRow
from simwright.store.store import Store


@dataclass(frozen=True)
class CopyReport:
    """Rows copied per table."""

    rows: dict[str, int]

    @property
    def total(self) -> int:
        """All rows copied."""
        return sum(self.rows.values())


def copy_store(source: Store, target: Store, batch: int = 1000) -> CopyReport:
    """Copy every row of ``source`` into ``target``, which must hold no run."""
    with target.transaction() as s:
        if s.scalar(select(func.count()).select_from(RunRow)):
            raise StoreError(f"the target store {target.url} is not empty: copy into a new one")
    counts: dict[str, int] = {}
    with source.engine.connect() as src, target.engine.begin() as dst:
        for table in Base.metadata.sorted_tables:
            n = 0
            result = src.execute(select(table)).mappings()
            while rows := result.fetchmany(batch):
                dst.execute(insert(table), [dict(r) for r in rows])
                n += len(rows)
            counts[table.name] = n
            if dst.dialect.name == "postgresql" and _integer_key(table):
                _advance_sequence(dst, table.name)
    return CopyReport(counts)


def _integer_key(table: Table) -> bool:
    """True for a table keyed by an integer ``id`` (backed by a sequence on PostgreSQL)."""
    return "id" in table.c and table.c.id.primary_key and isinstance(table.c.id.type, Integer)


def _advance_sequence(conn: object, table: str) -> None:
    sql = text(
        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
        f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
    )
    conn.execute(sql)  # type: ignore[attr-defined]
