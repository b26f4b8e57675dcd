"""Pair terms beyond plain Lennard-Jones: the TIP4P massless site and Born–Mayer–Huggins.

Both are values a :class:`~simwright.forcefields.base.ForceField` carries next to its
atom types; the LAMMPS templates turn them into ``lj/cut/tip4p/long`` (with
``pppm/tip4p``) and ``born/coul/long`` pair styles. Units as everywhere in
:mod:`simwright.forcefields`: eV, Å, e.
"""

from __future__ import annotations

from dataclasses import dataclass

from simwright.errors import ValidationError


@dataclass(frozen=True)
class Tip4pSite:
    """The massless charge site M of a four-site water model.

    M lies on the bisector of the H–O–H angle at ``om_distance_a`` from the oxygen;
    the oxygen type's charge is carried by M (LAMMPS moves it there), the hydrogens
    keep theirs. ``bond_type`` and ``angle_type`` name the O–H bond and the H–O–H
    angle, which must be rigid (SHAKE), as the site is placed from them.
    """

    oxygen_type: str
    hydrogen_type: str
    bond_type: str
    angle_type: str
    om_distance_a: float

    def __post_init__(self) -> None:
        if not 0 < self.om_distance_a < 1.0:
            raise ValidationError(
                f"TIP4P O–M distance must lie in (0, 1) Å, got {self.om_distance_a}"
            )


@dataclass(frozen=True)
class BornPair:
    """Born–Mayer–Huggins repulsion and dispersion of one type pair (Tosi–Fumi form).

    φ(r) = A exp((σ − r)/ρ) − C/r⁶ − D/r⁸ (plus the Coulomb term of the charges):
    ``a_ev`` = A (eV, the Pauling factor already included), ``rho_a`` = ρ (Å),
    ``sigma_a`` = σ (Å, the sum of the ionic radii), ``c_ev_a6`` = C (eV·Å⁶) and
    ``d_ev_a8`` = D (eV·Å⁸), both attractive as written here. LAMMPS' ``born``
    adds +D/r⁸, so the template writes −D.
    """

    type_a: str
    type_b: str
    a_ev: float
    rho_a: float
    sigma_a: float
    c_ev_a6: float
    d_ev_a8: float

    def __post_init__(self) -> None:
        if not self.a_ev > 0 or not self.rho_a > 0 or self.sigma_a < 0:
            raise ValidationError(
                f"Born pair {self.type_a}-{self.type_b}: A and ρ must be positive, σ >= 0"
            )
        if self.c_ev_a6 < 0 or self.d_ev_a8 < 0:
            raise ValidationError(
                f"Born pair {self.type_a}-{self.type_b}: C and D are attractive magnitudes (>= 0)"
            )

    def matches(self, type_a: str, type_b: str) -> bool:
        """True when this is the pair ``type_a``–``type_b`` (in either order)."""
        return {self.type_a, self.type_b} == {type_a, type_b}
