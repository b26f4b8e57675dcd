"""Fit a model to two columns of a recorded table: the generic fit action.

A :class:`FitModel` is a frozen dataclass with ``fit(x, y) -> FitResult``; new fits
(elastic constants from stress–strain, Arrhenius laws, surface energy against slab
thickness) subclass it and reuse :func:`fit_table`, which reads the table, fits,
and records a one-row ``fit`` table with the parameters, their units and the RMS
residual. :class:`Polynomial` and :class:`EquationOfState` are the first two models.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePath

import numpy as np

from simwright.analysis.eos import fit_eos
from simwright.contract import SCHEMA_VERSION, Column, Table, read_table, write_table
from simwright.errors import ValidationError
from simwright.graph import RunContext
from simwright.results import ArtifactRef


@dataclass(frozen=True)
class FitResult:
    """Fitted parameters with their units, and the RMS residual in the unit of y."""

    parameters: Mapping[str, float]
    units: Mapping[str, str] = field(default_factory=dict)
    rms_residual: float = float("nan")


class FitModel(ABC):
    """A model fitted to (x, y) data; implementations are frozen dataclasses."""

    @abstractmethod
    def describe(self) -> str:
        """A short description for the table and the report."""

    @abstractmethod
    def fit(self, x: np.ndarray, y: np.ndarray, x_unit: str, y_unit: str) -> FitResult:
        """The fitted parameters (units derived from those of x and y)."""


@dataclass(frozen=True)
class Polynomial(FitModel):
    """Least-squares polynomial ``y = c0 + c1 x + ... + c_d x^d``."""

    degree: int = 1

    def describe(self) -> str:
        """E.g. ``polynomial of degree 2``."""
        return f"polynomial of degree {self.degree}"

    def fit(self, x: np.ndarray, y: np.ndarray, x_unit: str, y_unit: str) -> FitResult:
        """Coefficients c0..cd with units y_unit / x_unit^k."""
        if self.degree < 0 or len(x) <= self.degree:
            raise ValidationError(f"{len(x)} points cannot fit a {self.describe()}")
        coeffs = np.polynomial.polynomial.polyfit(x, y, self.degree)
        residual = y - np.polynomial.polynomial.polyval(x, coeffs)
        units = {
            f"c{k}": y_unit if k == 0 else f"{y_unit}/{x_unit}^{k}" for k in range(len(coeffs))
        }
        params = {f"c{k}": float(c) for k, c in enumerate(coeffs)}
        return FitResult(params, units, float(np.sqrt(np.mean(residual**2))))


@dataclass(frozen=True)
class EquationOfState(FitModel):
    """An ASE equation of state E(V): x volume per atom (Å³), y energy per atom (eV)."""

    eos: str = "birchmurnaghan"

    def describe(self) -> str:
        """E.g. ``birchmurnaghan equation of state``."""
        return f"{self.eos} equation of state"

    def fit(self, x: np.ndarray, y: np.ndarray, x_unit: str, y_unit: str) -> FitResult:
        """V0, E0 and B0 (:func:`simwright.analysis.eos.fit_eos`)."""
        result = fit_eos(x, y, self.eos)
        return FitResult(
            {"v0": result.v0_a3, "e0": result.e0_ev, "b0": result.b0_gpa},
            {"v0": x_unit, "e0": y_unit, "b0": "GPa"},
        )


def fit_table(
    ctx: RunContext,
    table: ArtifactRef,
    x: str,
    y: str,
    model: FitModel,
    name: str = "fit.h5",
) -> ArtifactRef:
    """Fit ``model`` to columns ``x`` and ``y`` of a recorded table; record the fit table."""
    data = read_table(ctx.path(table))
    cx, cy = data.column(x), data.column(y)
    result = model.fit(np.asarray(cx.values, float), np.asarray(cy.values, float), cx.unit, cy.unit)
    columns = tuple(
        Column(k, np.array([v]), result.units.get(k, "1")) for k, v in result.parameters.items()
    )
    columns += (Column("rms_residual", np.array([result.rms_residual]), cy.unit),)
    source = PurePath(table.path)
    out = Table(
        name="fit",
        columns=columns,
        description=f"{model.describe()} fitted to {y} against {x}",
        producer=ctx.producer,
        links=(f"../{source.parent.name}/{source.name}",),
        attrs={"model": model.describe(), "x": x, "y": y},
    )
    path = write_table(ctx.workdir / name, out)
    return ctx.artifact(path, "table", out.description, SCHEMA_VERSION)
