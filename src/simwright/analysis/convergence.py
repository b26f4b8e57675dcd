"""Small statistics for convergence rules: CV, linear trend, block averages.

The acceptance rules of campaigns ask of a recent window of a time series (density,
loading, energy): is it flat (no significant trend), is its scatter small (coefficient
of variation), and how well is its mean known (block-averaging standard error)? Both
tests are needed together: a series that drains slowly can have a small CV.

Times are in fs; values in any unit (the results carry the same unit or are relative).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np

from simwright.errors import ValidationError

MIN_TREND_POINTS: Final = 3
"""The fewest samples a line (and so a trend) can be fitted to."""


@dataclass(frozen=True)
class LineFit:
    """A least-squares line ``y = slope·x + intercept`` over ``x_start..x_end``.

    ``slope_stderr`` is the ordinary least-squares standard error, valid for
    uncorrelated points only (correlated samples make it too small).
    """

    slope: float
    intercept: float
    r2: float
    slope_stderr: float
    x_start: float
    x_end: float
    n_points: int


@dataclass(frozen=True)
class Trend:
    """Linear trend of a series over a window.

    ``slope_per_fs`` is in the value's unit per fs; ``relative_slope_per_fs`` is that
    divided by ``|mean|``; ``relative_drift`` is the change of the fitted line over
    the whole window divided by ``|mean|`` (dimensionless). ``t_statistic`` is the
    slope over its least-squares standard error: with autocorrelated samples it
    overstates significance, so compare it with a generous threshold.
    """

    slope_per_fs: float
    relative_slope_per_fs: float
    relative_drift: float
    t_statistic: float
    n_samples: int


@dataclass(frozen=True)
class WindowStatistics:
    """Mean, scatter and trend of the most recent window of a time series."""

    start_fs: float
    end_fs: float
    n_samples: int
    mean: float
    std: float
    cv: float
    trend: Trend


@dataclass(frozen=True)
class BlockAverage:
    """Mean of a series and its standard error from ``n_blocks`` block means."""

    mean: float
    sem: float
    n_blocks: int
    block_means: tuple[float, ...]


def _as_1d(values: np.ndarray, name: str, minimum: int) -> np.ndarray:
    data = np.asarray(values, dtype=np.float64)
    if data.ndim != 1 or data.size < minimum:
        raise ValidationError(f"{name} must be a 1-D series of >= {minimum} values")
    if not np.all(np.isfinite(data)):
        raise ValidationError(f"{name} contains NaN or infinite values")
    return data


def _ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator`` with x/0 = ±inf (0/0 = 0): never NaN, so rules fail safe."""
    if denominator != 0.0:
        return numerator / denominator
    return 0.0 if numerator == 0.0 else math.copysign(math.inf, numerator)


def fit_line(x: np.ndarray, y: np.ndarray) -> LineFit:
    """Ordinary least-squares line through ``(x, y)`` with R² and the slope's standard error."""
    xs = _as_1d(x, "x", MIN_TREND_POINTS)
    ys = _as_1d(y, "y", MIN_TREND_POINTS)
    if xs.size != ys.size:
        raise ValidationError(f"x and y differ in length ({xs.size} vs {ys.size})")
    dx = xs - xs.mean()
    sxx = float(dx @ dx)
    if sxx == 0.0:
        raise ValidationError("a line fit needs at least two distinct x values")
    dy = ys - ys.mean()
    slope = float(dx @ dy) / sxx
    intercept = float(ys.mean() - slope * xs.mean())
    residuals = ys - (slope * xs + intercept)
    ss_res = float(residuals @ residuals)
    ss_tot = float(dy @ dy)
    r2 = 1.0 - ss_res / ss_tot if ss_tot > 0.0 else (1.0 if ss_res == 0.0 else 0.0)
    stderr = math.sqrt(ss_res / (xs.size - 2) / sxx)
    return LineFit(slope, intercept, r2, stderr, float(xs[0]), float(xs[-1]), int(xs.size))


def coefficient_of_variation(values: np.ndarray) -> float:
    """Sample standard deviation (ddof=1) over ``|mean|``; ``inf`` when the mean is 0."""
    data = _as_1d(values, "values", 2)
    return _ratio(float(data.std(ddof=1)), abs(float(data.mean())))


def linear_trend(times_fs: np.ndarray, values: np.ndarray) -> Trend:
    """Least-squares trend of ``values`` against ``times_fs`` (see :class:`Trend`)."""
    fit = fit_line(times_fs, values)
    mean = abs(float(np.mean(values)))
    duration = fit.x_end - fit.x_start
    return Trend(
        slope_per_fs=fit.slope,
        relative_slope_per_fs=_ratio(fit.slope, mean),
        relative_drift=_ratio(fit.slope * duration, mean),
        t_statistic=_ratio(fit.slope, fit.slope_stderr),
        n_samples=fit.n_points,
    )


def last_window_mask(
    times_fs: np.ndarray,
    *,
    last_window_fraction: float | None = None,
    last_window_fs: float | None = None,
) -> np.ndarray:
    """Mask of the samples in the most recent window of increasing ``times_fs``.

    The window is ``last_window_fs`` long, or ``last_window_fraction`` of the series'
    duration (default 0.5 when neither is given), and ends at the last sample.
    """
    times = _as_1d(times_fs, "times_fs", 2)
    if np.any(np.diff(times) <= 0):
        raise ValidationError("times_fs must be strictly increasing (remove repeated rows)")
    if last_window_fraction is not None and last_window_fs is not None:
        raise ValidationError("give last_window_fraction or last_window_fs, not both")
    if last_window_fs is None:
        fraction = 0.5 if last_window_fraction is None else last_window_fraction
        if not 0.0 < fraction <= 1.0:
            raise ValidationError(f"last_window_fraction must be in (0, 1], got {fraction}")
        last_window_fs = fraction * float(times[-1] - times[0])
    if last_window_fs <= 0:
        raise ValidationError(f"the window must be positive, got {last_window_fs} fs")
    start = float(times[-1]) - last_window_fs
    # a relative slack so that a window of exactly k sample spacings keeps its first sample
    slack = 1e-9 * max(abs(float(times[-1])), 1.0)
    mask: np.ndarray = times >= start - slack
    return mask


def window_statistics(
    times_fs: np.ndarray,
    values: np.ndarray,
    *,
    last_window_fraction: float | None = None,
    last_window_fs: float | None = None,
) -> WindowStatistics:
    """Mean, std, CV and trend over the most recent window (see :func:`last_window_mask`)."""
    times = _as_1d(times_fs, "times_fs", 2)
    data = _as_1d(values, "values", 2)
    if times.size != data.size:
        raise ValidationError(f"times and values differ in length ({times.size} vs {data.size})")
    mask = last_window_mask(
        times, last_window_fraction=last_window_fraction, last_window_fs=last_window_fs
    )
    t, v = times[mask], data[mask]
    if t.size < MIN_TREND_POINTS:
        raise ValidationError(
            f"only {t.size} samples in the window; need >= {MIN_TREND_POINTS} for a trend"
        )
    return WindowStatistics(
        start_fs=float(t[0]),
        end_fs=float(t[-1]),
        n_samples=int(t.size),
        mean=float(v.mean()),
        std=float(v.std(ddof=1)),
        cv=coefficient_of_variation(v),
        trend=linear_trend(t, v),
    )


def block_average(values: np.ndarray, n_blocks: int = 5) -> BlockAverage:
    """Mean and standard error from ``n_blocks`` consecutive block means.

    ``sem = std(block means, ddof=1) / sqrt(n_blocks)``; it is sound when each block
    is longer than the series' correlation time. When the length is not a multiple
    of ``n_blocks``, the oldest samples left over are dropped.
    """
    data = _as_1d(values, "values", 2)
    if n_blocks < 2:
        raise ValidationError(f"n_blocks must be >= 2, got {n_blocks}")
    block_len = data.size // n_blocks
    if block_len < 1:
        raise ValidationError(f"{data.size} samples cannot be split into {n_blocks} blocks")
    used = data[data.size - block_len * n_blocks :]
    means = used.reshape(n_blocks, block_len).mean(axis=1)
    return BlockAverage(
        mean=float(used.mean()),
        sem=float(means.std(ddof=1) / math.sqrt(n_blocks)),
        n_blocks=n_blocks,
        block_means=tuple(float(m) for m in means),
    )


def block_standard_error(values: np.ndarray, n_blocks: int = 5) -> float:
    """Standard error of the mean of ``values`` by block averaging (:func:`block_average`)."""
    return block_average(values, n_blocks).sem
