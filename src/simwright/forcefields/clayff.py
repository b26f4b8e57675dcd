"""ClayFF for clay minerals and their exchangeable cations, with SPC/E water, as cited data.

Clay atoms and ions: R. T. Cygan, J.-J. Liang, A. G. Kalinichev, "Molecular models
of hydroxide, oxyhydroxide, and clay phases and the development of a general force
field", J. Phys. Chem. B 108, 1255 (2004), Table 1 (partial charges; Lennard-Jones
D0 in kcal/mol and R0 in Å, with σ = R0 / 2^(1/6)). The values are quoted from
memory of that table; the clay charges and LJ parameters agree with an independent
public parameter file (M. Holmboe's MATLAB "atom" toolbox, ``clayff_2004_param.m``),
except ``ohs``, which that file gives as −1.0809 e (the value that makes one Mg
substitution exactly −1 e) where −1.0808 e is used here. Not checked against the
paper itself: **unverified**. ClayFF's aqueous ions are taken by Cygan et al. from
earlier work: Na+ from D. E. Smith and L. X. Dang, J. Chem. Phys. 100, 3757 (1994)
(σ = 2.350 Å, ε = 0.1300 kcal/mol); K+ from L. X. Dang, J. Am. Chem. Soc. 117, 6954
(1995) and Ca2+ from J. Åqvist, J. Phys. Chem. 94, 8021 (1990) — the K+ and Ca2+
attributions are **unverified** here.

Water is SPC/E (:mod:`simwright.forcefields.spce`, Berendsen et al. 1987), whose
oxygen LJ (0.6502 kJ/mol = 0.1554 kcal/mol, 3.166 Å) is ClayFF's water oxygen;
ClayFF's own water is flexible SPC — SPC/E rigid (SHAKE) is the choice of this
campaign, stated in every segment's ``model.json``.

Combining rule: arithmetic (Lorentz–Berthelot) for unlike pairs, as in ClayFF.
Cut-offs: LJ and real-space Coulomb 12 Å by default, PPPM accuracy 1e-4.
Units here: kcal/mol, Å, e (LAMMPS ``units real``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from simwright.forcefields.spce import (
    EPSILON_OO_KJ_MOL,
    Q_H_E,
    Q_O_E,
    R_OH_A,
    SIGMA_OO_A,
    SPCE_REFERENCE,
    THETA_HOH_DEG,
)

CLAYFF_REFERENCE: Final = (
    "R. T. Cygan, J.-J. Liang, A. G. Kalinichev, J. Phys. Chem. B 108, 1255 (2004)"
)
SMITH_DANG_REFERENCE: Final = "D. E. Smith, L. X. Dang, J. Chem. Phys. 100, 3757 (1994)"
DANG_K_REFERENCE: Final = "L. X. Dang, J. Am. Chem. Soc. 117, 6954 (1995) (unverified)"
AQVIST_REFERENCE: Final = "J. Åqvist, J. Phys. Chem. 94, 8021 (1990) (unverified)"

KJ_PER_KCAL: Final = 4.184
R0_TO_SIGMA: Final = 2.0 ** (-1.0 / 6.0)
"""ClayFF tabulates R0, the LJ minimum; σ = R0 · 2^(−1/6)."""

MIXING: Final = "arithmetic"
"""Unlike-pair LJ: ε_ij = √(ε_i ε_j), σ_ij = (σ_i + σ_j)/2 (ClayFF's rule)."""


@dataclass(frozen=True)
class ClayffType:
    """One atom type: ClayFF name, element, mass (amu), charge (e), ε (kcal/mol), σ (Å)."""

    name: str
    element: str
    mass_amu: float
    charge_e: float
    epsilon_kcal: float
    sigma_a: float
    source: str
    description: str


def _clayff(
    name: str, element: str, mass: float, q: float, d0: float, r0: float, what: str
) -> ClayffType:
    return ClayffType(
        name, element, mass, q, d0, r0 * R0_TO_SIGMA if r0 else 0.0, CLAYFF_REFERENCE, what
    )


_O_D0, _O_R0 = 0.1554, 3.5532
"""ClayFF oxygen LJ (all oxygen types): D0 (kcal/mol), R0 (Å)."""

CLAY_TYPES: Final[dict[str, ClayffType]] = {
    t.name: t
    for t in (
        _clayff("st", "Si", 28.0855, 2.1, 1.8405e-6, 3.7064, "tetrahedral silicon"),
        _clayff("at", "Al", 26.9815, 1.575, 1.8405e-6, 3.7064, "tetrahedral aluminium"),
        _clayff("ao", "Al", 26.9815, 1.575, 1.3298e-6, 4.7943, "octahedral aluminium"),
        _clayff("mgo", "Mg", 24.305, 1.36, 9.0298e-7, 5.9090, "octahedral magnesium"),
        _clayff("ob", "O", 15.9994, -1.05, _O_D0, _O_R0, "bridging oxygen"),
        _clayff(
            "obos",
            "O",
            15.9994,
            -1.1808,
            _O_D0,
            _O_R0,
            "bridging oxygen next to an octahedral substitution",
        ),
        _clayff(
            "obts",
            "O",
            15.9994,
            -1.1688,
            _O_D0,
            _O_R0,
            "bridging oxygen next to a tetrahedral substitution",
        ),
        _clayff("oh", "O", 15.9994, -0.95, _O_D0, _O_R0, "hydroxyl oxygen"),
        _clayff(
            "ohs", "O", 15.9994, -1.0808, _O_D0, _O_R0, "hydroxyl oxygen next to a substitution"
        ),
        _clayff("ho", "H", 1.008, 0.425, 0.0, 0.0, "hydroxyl hydrogen"),
    )
}
"""Clay atom types of ClayFF (Cygan et al. 2004, Table 1; unverified, see module)."""

IONS: Final[dict[str, ClayffType]] = {
    "Na": ClayffType(
        "Na",
        "Na",
        22.9898,
        1.0,
        0.1301,
        2.6378 * R0_TO_SIGMA,
        f"{CLAYFF_REFERENCE}, from {SMITH_DANG_REFERENCE}",
        "aqueous sodium",
    ),
    "K": ClayffType(
        "K",
        "K",
        39.0983,
        1.0,
        0.1000,
        3.7423 * R0_TO_SIGMA,
        f"{CLAYFF_REFERENCE}, from {DANG_K_REFERENCE}",
        "aqueous potassium",
    ),
    "Ca": ClayffType(
        "Ca",
        "Ca",
        40.078,
        2.0,
        0.1000,
        3.2237 * R0_TO_SIGMA,
        f"{CLAYFF_REFERENCE}, from {AQVIST_REFERENCE}",
        "aqueous calcium",
    ),
}
"""Exchangeable cations as tabulated in ClayFF."""

WATER_TYPES: Final[dict[str, ClayffType]] = {
    "OW": ClayffType(
        "OW",
        "O",
        15.9994,
        Q_O_E,
        EPSILON_OO_KJ_MOL / KJ_PER_KCAL,
        SIGMA_OO_A,
        SPCE_REFERENCE,
        "SPC/E water oxygen",
    ),
    "HW": ClayffType("HW", "H", 1.008, Q_H_E, 0.0, 0.0, SPCE_REFERENCE, "SPC/E water hydrogen"),
}
"""SPC/E water (rigid: O–H 1.0 Å, H–O–H 109.47°)."""

WATER_GEOMETRY: Final = (R_OH_A, THETA_HOH_DEG)
"""SPC/E O–H length (Å) and H–O–H angle (degrees)."""

ALL_TYPES: Final[dict[str, ClayffType]] = {**CLAY_TYPES, **IONS, **WATER_TYPES}
"""Every type a clay system may contain, by name."""

SUBSTITUTION_CHARGE_E: Final = (1.36 - 1.575) + 4 * (-1.1808 + 1.05) + 2 * (-1.0808 + 0.95)
"""Charge change of one Mg-for-Al substitution with its 4 obos and 2 ohs: −0.9998 e.

ClayFF's rounded charges leave +0.0002 e per substitution once the cation's
+1 e is added: 20 substitutions leave +0.004 e in all."""


TET_SUBSTITUTION_CHARGE_E: Final = (1.575 - 2.1) + 4 * (-1.1688 + 1.05)
"""Charge change of one Al-for-Si substitution with its 4 obts: −1.0002 e."""


def clayff_sources() -> dict[str, str]:
    """Each model part with its source (for ``model.json`` and reports)."""
    return {
        "clay": f"ClayFF: {CLAYFF_REFERENCE} (values unverified against Table 1)",
        "Na": IONS["Na"].source,
        "K": IONS["K"].source,
        "Ca": IONS["Ca"].source,
        "water": f"SPC/E, rigid (SHAKE): {SPCE_REFERENCE}",
        "mixing": "arithmetic (Lorentz–Berthelot), as ClayFF",
    }
