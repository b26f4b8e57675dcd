"""Turn a completed run of the provenance store into a :class:`MemoryRecord`.

The record keeps what another run of the same kind would want to know: the request,
the protocol and its parameters, the steps taken, the small input files and scripts
the engines were given (their text), and the results with units.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from simwright.errors import SimwrightError
from simwright.graph.codec import loads
from simwright.knowledge.memory.episodic import MemoryRecord, MemoryStoreError
from simwright.results import ProtocolResult
from simwright.store import ArtifactRow, RunRow, Store

SCRIPT_KINDS = frozenset({"input", "script"})
SCRIPT_SUFFIXES = frozenset({".in", ".lmp", ".lammps", ".inp", ".pwi", ".py", ".sh", ".yaml"})
MAX_SCRIPT_BYTES = 20_000


def _decode(text: str | None) -> Any:
    if not text:
        return None

    try:
        return loads(text)
    except (SimwrightError, ValueError, TypeError):  # a class that no longer imports
        return json.loads(text)


def _parameters(run: RunRow) -> dict[str, Any]:
    params = _decode(run.params_json)
    if isinstance(params, BaseModel):
        return params.model_dump(mode="json")
    return params if isinstance(params, dict) else {}


def _results(result: Any) -> dict[str, dict[str, Any]]:
    if isinstance(result, ProtocolResult):
        return {name: q.as_dict() for name, q in result.values.items()}
    return {}


def _is_script(a: ArtifactRow) -> bool:
    small = a.size <= MAX_SCRIPT_BYTES
    return small and (a.kind in SCRIPT_KINDS or Path(a.path).suffix.lower() in SCRIPT_SUFFIXES)


def _scripts(run: RunRow, artifacts: list[ArtifactRow]) -> dict[str, str]:
    out: dict[str, str] = {}
    for a in artifacts:
        path = Path(run.workdir) / a.path
        if _is_script(a) and path.is_file():
            out[a.path] = path.read_text(encoding="utf-8", errors="replace")
    return out


def _summary(run: RunRow, result: Any, results: dict[str, dict[str, Any]]) -> str:
    if isinstance(result, ProtocolResult) and result.summary.strip():
        first = result.summary.strip().splitlines()[0].lstrip("# ").strip()
        if first:
            return first
    shown = ", ".join(f"{k} = {v['value']:.6g} {v['unit']}".strip() for k, v in results.items())
    return f"{run.protocol}: {shown}" if shown else f"{run.protocol} run {run.id}"


def record_from_run(store: Store, run_id: str) -> MemoryRecord:
    """A memory record of the completed run ``run_id`` (an id or unique prefix)."""
    run = store.get_run(run_id)
    if run.status != "completed":
        raise MemoryStoreError(f"run {run.id} is {run.status}; only completed runs are remembered")
    result = _decode(run.result_json)
    results = _results(result)
    steps = [s.name for s in store.steps(run.id) if s.status == "completed"]
    inputs = {"protocol": run.protocol, "parameters": _parameters(run), "steps": steps}
    return MemoryRecord.new(
        "run",
        _summary(run, result, results),
        run.request or run.protocol,
        inputs=inputs,
        scripts=_scripts(run, store.artifacts(run.id)),
        results=results,
        outcome=run.status,
        source_run=run.id,
    )
