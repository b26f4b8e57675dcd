"""The generic fit action: models fitted to columns of a recorded table."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from typing_extensions import override

from helpers.steps import run_graph
from simwright.analysis.eos import fit_eos
from simwright.contract import SCHEMA_VERSION, Column, Table, read_table, write_table
from simwright.errors import ValidationError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.results import ArtifactRef
from simwright.settings import Settings
from simwright.steps.fit import EquationOfState, Polynomial, fit_table
from simwright.store import Store

X = np.linspace(0.0, 4.0, 9)


@dataclass(frozen=True)
class WriteCurve(Step):
    """Record y = 2 + 3x - 0.5x² as a table."""

    @override
    def run(self, ctx: RunContext) -> FitCurve:
        table = Table(
            "curve",
            (Column("x", X, "K"), Column("y", 2 + 3 * X - 0.5 * X**2, "eV")),
            "a parabola",
        )
        path = write_table(ctx.workdir / "curve.h5", table)
        return FitCurve(ctx.artifact(path, "table", table.description, SCHEMA_VERSION))


@dataclass(frozen=True)
class FitCurve(Step):
    """Fit a quadratic with the shared action."""

    curve: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Done[ArtifactRef]:
        return Done(fit_table(ctx, self.curve, "x", "y", Polynomial(2)))


def test_fit_table_records_parameters_with_units(store: Store, settings: Settings) -> None:
    out = run_graph(Graph.build("fit", [WriteCurve, FitCurve]), WriteCurve(), store, settings)
    fit = read_table(settings.runs_path / out.run_id / out.result.path)
    assert [float(fit[c][0]) for c in ("c0", "c1", "c2")] == pytest.approx([2.0, 3.0, -0.5])
    assert fit.column("c2").unit == "eV/K^2" and fit.column("c0").unit == "eV"
    assert float(fit["rms_residual"][0]) < 1e-9
    assert fit.links == ("../001-WriteCurve/curve.h5",)


def test_equation_of_state_model_is_the_analysis_fit() -> None:
    v = np.linspace(10.0, 13.0, 7)
    e = 0.02 * (v - 11.8) ** 2 - 3.5
    model = EquationOfState("birchmurnaghan").fit(v, e, "Å^3", "eV")
    direct = fit_eos(v, e, "birchmurnaghan")
    assert model.parameters["v0"] == pytest.approx(direct.v0_a3)
    assert model.parameters["b0"] == pytest.approx(direct.b0_gpa) and model.units["b0"] == "GPa"


def test_too_few_points_for_the_polynomial_are_refused() -> None:
    with pytest.raises(ValidationError, match="3 points cannot fit a polynomial of degree 3"):
        Polynomial(3).fit(X[:3], X[:3], "1", "1")
