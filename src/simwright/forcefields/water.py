"""Rigid water models beyond SPC/E: TIP3P (three sites) and TIP4P/2005 (four sites).

Both share the experimental gas-phase geometry r(OH) = 0.9572 Å, ∠HOH = 104.52°,
held rigid by SHAKE; only oxygen carries Lennard-Jones interactions.

**TIP3P** — W. L. Jorgensen, J. Chandrasekhar, J. D. Madura, R. W. Impey, M. L. Klein,
"Comparison of simple potential functions for simulating liquid water",
J. Chem. Phys. 79, 926 (1983), Table I: q_H = +0.417 e, q_O = −0.834 e and the O–O
repulsion and dispersion constants A = 582.0 × 10³ kcal·Å¹²/mol, C = 595.0 kcal·Å⁶/mol,
i.e. σ = (A/C)^(1/6) = 3.1507 Å and ε = C²/(4A) = 0.15207 kcal/mol. This is the
**original** model (no LJ on hydrogen), not the CHARMM-modified variant that adds LJ
sites on H (ε_H = 0.046 kcal/mol); the original paper truncated interactions at
8.5 Å, simwright uses PPPM electrostatics with a 9 Å real-space cutoff.

**TIP4P/2005** — J. L. F. Abascal and C. Vega, "A general purpose model for the
condensed phases of water: TIP4P/2005", J. Chem. Phys. 123, 234505 (2005), Table I:
ε/k_B = 93.2 K, σ = 3.1589 Å, q_H = +0.5564 e, q_M = −1.1128 e, d(OM) = 0.1546 Å.
LAMMPS runs it with ``pair_style lj/cut/tip4p/long`` and ``kspace_style pppm/tip4p``:
the oxygen type carries q_M and the pair style places it at M on the HOH bisector.
The paper used Ewald sums, an 8.5 Å LJ cutoff and the long-range LJ (tail)
correction; simwright's default is a 9 Å cutoff with the tail correction on.
"""

from __future__ import annotations

from typing import Final

from simwright.forcefields.base import (
    AngleType,
    AtomType,
    BondType,
    ForceField,
    KSpace,
    LJParams,
    MoleculeTemplate,
    PairStyle,
    Shake,
)
from simwright.forcefields.pair_terms import Tip4pSite
from simwright.units import KB_EV_K

EV_PER_KCAL_MOL: Final = 4.184 / 96.48533212
"""One kcal/mol (thermochemical, 4.184 kJ) in eV per particle."""

R_OH_A: Final = 0.9572
"""O–H bond length (Å) of TIP3P and TIP4P/2005 (the gas-phase geometry)."""

THETA_HOH_DEG: Final = 104.52
"""H–O–H angle (degrees) of TIP3P and TIP4P/2005."""

TIP3P_REFERENCE: Final = (
    "W. L. Jorgensen, J. Chandrasekhar, J. D. Madura, R. W. Impey, M. L. Klein, "
    "J. Chem. Phys. 79, 926 (1983) (original TIP3P, not the CHARMM variant)"
)
"""Where the TIP3P parameters come from."""

TIP3P_A_KCAL_A12: Final = 582.0e3
"""O–O repulsion constant A (kcal·Å¹²/mol), Jorgensen et al. 1983, Table I."""

TIP3P_C_KCAL_A6: Final = 595.0
"""O–O dispersion constant C (kcal·Å⁶/mol), Jorgensen et al. 1983, Table I."""

TIP3P_Q_H_E: Final = 0.417
"""TIP3P hydrogen charge (e); the oxygen carries −2 q_H."""

TIP4P2005_REFERENCE: Final = "J. L. F. Abascal, C. Vega, J. Chem. Phys. 123, 234505 (2005)"
"""Where the TIP4P/2005 parameters come from."""

TIP4P2005_EPSILON_OVER_KB_K: Final = 93.2
"""O–O LJ well depth over k_B (K), Abascal & Vega 2005."""

TIP4P2005_SIGMA_A: Final = 3.1589
"""O–O LJ diameter (Å), Abascal & Vega 2005."""

TIP4P2005_Q_H_E: Final = 0.5564
"""TIP4P/2005 hydrogen charge (e); the M site carries −2 q_H."""

TIP4P2005_OM_A: Final = 0.1546
"""Distance from O to the massless charge site M (Å), Abascal & Vega 2005."""


def tip3p_lj() -> LJParams:
    """The TIP3P O–O Lennard-Jones parameters derived from the paper's A and C."""
    sigma = (TIP3P_A_KCAL_A12 / TIP3P_C_KCAL_A6) ** (1.0 / 6.0)
    epsilon = TIP3P_C_KCAL_A6**2 / (4.0 * TIP3P_A_KCAL_A12) * EV_PER_KCAL_MOL
    return LJParams(epsilon, sigma)


def _water(o_charge: float, h_charge: float, lj: LJParams) -> tuple[AtomType, ...]:
    return (AtomType("OW", "O", 15.9994, o_charge, lj), AtomType("HW", "H", 1.008, h_charge))


_WATER: Final = MoleculeTemplate(
    name="water",
    atom_types=("OW", "HW", "HW"),
    bonds=((0, 1, "OH"), (0, 2, "OH")),
    angles=((1, 0, 2, "HOH"),),
)


def tip3p(cutoff_a: float = 9.0, pppm_accuracy: float = 1.0e-4) -> ForceField:
    """Original TIP3P water (rigid, SHAKE) with PPPM electrostatics."""
    return ForceField(
        name="tip3p",
        atom_types=_water(-2 * TIP3P_Q_H_E, TIP3P_Q_H_E, tip3p_lj()),
        molecules=(_WATER,),
        pair_style=PairStyle("lj/cut/coul/long", cutoff_a),
        reference=TIP3P_REFERENCE,
        bond_types=(BondType("OH", R_OH_A),),
        angle_types=(AngleType("HOH", THETA_HOH_DEG),),
        kspace=KSpace(pppm_accuracy),
        constraint=Shake(),
        description="rigid original TIP3P water (SHAKE), LJ on oxygen only, PPPM",
    )


def tip4p2005(cutoff_a: float = 9.0, pppm_accuracy: float = 1.0e-4) -> ForceField:
    """TIP4P/2005 water (rigid, SHAKE): lj/cut/tip4p/long with pppm/tip4p, LJ tail on."""
    lj = LJParams(TIP4P2005_EPSILON_OVER_KB_K * KB_EV_K, TIP4P2005_SIGMA_A)
    return ForceField(
        name="tip4p2005",
        atom_types=_water(-2 * TIP4P2005_Q_H_E, TIP4P2005_Q_H_E, lj),
        molecules=(_WATER,),
        pair_style=PairStyle("lj/cut/tip4p/long", cutoff_a, tail=True),
        reference=TIP4P2005_REFERENCE,
        bond_types=(BondType("OH", R_OH_A),),
        angle_types=(AngleType("HOH", THETA_HOH_DEG),),
        kspace=KSpace(pppm_accuracy, "pppm/tip4p"),
        constraint=Shake(),
        description="rigid TIP4P/2005 water (SHAKE), M site 0.1546 Å from O, PPPM/TIP4P",
        tip4p=Tip4pSite("OW", "HW", "OH", "HOH", TIP4P2005_OM_A),
    )
