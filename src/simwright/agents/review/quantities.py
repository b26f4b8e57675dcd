"""Named quantities of contract files: what a reported number may cite.

A report cites a value as *file + quantity*. The named quantities of a file are:

- an HDF5 table (``contract.tables``): each attribute of ``/attrs`` (``d_1e5_cm2_s``),
  each column of one row (``diffusion_coefficient``), and for every numeric column
  ``name[0]``, ``name[-1]``, ``mean(name)``, ``min(name)``, ``max(name)``; any row can be
  cited explicitly (``name[12]``, ``name[3, 1]`` for a 2-D column);
- an extended XYZ structure (last frame): ``n_atoms``, ``volume``, ``cell_a``,
  ``cell_b``, ``cell_c``, numeric ``info`` keys and calculator results (``energy``);
  explicitly ``positions[i, j]``, ``cell[i, j]``, ``forces[i, j]``;
- JSON (results, trajectory manifests): each number by its dotted key path
  (``energy_ev``, ``fit.slope``, ``values.0``).

Everything here is read by the framework, never by a model.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import h5py
import numpy as np

_INDEXED = re.compile(r"^(?P<name>[^\[\]()]+)\[\s*(?P<i>-?\d+)\s*(?:,\s*(?P<j>-?\d+)\s*)?\]$")
_STAT: dict[str, Callable[[np.ndarray], Any]] = {"mean": np.mean, "min": np.min, "max": np.max}


def _scalar(value: Any) -> float | None:
    arr = np.asarray(value)
    if arr.dtype.kind not in "iuf" or arr.size != 1:
        return None
    x = float(arr.ravel()[0])
    return x if math.isfinite(x) else None


def _finite(d: dict[str, float | None]) -> dict[str, float]:
    return {k: v for k, v in d.items() if v is not None and math.isfinite(v)}


# -- tables ---------------------------------------------------------------------------
def _columns(path: Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:

    columns: dict[str, np.ndarray] = {}
    attrs: dict[str, Any] = {}
    with h5py.File(path, "r") as h5:
        group = h5.get("columns")
        if isinstance(group, h5py.Group):
            for name, ds in group.items():
                if isinstance(ds, h5py.Dataset) and ds.dtype.kind in "iuf":
                    columns[name] = np.asarray(ds[()])
        extra = h5.get("attrs")
        if isinstance(extra, h5py.Group):
            attrs = dict(extra.attrs.items())
    return columns, attrs


def _table_quantities(path: Path) -> dict[str, float]:
    columns, attrs = _columns(path)
    out: dict[str, float | None] = {k: _scalar(v) for k, v in attrs.items()}
    for name, values in columns.items():
        if values.size == 0:
            continue
        if values.ndim == 1:
            if values.shape[0] == 1:
                out[name] = float(values[0])
            out[f"{name}[0]"] = float(values[0])
            out[f"{name}[-1]"] = float(values[-1])
            finite = values[np.isfinite(values)]
            if finite.size:
                for stat, fn in _STAT.items():
                    out[f"{stat}({name})"] = float(fn(finite))
        elif values.ndim == 2 and values.shape[1] <= 3:
            for j in range(values.shape[1]):
                out[f"{name}[0, {j}]"] = float(values[0, j])
                out[f"{name}[-1, {j}]"] = float(values[-1, j])
    return _finite(out)


def _table_element(path: Path, name: str, i: int, j: int | None) -> float | None:
    columns, _attrs = _columns(path)
    values = columns.get(name)
    if values is None:
        return None
    try:
        x = values[i] if j is None else values[i, j]
    except IndexError:
        return None
    return _scalar(x)


# -- structures -----------------------------------------------------------------------
def _last_frame(path: Path) -> Any:
    # lazy: ase.io takes ~1 s to import
    from ase.io import read

    atoms = read(str(path), index=-1)
    return atoms[-1] if isinstance(atoms, list) else atoms


def _structure_quantities(path: Path) -> dict[str, float]:
    atoms = _last_frame(path)
    out: dict[str, float | None] = {"n_atoms": float(len(atoms))}
    if atoms.cell.rank == 3:
        out["volume"] = float(atoms.get_volume())
        for axis, length in zip("abc", atoms.cell.lengths(), strict=True):
            out[f"cell_{axis}"] = float(length)
    for key, value in atoms.info.items():
        if not isinstance(value, str | bool):
            out[str(key)] = _scalar(value)
    if atoms.calc is not None:
        for key, value in atoms.calc.results.items():
            out[str(key)] = _scalar(value)
    return _finite(out)


def _structure_element(path: Path, name: str, i: int, j: int | None) -> float | None:
    atoms = _last_frame(path)
    arrays = {"positions": atoms.positions, "cell": atoms.cell.array}
    if atoms.calc is not None and "forces" in atoms.calc.results:
        arrays["forces"] = atoms.calc.results["forces"]
    values = arrays.get(name, atoms.arrays.get(name))
    if values is None:
        return None
    try:
        return _scalar(values[i] if j is None else values[i][j])
    except IndexError:
        return None


# -- JSON ------------------------------------------------------------------------------
def _json_paths(data: Any, prefix: str = "") -> Iterator[tuple[str, float]]:
    if isinstance(data, bool):
        return
    if isinstance(data, int | float):
        if math.isfinite(data):
            yield prefix, float(data)
    elif isinstance(data, dict):
        for k, v in data.items():
            yield from _json_paths(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _json_paths(v, f"{prefix}.{i}" if prefix else str(i))


# -- the interface ----------------------------------------------------------------------
def _kind(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix in (".h5", ".hdf5"):
        return "table"
    if suffix in (".extxyz", ".xyz"):
        return "structure"
    return "json" if suffix == ".json" else ""


def named_quantities(path: Path) -> dict[str, float]:
    """The named scalar quantities of a contract file (empty when unreadable)."""
    kind = _kind(path)
    try:
        if kind == "table":
            return _table_quantities(path)
        if kind == "structure":
            return _structure_quantities(path)
        if kind == "json":
            return dict(_json_paths(json.loads(path.read_text(encoding="utf-8"))))
    except Exception:  # an unreadable file names nothing
        return {}
    return {}


def quantity_value(path: Path, name: str) -> float | None:
    """The value of the quantity ``name`` of ``path`` (None when it names nothing)."""
    name = name.strip()
    found = named_quantities(path).get(name)
    if found is not None:
        return found
    match = _INDEXED.match(name)
    if match is None:
        return None
    column, i = match.group("name").strip(), int(match.group("i"))
    j = int(match.group("j")) if match.group("j") is not None else None
    try:
        if _kind(path) == "table":
            return _table_element(path, column, i, j)
        if _kind(path) == "structure":
            return _structure_element(path, column, i, j)
    except Exception:
        return None
    return None


def quantity_names(path: Path, limit: int = 30) -> list[str]:
    """Up to ``limit`` quantity names of ``path`` (for a model told what it may cite)."""
    return list(named_quantities(path))[:limit]
