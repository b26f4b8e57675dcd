"""LAMMPS data files: write a typed Structure (atom style ``full``), read one back.

LAMMPS wants a cell with ``a`` along x, ``b`` in the xy plane and ``c`` anywhere
with positive z (a "restricted triclinic" box). A general cell is rotated into
that frame by keeping fractional coordinates; the written box then has the same
lengths and angles as the Structure's cell.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from ase.data import atomic_numbers

from simwright.errors import ParseError, ValidationError
from simwright.forcefields.base import ForceField
from simwright.forcefields.topology import Topology, assign_types
from simwright.structure import Structure

TILT_TOLERANCE_A = 1.0e-9
"""Tilt factors smaller than this (Å) are written as an orthogonal box."""


@dataclass(frozen=True)
class LammpsBox:
    """A LAMMPS box with its origin at 0: edge lengths and tilt factors (Å)."""

    lx: float
    ly: float
    lz: float
    xy: float = 0.0
    xz: float = 0.0
    yz: float = 0.0

    @property
    def triclinic(self) -> bool:
        """True when any tilt factor is non-zero."""
        return any(abs(t) > TILT_TOLERANCE_A for t in (self.xy, self.xz, self.yz))

    @property
    def matrix(self) -> np.ndarray:
        """The cell as rows a, b, c in the LAMMPS frame (Å)."""
        return np.array([[self.lx, 0.0, 0.0], [self.xy, self.ly, 0.0], [self.xz, self.yz, self.lz]])


def lammps_box(cell: np.ndarray) -> LammpsBox:
    """The LAMMPS box with the lengths and angles of ``cell`` (rows a, b, c; right-handed)."""
    cell = np.asarray(cell, dtype=float)
    if np.linalg.det(cell) <= 1e-9:
        raise ValidationError(
            "LAMMPS needs a right-handed cell of positive volume (det(cell) > 0); "
            "swap two cell vectors or give the structure a cell"
        )
    a, b, c = cell
    lx = float(np.linalg.norm(a))
    xy = float(b @ a) / lx
    ly = float(np.sqrt(b @ b - xy**2))
    xz = float(c @ a) / lx
    yz = (float(b @ c) - xy * xz) / ly
    lz = float(np.sqrt(c @ c - xz**2 - yz**2))
    return LammpsBox(lx, ly, lz, xy, xz, yz)


def to_lammps_frame(structure: Structure) -> tuple[LammpsBox, np.ndarray]:
    """The box and the positions (Å) rotated into the LAMMPS frame."""
    box = lammps_box(structure.cell)
    fractional = np.linalg.solve(structure.cell.T, structure.positions.T).T
    return box, fractional @ box.matrix


def write_data_file(structure: Structure, forcefield: ForceField, path: Path) -> Topology:
    """Write ``structure`` typed by ``forcefield`` as a LAMMPS data file (atom style full).

    Every type of the force field is declared (masses from the force field),
    molecule ids are renumbered 1..M, image flags are 0. Returns the topology used.
    """
    topology = assign_types(structure, forcefield)
    box, positions = to_lammps_frame(structure)
    text = render_data(structure, forcefield, topology, box, positions)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return topology


def render_data(
    structure: Structure,
    forcefield: ForceField,
    topology: Topology,
    box: LammpsBox,
    positions: np.ndarray,
) -> str:
    """The text of a data file (pure; see :func:`write_data_file`)."""
    lines = [
        f"LAMMPS data file from simwright: {structure.formula}, force field {forcefield.name}",
        "",
        *_counts(forcefield, topology, len(structure)),
        "",
        *_box_lines(box),
        "",
        "Masses",
        "",
        *(f"{i} {t.mass_amu:.6f}  # {t.name}" for i, t in enumerate(forcefield.atom_types, 1)),
        "",
        "Atoms  # full",
        "",
        *_atom_lines(topology, positions),
    ]
    if topology.bonds:
        lines += ["", "Bonds", ""]
        lines += [f"{n} {t} {i + 1} {j + 1}" for n, (t, i, j) in enumerate(topology.bonds, 1)]
    if topology.angles:
        lines += ["", "Angles", ""]
        lines += [
            f"{n} {t} {i + 1} {j + 1} {k + 1}" for n, (t, i, j, k) in enumerate(topology.angles, 1)
        ]
    for title, terms in (("Dihedrals", topology.dihedrals), ("Impropers", topology.impropers)):
        if terms:
            lines += ["", title, ""]
            lines += [
                f"{n} {t} {i + 1} {j + 1} {k + 1} {m + 1}"
                for n, (t, i, j, k, m) in enumerate(terms, 1)
            ]
    return "\n".join(lines) + "\n"


def _counts(forcefield: ForceField, topology: Topology, n_atoms: int) -> list[str]:
    return [
        f"{n_atoms} atoms",
        f"{len(forcefield.atom_types)} atom types",
        f"{len(topology.bonds)} bonds",
        f"{len(forcefield.bond_types)} bond types",
        f"{len(topology.angles)} angles",
        f"{len(forcefield.angle_types)} angle types",
        *_torsion_counts(forcefield, topology),
    ]


def _torsion_counts(forcefield: ForceField, topology: Topology) -> list[str]:
    """Dihedral and improper counts, written only for force fields that have them."""
    lines = []
    if forcefield.dihedral_types:
        lines += [
            f"{len(topology.dihedrals)} dihedrals",
            f"{len(forcefield.dihedral_types)} dihedral types",
        ]
    if forcefield.improper_types:
        lines += [
            f"{len(topology.impropers)} impropers",
            f"{len(forcefield.improper_types)} improper types",
        ]
    return lines


def _box_lines(box: LammpsBox) -> list[str]:
    lines = [
        f"0.0 {box.lx:.10f} xlo xhi",
        f"0.0 {box.ly:.10f} ylo yhi",
        f"0.0 {box.lz:.10f} zlo zhi",
    ]
    if box.triclinic:
        lines.append(f"{box.xy:.10f} {box.xz:.10f} {box.yz:.10f} xy xz yz")
    return lines


def _atom_lines(topology: Topology, positions: np.ndarray) -> list[str]:
    return [
        f"{i + 1} {mol} {typ} {q:.6f} {x:.8f} {y:.8f} {z:.8f}"
        for i, (mol, typ, q, (x, y, z)) in enumerate(
            zip(
                topology.molecule_ids, topology.type_ids, topology.charges_e, positions, strict=True
            )
        )
    ]


def read_data_structure(
    path: Path,
    type_elements: Mapping[int, str] | None = None,
    *,
    pbc: tuple[bool, bool, bool] = (True, True, True),
) -> Structure:
    """Read a LAMMPS data file (atom style full) written by LAMMPS or simwright.

    ``type_elements`` maps type numbers to elements; without it ASE guesses the
    element of each type from its mass. Positions are as stored (wrapped into the
    box by LAMMPS' ``write_data``); molecule ids are kept.
    """
    # lazy: ase.io.lammpsdata takes ~1 s to import
    from ase.io.lammpsdata import read_lammps_data

    z_of_type = None
    if type_elements is not None:
        z_of_type = {int(t): atomic_numbers[e] for t, e in type_elements.items()}
    try:
        with Path(path).open(encoding="utf-8") as handle:
            atoms = read_lammps_data(
                handle,
                Z_of_type=z_of_type,
                atom_style="full",
                units="metal",
                read_image_flags=False,
            )
    except (OSError, ValueError, KeyError, IndexError) as exc:
        raise ParseError(f"{path}: not a readable LAMMPS data file ({exc})") from exc
    atoms.set_pbc(pbc)
    return Structure.from_ase(atoms)
