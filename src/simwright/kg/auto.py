"""Automatic ingestion: each run that completes enters the knowledge graph at once.

:func:`completion_hooks` gives the runner's completion hook
(:mod:`simwright.graph.hooks`) that adds the run to ``$SIMWRIGHT_HOME/kg/results.nt``
(setting ``kg_auto_ingest``: ``[kg] auto_ingest`` of config.toml, ``SIMWRIGHT_KG_AUTO``;
on by default). The layers that build runners (command line, API and service workers,
agents) pass it; no protocol calls the graph itself. Without rdflib (extra ``[kg]``)
the hook does nothing; a failure to ingest is the runner's logged warning and never
changes the run; ingesting a run again adds no triple (stable identifiers), so
``simwright kg ingest`` can still rebuild or complete the graph at any time.
"""

from __future__ import annotations

import importlib.util
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from simwright.kg.graphfile import GraphFile
from simwright.settings import Settings

if TYPE_CHECKING:
    from simwright.graph.hooks import CompletionHook
    from simwright.store.store import Store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AutoIngest:
    """The completion hook that ingests a completed run into ``graph_file``."""

    graph_file: GraphFile
    name: str = "knowledge-graph ingestion"

    def run_completed(self, store: Store, run_id: str) -> None:
        """Add ``run_id`` (and what its descriptors say it is about) to the graph."""
        if importlib.util.find_spec("rdflib") is None:
            log.info("run %s not added to the knowledge graph: rdflib is not installed", run_id)
            return
        # lazy: rdflib (extra [kg]) loads with the triples, only once a run has completed
        from simwright.kg.descriptors import load_descriptors
        from simwright.kg.ingest import ingest

        ingest(store, self.graph_file, [run_id], load_descriptors())


def completion_hooks(settings: Settings) -> tuple[CompletionHook, ...]:
    """The hooks a runner of ``settings`` calls: automatic ingestion unless switched off."""
    if not settings.kg_auto_ingest:
        return ()
    return (AutoIngest(GraphFile.in_home(settings.home)),)
