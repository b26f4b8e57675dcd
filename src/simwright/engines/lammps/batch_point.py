"""Energies and forces of several structures in one LAMMPS run, with a catalogued potential.

A nudged-elastic-band iteration needs the forces on every image at once; one LAMMPS
process per image would spend most of its time starting. :func:`batch_points`
writes one data file per structure and one script that, for each, reads it, sets
the potential, runs ``run 0`` and dumps positions, forces and per-atom energies
(their sum is the potential energy: pair and many-body styles only, no long-range
solver), then ``clear`` s. Forces come back in each structure's own frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simwright.engines.base import EngineCall
from simwright.engines.lammps.launcher import LammpsLauncher
from simwright.engines.lammps.potential_point import (
    pair_coeff_lines,
    render_atomic_data,
    type_order,
)
from simwright.engines.lammps.segment import check_template
from simwright.errors import ParseError, ValidationError
from simwright.potentials.catalogue import Potential
from simwright.structure import Structure


@dataclass(frozen=True)
class BatchPoints:
    """Energies (eV) and forces (eV/Å, each n×3) of the structures, and the one call."""

    energy_ev: tuple[float, ...]
    forces_ev_a: tuple[np.ndarray, ...]
    call: EngineCall


def data_name(i: int) -> str:
    """The data file of structure ``i`` (from 1)."""
    return f"image-{i:02d}.data"


def dump_name(i: int) -> str:
    """The forces dump of structure ``i`` (from 1)."""
    return f"image-{i:02d}.dump"


def render_batch(potential: Potential, types: tuple[str, ...], count: int) -> str:
    """The ``in.lammps`` (pure): for each structure, read, potential, run 0, dump, clear."""
    lines = [
        f"# simwright LAMMPS batch of {count} points: {potential.file} ({potential.pair_style})",
        f"# citation: {potential.citation}",
    ]
    for i in range(1, count + 1):
        lines += [
            "units           metal",
            "atom_style      atomic",
            "boundary        p p p",
            f"read_data       {data_name(i)}",
            f"pair_style      {potential.pair_style}",
            *pair_coeff_lines(potential, types),
            "compute         peatom all pe/atom",
            "thermo_style    custom step pe",
            "run             0",
            f"write_dump      all custom {dump_name(i)} id x y z fx fy fz c_peatom "
            "modify sort id format float %.14g",
            "clear",
        ]
    return "\n".join(lines) + "\n"


def read_batch_dump(path: Path, n_atoms: int) -> tuple[float, np.ndarray]:
    """The energy (sum of per-atom energies) and forces (LAMMPS frame) of one dump."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("ITEM: ATOMS")) + 1
        rows = np.array([[float(t) for t in line.split()] for line in lines[start:] if line])
    except (OSError, StopIteration, ValueError) as exc:
        raise ParseError(f"{path}: not a readable forces dump ({exc})") from exc
    if rows.shape != (n_atoms, 8):
        raise ParseError(f"{path}: expected {n_atoms} atoms with 8 columns, got {rows.shape}")
    rows = rows[np.argsort(rows[:, 0])]
    return float(rows[:, 7].sum()), rows[:, 4:7]


def batch_points(
    launcher: LammpsLauncher,
    structures: list[Structure],
    potential: Potential,
    workdir: Path,
    *,
    timeout_s: float | None = None,
) -> BatchPoints:
    """Energies and forces of ``structures`` (same elements) in one LAMMPS run in
    ``workdir``, where the potential file must already lie."""
    if not structures or not all(all(s.pbc) for s in structures):
        raise ValidationError("a LAMMPS batch needs periodic structures")
    if not (workdir / potential.file).is_file():
        raise ValidationError(f"{potential.file} must be copied into {workdir} first")
    types = type_order(potential, structures[0])
    rotations = []
    for i, structure in enumerate(structures, 1):
        data, box = render_atomic_data(structure, types)
        (workdir / data_name(i)).write_text(data, encoding="utf-8")
        rotations.append(np.linalg.solve(structure.cell, box.matrix))
    script = render_batch(potential, types, len(structures))
    check_template(script, workdir)
    result = launcher.run(script, workdir, timeout_s=timeout_s)
    energies, forces = [], []
    for i, (structure, rotation) in enumerate(zip(structures, rotations, strict=True), 1):
        energy, f = read_batch_dump(workdir / dump_name(i), len(structure))
        energies.append(energy)
        forces.append(f @ rotation.T)
    return BatchPoints(tuple(energies), tuple(forces), result.call)
