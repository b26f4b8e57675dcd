"""JSON shapes of runs: what the CLI's ``--json``, the service and later clients return.

Cheap to import: these read stored JSON without importing the graph, the protocols or
any engine (stored values are shown in a plain form, see :func:`plain`). Non-finite
numbers stay floats here; each edge writes them as strict JSON (``null`` with a note).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simwright.graph.lock import live_status, live_step_status
from simwright.graph.plain import plain
from simwright.store.integrity import RunIntegrity, verify_run

if TYPE_CHECKING:
    from simwright.graph import RunOutcome
    from simwright.store import RunRow, Store
    from simwright.store.reading import EventFields, RunFields, RunReader


def utc_iso(moment: datetime | None) -> str | None:
    """A stored time in ISO 8601 with its UTC offset: the store writes UTC, and SQLite
    hands it back without the zone (PostgreSQL with it), so both print alike."""
    if moment is None:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


def run_json(row: RunFields) -> dict[str, Any]:
    """The summary of a run as ``simwright runs --json`` lists it.

    ``status`` is the run's state now: a run recorded as ``running`` whose lock no
    process holds was killed, and is shown as ``interrupted``.
    """
    return {
        "run_id": row.id,
        "protocol": row.protocol,
        "status": live_status(row.status, Path(row.workdir)),
        "request": row.request,
        "created_at": utc_iso(row.created_at),
        "run_dir": row.workdir,
    }


def params_json(row: RunFields) -> Any:
    """A run's parameters as plain JSON (a pydantic model is dumped as its fields)."""
    return plain(json.loads(row.params_json)) if row.params_json else None


def outcome_json(store: RunReader, outcome: RunOutcome) -> dict[str, Any]:
    """The object ``simwright run --json`` prints: id, status, results and artifacts."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.results import ProtocolResult

    row = store.get_run(outcome.run_id)
    data = run_json(row)
    data["parameters"] = params_json(row)
    result = outcome.result
    run_dir = Path(row.workdir)
    if isinstance(result, ProtocolResult):
        rd = result.as_dict()
        data["results"] = rd["values"]
        data["summary"] = result.summary
        data["references"] = rd["references"]
        data["artifacts"] = [str(run_dir / a.path) for a in result.artifacts]
        reports = [a for a in result.artifacts if a.kind == "report"]
        data["report"] = str(run_dir / reports[0].path) if reports else None
        data["plots"] = [str(run_dir / a.path) for a in result.artifacts if a.kind == "plot"]
    else:
        data["results"] = {}
        data["artifacts"] = [str(run_dir / a.path) for a in store.artifacts(row.id)]
    if outcome.error:
        data["error"] = outcome.error
    if outcome.status == "needs_review":
        data["pending_decision"] = _pending(store, row.id)
    return data


def _pending(store: RunReader, run_id: str) -> dict[str, Any] | None:
    open_ = [d for d in store.decisions(run_id) if d.chosen is None]
    if not open_:
        return None
    d = open_[-1]
    return {
        "point": d.point,
        "options": json.loads(d.options_json),
        "inputs": json.loads(d.inputs_json),
    }


def show_json(store: RunReader, row: RunFields, *, verify: bool = True) -> dict[str, Any]:
    """Everything recorded about a run, with each artifact checked against its hash
    (``verify=False``: not re-hashed, ``state`` is then ``unchecked``).

    A step attempt recorded as ``running`` in a run no process holds shows as ``killed``.
    """
    data = run_json(row)
    live = data["status"] == "running"
    integrity = verify_run(store, row) if verify else None
    data.update(
        {
            "parameters": params_json(row),
            "error": row.error,
            "simwright_version": row.simwright_version,
            "result": plain(json.loads(row.result_json)) if row.result_json else None,
            "steps": [
                {
                    "seq": s.seq,
                    "attempt": s.attempt,
                    "name": s.name,
                    "status": live_step_status(s.status, live),
                    "successor": s.successor,
                    "decided_by": s.decided_by,
                    "reason": s.reason,
                    "inputs_hash": s.inputs_hash,
                    "wall_s": s.wall_s,
                    "workdir": s.workdir,
                    "structures": json.loads(s.structure_json) if s.structure_json else [],
                    "error": s.error,
                }
                for s in store.steps(row.id)
            ],
            "artifacts": [
                {
                    "path": a.path,
                    "kind": a.kind,
                    "sha256": a.sha256,
                    "size": a.size,
                    "schema_version": a.schema_version,
                    "step_id": a.step_id,
                    "description": a.description,
                    "state": integrity.state_of(a.path) if integrity else "unchecked",
                }
                for a in store.artifacts(row.id)
            ],
            "integrity": integrity_json(integrity) if integrity else None,
            "engine_calls": [
                {
                    "engine": c.engine,
                    "command": c.command,
                    "version": c.version,
                    "exit_code": c.exit_code,
                    "wall_s": c.wall_s,
                    "step_id": c.step_id,
                    "stdout_tail": c.stdout_tail[-500:],
                    "stderr_tail": c.stderr_tail[-500:],
                    "extra": json.loads(c.extra_json or "{}"),
                }
                for c in store.engine_calls(row.id)
            ],
            "decisions": decisions_json(store, row.id),
            "events": [
                {
                    "kind": e.kind,
                    "message": e.message,
                    "step_id": e.step_id,
                    "at": utc_iso(e.created_at),
                    "id": e.id,
                }
                for e in store.events(row.id)
            ],
        }
    )
    # lazy: the agent layer's usage tables are read only when a run is shown
    from simwright.agents.usage.turns import turns_json
    from simwright.agents.usage.view import usage_json

    data["usage"] = usage_json(store, row.id)
    if row.protocol == "agent":
        data["turns"] = turns_json(store, row.id)
    return data


def decisions_json(store: RunReader, run_id: str) -> list[dict[str, Any]]:
    """Every choice of a successor in a run, in step order.

    ``kind`` is ``decision_point`` for an answered or pending decision point (its
    options, chosen label, decider and rationale) and ``rule`` for a step whose
    successor a named rule chose (``ctx.rule``): its step, successor, rule and reason.
    """
    points = store.decisions(run_id)
    by_step = {d.step_id for d in points}
    found: list[tuple[int, dict[str, Any]]] = [
        (
            d.step_id,
            {
                "kind": "decision_point",
                "point": d.point,
                "options": json.loads(d.options_json),
                "chosen": d.chosen,
                "decided_by": d.decided_by,
                "rationale": d.rationale,
                "step_id": d.step_id,
            },
        )
        for d in points
    ]
    for s in store.steps(run_id):
        if s.id in by_step or not (s.decided_by or "").startswith("rule:"):
            continue
        found.append(
            (
                s.id,
                {
                    "kind": "rule",
                    "point": f"{s.seq}-{s.name}",
                    "options": [s.successor] if s.successor else [],
                    "chosen": s.successor,
                    "decided_by": s.decided_by,
                    "rationale": s.reason or "",
                    "step_id": s.id,
                },
            )
        )
    return [d for _, d in sorted(found, key=lambda item: item[0])]


def integrity_json(report: RunIntegrity) -> dict[str, Any]:
    """The object ``simwright verify --json`` prints."""
    return {
        "run_id": report.run_id,
        "run_dir": report.run_dir,
        "ok": report.ok,
        "checked": len(report.checks),
        "problems": [
            {"path": c.path, "state": c.state, "kind": c.kind, "step_id": c.step_id}
            for c in report.problems
        ],
    }


def event_json(e: EventFields) -> dict[str, Any]:
    """One event with its id (ids only grow: a stream resumes after the last one seen)."""
    try:
        payload = json.loads(e.payload_json) if e.payload_json else {}
    except json.JSONDecodeError:
        payload = {}
    return {
        "id": e.id,
        "kind": e.kind,
        "message": e.message,
        "step_id": e.step_id,
        "payload": payload,
        "at": utc_iso(e.created_at),
    }


def results_json(store: Store, row: RunRow) -> dict[str, Any]:
    """A run's reported values (value, unit, uncertainty, source file), summary, references
    and the recorded files behind them (path, kind, sha256, size)."""
    result = plain(json.loads(row.result_json)) if row.result_json else None
    values: dict[str, Any] = {}
    summary, references = "", []
    if isinstance(result, dict) and isinstance(result.get("values"), dict):
        values = {
            name: {
                "value": q.get("value"),
                "unit": q.get("unit"),
                "uncertainty": q.get("uncertainty"),
                "source": q.get("source") or None,
            }
            for name, q in result["values"].items()
            if isinstance(q, dict)
        }
        summary = str(result.get("summary") or "")
        references = list(result.get("references") or [])
    return {
        "run_id": row.id,
        "status": live_status(row.status, Path(row.workdir)),
        "values": values,
        "summary": summary,
        "references": references,
        "artifacts": [
            {"path": a.path, "kind": a.kind, "sha256": a.sha256, "size": a.size}
            for a in store.artifacts(row.id)
        ],
    }


def timeline_json(store: Store, row: RunRow) -> list[dict[str, Any]]:
    """What happened in a run, in time order: step attempts starting and ending, engine
    calls, decisions and events."""
    items: list[tuple[str, int, dict[str, Any]]] = []

    def at(value: Any) -> str:
        return utc_iso(value) or ""

    for s in store.steps(row.id):
        label = f"{s.seq}-{s.name}" + (f" (attempt {s.attempt})" if s.attempt > 1 else "")
        items.append((at(s.started_at), 0, {"kind": "step_started", "step": label}))
        if s.finished_at is not None:
            done = {"kind": "step_finished", "step": label, "status": s.status, "wall_s": s.wall_s}
            items.append((at(s.finished_at), 1, done))
    for c in store.engine_calls(row.id):
        call = {"kind": "engine_call", "engine": c.engine, "exit_code": c.exit_code}
        items.append((at(c.created_at), 2, {**call, "wall_s": c.wall_s, "step_id": c.step_id}))
    for d in store.decisions(row.id):
        items.append(
            (
                at(d.created_at),
                3,
                {"kind": "decision", "point": d.point, "chosen": d.chosen, "by": d.decided_by},
            )
        )
    for e in store.events(row.id):
        items.append((at(e.created_at), 4, {"kind": f"event:{e.kind}", "message": e.message}))
    items.sort(key=lambda item: (item[0], item[1]))
    return [{"at": when or None, **body} for when, _, body in items]
