"""Physical accuracy of the ``diffusivity`` protocol against published values.

1. Lennard-Jones argon at Rahman's state point (94.4 K, 1.374 g/cm³; reduced
   T* = 0.788, ρ* = 0.834) against D = 2.43 × 10⁻⁵ cm²/s (A. Rahman, Phys. Rev.
   136, A405 (1964)).
2. SPC/E water at 298 K and 1 atm against D = 2.49 × 10⁻⁵ cm²/s (P. Mark and
   L. Nilsson, J. Phys. Chem. A 105, 9954 (2001)); experiment 2.30 (R. Mills,
   J. Phys. Chem. 77, 685 (1973)).

Each system is run ``--seeds`` times through the real protocol (PACKMOL, LAMMPS,
freud); the mean D, the standard deviation over seeds and the deviation from the
reference are printed as JSON.

    python benchmarks/science.py [--seeds 2] [--water-ps 100] [--argon-ps 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from simwright.graph import Runner
from simwright.protocols.liquids.diffusivity import PROTOCOL
from simwright.settings import Settings
from simwright.store import Store

REFERENCES = {"lj_argon": 2.43, "spce_water": 2.49}


def run(system: str, seed: int, production_ps: float, home: Path, n: int) -> dict:
    params = PROTOCOL.validate(
        {"system": system, "seed": seed, "production_ps": production_ps, "n_molecules": n}
    )
    store = Store.at(home / "simwright.db")
    runner = Runner(store, Settings(home=home))
    start = time.perf_counter()
    out = runner.start(
        PROTOCOL.graph, PROTOCOL.first_step(params), protocol=PROTOCOL.name, params=params
    )
    wall = time.perf_counter() - start
    assert out.status == "completed", out.error
    v = out.result.values
    row = {
        "system": system,
        "seed": seed,
        "wall_s": round(wall, 1),
        "D": round(v["diffusion_coefficient"].value, 4),
        "D_err": round(v["diffusion_coefficient"].uncertainty, 4),
        "r2": round(v["r2"].value, 5),
        "T_mean": round(v["temperature_mean"].value, 2),
    }
    if "diffusion_coefficient_yeh_hummer" in v:
        row["D_yeh_hummer"] = round(v["diffusion_coefficient_yeh_hummer"].value, 4)
    store.close()
    return row


def summarize(rows: list[dict], system: str) -> dict:
    ds = [r["D"] for r in rows if r["system"] == system]
    mean = statistics.fmean(ds)
    sd = statistics.stdev(ds) if len(ds) > 1 else float("nan")
    ref = REFERENCES[system]
    return {
        "system": system,
        "D_mean": round(mean, 4),
        "D_sd_over_seeds": round(sd, 4),
        "reference": ref,
        "deviation_percent": round(100 * (mean - ref) / ref, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--water-ps", type=float, default=100.0)
    parser.add_argument("--argon-ps", type=float, default=200.0)
    parser.add_argument("--argon-atoms", type=int, default=864)
    parser.add_argument("--water-molecules", type=int, default=216)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, args.seeds + 1):
            rows.append(
                run("lj_argon", seed, args.argon_ps, Path(tmp) / f"ar{seed}", args.argon_atoms)
            )
            rows.append(
                run("spce_water", seed, args.water_ps, Path(tmp) / f"w{seed}", args.water_molecules)
            )
            print(json.dumps(rows[-2:]), flush=True)
    print(
        json.dumps(
            {"runs": rows, "summary": [summarize(rows, "lj_argon"), summarize(rows, "spce_water")]},
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
