"""Finite-temperature solid-state protocols against published values and experiment.

Runs, with their default sizes, through the real Runner, Store and LAMMPS (one MPI
rank, one thread: ``--threads`` to change): the melting point of Cu (Mishin EAM,
published 1327 K) and Al (Zhou EAM, no published value recorded, with a stated first
bracket, 525–875 K; ``Al_mm.eam.fs``; Mishin's 1999 Al inside ``AlCu.adp``, 800–1200 K) by
two-phase coexistence, α and C_p of Cu at 300 K
(Mishin EAM) by an NPT scan, the lattice thermal conductivity of Si
(Stillinger–Weber) by Müller-Plathe NEMD at three box lengths, and a deposition of
Cu on Cu(001), and amorphous Si by melt–quench (Stillinger–Weber and Tersoff,
216 atoms, 10¹⁴ K/s). Prints each value with the recorded references, the size, the
simulated time and the wall time.

    python benchmarks/solids_thermal.py [--only melting_cu,alpha_cu] [--markdown]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from simwright.graph import Runner
from simwright.protocols.registry import Protocol
from simwright.protocols.solids import (
    amorphous,
    crystal_thermal_conductivity,
    deposition,
    melting_point,
    thermal_expansion,
)
from simwright.settings import Settings
from simwright.store import Store

CASES: dict[str, tuple[Protocol, dict[str, Any], tuple[str, ...]]] = {
    "melting_cu": (
        melting_point.PROTOCOL,
        {"element": "Cu", "potential": "Mishin EAM"},
        ("melting_point",),
    ),
    "melting_al": (
        melting_point.PROTOCOL,
        # the Zhou Al crystal melts within 5 ps at the experimental 933 K (refused):
        # the first bracket is centred lower, and wider
        {
            "element": "Al",
            "potential": "Zhou EAM",
            "guess_k": 700.0,
            "bracket_fraction": 0.25,
            "max_trials": 6,
        },
        ("melting_point",),
    ),
    "melting_al_mm": (
        melting_point.PROTOCOL,
        {"element": "Al", "potential": "Al_mm.eam.fs"},
        ("melting_point",),
    ),
    "melting_al_mishin": (
        melting_point.PROTOCOL,
        # Mishin et al.'s 1999 Al EAM (the Al part of AlCu.adp): a wide first bracket
        # around 1000 K, since its T_m is not recorded here
        {
            "element": "Al",
            "potential": "AlCu.adp",
            "guess_k": 1000.0,
            "bracket_fraction": 0.2,
            "max_trials": 7,
        },
        ("melting_point",),
    ),
    "alpha_cu": (
        thermal_expansion.PROTOCOL,
        {"element": "Cu", "potential": "Mishin EAM"},
        ("thermal_expansion", "heat_capacity", "lattice_parameter"),
    ),
    "kappa_si": (
        crystal_thermal_conductivity.PROTOCOL,
        {"element": "Si", "potential": "Si.sw"},
        ("thermal_conductivity_longest_box", "thermal_conductivity"),
    ),
    "deposition_cu": (
        deposition.PROTOCOL,
        {"element": "Cu", "potential": "Mishin EAM"},
        ("adsorbed", "reflected", "coverage"),
    ),
    "amorphous_si_sw": (
        amorphous.PROTOCOL,
        {"element": "Si", "potential": "Si.sw"},
        ("density", "first_peak", "coordination", "fourfold_fraction", "excess_energy"),
    ),
    "amorphous_si_tersoff": (
        amorphous.PROTOCOL,
        {"element": "Si", "potential": "Si.tersoff"},
        ("density", "first_peak", "coordination", "fourfold_fraction", "excess_energy"),
    ),
}


def run_case(name: str, home: Path, threads: int) -> dict[str, Any]:
    """Run one case; its values, references, summary and wall time."""
    proto, raw, keys = CASES[name]
    store = Store.at(home / "simwright.db")
    try:
        params = proto.validate(raw)
        start = time.perf_counter()
        out = Runner(store, Settings(home=home, threads=threads)).start(
            proto.graph, proto.first_step(params), protocol=proto.name
        )
        wall = time.perf_counter() - start
    finally:
        store.close()
    if out.status != "completed":
        raise SystemExit(f"{name} failed: {out.error}")
    result = out.result
    estimate = proto.estimate(params, Settings(home=home)) if proto.estimate else None
    return {
        "case": name,
        "summary": result.summary,
        "values": {
            k: (q.value, q.uncertainty, q.unit) for k, q in result.values.items() if k in keys
        },
        "references": [(r.quantity, r.value, r.unit, r.citation) for r in result.references],
        "atoms": estimate.atoms if estimate else None,
        "md_steps": estimate.md_steps if estimate else None,
        "wall_s": round(wall, 1),
    }


def main() -> None:
    """Run the chosen cases and print them (JSON lines, or a markdown table)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", default=",".join(CASES), help="comma-separated cases")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    rows = []
    for name in args.only.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            row = run_case(name.strip(), Path(tmp), args.threads)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.markdown:
        print("| case | result | atoms | MD steps (max) | wall (s) |")
        print("|---|---|---|---|---|")
        for r in rows:
            print(
                f"| {r['case']} | {r['summary']} | {r['atoms']} | {r['md_steps']} | {r['wall_s']} |"
            )


if __name__ == "__main__":
    main()
