"""Point defects in a (super)cell: a vacancy, a substitution (or antisite), an interstitial."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simwright.builders.crystals import SupercellSpec, build_supercell
from simwright.errors import ValidationError
from simwright.structure import Structure, is_element


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


def substitute(structure: Structure, index: int, element: str) -> Structure:
    """``structure`` with atom ``index`` replaced by ``element`` (a substitutional
    defect or an antisite), positions unchanged."""
    if not 0 <= index < len(structure):
        raise ValidationError(f"no atom {index} in a structure of {len(structure)} atoms")
    if not is_element(element):
        raise ValidationError(f"unknown element {element!r}")
    if structure.symbols[index] == element:
        raise ValidationError(f"atom {index} is already {element}")
    symbols = list(structure.symbols)
    symbols[index] = element
    return Structure(
        tuple(symbols), structure.positions, structure.cell, structure.pbc, structure.molecule_ids
    )


def interstitial(
    structure: Structure,
    element: str,
    fractional: tuple[float, float, float],
    *,
    min_distance_a: float = 1.0,
) -> Structure:
    """``structure`` with an ``element`` atom added at ``fractional`` cell coordinates;
    refused closer than ``min_distance_a`` Å to an atom (periodic images included)."""
    if not is_element(element):
        raise ValidationError(f"unknown element {element!r}")
    if not all(structure.pbc):
        raise ValidationError("an interstitial is placed in a crystal periodic in x, y, z")
    cell = np.asarray(structure.cell, float)
    new = np.asarray(fractional, float) @ cell
    frac = np.linalg.solve(cell.T, (np.asarray(structure.positions) - new).T).T
    frac -= np.round(frac)
    nearest = float(np.min(np.linalg.norm(frac @ cell, axis=1))) if len(structure) else np.inf
    if nearest < min_distance_a:
        raise ValidationError(
            f"an interstitial at {fractional} lies {nearest:.2f} Å from an atom "
            f"(less than {min_distance_a} Å)"
        )
    mol = structure.molecule_ids
    return Structure(
        (*structure.symbols, element),
        np.vstack([structure.positions, new]),
        structure.cell,
        structure.pbc,
        None if mol is None else (*mol, max(mol, default=0) + 1),
    )
