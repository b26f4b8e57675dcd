"""Molecules: a library of named rigid templates, user molecules from xyz files,
van der Waals volumes and electrolyte compositions."""

from simwright.molecules.library import (
    Molecule,
    get_molecule,
    known_molecules,
    load_xyz_molecule,
    parse_xyz,
)
from simwright.molecules.vdw import BONDI_RADII_A, bondi_radius_a, vdw_volume_a3

__all__ = [
    "BONDI_RADII_A",
    "Molecule",
    "bondi_radius_a",
    "get_molecule",
    "known_molecules",
    "load_xyz_molecule",
    "parse_xyz",
    "vdw_volume_a3",
]
