"""Hot-path writes through the database driver itself, below SQLAlchemy's execution layer.

A campaign cycle commits one small transaction (a segment row inserted, its state
moved by compare-and-set); through SQLAlchemy that costs more CPU than the database
work itself (connection checkout, cache keys, parameter processing, transaction
objects). Here the same statements are written once per dialect from the tables'
own metadata — column names, scalar and callable defaults, and the type conversion
SQLAlchemy would apply (its bind processors: SQLite's datetimes as text) — and run
on a DB-API connection of the store's engine (so its connect hooks, SQLite's pragmas,
apply). The tables and Alembic migrations stay the source of truth: nothing here
names a column.

Each :meth:`RawConnection.transaction` is one transaction: committed when its block
ends, rolled back on any exception, so a process killed at any moment leaves the
records before or after it, never between.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Final

from sqlalchemy import Table
from sqlalchemy.engine import Dialect, Engine

from simwright.errors import StoreError

Processor = Callable[[Any], Any] | None
"""A column's bind conversion for one dialect (None: the value is passed as is)."""

_NO_DEFAULT: Final = object()


def _marker(dialect: Dialect) -> str:
    """The positional parameter marker of the dialect's driver."""
    if dialect.paramstyle == "qmark":
        return "?"
    if dialect.paramstyle in ("format", "pyformat"):
        return "%s"
    raise StoreError(f"no raw statements for the parameter style {dialect.paramstyle!r}")


def _processor(table: Table, name: str, dialect: Dialect) -> Processor:
    column = table.c[name]
    return column.type.dialect_impl(dialect).bind_processor(dialect)


class RawInsert:
    """``INSERT`` of one row of ``table`` with every column but its autoincrement key.

    Columns missing from the values get the table's default (scalar, or a callable
    such as ``utcnow`` called per row); values are converted as SQLAlchemy would.
    """

    def __init__(self, table: Table, dialect: Dialect) -> None:
        keys = [c for c in table.primary_key.columns]
        if len(keys) != 1:
            raise StoreError(f"{table.name}: raw inserts need a single-column primary key")
        self.key = keys[0].name
        self.columns: tuple[str, ...] = tuple(c.name for c in table.columns if c.name != self.key)
        marks = ", ".join(_marker(dialect) for _ in self.columns)
        sql = f"INSERT INTO {table.name} ({', '.join(self.columns)}) VALUES ({marks})"
        self.returning = dialect.name != "sqlite"  # SQLite: the cursor's lastrowid
        self.sql = f"{sql} RETURNING {self.key}" if self.returning else sql
        self._plan = tuple(
            (name, *_default(table, name), _processor(table, name, dialect))
            for name in self.columns
        )
        self._names = frozenset(self.columns)

    def params(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        """The statement's parameters for ``values`` (by column name), in column order."""
        if not self._names.issuperset(values):
            unknown = ", ".join(sorted(set(values) - self._names))
            raise StoreError(f"no column(s) {unknown} to insert")
        out = []
        for name, scalar, factory, process in self._plan:
            if name in values:
                value = values[name]
            elif factory is not None:
                value = factory()
            else:
                value = None if scalar is _NO_DEFAULT else scalar
            out.append(value if process is None or value is None else process(value))
        return tuple(out)


def _default(table: Table, name: str) -> tuple[Any, Callable[[], Any] | None]:
    """A column's default as (scalar or _NO_DEFAULT, zero-argument factory or None)."""
    default = table.c[name].default
    if default is None:
        return _NO_DEFAULT, None
    if getattr(default, "is_scalar", False):
        return default.arg, None  # type: ignore[attr-defined]
    if getattr(default, "is_callable", False):
        wrapped = default.arg  # type: ignore[attr-defined]  # SQLAlchemy's (context) wrapper
        return _NO_DEFAULT, lambda: wrapped(None)
    raise StoreError(f"{table.name}.{name}: a SQL-expression default cannot be written raw")


class RawCompareAndSet:
    """``UPDATE`` of one row of ``table`` by key, only while its ``guard`` column still
    holds the value read (compare-and-set); one statement per set of columns, cached."""

    def __init__(self, table: Table, dialect: Dialect, guard: str) -> None:
        self.table = table
        self.dialect = dialect
        self.key = next(iter(table.primary_key.columns)).name
        self.guard = guard
        self._mark = _marker(dialect)
        self._statements: dict[tuple[str, ...], tuple[str, tuple[Processor, ...]]] = {}

    def statement(self, names: tuple[str, ...]) -> tuple[str, tuple[Processor, ...]]:
        """The SQL setting ``names`` and their conversions (built on first use)."""
        found = self._statements.get(names)
        if found is None:
            unknown = [n for n in names if n not in self.table.c]
            if unknown:
                raise StoreError(f"{self.table.name} has no column(s) {', '.join(unknown)}")
            sets = ", ".join(f"{n} = {self._mark}" for n in names)
            where = f"{self.key} = {self._mark} AND {self.guard} = {self._mark}"
            sql = f"UPDATE {self.table.name} SET {sets} WHERE {where}"
            procs = tuple(_processor(self.table, n, self.dialect) for n in names)
            found = self._statements[names] = (sql, procs)
        return found

    def params(
        self, names: tuple[str, ...], values: Mapping[str, Any], key: Any, expected: Any
    ) -> tuple[str, tuple[Any, ...]]:
        """SQL and parameters setting ``values`` on row ``key`` if ``guard`` is ``expected``."""
        sql, procs = self.statement(names)
        out = [
            values[n] if p is None or values[n] is None else p(values[n])
            for n, p in zip(names, procs, strict=True)
        ]
        out += (key, expected)
        return sql, tuple(out)


class RawTransaction:
    """The statements of one open transaction on a :class:`RawConnection`."""

    def __init__(self, cursor: Any, prepare: bool) -> None:
        self._cursor = cursor
        self._prepare = prepare

    def _execute(self, sql: str, params: Sequence[Any]) -> None:
        if self._prepare:  # psycopg: a server-side prepared statement, reused by the connection
            self._cursor.execute(sql, params, prepare=True)
        else:  # sqlite3 keeps its own cache of compiled statements per connection
            self._cursor.execute(sql, params)

    def insert(self, statement: RawInsert, values: Mapping[str, Any]) -> int:
        """Insert one row; its new key."""
        self._execute(statement.sql, statement.params(values))
        if statement.returning:
            return int(self._cursor.fetchone()[0])
        return int(self._cursor.lastrowid)

    def compare_and_set(
        self, statement: RawCompareAndSet, values: Mapping[str, Any], key: Any, expected: Any
    ) -> bool:
        """Set ``values`` on row ``key`` if its guard column is ``expected``; True if it was."""
        sql, params = statement.params(tuple(values), values, key, expected)
        self._execute(sql, params)
        return bool(self._cursor.rowcount == 1)


class RawConnection:
    """One DB-API connection of ``engine``'s pool, held until :meth:`close`.

    Threads share it one transaction at a time (a lock); between transactions it
    holds no transaction open, so it blocks no other writer.
    """

    def __init__(self, engine: Engine) -> None:
        self.dialect = engine.dialect
        self._engine = engine
        self._pooled = engine.raw_connection()
        self._driver: Any = self._pooled.driver_connection
        self._sqlite = engine.dialect.name == "sqlite"
        self._lock = threading.Lock()
        self._broken = False

    def _replace_if_broken(self) -> None:
        """After a failed rollback (a lost server connection), start on a fresh one."""
        if self._broken:
            self._pooled.invalidate()
            self._pooled = self._engine.raw_connection()
            self._driver = self._pooled.driver_connection
            self._broken = False

    @contextmanager
    def transaction(self) -> Iterator[RawTransaction]:
        """One transaction: committed at the end of the block, rolled back on any error."""
        with self._lock:
            self._replace_if_broken()
            cursor = self._driver.cursor()
            try:
                if self._sqlite:  # explicit, whatever the driver's own transaction mode
                    cursor.execute("BEGIN")
                yield RawTransaction(cursor, prepare=not self._sqlite)
            except BaseException:
                self._rollback()
                raise
            else:
                self._driver.commit()
            finally:
                _close_quietly(cursor)

    def _rollback(self) -> None:
        try:
            self._driver.rollback()
        except Exception:  # the connection itself is gone: replaced before the next transaction
            self._broken = True
        if getattr(self._driver, "closed", False):  # psycopg: the server ended the session
            self._broken = True

    def close(self) -> None:
        """Give the connection back to the engine's pool (dropped if it broke)."""
        if self._broken:
            self._pooled.invalidate()
        self._pooled.close()


def _close_quietly(cursor: Any) -> None:
    with contextlib.suppress(Exception):  # a cursor of a lost connection: nothing to release
        cursor.close()
