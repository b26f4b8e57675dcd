"""OPLS-AA liquids and the classical route of ``electrolyte_diffusivity``.

Cases (each through the real protocol: PACKMOL, LAMMPS with PPPM):

- ``density_methanol``, ``density_ethanol``, ``density_acetonitrile``: ``density`` at
  298.15 K, 1 atm against experiment (CRC Handbook: 0.7866, 0.7849, 0.7766 g/cm³,
  ±0.001). OPLS-AA's own published densities (Jorgensen, Maxwell, Tirado-Rives,
  J. Am. Chem. Soc. 118, 11225 (1996); Price, Ostrovsky, Jorgensen, J. Comput. Chem.
  22, 1340 (2001)) are within a few per cent of experiment; their exact numbers are
  not transcribed here (unverified).
- ``lipf6_pc_opls``: Li⁺ self-diffusion in 1 M LiPF₆ in PC at 298.15 K with OPLS-AA
  (ionic charges × 0.8), the molarity converted through a stated solution density.
  Compare with PFG-NMR (K. Hayamizu, J. Chem. Eng. Data 57, 2012 (2012)) and with
  OPLS-type simulations with scaled charges; ``docs/benchmarks.md`` keeps the table.
  ``lipf6_pc_opls_8li`` is the same system at 8 LiPF₆ + 90 PC (1234 atoms).

Every length is multiplied by ``--scale``. One JSON row per case: size, lengths, wall
time and the figures.

    python benchmarks/opls.py density_methanol lipf6_pc_opls [--scale 1.0] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from simwright.analysis.einstein import einstein_diffusion
from simwright.analysis.transport import remove_system_drift
from simwright.graph import Runner
from simwright.protocols.electrolytes.classical import forcefield as classical_forcefield
from simwright.protocols.electrolytes.diffusivity import PROTOCOL as ELECTROLYTE
from simwright.protocols.electrolytes.msd import species_centres
from simwright.protocols.electrolytes.params import NORMAL_TIMESTEP_FS, composition
from simwright.protocols.liquids import density
from simwright.protocols.registry import Protocol
from simwright.settings import Settings
from simwright.store import Store

EXPERIMENT_DENSITY = {"methanol": 0.7866, "ethanol": 0.7849, "acetonitrile": 0.7766}
"""g/cm³ at 298.15 K and 1 atm, CRC Handbook of Chemistry and Physics (±0.001)."""

LIPF6_PC_DENSITY_G_CM3 = 1.30
"""Density of 1 M LiPF₆ in PC at 25 °C used to turn the molarity into a molality;
about 1.3 g/cm³ in the battery literature (unverified to the last digit). The
simulated density is reported next to it."""


def _density_case(system: str, scale: float) -> tuple[Protocol, dict[str, Any]]:
    raw = {
        "system": system,
        "n_molecules": 100,
        "equilibration_ps": 20.0 * scale,
        "production_ps": 20.0 * scale,
        "max_extensions": 0,
    }
    return density.PROTOCOL, raw


def _electrolyte_case(scale: float) -> tuple[Protocol, dict[str, Any]]:
    """Two LiPF₆ in PC (315 atoms): the route end to end, not a measurement of D."""
    raw = {
        "potential": "classical",
        "solvents": ["pc"],
        "molarity_mol_l": 1.0,
        "solution_density_g_cm3": LIPF6_PC_DENSITY_G_CM3,
        "n_atoms_min": 300,
        "n_atoms_max": 420,
        "heavy_npt_ns": 0.02 * scale,
        "npt_ns": 0.02 * scale,
        "nvt_ns": 0.06 * scale,
        "extension_ns": 0.02 * scale,
        "max_extensions": 0,
        "frame_interval_fs": 200.0,
        "relax_max_steps": 2000,
    }
    return ELECTROLYTE, raw


def _electrolyte_8li_case(scale: float) -> tuple[Protocol, dict[str, Any]]:
    """Eight LiPF₆ in 90 PC (1234 atoms): the smallest box with a D(Li⁺) worth a block error.

    About 130 000 MD steps at scale 1 (20 ps heavy-hydrogen NPT at 2 fs, 20 ps NPT and
    100 ps NVT at 1 fs): roughly an hour of one core. Still far shorter than the
    nanoseconds Li⁺ needs to reach the diffusive regime; the report says so.
    """
    _, raw = _electrolyte_case(scale)
    raw.update(
        n_atoms_min=1000,
        n_atoms_max=1500,
        heavy_npt_ns=0.02 * scale,
        npt_ns=0.02 * scale,
        nvt_ns=0.1 * scale,
        frame_interval_fs=500.0,
    )
    return ELECTROLYTE, raw


CASES: dict[str, Callable[[float], tuple[Protocol, dict[str, Any]]]] = {
    **{
        f"density_{name}": (lambda scale, name=name: _density_case(name, scale))  # type: ignore[misc]
        for name in EXPERIMENT_DENSITY
    },
    "lipf6_pc_opls": _electrolyte_case,
    "lipf6_pc_opls_8li": _electrolyte_8li_case,
}


def run_case(name: str, scale: float, home: Path, threads: int) -> dict[str, Any]:
    """Run one case in ``home``; its figures, size, lengths and wall time."""
    protocol, raw = CASES[name](scale)
    params = protocol.validate(raw)
    store = Store.at(home / "simwright.db")
    start = time.perf_counter()
    out = Runner(store, Settings(home=home, threads=threads)).start(
        protocol.graph, protocol.first_step(params), protocol=protocol.name, params=params
    )
    wall = time.perf_counter() - start
    store.close()
    row: dict[str, Any] = {"case": name, "status": out.status, "wall_s": round(wall, 1)}
    if out.status != "completed":
        return {**row, "error": out.error}
    values = {k: (round(q.value, 4), q.uncertainty, q.unit) for k, q in out.result.values.items()}
    row.update(parameters=params.model_dump(), values=values, summary=out.result.summary)
    system = raw.get("system")
    if system in EXPERIMENT_DENSITY:
        rho = out.result.values["density"].value
        row["experiment_g_cm3"] = EXPERIMENT_DENSITY[system]
        row["deviation"] = round(rho / EXPERIMENT_DENSITY[system] - 1.0, 4)
    return row


def partial_production(name: str, scale: float, production_dir: Path) -> dict[str, Any]:
    """D of every species from the frames an unfinished NVT production has written so far.

    Reads ``traj.dcd`` in ``production_dir`` (the run's ``LammpsProduction`` step folder,
    complete frames only) and applies the protocol's own analysis (system drift removed,
    molecular centres, Einstein fit over 10–67 % of the lags, block errors). For a run
    stopped before its end; the protocol's report is the answer for a finished one.
    """
    from MDAnalysis.coordinates.DCD import DCDReader

    protocol, raw = CASES[name](scale)
    params = protocol.validate(raw)
    comp = composition(params)
    ff = classical_forcefield(params)
    types = [
        t
        for m, n in comp.components
        for _ in range(n)
        for t in next(x.atom_types for x in ff.molecules if x.name == m.name)
    ]
    masses = np.array([ff.atom_types[ff.type_id(t) - 1].mass_amu for t in types])
    reader = DCDReader(str(production_dir / "traj.dcd"))
    positions = np.array([ts.positions.astype(np.float64) for ts in reader])
    reader.close()
    every = max(1, round(params.frame_interval_fs / NORMAL_TIMESTEP_FS))
    row: dict[str, Any] = {
        "case": name,
        "frames": int(positions.shape[0]),
        "production_ps": positions.shape[0] * every * NORMAL_TIMESTEP_FS / 1000.0,
        "composition": comp.describe(),
    }
    unwrapped = remove_system_drift(positions, masses)
    for label, centres in species_centres(comp, unwrapped, masses):
        fit = einstein_diffusion(centres, NORMAL_TIMESTEP_FS, every, n_blocks=params.n_blocks)
        row[label] = {
            "d_1e-6_cm2_s": round(10.0 * fit.d_1e5_cm2_s, 4),
            "block_err": round(10.0 * fit.d_err_1e5_cm2_s, 4),
            "r2": round(fit.r2, 4),
            "n": int(centres.shape[1]),
        }
    return row


def main(argv: list[str] | None = None, out: Callable[[str], None] = print) -> None:
    """Run the named cases (default all) and print one JSON row each."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("cases", nargs="*", help=f"cases (default all): {', '.join(CASES)}")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every run length")
    parser.add_argument("--threads", type=int, default=0, help="cores for LAMMPS (0: all)")
    parser.add_argument(
        "--keep", type=Path, help="run in DIR/CASE and keep its store and files (default: temp)"
    )
    parser.add_argument(
        "--partial",
        type=Path,
        help="analyse the frames so far in this production step folder (one electrolyte case)",
    )
    args = parser.parse_args(argv)
    if args.partial is not None:
        out(json.dumps(partial_production(args.cases[0], args.scale, args.partial)))
        return
    for name in args.cases or list(CASES):
        if name not in CASES:
            raise SystemExit(f"unknown case {name!r}; known: {', '.join(CASES)}")
        if args.keep is not None:
            home = args.keep / name
            home.mkdir(parents=True, exist_ok=True)
            out(json.dumps(run_case(name, args.scale, home, args.threads)))
            continue
        with tempfile.TemporaryDirectory() as tmp:
            out(json.dumps(run_case(name, args.scale, Path(tmp), args.threads)))


if __name__ == "__main__":
    main()
