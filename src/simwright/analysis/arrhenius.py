"""Arrhenius fit of diffusion coefficients: D(T) = D₀ exp(−E_a / k_B T).

:func:`fit_arrhenius` fits ln D against 1/T by weighted least squares (weights from
the uncertainty of each D, σ_lnD = σ_D / D), gives E_a and ln D₀ with standard
errors from the fit's covariance (scaled by the reduced χ² when there are more
points than parameters), and extrapolates D to another temperature with its
propagated uncertainty. Two temperatures determine the line exactly: then the
errors come from the D uncertainties alone. :func:`arrhenius_plot` draws the
points, the line and the extrapolation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simwright.errors import ValidationError
from simwright.units import KB_EV_K

Values = Sequence[float] | np.ndarray
"""Numbers, as a list or an array."""


@dataclass(frozen=True)
class ArrheniusFit:
    """E_a (eV) and ln D₀ (D in the units given) with standard errors and covariance."""

    ea_ev: float
    ea_err_ev: float
    ln_d0: float
    ln_d0_err: float
    covariance: tuple[tuple[float, float], tuple[float, float]]
    """Covariance of (slope = −E_a/k_B in K, ln D₀)."""
    temperatures_k: tuple[float, ...]

    def at(self, temperature_k: float) -> tuple[float, float]:
        """D and its standard error at ``temperature_k`` (same units as the fitted D)."""
        x = np.array([1.0 / temperature_k, 1.0])
        cov = np.array(self.covariance)
        ln_d = -self.ea_ev / KB_EV_K * x[0] + self.ln_d0
        ln_err = math.sqrt(max(float(x @ cov @ x), 0.0))
        d = math.exp(ln_d)
        return d, d * ln_err


def fit_arrhenius(temperatures_k: Values, d: Values, d_err: Values) -> ArrheniusFit:
    """Weighted fit of ln D = ln D₀ − E_a/(k_B T); needs ≥ 2 temperatures with D > 0."""
    t = np.asarray(temperatures_k, float)
    y = np.asarray(d, float)
    err = np.asarray(d_err, float)
    if t.size < 2 or len(set(t.tolist())) < 2:
        raise ValidationError("an Arrhenius fit needs at least two distinct temperatures")
    if np.any(y <= 0) or np.any(t <= 0):
        raise ValidationError("an Arrhenius fit needs positive temperatures and D > 0")
    sigma = np.where(err > 0, err / y, 1.0)  # σ of ln D
    design = np.column_stack([1.0 / t, np.ones_like(t)])
    w = 1.0 / sigma**2
    normal = design.T @ (design * w[:, None])
    cov = np.linalg.inv(normal)
    slope, ln_d0 = cov @ (design.T @ (w * np.log(y)))
    dof = t.size - 2
    if dof > 0:
        resid = np.log(y) - design @ np.array([slope, ln_d0])
        chi2 = float(resid @ (w * resid)) / dof
        cov = cov * max(chi2, 1.0)
    return ArrheniusFit(
        ea_ev=float(-slope * KB_EV_K),
        ea_err_ev=float(math.sqrt(cov[0, 0]) * KB_EV_K),
        ln_d0=float(ln_d0),
        ln_d0_err=float(math.sqrt(cov[1, 1])),
        covariance=((float(cov[0, 0]), float(cov[0, 1])), (float(cov[1, 0]), float(cov[1, 1]))),
        temperatures_k=tuple(float(x) for x in t),
    )


def arrhenius_plot(
    path: Path,
    temperatures_k: Values,
    d: Values,
    d_err: Values,
    fit: ArrheniusFit | None,
    *,
    extrapolate_k: float,
    unit: str,
    title: str,
) -> Path:
    """log D against 1000/T with error bars, the fitted line down to ``extrapolate_k``."""
    # lazy: matplotlib takes about half a second to import; only the plot needs it
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: as above

    t = np.asarray(temperatures_k, float)
    y = np.asarray(d, float)
    fig, ax = plt.subplots(figsize=(5.5, 4.0), dpi=110)
    ok = y > 0
    ax.errorbar(1000 / t[ok], y[ok], yerr=np.asarray(d_err, float)[ok], fmt="o", capsize=3)
    if fit is not None:
        grid = np.linspace(1000 / max(t.max(), extrapolate_k), 1000 / extrapolate_k, 50)
        line = [fit.at(1000 / g)[0] for g in grid]
        ax.plot(grid, line, "-", label=f"E_a = {fit.ea_ev:.2f} ± {fit.ea_err_ev:.2f} eV")
        d_ex, err_ex = fit.at(extrapolate_k)
        ax.errorbar(
            [1000 / extrapolate_k],
            [d_ex],
            yerr=[[min(err_ex, 0.9 * d_ex)], [err_ex]],
            fmt="s",
            mfc="none",
            capsize=3,
            label=f"extrapolated to {extrapolate_k:g} K",
        )
        ax.legend(fontsize=8)
    ax.set_yscale("log")
    ax.set_xlabel("1000 / T (1/K)")
    ax.set_ylabel(f"D ({unit})")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def msd_plot(
    path: Path, curves: Sequence[tuple[np.ndarray, np.ndarray, str]], *, ylabel: str, title: str
) -> Path:
    """Several MSD curves (lag in ps, MSD in Å²), one per temperature, labelled."""
    # lazy: matplotlib takes about half a second to import; only the plot needs it
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: as above

    fig, ax = plt.subplots(figsize=(5.5, 4.0), dpi=110)
    for x, y, label in curves:
        ax.plot(x, y, "-", lw=1.2, label=label)
    ax.set_xlabel("lag (ps)")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
