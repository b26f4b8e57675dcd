"""The ``simwright docs`` commands: install and search the documentation of engines.

``docs_app`` is mounted as ``simwright docs``. Like the rest of the command line it is
thin and cheap to import: the library, the index and the embedder load only when a
command runs; simwright's errors become a message (or ``{"status": "error", ...}``
with ``--json``) and exit code 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from simwright.cli.common import HomeOpt, JsonOpt, emit, err, handled, out, settings_for
from simwright.errors import SimwrightError

if TYPE_CHECKING:
    from simwright.knowledge.docs.library import DocLibrary, InstallReport
    from simwright.knowledge.docs.retrieval import Hit, Mode

PASSAGE_CHARS = 180

docs_app = typer.Typer(
    help="Search engine documentation (LAMMPS manual, ASE, freud, MDAnalysis, pw.x).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def hits_table(hits: list[Hit], title: str) -> Any:
    """A Rich table of search hits."""
    table = Table(title=title, title_justify="left")
    for col in ("#", "page", "title", "score", "passage"):
        table.add_column(col, overflow="fold")
    for n, h in enumerate(hits, start=1):
        passage = h.passage if len(h.passage) <= PASSAGE_CHARS else h.passage[:PASSAGE_CHARS] + "…"
        table.add_row(str(n), h.page, h.title, f"{h.score:.4f}", passage)
    return table


@docs_app.command("install")
@handled
def install(
    engine: Annotated[
        str, typer.Argument(help="lammps, ase, freud, mdanalysis, pwx, or all of them: all.")
    ],
    from_path: Annotated[
        Path | None,
        typer.Option(
            "--from",
            help="LAMMPS only: a local HTML manual, a LAMMPS source tree or a lammps-doc .deb.",
        ),
    ] = None,
    words_only: Annotated[
        bool,
        typer.Option(
            "--words-only",
            help="Build word (BM25) indexes only: no embedding model, much faster; "
            "hybrid search then ranks by words and links.",
        ),
    ] = False,
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """Install an engine's documentation on this machine and index it (``all``: every
    engine, with a progress bar; exits 1 if one of them failed)."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.knowledge.docs.library import DocLibrary

    docs_dir = settings_for(home).home / "docs"
    library = DocLibrary(docs_dir, lambda: None) if words_only else DocLibrary(docs_dir)
    if engine.lower() == "all":
        _install_all(library, from_path, json_out)
        return
    notify = (lambda _msg: None) if json_out else (lambda msg: err.print(msg))
    report = library.install(engine, from_path.expanduser() if from_path else None, notify)
    data = _report_json(report)
    if json_out:
        emit(data)
    else:
        out.print(
            f"{report.engine}: {report.pages} pages indexed in {report.build_s:.1f} s "
            f"({report.origin})",
            highlight=False,
        )


def _report_json(report: InstallReport) -> dict[str, Any]:
    return {
        "status": "installed",
        "engine": report.engine,
        "origin": report.origin,
        "pages": report.pages,
        "build_s": report.build_s,
        "index": str(report.index_dir),
    }


def _install_all(library: DocLibrary, from_path: Path | None, json_out: bool) -> None:
    """Install every engine's documentation in turn, with a bar on stderr."""
    engines = library.engines()
    results: list[dict[str, Any]] = []
    with Progress(
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        disable=json_out,
    ) as bar:
        task = bar.add_task("documentation", total=len(engines))
        for name in engines:
            bar.update(task, description=f"{name}: starting")

            def notify(msg: str, name: str = name) -> None:
                bar.update(task, description=f"{name}: {msg}")
                if not err.is_terminal and not json_out:
                    err.print(f"{name}: {msg}", highlight=False, markup=False)

            try:
                source = from_path.expanduser() if from_path and name == "lammps" else None
                results.append(_report_json(library.install(name, source, notify)))
            except SimwrightError as exc:
                results.append({"status": "failed", "engine": name, "error": str(exc)})
            bar.advance(task)
    failed = [r for r in results if r["status"] == "failed"]
    if json_out:
        emit({"status": "failed" if failed else "installed", "engines": results})
    else:
        for r in results:
            if r["status"] == "failed":
                out.print(f"[red]{r['engine']}: failed[/] {escape(r['error'])}", highlight=False)
            else:
                out.print(
                    f"{r['engine']}: {r['pages']} pages indexed in {r['build_s']:.1f} s",
                    highlight=False,
                )
    if failed:
        raise typer.Exit(1)


@docs_app.command("search")
@handled
def search(
    query: Annotated[str, typer.Argument(help="What you want to do, in words.")],
    engine: Annotated[str, typer.Option("--engine", "-e", help="Whose docs.")] = "lammps",
    k: Annotated[int, typer.Option("-k", "--top", min=1, max=50, help="How many hits.")] = 5,
    mode: Annotated[str, typer.Option(help="hybrid, bm25 or dense.")] = "hybrid",
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """Find the documentation pages that answer a question."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.knowledge.docs.library import DocLibrary, DocsNotInstalled
    from simwright.knowledge.docs.retrieval import MODES, RetrievalError

    if mode not in MODES:
        raise RetrievalError(f"unknown search mode {mode!r}; use one of {', '.join(MODES)}")
    library = DocLibrary(settings_for(home).home / "docs")
    if library.manifest(engine) is None:
        raise DocsNotInstalled(
            f"the {engine} documentation is not indexed on this machine: run "
            f"`simwright docs install {engine}` (or `simwright docs install all`; "
            "add --words-only to skip the embedding model)"
        )
    hits = library.search(engine, query, k, cast("Mode", mode))
    if json_out:
        emit(
            {
                "engine": engine,
                "query": query,
                "mode": mode,
                "hits": [h.as_dict() for h in hits],
            }
        )
    else:
        out.print(hits_table(hits, f"{engine}: {query}"))
