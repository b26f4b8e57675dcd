"""Compact, never-failing text summaries of contract files, for people and agents.

:func:`detect_kind` tells a file's kind from its content; :func:`inspect_file`
describes any file in fewer than :data:`MAX_CHARS` characters and reports what
is wrong with a broken one instead of raising.
"""

from __future__ import annotations

import itertools
import json
import struct
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Final

import numpy as np

from simwright.contract.detect import decode_text, detect_kind, is_dcd, load_json
from simwright.contract.schema import SCHEMA_KEY
from simwright.contract.structures import read_structure, read_structure_info
from simwright.contract.tables import Column, read_table
from simwright.contract.trajectories import (
    TrajectoryManifest,
    dcd_header,
    read_trajectory_manifest,
)

MAX_CHARS: Final = 2000
"""Every summary is shorter than this many characters."""

_MAX_SANITY_ATOMS: Final = 50_000
_LINE_CHARS: Final = 200

Lines = list[str]


PROBLEM: Final = "problem:"
"""The start of each line of a summary that says what is wrong with the file."""


def summary_problems(summary: str) -> list[str]:
    """The problems a summary from :func:`inspect_file` reports (empty for a sound file)."""
    return [
        line.removeprefix(PROBLEM).strip()
        for line in summary.splitlines()
        if line.startswith(PROBLEM)
    ]


def inspect_file(path: Path) -> str:
    """A summary of any file in fewer than :data:`MAX_CHARS` characters; never raises."""
    path = Path(path)
    try:
        lines = _describe(path)
    except Exception as exc:  # a summary must come back whatever the file holds
        lines = [f"file: {path}", f"problem: could not inspect ({type(exc).__name__}: {exc})"]
    return _fit(lines, MAX_CHARS - 1)


def _describe(path: Path) -> Lines:
    if not path.exists():
        return [f"file: {path}", "problem: no such file"]
    if path.is_dir():
        n = sum(1 for _ in itertools.islice(path.iterdir(), 10_000))
        return [f"file: {path}", f"kind: directory ({n} entries), not a contract file"]
    if not path.is_file():
        return [f"file: {path}", "kind: special file (not a regular file), not inspected"]
    kind = detect_kind(path)
    head = [f"file: {path.name} ({_size(path.stat().st_size)})"]
    describer = _DESCRIBERS.get(kind, _unknown_lines)
    try:
        return head + describer(path)
    except Exception as exc:  # a broken file is described, not raised
        return [*head, f"kind: {kind}", f"problem: {type(exc).__name__}: {exc}", *_peek(path)]


def _table_lines(path: Path) -> Lines:
    # lazy: h5py takes ~0.1 s to import; only inspecting a table needs it
    import h5py

    with h5py.File(path, "r") as h5:
        schema = h5.attrs.get(SCHEMA_KEY)
        if schema is None:
            return [
                "kind: HDF5 file without simwright_schema (not a contract table)",
                *_h5_tree(h5),
            ]
    try:
        table = read_table(path)
    except Exception as exc:
        with h5py.File(path, "r") as h5:
            return [f"kind: table (schema {_str(schema)})", f"problem: {exc}", *_h5_tree(h5)]
    lines = [f"kind: table {table.name!r} (schema {_str(schema)})"]
    lines += _provenance(table.description, table.producer)
    lines += _links(path.parent, table.links)
    lines.append(f"rows: {table.n_rows}, columns: {len(table.columns)}")
    lines += _bounded([_column_line(c) for c in table.columns], 1100)
    if table.attrs:
        items = [f"{k}={_short(_fmt(v), 40)}" for k, v in table.attrs.items()]
        lines.append("attrs: " + _joined(items, 180))
    return lines


def _h5_tree(h5: Any) -> Lines:
    names: Lines = []
    h5.visit(names.append)
    attrs = ", ".join(f"{k}={_short(_str(v), 30)}" for k, v in list(h5.attrs.items())[:8])
    return [f"root attrs: {attrs or 'none'}", "objects: " + _joined(names, 180)]


def _column_line(col: Column) -> str:
    desc = f" - {_short(col.description, 50)}" if col.description else ""
    return f"  {col.name} [{col.unit}] {col.values.shape} {_stats(col.values)}{desc}"


def _stats(values: np.ndarray) -> str:
    if values.size == 0:
        return "empty"
    if values.dtype.kind in "US":
        return f"text: {_short(str(values.flat[0]), 20)!r} … {_short(str(values.flat[-1]), 20)!r}"
    if values.dtype.kind == "b":
        return f"bool: {int(values.sum())} true of {values.size}"
    data = values.astype(float)
    finite = data[np.isfinite(data)]
    nan = f", {data.size - finite.size} non-finite" if finite.size < data.size else ""
    if finite.size == 0:
        return "all non-finite"
    if values.ndim == 1 and finite.size == data.size and data.size >= 2:
        step = np.diff(data)
        if np.all(step > 0) or np.all(step < 0):
            trend = "increasing" if step[0] > 0 else "decreasing"
            return f"{_fmt(data[0])} → {_fmt(data[-1])} ({trend})"
    low, high = finite.min(), finite.max()
    if low == high:
        return f"constant {_fmt(low)}{nan}"
    return f"min {_fmt(low)}, max {_fmt(high)}{nan}"


def _structure_lines(path: Path) -> Lines:
    n_frames = _count_xyz_frames(path)
    last = read_structure(path)
    info = read_structure_info(path)
    schema = info.get(SCHEMA_KEY)
    version = f"schema {_str(schema)}" if schema is not None else "no simwright_schema"
    lines = [f"kind: structure ({version}), frames: {n_frames}, showing the last"]
    lines += _provenance("", _str(info.get("producer", "")))
    mols = f", molecules: {len(set(last.molecule_ids))}" if last.molecule_ids else ""
    lines.append(f"formula: {last.formula}, atoms: {len(last)}{mols}")
    lines.append(_cell_line(last.to_ase().cell.cellpar(), last.pbc, last.volume_a3 is not None))
    if len(last) <= _MAX_SANITY_ATOMS:
        summary = last.sanity()
        if summary.density_g_cm3:
            lines.append(f"density: {summary.density_g_cm3:.4f} g/cm^3")
        lines.append(f"sanity: {summary.text()}")
    else:
        lines.append(f"sanity: skipped for more than {_MAX_SANITY_ATOMS} atoms")
    extra = {k: v for k, v in info.items() if k not in (SCHEMA_KEY, "kind", "producer")}
    if extra:
        lines.append(
            "info: " + _joined([f"{k}={_short(_str(v), 40)}" for k, v in extra.items()], 180)
        )
    return lines


def _count_xyz_frames(path: Path) -> int:
    frames = 0
    skip = 0
    with path.open("r", encoding="utf-8") as handle:
        for line in handle:
            if skip:
                skip -= 1
            elif line.strip():
                skip = int(line) + 1
                frames += 1
    return frames


def _cell_line(cellpar: np.ndarray, pbc: tuple[bool, ...], has_cell: bool) -> str:
    flags = "".join("T" if p else "F" for p in pbc)
    if not has_cell:
        return f"cell: none, pbc {flags}"
    a, b, c, alpha, beta, gamma = (float(x) for x in cellpar)
    return (
        f"cell: a={a:.4f} b={b:.4f} c={c:.4f} Å, "
        f"α={alpha:.2f} β={beta:.2f} γ={gamma:.2f}°, pbc {flags}"
    )


def _manifest_lines(path: Path) -> Lines:
    try:
        manifest = read_trajectory_manifest(path)
    except Exception as exc:
        return ["kind: trajectory manifest", f"problem: {exc}", *_json_lines(path)[1:]]
    body = load_json(path) or {}
    m = manifest
    lines = [f"kind: trajectory manifest (schema {_str(body.get(SCHEMA_KEY))})"]
    lines += _provenance(m.description, m.producer)
    lines += _referenced(path.parent, m.trajectory, m.format)
    if m.format == "dcd" and m.trajectory_path(path.parent).is_file():
        lines += _dcd_check(m, m.trajectory_path(path.parent))
    lines += _referenced(path.parent, m.topology, m.topology_format)
    lines.append(
        f"atoms: {m.n_atoms}, frames: {m.n_frames}, timestep {_fmt(m.timestep_fs)} fs, "
        f"every {m.frame_interval_steps} steps ({_fmt(m.frame_interval_fs)} fs), "
        f"span {_fmt(m.duration_fs / 1000.0)} ps"
    )
    units = ", ".join(f"{k}={v}" for k, v in m.units.items())
    lines.append(f"unwrapped: {'yes' if m.unwrapped else 'no'}, units: {units}")
    return lines


def _referenced(folder: Path, rel: str, fmt: str) -> Lines:
    target = folder / rel
    state = f"exists, {_size(target.stat().st_size)}" if target.is_file() else "MISSING"
    return [f"{'trajectory' if fmt in ('dcd', 'xtc') else 'file'}: {rel} [{fmt}] {state}"]


def _dcd_check(manifest: TrajectoryManifest, dcd: Path) -> Lines:
    try:
        h = dcd_header(dcd)
    except Exception as exc:
        return [f"  dcd header: unreadable ({exc})"]
    line = (
        f"  dcd header: {h['n_atoms']} atoms, {h['n_frames']} frames "
        f"({h['n_frames_in_file']} in file), cell {'yes' if h['has_cell'] else 'no'}"
    )
    issues = []
    if h["n_atoms"] != manifest.n_atoms:
        issues.append(f"n_atoms manifest {manifest.n_atoms} vs dcd {h['n_atoms']}")
    if h["n_frames_in_file"] != manifest.n_frames:
        issues.append(f"n_frames manifest {manifest.n_frames} vs dcd {h['n_frames_in_file']}")
    check = "  MISMATCH: " + "; ".join(issues) if issues else "  matches the manifest"
    return [line, check]


def _binary_lines(path: Path) -> Lines:
    with path.open("rb") as handle:
        head = handle.read(16)
    if is_dcd(head):
        h = dcd_header(path)
        return [
            "kind: trajectory-binary (dcd)",
            f"atoms: {h['n_atoms']}, frames: {h['n_frames']} (header {h['nset']}, "
            f"{h['n_frames_in_file']} in file), cell: {'yes' if h['has_cell'] else 'no'}",
            f"istart {h['istart']}, every {h['nsavc']} steps, delta {_fmt(h['delta'])} "
            f"(writer units), {h['endian']} endian, {h['trailing_bytes']} trailing bytes",
            "hint: describe it with a .traj.json manifest naming its topology",
        ]
    natoms, step = struct.unpack(">ii", head[4:12])
    (time,) = struct.unpack(">f", head[12:16])
    return [
        "kind: trajectory-binary (xtc)",
        f"atoms: {natoms}, first frame: step {step}, time {_fmt(time)} ps",
        "hint: describe it with a .traj.json manifest naming its topology",
    ]


def _json_lines(path: Path) -> Lines:
    body = load_json(path)
    if body is None:
        return ["kind: json", "problem: not valid JSON (or too large)", *_peek(path)]
    if isinstance(body, dict):
        schema = f" (schema {_str(body[SCHEMA_KEY])})" if SCHEMA_KEY in body else ""
        items = [f"  {k}: {_short(json.dumps(v, ensure_ascii=False), 80)}" for k, v in body.items()]
        return [f"kind: json object with {len(body)} keys{schema}", *_bounded(items, 1300)]
    if isinstance(body, list):
        items = [
            f"  [{i}] {_short(json.dumps(v, ensure_ascii=False), 80)}" for i, v in enumerate(body)
        ]
        return [f"kind: json list of {len(body)} items", *_bounded(items, 1300)]
    return ["kind: json scalar", f"value: {_short(json.dumps(body), 200)}"]


def _text_lines(path: Path) -> Lines:
    return ["kind: text (not a contract file)", *_peek(path)]


def _unknown_lines(path: Path) -> Lines:
    return ["kind: unknown (binary or unrecognized content)", *_peek(path)]


_DESCRIBERS: Final[dict[str, Callable[[Path], Lines]]] = {
    "table": _table_lines,
    "structure": _structure_lines,
    "trajectory": _manifest_lines,
    "trajectory-binary": _binary_lines,
    "json": _json_lines,
    "text": _text_lines,
}


def _peek(path: Path, n_lines: int = 5) -> Lines:
    try:
        with path.open("rb") as handle:
            head = handle.read(1024)
    except OSError as exc:
        return [f"unreadable: {exc}"]
    text = decode_text(head)
    if text is None:
        return [f"first bytes: {head[:32].hex(' ')}"]
    lines = text.splitlines()[:n_lines]
    return ["first lines:", *(f"  {_short(line, 100)}" for line in lines)] if lines else ["empty"]


def _provenance(description: str, producer: str) -> Lines:
    lines = []
    if description:
        lines.append(f"description: {_short(description, 180)}")
    if producer:
        lines.append(f"producer: {_short(producer, 120)}")
    return lines


def _links(folder: Path, links: Iterable[str]) -> Lines:
    items = [f"{link} ({'ok' if (folder / link).exists() else 'missing'})" for link in links]
    return ["links: " + _joined(items, 180)] if items else []


def _bounded(lines: Lines, budget: int) -> Lines:
    out: Lines = []
    used = 0
    for i, line in enumerate(lines):
        line = _short(line, 160)
        if used + len(line) + 1 > budget:
            out.append(f"  ... ({len(lines) - i} more)")
            break
        out.append(line)
        used += len(line) + 1
    return out


def _joined(items: Lines, budget: int) -> str:
    text = ", ".join(items)
    if len(text) <= budget:
        return text
    shown: Lines = []
    used = 0
    for item in items:
        if used + len(item) + 2 > budget - 16:  # leave room for "... (N more)"
            break
        shown.append(item)
        used += len(item) + 2
    return ", ".join([*shown, f"... ({len(items) - len(shown)} more)"])


def _fit(lines: Lines, limit: int) -> str:
    lines = [_short(line, _LINE_CHARS) for line in lines]
    text = "\n".join(lines)
    cut = 0
    while len(text) > limit and lines:
        lines.pop()
        cut += 1
        text = "\n".join([*lines, f"... ({cut} more lines)"])
    return text[:limit]


def _short(text: str, n: int) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= n else text[: n - 1] + "…"


def _str(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, np.ndarray):
        return np.array2string(value, threshold=6, precision=4)
    return str(value)


def _fmt(value: object) -> str:
    if isinstance(value, float | np.floating):
        return f"{float(value):.6g}"
    return _str(value)


def _size(n_bytes: int) -> str:
    size = float(n_bytes)
    for unit in ("B", "kB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{size:.1f} GB"
