"""Viscosity, conductivity, window MSD, RDF features and S(q) on series with known answers."""

from __future__ import annotations

import numpy as np
import pytest

from simwright.analysis.conductivity import (
    E2_A2_PER_FS_A3_EV_TO_S_CM,
    einstein_helfand_conductivity,
    nernst_einstein_conductivity,
)
from simwright.analysis.green_kubo import running_integral
from simwright.analysis.rdf import Rdf, first_shell, radial_distribution, structure_factor
from simwright.analysis.viscosity import (
    BAR2_A3_FS_PER_EV_TO_MPA_S,
    green_kubo_viscosity,
    helfand_viscosity,
    shear_acf,
)
from simwright.analysis.window_msd import window_msd
from simwright.errors import ValidationError
from simwright.units import KB_EV_K


def ou_series(n: int, tau: int, sigma: float, seed: int) -> np.ndarray:
    """An Ornstein–Uhlenbeck series: ACF = σ² exp(−k/τ) at lag k samples."""
    rng = np.random.default_rng(seed)
    a = np.exp(-1.0 / tau)
    out = np.empty(n)
    out[0] = rng.normal(0, sigma)
    noise = rng.normal(0, sigma * np.sqrt(1 - a * a), n)
    for i in range(1, n):
        out[i] = a * out[i - 1] + noise[i]
    return out


def test_window_msd_equals_direct_sums() -> None:
    x = np.cumsum(np.random.default_rng(1).normal(size=400)) + 1e4
    direct = [np.mean((x[k:] - x[:-k]) ** 2) for k in range(1, 60)]
    assert window_msd(x)[1:60] == pytest.approx(direct, rel=1e-9)
    assert window_msd(x)[0] == 0.0


def test_viscosity_of_an_ou_stress_matches_its_integral() -> None:
    tau, sigma, dt, n = 20, 100.0, 2.0, 200_000  # ACF integral = σ² τ dt (bar²·fs)
    shear = np.column_stack([ou_series(n, tau, sigma, seed) for seed in (1, 2, 3)])
    volume, temperature = 8000.0, 300.0
    expected = volume / (KB_EV_K * temperature) * sigma**2 * tau * dt * BAR2_A3_FS_PER_EV_TO_MPA_S
    gk = green_kubo_viscosity(
        shear, dt, volume, temperature, window_fs=10 * tau * dt, rel_tol=0.05, max_lag_fraction=0.01
    )
    assert gk.eta_mpa_s == pytest.approx(expected, rel=0.1)
    assert gk.integral.plateau.start_fs >= 2 * tau * dt  # after the ACF has decayed
    hf = helfand_viscosity(shear, dt, volume, temperature, max_lag_fraction=0.01)
    assert hf.eta_mpa_s == pytest.approx(expected, rel=0.15)


def test_runs_a_hundred_correlation_times_long_are_not_biased_low() -> None:
    # A production run is only ~100 stress correlation times long (100 ps, ~1 ps tail).
    # Removing each run's sample mean biased Green–Kubo by about −2t/T and the Helfand
    # slope by (1 − 2t/T): −20 % and −30 % here. Averaged over 64 runs, the noise is ~4 %.
    tau, sigma, dt, n, runs = 10, 100.0, 4.0, 1000, 64
    shear = [
        np.column_stack([ou_series(n, tau, sigma, 1000 + 3 * r + c) for c in range(3)])
        for r in range(runs)
    ]
    a, lag = np.exp(-1.0 / tau), 10 * tau
    exact = sigma**2 * dt * ((1 + a**lag) / 2 + sum(a**m for m in range(1, lag)))  # trapezoid
    gk = np.mean([running_integral(shear_acf(s), dt)[lag] for s in shear])
    assert gk == pytest.approx(exact, rel=0.08)
    volume, temperature = 8000.0, 300.0
    expected = volume / (KB_EV_K * temperature) * sigma**2 * tau * dt * BAR2_A3_FS_PER_EV_TO_MPA_S
    hf = np.mean(
        [
            helfand_viscosity(s, dt, volume, temperature, max_lag_fraction=0.3).eta_mpa_s
            for s in shear
        ]
    )
    assert hf == pytest.approx(expected, rel=0.08)


def isotropic_stress(n: int, tau: int, sigma: float, seed: int) -> np.ndarray:
    """(n, 6) pxx pyy pzz pxy pxz pyz of an isotropic fluid: five OU amplitudes on an
    orthonormal traceless basis plus a fluctuating pressure; C_xy = σ²/2 · exp(−k/τ)."""
    a = [ou_series(n, tau, sigma, seed + k) for k in range(5)]
    p = 300.0 + ou_series(n, tau, 3 * sigma, seed + 9)
    r2, r6 = np.sqrt(2.0), np.sqrt(6.0)
    xx = p + a[3] / r2 + a[4] / r6
    yy = p - a[3] / r2 + a[4] / r6
    zz = p - 2 * a[4] / r6
    return np.column_stack([xx, yy, zz, a[0] / r2, a[1] / r2, a[2] / r2])


def test_traceless_tensor_viscosity_equals_the_off_diagonal_one() -> None:
    tau, sigma, dt, n = 20, 100.0, 2.0, 100_000
    tensor = isotropic_stress(n, tau, sigma, seed=11)
    volume, temperature = 8000.0, 300.0
    integral = 0.5 * sigma**2 * tau * dt  # ∫ C_xy (bar²·fs)
    expected = volume / (KB_EV_K * temperature) * integral * BAR2_A3_FS_PER_EV_TO_MPA_S
    options = {"window_fs": 10 * tau * dt, "rel_tol": 0.05, "max_lag_fraction": 0.01}
    full = green_kubo_viscosity(tensor, dt, volume, temperature, **options)
    off = green_kubo_viscosity(tensor[:, 3:], dt, volume, temperature, **options)
    assert full.eta_mpa_s == pytest.approx(expected, rel=0.1)
    assert off.eta_mpa_s == pytest.approx(expected, rel=0.15)
    hf = helfand_viscosity(tensor, dt, volume, temperature, max_lag_fraction=0.01)
    assert len(hf.component_eta_mpa_s) == 6
    assert hf.eta_mpa_s == pytest.approx(expected, rel=0.15)
    with pytest.raises(ValidationError, match="full tensor"):
        green_kubo_viscosity(tensor[:, :4], dt, volume, temperature, **options)


def test_units_of_viscosity_and_conductivity() -> None:
    # bar² Å³ fs / eV in mPa·s and e² Å²/(fs Å³ eV) in S/cm, from SI by hand
    assert pytest.approx(6.241509e-14, rel=1e-6) == BAR2_A3_FS_PER_EV_TO_MPA_S
    assert pytest.approx(1.602176634e4) == E2_A2_PER_FS_A3_EV_TO_S_CM


def test_independent_ions_give_helfand_equal_to_nernst_einstein() -> None:
    rng = np.random.default_rng(7)
    n_frames, n_ions, step_a = 20_000, 40, 0.3  # D = step²/(2 dt) per axis
    steps = rng.normal(0, step_a, (n_frames, n_ions, 3))
    positions = np.cumsum(steps, axis=0)
    charges = np.array([1.0, -1.0] * (n_ions // 2))
    dt, volume, temperature = 10.0, 1.0e4, 1200.0
    d = step_a**2 / (2 * dt)
    ne = nernst_einstein_conductivity([(n_ions, 1.0, d)], volume, temperature)
    assert ne == pytest.approx(E2_A2_PER_FS_A3_EV_TO_S_CM * n_ions * d / (volume * KB_EV_K * 1200))
    eh = einstein_helfand_conductivity(
        positions, charges, dt, volume, temperature, max_lag_fraction=0.02
    )
    assert eh.sigma_s_cm == pytest.approx(ne, rel=0.15)
    assert eh.sigma_err_s_cm > 0 and eh.r2 > 0.9


def test_first_shell_rule_and_structure_factor_of_an_ideal_gas() -> None:
    r = np.linspace(0.05, 9.95, 100)
    g = np.where(r < 3.0, 0.0, 1.0 + 1.5 * np.exp(-r / 2.0) * np.cos(2 * np.pi * (r - 3.6) / 3.2))
    rdf = Rdf(r, g, np.cumsum(4 * np.pi * r**2 * g * 0.1) * 0.02, 0.02, 1)
    shell = first_shell(rdf)
    assert 3.3 < shell.peak_r_a < 3.6 and shell.peak_g == pytest.approx(float(g.max()))
    assert 4.5 < shell.min_r_a < 5.6 and shell.min_g < 1.0
    assert shell.coordination == pytest.approx(float(np.interp(shell.min_r_a, r, rdf.n_r)))
    flat = Rdf(r, np.ones_like(r), r, 0.02, 1)
    assert structure_factor(flat, np.array([1.0, 2.0, 5.0])) == pytest.approx([1, 1, 1])
    with pytest.raises(ValidationError, match="never exceeds 1"):
        first_shell(flat)


def test_rdf_of_a_simple_cubic_lattice_counts_six_neighbours() -> None:
    a, n = 3.0, 6
    grid = np.array(np.meshgrid(*[np.arange(n)] * 3, indexing="ij")).reshape(3, -1).T * a
    cell = np.eye(3) * a * n
    rdf = radial_distribution(
        grid[None], cell, np.arange(len(grid)), np.arange(len(grid)), r_max_a=4.0, bins=40
    )
    assert float(np.interp(3.5, rdf.r_a, rdf.n_r)) == pytest.approx(6.0)
    with pytest.raises(ValidationError, match="half the shortest box edge"):
        radial_distribution(grid[None], cell, np.arange(3), np.arange(3), r_max_a=9.5)
