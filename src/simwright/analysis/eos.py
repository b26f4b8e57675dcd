"""Equation-of-state fits of energy–volume scans, shared by the ASE and DFT protocols."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from ase.eos import EquationOfState

from simwright.contract import Column, Table
from simwright.errors import ValidationError
from simwright.reporting import plot_xy
from simwright.units import EV_A3_GPA


@dataclass(frozen=True)
class EOSFit:
    """The minimum of a fitted equation of state, per atom."""

    eos: str
    v0_a3: float
    e0_ev: float
    b0_gpa: float


def fit_eos(volumes_a3: np.ndarray, energies_ev: np.ndarray, eos: str) -> EOSFit:
    """Fit ``eos`` (ASE's names: birchmurnaghan, murnaghan, vinet, sj) to E(V) per atom.

    Refuses a failed fit and a minimum outside the scanned volumes, which would be an
    extrapolation.
    """
    try:
        v0, e0, b = EquationOfState(volumes_a3, energies_ev, eos=eos).fit()
    except (RuntimeError, ValueError) as exc:
        raise ValidationError(f"equation-of-state fit failed: {exc}") from exc
    if not volumes_a3.min() < v0 < volumes_a3.max():
        raise ValidationError(
            f"the energy minimum (V0 = {v0:.3f} Å³/atom) lies outside the scanned range; "
            "widen strain_percent or change the starting lattice constant"
        )
    return EOSFit(eos, float(v0), float(e0), float(b) * EV_A3_GPA)


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
    """The ``results`` table of a fit: a0 (Å), V0 (Å³/atom), E0 (eV/atom), B0 (GPa)."""
    return Table(
        name="results",
        columns=(
            Column("a0", np.array([a0_a]), "Å", a0_description),
            Column("v0", np.array([fit.v0_a3]), "Å^3", "equilibrium volume per atom"),
            Column("e0", np.array([fit.e0_ev]), "eV", "energy per atom at V0"),
            Column("b0", np.array([fit.b0_gpa]), "GPa", "bulk modulus"),
        ),
        description=description,
        producer=producer,
        links=links,
        attrs={"eos": fit.eos, **(attrs or {})},
    )


def eos_plot(
    path: Path, volumes_a3: np.ndarray, energies_ev: np.ndarray, fit: EOSFit, title: str
) -> Path:
    """E(V) per atom with the fitted minimum marked."""
    return plot_xy(
        path,
        volumes_a3,
        energies_ev,
        xlabel="volume per atom (Å³)",
        ylabel="energy per atom (eV)",
        title=title,
        marker_x=fit.v0_a3,
    )
