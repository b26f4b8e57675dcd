"""The Arrhenius fit recovers a known activation energy and extrapolates with errors."""

from __future__ import annotations

import numpy as np
import pytest

from simwright.analysis.arrhenius import fit_arrhenius
from simwright.errors import ValidationError
from simwright.units import KB_EV_K


def test_an_exact_arrhenius_law_is_recovered() -> None:
    t = np.array([500.0, 650.0, 800.0])
    d = 3.0 * np.exp(-0.25 / (KB_EV_K * t))
    fit = fit_arrhenius(t, d, 0.1 * d)
    assert fit.ea_ev == pytest.approx(0.25, rel=1e-9)
    assert fit.ln_d0 == pytest.approx(np.log(3.0), rel=1e-9)
    value, _ = fit.at(300.0)
    assert value == pytest.approx(3.0 * np.exp(-0.25 / (KB_EV_K * 300.0)), rel=1e-9)
    # two points fix the line exactly; the error comes from the 10 % uncertainties of D
    two = fit_arrhenius(t[[0, 2]], d[[0, 2]], 0.1 * d[[0, 2]])
    assert two.ea_ev == pytest.approx(0.25, rel=1e-9)
    expected = KB_EV_K * np.hypot(0.1, 0.1) / (1 / 500.0 - 1 / 800.0)
    assert two.ea_err_ev == pytest.approx(expected, rel=1e-6)
    low, mid = two.at(300.0), two.at(650.0)
    assert low[1] / low[0] > 0.1 > mid[1] / mid[0]  # extrapolation widens the relative error


def test_noisy_points_give_an_error_that_covers_the_truth() -> None:
    rng = np.random.default_rng(3)
    t = np.array([400.0, 500.0, 600.0, 700.0, 800.0])
    d = 2.0 * np.exp(-0.3 / (KB_EV_K * t)) * np.exp(rng.normal(0, 0.1, t.size))
    fit = fit_arrhenius(t, d, 0.1 * d)
    assert abs(fit.ea_ev - 0.3) < 3 * fit.ea_err_ev


def test_fewer_than_two_temperatures_or_no_diffusion_are_refused() -> None:
    with pytest.raises(ValidationError, match="two distinct temperatures"):
        fit_arrhenius([500.0, 500.0], [1.0, 1.0], [0.1, 0.1])
    with pytest.raises(ValidationError, match="D > 0"):
        fit_arrhenius([500.0, 600.0], [1.0, -0.1], [0.1, 0.1])
