"""The running trapezoidal integral matches SciPy's."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import cumulative_trapezoid

from simwright.analysis.integration import running_integral


@pytest.mark.parametrize("shape", [(1,), (2,), (57,), (3, 40)])
def test_same_as_scipy(shape: tuple[int, ...]) -> None:
    y = np.random.default_rng(7).normal(size=shape)
    np.testing.assert_allclose(
        running_integral(y, 0.25), cumulative_trapezoid(y, dx=0.25, initial=0.0), rtol=1e-13
    )


def test_empty_series_stays_empty() -> None:
    assert running_integral(np.zeros(0), 1.0).shape == (0,)
