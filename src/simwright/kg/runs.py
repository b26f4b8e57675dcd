"""A completed run as plain facts: protocol, parameters, values with units, files.

Read through :class:`~simwright.store.reading.RunReader`; stored JSON is decoded as
data, no class is imported (the same rule as :mod:`simwright.provenance.record`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from simwright.graph.plain import plain
from simwright.store.reading import RunFields, RunReader


@dataclass(frozen=True)
class Value:
    """A reported value: number, unit, optional uncertainty, the file it comes from."""

    value: float
    unit: str
    uncertainty: float | None
    source: str


@dataclass(frozen=True)
class FileFact:
    """A recorded file of the run: path (relative to the run), sha256, size, kind."""

    path: str
    sha256: str
    size: int
    kind: str


@dataclass(frozen=True)
class RunFacts:
    """What the knowledge graph takes from one run."""

    run_id: str
    protocol: str
    request: str
    status: str
    created_at: str
    version: str
    parameters: Mapping[str, Any]
    values: Mapping[str, Value]
    summary: str
    files: tuple[FileFact, ...]


def _values(result: Any) -> tuple[dict[str, Value], str]:
    if not isinstance(result, dict) or not isinstance(result.get("values"), dict):
        return {}, ""
    values = {}
    for name, q in result["values"].items():
        if isinstance(q, dict) and isinstance(q.get("value"), int | float):
            unc = q.get("uncertainty")
            values[name] = Value(
                float(q["value"]),
                str(q.get("unit") or "1"),
                float(unc) if isinstance(unc, int | float) else None,
                str(q.get("source") or ""),
            )
    return values, str(result.get("summary") or "")


def read_facts(reader: RunReader, run: RunFields) -> RunFacts:
    """The facts of ``run`` (its parameters, values and recorded files)."""
    params = plain(json.loads(run.params_json)) if run.params_json else {}
    result = plain(json.loads(run.result_json)) if run.result_json else None
    values, summary = _values(result)
    files = tuple(FileFact(a.path, a.sha256, int(a.size), a.kind) for a in reader.artifacts(run.id))
    return RunFacts(
        run_id=run.id,
        protocol=run.protocol,
        request=run.request,
        status=run.status,
        created_at=run.created_at.isoformat(),
        version=run.simwright_version,
        parameters=params if isinstance(params, dict) else {"parameters": params},
        values=values,
        summary=summary,
        files=files,
    )
