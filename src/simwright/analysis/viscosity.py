"""Shear viscosity from the off-diagonal pressure tensor: Green–Kubo and Einstein–Helfand.

Green–Kubo: η = V/(k_B T) ∫₀^∞ ⟨P_ab(0) P_ab(t)⟩ dt, the autocorrelation averaged over
the three off-diagonal components xy, xz, yz (isotropic liquid); the integral is the
plateau of its running integral chosen by :func:`simwright.analysis.green_kubo.find_plateau`
(the first window of ``window_fs`` over which it varies by at most ``rel_tol``).

Einstein (Helfand) form, the cross-check: with G_ab(t) = ∫₀^t P_ab dt',
η = V/(2 k_B T) d⟨(G_ab(t) − G_ab(0))²⟩/dt at long times, fitted over a fractional
window of the lags and averaged over the three components; the uncertainty is the
standard error of the three component values.

No sample mean is subtracted: in an isotropic liquid at equilibrium every off-diagonal
component and every diagonal deviation from the trace has mean zero exactly, and a finite
run's offset is itself the long-time part of the fluctuation. Subtracting it biases both
estimators low: the Green–Kubo integral to lag t by about −2t/T·η (run length T;
−8 % at a 4 ps lag of a 100 ps run), and the Helfand moment becomes a Brownian bridge
whose slope at lag t is (1 − 2t/T) of the true one (−20 to −30 % over the default fit
window). Tested on synthetic series as short (in correlation times) as a production run.

Given the full tensor (``pxx pyy pzz pxy pxz pyz``), all of its symmetric traceless part
T = P − (tr P/3) I is used: in an isotropic liquid each diagonal ⟨T_aa T_aa⟩ is 4/3 of an
off-diagonal ⟨P_ab P_ab⟩, so η = V/(10 k_B T) ∫ Σ_ab ⟨T_ab(0) T_ab(t)⟩ dt (P. J. Daivis,
D. J. Evans, J. Chem. Phys. 100, 541 (1994); citation from memory, not re-checked here;
the identity follows from isotropy and is tested on a synthetic isotropic tensor). The
six off-diagonal and three diagonal terms weigh 6 and 3 of the 10; the diagonal terms add
information the three off-diagonal components alone leave unused (same mean, smaller
scatter between runs).

Units: P in bar, V in Å³, t in fs, k_B T in eV::

    bar² · Å³ · fs / eV = (1e5 Pa)² · 1e-30 m³ · 1e-15 s / 1.602176634e-19 J
                        = 6.241509e-17 Pa·s = 6.241509e-14 mPa·s
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np

from simwright.analysis.convergence import fit_line
from simwright.analysis.green_kubo import GreenKuboIntegral, autocorrelation, integral_of_acf
from simwright.analysis.integration import running_integral
from simwright.analysis.window_msd import window_msd
from simwright.errors import ValidationError
from simwright.units import KB_EV_K

BAR2_A3_FS_PER_EV_TO_MPA_S: Final = 1.0e10 * 1.0e-30 * 1.0e-15 / 1.602176634e-19 * 1.0e3
"""bar²·Å³·fs/eV in mPa·s (see the module docstring)."""


@dataclass(frozen=True, eq=False)
class GreenKuboViscosity:
    """η (mPa·s) with the plateau spread as its uncertainty, and the integral behind it."""

    eta_mpa_s: float
    eta_err_mpa_s: float
    integral: GreenKuboIntegral
    prefactor_mpa_s: float
    """η per unit of running integral (mPa·s per bar²·fs)."""


@dataclass(frozen=True, eq=False)
class HelfandViscosity:
    """η (mPa·s) from the Helfand moments, its component spread and the weighted moment."""

    eta_mpa_s: float
    eta_err_mpa_s: float
    lag_fs: np.ndarray
    moment_bar2_fs2: np.ndarray
    fit_start_fs: float
    fit_end_fs: float
    component_eta_mpa_s: tuple[float, ...]
    """η of each component (three off-diagonal, then three diagonal if given)."""


def _prefactor(volume_a3: float, temperature_k: float) -> float:
    if volume_a3 <= 0 or temperature_k <= 0:
        raise ValidationError("volume and temperature must be positive")
    return volume_a3 / (KB_EV_K * temperature_k) * BAR2_A3_FS_PER_EV_TO_MPA_S


def _components(shear_bar: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """(off-diagonal (n, 3), traceless diagonal (n, 3) or None); no sample mean removed."""
    data = np.asarray(shear_bar, dtype=float)
    if data.ndim != 2 or data.shape[1] not in (3, 6) or data.shape[0] < 10:
        raise ValidationError(
            "give the pressure components xy, xz, yz as (n >= 10, 3), or the full tensor "
            "xx, yy, zz, xy, xz, yz as (n >= 10, 6)"
        )
    if data.shape[1] == 3:
        return data, None
    return data[:, 3:], data[:, :3] - data[:, :3].mean(axis=1, keepdims=True)


def shear_acf(shear_bar: np.ndarray) -> np.ndarray:
    """The shear-stress ACF (bar²) whose integral × V/(k_B T) is η.

    Three columns: the mean ACF of xy, xz, yz. Six columns (the full tensor): the
    traceless-tensor average (6 C_off + 3 C_diag)/10 of the module docstring.
    """
    off, diag = _components(shear_bar)
    acf = autocorrelation(off)
    if diag is None:
        return acf
    out: np.ndarray = (6.0 * acf + 3.0 * autocorrelation(diag)) / 10.0
    return out


def green_kubo_viscosity(
    shear_bar: np.ndarray,
    sample_interval_fs: float,
    volume_a3: float,
    temperature_k: float,
    *,
    window_fs: float,
    rel_tol: float,
    max_lag_fraction: float = 0.5,
) -> GreenKuboViscosity:
    """η by Green–Kubo from (n, 3) off-diagonal pressures or the (n, 6) full tensor."""
    integral = integral_of_acf(
        shear_acf(shear_bar),
        sample_interval_fs,
        window_fs=window_fs,
        rel_tol=rel_tol,
        max_lag_fraction=max_lag_fraction,
    )
    factor = _prefactor(volume_a3, temperature_k)
    return GreenKuboViscosity(
        eta_mpa_s=factor * integral.plateau.value,
        eta_err_mpa_s=factor * integral.plateau.error,
        integral=integral,
        prefactor_mpa_s=factor,
    )


def helfand_viscosity(
    shear_bar: np.ndarray,
    sample_interval_fs: float,
    volume_a3: float,
    temperature_k: float,
    *,
    max_lag_fraction: float = 0.5,
    fit_fractions: tuple[float, float] = (0.2, 0.8),
) -> HelfandViscosity:
    """η from the Helfand moments of each component (see the module docstring).

    Lags run up to ``max_lag_fraction`` of the series; the line is fitted over
    ``fit_fractions`` of that lag range. With the full tensor the diagonal
    deviations enter scaled by 3/4 and weighted as in :func:`shear_acf`; the
    uncertainty is the standard error of the per-component values.
    """
    off, diag = _components(shear_bar)
    n_lag = max(4, int(max_lag_fraction * off.shape[0]))
    lag = np.arange(n_lag) * sample_interval_fs
    start, end = fit_fractions
    mask = (lag >= start * lag[-1]) & (lag <= end * lag[-1])
    if mask.sum() < 3:
        raise ValidationError("too few lags in the Helfand fit window; run longer")
    factor = _prefactor(volume_a3, temperature_k) / 2.0
    groups = [(off, 1.0, 6.0)] if diag is None else [(off, 1.0, 6.0), (diag, 0.75, 4.0)]
    moments, etas, weights = [], [], []
    for data, scale, weight in groups:
        for column in data.T:
            helfand = running_integral(column, sample_interval_fs)
            moment = scale * window_msd(helfand)[:n_lag]
            moments.append((weight / data.shape[1], moment))
            etas.append(factor * fit_line(lag[mask], moment[mask]).slope)
            weights.append(weight / data.shape[1])
    values, w = np.array(etas), np.array(weights)
    total = sum(wt * m for wt, m in moments) / w.sum()
    return HelfandViscosity(
        eta_mpa_s=float(np.sum(w * values) / w.sum()),
        eta_err_mpa_s=float(values.std(ddof=1) / np.sqrt(values.size)),
        lag_fs=lag,
        moment_bar2_fs2=np.asarray(total),
        fit_start_fs=float(lag[mask][0]),
        fit_end_fs=float(lag[mask][-1]),
        component_eta_mpa_s=tuple(float(v) for v in values),
    )
