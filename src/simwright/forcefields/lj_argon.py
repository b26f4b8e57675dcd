"""Lennard-Jones argon.

Parameters from A. Rahman, "Correlations in the motion of atoms in liquid
argon", Phys. Rev. 136, A405 (1964): ε/k_B = 119.8 K, σ = 3.405 Å, m = 39.948 amu.
The cutoff defaults to 2.5 σ, with the pair energy shifted to zero there.
"""

from __future__ import annotations

from typing import Final

from simwright.forcefields.base import AtomType, ForceField, LJParams, MoleculeTemplate, PairStyle
from simwright.units import KB_EV_K

ARGON_REFERENCE: Final = "A. Rahman, Phys. Rev. 136, A405 (1964)"
"""Where the argon parameters come from."""

EPSILON_OVER_KB_K: Final = 119.8
"""LJ well depth over Boltzmann's constant (K), Rahman 1964."""

SIGMA_A: Final = 3.405
"""LJ diameter (Å), Rahman 1964."""

MASS_AMU: Final = 39.948
"""Atomic mass of argon (amu)."""


def lj_argon(cutoff_sigma: float = 2.5, shift: bool = True) -> ForceField:
    """LJ argon with a cutoff of ``cutoff_sigma`` σ.

    ``shift`` (default) moves the pair energy to zero at the cutoff; forces are
    unchanged, but the total energy no longer jumps when a pair crosses the
    cutoff, which keeps NVE runs conserving energy.
    """
    argon = AtomType("Ar", "Ar", MASS_AMU, 0.0, LJParams(EPSILON_OVER_KB_K * KB_EV_K, SIGMA_A))
    return ForceField(
        name="lj_argon",
        atom_types=(argon,),
        molecules=(MoleculeTemplate("argon", ("Ar",)),),
        pair_style=PairStyle("lj/cut", cutoff_sigma * SIGMA_A, shift=shift),
        reference=ARGON_REFERENCE,
        description=f"Lennard-Jones argon, cutoff {cutoff_sigma:g} σ",
    )
