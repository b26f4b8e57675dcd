"""Elastic-constant analysis: stiffness fits, Voigt–Reuss–Hill, Born criteria."""

from __future__ import annotations

import numpy as np
import pytest

from simwright.analysis.elastic import (
    born_cubic,
    cubic_constants,
    deformation,
    fit_stiffness,
    to_voigt,
    vrh,
)


def cubic(c11: float, c12: float, c44: float) -> np.ndarray:
    c = np.zeros((6, 6))
    c[:3, :3] = c12
    np.fill_diagonal(c[:3, :3], c11)
    c[3:, 3:] = np.eye(3) * c44
    return c


def test_an_isotropic_solid_has_equal_voigt_and_reuss_moduli() -> None:
    lam, mu = 60.0, 30.0
    moduli = vrh(cubic(lam + 2 * mu, lam, mu))
    assert moduli.b_voigt == pytest.approx(lam + 2 * mu / 3) == pytest.approx(moduli.b_reuss)
    assert moduli.g_voigt == pytest.approx(mu) == pytest.approx(moduli.g_reuss)
    assert moduli.poisson == pytest.approx(lam / (2 * (lam + mu)))
    assert moduli.young == pytest.approx(mu * (3 * lam + 2 * mu) / (lam + mu))


def test_an_anisotropic_crystal_has_reuss_below_voigt() -> None:
    moduli = vrh(cubic(170.0, 123.0, 76.0))  # copper-like: strongly anisotropic
    assert moduli.g_reuss < moduli.g_hill < moduli.g_voigt
    assert moduli.b_hill == pytest.approx((170 + 2 * 123) / 3)


def test_the_fit_recovers_a_linear_stiffness_from_noisy_stresses() -> None:
    truth = cubic(165.0, 64.0, 80.0)
    rng = np.random.default_rng(3)
    rows = [(j, e) for j in range(6) for e in (-0.01, -0.005, 0.005, 0.01)]
    patterns = np.array([j for j, _ in rows])
    strains = np.array([e for _, e in rows])
    applied = np.zeros((len(rows), 6))
    applied[np.arange(len(rows)), patterns] = strains
    stresses = applied @ truth.T + 0.2 + rng.normal(0, 0.005, (len(rows), 6))
    stiffness = fit_stiffness(patterns, strains, stresses)
    constants = cubic_constants(stiffness)
    for name, value in (("c11", 165.0), ("c12", 64.0), ("c44", 80.0)):
        mean, err = constants[name]
        assert mean == pytest.approx(value, abs=5 * err + 1e-9) and 0 < err < 1.0


def test_a_shear_deformation_is_half_the_engineering_strain_each_side() -> None:
    f = deformation(5, 0.02)
    assert f[0, 1] == f[1, 0] == pytest.approx(0.01)
    stress = np.array([[1.0, 6.0, 5.0], [6.0, 2.0, 4.0], [5.0, 4.0, 3.0]])
    assert to_voigt(stress).tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]


def test_born_criteria_flag_an_unstable_cubic_crystal() -> None:
    assert all(ok for _, _, ok in born_cubic(170.0, 123.0, 76.0))
    failed = [text for text, _, ok in born_cubic(100.0, 120.0, 50.0) if not ok]
    assert failed == ["C11 − C12 > 0"]
