"""Li diffusivity in α-Li3N with a universal MLIP (``solid_electrolyte_diffusivity``).

Runs the protocol through the real Runner and Store and prints D at each temperature,
E_a, the extrapolated D(300 K), the experimental activation energy it is compared
with, and the wall time. Options shorten the run (the default protocol size is 31
atoms, 3 temperatures × 2.4 ps); ``--threads`` limits torch's threads (one is best
on a busy machine).

    python benchmarks/solid_electrolyte.py [--calculator chgnet] [--production-ps 2.0]
        [--equilibration-ps 0.4] [--temperatures 500 650 800] [--threads 1]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from simwright.graph import Runner
from simwright.protocols.solids import solid_electrolyte_diffusivity as sed
from simwright.settings import Settings
from simwright.store import Store


def main() -> None:
    """Run once and print the values as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calculator", choices=("chgnet", "sevennet"), default="chgnet")
    parser.add_argument("--production-ps", type=float, default=2.0)
    parser.add_argument("--equilibration-ps", type=float, default=0.4)
    parser.add_argument("--temperatures", type=float, nargs="+", default=[500.0, 650.0, 800.0])
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    raw = {
        "calculator": args.calculator,
        "production_ps": args.production_ps,
        "equilibration_ps": args.equilibration_ps,
        "temperatures_k": tuple(args.temperatures),
    }
    params = sed.PROTOCOL.validate(raw)
    with tempfile.TemporaryDirectory(prefix="simwright-sed-") as tmp:
        home = Path(tmp)
        store = Store.at(home / "simwright.db")
        try:
            start = time.perf_counter()
            out = Runner(store, Settings(home=home, threads=args.threads)).start(
                sed.GRAPH, sed.PROTOCOL.first_step(params), protocol=sed.PROTOCOL.name
            )
            wall = time.perf_counter() - start
        finally:
            store.close()
    if out.status != "completed":
        raise SystemExit(f"failed: {out.error}")
    values = {k: [q.value, q.uncertainty, q.unit] for k, q in out.result.values.items()}
    refs = [[r.quantity, r.value, r.unit, r.citation] for r in out.result.references]
    print(
        json.dumps(
            {
                "params": raw,
                "values": values,
                "references": refs,
                "summary": out.result.summary,
                "wall_s": round(wall, 1),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
