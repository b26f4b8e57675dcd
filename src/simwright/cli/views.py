"""Rich renderings of runs for the command line (their JSON shapes are :mod:`simwright.api.views`).

Cheap to import: ``runs`` and ``show`` read stored JSON without importing the graph,
the protocols or any engine (stored values are shown in a plain form, see
:func:`plain`). Non-finite numbers are turned into ``null`` by the CLI's ``emit``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from simwright.api.views import (
    decisions_json,
    integrity_json,
    outcome_json,
    params_json,
    run_json,
    show_json,
)
from simwright.graph.lock import live_status
from simwright.graph.plain import TYPE_KEY, plain

if TYPE_CHECKING:
    from simwright.store.integrity import RunIntegrity
    from simwright.store.reading import RunFields

__all__ = [
    "TYPE_KEY",
    "decisions_json",
    "integrity_json",
    "outcome_json",
    "params_json",
    "plain",
    "run_json",
    "show_json",
]


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
    calls = Table("engine", "command", "exit", "wall s", "job", title="engine calls")
    for c in data["engine_calls"]:
        extra = c.get("extra", {})
        job = f"{extra['executor']} {extra['job_id']}" if extra.get("job_id") else ""
        calls.add_row(
            c["engine"], c["command"][:70], str(c["exit_code"]), f"{c['wall_s']:.2f}", job
        )
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
    from simwright.agents.usage.turns import turn_lines
    from simwright.agents.usage.view import usage_lines_from_json

    for line in turn_lines(data.get("turns") or []):
        console.print(line, markup=False, highlight=False)
    for line in usage_lines_from_json(data.get("usage") or {"total": {"requests": 0}}):
        console.print(line, markup=False, highlight=False)


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
