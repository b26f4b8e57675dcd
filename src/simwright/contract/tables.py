"""Tables with units in HDF5: the contract for numeric results passed between steps.

Layout of a table file (schema 1.0)::

    /                      attrs: simwright_schema, kind="table", name, description,
                                  producer, links (JSON list of relative paths)
    /columns               attrs: order (JSON list of column names)
    /columns/<name>        dataset (n_rows,) or (n_rows, k); attrs: units, description
    /attrs                 group whose HDF5 attributes are the table's free metadata
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from simwright.contract.schema import SCHEMA_KEY, SCHEMA_VERSION, check_schema
from simwright.errors import ContractError

if TYPE_CHECKING:
    import h5py

AttrValue = str | int | float
"""A value of a table's free metadata."""

TABLE_KIND = "table"


@dataclass(frozen=True, eq=False)
class Column:
    """One named column of a :class:`Table`, with its unit.

    ``values`` is 1-D ``(n_rows,)`` or 2-D ``(n_rows, k)``; numbers, booleans or
    strings. ``unit`` is never empty: use ``"1"`` for dimensionless quantities.
    """

    name: str
    values: np.ndarray
    unit: str
    description: str = ""

    def __post_init__(self) -> None:
        if not self.name or "/" in self.name or self.name in (".", ".."):
            raise ContractError(f"invalid column name {self.name!r} (empty, '/', '.' or '..')")
        if not isinstance(self.unit, str) or not self.unit.strip():
            raise ContractError(
                f"column {self.name!r} has no unit; give one (use '1' for dimensionless)"
            )
        values = _column_array(self.name, self.values)
        values.setflags(write=False)
        object.__setattr__(self, "values", values)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Column):
            return NotImplemented
        return (
            (self.name, self.unit, self.description) == (other.name, other.unit, other.description)
            and self.values.shape == other.values.shape
            and bool(np.array_equal(self.values, other.values))
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def n_rows(self) -> int:
        """Number of rows (the length of the first axis)."""
        return int(self.values.shape[0])


def _column_array(name: str, values: Any) -> np.ndarray:
    array = np.array(values, copy=True)
    if array.dtype.kind in "US":
        array = array.astype(str)
    elif array.dtype.kind not in "biuf":
        raise ContractError(
            f"column {name!r} has values of type {array.dtype}; use numbers, booleans or strings"
        )
    if array.ndim not in (1, 2):
        raise ContractError(
            f"column {name!r} must be 1-D (n_rows,) or 2-D (n_rows, k), got shape {array.shape}"
        )
    return array


@dataclass(frozen=True)
class Table:
    """Named columns with units, a description and provenance, stored as HDF5.

    ``links`` are related files given relative to the table's folder; ``attrs``
    is free metadata (e.g. fit results), values str, int or float.
    """

    name: str
    columns: tuple[Column, ...]
    description: str
    producer: str = ""
    links: tuple[str, ...] = ()
    attrs: Mapping[str, AttrValue] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.name:
            raise ContractError("a table needs a name (e.g. 'thermo', 'msd')")
        columns = tuple(self.columns)
        _check_columns(self.name, columns)
        object.__setattr__(self, "columns", columns)
        object.__setattr__(self, "links", tuple(str(link) for link in self.links))
        object.__setattr__(self, "attrs", _checked_attrs(self.name, self.attrs))

    @property
    def names(self) -> tuple[str, ...]:
        """The column names, in order."""
        return tuple(c.name for c in self.columns)

    @property
    def n_rows(self) -> int:
        """Number of rows (0 for a table without columns)."""
        return self.columns[0].n_rows if self.columns else 0

    def column(self, name: str) -> Column:
        """The column called ``name``; :class:`ContractError` lists the available ones."""
        for col in self.columns:
            if col.name == name:
                return col
        available = ", ".join(self.names) or "none"
        raise ContractError(f"table {self.name!r} has no column {name!r}; available: {available}")

    def __getitem__(self, name: str) -> np.ndarray:
        return self.column(name).values


def _check_columns(table: str, columns: tuple[Column, ...]) -> None:
    seen: set[str] = set()
    for col in columns:
        if not isinstance(col, Column):
            raise ContractError(f"table {table!r}: columns must be Column values, got {col!r}")
        if col.name in seen:
            raise ContractError(f"table {table!r}: duplicate column {col.name!r}")
        seen.add(col.name)
    rows = {c.name: c.n_rows for c in columns}
    if len(set(rows.values())) > 1:
        detail = ", ".join(f"{k}={v}" for k, v in rows.items())
        raise ContractError(
            f"table {table!r}: all columns need the same number of rows, got {detail}"
        )


def _checked_attrs(table: str, attrs: Mapping[str, Any]) -> dict[str, AttrValue]:
    out: dict[str, AttrValue] = {}
    for key, value in attrs.items():
        if not isinstance(key, str) or not key:
            raise ContractError(f"table {table!r}: attribute names must be non-empty strings")
        if isinstance(value, np.generic):
            value = value.item()
        if not isinstance(value, str | int | float):
            raise ContractError(
                f"table {table!r}: attribute {key!r} must be str, int or float, "
                f"got {type(value).__name__}"
            )
        out[key] = value
    return out


def write_table(path: Path, table: Table) -> Path:
    """Write ``table`` to the HDF5 file ``path`` (replaced atomically); return the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        # lazy: h5py takes ~0.1 s to import; commands that only plan never open a table
        import h5py

        with h5py.File(tmp, "w") as h5:
            _write_root(h5, table)
            _write_columns(h5.create_group("columns"), table.columns, h5py.string_dtype())
            group = h5.create_group("attrs", track_order=True)
            for key, value in table.attrs.items():
                group.attrs[key] = value
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def _write_root(h5: h5py.File, table: Table) -> None:
    h5.attrs[SCHEMA_KEY] = SCHEMA_VERSION
    h5.attrs["kind"] = TABLE_KIND
    h5.attrs["name"] = table.name
    h5.attrs["description"] = table.description
    h5.attrs["producer"] = table.producer
    h5.attrs["links"] = json.dumps(list(table.links))


def _write_columns(group: h5py.Group, columns: tuple[Column, ...], text_dtype: Any) -> None:
    group.attrs["order"] = json.dumps([c.name for c in columns])
    for col in columns:
        if col.values.dtype.kind == "U":
            data = col.values.astype(object)
            ds = group.create_dataset(col.name, data=data, dtype=text_dtype)
        else:
            ds = group.create_dataset(col.name, data=col.values)
        ds.attrs["units"] = col.unit
        ds.attrs["description"] = col.description


def read_table(path: Path) -> Table:
    """Read a table written by :func:`write_table`, checking kind and schema version."""
    path = Path(path)
    where = str(path)
    if not path.is_file():
        raise ContractError(f"{where}: no such table file")
    try:
        # lazy: h5py takes ~0.1 s to import; commands that only plan never open a table
        import h5py

        with h5py.File(path, "r") as h5:
            return _read_open_table(h5, where)
    except OSError as exc:
        raise ContractError(f"{where}: not a readable HDF5 file ({exc})") from exc


def _read_open_table(h5: h5py.File, where: str) -> Table:
    check_schema(h5.attrs.get(SCHEMA_KEY), where=where)
    kind = _text(h5.attrs.get("kind", ""))
    if kind != TABLE_KIND:
        raise ContractError(f"{where}: expected a contract file of kind 'table', got {kind!r}")
    if "columns" not in h5:
        raise ContractError(f"{where}: table has no '/columns' group")
    links = _json_list(h5.attrs.get("links", "[]"), where, "links")
    attrs = h5["attrs"].attrs if "attrs" in h5 else {}
    return Table(
        name=_text(h5.attrs.get("name", "")),
        columns=_read_columns(h5["columns"], where),
        description=_text(h5.attrs.get("description", "")),
        producer=_text(h5.attrs.get("producer", "")),
        links=tuple(links),
        attrs={str(k): _attr_value(v) for k, v in attrs.items()},
    )


def _read_columns(group: h5py.Group, where: str) -> tuple[Column, ...]:
    order = _json_list(group.attrs.get("order", "[]"), where, "columns order")
    missing = [name for name in order if name not in group]
    if missing:
        raise ContractError(f"{where}: column(s) listed but absent: {', '.join(missing)}")
    names = order + sorted(set(group.keys()) - set(order))
    return tuple(_read_column(group[name], name, where) for name in names)


def _read_column(ds: h5py.Dataset, name: str, where: str) -> Column:
    # lazy: read_table imported it already; this only names it here
    import h5py

    if not isinstance(ds, h5py.Dataset):
        raise ContractError(f"{where}: column {name!r} is not a dataset")
    unit = _text(ds.attrs.get("units", ""))
    if not unit:
        raise ContractError(f"{where}: column {name!r} has no 'units' attribute")
    if h5py.check_string_dtype(ds.dtype):
        values = np.asarray(ds.asstr()[()], dtype=str)
    else:
        values = np.asarray(ds[()])
    return Column(name, values, unit, _text(ds.attrs.get("description", "")))


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _json_list(raw: object, where: str, what: str) -> list[str]:
    try:
        value = json.loads(_text(raw))
    except json.JSONDecodeError as exc:
        raise ContractError(f"{where}: {what} attribute is not JSON ({exc})") from exc
    if not isinstance(value, list):
        raise ContractError(f"{where}: {what} attribute must be a JSON list")
    return [str(v) for v in value]


def _attr_value(value: object) -> AttrValue:
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, str | int | float):
        return value
    return str(value)
