"""LAMMPS with a catalogued interatomic potential: energy, forces and stress of a structure.

:func:`potential_point` copies the potential file into the working directory (so
the safety policy confines every file the script reads to that directory, and
the step keeps the exact file it used), writes an ``atom_style atomic`` data
file, and runs ``run 0`` — after a fixed-cell ``minimize`` of the ions when asked
(internal relaxation, e.g. for C44 of diamond Si). Forces and stress come back in
the structure's own frame: LAMMPS works in its rotated "restricted triclinic"
frame, and the rotation is undone here. Stress is the Cauchy stress in GPa,
tensile positive (σ = −P of LAMMPS's pressure tensor).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
from ase.data import atomic_masses, atomic_numbers

from simwright.engines.base import EngineCall
from simwright.engines.lammps.data import LammpsBox, to_lammps_frame
from simwright.engines.lammps.launcher import LammpsError, LammpsLauncher
from simwright.engines.lammps.segment import check_template
from simwright.engines.lammps.templates import DATA_NAME
from simwright.errors import ParseError, ValidationError
from simwright.potentials.catalogue import Potential
from simwright.structure import Structure

FORCES_NAME: Final = "forces.dump"
BAR_TO_GPA: Final = 1.0e-4
PRESSURE_KEYWORDS: Final = ("pxx", "pyy", "pzz", "pxy", "pxz", "pyz")


@dataclass(frozen=True)
class PotentialPoint:
    """Energy (eV), forces (eV/Å, n×3), stress (GPa, 3×3) and the final structure."""

    energy_ev: float
    forces_ev_a: np.ndarray
    stress_gpa: np.ndarray
    structure: Structure
    call: EngineCall


def type_order(potential: Potential, structure: Structure) -> tuple[str, ...]:
    """The LAMMPS types: the structure's elements in the potential's order."""
    present = set(structure.symbols)
    missing = sorted(present - set(potential.elements))
    if missing:
        raise ValidationError(
            f"potential {potential.file} has no parameters for {', '.join(missing)} "
            f"(it covers {', '.join(potential.elements)})"
        )
    return tuple(e for e in potential.elements if e in present)


def render_atomic_data(structure: Structure, types: tuple[str, ...]) -> tuple[str, LammpsBox]:
    """An ``atom_style atomic`` data file of ``structure`` and the box it declares."""
    box, positions = to_lammps_frame(structure)
    index = {e: i for i, e in enumerate(types, 1)}
    lines = [
        f"LAMMPS data file from simwright: {structure.formula}",
        "",
        f"{len(structure)} atoms",
        f"{len(types)} atom types",
        "",
        f"0.0 {box.lx:.12f} xlo xhi",
        f"0.0 {box.ly:.12f} ylo yhi",
        f"0.0 {box.lz:.12f} zlo zhi",
    ]
    if box.triclinic:
        lines.append(f"{box.xy:.12f} {box.xz:.12f} {box.yz:.12f} xy xz yz")
    lines += ["", "Masses", ""]
    lines += [f"{i} {atomic_masses[atomic_numbers[e]]:.6f}  # {e}" for e, i in index.items()]
    lines += ["", "Atoms  # atomic", ""]
    lines += [
        f"{n} {index[s]} {x:.12f} {y:.12f} {z:.12f}"
        for n, (s, (x, y, z)) in enumerate(zip(structure.symbols, positions, strict=True), 1)
    ]
    return "\n".join(lines) + "\n", box


def pair_coeff_lines(potential: Potential, types: tuple[str, ...]) -> list[str]:
    """``pair_coeff`` of the potential: ``* * file El...`` (one file maps every type), or,
    for a single-element *funcfl* file (``pair_style eam``), one line per type."""
    if potential.pair_style == "eam":
        return [f"pair_coeff      {i} {i} {potential.file}" for i in range(1, len(types) + 1)]
    return [f"pair_coeff      * * {potential.file} {' '.join(types)}"]


def render_potential_point(
    potential: Potential,
    types: tuple[str, ...],
    *,
    relax_ions: bool,
    ftol_ev_a: float = 1e-8,
    relax_axes: str = "xyz",
) -> str:
    """The ``in.lammps`` of one point (pure): read, potential, [minimize ions], run 0, dump.

    ``relax_axes`` names the Cartesian axes (of the LAMMPS frame) the ions may move
    along when they relax; the force along the others is zeroed (``fix setforce``)."""
    lines = [
        f"# simwright LAMMPS point: potential {potential.file} ({potential.pair_style})",
        f"# citation: {potential.citation}",
        "# units metal: eV, Å, bar",
        "units           metal",
        "atom_style      atomic",
        "boundary        p p p",
        f"read_data       {DATA_NAME}",
        f"pair_style      {potential.pair_style}",
        *pair_coeff_lines(potential, types),
        "neighbor        1.0 bin",
        "neigh_modify    every 1 delay 0 check yes",
        "thermo_style    custom step pe press " + " ".join(PRESSURE_KEYWORDS) + " vol",
        "thermo_modify   norm no flush yes format float %.14g",
        "thermo          1",
    ]
    if relax_ions and relax_axes != "xyz":
        held = " ".join("NULL" if axis in relax_axes else "0.0" for axis in "xyz")
        lines.append(f"fix             hold all setforce {held}")
    if relax_ions:
        lines += ["min_style       cg", f"minimize        0.0 {ftol_ev_a:g} 10000 100000"]
    lines += [
        "run             0",
        f"write_dump      all custom {FORCES_NAME} id x y z fx fy fz modify sort id "
        "format float %.14g",
    ]
    return "\n".join(lines) + "\n"


def _local_copy(source: Path, workdir: Path) -> None:
    target = workdir / source.name
    if target.exists():
        return
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def read_forces_dump(path: Path, n_atoms: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions and forces (LAMMPS frame) from the ``write_dump`` of a point, sorted by id."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("ITEM: ATOMS")) + 1
        rows = np.array([[float(t) for t in line.split()] for line in lines[start:] if line])
    except (OSError, StopIteration, ValueError) as exc:
        raise ParseError(f"{path}: not a readable forces dump ({exc})") from exc
    if rows.shape != (n_atoms, 7):
        raise ParseError(f"{path}: expected {n_atoms} atoms with 7 columns, got {rows.shape}")
    rows = rows[np.argsort(rows[:, 0])]
    return rows[:, 1:4], rows[:, 4:7]


def potential_point(
    launcher: LammpsLauncher,
    structure: Structure,
    potential: Potential,
    potential_file: Path,
    workdir: Path,
    *,
    relax_ions: bool = False,
    relax_axes: str = "xyz",
    timeout_s: float | None = None,
) -> PotentialPoint:
    """Run one point of ``structure`` with ``potential`` in ``workdir`` and read it back.

    Raises :class:`LammpsError` when LAMMPS fails or reports no finite energy.
    """
    if not all(structure.pbc):
        raise ValidationError("a LAMMPS potential point needs a periodic box in x, y and z")
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    types = type_order(potential, structure)
    _local_copy(potential_file, workdir)
    data, box = render_atomic_data(structure, types)
    (workdir / DATA_NAME).write_text(data, encoding="utf-8")
    if relax_axes != "xyz" and box.triclinic:
        raise ValidationError("relaxing along some axes only needs an orthogonal cell")
    script = render_potential_point(potential, types, relax_ions=relax_ions, relax_axes=relax_axes)
    check_template(script, workdir)
    result = launcher.run(script, workdir, timeout_s=timeout_s)
    last = {c.name: float(c.values[-1]) for c in result.thermo.columns}
    energy = last.get("potential_energy", float("nan"))
    if not np.isfinite(energy):
        raise LammpsError("LAMMPS reported no finite potential energy", call=result.call)
    rotation = np.linalg.solve(structure.cell, box.matrix)  # LAMMPS frame = structure frame @ R
    positions, forces = read_forces_dump(workdir / FORCES_NAME, len(structure))
    xx, yy, zz, xy, xz, yz = (last[k] for k in PRESSURE_KEYWORDS)
    pressure = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    stress = -rotation @ pressure @ rotation.T * BAR_TO_GPA
    final = structure.with_positions(positions @ rotation.T, structure.cell)
    return PotentialPoint(energy, forces @ rotation.T, stress, final, result.call)
