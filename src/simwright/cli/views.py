"""JSON shapes and Rich renderings of runs for the command line.

Cheap to import: ``runs`` and ``show`` read stored JSON without importing the graph,
the protocols or any engine (stored values are shown in a plain form, see
:func:`plain`). Non-finite numbers are turned into ``null`` by the CLI's ``emit``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from simwright.graph.lock import live_status, live_step_status
from simwright.store.integrity import RunIntegrity, verify_run

if TYPE_CHECKING:
    from simwright.graph import RunOutcome
    from simwright.store.reading import RunFields, RunReader

TYPE_KEY = "__type__"


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


def plain(data: Any) -> Any:
    """A value stored by the graph codec as plain JSON, without importing its classes.

    Pydantic models become their fields, dataclasses their fields, tuples lists,
    paths and enums their values, structures their arrays; a stored non-finite float
    becomes the Python float again (``emit`` writes it as ``null`` with a note).
    """
    if isinstance(data, list):
        return [plain(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "__dict__" in data:
        return {k: plain(v) for k, v in data["__dict__"].items()}
    kind = data.get(TYPE_KEY)
    if kind is None:
        return {k: plain(v) for k, v in data.items()}
    if kind == "float":
        return float(data["repr"])
    if kind == "pydantic":
        return plain(data["data"])
    if kind == "dataclass":
        return {k: plain(v) for k, v in data["fields"].items()}
    if kind == "tuple":
        return [plain(v) for v in data["items"]]
    if kind in ("path", "enum"):
        return data["value"]
    return plain(data.get("data"))  # ndarray, structure


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


def print_outcome(console: Console, data: dict[str, Any]) -> None:
    """Human-readable end of a run."""
    status = data["status"]
    color = {"completed": "green", "failed": "red"}.get(status, "yellow")
    console.print(f"run [bold]{data['run_id']}[/] ({data['protocol']}): [{color}]{status}[/]")
    if data.get("summary"):
        console.print(data["summary"], highlight=False)
    for name, q in data.get("results", {}).items():
        unc = q.get("uncertainty")
        pm = "" if unc is None else f" ± {unc:.4g}"
        src = f"   [dim]({q['source']})[/]" if q.get("source") else ""
        console.print(f"  {name} = {q['value']:.6g}{pm} {q['unit']}{src}", highlight=False)
    for ref in data.get("references", []):
        console.print(
            f"compare with: {ref['quantity']} = {ref['value']:g} {ref['unit']} ({ref['citation']})",
            highlight=False,
        )
    if data.get("error"):
        console.print(f"[red]error:[/] {escape(str(data['error']))}", highlight=False)
    if data.get("pending_decision"):
        pd = data["pending_decision"]
        console.print(
            f"decision needed at {pd['point']!r}: options {', '.join(pd['options'])}. "
            f"Continue with: simwright resume {data['run_id']} --choose OPTION"
        )
    if data.get("report"):
        console.print(f"report: {data['report']}")
    for plot in data.get("plots", []):
        console.print(f"plot: {plot}")
    if data.get("memory_record"):
        console.print(
            f"remembered as {data['memory_record']} (simwright memory search)", highlight=False
        )
    console.print(f"files: {data['run_dir']}   provenance: simwright show {data['run_id']}")


def print_runs(console: Console, rows: Sequence[RunFields]) -> None:
    """A table of runs; ids are never cut or wrapped (the request column gives way)."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)

    def fixed(name: str, values: list[str]) -> None:
        width = max([len(name), *(len(v) for v in values)])
        table.add_column(name, no_wrap=True, min_width=width, overflow="ignore")

    fixed("run id", [r.id for r in rows])
    fixed("protocol", [r.protocol for r in rows])
    fixed("status", [r.status for r in rows])
    table.add_column("created", overflow="fold", min_width=10)
    table.add_column("request", overflow="fold")
    for r in rows:
        table.add_row(
            r.id,
            r.protocol,
            live_status(r.status, Path(r.workdir)),
            r.created_at.strftime("%Y-%m-%d %H:%M") if r.created_at else "",
            (r.request or "")[:60],
        )
    console.print(table)


def show_json(store: RunReader, row: RunFields) -> dict[str, Any]:
    """Everything recorded about a run, with each artifact checked against its hash.

    A step attempt recorded as ``running`` in a run no process holds shows as ``killed``.
    """
    data = run_json(row)
    live = data["status"] == "running"
    integrity = verify_run(store, row)
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
                    "state": integrity.state_of(a.path),
                }
                for a in store.artifacts(row.id)
            ],
            "integrity": integrity_json(integrity),
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
                }
                for e in store.events(row.id)
            ],
        }
    )
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.agents.usage.view import usage_json

    data["usage"] = usage_json(store, row.id)
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


def print_show(console: Console, data: dict[str, Any]) -> None:
    """Human-readable provenance of a run."""
    console.print(
        f"run [bold]{data['run_id']}[/]  protocol {data['protocol']}  "
        f"status {data['status']}  simwright {data['simwright_version']}"
    )
    console.print(f"request: {data['request']}", highlight=False)
    console.print(f"directory: {data['run_dir']}")
    steps = Table("#", "step", "try", "status", "next", "decided by", "wall s", title="steps")
    for s in data["steps"]:
        steps.add_row(
            str(s["seq"]),
            s["name"],
            str(s["attempt"]),
            s["status"],
            s["successor"] or "",
            s["decided_by"] or "",
            "" if s["wall_s"] is None else f"{s['wall_s']:.2f}",
        )
    console.print(steps)
    if data["decisions"]:
        dec = Table("point", "options", "chosen", "by", title="decisions")
        for d in data["decisions"]:
            dec.add_row(
                d["point"],
                ", ".join(o or "" for o in d["options"]),
                d["chosen"] or "(pending)",
                d["decided_by"],
            )
        console.print(dec)
    calls = Table("engine", "command", "exit", "wall s", title="engine calls")
    for c in data["engine_calls"]:
        calls.add_row(c["engine"], c["command"][:70], str(c["exit_code"]), f"{c['wall_s']:.2f}")
    console.print(calls)
    arts = Table("path", "kind", "sha256", "bytes", "file", title="artifacts")
    for a in data["artifacts"]:
        state = a.get("state", "ok")
        mark = "ok" if state == "ok" else f"[red]{state.upper()}[/]"
        arts.add_row(a["path"], a["kind"], a["sha256"][:12], str(a["size"]), mark)
    console.print(arts)
    if data.get("integrity", {}).get("problems"):
        console.print(f"[yellow]warning:[/] {_problems_text(data['integrity'])}", highlight=False)
    for s in data["steps"]:
        for st in s["structures"]:
            console.print(
                f"structure after {s['name']}: {st['formula']}, {st['n_atoms']} atoms, "
                f"{st['n_close_pairs']} close pairs",
                highlight=False,
            )
    if data.get("error"):
        console.print(f"[red]error:[/] {escape(str(data['error']))}", highlight=False)
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.agents.usage.view import usage_lines_from_json

    for line in usage_lines_from_json(data.get("usage") or {"total": {"requests": 0}}):
        console.print(line, markup=False, highlight=False)


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


def _problems_text(data: dict[str, Any]) -> str:
    listed = ", ".join(f"{p['path']} ({p['state']})" for p in data["problems"])
    return (
        f"{len(data['problems'])} of {data['checked']} recorded files are missing or "
        f"changed: {listed}"
    )


def integrity_warning(report: RunIntegrity) -> str:
    """One line naming the missing or changed files of a run ('' when all are intact)."""
    if report.ok:
        return ""
    return f"{_problems_text(integrity_json(report))} (simwright verify {report.run_id})"


def print_integrity(console: Console, report: RunIntegrity) -> None:
    """Human-readable result of ``simwright verify``."""
    for c in report.problems:
        console.print(f"[red]{c.state}[/]  {escape(c.path)}", highlight=False)
    if report.ok:
        console.print(
            f"run [bold]{report.run_id}[/]: all {len(report.checks)} recorded files intact"
        )
    else:
        console.print(
            f"run [bold]{report.run_id}[/]: {len(report.problems)} of {len(report.checks)} "
            "recorded files missing or changed"
        )
