"""The ``simwright kg`` commands: the knowledge graph of results.

``kg ingest [RUN...]`` adds completed runs (all of the store's by default) to
``$SIMWRIGHT_HOME/kg/results.nt`` (runs also enter it as they complete:
:mod:`simwright.kg.auto`); ``kg query "SPARQL"`` answers a SELECT or ASK query
(prefixes ``sw:``, ``prov:``, ``rdfs:``, ``xsd:`` predeclared) as a table or JSON;
``kg mofs`` runs the named query for MOFs by topology and largest cavity.
"""

from __future__ import annotations

import contextlib
import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.table import Table

from simwright.cli.common import HomeOpt, JsonOpt, emit, handled, open_reader, out, settings_for
from simwright.errors import ValidationError

if TYPE_CHECKING:
    from simwright.kg.graphfile import GraphFile
    from simwright.kg.query import QueryTable

kg_app = typer.Typer(
    help="Knowledge graph of results: ingest runs, query with SPARQL.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _graph_file(home: Path | None) -> GraphFile:
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.kg.graphfile import GraphFile, missing_rdflib

    if importlib.util.find_spec("rdflib") is None:
        raise ValidationError(missing_rdflib())
    return GraphFile.in_home(settings_for(home).home)


def _print_table(table: QueryTable, title: str) -> None:
    view = Table(*table.columns, title=title, box=box.SIMPLE_HEAD)
    for row in table.rows:
        view.add_row(*(_cell(v) for v in row))
    out.print(view)
    out.print(f"{len(table.rows)} row(s)", highlight=False)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return "" if value is None else str(value)


@kg_app.command("ingest")
@handled
def ingest(
    runs: Annotated[
        list[str] | None, typer.Argument(help="Run ids (default: every completed run).")
    ] = None,
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """Add completed runs to the knowledge graph (again is harmless: ids are stable)."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.kg.descriptors import load_descriptors
    from simwright.kg.ingest import ingest as ingest_runs

    graph_file = _graph_file(home)
    with contextlib.closing(open_reader(settings_for(home))) as reader:
        done = ingest_runs(reader, graph_file, runs or [], load_descriptors())
    if json_out:
        emit(
            {
                "graph": str(graph_file.path),
                "added": [{"run_id": r, "entities": n} for r, n in done.added],
                "skipped": [{"run_id": r, "reason": why} for r, why in done.skipped],
                "triples": done.triples,
            }
        )
        return
    for run_id, n in done.added:
        out.print(f"ingested {run_id} ({n} entities)", highlight=False)
    for run_id, why in done.skipped:
        out.print(f"skipped {run_id}: {why}", highlight=False)
    out.print(f"{graph_file.path}: {done.triples} triples", highlight=False)


def _answer(home: Path | None, sparql: str) -> QueryTable:
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.kg.query import run_query

    graph_file = _graph_file(home)
    if not graph_file.path.is_file():
        raise ValidationError(
            f"no knowledge graph at {graph_file.path} yet: runs enter it as they complete "
            "(setting kg.auto_ingest); `simwright kg ingest` adds the completed runs of the store"
        )
    return run_query(graph_file.load(), sparql)


@kg_app.command("query")
@handled
def query(
    sparql: Annotated[str, typer.Argument(help="A SELECT or ASK query (sw: prov: rdfs: xsd:).")],
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """Answer a SPARQL query over the knowledge graph (a table, or JSON rows)."""
    table = _answer(home, sparql)
    if json_out:
        emit({"columns": list(table.columns), "rows": table.as_dicts()})
    else:
        _print_table(table, "knowledge graph")


@kg_app.command("mofs")
@handled
def mofs(
    question: Annotated[
        str | None,
        typer.Argument(help="In words: 'MOFs of topology pcu with a largest cavity above 10 Å'."),
    ] = None,
    topology: Annotated[str | None, typer.Option(help="Only this topology (pcu...).")] = None,
    min_cavity: Annotated[
        float | None, typer.Option(help="Largest included sphere above this (Å).")
    ] = None,
    json_out: JsonOpt = False,
    home: HomeOpt = None,
) -> None:
    """MOFs measured so far, by topology and largest cavity (the `mofs` query template)."""
    # lazy: CLI start-up: `simwright --help` loads only cli/
    from simwright.kg.templates import mofs_query, mofs_question

    if question is not None:
        if topology is not None or min_cavity is not None:
            raise ValidationError("give the question in words or the options, not both")
        topology, min_cavity = mofs_question(question)
    table = _answer(home, mofs_query(topology, min_cavity))
    if json_out:
        emit({"columns": list(table.columns), "rows": table.as_dicts()})
    else:
        _print_table(table, "MOFs")
