"""The knowledge graph's file: N-Triples under ``$SIMWRIGHT_HOME/kg/results.nt``.

Beside the provenance store, never inside it: the graph can be deleted and rebuilt
from the store at any time (``simwright kg ingest``). Writers hold an exclusive lock
(``results.nt.lock``) and replace the file atomically, so readers see one whole graph.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from simwright.errors import StoreError
from simwright.locks import exclusive_lock

if TYPE_CHECKING:
    from rdflib import Graph

KG_FOLDER = "kg"
KG_FILE = "results.nt"


def missing_rdflib() -> str:
    """The message for a knowledge-graph command without rdflib."""
    return "the knowledge graph needs rdflib, which is not installed: pip install 'simwright[kg]'"


@dataclass(frozen=True)
class GraphFile:
    """The graph's file in a home."""

    path: Path

    @classmethod
    def in_home(cls, home: Path) -> GraphFile:
        """``<home>/kg/results.nt``."""
        return cls(home / KG_FOLDER / KG_FILE)

    def load(self) -> Graph:
        """The graph (empty when the file does not exist yet)."""
        # lazy: rdflib is the optional extra [kg] and takes ~0.5 s to import
        from rdflib import Graph

        g = Graph()
        if self.path.is_file():
            g.parse(self.path, format="nt")
        return g

    def save(self, g: Graph) -> None:
        """Write the graph (sorted N-Triples, so equal graphs give equal files)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = g.serialize(format="nt")
        lines = sorted(line for line in text.splitlines() if line.strip())
        tmp = self.path.with_name(f".{self.path.name}.tmp")
        tmp.write_text("\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")
        os.replace(tmp, self.path)

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Hold the writers' lock (another writer: a clear error after a few tries)."""
        lock = self.path.with_name(f"{self.path.name}.lock")
        with exclusive_lock(
            lock,
            lambda: StoreError(f"the knowledge graph {self.path} is being written; retry"),
            tries=100,
            pause_s=0.1,
        ):
            yield
