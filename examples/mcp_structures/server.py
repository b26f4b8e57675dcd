"""A small structure-retrieval MCP server over a local folder of CIF files.

An example of an external executor for simwright's agents (docs/agents.md, "External
executors over MCP"): the orchestrator plans a subtask for this server, the executor
model calls its tools through simwright's checked ``write_script`` / ``run`` tools, and
what comes back (a CIF, typed values) is turned into contract files that pass the same
checks as any engine's output.

Tools:

- ``list_structures()``: the id, formula and atom count of every CIF of the folder;
- ``fetch_structure(id)``: one crystal: its CIF text, formula, atom count, cell lengths.

Run over stdio (the default) or streamable HTTP::

    python examples/mcp_structures/server.py [--root DIR]
    python examples/mcp_structures/server.py --http 8765 [--root DIR]

Needs the official ``mcp`` SDK (``pip install 'simwright[mcp]'``) and ASE.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from ase.io import read
from mcp.server.mcpserver import MCPServer

HERE = Path(__file__).resolve().parent
ID = re.compile(r"^[A-Za-z0-9_\-]{1,40}$")


def entries(root: Path) -> dict[str, Path]:
    """The CIF files of ``root`` by id (the file name without ``.cif``)."""
    return {p.stem: p for p in sorted(root.glob("*.cif")) if ID.match(p.stem)}


def summary(path: Path) -> dict[str, Any]:
    """Formula, atom count and cell lengths of a CIF file."""
    atoms = read(str(path), format="cif")
    a, b, c = (float(x) for x in atoms.cell.lengths())
    return {
        "formula": atoms.get_chemical_formula(),
        "n_atoms": len(atoms),
        "a_A": round(a, 6),
        "b_A": round(b, 6),
        "c_A": round(c, 6),
    }


def build(root: Path) -> MCPServer:
    """The server of the CIF folder ``root``."""
    server = MCPServer("structures", instructions="Crystal structures from a local CIF folder.")

    @server.tool()
    def list_structures() -> dict[str, Any]:
        """List the crystals of the collection: id, formula and number of atoms."""
        return {"structures": [{"id": key, **summary(path)} for key, path in entries(root).items()]}

    @server.tool()
    def fetch_structure(id: str) -> dict[str, Any]:
        """Fetch one crystal by id: its CIF text, formula, atom count and cell lengths (Å)."""
        found = entries(root)
        if id not in found:
            raise ValueError(f"no structure {id!r}; known: {', '.join(found)}")
        path = found[id]
        return {"id": id, **summary(path), "cif": path.read_text(encoding="utf-8")}

    return server


def main() -> None:
    """Serve the collection over stdio or streamable HTTP."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=HERE / "cifs", help="folder of CIF files")
    parser.add_argument("--http", type=int, default=None, help="serve streamable HTTP on PORT")
    args = parser.parse_args()
    server = build(args.root)
    if args.http is None:
        server.run()
    else:
        server.run("streamable-http", host="127.0.0.1", port=args.http)


if __name__ == "__main__":
    main()
