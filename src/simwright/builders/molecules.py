"""A molecule of simwright's library, centred in a box."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simwright.errors import ValidationError
from simwright.molecules import get_molecule
from simwright.structure import Structure


@dataclass(frozen=True)
class MoleculeSpec:
    """Molecule ``name`` of the library centred in a cubic box with ``vacuum_a`` Å
    between its atoms and those of the periodic images (``periodic`` False: open box)."""

    name: str
    vacuum_a: float = 10.0
    periodic: bool = False


def build_molecule(spec: MoleculeSpec) -> Structure:
    """The molecule of ``spec`` in its box."""
    if spec.vacuum_a <= 0:
        raise ValidationError(f"vacuum must be positive, got {spec.vacuum_a} Å")
    mol = get_molecule(spec.name).structure
    extent = mol.positions.max(axis=0) - mol.positions.min(axis=0)
    edge = float(extent.max()) + spec.vacuum_a
    centre = (mol.positions.max(axis=0) + mol.positions.min(axis=0)) / 2
    positions = mol.positions - centre + edge / 2
    return Structure(
        mol.symbols,
        positions,
        np.eye(3) * edge,
        (spec.periodic,) * 3,
        mol.molecule_ids,
    )
