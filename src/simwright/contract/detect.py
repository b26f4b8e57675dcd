"""Tell a file's contract kind from its content, not its name.

HDF5 files are tables, DCD and XTC files binary trajectories, JSON objects with
``kind: trajectory`` manifests, text opening with an atom count and a
coordinate line extended XYZ structures.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any, Final

from simwright.contract.trajectories import MANIFEST_SUFFIX, TRAJECTORY_KIND

KINDS: Final = ("table", "structure", "trajectory", "trajectory-binary", "json", "text", "unknown")
"""The kinds :func:`detect_kind` returns."""

_HDF5_MAGIC: Final = b"\x89HDF\r\n\x1a\n"
_XTC_MAGIC: Final = 1995
_HEAD_BYTES: Final = 4096
_MAX_JSON_BYTES: Final = 20_000_000


def detect_kind(path: Path) -> str:
    """The contract kind of ``path`` judged by content: one of :data:`KINDS`.

    HDF5 files are ``table``; DCD and XTC files ``trajectory-binary``; a JSON
    object with ``kind: trajectory`` (or a ``*.traj.json`` name) ``trajectory``;
    text starting with an atom count and a coordinate line ``structure``.
    Unreadable paths are ``unknown``.
    """
    path = Path(path)
    if not path.is_file():
        return "unknown"
    try:
        with path.open("rb") as handle:
            head = handle.read(_HEAD_BYTES)
    except OSError:
        return "unknown"
    return _kind_from_head(path, head)


def _kind_from_head(path: Path, head: bytes) -> str:
    if head.startswith(_HDF5_MAGIC):
        return "table"
    if is_dcd(head) or _is_xtc(head):
        return "trajectory-binary"
    text = decode_text(head)
    if text is None:
        return "unknown"
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        return _json_kind(path)
    if _looks_like_xyz(text):
        return "structure"
    return "text"


def is_dcd(head: bytes) -> bool:
    """True if ``head`` starts like a little- or big-endian DCD file."""
    return len(head) >= 8 and head[4:8] == b"CORD" and head[:4] in (b"T\0\0\0", b"\0\0\0T")


def _is_xtc(head: bytes) -> bool:
    return len(head) >= 8 and struct.unpack(">i", head[:4])[0] == _XTC_MAGIC


def decode_text(head: bytes) -> str | None:
    """``head`` as UTF-8 text, or None if it looks binary."""
    if b"\0" in head:
        return None
    for cut in range(4):  # the read may have split a multi-byte character
        try:
            return head[: len(head) - cut].decode("utf-8")
        except UnicodeDecodeError:
            continue
    return None


def _json_kind(path: Path) -> str:
    body = load_json(path)
    if body is None:
        return "trajectory" if path.name.endswith(MANIFEST_SUFFIX) else "text"
    if isinstance(body, dict) and body.get("kind") == TRAJECTORY_KIND:
        return "trajectory"
    return "json"


def load_json(path: Path) -> Any | None:
    """The parsed JSON content of ``path``, or None if unreadable, invalid or huge."""
    try:
        if path.stat().st_size > _MAX_JSON_BYTES:
            return None
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None


def _looks_like_xyz(text: str) -> bool:
    lines = text.splitlines()
    if len(lines) < 2 or not lines[0].strip().isdigit():
        return False
    if int(lines[0]) == 0:
        return True
    if len(lines) < 3:
        return False
    tokens = lines[2].split()
    return len(tokens) >= 4 and tokens[0][:1].isalpha() and all(map(_is_float, tokens[1:4]))


def _is_float(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True
