"""Point defects: a vacancy in a (super)cell."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simwright.builders.crystals import SupercellSpec, build_supercell
from simwright.errors import ValidationError
from simwright.structure import Structure


@dataclass(frozen=True)
class VacancySpec:
    """The supercell of ``host`` with atom ``index`` removed."""

    host: SupercellSpec
    index: int = 0


def vacancy(structure: Structure, index: int) -> Structure:
    """``structure`` without atom ``index`` (same cell, periodicity and order of the rest)."""
    if not 0 <= index < len(structure):
        raise ValidationError(f"no atom {index} in a structure of {len(structure)} atoms")
    if len(structure) < 2:
        raise ValidationError("removing the only atom leaves nothing")
    keep = np.arange(len(structure)) != index
    mol = structure.molecule_ids
    return Structure(
        tuple(s for s, k in zip(structure.symbols, keep, strict=True) if k),
        structure.positions[keep],
        structure.cell,
        structure.pbc,
        None if mol is None else tuple(m for m, k in zip(mol, keep, strict=True) if k),
    )


def build_vacancy(spec: VacancySpec) -> Structure:
    """The defective supercell of ``spec``."""
    return vacancy(build_supercell(spec.host), spec.index)
