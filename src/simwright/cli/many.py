"""``simwright run --many FILE|DIR``: plan a batch of requests, then run them side by side.

Everything is planned before anything runs: a refusal anywhere stops the batch with
exit code 2 (unless ``--skip-refused``) and creates nothing. The accepted requests are
created as queued runs and executed by worker processes (``simwright worker``), at
most ``--jobs`` at a time, with a live table of their statuses; a final table gives
each run's id, request, status and headline result. Ctrl-C (or SIGTERM) stops the
workers, which record their runs as interrupted; runs not yet started stay queued.
Either resumes with ``simwright resume RUN_ID``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich import box
from rich.console import Console
from rich.live import Live
from rich.markup import escape
from rich.table import Table

from simwright.cli.common import emit, err, open_store, out

if TYPE_CHECKING:
    from simwright.api.batch import PlannedEntry
    from simwright.settings import Settings
    from simwright.store import Store

STATUS_COLOR = {"completed": "green", "failed": "red", "running": "cyan", "queued": "dim"}
EXIT_REFUSED, EXIT_INTERRUPTED = 2, 130


def run_many(
    source: Path,
    settings: Settings,
    *,
    jobs: int | None,
    skip_refused: bool,
    json_out: bool,
    home: Path | None,
) -> None:
    """Plan the batch in ``source``, create its runs and execute them (see the module)."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.api.batch import create_runs, default_jobs, plan_batch, read_batch
    from simwright.protocols import load_protocols

    planned = plan_batch(read_batch(source), settings, load_protocols())
    refused = [p for p in planned if p.refusal is not None]
    _report_refusals(refused, len(planned), json_out, skip_refused)
    if refused and not skip_refused:
        raise typer.Exit(EXIT_REFUSED)
    n_jobs = jobs if jobs is not None else default_jobs(settings)
    if n_jobs < 1:
        err.print("[red]error:[/] --jobs must be at least 1", highlight=False)
        raise typer.Exit(EXIT_REFUSED)
    store = open_store(settings)
    run_ids = create_runs(planned, store, settings)
    requests = {rid: p.entry.request for rid, p in zip(run_ids, _accepted(planned), strict=True)}
    interrupted = _execute(store, settings, run_ids, requests, n_jobs, home, json_out)
    rows = [_final_row(store, rid, requests[rid]) for rid in run_ids]
    if json_out:
        emit({"jobs": n_jobs, "runs": rows, "refused": [_refusal(p) for p in refused]})
    else:
        out.print(_final_table(rows))
        if interrupted:
            err.print("interrupted: `simwright resume RUN_ID` continues any run not completed")
    raise typer.Exit(_exit_code(rows, interrupted))


def _accepted(planned: Sequence[PlannedEntry]) -> list[PlannedEntry]:
    return [p for p in planned if p.resolution is not None]


def _refusal(item: PlannedEntry) -> dict[str, str]:
    return {"origin": item.entry.origin, "request": item.entry.request, "error": item.refusal or ""}


def _report_refusals(
    refused: Sequence[PlannedEntry], total: int, json_out: bool, skip: bool
) -> None:
    if not refused:
        return
    if json_out and not skip:
        emit(
            {
                "status": "error",
                "error": f"{len(refused)} of {total} request(s) refused",
                "refused": [_refusal(p) for p in refused],
            }
        )
        return
    if json_out:
        return
    verb = "skipped" if skip else "nothing was run"
    err.print(f"[red]{len(refused)} of {total} request(s) refused[/] ({verb}):", highlight=False)
    for item in refused:
        err.print(f"  [bold]{escape(item.entry.origin)}[/] {escape(item.entry.request)}")
        for line in (item.refusal or "").splitlines():
            err.print(f"    {escape(line)}", highlight=False)


def _execute(
    store: Store,
    settings: Settings,
    run_ids: Sequence[str],
    requests: dict[str, str],
    jobs: int,
    home: Path | None,
    json_out: bool,
) -> bool:
    """Execute the runs in worker processes; True when interrupted."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.api.batch import BatchPool
    from simwright.cli.signals import interrupt_on_signals

    home_dir = home if home is not None else settings.home
    env = {} if settings.threads else {"SIMWRIGHT_THREADS": str(_threads(settings, jobs))}
    pool = BatchPool(
        lambda rid: [sys.executable, "-m", "simwright", "worker", rid, "--home", str(home_dir)],
        jobs,
        env=env,
        log_dir=settings.home / "logs",
    )
    pool.submit(run_ids)
    interrupt_on_signals()
    started = time.monotonic()
    console = err if not json_out else Console(stderr=True, quiet=True)
    with Live(console=console, refresh_per_second=2, transient=True) as live:

        def show() -> None:
            live.update(_live_table(store, run_ids, requests, pool.running, started))

        try:
            pool.wait(on_tick=show)
        except KeyboardInterrupt:
            pool.interrupt()
            return True
    return False


def _threads(settings: Settings, jobs: int) -> int:
    """Threads per worker when none are configured: the cores shared out among the jobs."""
    return max(1, settings.cores() // jobs)


def _status(store: Store, run_id: str) -> str:
    return str(store.get_run(run_id).status)


def _live_table(
    store: Store, run_ids: Sequence[str], requests: dict[str, str], running: Any, t0: float
) -> Table:
    statuses = [_status(store, rid) for rid in run_ids]
    done = sum(s not in ("queued", "running") for s in statuses)
    table = Table(
        box=box.SIMPLE,
        title=f"{done}/{len(run_ids)} done, {len(running)} running, {time.monotonic() - t0:.0f} s",
    )
    table.add_column("run", no_wrap=True)
    table.add_column("request")
    table.add_column("status")
    for rid, status in zip(run_ids, statuses, strict=True):
        color = STATUS_COLOR.get(status, "yellow")
        table.add_row(rid, escape(requests[rid][:60]), f"[{color}]{status}[/]")
    return table


def _final_row(store: Store, run_id: str, request: str) -> dict[str, Any]:
    # lazy: the views import the results module only when a batch ends
    from simwright.api.views import results_json

    row = store.get_run(run_id)
    values = results_json(store, row)["values"]
    return {
        "run_id": run_id,
        "request": request,
        "status": row.status,
        "headline": _headline(values),
        "error": row.error,
    }


def _headline(values: dict[str, Any], shown: int = 2) -> str:
    """The first reported values as ``name = value ± unc unit`` ('' when none)."""
    parts: list[str] = []
    for name, q in values.items():
        value = q.get("value")
        if isinstance(value, int | float) and len(parts) < shown:
            unc = q.get("uncertainty")
            pm = f" ± {unc:.3g}" if isinstance(unc, int | float) else ""
            parts.append(f"{name} = {value:.6g}{pm} {q.get('unit') or ''}".rstrip())
    return "; ".join(parts)


def _final_table(rows: Sequence[dict[str, Any]]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title="batch")
    table.add_column("run", no_wrap=True)
    for column in ("request", "status", "result"):
        table.add_column(column)
    for r in rows:
        color = STATUS_COLOR.get(r["status"], "yellow")
        detail = r["headline"] or (r["error"] or "")[:60]
        table.add_row(
            r["run_id"], escape(r["request"][:60]), f"[{color}]{r['status']}[/]", escape(detail)
        )
    return table


def _exit_code(rows: Sequence[dict[str, Any]], interrupted: bool) -> int:
    """130 interrupted, 0 all completed, 3 some wait for review, else 1."""
    if interrupted:
        return EXIT_INTERRUPTED
    statuses = {r["status"] for r in rows}
    if statuses <= {"completed"}:
        return 0
    return 3 if statuses <= {"completed", "needs_review"} else 1
