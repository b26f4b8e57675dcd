"""Trajectories: a binary coordinate file plus a topology, described by a JSON manifest.

The manifest ``<name>.traj.json`` names both files by paths relative to its own
folder (never outside it), and records atoms, frames, timestep, frame interval
and whether coordinates are unwrapped. :func:`dcd_header` reads the numbers of
a CHARMM/LAMMPS DCD file without any dependency.
"""

from __future__ import annotations

import json
import os
import posixpath
import struct
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any, BinaryIO, Final, TypedDict

from simwright.contract.schema import SCHEMA_KEY, SCHEMA_VERSION, check_schema
from simwright.errors import ContractError

TRAJECTORY_KIND: Final = "trajectory"
MANIFEST_SUFFIX: Final = ".traj.json"
TRAJECTORY_FORMATS: Final = ("dcd", "xtc", "extxyz")
TOPOLOGY_FORMATS: Final = ("lammps-data", "extxyz")


def _default_units() -> dict[str, str]:
    return {"length": "Å", "time": "fs"}


@dataclass(frozen=True)
class TrajectoryManifest:
    """What a trajectory file holds and where its topology is.

    ``trajectory`` and ``topology`` are paths relative to the manifest's folder.
    """

    trajectory: str
    format: str
    topology: str
    topology_format: str
    n_atoms: int
    n_frames: int
    timestep_fs: float
    frame_interval_steps: int
    unwrapped: bool
    units: Mapping[str, str] = field(default_factory=_default_units)
    producer: str = ""
    description: str = ""

    def __post_init__(self) -> None:
        _check_relative("trajectory", self.trajectory)
        _check_relative("topology", self.topology)
        _check_choice("format", self.format, TRAJECTORY_FORMATS)
        _check_choice("topology_format", self.topology_format, TOPOLOGY_FORMATS)
        _check_count("n_atoms", self.n_atoms, minimum=1)
        _check_count("n_frames", self.n_frames, minimum=0)
        _check_count("frame_interval_steps", self.frame_interval_steps, minimum=1)
        _check_timestep(self.timestep_fs)
        if not isinstance(self.unwrapped, bool):
            raise ContractError(
                f"manifest: unwrapped must be true or false, got {self.unwrapped!r}"
            )
        object.__setattr__(self, "timestep_fs", float(self.timestep_fs))
        object.__setattr__(self, "units", _checked_units(self.units))

    @property
    def frame_interval_fs(self) -> float:
        """Time between two stored frames (fs)."""
        return self.timestep_fs * self.frame_interval_steps

    @property
    def duration_fs(self) -> float:
        """Time from the first to the last stored frame (fs)."""
        return max(self.n_frames - 1, 0) * self.frame_interval_fs

    def trajectory_path(self, folder: Path) -> Path:
        """The trajectory file, for a manifest stored in ``folder``."""
        return Path(folder) / self.trajectory

    def topology_path(self, folder: Path) -> Path:
        """The topology file, for a manifest stored in ``folder``."""
        return Path(folder) / self.topology


def _check_relative(name: str, value: object) -> None:
    if not isinstance(value, str) or not value.strip():
        raise ContractError(f"manifest: {name} must be a non-empty relative path")
    posix = value.replace("\\", "/")
    if PurePosixPath(posix).is_absolute() or PureWindowsPath(value).drive:
        raise ContractError(
            f"manifest: {name} path {value!r} is absolute; give it relative to the manifest"
        )
    normal = posixpath.normpath(posix)
    if normal == ".." or normal.startswith("../"):
        raise ContractError(
            f"manifest: {name} path {value!r} leaves the manifest's folder; "
            "keep trajectory files inside it"
        )
    if normal == ".":
        raise ContractError(f"manifest: {name} path {value!r} names the folder, not a file")


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ContractError(f"manifest: {name} must be one of {', '.join(allowed)}; got {value!r}")


def _check_count(name: str, value: object, *, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ContractError(f"manifest: {name} must be an integer >= {minimum}, got {value!r}")


def _check_timestep(value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ContractError(f"manifest: timestep_fs must be a positive number, got {value!r}")


def _checked_units(units: object) -> dict[str, str]:
    if not isinstance(units, Mapping):
        raise ContractError("manifest: units must be a mapping like {'length': 'Å'}")
    out = {str(k): v for k, v in units.items()}
    bad = [k for k, v in out.items() if not isinstance(v, str) or not v]
    if bad:
        raise ContractError(f"manifest: units {bad} must be non-empty strings")
    return out


def write_trajectory_manifest(path: Path, manifest: TrajectoryManifest) -> Path:
    """Write ``manifest`` as JSON to ``path`` (which must end in ``.traj.json``)."""
    path = Path(path)
    if not path.name.endswith(MANIFEST_SUFFIX):
        raise ContractError(f"{path}: a trajectory manifest must be named <name>{MANIFEST_SUFFIX}")
    body = {SCHEMA_KEY: SCHEMA_VERSION, "kind": TRAJECTORY_KIND, **asdict(manifest)}
    body["units"] = dict(manifest.units)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(body, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


_REQUIRED: Final = (
    "trajectory",
    "format",
    "topology",
    "topology_format",
    "n_atoms",
    "n_frames",
    "timestep_fs",
    "frame_interval_steps",
    "unwrapped",
)
_OPTIONAL: Final = ("units", "producer", "description")


def read_trajectory_manifest(path: Path) -> TrajectoryManifest:
    """Read and validate a manifest written by :func:`write_trajectory_manifest`."""
    path = Path(path)
    body = _load_json_object(path)
    check_schema(body.get(SCHEMA_KEY), where=str(path))
    if body.get("kind") != TRAJECTORY_KIND:
        raise ContractError(f"{path}: expected kind 'trajectory', got {body.get('kind')!r}")
    missing = [key for key in _REQUIRED if key not in body]
    if missing:
        raise ContractError(f"{path}: manifest lacks {', '.join(missing)}")
    fields = {key: body[key] for key in _REQUIRED + _OPTIONAL if key in body}
    try:
        return TrajectoryManifest(**fields)
    except ContractError as exc:
        raise ContractError(f"{path}: {exc}") from exc


def _load_json_object(path: Path) -> dict[str, Any]:
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ContractError(f"{path}: no such manifest") from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ContractError(f"{path}: not a readable JSON manifest ({exc})") from exc
    if not isinstance(body, dict):
        raise ContractError(f"{path}: a manifest must be a JSON object")
    return body


class DcdHeader(TypedDict):
    """The numbers in a DCD header, and how many frames the file really holds."""

    n_atoms: int
    n_frames: int
    has_cell: bool
    nset: int
    n_frames_in_file: int
    trailing_bytes: int
    istart: int
    nsavc: int
    delta: float
    endian: str


def dcd_header(path: Path) -> DcdHeader:
    """Read the header of a CHARMM/LAMMPS DCD file.

    ``n_frames`` is the header's NSET, or, when that is 0 (a writer that never
    went back to update it), the number of whole frames that fit in the file.
    ``n_frames_in_file`` is always that count; ``delta`` is in the writer's units.
    """
    path = Path(path)
    try:
        with path.open("rb") as handle:
            return _parse_dcd(handle, path.stat().st_size, str(path))
    except (OSError, struct.error) as exc:
        raise ContractError(f"{path}: not a readable DCD file ({exc})") from exc


def _parse_dcd(handle: BinaryIO, size: int, where: str) -> DcdHeader:
    endian = _dcd_endian(handle.read(4), where)
    handle.seek(0)
    first = _record(handle, endian, where)
    if len(first) != 84 or first[:4] != b"CORD":
        raise ContractError(f"{where}: not a DCD file (no 'CORD' header record)")
    ints = struct.unpack(f"{endian}20i", first[4:84])
    charmm = ints[19] != 0
    _record(handle, endian, where)  # title lines
    atoms_record = _record(handle, endian, where)
    if len(atoms_record) != 4:
        raise ContractError(f"{where}: malformed DCD atom-count record")
    (n_atoms,) = struct.unpack(f"{endian}i", atoms_record)
    if ints[8] != 0:
        raise ContractError(f"{where}: DCD files with fixed atoms (NAMNF) are not supported")
    has_cell = charmm and ints[10] != 0
    n_coords = 4 if charmm and ints[11] != 0 else 3
    frame_bytes = (56 if has_cell else 0) + n_coords * (4 * n_atoms + 8)
    body = size - handle.tell()
    in_file = body // frame_bytes if frame_bytes > 0 else 0
    delta_fmt = f"{endian}f" if charmm else f"{endian}d"
    delta_raw = first[40:44] if charmm else first[40:48]
    return DcdHeader(
        n_atoms=n_atoms,
        n_frames=ints[0] if ints[0] > 0 else in_file,
        has_cell=has_cell,
        nset=ints[0],
        n_frames_in_file=in_file,
        trailing_bytes=body - in_file * frame_bytes,
        istart=ints[1],
        nsavc=ints[2],
        delta=float(struct.unpack(delta_fmt, delta_raw)[0]),
        endian="little" if endian == "<" else "big",
    )


def _dcd_endian(marker: bytes, where: str) -> str:
    if len(marker) == 4:
        for endian in ("<", ">"):
            if struct.unpack(f"{endian}i", marker)[0] == 84:
                return endian
    raise ContractError(f"{where}: not a DCD file (first record is not 84 bytes)")


def _record(handle: BinaryIO, endian: str, where: str) -> bytes:
    head = handle.read(4)
    if len(head) != 4:
        raise ContractError(f"{where}: DCD header ends early")
    (length,) = struct.unpack(f"{endian}i", head)
    if length < 0 or length > 1 << 24:
        raise ContractError(f"{where}: implausible DCD record length {length}")
    payload = handle.read(length)
    tail = handle.read(4)
    if len(payload) != length or len(tail) != 4 or struct.unpack(f"{endian}i", tail)[0] != length:
        raise ContractError(f"{where}: broken Fortran record in DCD header")
    return payload
