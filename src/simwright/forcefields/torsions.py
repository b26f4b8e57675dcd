"""Torsions of flexible force fields: OPLS Fourier dihedrals and planar impropers.

Units as everywhere in :mod:`simwright.forcefields`: energies in eV.

A proper dihedral i–j–k–l has the OPLS Fourier form (LAMMPS ``dihedral_style opls``)

    E(φ) = ½K₁(1 + cos φ) + ½K₂(1 − cos 2φ) + ½K₃(1 + cos 3φ) + ½K₄(1 − cos 4φ)

with φ = 180° for the trans arrangement. An improper keeps an sp² centre planar in
the OPLS form E(φ) = K (1 + d cos nφ) (LAMMPS ``improper_style cvff``; OPLS-AA uses
d = −1, n = 2, i.e. V₂/2 (1 − cos 2φ) with K = V₂/2).
"""

from __future__ import annotations

from dataclasses import dataclass

from simwright.errors import ValidationError


@dataclass(frozen=True)
class DihedralType:
    """An OPLS Fourier dihedral type: K₁…K₄ in eV (see the module docstring)."""

    name: str
    k_ev: tuple[float, float, float, float]

    def __post_init__(self) -> None:
        if len(self.k_ev) != 4:
            raise ValidationError(f"dihedral type {self.name!r} needs four Fourier constants")


@dataclass(frozen=True)
class ImproperType:
    """A planar improper E = K (1 + d cos nφ): K in eV, d = ±1, n = 0…6."""

    name: str
    k_ev: float
    sign: int = -1
    multiplicity: int = 2

    def __post_init__(self) -> None:
        if self.sign not in (-1, 1) or not 0 <= self.multiplicity <= 6 or self.k_ev < 0:
            raise ValidationError(f"improper type {self.name!r}: need K >= 0, d = ±1 and n in 0..6")


def rb_to_fourier_kj(c: tuple[float, ...]) -> tuple[float, float, float, float]:
    """OPLS Fourier constants (F₁…F₄) from Ryckaert–Bellemans C₀…C₅, same energy unit.

    GROMACS stores OPLS-AA torsions in the RB form with ψ = φ − 180°; the inverse of
    its published relations is F₁ = −2C₁ − 3C₃/2, F₂ = −C₂ − C₄, F₃ = −C₃/2,
    F₄ = −C₄/4 (C₅ must be 0).
    """
    if len(c) != 6 or abs(c[5]) > 1e-12:
        raise ValidationError(f"an OPLS torsion in RB form has six terms with C5 = 0, got {c}")
    c1, c2, c3, c4 = c[1], c[2], c[3], c[4]
    return (-2.0 * c1 - 1.5 * c3, -c2 - c4, -0.5 * c3, -0.25 * c4)
