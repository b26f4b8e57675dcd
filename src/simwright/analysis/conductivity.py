"""Ionic conductivity: Einstein–Helfand on the collective charge displacement, and
Nernst–Einstein from the ions' self-diffusion coefficients.

Einstein–Helfand: with M(t) = Σ_i q_i r_i(t) over all ions (unwrapped positions),
σ = 1/(6 V k_B T) d⟨|M(t) − M(0)|²⟩/dt at long times. The slope is fitted over a
fractional window of the lags; the uncertainty is the standard error of the three
Cartesian components' values (each σ_a = slope_a/(2 V k_B T)), a rough estimate: the
collective quantity has one sample per system, so it converges slowly.

Nernst–Einstein (no cross-correlations): σ_NE = e²/(V k_B T) Σ_s N_s z_s² D_s.
The ratio σ/σ_NE (1 − Δ, Δ the deviation from Nernst–Einstein) measures how much
ion motions are correlated.

Units: charges in e, positions in Å, time in fs, V in Å³, k_B T in eV::

    e²·Å²/fs / (Å³·eV) = e/(V·Å·fs) = 1.602176634e-19 C / (V · 1e-10 m · 1e-15 s)
                       = 1.602176634e6 S/m = 1.602176634e4 S/cm
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from simwright.analysis.convergence import fit_line
from simwright.analysis.window_msd import window_msd
from simwright.errors import ValidationError
from simwright.units import KB_EV_K

E2_A2_PER_FS_A3_EV_TO_S_CM: Final = 1.602176634e4
"""e²·Å²/(fs·Å³·eV) in S/cm (see the module docstring)."""


@dataclass(frozen=True, eq=False)
class HelfandConductivity:
    """σ (S/cm) from the collective charge displacement, with the curve behind it."""

    sigma_s_cm: float
    sigma_err_s_cm: float
    lag_fs: np.ndarray
    msd_e2_a2: np.ndarray
    fit_start_fs: float
    fit_end_fs: float
    r2: float


def _prefactor(volume_a3: float, temperature_k: float) -> float:
    if volume_a3 <= 0 or temperature_k <= 0:
        raise ValidationError("volume and temperature must be positive")
    return E2_A2_PER_FS_A3_EV_TO_S_CM / (volume_a3 * KB_EV_K * temperature_k)


def einstein_helfand_conductivity(
    positions_a: np.ndarray,
    charges_e: np.ndarray,
    frame_interval_fs: float,
    volume_a3: float,
    temperature_k: float,
    *,
    max_lag_fraction: float = 0.5,
    fit_fractions: tuple[float, float] = (0.2, 0.8),
) -> HelfandConductivity:
    """σ from unwrapped ``positions_a`` (n_frames, n_ions, 3) and the ions' charges."""
    positions = np.asarray(positions_a, dtype=np.float64)
    charges = np.asarray(charges_e, dtype=np.float64)
    if positions.ndim != 3 or positions.shape[1] != charges.size or positions.shape[0] < 10:
        raise ValidationError("need >= 10 frames of (n_ions, 3) positions and one charge per ion")
    dipole = np.einsum("fid,i->fd", positions, charges)
    n_lag = max(4, int(max_lag_fraction * positions.shape[0]))
    lag = np.arange(n_lag) * frame_interval_fs
    components = np.array([window_msd(dipole[:, d])[:n_lag] for d in range(3)])
    start, end = fit_fractions
    mask = (lag >= start * lag[-1]) & (lag <= end * lag[-1])
    if mask.sum() < 3:
        raise ValidationError("too few lags in the Einstein–Helfand fit window; run longer")
    factor = _prefactor(volume_a3, temperature_k)
    total = components.sum(axis=0)
    fit = fit_line(lag[mask], total[mask])
    per_axis = np.array([factor * fit_line(lag[mask], c[mask]).slope / 2.0 for c in components])
    return HelfandConductivity(
        sigma_s_cm=factor * fit.slope / 6.0,
        sigma_err_s_cm=float(per_axis.std(ddof=1) / np.sqrt(3)),
        lag_fs=lag,
        msd_e2_a2=total,
        fit_start_fs=fit.x_start,
        fit_end_fs=fit.x_end,
        r2=fit.r2,
    )


def nernst_einstein_conductivity(
    species: Sequence[tuple[int, float, float]], volume_a3: float, temperature_k: float
) -> float:
    """σ_NE (S/cm) from ``(count, charge e, D Å²/fs)`` of each ionic species."""
    total = sum(n * z * z * d for n, z, d in species)
    return _prefactor(volume_a3, temperature_k) * total
