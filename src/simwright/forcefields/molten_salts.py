"""Alkali halide melts: the Born–Mayer–Huggins potential with Tosi–Fumi parameters.

φ_ij(r) = q_i q_j / r + β_ij b exp((σ_i + σ_j − r)/ρ) − C_ij/r⁶ − D_ij/r⁸, with formal
charges ±1 e. For NaCl, from M. P. Tosi and F. G. Fumi, "Ionic sizes and Born
repulsive parameters in the NaCl-type alkali halides—II", J. Phys. Chem. Solids 25,
45 (1964): b = 0.338 × 10⁻¹⁹ J, ρ = 0.317 Å, ionic radii σ(Na⁺) = 1.170 Å,
σ(Cl⁻) = 1.585 Å, Pauling factors β = 1 + z_i/n_i + z_j/n_j with n = 8 for both ions
(β₊₊ = 1.25, β₊₋ = 1.00, β₋₋ = 0.75); the dispersion constants are those Tosi and Fumi
took from J. E. Mayer, J. Chem. Phys. 1, 270 (1933): C₊₊, C₊₋, C₋₋ = 1.68, 11.2, 116
× 10⁻⁷⁹ J·m⁶ and D₊₊, D₊₋, D₋₋ = 0.8, 13.9, 233 × 10⁻⁹⁹ J·m⁸. LAMMPS runs it as
``pair_style born/coul/long`` with PPPM.
"""

from __future__ import annotations

from typing import Final

from simwright.forcefields.base import AtomType, ForceField, KSpace, MoleculeTemplate, PairStyle
from simwright.forcefields.pair_terms import BornPair

J_TO_EV: Final = 1.0 / 1.602176634e-19
"""One joule in eV."""

TOSI_FUMI_REFERENCE: Final = (
    "M. P. Tosi, F. G. Fumi, J. Phys. Chem. Solids 25, 45 (1964); dispersion from "
    "J. E. Mayer, J. Chem. Phys. 1, 270 (1933)"
)
"""Where the NaCl Born–Mayer–Huggins parameters come from."""

B_NACL_J: Final = 0.338e-19
"""Repulsion constant b (J), Tosi & Fumi 1964."""

RHO_NACL_A: Final = 0.317
"""Repulsion range ρ (Å) of NaCl, Tosi & Fumi 1964."""

RADIUS_A: Final = {"Na": 1.170, "Cl": 1.585}
"""Tosi–Fumi ionic radii σ_i (Å)."""

PAULING: Final = {("Na", "Na"): 1.25, ("Na", "Cl"): 1.00, ("Cl", "Cl"): 0.75}
"""Pauling factors β_ij = 1 + z_i/n_i + z_j/n_j (n = 8 for Na⁺ and Cl⁻)."""

C_1E79_J_M6: Final = {("Na", "Na"): 1.68, ("Na", "Cl"): 11.2, ("Cl", "Cl"): 116.0}
"""Dipole–dipole dispersion C_ij in 10⁻⁷⁹ J·m⁶ (Mayer 1933 via Tosi & Fumi)."""

D_1E99_J_M8: Final = {("Na", "Na"): 0.8, ("Na", "Cl"): 13.9, ("Cl", "Cl"): 233.0}
"""Dipole–quadrupole dispersion D_ij in 10⁻⁹⁹ J·m⁸ (Mayer 1933 via Tosi & Fumi)."""


def _pair(a: str, b: str) -> BornPair:
    key = (a, b)
    # 1e-79 J m^6 = 1e-19 J Å^6 and 1e-99 J m^8 = 1e-19 J Å^8
    return BornPair(
        type_a=a,
        type_b=b,
        a_ev=PAULING[key] * B_NACL_J * J_TO_EV,
        rho_a=RHO_NACL_A,
        sigma_a=RADIUS_A[a] + RADIUS_A[b],
        c_ev_a6=C_1E79_J_M6[key] * 1e-19 * J_TO_EV,
        d_ev_a8=D_1E99_J_M8[key] * 1e-19 * J_TO_EV,
    )


def nacl_tosi_fumi(cutoff_a: float = 9.0, pppm_accuracy: float = 1.0e-5) -> ForceField:
    """Molten (or crystalline) NaCl: Born–Mayer–Huggins with Tosi–Fumi parameters, PPPM."""
    ions = (AtomType("Na", "Na", 22.98977, 1.0), AtomType("Cl", "Cl", 35.453, -1.0))
    return ForceField(
        name="nacl_tosi_fumi",
        atom_types=ions,
        molecules=(MoleculeTemplate("na+", ("Na",)), MoleculeTemplate("cl-", ("Cl",))),
        pair_style=PairStyle("born/coul/long", cutoff_a),
        reference=TOSI_FUMI_REFERENCE,
        kspace=KSpace(pppm_accuracy),
        description="NaCl, Born–Mayer–Huggins (Tosi–Fumi) with formal charges, PPPM",
        born_pairs=(_pair("Na", "Na"), _pair("Na", "Cl"), _pair("Cl", "Cl")),
    )
