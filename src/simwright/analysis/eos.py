"""Equation-of-state fits of energy–volume scans, shared by the ASE and DFT protocols."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from ase.eos import EquationOfState

from simwright.contract import Column, Table
from simwright.errors import ValidationError
from simwright.reporting import plot_xy
from simwright.units import EV_A3_GPA


@dataclass(frozen=True)
class EOSFit:
    """The minimum of a fitted equation of state, per atom.

    ``b0_prime`` is dB/dP at V0 (NaN when unknown); ``curve`` holds the fitted E(V)
    on a fine grid over the scanned volumes and ``residuals_ev`` the data minus the
    fit at each scanned volume (None when the fit was not kept).
    """

    eos: str
    v0_a3: float
    e0_ev: float
    b0_gpa: float
    b0_prime: float = float("nan")
    curve: tuple[np.ndarray, np.ndarray] | None = None
    residuals_ev: np.ndarray | None = None

    @property
    def rms_residual_ev(self) -> float:
        """RMS of the residuals (eV per atom), NaN when not kept."""
        if self.residuals_ev is None:
            return float("nan")
        return float(np.sqrt(np.mean(self.residuals_ev**2)))


def _energy_function(fitted: Any, eos: str) -> Callable[[np.ndarray], np.ndarray]:
    if eos == "sj":
        return lambda v: np.asarray(fitted.fit0(np.asarray(v) ** (-1.0 / 3.0)))
    return lambda v: np.asarray(fitted.func(np.asarray(v), *fitted.eos_parameters))


def pressure_derivative(energy: Callable[[np.ndarray], np.ndarray], v0: float) -> float:
    """B0' = dB/dP at ``v0`` of E(V): −1 − V0 E'''/E'' by central differences."""
    h = 1e-3 * v0
    e = energy(np.array([v0 - 2 * h, v0 - h, v0, v0 + h, v0 + 2 * h]))
    second = (e[3] - 2 * e[2] + e[1]) / h**2
    third = (e[4] - 2 * e[3] + 2 * e[1] - e[0]) / (2 * h**3)
    return float(-1.0 - v0 * third / second)


def fit_eos(volumes_a3: np.ndarray, energies_ev: np.ndarray, eos: str) -> EOSFit:
    """Fit ``eos`` (ASE's names: birchmurnaghan, murnaghan, vinet, sj) to E(V) per atom.

    Refuses a failed fit and a minimum outside the scanned volumes, which would be an
    extrapolation. Keeps B0', the fitted curve and the residuals.
    """
    fitted = EquationOfState(volumes_a3, energies_ev, eos=eos)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v0, e0, b = fitted.fit()
    except (RuntimeError, ValueError) as exc:
        raise ValidationError(f"equation-of-state fit failed: {exc}") from exc
    if not volumes_a3.min() < v0 < volumes_a3.max():
        raise ValidationError(
            f"the energy minimum (V0 = {v0:.3f} Å³/atom) lies outside the scanned range; "
            "widen strain_percent or change the starting lattice constant"
        )
    energy = _energy_function(fitted, eos)
    grid = np.linspace(volumes_a3.min(), volumes_a3.max(), 200)
    if eos == "sj":
        b0_prime = pressure_derivative(energy, float(v0))
    else:
        b0_prime = float(fitted.eos_parameters[2])
    return EOSFit(
        eos,
        float(v0),
        float(e0),
        float(b) * EV_A3_GPA,
        b0_prime,
        (grid, energy(grid)),
        np.asarray(energies_ev) - energy(np.asarray(volumes_a3)),
    )


def eos_table(
    fit: EOSFit,
    a0_a: float,
    *,
    description: str,
    producer: str,
    links: tuple[str, ...] = (),
    attrs: Mapping[str, str | int | float] | None = None,
    a0_description: str = "equilibrium lattice constant",
) -> Table:
    """The ``results`` table of a fit: a0 (Å), V0 (Å³/atom), E0 (eV/atom), B0 (GPa), B0'."""
    return Table(
        name="results",
        columns=(
            Column("a0", np.array([a0_a]), "Å", a0_description),
            Column("v0", np.array([fit.v0_a3]), "Å^3", "equilibrium volume per atom"),
            Column("e0", np.array([fit.e0_ev]), "eV", "energy per atom at V0"),
            Column("b0", np.array([fit.b0_gpa]), "GPa", "bulk modulus"),
            Column("b0_prime", np.array([fit.b0_prime]), "1", "pressure derivative of B at V0"),
            Column("rms_residual", np.array([fit.rms_residual_ev]), "eV", "RMS fit residual"),
        ),
        description=description,
        producer=producer,
        links=links,
        attrs={"eos": fit.eos, **(attrs or {})},
    )


def eos_plot(
    path: Path, volumes_a3: np.ndarray, energies_ev: np.ndarray, fit: EOSFit, title: str
) -> Path:
    """E(V) per atom: the points, the fitted curve, V0 marked, and the residuals below.

    Without a kept curve (a fit made elsewhere) only the points are drawn.
    """
    if fit.curve is None or fit.residuals_ev is None:
        return plot_xy(
            path,
            volumes_a3,
            energies_ev,
            xlabel="volume per atom (Å³)",
            ylabel="energy per atom (eV)",
            title=title,
            marker_x=fit.v0_a3,
        )
    # lazy: matplotlib takes about half a second to import; only the plot needs it
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: as above

    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(5.5, 5.0), dpi=110, sharex=True, gridspec_kw={"height_ratios": [3, 1]}
    )
    top.plot(volumes_a3, energies_ev, "o", ms=5, label="computed")
    top.plot(fit.curve[0], fit.curve[1], "-", lw=1.3, label=f"{fit.eos} fit")
    top.axvline(fit.v0_a3, color="grey", lw=0.8, ls=":")
    top.set_ylabel("energy per atom (eV)")
    top.set_title(f"{title}\nB0 = {fit.b0_gpa:.1f} GPa, B0' = {fit.b0_prime:.2f}", fontsize=10)
    top.legend(fontsize=8)
    bottom.axhline(0.0, color="grey", lw=0.8)
    bottom.plot(volumes_a3, fit.residuals_ev * 1000.0, "o", ms=4)
    bottom.set_xlabel("volume per atom (Å³)")
    bottom.set_ylabel("residual (meV)")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
