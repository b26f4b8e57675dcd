"""The JZG equation of state: checks against independent facts of the LJ fluid."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simwright.analysis import lj_eos


def _b2_by_quadrature(t: float) -> float:
    r = np.linspace(1e-3, 40.0, 400_001)
    u = 4.0 * (r**-12 - r**-6)
    return float(-2.0 * math.pi * np.trapezoid((np.exp(-u / t) - 1.0) * r * r, r))


@pytest.mark.parametrize("t", [1.5, 2.0, 3.0])
def test_the_low_density_limit_is_the_exact_second_virial_coefficient(t: float) -> None:
    # the fit's a1/T against B2 integrated from the LJ pair potential (within 0.02 σ³)
    assert lj_eos.second_virial(t) == pytest.approx(_b2_by_quadrature(t), abs=0.02)


def test_pressure_and_chemical_potential_derive_from_one_free_energy() -> None:
    rho, t, h = 0.5, 2.0, 1e-5
    a = lj_eos.residual_free_energy
    mu = ((rho + h) * a(rho + h, t) - (rho - h) * a(rho - h, t)) / (2 * h)
    p_excess = rho**2 * (a(rho + h, t) - a(rho - h, t)) / (2 * h)
    assert lj_eos.excess_chemical_potential(rho, t) == pytest.approx(mu, abs=1e-7)
    assert lj_eos.pressure(rho, t) - rho * t == pytest.approx(p_excess, abs=1e-7)


def test_the_critical_temperature_is_near_1_31() -> None:
    # JZG report T_c* ≈ 1.313: below it dp/dρ turns negative somewhere, above it does not
    rho = np.linspace(0.2, 0.45, 501)

    def min_slope(t: float) -> float:
        return float(np.gradient([lj_eos.pressure(r, t) for r in rho], rho).min())

    assert min_slope(1.30) < 0 < min_slope(1.33)


def test_the_truncated_fluid_needs_a_higher_fugacity_for_the_same_density() -> None:
    # the missing tail is attractive: without it the same density needs a richer reservoir
    assert lj_eos.cut_lrc_mu(0.5, 3.0) == pytest.approx(-0.3102, abs=1e-3)
    full = 0.5 * 2.0 * math.exp(lj_eos.excess_chemical_potential(0.5, 2.0) / 2.0)
    assert lj_eos.truncated_fugacity(0.5, 2.0, 3.0) > full


def test_nonsense_state_is_refused() -> None:
    with pytest.raises(ValueError, match="positive"):
        lj_eos.excess_chemical_potential(0.0, 2.0)
