"""``simwright export RUN --format prov-json|ro-crate``: a run's provenance in standard formats."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from simwright.cli.common import (
    HomeOpt,
    JsonOpt,
    emit,
    err,
    handled,
    open_reader,
    out,
    settings_for,
)
from simwright.provenance.formats import ExportFormat


@handled
def export(
    run_id: Annotated[str, typer.Argument(help="Run id (or a unique prefix).")],
    fmt: Annotated[
        ExportFormat,
        typer.Option("--format", "-f", help="prov-json (W3C PROV) or ro-crate (RO-Crate)."),
    ],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            help="File (prov-json) or folder (ro-crate; a .zip name writes a zip); must not "
            "exist. Default: RUN.prov.json or RUN-ro-crate in the current folder.",
        ),
    ] = None,
    copy: Annotated[
        bool,
        typer.Option(
            "--copy/--no-copy",
            help="ro-crate: copy the run's files into the crate, or reference them by "
            "their file:// address with their sha256.",
        ),
    ] = True,
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """Export a run's provenance: steps, engine calls, files with sha256, decisions, agents.

    Missing or changed files are marked in the export and listed here (exit 1);
    an unknown run, an existing output or one inside the run's folder is refused (exit 2).
    """
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.provenance.export import export_run

    with contextlib.closing(open_reader(settings_for(home))) as reader:
        summary = export_run(reader, run_id, fmt, output, copy_files=copy)
    if json_out:
        emit(
            {
                "run_id": summary.run_id,
                "format": str(summary.format),
                "output": str(summary.output),
                "activities": summary.activities,
                "files": summary.files,
                "ok": summary.ok,
                "problems": [{"path": p, "state": s} for p, s in summary.problems],
            }
        )
    else:
        out.print(
            f"exported run {summary.run_id} as {summary.format} to {escape(str(summary.output))} "
            f"({summary.activities} activities, {summary.files} files)",
            highlight=False,
        )
        for path, state in summary.problems:
            err.print(f"[yellow]warning:[/] {escape(path)} is {state}: marked as such, not valid")
    raise typer.Exit(0 if summary.ok else 1)
