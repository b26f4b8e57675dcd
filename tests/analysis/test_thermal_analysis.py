"""Analyses of the solid-state MD protocols on synthetic data with known answers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simwright.analysis.coexistence import Trial, bracket, next_temperature
from simwright.analysis.deposition import Atoms, density_profile, growth
from simwright.analysis.nemd import (
    EV_PER_PS_A_K_TO_W_M_K,
    Profile,
    conductivity,
    extrapolate,
    read_profile,
)
from simwright.analysis.thermal_expansion import EV_TO_J_MOL, fit_scan, value_at
from simwright.errors import ValidationError


def test_alpha_and_cp_of_a_known_scan() -> None:
    t = np.array([100.0, 200.0, 300.0, 400.0, 500.0])
    a = 3.6 * (1 + 1.5e-5 * (t - 300) + 1e-9 * (t - 300) ** 2)
    h = -3.5 + 3 * 8.617333262e-5 * t  # 3 k_B per atom: C_p = 3R
    fit = fit_scan(t, a, np.full(5, 1e-5), h, np.full(5, 1e-5))
    alpha, err = value_at(fit, fit.alpha_per_k, fit.alpha_err, 300.0)
    assert alpha == pytest.approx(1.5e-5, rel=1e-6) and err > 0
    cp, _ = value_at(fit, fit.cp_j_mol_k, fit.cp_err, 300.0)
    assert cp == pytest.approx(3 * 8.617333262e-5 * EV_TO_J_MOL, rel=1e-6)
    assert cp == pytest.approx(24.94, abs=0.01)
    with pytest.raises(ValidationError, match="outside the scan"):
        value_at(fit, fit.cp_j_mol_k, fit.cp_err, 600.0)


def _trial(t: float, grows: bool) -> Trial:
    return Trial(t, -3.0, -3.01 if grows else -2.99, 0.5, 0.6 if grows else 0.4)


def test_bisection_brackets_the_melting_point() -> None:
    tm, trials = 1327.0, []
    while (t := next_temperature(trials, 1200.0, 1500.0, 10.0, 12)) is not None:
        trials.append(_trial(t, t < tm))
    found = bracket(trials)
    assert found is not None and found.below_k < tm < found.above_k
    assert found.above_k - found.below_k <= 10.0
    assert [x.temperature_k for x in trials[:3]] == [1200.0, 1500.0, 1350.0]


def test_a_bracket_that_misses_is_widened_and_a_contradiction_refused() -> None:
    trials = [_trial(1200.0, True), _trial(1500.0, True)]
    assert next_temperature(trials, 1200.0, 1500.0, 10.0, 8) == 1650.0
    trials = [_trial(1200.0, False), _trial(1500.0, False)]
    assert next_temperature(trials, 1200.0, 1500.0, 10.0, 8) == 1050.0
    with pytest.raises(ValidationError, match="inconsistent"):
        bracket([_trial(1400.0, True), _trial(1300.0, False)])


def test_muller_plathe_kappa_of_a_linear_profile(tmp_path: Path) -> None:
    n, length, area, dt = 20, 100.0, 50.0, 1.0
    coords = (np.arange(n) + 0.5) / n
    z = coords * length
    # cold slab at z≈0, hot in the middle, gradient 1 K/Å on both halves
    temps = 300 + np.where(z < length / 2, z, length - z) - 25
    steps = np.arange(0, 11) * 1000
    flux_ev_ps = 2.0  # energy moved per ps
    energy = flux_ev_ps * steps * dt * 1e-3
    profile = Profile(steps, coords, np.tile(temps, (steps.size, 1)))
    c = conductivity(profile, energy, area, length, dt, skip_blocks=1)
    expected = flux_ev_ps / (2 * area) / 1.0 * EV_PER_PS_A_K_TO_W_M_K
    assert c.kappa == pytest.approx(expected, rel=1e-9)
    assert c.stderr == pytest.approx(0.0, abs=1e-9 * expected)
    text = "# header\n# x\n# y\n1000 2 10\n 1 0.25 5 300\n 2 0.75 5 310\n"
    (tmp_path / "p.dat").write_text(text)
    assert read_profile(tmp_path / "p.dat").temperatures.tolist() == [[300.0, 310.0]]


def test_size_extrapolation_recovers_the_bulk_value() -> None:
    lengths = np.array([40.0, 80.0, 160.0])
    kappa = 1 / (1 / 150.0 + 2.0 / lengths)
    fit = extrapolate(lengths, kappa, kappa * 0.01)
    assert fit.kappa_inf == pytest.approx(150.0, rel=1e-6)
    assert extrapolate(
        lengths[::-1][:2], kappa[::-1][:2], kappa[:2] * 0
    ).kappa_inf == pytest.approx(150.0, rel=1e-6)


def test_growth_counts_adsorbed_and_reflected() -> None:
    ids = np.arange(1, 13)
    z = np.array([1.0, 1.0, 3.0, 3.0, 5.0, 5.0, 7.0, 7.0, 6.8, 8.9, 9.5, 30.0])
    atoms = Atoms(ids, np.ones(12, int), z)
    g = growth(atoms, n_slab=8, inserted=5, surface_top_a=7.0, atoms_per_layer=2)
    assert (g.adsorbed, g.reflected) == (3, 2)  # one flew off, one was lost
    assert g.coverage_ml == pytest.approx(1.5)
    _, slab, new = density_profile(atoms, 8, area_a2=4.0, bin_a=0.5)
    assert slab.sum() * 4.0 * 0.5 == pytest.approx(8) and new.sum() * 4.0 * 0.5 == pytest.approx(4)
