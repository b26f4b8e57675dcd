"""pw.x results in the file contract: HDF5 tables with units and an extxyz structure.

* ``pw_summary.h5`` — one row: energies (eV), Fermi level / HOMO / LUMO (eV),
  pressure and stress (bar, pw.x's sign: positive = the cell wants to expand),
  magnetization (μB per cell), SCF convergence and iteration counts, wall time.
* ``pw_forces.h5`` — one row per atom: symbol, final position (Å), force (eV/Å).
* ``pw_relax.h5`` — for relaxations, the energy of every ionic step (eV).
* ``final.extxyz`` — the final structure (written by the caller with
  :meth:`RunContext.structure`, which also checks its sanity).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simwright.contract import Column, Table, write_table
from simwright.engines.espresso.pw import PwRun

SUMMARY_NAME = "pw_summary.h5"
FORCES_NAME = "pw_forces.h5"
RELAX_NAME = "pw_relax.h5"


@dataclass(frozen=True)
class PwTables:
    """Paths of the tables written for one run (``relax`` None for a single SCF)."""

    summary: Path
    forces: Path | None
    relax: Path | None


def _num(value: float | None) -> float:
    return float("nan") if value is None else float(value)


def _voigt(stress: np.ndarray | None) -> np.ndarray:
    if stress is None:
        return np.full((1, 6), np.nan)
    s = stress
    return np.array([[s[0, 0], s[1, 1], s[2, 2], s[1, 2], s[0, 2], s[0, 1]]])


def summary_table(run: PwRun, producer: str = "") -> Table:
    """The one-row summary of a run."""
    o = run.output
    n = len(run.structure)
    energy = _num(o.energy_ev)
    return Table(
        name="pw_summary",
        columns=(
            Column("energy", np.array([energy]), "eV", "total (free) energy, the '!' line"),
            Column("energy_per_atom", np.array([energy / n]), "eV", "total energy per atom"),
            Column(
                "fermi_energy", np.array([_num(o.fermi_energy_ev)]), "eV", "NaN if not metallic"
            ),
            Column("homo", np.array([_num(o.homo_ev)]), "eV", "highest occupied level"),
            Column("lumo", np.array([_num(o.lumo_ev)]), "eV", "lowest unoccupied level"),
            Column(
                "pressure",
                np.array([_num(o.pressure_bar)]),
                "bar",
                "pw.x sign: positive means the cell would expand",
            ),
            Column("stress_voigt", _voigt(o.stress_bar), "bar", "xx yy zz yz xz xy, pw.x sign"),
            Column(
                "total_magnetization", np.array([_num(o.total_magnetization)]), "mu_B", "per cell"
            ),
            Column("scf_converged", np.array([o.scf_converged]), "1", "last SCF converged"),
            Column("n_scf_iterations", np.array([o.n_scf_iterations]), "1", "over all ionic steps"),
            Column("n_ionic_steps", np.array([max(1, len(o.energies_ev))]), "1", "SCF cycles"),
            Column("wall_time", np.array([run.call.wall_s]), "s", "wall time of pw.x"),
            Column("valid", np.array([run.valid]), "1", "exit 0, JOB DONE, no CRASH, converged"),
        ),
        description=f"pw.x {run.input.calculation} of {run.structure.formula}",
        producer=producer,
        attrs={
            "pw_version": o.version,
            "calculation": run.input.calculation,
            "k_points": run.input.kpoints.describe(),
        },
    )


def forces_table(run: PwRun, producer: str = "") -> Table | None:
    """Per-atom symbols, final positions and forces (None if pw.x printed no forces)."""
    forces = run.output.forces_ev_a
    if forces is None or len(forces) != len(run.structure):
        return None
    return Table(
        name="pw_forces",
        columns=(
            Column("symbol", np.array(run.structure.symbols), "1", "element"),
            Column("position", np.array(run.structure.positions), "Å", "final Cartesian position"),
            Column("force", forces, "eV/Å", "force on the atom"),
        ),
        description=f"forces on {run.structure.formula} from pw.x",
        producer=producer,
    )


def relax_table(run: PwRun, producer: str = "") -> Table | None:
    """Energy of each ionic step of a relaxation (None for a single SCF)."""
    energies = run.output.energies_ev
    if len(energies) < 2:
        return None
    return Table(
        name="pw_relax",
        columns=(
            Column("step", np.arange(1, len(energies) + 1), "1", "ionic step"),
            Column("energy", np.array(energies), "eV", "total energy of the step"),
        ),
        description=f"{run.input.calculation} trajectory energies of {run.structure.formula}",
        producer=producer,
    )


def write_pw_tables(run: PwRun, workdir: Path, producer: str = "") -> PwTables:
    """Write the summary, forces and relaxation tables of ``run`` into ``workdir``."""
    summary = write_table(workdir / SUMMARY_NAME, summary_table(run, producer))
    ft = forces_table(run, producer)
    forces = write_table(workdir / FORCES_NAME, ft) if ft is not None else None
    rt = relax_table(run, producer)
    relax = write_table(workdir / RELAX_NAME, rt) if rt is not None else None
    return PwTables(summary, forces, relax)
