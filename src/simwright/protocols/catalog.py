"""What the registered protocols are, without importing their graphs: a cached catalogue.

Importing a protocol imports its steps, engines and analysis (ASE, SciPy...), about a
second. Listing protocols needs only their names, titles, examples, parameter schema
and steps, so :func:`protocol_catalog` keeps those in a small JSON file
(``<cache_dir>/protocols.json``). The file is rebuilt (by loading every protocol once)
whenever its fingerprint changes: the registered entry points and the size and
modification time of every Python file of the packages that provide them. An edited
protocol, step or newly installed plugin is therefore seen at the next call.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

from simwright.plugins import group_entry_points
from simwright.protocols.registry import PROTOCOL_GROUP, load_protocols

CATALOG_FILE = "protocols.json"
CATALOG_VERSION = 1


@dataclass(frozen=True)
class ProtocolInfo:
    """A protocol as listed: name, title, summary, examples, parameter schema, graph edges."""

    name: str
    title: str
    summary: str
    examples: tuple[str, ...]
    parameters_schema: dict[str, Any]
    edges: dict[str, list[str]]

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary."""
        data = asdict(self)
        data["examples"] = list(self.examples)
        return data


def protocol_catalog(cache_dir: Path | None) -> dict[str, ProtocolInfo]:
    """The registered protocols by name, from the cache when it is still current.

    ``cache_dir`` None (or an unwritable folder) means: load the protocols each time.
    """
    points = sorted(group_entry_points(PROTOCOL_GROUP), key=lambda ep: ep.name)
    stamp = fingerprint(points)
    cache = cache_dir / CATALOG_FILE if cache_dir is not None else None
    cached = _read(cache, stamp) if cache is not None else None
    if cached is not None:
        return cached
    infos = {name: _info(p) for name, p in load_protocols().items()}
    if cache is not None:
        _write(cache, stamp, infos)
    return infos


def fingerprint(points: list[EntryPoint]) -> str:
    """A hash of the entry points and the files of the packages that provide them."""
    digest = hashlib.sha256(f"v{CATALOG_VERSION}".encode())
    roots: set[str] = set()
    for ep in points:
        digest.update(f"{ep.name}={ep.value}\n".encode())
        root = _package_dir(ep.module.split(".")[0])
        if root is not None:
            roots.add(root)
    for root in sorted(roots):
        for path, size, mtime in _python_files(root):
            digest.update(f"{path}:{size}:{mtime}\n".encode())
    return digest.hexdigest()


def _package_dir(top: str) -> str | None:
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return spec.origin if spec is not None else None
    return str(next(iter(spec.submodule_search_locations)))


def _python_files(root: str) -> Iterator[tuple[str, int, int]]:
    if os.path.isfile(root):
        st = os.stat(root)
        yield root, st.st_size, st.st_mtime_ns
        return
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".py", ".md", ".yaml")):
                path = os.path.join(folder, name)
                st = os.stat(path)
                yield path, st.st_size, st.st_mtime_ns


def _info(proto: Any) -> ProtocolInfo:
    return ProtocolInfo(
        name=proto.name,
        title=proto.title,
        summary=proto.summary,
        examples=tuple(proto.examples),
        parameters_schema=proto.parameters.model_json_schema(),
        edges={k: list(v) for k, v in proto.graph.edges.items()},
    )


def _read(path: Path, stamp: str) -> dict[str, ProtocolInfo] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("fingerprint") != stamp:
        return None
    try:
        return {
            p["name"]: ProtocolInfo(**{**p, "examples": tuple(p["examples"])})
            for p in data["protocols"]
        }
    except (KeyError, TypeError):
        return None


def _write(path: Path, stamp: str, infos: dict[str, ProtocolInfo]) -> None:
    data = {"fingerprint": stamp, "protocols": [i.as_dict() for i in infos.values()]}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        return  # a read-only home: the catalogue is simply rebuilt next time
