"""Structures as extended XYZ: the contract for atoms passed between steps.

Each frame's comment line carries ``simwright_schema``, ``kind=structure`` and,
when given, ``producer`` plus any extra info; molecule ids travel in the
per-atom ``mol-id`` column. Files written elsewhere (no ``simwright_schema``)
are read too; a newer major schema version is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from simwright.contract.schema import SCHEMA_KEY, SCHEMA_VERSION, check_schema
from simwright.errors import ContractError, StructureError
from simwright.structure import Structure

STRUCTURE_KIND = "structure"
RESERVED_INFO = frozenset({SCHEMA_KEY, "kind", "producer"})
"""Info keys written by the contract itself; callers may not set them through ``info``."""

_READ_ERRORS = (OSError, ValueError, IndexError, KeyError, StopIteration, UnicodeDecodeError)


def write_structure(
    path: Path,
    structure: Structure,
    *,
    producer: str = "",
    info: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``structure`` as a one-frame extxyz file; return the path.

    ``info`` holds extra per-frame metadata (str, int, float, bool or short
    arrays). Note that extxyz parses numeric-looking strings back as numbers.
    """
    # lazy: ase.io takes ~1 s to import
    from ase.io import write

    path = Path(path)
    atoms = structure.to_ase()
    atoms.info.update(_frame_info(producer, info))
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        write(handle, atoms, format="extxyz")
    return path


def _frame_info(producer: str, info: Mapping[str, Any] | None) -> dict[str, Any]:
    extra = dict(info or {})
    clash = sorted(RESERVED_INFO & set(extra))
    if clash:
        raise ContractError(f"info keys {clash} are reserved by the file contract")
    out: dict[str, Any] = {SCHEMA_KEY: SCHEMA_VERSION, "kind": STRUCTURE_KIND}
    if producer:
        out["producer"] = producer
    for key, value in extra.items():
        _check_info_item(key, value)
        out[key] = value
    return out


def _check_info_item(key: str, value: Any) -> None:
    if not isinstance(key, str) or not key or any(c in key for c in ' ="\n'):
        raise ContractError(f"info key {key!r} must be a non-empty word without spaces or quotes")
    if isinstance(value, str) and (value == "" or "\n" in value or '"' in value):
        raise ContractError(
            f"info {key!r}: extxyz cannot hold an empty string or one with newlines or quotes"
        )
    if not isinstance(value, str | int | float | bool | np.ndarray | list | tuple | np.generic):
        raise ContractError(f"info {key!r}: unsupported type {type(value).__name__}")


def read_structure(path: Path, index: int = -1) -> Structure:
    """Read frame ``index`` (default: the last) of an extxyz file as a Structure."""
    atoms = _read_frames(Path(path), index)[0]
    return _to_structure(atoms, Path(path))


def read_structures(path: Path) -> list[Structure]:
    """Read every frame of a (multi-frame) extxyz file."""
    return [_to_structure(atoms, Path(path)) for atoms in _read_frames(Path(path), ":")]


def read_structure_info(path: Path, index: int = -1) -> dict[str, Any]:
    """The info (comment-line metadata) of frame ``index``, schema version included."""
    atoms = _read_frames(Path(path), index)[0]
    _check_frame_schema(atoms.info, Path(path))
    return dict(atoms.info)


def _read_frames(path: Path, index: int | str) -> list[Any]:
    # lazy: ase.io takes ~1 s to import
    from ase.io import read

    if not path.is_file():
        raise ContractError(f"{path}: no such structure file")
    try:
        with path.open("r", encoding="utf-8") as handle:
            frames = read(handle, index, format="extxyz")
    except _READ_ERRORS as exc:
        raise ContractError(
            f"{path}: not a readable extxyz file ({exc or type(exc).__name__})"
        ) from exc
    frames = frames if isinstance(frames, list) else [frames]
    if not frames:
        raise ContractError(f"{path}: no frames")
    return frames


def _to_structure(atoms: Any, path: Path) -> Structure:
    _check_frame_schema(atoms.info, path)
    try:
        return Structure.from_ase(atoms)
    except StructureError as exc:
        raise ContractError(f"{path}: invalid structure ({exc})") from exc


def _check_frame_schema(info: Mapping[str, Any], path: Path) -> None:
    if SCHEMA_KEY in info:
        check_schema(info[SCHEMA_KEY], where=str(path))
    kind = info.get("kind", STRUCTURE_KIND)
    if kind != STRUCTURE_KIND:
        raise ContractError(f"{path}: expected kind 'structure', got {kind!r}")
