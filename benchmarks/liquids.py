"""Liquid properties of the liquid protocols against published model values and experiment.

Cases (each through the real protocol: PACKMOL, LAMMPS, freud), with the targets of
issue 14:

- ``density_spce``, ``density_tip4p2005``: density at 298.15 K, 1 atm against 0.994 and
  0.993 g/cm³ (C. Vega, J. L. F. Abascal, PCCP 13, 19663 (2011)); target within 1 %.
- ``diffusion_spce``, ``diffusion_tip4p2005``: D (uncorrected and Yeh–Hummer) against
  2.49 (Mark & Nilsson 2001) and 2.08 × 10⁻⁵ cm²/s (Abascal & Vega 2005); target 10 %.
- ``viscosity_spce``, ``viscosity_tip4p2005``: Green–Kubo (and Helfand) against 0.729
  and 0.855 mPa·s (M. A. González, J. L. F. Abascal, JCP 132, 096101 (2010)); target 20 %.
- ``rdf_argon``: g(r) first peak of LJ argon at ρσ³ = 0.8442, k_BT/ε = 0.722 against
  ≈ 1.09 σ = 3.71 Å and height ≈ 3.0 (L. Verlet, Phys. Rev. 165, 201 (1968)).
- ``conductivity_nacl``: molten NaCl (Tosi–Fumi) at 1200 K against ≈ 3.95 S/cm
  (Janz et al., J. Phys. Chem. Ref. Data 8, 791 (1979)); no target (the rigid-ion model
  is known to deviate).

The defaults are the protocols' own quick sizes (216 waters, 500 argon atoms, 108 NaCl
pairs); ``--scale`` multiplies every run length. One JSON row per case is printed with
the size, the simulated lengths and the wall time.

    python benchmarks/liquids.py density_tip4p2005 rdf_argon [--scale 1.0] [--seed 2026]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simwright.graph import Runner
from simwright.protocols.liquids import density, diffusivity, ionic_conductivity
from simwright.protocols.liquids import structure as liquid_structure
from simwright.protocols.liquids import viscosity as viscosity_protocol
from simwright.protocols.registry import Protocol
from simwright.settings import Settings
from simwright.store import Store

Case = tuple[Protocol, dict[str, Any], str, float | None, float | None]
"""(protocol, parameters, value to compare, reference, relative target)."""

CASES: dict[str, Case] = {
    "density_spce": (density.PROTOCOL, {"system": "spce_water"}, "density", 0.994, 0.01),
    "density_tip4p2005": (
        density.PROTOCOL,
        {"system": "tip4p2005_water"},
        "density",
        0.993,
        0.01,
    ),
    "diffusion_spce": (
        diffusivity.PROTOCOL,
        {"system": "spce_water", "max_extensions": 0},
        "diffusion_coefficient",
        2.49,
        0.10,
    ),
    "diffusion_tip4p2005": (
        diffusivity.PROTOCOL,
        {"system": "tip4p2005_water", "max_extensions": 0},
        "diffusion_coefficient",
        2.08,
        0.10,
    ),
    "viscosity_spce": (
        viscosity_protocol.PROTOCOL,
        {"system": "spce_water"},
        "viscosity",
        0.729,
        0.20,
    ),
    "viscosity_tip4p2005": (
        viscosity_protocol.PROTOCOL,
        {"system": "tip4p2005_water"},
        "viscosity",
        0.855,
        0.20,
    ),
    "rdf_argon": (
        liquid_structure.PROTOCOL,
        {"system": "lj_argon"},
        "first_peak_height",
        3.0,
        None,
    ),
    "conductivity_nacl": (
        ionic_conductivity.PROTOCOL,
        {"system": "nacl_melt"},
        "conductivity",
        3.95,
        None,
    ),
}

LENGTHS = ("equilibration_ps", "production_ps")


def run_case(
    name: str, scale: float, seed: int, home: Path, threads: int = 0, ranks: int = 1
) -> dict[str, Any]:
    """Run one case through its protocol; a JSON-ready row."""
    protocol, raw, key, reference, target = CASES[name]
    defaults = protocol.validate(raw)
    lengths = {k: getattr(defaults, k) * scale for k in LENGTHS}
    params = protocol.validate({**raw, **lengths, "seed": seed})
    store = Store.at(home / "simwright.db")
    start = time.perf_counter()
    settings = Settings(home=home, threads=threads, mpi_ranks=ranks)
    out = Runner(store, settings).start(
        protocol.graph, protocol.first_step(params), protocol=protocol.name, params=params
    )
    wall = time.perf_counter() - start
    store.close()
    if out.status != "completed":
        return {"case": name, "status": out.status, "error": out.error, "wall_s": round(wall)}
    values = {
        k: (round(q.value, 4), None if q.uncertainty is None else round(q.uncertainty, 4), q.unit)
        for k, q in out.result.values.items()
    }
    row: dict[str, Any] = {
        "case": name,
        "n_molecules": params.n_molecules,  # type: ignore[attr-defined]
        **{k: getattr(params, k) for k in LENGTHS},
        "wall_s": round(wall, 1),
        "cores": settings.cores(),
        "mpi_ranks": ranks,
        "values": values,
    }
    if reference is not None:
        value = out.result.values[key].value
        row["reference"] = reference
        row["deviation"] = round(value / reference - 1.0, 4)
        if target is not None:
            row["within_target"] = abs(value / reference - 1.0) <= target
    return row


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> None:
    """Run the named cases (all by default) and print one JSON row each."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("cases", nargs="*", help=f"cases to run (default all): {', '.join(CASES)}")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every run length")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--threads", type=int, default=0, help="cores for LAMMPS (0: all)")
    parser.add_argument("--ranks", type=int, default=1, help="MPI ranks for LAMMPS")
    args = parser.parse_args(argv)
    unknown = [c for c in args.cases if c not in CASES]
    if unknown:
        parser.error(f"unknown case(s) {', '.join(unknown)}; known: {', '.join(CASES)}")
    with tempfile.TemporaryDirectory(prefix="simwright-liquids-") as tmp:
        for name in args.cases or list(CASES):
            home = Path(tmp) / name
            row = run_case(name, args.scale, args.seed, home, args.threads, args.ranks)
            out(json.dumps(row))


if __name__ == "__main__":
    main()
