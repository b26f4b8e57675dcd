"""Earlier measurements of the same MOF, read from the knowledge graph of results.

A ``mof_pores`` run asks the graph of its home (``$SIMWRIGHT_HOME/kg/results.nt``,
filled by ``simwright kg ingest``) which runs measured the same framework before — the
same recipe, or the same CIF file by sha256 — and lists their largest cavities in the
report's notes. Without rdflib or a graph there is nothing to list; the run's own
values never depend on it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from simwright.kg.graphfile import GraphFile
from simwright.kg.query import run_query
from simwright.kg.templates import measurements_query
from simwright.protocols.mofs.descriptor import recipe_key
from simwright.protocols.mofs.framework import FrameworkInfo
from simwright.results import ArtifactRef

MAX_LISTED = 5


def mof_key(info: FrameworkInfo, inputs: tuple[ArtifactRef, ...]) -> str | None:
    """The framework's key in the knowledge graph (None for a CIF not recorded)."""
    if info.topology:
        return recipe_key(info.topology, info.nodes, info.linker or None)
    cif = next((ref for ref in inputs if ref.kind == "cif"), None)
    return cif.sha256 if cif is not None else None


def earlier_notes(home: Path, key: str | None) -> list[str]:
    """One note naming earlier runs' largest included spheres of this MOF, or none."""
    graph_file = GraphFile.in_home(home)
    if key is None or not graph_file.path.is_file() or importlib.util.find_spec("rdflib") is None:
        return []
    rows = run_query(
        graph_file.load(), measurements_query("MOF", key, "largest_included_sphere")
    ).as_dicts()
    if not rows:
        return []
    shown = "; ".join(f"run {r['run']}: {r['value']:.2f} {r['unit']}" for r in rows[-MAX_LISTED:])
    return [
        f"Measured before (knowledge graph {graph_file.path}, {len(rows)} run(s)): "
        f"largest included sphere {shown}."
    ]
