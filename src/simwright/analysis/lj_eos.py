"""The Lennard-Jones fluid's equation of state of Johnson, Zollweg and Gubbins (1993).

J. K. Johnson, J. A. Zollweg and K. E. Gubbins, "The Lennard-Jones equation of
state revisited", Mol. Phys. 78, 591 (1993): a 33-parameter modified
Benedict–Webb–Rubin fit (the 32 coefficients x₁…x₃₂ of their Table 10 and
γ = 3) to MD and MC data of the **full** LJ potential (truncated simulations
corrected with long-range tails). Everything is in reduced units: T* = k_B T/ε,
ρ* = ρσ³, p* = pσ³/ε, energies in ε.

Residual (excess over the ideal gas at the same T, ρ) Helmholtz energy per particle
A_r = Σᵢ aᵢ(T) ρⁱ/i + Σᵢ bᵢ(T) Gᵢ(ρ), pressure p = ρT + Σ aᵢ ρ^{i+1} + F Σ bᵢ ρ^{2i+1}
with F = exp(−γρ²), and excess chemical potential μ_ex = A_r + (p − ρT)/ρ.

:func:`cut_lrc_mu` is the mean-field (g(r) = 1 beyond r_c) chemical potential the
part of the pair potential beyond r_c contributes: a fluid with the potential
truncated (not shifted) at r_c has μ_ex ≈ μ_ex(full) − cut_lrc_mu(ρ, r_c).
"""

from __future__ import annotations

import math
from typing import Final

GAMMA: Final = 3.0
"""The γ of the exponential terms."""

X: Final = (
    0.8623085097507421,
    2.976218765822098,
    -8.402230115796038,
    0.1054136629203555,
    -0.8564583828174598,
    1.582759470107601,
    0.7639421948305453,
    1.753173414312048,
    2.798291772190376e3,
    -4.8394220260857657e-2,
    0.9963265197721935,
    -3.698000291272493e1,
    2.084012299434647e1,
    8.305402124717285e1,
    -9.574799715203068e2,
    -1.477746229234994e2,
    6.398607852471505e1,
    1.603993673294834e1,
    6.805916615864377e1,
    -2.791293578795945e3,
    -6.245128304568454,
    -8.116836104958410e3,
    1.488735559561229e1,
    -1.059346754655084e4,
    -1.131607632802822e2,
    -8.867771540418822e3,
    -3.986982844450543e1,
    -4.689270299917261e3,
    2.593535277438717e2,
    -2.694523589434903e3,
    -7.218487631550215e2,
    1.721802063863269e2,
)
"""x₁…x₃₂ of Johnson, Zollweg and Gubbins, Mol. Phys. 78, 591 (1993), Table 10."""

REFERENCE: Final = (
    "J. K. Johnson, J. A. Zollweg, K. E. Gubbins, Mol. Phys. 78, 591 (1993): "
    "MBWR equation of state of the full LJ fluid, Table 10"
)


def _a(t: float) -> tuple[float, ...]:
    x = (0.0, *X)  # 1-based like the paper
    return (
        x[1] * t + x[2] * math.sqrt(t) + x[3] + x[4] / t + x[5] / t**2,
        x[6] * t + x[7] + x[8] / t + x[9] / t**2,
        x[10] * t + x[11] + x[12] / t,
        x[13],
        x[14] / t + x[15] / t**2,
        x[16] / t,
        x[17] / t + x[18] / t**2,
        x[19] / t**2,
    )


def _b(t: float) -> tuple[float, ...]:
    x = (0.0, *X)
    return (
        x[20] / t**2 + x[21] / t**3,
        x[22] / t**2 + x[23] / t**4,
        x[24] / t**2 + x[25] / t**3,
        x[26] / t**2 + x[27] / t**4,
        x[28] / t**2 + x[29] / t**3,
        x[30] / t**2 + x[31] / t**3 + x[32] / t**4,
    )


def _g(rho: float) -> list[float]:
    f = math.exp(-GAMMA * rho**2)
    g = [(1.0 - f) / (2.0 * GAMMA)]
    for i in range(2, 7):
        g.append(-(f * rho ** (2 * (i - 1)) - 2.0 * (i - 1) * g[-1]) / (2.0 * GAMMA))
    return g


def pressure(rho: float, t: float) -> float:
    """Reduced pressure p* of the full LJ fluid at ρ*, T*."""
    f = math.exp(-GAMMA * rho**2)
    attractive = sum(a * rho ** (i + 2) for i, a in enumerate(_a(t)))
    exponential = f * sum(b * rho ** (2 * i + 3) for i, b in enumerate(_b(t)))
    return rho * t + attractive + exponential


def residual_free_energy(rho: float, t: float) -> float:
    """Residual Helmholtz energy per particle A_r/(Nε) of the full LJ fluid."""
    power = sum(a * rho ** (i + 1) / (i + 1) for i, a in enumerate(_a(t)))
    return power + sum(b * g for b, g in zip(_b(t), _g(rho), strict=True))


def excess_chemical_potential(rho: float, t: float) -> float:
    """Excess chemical potential μ_ex/ε of the full LJ fluid at ρ*, T*."""
    if rho <= 0 or t <= 0:
        raise ValueError(f"density and temperature must be positive, got ρ*={rho}, T*={t}")
    return residual_free_energy(rho, t) + (pressure(rho, t) - rho * t) / rho


def cut_lrc_mu(rho: float, cutoff: float) -> float:
    """μ (ε) of the LJ tail beyond ``cutoff`` (σ), mean field: (16/3)πρ[(1/3)r_c⁻⁹ − r_c⁻³]."""
    return 16.0 / 3.0 * math.pi * rho * (cutoff**-9 / 3.0 - cutoff**-3)


def second_virial(t: float) -> float:
    """B₂*(T*) the equation of state implies (its low-density limit a₁/T)."""
    return _a(t)[0] / t


def truncated_fugacity(rho: float, t: float, cutoff: float) -> float:
    """Reduced fugacity f* at which an LJ fluid truncated at ``cutoff`` has density ρ*.

    f = ρT exp(μ_ex,cut/T) with μ_ex,cut = μ_ex(full, JZG) − the tail's mean-field μ.
    """
    mu_cut = excess_chemical_potential(rho, t) - cut_lrc_mu(rho, cutoff)
    return rho * t * math.exp(mu_cut / t)
