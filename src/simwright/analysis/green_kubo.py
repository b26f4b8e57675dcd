"""Green–Kubo integrals: autocorrelation, running integral, plateau, thermal conductivity.

Plateau criterion
-----------------
The running integral I(t) of an autocorrelation function rises while the function
decays and then, in a finite simulation, wanders like a random walk because the
long-lag autocorrelation is pure noise. The plateau is taken as the **first** window
of width ``window_fs`` (lags ``t .. t + window_fs``, searched only up to
``max_lag_fraction`` of the series length, where at least half the time origins
remain) over which ``(max I − min I) / |mean I| <= rel_tol``. The plateau value is the
mean of I over that window and its uncertainty half the window's range,
``(max I − min I) / 2`` — the spread over the window, which also covers a slow residual
drift. That spread measures how flat the plateau is, so it is bounded by about
``rel_tol/2`` of the value; it is not a statistical error. Where the series is short
the value scatters more than that between independent runs (an OU test series of
5000 correlation times scattered by about twice the reported spread; one of 20000,
by less than it): compare independent segments for a statistical error.

By default the window is ``window_correlation_times`` (5) correlation times long, the
correlation time being the first lag where the ACF falls below ACF(0)/e. Taking the
first such window, not the flattest one, avoids picking a late window where noise
happens to be flat. If no window qualifies, :class:`ValidationError` is
raised: the series is too short or too noisy for a defensible value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np

from simwright.analysis.integration import running_integral as trapezoid_integral
from simwright.errors import ValidationError
from simwright.units import KB_EV_K

ELEMENTARY_CHARGE_C: Final = 1.602176634e-19
"""1 eV in J (exact in SI 2019)."""

METAL_KAPPA_TO_W_MK: Final = ELEMENTARY_CHARGE_C * 1.0e-15 / (1.0e-24 * 1.0e-10)
"""Factor turning the metal-unit Green–Kubo expression into W/(m·K); equals 1.602176634.

With ``Jv`` the LAMMPS ``compute heat/flux`` output (flux × volume) in eV·Å/ps, the
time step in fs, V in Å³, k_B in eV/K and T in K::

    κ = V/(3 k_B T²) ∫ <J(0)·J(t)> dt,   J = Jv / V
      = 1/(3 V k_B T²) ∫ <Jv(0)·Jv(t)> dt
      = 1/(V k_B T²) ∫ C(t) dt,          C = <Jv(0)·Jv(t)>/3 (component average)

    units: (eV·Å/ps)² · fs / (Å³ · eV/K · K²) = eV · fs / (ps² · Å · K)
    eV → 1.602176634e-19 J, fs → 1e-15 s, ps² → 1e-24 s², Å → 1e-10 m
    eV·fs/(ps²·Å·K) = 1.602176634e-19 · 1e-15 / (1e-24 · 1e-10) J/(s·m·K)
                    = 1.602176634 W/(m·K)
"""

DEFAULT_REL_TOL: Final = 0.05
"""Default largest relative variation of the running integral over the plateau window."""


@dataclass(frozen=True)
class Plateau:
    """A plateau of a running integral: points ``start_index..end_index`` (inclusive)."""

    value: float
    error: float
    start_index: int
    end_index: int
    start_fs: float
    end_fs: float


@dataclass(frozen=True, eq=False)
class GreenKuboIntegral:
    """ACF of a series, its running integral and the plateau found in it.

    ``acf`` is in the series' unit squared; ``running_integral`` in that unit squared
    times fs; ``plateau.value`` is the Green–Kubo integral.
    """

    lag_fs: np.ndarray
    acf: np.ndarray
    running_integral: np.ndarray
    plateau: Plateau


@dataclass(frozen=True, eq=False)
class GreenKuboResult:
    """Thermal conductivity κ (W/(m·K)) from the Green–Kubo relation.

    ``acf`` is the component-averaged autocorrelation of the heat flux × volume, in
    (eV·Å/ps)²; ``running_integral_w_mk`` is κ as a function of the upper limit.
    """

    kappa_w_mk: float
    kappa_err_w_mk: float
    plateau_start_fs: float
    plateau_end_fs: float
    lag_fs: np.ndarray
    acf: np.ndarray
    running_integral_w_mk: np.ndarray


def _as_columns(series: np.ndarray) -> np.ndarray:
    data = np.asarray(series, dtype=np.float64)
    if data.ndim == 1:
        data = data[:, None]
    if data.ndim != 2 or data.shape[0] < 2:
        raise ValidationError(f"series must be (n,) or (n, k) with n >= 2, got {data.shape}")
    if not np.all(np.isfinite(data)):
        raise ValidationError("series contains NaN or infinite values")
    return data


def autocorrelation(series: np.ndarray, *, subtract_mean: bool = False) -> np.ndarray:
    """Autocorrelation of a (n,) or (n, k) series over all time origins, averaged over k.

    ``C[m] = mean_k sum_i x_k(i)·x_k(i+m) / (n − m)`` for ``m = 0 .. n−1`` (unbiased
    normalisation), computed by FFT with zero padding (no wrap-around). With
    ``subtract_mean`` each component's mean is removed first.
    """
    data = _as_columns(series)
    if subtract_mean:
        data = data - data.mean(axis=0)
    n = data.shape[0]
    size = 1 << (2 * n - 1).bit_length()
    spectrum = np.fft.rfft(data, n=size, axis=0)
    raw = np.fft.irfft(spectrum * np.conj(spectrum), n=size, axis=0)[:n]
    counts = np.arange(n, 0, -1, dtype=np.float64)
    acf: np.ndarray = raw.mean(axis=1) / counts
    return acf


def running_integral(values: np.ndarray, dt_fs: float) -> np.ndarray:
    """Cumulative trapezoid integral of equally spaced ``values``; starts at 0."""
    if dt_fs <= 0:
        raise ValidationError(f"dt_fs must be positive, got {dt_fs}")
    out: np.ndarray = trapezoid_integral(np.asarray(values, float), dt_fs)
    return out


def correlation_time_fs(lag_fs: np.ndarray, acf: np.ndarray) -> float:
    """First lag at which ``acf`` falls below ``acf[0]/e``."""
    if acf[0] <= 0:
        raise ValidationError("the autocorrelation at lag 0 must be positive")
    below = np.flatnonzero(acf < acf[0] / math.e)
    if below.size == 0:
        raise ValidationError("the autocorrelation never decays below 1/e; the series is too short")
    return float(lag_fs[below[0]])


def find_plateau(
    lag_fs: np.ndarray,
    running: np.ndarray,
    *,
    window_fs: float,
    rel_tol: float = DEFAULT_REL_TOL,
    max_lag_fs: float | None = None,
) -> Plateau:
    """The first window of width ``window_fs`` where the running integral is flat.

    Flat means ``(max − min) / |mean| <= rel_tol`` over the window; only lags up to
    ``max_lag_fs`` (default: all) are searched. See the module docstring.
    """
    lag = np.asarray(lag_fs, dtype=np.float64)
    values = np.asarray(running, dtype=np.float64)
    if lag.shape != values.shape or lag.ndim != 1 or lag.size < 2:
        raise ValidationError("lag_fs and running must be 1-D arrays of the same length >= 2")
    if rel_tol <= 0 or window_fs <= 0:
        raise ValidationError("window_fs and rel_tol must be positive")
    limit = lag[-1] if max_lag_fs is None else max_lag_fs
    n_search = int(np.searchsorted(lag, limit, side="right"))
    width = max(3, round(window_fs / (lag[1] - lag[0])) + 1)
    if n_search < width:
        raise ValidationError(
            f"the searched lag range ({limit:g} fs) is shorter than the plateau window "
            f"({window_fs:g} fs); run longer"
        )
    windows = np.lib.stride_tricks.sliding_window_view(values[:n_search], width)
    spread = windows.max(axis=1) - windows.min(axis=1)
    means = windows.mean(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = np.where(means != 0.0, spread / np.abs(means), np.inf)
    hits = np.flatnonzero(relative <= rel_tol)
    if hits.size == 0:
        raise ValidationError(
            f"no plateau: the running integral never varies by <= {rel_tol:g} (relative) over "
            f"{window_fs:g} fs up to a lag of {limit:g} fs (best {float(relative.min()):.3g}); "
            "run longer or loosen the tolerance"
        )
    start = int(hits[0])
    end = start + width - 1
    return Plateau(
        value=float(means[start]),
        error=float(spread[start]) / 2.0,
        start_index=start,
        end_index=end,
        start_fs=float(lag[start]),
        end_fs=float(lag[end]),
    )


def green_kubo_integral(
    series: np.ndarray,
    sample_interval_fs: float,
    *,
    window_fs: float | None = None,
    window_correlation_times: float = 5.0,
    rel_tol: float = DEFAULT_REL_TOL,
    max_lag_fraction: float = 0.5,
    subtract_mean: bool = False,
) -> GreenKuboIntegral:
    """∫₀^∞ C(t) dt of a (n,) or (n, k) series sampled every ``sample_interval_fs``.

    C is the component-averaged autocorrelation (:func:`autocorrelation`); the value
    is the plateau of its running integral (:func:`find_plateau`). Without
    ``window_fs`` the window is ``window_correlation_times`` correlation times.
    """
    acf = autocorrelation(series, subtract_mean=subtract_mean)
    return integral_of_acf(
        acf,
        sample_interval_fs,
        window_fs=window_fs,
        window_correlation_times=window_correlation_times,
        rel_tol=rel_tol,
        max_lag_fraction=max_lag_fraction,
    )


def integral_of_acf(
    acf: np.ndarray,
    sample_interval_fs: float,
    *,
    window_fs: float | None = None,
    window_correlation_times: float = 5.0,
    rel_tol: float = DEFAULT_REL_TOL,
    max_lag_fraction: float = 0.5,
) -> GreenKuboIntegral:
    """∫₀^∞ C(t) dt of an autocorrelation ``acf`` already computed (lag 0 first).

    The plateau rule is that of :func:`green_kubo_integral`; use this entry when the
    ACF combines several series with weights (e.g. the traceless pressure tensor).
    """
    if not 0.0 < max_lag_fraction <= 1.0:
        raise ValidationError(f"max_lag_fraction must be in (0, 1], got {max_lag_fraction}")
    acf = np.asarray(acf, dtype=np.float64)
    lag_fs = np.arange(acf.size, dtype=np.float64) * sample_interval_fs
    integral = running_integral(acf, sample_interval_fs)
    if window_fs is None:
        window_fs = window_correlation_times * correlation_time_fs(lag_fs, acf)
    plateau = find_plateau(
        lag_fs,
        integral,
        window_fs=window_fs,
        rel_tol=rel_tol,
        max_lag_fs=max_lag_fraction * float(lag_fs[-1]),
    )
    return GreenKuboIntegral(lag_fs=lag_fs, acf=acf, running_integral=integral, plateau=plateau)


def kappa_prefactor_w_mk(volume_a3: float, temperature_k: float) -> float:
    """Factor turning ∫C dt ((eV·Å/ps)²·fs, component-averaged) into κ in W/(m·K).

    ``METAL_KAPPA_TO_W_MK / (V k_B T²)``; see :data:`METAL_KAPPA_TO_W_MK`.
    """
    if volume_a3 <= 0 or temperature_k <= 0:
        raise ValidationError(
            f"volume and temperature must be positive, got {volume_a3} Å³ and {temperature_k} K"
        )
    return METAL_KAPPA_TO_W_MK / (volume_a3 * KB_EV_K * temperature_k**2)


def thermal_conductivity(
    flux_volume_ev_a_ps: np.ndarray,
    sample_interval_fs: float,
    volume_a3: float,
    temperature_k: float,
    *,
    window_fs: float | None = None,
    rel_tol: float = DEFAULT_REL_TOL,
    max_lag_fraction: float = 0.5,
    subtract_mean: bool = False,
) -> GreenKuboResult:
    """κ in W/(m·K) from the heat flux of LAMMPS ``compute heat/flux`` in ``units metal``.

    ``flux_volume_ev_a_ps`` is the (n, 3) output of ``compute heat/flux`` (its first
    three components): the heat flux *multiplied by the volume*, in eV·Å/ps, sampled
    every ``sample_interval_fs``. κ = V/(3 k_B T²) ∫<J(0)·J(t)>dt with J = output / V.
    The plateau rules are those of :func:`green_kubo_integral` (module docstring).
    """
    flux = np.asarray(flux_volume_ev_a_ps, dtype=np.float64)
    if flux.ndim != 2 or flux.shape[1] != 3:
        raise ValidationError(f"the heat flux must have shape (n, 3), got {flux.shape}")
    prefactor = kappa_prefactor_w_mk(volume_a3, temperature_k)
    result = green_kubo_integral(
        flux,
        sample_interval_fs,
        window_fs=window_fs,
        rel_tol=rel_tol,
        max_lag_fraction=max_lag_fraction,
        subtract_mean=subtract_mean,
    )
    return GreenKuboResult(
        kappa_w_mk=prefactor * result.plateau.value,
        kappa_err_w_mk=prefactor * result.plateau.error,
        plateau_start_fs=result.plateau.start_fs,
        plateau_end_fs=result.plateau.end_fs,
        lag_fs=result.lag_fs,
        acf=result.acf,
        running_integral_w_mk=prefactor * result.running_integral,
    )
