"""C_p and α from a temperature scan and from NPT fluctuations, on series with known answers."""

from __future__ import annotations

import numpy as np
import pytest

from simwright.analysis.thermal_response import (
    BAR_A3_TO_EV,
    StatePoint,
    enthalpy_ev,
    fluctuations,
    thermal_response,
    weighted_slope,
)
from simwright.errors import ValidationError
from simwright.units import KB_EV_K


def test_weighted_slope_of_a_line_and_its_error() -> None:
    x = np.array([280.0, 290.0, 300.0])
    line = weighted_slope(x, 2.0 + 0.5 * x, np.array([0.1, 0.1, 0.1]), 290.0)
    assert line.slope == pytest.approx(0.5) and line.value_at_x0 == pytest.approx(147.0)
    assert line.slope_err == pytest.approx(0.1 / np.sqrt(200.0))
    with pytest.raises(ValidationError, match="two different"):
        weighted_slope(np.array([1.0, 1.0]), np.array([1.0, 2.0]), np.ones(2), 1.0)


def test_gaussian_npt_fluctuations_give_the_built_in_cp_and_alpha() -> None:
    # H and V jointly Gaussian with var(H) = k T² C and cov(V, H) = k T² α V
    t, cp, alpha, volume = 300.0, 0.01, 2.5e-4, 30_000.0
    kt2 = KB_EV_K * t * t
    var_h, cov = kt2 * cp, kt2 * alpha * volume
    cov_matrix = [[var_h, cov], [cov, 4.0 * cov * cov / var_h]]
    rng = np.random.default_rng(3)
    h, v = rng.multivariate_normal([-100.0, volume], cov_matrix, size=200_000).T
    c, a = fluctuations(h, v, t)
    assert c == pytest.approx(cp, rel=0.02) and a == pytest.approx(alpha, rel=0.02)


def test_scan_of_exact_means_and_units() -> None:
    points = [
        StatePoint(t, 0.2 * t, 0.01, 1000.0 + 0.3 * (t - 300.0), 0.1) for t in (290, 300, 310)
    ]
    h = np.random.default_rng(1).normal(60.0, 1.0, 5000)
    v = np.random.default_rng(2).normal(1000.0, 1.0, 5000)
    r = thermal_response(points, 10, (h, v))
    assert r.heat_capacity_ev_k == pytest.approx(0.02)
    assert r.expansion_per_k == pytest.approx(3e-4) and r.centre_temperature_k == 300.0
    assert pytest.approx(6.2415e-7, rel=1e-4) == BAR_A3_TO_EV
    assert enthalpy_ev(np.array([1.0]), np.array([1e6]), 1.0)[0] == pytest.approx(1.62415, rel=1e-5)
