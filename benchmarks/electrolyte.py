"""Li⁺ diffusivity in LiPF₆ carbonate electrolytes with ``electrolyte_diffusivity``.

Runs the real protocol (PACKMOL, SevenNet-0 + D3(BJ) through ASE, freud) and prints,
as JSON, D(Li⁺), D(PF₆⁻), the Yeh–Hummer-corrected D(Li⁺), the Nernst–Einstein
conductivity and transference number, the density, R², the run lengths and the wall
time. Compare with PFG-NMR (K. Hayamizu, J. Chem. Eng. Data 57, 2012 (2012)) and with
the SevenNet-0 + D3 simulation this procedure follows; ``docs/benchmarks.md`` keeps
the table.

    python benchmarks/electrolyte.py                       # quick preset, 1 m LiPF6/DMC
    python benchmarks/electrolyte.py --preset paper --device cuda --solvents ec dmc \
        --ratio 1 1 --basis volume --molality 1.1          # the published sizes, a GPU
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from simwright.graph import Runner
from simwright.protocols.electrolytes.diffusivity import PROTOCOL
from simwright.settings import Settings
from simwright.store import Store


def run(raw: dict[str, Any], home: Path) -> dict[str, Any]:
    """Run the protocol once with ``raw`` parameters; the figures and the wall time."""
    params = PROTOCOL.validate(raw)
    store = Store.at(home / "simwright.db")
    start = time.perf_counter()
    out = Runner(store, Settings(home=home)).start(
        PROTOCOL.graph, PROTOCOL.first_step(params), protocol=PROTOCOL.name, params=params
    )
    wall = time.perf_counter() - start
    assert out.status == "completed", out.error
    values = {k: (round(q.value, 4), q.uncertainty, q.unit) for k, q in out.result.values.items()}
    return {
        "parameters": params.model_dump(),
        "wall_s": round(wall, 1),
        "values": values,
        "summary": out.result.summary,
    }


def main() -> None:
    """Parse the options, run, print JSON."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--preset", default="quick", choices=("quick", "paper"))
    ap.add_argument("--solvents", nargs="+", default=["dmc"])
    ap.add_argument("--ratio", nargs="+", type=float)
    ap.add_argument("--basis", default="mass", choices=("mass", "volume", "mole"))
    ap.add_argument("--molality", type=float, default=1.0)
    ap.add_argument("--temperature", type=float, default=298.15)
    ap.add_argument("--device", default="auto")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    raw: dict[str, Any] = {
        "preset": args.preset,
        "solvents": args.solvents,
        "ratio_basis": args.basis,
        "molality_mol_kg": args.molality,
        "temperature_k": args.temperature,
        "device": args.device,
        "seed": args.seed,
    }
    if args.ratio:
        raw["solvent_ratio"] = args.ratio
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(run(raw, Path(tmp)), indent=2, default=str))


if __name__ == "__main__":
    main()
