"""System drift removal and the Nernst–Einstein relation."""

from __future__ import annotations

import numpy as np
import pytest

from simwright.analysis.transport import nernst_einstein, remove_system_drift
from simwright.errors import ValidationError


def test_a_uniform_drift_is_removed_but_relative_motion_kept() -> None:
    rng = np.random.default_rng(3)
    frames, atoms = 50, 6
    own = np.cumsum(rng.normal(size=(frames, atoms, 3)), axis=0)
    masses = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    own -= (np.einsum("fai,a->fi", own, masses) / masses.sum())[:, None, :]  # zero COM
    drift = np.linspace(0, 40, frames)[:, None, None] * np.array([1.0, -2.0, 0.5])
    cleaned = remove_system_drift(own + drift, masses)
    np.testing.assert_allclose(cleaned, own, atol=1e-9)


def test_per_group_com_removal_would_erase_a_lone_ions_motion() -> None:
    # One heavy solvent at rest and one light ion moving: the system's drift is tiny,
    # so the ion keeps its displacement (a per-group COM would remove all of it).
    t = np.arange(10, dtype=float)
    positions = np.zeros((10, 2, 3))
    positions[:, 1, 0] = t
    cleaned = remove_system_drift(positions, [1000.0, 1.0])
    assert cleaned[-1, 1, 0] == pytest.approx(9.0 * 1000.0 / 1001.0)


def test_nernst_einstein_conductivity_and_transference() -> None:
    # 10 pairs in (30 Å)³ at 298 K with D+ = 1e-10 and D- = 3e-10 m²/s
    ne = nernst_einstein(1e-10, 3e-10, 10, 10, 27000.0, 298.0)
    expected = (1.602176634e-19) ** 2 / (27000e-30 * 1.380649e-23 * 298.0) * 10 * 4e-10
    assert ne.conductivity_s_m == pytest.approx(expected)
    assert ne.conductivity_ms_cm == pytest.approx(10 * expected)
    assert ne.transference_cation == pytest.approx(0.25)
    with pytest.raises(ValidationError):
        nernst_einstein(1e-10, 1e-10, 1, 1, -1.0, 298.0)
