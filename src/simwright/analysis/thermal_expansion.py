"""Thermal expansion and heat capacity from an NPT temperature scan.

At each temperature the lattice parameter a and the enthalpy per atom h are
block-averaged (:func:`simwright.analysis.convergence.block_average`). Weighted
polynomial fits of a(T) and h(T) (quadratic when there are at least four
temperatures, else linear) give the linear thermal-expansion coefficient
α(T) = (1/a) da/dT and the isobaric heat capacity C_p = dH/dT, with standard errors
propagated from the fit's covariance. Classical MD: no quantum correction is applied
(C_p tends to 3R plus anharmonic terms, α stays finite as T -> 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np

from simwright.errors import ValidationError

EV_TO_J_MOL: Final = 96485.33212
"""1 eV per atom in J/mol (Faraday constant × 1 V)."""


@dataclass(frozen=True)
class ScanFit:
    """α(T) (1/K) and C_p(T) (J/(mol K)) on the scan's temperatures, with standard errors."""

    temperatures_k: np.ndarray
    alpha_per_k: np.ndarray
    alpha_err: np.ndarray
    cp_j_mol_k: np.ndarray
    cp_err: np.ndarray
    degree: int


def _derivative(
    t: np.ndarray, y: np.ndarray, err: np.ndarray, degree: int, at: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Value, derivative and derivative's standard error of a weighted fit, at ``at``."""
    t0 = float(t.mean())
    weights = 1.0 / np.maximum(err, 1e-12 * np.abs(y).max())
    coef, cov = np.polyfit(t - t0, y, degree, w=weights, cov="unscaled")
    x = at - t0
    value = np.polyval(coef, x)
    # derivative as a linear function of the coefficients (highest power first)
    grads = np.array(
        [
            [
                (degree - k) * xi ** (degree - k - 1) if k < degree else 0.0
                for k in range(degree + 1)
            ]
            for xi in x
        ]
    )
    slope = grads @ coef
    slope_err = np.sqrt(np.einsum("ij,jk,ik->i", grads, cov, grads))
    return value, slope, slope_err


def fit_scan(
    temperatures_k: np.ndarray,
    lattice_a: np.ndarray,
    lattice_err: np.ndarray,
    enthalpy_ev: np.ndarray,
    enthalpy_err: np.ndarray,
) -> ScanFit:
    """α(T) and C_p(T) from the block averages of a scan (enthalpy per atom, eV)."""
    t = np.asarray(temperatures_k, float)
    if t.size < 3 or np.any(np.diff(t) <= 0):
        raise ValidationError("a temperature scan needs at least three increasing temperatures")
    degree = 2 if t.size >= 4 else 1
    a, dadt, dadt_err = _derivative(t, np.asarray(lattice_a), np.asarray(lattice_err), degree, t)
    _, dhdt, dhdt_err = _derivative(t, np.asarray(enthalpy_ev), np.asarray(enthalpy_err), degree, t)
    return ScanFit(
        temperatures_k=t,
        alpha_per_k=dadt / a,
        alpha_err=dadt_err / a,
        cp_j_mol_k=dhdt * EV_TO_J_MOL,
        cp_err=dhdt_err * EV_TO_J_MOL,
        degree=degree,
    )


def value_at(fit: ScanFit, values: np.ndarray, errors: np.ndarray, t: float) -> tuple[float, float]:
    """``values`` (α or C_p) interpolated linearly at ``t`` inside the scan, with its error."""
    grid = fit.temperatures_k
    if not grid[0] <= t <= grid[-1]:
        raise ValidationError(f"{t:g} K lies outside the scan ({grid[0]:g}-{grid[-1]:g} K)")
    return float(np.interp(t, grid, values)), float(np.interp(t, grid, errors))


def expansion_plot(
    path: Path,
    t: np.ndarray,
    a: np.ndarray,
    a_err: np.ndarray,
    h: np.ndarray,
    h_err: np.ndarray,
    fit: ScanFit,
    title: str,
) -> Path:
    """Four panels: a(T), h(T) with error bars, α(T) and C_p(T) with their bands."""
    # lazy: matplotlib takes about half a second to import; only the plot needs it
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: as above

    fig, axes = plt.subplots(2, 2, figsize=(8.5, 6.0), dpi=110)
    panels = (
        (axes[0, 0], a, a_err, "lattice parameter a (Å)"),
        (axes[0, 1], h, h_err, "enthalpy per atom (eV)"),
        (axes[1, 0], fit.alpha_per_k * 1e6, fit.alpha_err * 1e6, "α (10⁻⁶ /K)"),
        (axes[1, 1], fit.cp_j_mol_k, fit.cp_err, "C_p (J mol⁻¹ K⁻¹)"),
    )
    for ax, y, err, label in panels:
        ax.errorbar(t, y, yerr=err, fmt="o-", ms=4, capsize=3)
        ax.set_xlabel("T (K)")
        ax.set_ylabel(label)
    axes[1, 1].axhline(3 * 8.314462618, ls="--", lw=0.8, color="grey", label="3R (Dulong–Petit)")
    axes[1, 1].legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
