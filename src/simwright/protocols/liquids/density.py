"""Protocol ``density``: the density of a liquid at (T, p) by NPT molecular dynamics.

pack (PACKMOL) → minimize (flexible models) → NPT equilibration → NPT sampling →
convergence check on the sampled density: the mean and its standard error from block
averages, and the relative drift of a line fitted through the window. Converged when
the drift and the relative standard error are both below their tolerances (a rule);
otherwise sample longer (at most ``max_extensions`` times) and report with a warning.
Systems: SPC/E, TIP3P and TIP4P/2005 water, Lennard-Jones argon, molten NaCl, and
methanol, ethanol and acetonitrile with OPLS-AA.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from pydantic import Field, model_validator
from typing_extensions import override

from simwright.analysis.convergence import block_average, linear_trend
from simwright.contract import read_table
from simwright.engines.lammps.segment import MDSpec
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.liquids.inputs import md_inputs
from simwright.protocols.liquids.references import DENSITY, Reference
from simwright.protocols.liquids.run import (
    ORGANIC_SYSTEMS,
    WATER_SYSTEMS,
    LiquidRunParams,
    equilibrate_liquid,
    prepare_liquid,
)
from simwright.protocols.liquids.sizing import liquid_estimate
from simwright.protocols.liquids.words import parse_liquid_request, water_model_assumed
from simwright.protocols.registry import Protocol
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.steps.md import produce, steps_for
from simwright.steps.report import report_result

NACL_DENSITY_EXPERIMENT = Reference(
    "density",
    2.1393 - 5.43e-4 * 1200.0,
    "g/cm^3",
    "experiment, molten NaCl at 1200 K: ρ = 2.1393 − 5.43·10⁻⁴ T, G. J. Janz et al., "
    "J. Phys. Chem. Ref. Data 8, 791 (1979) (≈, value of the correlation)",
)


class DensityParams(LiquidRunParams):
    """Parameters of ``density``; NPT always (a fixed density is refused)."""

    SYSTEMS_ALLOWED: ClassVar[tuple[str, ...]] = (
        *WATER_SYSTEMS,
        "lj_argon",
        "nacl_melt",
        *ORGANIC_SYSTEMS,
    )

    n_blocks: int = Field(5, ge=2, le=100)
    drift_tol: float = Field(0.005, gt=0, lt=1)
    """Largest relative change of the fitted line over the sampled window."""
    sem_tol: float = Field(0.003, gt=0, lt=1)
    """Largest relative block standard error of the mean density."""
    max_extensions: int = Field(2, ge=0, le=20)

    @classmethod
    @override
    def system_defaults(cls, system: str) -> dict[str, Any]:
        defaults = super().system_defaults(system)
        defaults.pop("density_g_cm3", None)
        defaults.setdefault("pressure_bar", 1.01325)
        if system == "lj_argon":
            defaults["temperature_k"] = 85.0  # liquid at 1 atm (boils at 87.3 K)
        return defaults

    @model_validator(mode="after")
    def _npt_only(self) -> DensityParams:
        if self.density_g_cm3 is not None:
            raise ValueError("density measures the density at a pressure: give pressure_bar")
        return self


@dataclass(frozen=True)
class Prepare(Step):
    """Pack the system and minimize it (rigid water starts from the packing)."""

    params: DensityParams

    @override
    def run(self, ctx: RunContext) -> Equilibrate:
        return Equilibrate(self.params, prepare_liquid(ctx, self.params))


@dataclass(frozen=True)
class Equilibrate(Step):
    """NPT equilibration at the target temperature and pressure."""

    params: DensityParams
    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Sample:
        files = equilibrate_liquid(ctx, self.params, self.start)
        assert files.restart is not None
        return Sample(self.params, files.restart, (), 0)


@dataclass(frozen=True)
class Sample(Step):
    """NPT sampling of the density (one segment, or an extension of the previous ones)."""

    params: DensityParams
    start: ArtifactRef
    thermo: tuple[ArtifactRef, ...]
    extensions: int

    @override
    def run(self, ctx: RunContext) -> CheckConvergence:
        p = self.params
        length = p.production_ps if not self.thermo else p.production_ps / 2
        spec = MDSpec(
            "npt",
            steps=steps_for(length, p.timestep_fs),
            timestep_fs=p.timestep_fs,
            temperature_k=p.temperature_k,
            pressure_bar=p.pressure_bar,
            thermo_every=p.every(20.0 * p.timestep_fs),
            seed=p.seed,
            zero_momentum=True,
        )
        files = produce(ctx, spec, p.forcefield, self.start, f"NPT sampling {len(self.thermo) + 1}")
        assert files.restart is not None
        return CheckConvergence(p, files.restart, (*self.thermo, files.thermo), self.extensions)


@dataclass(frozen=True)
class CheckConvergence(Step):
    """Block average and drift of the sampled density; extend or report (rules)."""

    params: DensityParams
    last_restart: ArtifactRef
    thermo: tuple[ArtifactRef, ...]
    extensions: int

    @override
    def run(self, ctx: RunContext) -> Sample | Report:
        p = self.params
        times, density = _series(ctx, self.thermo)
        blocks = block_average(density, p.n_blocks)
        drift = abs(linear_trend(times, density).relative_drift)
        rel_sem = blocks.sem / blocks.mean
        verdict = (
            f"mean {blocks.mean:.4f} g/cm³, block SEM {100 * rel_sem:.2f} % "
            f"(tol {100 * p.sem_tol:g} %), drift {100 * drift:.2f} % (tol {100 * p.drift_tol:g} %)"
        )
        converged = drift <= p.drift_tol and rel_sem <= p.sem_tol
        if not converged and self.extensions < p.max_extensions:
            ctx.rule("extend_density_sampling", f"not converged: {verdict}")
            return Sample(p, self.last_restart, self.thermo, self.extensions + 1)
        ctx.rule("density_converged" if converged else "density_not_converged", verdict)
        return Report(p, self.thermo, converged, self.extensions)


def _series(ctx: RunContext, thermo: tuple[ArtifactRef, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Time (fs, continuous over segments) and density of the sampling segments."""
    times: list[np.ndarray] = []
    values: list[np.ndarray] = []
    for ref in thermo:
        table = read_table(ctx.path(ref))
        skip = 1 if times else 0  # each continuation repeats the previous last row
        times.append(table["time"][skip:])
        values.append(table["density"][skip:])
    return np.concatenate(times), np.concatenate(values)


@dataclass(frozen=True)
class Report(Step):
    """Report the density with its block standard error, and the published values."""

    params: DensityParams
    thermo: tuple[ArtifactRef, ...]
    converged: bool
    extensions: int

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        times, density = _series(ctx, self.thermo)
        blocks = block_average(density, p.n_blocks)
        trend = linear_trend(times, density)
        src = self.thermo[-1].path
        values = {
            "density": Quantity(blocks.mean, "g/cm^3", blocks.sem, src),
            "density_relative_drift": Quantity(trend.relative_drift, "1", source=src),
            "sampled_time": Quantity(float(times[-1] - times[0]) / 1000.0, "ps", source=src),
        }
        refs = DENSITY.get(p.system, ())
        if p.system == "nacl_melt":
            refs = (NACL_DENSITY_EXPERIMENT,)
        notes = [
            f"{p.n_molecules} {'formula units' if p.system == 'nacl_melt' else 'molecules'}; "
            f"sampled {values['sampled_time'].value:.1f} ps after {p.equilibration_ps:g} ps "
            f"of equilibration ({self.extensions} extension(s)). The uncertainty is the "
            f"standard error of {p.n_blocks} block means; with blocks shorter than the "
            "volume's correlation time it is too small.",
            "Finite size: a box of a few hundred molecules shifts the density by less than "
            "0.1 % for water, well below this run's statistical error.",
        ]
        if not self.converged:
            notes.append("WARNING: the density did not meet the convergence tolerances")
        return Done(
            report_result(
                ctx,
                title=f"Density of {p.liquid.description} at {p.state()}",
                summary=f"ρ = {blocks.mean:.4f} ± {blocks.sem:.4f} g/cm³ ({p.liquid.description}, "
                f"{p.state()})",
                values=values,
                method=(
                    f"NPT (Nosé–Hoover thermostat and barostat) at {p.state()}, "
                    f"{p.timestep_fs:g} fs; {p.liquid.forcefield} force field "
                    f"({p.forcefield.reference}; {p.forcefield.pair_style.describe()}). "
                    "Mean over the sampling segments; "
                    "convergence by block averages and a linear drift test."
                ),
                artifacts=self.thermo,
                references=refs,
                notes=notes,
            )
        )


GRAPH = Graph.build("density", [Prepare, Equilibrate, Sample, CheckConvergence, Report])

_TRIGGERS = ("density", "mass density", "densities")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from e.g. 'density of TIP4P/2005 water at 298 K and 1 bar'."""
    return parse_liquid_request(text, _TRIGGERS, DensityParams.SYSTEMS_ALLOWED, "density")


PROTOCOL = Protocol(
    name="density",
    title="Density of a liquid at (T, p) by NPT molecular dynamics (LAMMPS)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=DensityParams,
    start=lambda params: Prepare(params),
    examples=(
        "density of TIP4P/2005 water at 298 K and 1 bar",
        "density of SPC/E water at 25 °C",
        "density of molten NaCl at 1200 K",
    ),
    parse_request=parse_request,
    defaulted=water_model_assumed,
    estimate=liquid_estimate,
    prepare=md_inputs,
)
