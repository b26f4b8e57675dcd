"""The ``simwright memory`` commands: list, show, search and remember completed runs.

``memory_app`` is mounted as ``simwright memory``. Listing, showing, adding and the
default search (``--mode bm25``: by words, about a second) never load the embedding
model; ``--mode hybrid`` or ``dense`` load it when torch is installed (several seconds;
records added without it are embedded then and their vectors kept). Completed runs
are remembered automatically by ``simwright run`` and ``resume`` (see
:func:`remember_run`; setting ``remember_runs``).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer
from rich import box
from rich.table import Table

from simwright.cli.common import (
    HomeOpt,
    JsonOpt,
    emit,
    handled,
    open_existing_store,
    out,
    settings_for,
)

if TYPE_CHECKING:
    from simwright.knowledge.docs.retrieval import Mode
    from simwright.knowledge.memory.episodic import MemoryRecord, MemoryStore
    from simwright.settings import Settings
    from simwright.store import Store


memory_app = typer.Typer(
    help="Episodic memory of successful runs: list, show, search, add-run.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _memory(home: Path | None, *, embed: bool = False, create: bool = True) -> MemoryStore | None:
    """The memory of the home; None when ``create`` is False and there is no memory yet
    (read-only commands create no home, folder or database)."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.knowledge.memory.episodic import MEMORY_FILE, MemoryStore

    root = settings_for(home).home
    if not create and not (root / "memory" / MEMORY_FILE).is_file():
        return None
    embedder = None
    if embed:
        # lazy: CLI start-up: `simwright --help` loads only cli/
        from simwright.knowledge.docs.embedder import default_embedder

        embedder = default_embedder()
    return MemoryStore.at_home(root, embedder)


def remember_run(settings: Settings, store: Store, run_id: str) -> MemoryRecord:
    """Add the completed run ``run_id`` to the memory of ``settings.home`` (or update its
    record when it is there already). The embedding is left for the first semantic search."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.knowledge.memory.episodic import MemoryStore
    from simwright.knowledge.memory.from_runs import record_from_run

    record = record_from_run(store, run_id)
    memory = MemoryStore.at_home(settings.home)
    if earlier := memory.for_run(record.source_run or ""):
        record = replace(record, id=earlier[0].id, created=earlier[0].created)
    return memory.add(record)


def _brief(r: MemoryRecord) -> dict[str, Any]:
    return {
        "id": r.id,
        "created": r.created.isoformat(timespec="seconds"),
        "kind": r.kind,
        "summary": r.summary,
        "source_run": r.source_run,
    }


def _table(rows: list[dict[str, Any]], title: str) -> Any:
    """Records as a table; ids, dates and scores are never cut (the summary folds)."""

    def cell(v: Any) -> str:
        return f"{v:.4f}" if isinstance(v, float) else str(v or "")

    cells = [
        {k: (cell(v)[:16].replace("T", " ") if k == "created" else cell(v)) for k, v in row.items()}
        for row in rows
    ]
    table = Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    columns = list(rows[0]) if rows else ["id", "summary"]
    for col in columns:
        if col == "summary":
            table.add_column(col, overflow="fold", min_width=12)
        else:
            width = max([len(col), *(len(c[col]) for c in cells)])
            table.add_column(col, no_wrap=True, min_width=width, overflow="ignore")
    for c in cells:
        table.add_row(*c.values())
    return table


def show_text(r: MemoryRecord) -> str:
    """A record as a few readable lines (scripts by name and size)."""
    lines = [f"{r.id}  [{r.kind}, {r.outcome}]  {r.created:%Y-%m-%d %H:%M}", r.summary]
    lines.append(f"task: {r.task}")
    if r.source_run:
        lines.append(f"run: {r.source_run}")
    for name, q in r.results.items():
        lines.append(f"  {name} = {q.get('value')} {q.get('unit', '')}".rstrip())
    lines.append("inputs: " + json.dumps(dict(r.inputs), default=str))
    lines += [f"script {name} ({len(text)} characters)" for name, text in r.scripts.items()]
    return "\n".join(lines)


@memory_app.command("list")
@handled
def list_(
    limit: Annotated[int, typer.Option(help="How many records.")] = 50,
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """List remembered runs and subtasks, newest first."""
    memory = _memory(home, create=False)
    rows = [_brief(r) for r in memory.list(limit)] if memory else []
    if json_out:
        emit({"records": rows})
    else:
        out.print(_table(rows, "memory"))


@memory_app.command("show")
@handled
def show(
    record_id: Annotated[str, typer.Argument(help="Record id (or a unique prefix).")],
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """Show one record with its inputs, scripts and results."""
    memory = _memory(home, create=False)
    if memory is None:
        # lazy: CLI start-up: `simwright --help` loads only cli/
        from simwright.knowledge.memory.episodic import MemoryStoreError

        raise MemoryStoreError(f"no record {record_id!r}: nothing is remembered yet")
    record = memory.get(record_id)
    if json_out:
        emit(record.as_dict())
    else:
        out.print(show_text(record), markup=False, highlight=False)


@memory_app.command("search")
@handled
def search(
    query: Annotated[str, typer.Argument(help="The new task, in words.")],
    k: Annotated[int, typer.Option("-k", "--top", min=1, max=50, help="How many.")] = 5,
    mode: Annotated[
        str,
        typer.Option(
            help="bm25 (by words, fast), hybrid or dense (add the MiniLM embedder: slower)."
        ),
    ] = "bm25",
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """Find the remembered runs most similar to a task."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.knowledge.docs.retrieval import MODES, RetrievalError
    from simwright.textio import require_utf8

    require_utf8(query, "the query")
    if mode not in MODES:
        raise RetrievalError(f"unknown search mode {mode!r}; use one of {', '.join(MODES)}")
    memory = _memory(home, embed=mode != "bm25", create=False)
    found = memory.search(query, k, cast("Mode", mode)) if memory else []
    rows = [{**_brief(r), "score": score} for r, score in found]
    if json_out:
        emit({"query": query, "mode": mode, "records": rows})
    else:
        out.print(_table(rows, f"memory: {query}"))


@memory_app.command("add-run")
@handled
def add_run(
    run_id: Annotated[str, typer.Argument(help="A completed run (id or unique prefix).")],
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """Remember a completed run (again: its record is updated, not duplicated)."""
    settings = settings_for(home)
    record = remember_run(settings, open_existing_store(settings), run_id)
    if json_out:
        emit({"status": "remembered", **_brief(record)})
    else:
        out.print(f"remembered {record.id}: {record.summary}", highlight=False)
