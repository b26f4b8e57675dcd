"""The fabrication guard: every number in a report must trace to a value in an artifact.

Artifacts are read through the file contract: HDF5 tables (every numeric dataset
and attribute), extended XYZ (positions, cell, per-frame info and arrays, the cell
volume and atom count), JSON results (every number). A reported value traces when
some artifact value lies within the tolerance: the larger of ``rtol·|x|`` and half
a unit of the last digit written (``3.59`` matches 3.5897). Deterministic: a report
with an untraceable number is rejected, whoever wrote it.

Numbers in free text are read as whitespace- and punctuation-separated tokens;
``2.3×10^-9``, ``2.3e-9`` and ``2.3 x 10⁻⁹`` are one number. Not numbers: words with
a digit after a letter (``H2O``, ``Cu3Au``), paths (anything with ``/``), run ids and
`code spans`. Numbers of the request itself and of the plan's parameters are allowed.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import h5py
import numpy as np

from simwright.agents.replies import OutputValue, ReportedValue

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SCI = re.compile(
    r"(?<![\w.])([-+−]?\d+(?:\.\d+)?)\s*[×x*·]\s*10\s*\^?\s*\(?\s*([-+−]?\d+)(?:\s*\))?"
)
_NUMBER = re.compile(r"^([-+−]?\d+(?:\.\d+)?(?:[eE][-+−]?\d+)?)([^\d]*)$")
_HIDDEN = re.compile(r"`[^`]*`|\S*/\S*|\b\d{8}-\d{6}-[0-9a-f]{6}\b")
_SPLIT = re.compile(r"[\s=<>≈~±,;()\[\]{}|]+|(?<=\d)[–—-](?=\d)")


@dataclass(frozen=True)
class Written:
    """A number as written in text: its text, value and rounding tolerance."""

    text: str
    value: float
    rounding: float


def _rounding(mantissa: str, exponent: int = 0) -> float:
    digits = mantissa.split(".", 1)[1] if "." in mantissa else ""
    exp = re.search(r"[eE]([-+−]?\d+)", mantissa)
    if exp:
        exponent += int(exp.group(1).replace("−", "-"))
        digits = digits.split("e")[0].split("E")[0]
    return 0.5 * 10.0 ** (exponent - len(digits))


def _parse(token: str) -> Written | None:
    match = _NUMBER.match(token)
    if not match:
        return None
    raw = match.group(1).replace("−", "-")
    try:
        value = float(raw)
    except ValueError:
        return None
    return Written(token, value, _rounding(raw))


def numbers_in_text(text: str) -> list[Written]:
    """The numbers written in ``text`` (see the module docstring for what counts)."""
    text = _HIDDEN.sub(" ", text.translate(_SUPERSCRIPT))
    found: list[Written] = []

    def _sci(m: re.Match[str]) -> str:
        mantissa, exponent = m.group(1).replace("−", "-"), int(m.group(2).replace("−", "-"))
        value = float(mantissa) * 10.0**exponent
        found.append(Written(m.group(0), value, _rounding(mantissa, exponent)))
        return " "

    text = _SCI.sub(_sci, text)
    for token in _SPLIT.split(text):
        token = token.strip(".:!?'\"")
        if not token or not any(c.isdigit() for c in token):
            continue
        if token[0].isalpha():
            continue  # an identifier: H2O, Cu3Au, B0, step2
        written = _parse(token)
        if written is not None:
            found.append(written)
    return found


# -- reading artifacts --------------------------------------------------------------
def _flat(values: Any) -> Iterator[float]:
    arr = np.asarray(values)
    if arr.dtype.kind in "iuf":
        yield from (float(v) for v in arr.ravel() if math.isfinite(float(v)))


def _h5_numbers(path: Path) -> Iterator[float]:
    out: list[float] = []

    def visit(_name: str, obj: Any) -> None:
        for value in obj.attrs.values():
            out.extend(_flat(value))
        if isinstance(obj, h5py.Dataset) and obj.dtype.kind in "iuf":
            out.extend(_flat(obj[()]))

    with h5py.File(path, "r") as h5:
        for value in h5.attrs.values():
            out.extend(_flat(value))
        h5.visititems(visit)
    yield from out


def _xyz_numbers(path: Path) -> Iterator[float]:
    # lazy: ase.io takes ~1 s to import
    from ase.io import read

    for atoms in read(str(path), index=":"):
        yield from _flat(atoms.positions)
        yield float(len(atoms))
        if atoms.cell.rank == 3:
            yield from _flat(atoms.cell.array)
            yield float(atoms.get_volume())
        for value in atoms.info.values():
            yield from _flat(value) if not isinstance(value, str | bool) else ()
        for name, array in atoms.arrays.items():
            if name not in ("numbers",):
                yield from _flat(array)
        if atoms.calc is not None:
            for value in atoms.calc.results.values():
                yield from _flat(value)


def _json_numbers(data: Any) -> Iterator[float]:
    if isinstance(data, bool):
        return
    if isinstance(data, int | float):
        if math.isfinite(data):
            yield float(data)
    elif isinstance(data, dict):
        for v in data.values():
            yield from _json_numbers(v)
    elif isinstance(data, list):
        for v in data:
            yield from _json_numbers(v)


def artifact_numbers(path: Path) -> np.ndarray:
    """Every number a contract file holds (empty for other kinds or unreadable files)."""
    suffix = path.suffix.lower()
    try:
        if suffix in (".h5", ".hdf5"):
            values = list(_h5_numbers(path))
        elif suffix in (".extxyz", ".xyz"):
            values = list(_xyz_numbers(path))
        elif suffix == ".json":
            values = list(_json_numbers(json.loads(path.read_text())))
        else:
            values = []
    except Exception:  # an unreadable file traces nothing
        values = []
    return np.asarray(values, dtype=float)


TRACEABLE_SUFFIXES = (".h5", ".hdf5", ".extxyz", ".xyz", ".json")
NOT_ARTIFACTS = frozenset({"transcript.json"})
"""Files holding what models wrote (their conversations): never a source of truth."""


def is_traceable(path: Path) -> bool:
    """Whether ``path`` is a contract file the guard may trace values to."""
    return path.suffix.lower() in TRACEABLE_SUFFIXES and path.name not in NOT_ARTIFACTS


def traceable_files(folders: Iterable[Path]) -> list[Path]:
    """The contract files (HDF5, XYZ, JSON) under ``folders``, conversations excluded."""
    out: list[Path] = []
    for folder in folders:
        if folder.is_dir():
            out += sorted(p for p in folder.rglob("*") if p.is_file() and is_traceable(p))
    return out


class TraceIndex:
    """Sorted values with a tolerant membership test."""

    def __init__(self, values: Iterable[float] | np.ndarray) -> None:
        arr = np.asarray(list(values) if not isinstance(values, np.ndarray) else values, float)
        self.values = np.unique(arr[np.isfinite(arr)])

    @classmethod
    def of_files(cls, paths: Sequence[Path], extra: Iterable[float] = ()) -> TraceIndex:
        """An index of every number in ``paths`` plus ``extra``."""
        parts = [artifact_numbers(p) for p in paths]
        parts.append(np.asarray(list(extra), float))
        return cls(np.concatenate(parts) if parts else np.empty(0))

    def contains(self, x: float, rtol: float, rounding: float = 0.0) -> bool:
        """Whether some value lies within ``max(rtol·|x|, rounding)`` of ``x``."""
        if not self.values.size or not math.isfinite(x):
            return False
        tol = max(rtol * abs(x), rounding, 1e-300)
        i = int(np.searchsorted(self.values, x))
        near = self.values[max(0, i - 1) : i + 1]
        return bool(np.any(np.abs(near - x) <= tol))


def resolve_source(source: str, root: Path, allowed: Sequence[Path]) -> Path | None:
    """``root/source`` if it exists inside one of the ``allowed`` folders, else None."""
    path = (root / source).resolve()
    if not path.is_file() or not is_traceable(path):
        return None
    for folder in allowed:
        if path.is_relative_to(folder.resolve()):
            return path
    return None


def check_value(
    name: str, value: float, source: str, root: Path, allowed: Sequence[Path], rtol: float
) -> str | None:
    """Why ``value`` does not trace to ``source`` (None when it does)."""
    path = resolve_source(source, root, allowed)
    if path is None:
        return f"{name} = {value:g}: its source {source!r} is not an artifact of this run"
    if not TraceIndex(artifact_numbers(path)).contains(value, rtol):
        return f"{name} = {value:g}: no value of {source} matches it (relative tolerance {rtol:g})"
    return None


def check_outputs(outputs: dict[str, OutputValue], workdir: Path, rtol: float) -> list[str]:
    """Problems of an executor's outputs, each traced to its file in ``workdir``."""
    problems = []
    for name, out in outputs.items():
        problem = check_value(name, out.value, out.source, workdir, [workdir], rtol)
        if problem:
            problems.append(problem)
    return problems


def check_report(
    summary: str,
    values: Sequence[ReportedValue],
    *,
    root: Path,
    allowed: Sequence[Path],
    known: Iterable[float] = (),
    rtol: float = 1e-3,
) -> list[str]:
    """Problems of a final report: each value against its source, each written number
    against every artifact of the run (and the ``known`` numbers of the request)."""
    problems: list[str] = []
    traced: list[float] = []
    for v in values:
        problem = check_value(v.name, v.value, v.source, root, allowed, rtol)
        if problem is None:
            traced.append(v.value)
        else:
            problems.append(problem)
    index = TraceIndex.of_files(traceable_files(allowed), [*known, *traced])
    for w in numbers_in_text(summary):
        if not index.contains(w.value, rtol, w.rounding):
            problems.append(f"the number {w.text!r} in the summary traces to no artifact")
    return problems
