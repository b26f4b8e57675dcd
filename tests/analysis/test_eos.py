"""Equation-of-state fits keep B0', the fitted curve and the residuals; the plot draws them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simwright.analysis.eos import eos_plot, fit_eos, pressure_derivative
from simwright.units import EV_A3_GPA


def birch_murnaghan(v: np.ndarray, e0: float, b0: float, bp: float, v0: float) -> np.ndarray:
    eta = (v0 / v) ** (2.0 / 3.0)
    return e0 + 9 * v0 * b0 / 16 * ((eta - 1) ** 3 * bp + (eta - 1) ** 2 * (6 - 4 * eta))


@pytest.mark.parametrize("eos", ["birchmurnaghan", "sj"])
def test_b0_prime_is_recovered_from_an_exact_birch_murnaghan_curve(eos: str) -> None:
    b0 = 140.0 / EV_A3_GPA
    volumes = np.linspace(11.0, 12.6, 11)
    energies = birch_murnaghan(volumes, -3.54, b0, 5.2, 11.8)
    fit = fit_eos(volumes, energies, eos)
    assert fit.b0_gpa == pytest.approx(140.0, rel=2e-3)
    assert fit.b0_prime == pytest.approx(5.2, rel=0.03)
    assert fit.rms_residual_ev < 1e-5


def test_the_pressure_derivative_of_a_murnaghan_solid() -> None:
    # Murnaghan E(V) has B' constant: E = B V/B' ((V0/V)^B'/(B'-1) + 1) + const
    b, bp, v0 = 1.0, 4.0, 10.0

    def energy(v: np.ndarray) -> np.ndarray:
        return b * v / bp * ((v0 / v) ** bp / (bp - 1) + 1)

    assert pressure_derivative(energy, v0) == pytest.approx(bp, rel=1e-4)


def test_the_plot_is_written_with_curve_and_residuals(tmp_path: Path) -> None:
    volumes = np.linspace(11.0, 12.6, 7)
    energies = (
        birch_murnaghan(volumes, -3.5, 0.8, 4.5, 11.8) + np.array([1, -1, 1, -1, 1, -1, 1]) * 1e-4
    )
    fit = fit_eos(volumes, energies, "birchmurnaghan")
    assert fit.curve is not None and len(fit.curve[0]) == 200
    assert fit.residuals_ev is not None and np.abs(fit.residuals_ev).max() < 3e-4
    path = eos_plot(tmp_path / "eos.png", volumes, energies, fit, "test")
    assert path.stat().st_size > 10_000
