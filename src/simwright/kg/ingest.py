"""Ingest completed runs into the knowledge graph: every run's protocol, parameters,
values with units and files (generic), plus what its descriptors say it is about."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from simwright.kg.descriptors import Descriptor, describe
from simwright.kg.graphfile import GraphFile
from simwright.kg.runs import RunFacts, read_facts
from simwright.kg.triples import add_run
from simwright.store.reading import RunFields, RunReader

ALL_RUNS = 1_000_000
"""How many runs the store is asked for when no run is named."""


@dataclass(frozen=True)
class Ingested:
    """What an ingestion did: the runs added (with their entity count), those skipped
    with the reason, and the graph's size after it."""

    added: tuple[tuple[str, int], ...]
    skipped: tuple[tuple[str, str], ...]
    triples: int


def _chosen(reader: RunReader, run_ids: Sequence[str]) -> list[RunFields]:
    if run_ids:
        return [reader.get_run(r) for r in run_ids]  # an unknown id raises StoreError
    return list(reader.list_runs(ALL_RUNS))


def ingest(
    reader: RunReader,
    graph_file: GraphFile,
    run_ids: Sequence[str],
    descriptors: Mapping[str, Descriptor],
) -> Ingested:
    """Add the completed runs among ``run_ids`` (all of the store's when empty).

    A run that is not completed is skipped with its status; ingesting a run twice adds
    nothing (identifiers are stable, the graph is a set of triples).
    """
    runs = _chosen(reader, run_ids)
    added, skipped = [], []
    with graph_file.writing():
        g = graph_file.load()
        for run in runs:
            if run.status != "completed":
                skipped.append((run.id, f"status {run.status}"))
                continue
            facts: RunFacts = read_facts(reader, run)
            entities = describe(facts, descriptors)
            add_run(g, facts, entities)
            added.append((run.id, len(entities)))
        graph_file.save(g)
    return Ingested(tuple(added), tuple(skipped), len(g))
