"""Protocol ``liquid_thermal_properties``: isobaric heat capacity C_p and thermal
expansion coefficient α of a liquid from an NPT temperature scan.

pack (PACKMOL) → minimize (flexible models) → NPT equilibration at the lowest
temperature → one NPT run per temperature of the scan (each from the previous one's
end; its first ``settle_ps`` discarded) → C_p = dH/dT and α = (1/V) dV/dT from a
weighted line through the block-averaged means (the value), and from the NPT
fluctuations ⟨δH²⟩ and ⟨δV δH⟩ at the centre temperature (the cross-check;
:mod:`simwright.analysis.thermal_response`) → report with published values.

For liquids only (water models, Lennard-Jones argon): the thermal expansion of a
crystal is another protocol (quasi-harmonic or solid MD) and is not run here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from pydantic import Field, model_validator
from typing_extensions import override

from simwright.analysis.thermal_response import (
    EV_PER_K_TO_J_PER_MOL_K,
    StatePoint,
    ThermalResponse,
    enthalpy_ev,
    state_point,
    thermal_response,
)
from simwright.contract import read_table
from simwright.engines.lammps.segment import MDSpec
from simwright.graph import Done, Graph, RunContext, Step
from simwright.molecules import get_molecule
from simwright.protocols.estimate import Estimate, MdSegment, md_estimate
from simwright.protocols.liquids.inputs import md_inputs
from simwright.protocols.liquids.references import THERMAL_PROPERTIES
from simwright.protocols.liquids.run import (
    WATER_SYSTEMS,
    LiquidRunParams,
    equilibrate_liquid,
    prepare_liquid,
)
from simwright.protocols.liquids.words import parse_liquid_request, water_model_assumed
from simwright.protocols.registry import Protocol
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.settings import Settings
from simwright.steps.md import produce, steps_for
from simwright.steps.report import report_result


class LiquidThermalParams(LiquidRunParams):
    """Parameters of ``liquid_thermal_properties``: a scan centred on ``temperature_k``.

    ``n_temperatures`` (odd) temperatures spaced ``delta_t_k`` apart; NPT only.
    ``production_ps`` is the sampled length at each temperature, after ``settle_ps``.
    """

    SYSTEMS_ALLOWED: ClassVar[tuple[str, ...]] = (*WATER_SYSTEMS, "lj_argon")

    delta_t_k: float = Field(gt=0, le=100)
    n_temperatures: int = Field(3, ge=3, le=11)
    settle_ps: float = Field(gt=0, le=1e4)
    n_blocks: int = Field(5, ge=2, le=100)

    @classmethod
    @override
    def system_defaults(cls, system: str) -> dict[str, Any]:
        defaults = super().system_defaults(system)
        defaults.pop("density_g_cm3", None)
        defaults.setdefault("pressure_bar", 1.01325)
        if system == "lj_argon":
            # 83–89 K at 1 atm: real argon boils at 87.3 K; the 2.5σ shifted model's vapour
            # pressure here is not known to simwright, so the upper point may be slightly
            # superheated; it stays liquid in a closed NPT box for these run lengths (the
            # report gives the density at the centre)
            defaults.update(temperature_k=86.0, delta_t_k=3.0, settle_ps=5.0)
        else:
            defaults.update(delta_t_k=10.0, settle_ps=5.0)
        return defaults

    @model_validator(mode="after")
    def _npt_scan(self) -> LiquidThermalParams:
        if self.density_g_cm3 is not None:
            raise ValueError(
                "liquid_thermal_properties scans temperature at a pressure: give pressure_bar"
            )
        if self.n_temperatures % 2 == 0:
            raise ValueError("n_temperatures must be odd (the centre is the requested one)")
        if self.temperatures()[0] <= 0:
            raise ValueError("the scan reaches 0 K: lower delta_t_k or n_temperatures")
        return self

    def temperatures(self) -> tuple[float, ...]:
        """The scan's temperatures, lowest first; the middle one is ``temperature_k``."""
        half = (self.n_temperatures - 1) / 2
        return tuple(
            self.temperature_k + self.delta_t_k * (i - half) for i in range(self.n_temperatures)
        )


@dataclass(frozen=True)
class Prepare(Step):
    """Pack the system and minimize it (rigid water starts from the packing)."""

    params: LiquidThermalParams

    @override
    def run(self, ctx: RunContext) -> Equilibrate:
        return Equilibrate(self.params, prepare_liquid(ctx, self.params))


@dataclass(frozen=True)
class Equilibrate(Step):
    """NPT equilibration at the lowest temperature of the scan."""

    params: LiquidThermalParams
    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Sample:
        p = self.params
        lowest = p.model_copy(update={"temperature_k": p.temperatures()[0]})
        files = equilibrate_liquid(ctx, lowest, self.start)
        assert files.restart is not None
        return Sample(p, files.restart, ())


@dataclass(frozen=True)
class Sample(Step):
    """NPT at the next temperature of the scan, from the previous run's end."""

    params: LiquidThermalParams
    start: ArtifactRef
    thermo: tuple[ArtifactRef, ...]

    @override
    def run(self, ctx: RunContext) -> Sample | Analyze:
        p = self.params
        temperature = p.temperatures()[len(self.thermo)]
        spec = MDSpec(
            "npt",
            steps=steps_for(p.settle_ps + p.production_ps, p.timestep_fs),
            timestep_fs=p.timestep_fs,
            temperature_k=temperature,
            pressure_bar=p.pressure_bar,
            thermo_every=p.every(10.0 * p.timestep_fs),
            seed=p.seed,
            zero_momentum=True,
        )
        files = produce(ctx, spec, p.forcefield, self.start, f"NPT at {temperature:g} K")
        assert files.restart is not None
        thermo = (*self.thermo, files.thermo)
        if len(thermo) < p.n_temperatures:
            return Sample(p, files.restart, thermo)
        return Analyze(p, thermo)


def _series(ctx: RunContext, ref: ArtifactRef, p: LiquidThermalParams) -> tuple[np.ndarray, ...]:
    """(enthalpy eV, volume Å³) of one run after its settling time."""
    table = read_table(ctx.path(ref))
    time = table["time"] - table["time"][0]
    keep = time >= p.settle_ps * 1000.0
    assert p.pressure_bar is not None
    h = enthalpy_ev(table["total_energy"][keep], table["volume"][keep], p.pressure_bar)
    return h, table["volume"][keep]


@dataclass(frozen=True)
class Analyze(Step):
    """C_p and α from the scan (finite differences) and from the centre's fluctuations."""

    params: LiquidThermalParams
    thermo: tuple[ArtifactRef, ...]

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        series = [_series(ctx, ref, p) for ref in self.thermo]
        points = [
            state_point(t, h, v, p.n_blocks)
            for t, (h, v) in zip(p.temperatures(), series, strict=True)
        ]
        centre = series[p.n_temperatures // 2]
        response = thermal_response(points, p.n_molecules, (centre[0], centre[1]))
        ctx.rule(
            "finite_difference_over_scan",
            f"C_p and α from a weighted line through {p.n_temperatures} temperatures "
            f"{p.temperatures()[0]:g}–{p.temperatures()[-1]:g} K; fluctuations as a cross-check",
        )
        return Done(_report(ctx, p, points, response, self.thermo))


def _report(
    ctx: RunContext,
    p: LiquidThermalParams,
    points: list[StatePoint],
    r: ThermalResponse,
    thermo: tuple[ArtifactRef, ...],
) -> ProtocolResult:
    """The report: both estimates, the scan's means and the published values."""
    src = thermo[p.n_temperatures // 2].path
    j = EV_PER_K_TO_J_PER_MOL_K
    mass_g = sum(get_molecule(m).mass_amu for m in p.liquid.components) * p.n_molecules
    density = mass_g / 6.02214076e23 / (r.centre_volume_a3 * 1e-24)
    values = {
        "heat_capacity_p": Quantity(
            r.heat_capacity_ev_k * j, "J/(mol*K)", r.heat_capacity_err_ev_k * j, src
        ),
        "thermal_expansion": Quantity(r.expansion_per_k, "1/K", r.expansion_err_per_k, src),
        "heat_capacity_p_fluctuation": Quantity(
            r.fluctuation_heat_capacity_ev_k * j, "J/(mol*K)", source=src
        ),
        "thermal_expansion_fluctuation": Quantity(r.fluctuation_expansion_per_k, "1/K", source=src),
        "density": Quantity(density, "g/cm^3", source=src),
    }
    scan = "; ".join(
        f"{pt.temperature_k:g} K: V = {pt.volume_a3:.1f} ± {pt.volume_sem_a3:.1f} Å³, "
        f"H = {pt.enthalpy_ev:.3f} ± {pt.enthalpy_sem_ev:.3f} eV"
        for pt in points
    )
    unit = "molecules" if p.system in WATER_SYSTEMS else "atoms"
    return report_result(
        ctx,
        title=f"Heat capacity and thermal expansion of {p.liquid.description} at {p.state()}",
        summary=(
            f"C_p = {values['heat_capacity_p'].value:.1f} ± "
            f"{values['heat_capacity_p'].uncertainty:.1f} J/(mol·K), α = "
            f"{r.expansion_per_k * 1e4:.2f} ± {r.expansion_err_per_k * 1e4:.2f} × 10⁻⁴ K⁻¹ "
            f"({p.liquid.description}, classical)"
        ),
        values=values,
        method=(
            f"{p.n_molecules} {unit}; NPT (Nosé–Hoover) at {p.pressure_bar:g} bar and "
            f"{', '.join(f'{t:g}' for t in p.temperatures())} K, each {p.settle_ps:g} ps settling "
            f"+ {p.production_ps:g} ps sampled; H = E_total + pV. Weighted line through the "
            f"block means ({p.n_blocks} blocks): C_p = dH/dT, α = (1/V) dV/dT at the centre. "
            f"Cross-check: ⟨δH²⟩/(k_B T²) and ⟨δVδH⟩/(k_B T² V) at the centre. Scan: {scan}."
        ),
        artifacts=thermo,
        references=THERMAL_PROPERTIES.get(p.system, ()),
        notes=[
            "Classical mechanics: rigid-water C_p lacks the quantum corrections of the "
            "librations, so classical models overestimate the measured C_p (≈ 75 J/(mol·K) "
            "for water); compare with the model's classical value.",
            "Statistics: the block error of short runs is optimistic; the finite-difference "
            "and fluctuation estimates should agree within their scatter, a cheap test of "
            "equilibration and sampling.",
        ],
    )


GRAPH = Graph.build("liquid_thermal_properties", [Prepare, Equilibrate, Sample, Analyze])

_TRIGGERS = (
    "heat capacity",
    "specific heat",
    "thermal expansion",
    "expansion coefficient",
    "expansivity",
    "thermal properties",
)


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from e.g. 'heat capacity of liquid argon' or 'thermal expansion of water'."""
    return parse_liquid_request(
        text, _TRIGGERS, LiquidThermalParams.SYSTEMS_ALLOWED, "liquid_thermal_properties"
    )


def estimate(params: Any, settings: Settings) -> Estimate:
    """Atoms and MD steps of the scan (equilibration, then one run per temperature)."""
    p = params
    atoms = p.n_molecules * sum(get_molecule(m).n_atoms for m in p.liquid.components)
    segments = [MdSegment("equilibration", steps_for(p.equilibration_ps, p.timestep_fs))]
    segments += [
        MdSegment(f"NPT at {t:g} K", steps_for(p.settle_ps + p.production_ps, p.timestep_fs))
        for t in p.temperatures()
    ]
    return md_estimate(p.liquid.forcefield, atoms, tuple(segments))


PROTOCOL = Protocol(
    name="liquid_thermal_properties",
    title="Heat capacity C_p and thermal expansion α of a liquid (NPT temperature scan, LAMMPS)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=LiquidThermalParams,
    start=lambda params: Prepare(params),
    examples=(
        "heat capacity of liquid argon",
        "heat capacity and thermal expansion of TIP4P/2005 water at 298 K",
    ),
    parse_request=parse_request,
    estimate=estimate,
    prepare=md_inputs,
    defaulted=water_model_assumed,
)
