"""Ideal-gas thermochemistry and harmonic analysis against exact cases."""

from __future__ import annotations

import numpy as np

from simwright.analysis.thermochemistry import ideal_gas
from simwright.analysis.vibrations import harmonic_analysis


def test_monatomic_entropy_is_sackur_tetrode() -> None:
    th = ideal_gas(
        ("Ar",),
        np.zeros((1, 3)),
        np.array([]),
        multiplicity=1,
        symmetry_number=1,
        linear=True,
        pressure_pa=1e5,
    )
    # argon at 298.15 K, 1 bar: S° = 154.846 J/(mol K) (CODATA Key Values, Cox et al. 1989),
    # which the Sackur–Tetrode equation reproduces; H − E = 5/2 RT
    assert abs(th.thermal_enthalpy_kj_mol - 2.5 * 8.314462618e-3 * 298.15) < 1e-6
    assert abs(th.entropy_j_mol_k - 154.846) < 0.05
    assert th.zpe_kj_mol == 0.0


def test_diatomic_frequency_from_a_spring() -> None:
    # H2 along z with a bond force constant k (hartree/bohr²): ω = sqrt(k/μ)
    k = 0.37
    h = np.zeros((6, 6))
    for a, b, s in ((2, 2, 1), (5, 5, 1), (2, 5, -1), (5, 2, -1)):
        h[a, b] = s * k
    vib = harmonic_analysis(("H", "H"), np.array([[0, 0, 0], [0, 0, 0.74]]), h)
    assert vib.linear and len(vib.frequencies_cm) == 1
    mu = 1.00782503223 / 2 * 1.66053906660e-27
    omega = np.sqrt(k * 4.3597447222071e-18 / (0.529177210903e-10) ** 2 / mu)
    expected = omega / (2 * np.pi * 2.99792458e10)
    assert abs(vib.frequencies_cm[0] - expected) < 1e-6 * expected
    assert vib.imaginary == ()
