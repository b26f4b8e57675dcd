"""Ideal-gas, rigid-rotor, harmonic-oscillator thermochemistry of a molecule.

Translational, rotational, vibrational and electronic contributions to the zero-point
energy, enthalpy, entropy and Gibbs energy at temperature T and pressure p, as in
D. A. McQuarrie, *Statistical Mechanics* (1976), ch. 8, and J. W. Ochterski,
"Thermochemistry in Gaussian" (Gaussian, Inc., 2000). Frequencies below
``low_mode_cm`` are not treated differently (stated in reports); imaginary modes are
left out and must be handled before (the protocols do).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simwright.analysis.vibrations import AMU_KG, C_CM_S, masses_of

KB = 1.380649e-23
H_PLANCK = 6.62607015e-34
NA = 6.02214076e23
HARTREE_KJ_MOL = 2625.4996394799
"""Exact SI constants (2019) and the hartree in kJ/mol (CODATA 2018)."""

SYMMETRY_NUMBERS: dict[str, int] = {
    "C1": 1, "Ci": 1, "Cs": 1, "Coov": 1,
    "C2": 2, "C2v": 2, "C2h": 2, "Dooh": 2,
    "C3": 3, "C3v": 3, "C3h": 3,
    "C4": 4, "C4v": 4, "C4h": 4, "D2": 4, "D2d": 4, "D2h": 4,
    "C5v": 5, "C6v": 6, "D3": 6, "D3d": 6, "D3h": 6,
    "D4h": 8, "D4d": 8, "D5h": 10, "D5d": 10,
    "D6h": 12, "D6d": 12, "T": 12, "Td": 12, "Oh": 24, "Ih": 60,
}  # fmt: skip
"""Rotational symmetry number σ of each point group (the order of its rotational
subgroup)."""


@dataclass(frozen=True)
class Thermochemistry:
    """Energies in kJ/mol relative to the electronic energy, entropy in J/(mol K)."""

    temperature_k: float
    pressure_pa: float
    zpe_kj_mol: float
    thermal_enthalpy_kj_mol: float
    entropy_j_mol_k: float
    symmetry_number: int

    @property
    def gibbs_correction_kj_mol(self) -> float:
        """H_corr − T·S (kJ/mol), added to the electronic energy to give G."""
        return self.thermal_enthalpy_kj_mol - self.temperature_k * self.entropy_j_mol_k / 1000


def principal_moments(symbols: tuple[str, ...], positions_a: np.ndarray) -> np.ndarray:
    """Principal moments of inertia (kg m²), ascending."""
    m = masses_of(symbols) * AMU_KG
    r = np.asarray(positions_a) * 1e-10
    r = r - (m[:, None] * r).sum(0) / m.sum()
    inertia = np.zeros((3, 3))
    for mi, ri in zip(m, r, strict=True):
        inertia += mi * (ri @ ri * np.eye(3) - np.outer(ri, ri))
    return np.sort(np.linalg.eigvalsh(inertia))


def ideal_gas(
    symbols: tuple[str, ...],
    positions_a: np.ndarray,
    frequencies_cm: np.ndarray,
    *,
    multiplicity: int,
    symmetry_number: int,
    linear: bool,
    temperature_k: float = 298.15,
    pressure_pa: float = 101325.0,
) -> Thermochemistry:
    """ZPE, H − E_el and S of an ideal gas of the molecule (RRHO)."""
    t = temperature_k
    kt = KB * t
    mass = masses_of(symbols).sum() * AMU_KG
    # translation
    q_tr = (2 * np.pi * mass * kt / H_PLANCK**2) ** 1.5 * kt / pressure_pa
    s_tr = KB * (np.log(q_tr) + 2.5)
    h_tr = 2.5 * kt
    # rotation
    n = len(symbols)
    if n == 1:
        s_rot, h_rot = 0.0, 0.0
    elif linear:
        inertia = principal_moments(symbols, positions_a)[-1]
        theta = H_PLANCK**2 / (8 * np.pi**2 * inertia * KB)
        s_rot = KB * (np.log(t / (symmetry_number * theta)) + 1)
        h_rot = kt
    else:
        moments = principal_moments(symbols, positions_a)
        thetas = H_PLANCK**2 / (8 * np.pi**2 * moments * KB)
        q_rot = np.sqrt(np.pi) / symmetry_number * np.sqrt(t**3 / np.prod(thetas))
        s_rot = KB * (np.log(q_rot) + 1.5)
        h_rot = 1.5 * kt
    # vibration (real modes only)
    nu = np.asarray([f for f in frequencies_cm if f > 0]) * C_CM_S
    theta_v = H_PLANCK * nu / KB
    zpe = float(np.sum(H_PLANCK * nu) / 2)
    x = theta_v / t
    e_vib = zpe + float(np.sum(KB * theta_v / np.expm1(x)))
    s_vib = float(np.sum(KB * (x / np.expm1(x) - np.log1p(-np.exp(-x)))))
    # electronic
    s_el = KB * np.log(multiplicity)
    per_mol = NA / 1000
    return Thermochemistry(
        temperature_k=t,
        pressure_pa=pressure_pa,
        zpe_kj_mol=zpe * per_mol,
        thermal_enthalpy_kj_mol=(h_tr + h_rot + e_vib) * per_mol,
        entropy_j_mol_k=(s_tr + s_rot + s_vib + s_el) * NA,
        symmetry_number=symmetry_number,
    )
