"""Salt in a solvent blend: integer counts for a target molality and solvent ratio.

The solvent ratio is read by mass (the default of battery electrolytes, "EC:DMC 3:7
w/w"), by volume (through the pure solvents' densities) or by amount of substance.
Molarity (mol/L of solution) is converted to molality through a solution density the
caller states: ``b = c / (rho - c·M_salt/1000)`` with rho in kg/L.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from simwright.errors import ValidationError
from simwright.molecules.composition import DEFAULT_ATOM_WINDOW, salt_stoichiometry
from simwright.molecules.library import Molecule

RatioBasis = Literal["mass", "volume", "mole"]

PURE_SOLVENT_DENSITY_G_CM3: Mapping[str, float] = {
    "ec": 1.321,
    "pc": 1.200,
    "dmc": 1.063,
    "dec": 0.969,
    "emc": 1.006,
}
"""Densities of the pure carbonates (EC at 40 °C, the others at 25 °C), from K. Xu,
"Nonaqueous liquid electrolytes for lithium-based rechargeable batteries",
Chem. Rev. 104, 4303 (2004), Table 1; used only to turn a volume ratio into masses."""

PURE_SOLVENT_VISCOSITY_MPA_S: Mapping[str, float] = {
    "ec": 1.90,
    "pc": 2.53,
    "dmc": 0.59,
    "dec": 0.75,
    "emc": 0.65,
}
"""Viscosities of the pure carbonates (EC at 40 °C, DMC at 20 °C, others at 25 °C), same
source and table. The salt raises the viscosity, so a Yeh–Hummer correction computed
with these is an upper bound."""


@dataclass(frozen=True)
class BlendComposition:
    """Counts of cations, anions and each solvent, and the molality they give."""

    cation: Molecule
    anion: Molecule
    solvents: tuple[tuple[Molecule, int], ...]
    n_salt: int
    n_cations: int
    n_anions: int
    molality_mol_kg: float
    target_molality_mol_kg: float
    n_atoms: int

    @property
    def components(self) -> tuple[tuple[Molecule, int], ...]:
        """(molecule, count) pairs: cations, anions, then each solvent, ready for packing."""
        return ((self.cation, self.n_cations), (self.anion, self.n_anions), *self.solvents)

    @property
    def solvent_mass_fractions(self) -> tuple[float, ...]:
        """Mass fraction of each solvent in the solvent blend (salt excluded)."""
        masses = [m.mass_amu * n for m, n in self.solvents]
        return tuple(m / sum(masses) for m in masses)

    def describe(self) -> str:
        """'2 Li+, 2 PF6-, 11 DMC (0.98 mol/kg)'."""
        parts = [f"{n} {m.name}" for m, n in self.components]
        return f"{', '.join(parts)} ({self.molality_mol_kg:.3f} mol/kg, {self.n_atoms} atoms)"


def molality_from_molarity(
    molarity_mol_l: float, solution_density_g_cm3: float, salt_molar_mass: float
) -> float:
    """Molality (mol/kg solvent) of a solution of ``molarity_mol_l`` and the stated density."""
    if molarity_mol_l <= 0 or solution_density_g_cm3 <= 0:
        raise ValidationError("molarity and solution density must be positive")
    solvent_kg_per_l = solution_density_g_cm3 - molarity_mol_l * salt_molar_mass / 1000.0
    if solvent_kg_per_l <= 0:
        raise ValidationError(
            f"{molarity_mol_l} mol/L of a {salt_molar_mass:.1f} g/mol salt weighs more than "
            f"a litre of solution at {solution_density_g_cm3} g/cm³"
        )
    return molarity_mol_l / solvent_kg_per_l


def solvent_mole_fractions(
    solvents: Sequence[Molecule], ratio: Sequence[float], basis: RatioBasis
) -> tuple[float, ...]:
    """Mole fractions of the solvents from a ratio by mass, volume or amount of substance."""
    if len(ratio) != len(solvents) or any(r <= 0 for r in ratio):
        raise ValidationError(
            f"the solvent ratio needs one positive number per solvent ({len(solvents)}), "
            f"got {list(ratio)}"
        )
    if basis == "mole":
        moles = list(ratio)
    elif basis == "mass":
        moles = [r / m.mass_amu for r, m in zip(ratio, solvents, strict=True)]
    else:
        moles = [r * _pure_density(m) / m.mass_amu for r, m in zip(ratio, solvents, strict=True)]
    return tuple(n / sum(moles) for n in moles)


def _pure_density(molecule: Molecule) -> float:
    try:
        return PURE_SOLVENT_DENSITY_G_CM3[molecule.name]
    except KeyError:
        raise ValidationError(
            f"no pure-liquid density of {molecule.name} is stored: give the ratio by mass"
        ) from None


def electrolyte_in_blend(
    cation: Molecule,
    anion: Molecule,
    solvents: Sequence[Molecule],
    mole_fractions: Sequence[float],
    molality: float,
    *,
    atom_window: tuple[int, int] = DEFAULT_ATOM_WINDOW,
) -> BlendComposition:
    """Counts closest to ``molality`` and the solvents' ``mole_fractions``, with a total
    atom count inside ``atom_window`` (inclusive).

    The score is the relative molality error plus the largest mole-fraction error; ties
    go to the larger system. Deterministic; raises :class:`ValidationError` when nothing fits.
    """
    lo, hi = atom_window
    if molality <= 0 or not math.isfinite(molality) or lo < 1 or hi < lo:
        raise ValidationError(f"need molality > 0 and 1 <= low <= high atoms, got {molality}")
    nu_plus, nu_minus = salt_stoichiometry(cation, anion)
    salt_atoms = nu_plus * cation.n_atoms + nu_minus * anion.n_atoms
    best: tuple[float, int, tuple[int, ...], int] | None = None
    smallest = min(m.n_atoms for m in solvents)
    for total in range(len(solvents), hi // smallest + 1):
        counts = _split(total, mole_fractions)
        if min(counts) < 1:
            continue
        solvent_mass = sum(n * m.mass_amu for n, m in zip(counts, solvents, strict=True))
        solvent_atoms = sum(n * m.n_atoms for n, m in zip(counts, solvents, strict=True))
        exact = molality * solvent_mass / 1000.0
        for n_salt in {max(1, math.floor(exact)), max(1, math.floor(exact) + 1)}:
            atoms = solvent_atoms + n_salt * salt_atoms
            if not lo <= atoms <= hi:
                continue
            b = 1000.0 * n_salt / solvent_mass
            x_err = max(abs(n / total - x) for n, x in zip(counts, mole_fractions, strict=True))
            key = (round(abs(b - molality) / molality + x_err, 12), -atoms, counts, n_salt)
            if best is None or key < best:
                best = key
    if best is None:
        names = "/".join(m.name for m in solvents)
        raise ValidationError(
            f"no composition of {cation.name}{anion.name} in {names} at {molality} mol/kg "
            f"has between {lo} and {hi} atoms"
        )
    _, neg_atoms, counts, n_salt = best
    mass = sum(n * m.mass_amu for n, m in zip(counts, solvents, strict=True))
    return BlendComposition(
        cation=cation,
        anion=anion,
        solvents=tuple(zip(solvents, counts, strict=True)),
        n_salt=n_salt,
        n_cations=nu_plus * n_salt,
        n_anions=nu_minus * n_salt,
        molality_mol_kg=1000.0 * n_salt / mass,
        target_molality_mol_kg=molality,
        n_atoms=-neg_atoms,
    )


def _split(total: int, fractions: Sequence[float]) -> tuple[int, ...]:
    """Integers summing to ``total`` closest to ``fractions`` (largest remainder)."""
    raw = [f * total for f in fractions]
    counts = [math.floor(r) for r in raw]
    order = sorted(range(len(raw)), key=lambda i: (counts[i] - raw[i], i))
    for i in order[: total - sum(counts)]:
        counts[i] += 1
    return tuple(counts)
