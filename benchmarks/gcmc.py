"""GCMC checked against data: bulk LJ μ → ρ, wall well depths, methane in a carbon slit pore.

``--lj`` (the check of the GCMC machinery without walls): for each (T*, ρ*) the
reservoir fugacity at which the LJ fluid truncated at 3σ (not shifted) should
have density ρ* is computed from the Johnson–Zollweg–Gubbins (1993) equation of
state of the full LJ fluid, minus the mean-field chemical potential of the tail
beyond 3σ; LAMMPS ``fix gcmc`` (pure MC, no integrator) then measures the
density. Target: within 2 %.

``--walls``: the well depth of TraPPE-UA methane on the 9-3 continuum wall and on
Steele's 10-4-3 graphite wall, against the analytic values (−734 K, ≈ −1358 K).

``--isotherm``: methane (TraPPE-UA, 298 K, ideal-gas reservoir) in one slit pore
with both walls, one fresh GCMC–MD run per pressure (not a desorption path).

    python benchmarks/gcmc.py --lj --walls --isotherm --json gcmc.json
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from simwright.analysis import lj_eos
from simwright.engines.lammps.gcmc import (
    METHANE_TRAPPE_UA,
    GcmcCondition,
    GcmcSegment,
    GcmcSettings,
    SlitPore,
    carbon_wall,
    run_gcmc_segment,
)
from simwright.engines.lammps.gcmc_bulk import LJFluidGcmcSettings, run_lj_gcmc
from simwright.engines.lammps.launcher import LammpsLauncher, find_lmp
from simwright.engines.lammps.walls import WALL_KINDS
from simwright.units import KB_EV_K

LJ_POINTS = ((2.0, 0.1), (2.0, 0.3), (2.0, 0.5), (2.0, 0.7), (1.5, 0.1), (1.5, 0.5), (1.5, 0.7))
"""(T*, ρ*) state points, all supercritical (JZG's T_c* ≈ 1.31)."""

ANALYTIC_WELL_K = {"lj93_continuum": -734.0, "steele_10_4_3": -1358.0}


def lj_fluid(
    launcher: LammpsLauncher,
    root: Path,
    settings: LJFluidGcmcSettings,
    points: tuple[tuple[float, float], ...] = LJ_POINTS,
) -> list[dict[str, Any]]:
    """Bulk LJ GCMC at each (T*, ρ*) of ``points`` against JZG."""
    rows = []
    for index, (t, rho) in enumerate(points):
        fugacity = lj_eos.truncated_fugacity(rho, t, settings.cutoff)
        start = time.perf_counter()
        res = run_lj_gcmc(launcher, settings, t, fugacity, root / f"lj_{index}", seed=101 + index)
        rows.append(
            {
                "T*": t,
                "box_sigma": settings.box,
                "steps": settings.steps,
                "rho*_JZG": rho,
                "mu_ex_JZG": lj_eos.excess_chemical_potential(rho, t),
                "fugacity*": fugacity,
                "rho*_GCMC": res.density,
                "sem": res.density_sem,
                "deviation_percent": 100.0 * (res.density / rho - 1.0),
                "insertion_acceptance": res.insertion_acceptance,
                "mean_atoms": float(res.densities.mean() * settings.box**3),
                "wall_s": time.perf_counter() - start,
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


def walls() -> list[dict[str, Any]]:
    """Well depth and position of methane on each wall, against the analytic values."""
    rows = []
    for kind in WALL_KINDS:
        wall = carbon_wall(METHANE_TRAPPE_UA, kind=kind)
        z, depth = wall.well()
        rows.append(
            {
                "wall": kind,
                "well_depth_k": depth / KB_EV_K,
                "analytic_k": ANALYTIC_WELL_K[kind],
                "well_position_a": z,
                "source": wall.reference,
            }
        )
    return rows


def isotherm(
    launcher: LammpsLauncher, root: Path, width_a: float, pressures: list[float], steps: int
) -> list[dict[str, Any]]:
    """Methane in one slit pore, both walls, one fresh run per pressure."""
    rows = []
    for kind in WALL_KINDS:
        pore = SlitPore(width_a=width_a, lateral_a=40.0, wall=kind)
        for pressure in pressures:
            segment = GcmcSegment(
                pore,
                GcmcSettings(),
                GcmcCondition(temperature_k=298.0, pressure_bar=pressure),
                steps,
                seed=7,
            )
            start = time.perf_counter()
            res = run_gcmc_segment(launcher, segment, root / f"{kind}_{pressure:g}")
            kept = res.n_molecules[res.n_molecules.size // 4 :]
            volume_nm3 = 40.0 * 40.0 * width_a / 1000.0
            rows.append(
                {
                    "wall": kind,
                    "width_a": width_a,
                    "pressure_bar": pressure,
                    "n_mean": float(np.mean(kept)),
                    "n_std": float(np.std(kept)),
                    "pore_density_nm3": float(np.mean(kept)) / volume_nm3,
                    "bulk_ideal_density_nm3": pressure * 1e5 / (1.380649e-23 * 298.0) * 1e-27,
                    "wall_s": time.perf_counter() - start,
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lj", action="store_true", help="bulk LJ μ → ρ against JZG")
    parser.add_argument("--lj-steps", type=int, default=6000, help="MC steps per state point")
    parser.add_argument("--box", type=float, default=7.0, help="LJ box edge (σ)")
    parser.add_argument(
        "--points", nargs="+", help="T*:ρ* state points (default: the seven of LJ_POINTS)"
    )
    parser.add_argument("--walls", action="store_true", help="methane well depths")
    parser.add_argument("--isotherm", action="store_true", help="methane in one slit pore")
    parser.add_argument("--width", type=float, default=10.0, help="pore width (Å)")
    parser.add_argument("--pressures", type=float, nargs="+", default=[3.0, 15.0, 50.0])
    parser.add_argument("--isotherm-steps", type=int, default=8000)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    launcher = LammpsLauncher(find_lmp(), mpi_ranks=1, omp_threads=1)
    out: dict[str, Any] = {"lammps": launcher.version()}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        if args.walls:
            out["walls"] = walls()
            print(json.dumps(out["walls"], indent=1))
        if args.lj:
            start = time.perf_counter()
            settings = LJFluidGcmcSettings(
                box=args.box, steps=args.lj_steps, equilibration_steps=args.lj_steps // 5
            )
            points = LJ_POINTS
            if args.points:
                points = tuple((float(t), float(r)) for t, r in (p.split(":") for p in args.points))
            out["lj_fluid"] = lj_fluid(launcher, root, settings, points)
            out["lj_fluid_wall_s"] = time.perf_counter() - start
        if args.isotherm:
            out["isotherm"] = isotherm(
                launcher, root, args.width, args.pressures, args.isotherm_steps
            )
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
