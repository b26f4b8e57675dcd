"""Build one framework with PORMAKE: ``python -m simwright.engines.pormake.worker``.

Run by :func:`simwright.engines.pormake.run.build_framework` as a child process in the
step's folder (PORMAKE writes ``runtime.log`` into the current directory on import).
Reads ``pormake.json``, writes ``framework.json`` (atoms, cell, fit of each node) or
``{"error": ...}`` with exit code 3 when the blocks do not fit the topology.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from simwright.engines.pormake.spec import INPUT_NAME, OUTPUT_NAME


class BuildRefused(Exception):
    """The building blocks cannot be placed on the topology."""


def _check_fit(topology: Any, nodes: list[Any], names: list[str], max_rmsd: float) -> list[float]:
    # lazy: PORMAKE is the optional extra [mofs] and runs only in this child process
    import pormake

    cns = [int(c) for c in topology.unique_cn]
    if len(nodes) != len(cns):
        raise BuildRefused(
            f"topology {topology.name} has {len(cns)} node type(s) with connectivity "
            f"{', '.join(map(str, cns))}; {len(nodes)} node block(s) given ({', '.join(names)})"
        )
    locator = pormake.Locator()
    rmsd = []
    for i, (site, node, name) in enumerate(
        zip(topology.unique_local_structures, nodes, names, strict=True)
    ):
        if node.n_connection_points != cns[i]:
            raise BuildRefused(
                f"node type {i} of {topology.name} is {cns[i]}-connected; {name} has "
                f"{node.n_connection_points} connection points"
            )
        value = float(locator.calculate_rmsd(site, node))
        if value > max_rmsd:
            raise BuildRefused(
                f"{name} fits node type {i} of {topology.name} badly (RMSD {value:.2f} Å "
                f"> {max_rmsd} Å)"
            )
        rmsd.append(value)
    return rmsd


def build(request: dict[str, Any]) -> dict[str, Any]:
    """Build the framework of ``request`` (the spec's JSON) and return the output JSON."""
    # lazy: PORMAKE is the optional extra [mofs] and runs only in this child process
    import pormake

    db = pormake.Database()
    topology = db.get_topology(request["topology"])
    nodes = [db.get_bb(name) for name in request["nodes"]]
    rmsd = _check_fit(topology, nodes, request["nodes"], float(request["max_rmsd"]))
    linker = request.get("linker")
    edges = {
        tuple(int(x) for x in t): (db.get_bb(linker) if linker else None)
        for t in topology.unique_edge_types
    }
    framework = pormake.Builder().build_by_type(topology, dict(enumerate(nodes)), edges)
    atoms = framework.atoms
    return {
        "symbols": atoms.get_chemical_symbols(),
        "positions": atoms.get_positions().tolist(),
        "cell": atoms.cell.array.tolist(),
        "node_rmsd": rmsd,
        "coordination": [int(c) for c in topology.unique_cn],
        "edge_types": len(topology.unique_edge_types),
    }


def main(folder: Path) -> int:
    """Read the input in ``folder``, build, write the output; 0 or 3 (refused)."""
    request = json.loads((folder / INPUT_NAME).read_text(encoding="utf-8"))
    try:
        out = build(request)
        code = 0
    except BuildRefused as exc:
        out, code = {"error": str(exc)}, 3
    (folder / OUTPUT_NAME).write_text(json.dumps(out), encoding="utf-8")
    return code


if __name__ == "__main__":
    sys.exit(main(Path.cwd()))
