"""Electrolyte compositions: integer molecule counts for a target molality.

Molality b is moles of salt formula units per kilogram of solvent,
``b = 1000 · n_salt / (n_solvent · M_solvent[g/mol])``; Avogadro's number cancels, so
molecule counts enter directly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from simwright.errors import ValidationError
from simwright.molecules.library import Molecule

DEFAULT_ATOM_WINDOW: tuple[int, int] = (950, 1150)
"""Default inclusive range of the total atom count of an electrolyte box."""


@dataclass(frozen=True)
class ElectrolyteComposition:
    """Integer counts of cations, anions and solvent molecules and the molality they give."""

    cation: Molecule
    anion: Molecule
    solvent: Molecule
    n_cations: int
    n_anions: int
    n_solvent: int
    n_salt: int
    molality_mol_kg: float
    target_molality_mol_kg: float
    n_atoms: int

    @property
    def components(self) -> tuple[tuple[Molecule, int], ...]:
        """(molecule, count) pairs, cations, anions, then solvent, ready for packing."""
        return (
            (self.cation, self.n_cations),
            (self.anion, self.n_anions),
            (self.solvent, self.n_solvent),
        )


def salt_stoichiometry(cation: Molecule, anion: Molecule) -> tuple[int, int]:
    """Cations and anions per neutral formula unit (LiPF6: (1, 1); MgCl2: (1, 2))."""
    if cation.charge <= 0 or anion.charge >= 0:
        raise ValidationError(
            f"a salt needs a cation and an anion; got charges {cation.charge:+d} "
            f"({cation.name}) and {anion.charge:+d} ({anion.name})"
        )
    g = math.gcd(cation.charge, -anion.charge)
    return -anion.charge // g, cation.charge // g


def molality_mol_kg(n_salt: int, n_solvent: int, solvent: Molecule) -> float:
    """Molality (mol/kg) of ``n_salt`` formula units in ``n_solvent`` solvent molecules."""
    if n_solvent <= 0:
        raise ValidationError("molality needs at least one solvent molecule")
    return 1000.0 * n_salt / (n_solvent * solvent.mass_amu)


def electrolyte_from_molality(
    cation: Molecule,
    anion: Molecule,
    solvent: Molecule,
    molality: float,
    *,
    atom_window: tuple[int, int] = DEFAULT_ATOM_WINDOW,
) -> ElectrolyteComposition:
    """The counts whose molality is closest to ``molality`` (mol/kg) with a total atom
    count inside ``atom_window`` (inclusive).

    A positive molality gets at least one formula unit. Ties go to the larger system.
    Deterministic; raises :class:`ValidationError` when no count fits the window.
    """
    lo, hi = _check_request(molality, atom_window)
    nu_plus, nu_minus = salt_stoichiometry(cation, anion)
    salt_atoms = nu_plus * cation.n_atoms + nu_minus * anion.n_atoms
    best: tuple[float, int, int, int] | None = None  # (error, -atoms, n_solvent, n_salt)
    for n_solvent in range(1, hi // solvent.n_atoms + 1):
        for n_salt in _salt_candidates(molality, n_solvent, solvent):
            atoms = n_solvent * solvent.n_atoms + n_salt * salt_atoms
            if not lo <= atoms <= hi:
                continue
            error = abs(molality_mol_kg(n_salt, n_solvent, solvent) - molality)
            key = (round(error, 12), -atoms, n_solvent, n_salt)
            if best is None or key < best:
                best = key
    if best is None:
        raise ValidationError(
            f"no composition of {solvent.name} and {cation.name}/{anion.name} at "
            f"{molality} mol/kg has between {lo} and {hi} atoms"
        )
    _, neg_atoms, n_solvent, n_salt = best
    return ElectrolyteComposition(
        cation=cation,
        anion=anion,
        solvent=solvent,
        n_cations=nu_plus * n_salt,
        n_anions=nu_minus * n_salt,
        n_solvent=n_solvent,
        n_salt=n_salt,
        molality_mol_kg=molality_mol_kg(n_salt, n_solvent, solvent),
        target_molality_mol_kg=molality,
        n_atoms=-neg_atoms,
    )


def _check_request(molality: float, atom_window: tuple[int, int]) -> tuple[int, int]:
    if not math.isfinite(molality) or molality < 0:
        raise ValidationError(f"molality must be a finite number >= 0 mol/kg, got {molality}")
    lo, hi = (int(v) for v in atom_window)
    if lo < 1 or hi < lo:
        raise ValidationError(f"atom window must satisfy 1 <= low <= high, got {atom_window}")
    return lo, hi


def _salt_candidates(molality: float, n_solvent: int, solvent: Molecule) -> tuple[int, ...]:
    """The integer salt counts just below and above the exact one (at least 1 if b > 0)."""
    exact = molality * n_solvent * solvent.mass_amu / 1000.0
    low = math.floor(exact)
    minimum = 1 if molality > 0 else 0
    return tuple(sorted({max(low, minimum), max(low + 1, minimum)}))
