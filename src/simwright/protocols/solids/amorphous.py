"""Protocol ``amorphous_structure``: an amorphous solid by melt–quench, and its structure.

A diamond-lattice crystal (Si, Ge, C) is run by LAMMPS with a catalogued potential
("with the Stillinger–Weber potential", "with Tersoff") at zero pressure (isotropic
Nosé–Hoover NPT): melted well above its melting point, quenched by a linear
temperature ramp at a stated rate, annealed and sampled at the final temperature.
Rules, each recorded: the melt must have been a liquid (mean-square displacement
above 1 Å² at its end), and the product must not have recrystallised (potential
energy per atom at least 0.02 eV above the harmonic crystal's at the final
temperature). The report gives the density, g(r) with its first peak and minimum,
the coordination distribution within the first minimum, the excess energy over the
crystal, and the amorphous structure itself as an extxyz file other runs can start
from. The quench rate (10¹³–10¹⁴ K/s by default, far faster than any experiment)
leaves more coordination defects than a real a-Si sample: the report says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import ConfigDict, Field, model_validator
from typing_extensions import override

from simwright.analysis.amorphous import (
    coordination_counts,
    coordination_fractions,
    excess_energy,
    mass_density,
    mean_rdf,
    melt_quench_plot,
    read_frames,
    smoothed,
)
from simwright.analysis.convergence import block_average
from simwright.analysis.rdf import first_shell
from simwright.contract import SCHEMA_VERSION, Column, Table, read_table, write_table
from simwright.engines.lammps.amorphous_md import FRAMES_NAME, MeltQuenchSteps, melt_quench
from simwright.engines.lammps.solid_md import Dynamics
from simwright.errors import ParseError, ValidationError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.potentials.amorphous_values import amorphous_references
from simwright.potentials.thermal_values import recorded
from simwright.protocols.estimate import Estimate, MdSegment
from simwright.protocols.inputs import BuiltInputs
from simwright.protocols.registry import Protocol
from simwright.protocols.solids.md_engine import (
    CrystalMDParams,
    md_estimate,
    md_inputs,
    md_solid_request,
    supercell_of,
)
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.settings import Settings
from simwright.steps.md import steps_for
from simwright.steps.potential_md import md_with_potential, potential_run
from simwright.steps.report import report_result
from simwright.structure import Structure

MELTED_MSD_A2 = 1.0
"""A crystal's atoms vibrate with a mean-square displacement of a few 0.1 Å² even near
melting; a liquid's grows without bound (tens of Å² in 10 ps). Above this the melt was
a liquid."""

RECRYSTALLISED_EV = 0.02
"""Excess potential energy per atom over the harmonic crystal below which the quench
product is taken to have recrystallised (an amorphous network lies ~0.1 eV higher)."""


class AmorphousParams(CrystalMDParams):
    """Typed parameters of ``amorphous_structure``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    timestep_fs: float = Field(1.0, gt=0, le=5, description="MD timestep (fs)")
    cells: int = Field(3, ge=2, le=12, description="conventional cells along each axis")
    melt_k: float | None = Field(
        None, gt=0, description="melt temperature (K); default: twice the experimental T_m"
    )
    final_k: float = Field(300.0, gt=0, description="temperature of the product (K)")
    melt_ps: float = Field(10.0, gt=0)
    quench_rate_k_per_ps: float = Field(
        100.0, gt=0, description="cooling rate (K/ps; 1 K/ps = 10¹² K/s)"
    )
    anneal_ps: float = Field(10.0, gt=0)
    production_ps: float = Field(10.0, gt=0)
    frames: int = Field(20, ge=1, le=500, description="production frames for g(r)")
    thermo_every: int = Field(100, ge=1)

    @model_validator(mode="after")
    def _network_former(self) -> AmorphousParams:
        if self.resolved_lattice() != "diamond":
            raise ValueError(
                f"amorphous_structure makes covalent network glasses of diamond-lattice "
                f"elements (Si, Ge, C), not {self.element} ({self.resolved_lattice()}): a pure "
                "metal recrystallises at any rate MD reaches, and metallic glasses need alloys"
            )
        if self.melt_k is None and recorded(self.element, "experiment", "melting_point") is None:
            raise ValueError(f"no recorded melting point of {self.element}: give melt_k")
        if self.melt_temperature() <= self.final_k:
            raise ValueError("melt_k must lie above final_k")
        return self

    def melt_temperature(self) -> float:
        """The melt temperature (K): given, or twice the experimental melting point."""
        if self.melt_k is not None:
            return self.melt_k
        value = recorded(self.element, "experiment", "melting_point")
        return 2.0 * value.value if value is not None else 0.0

    def n_atoms(self) -> int:
        """Atoms in the box."""
        return self.atoms_per_cell() * self.cells**3

    def steps(self) -> MeltQuenchSteps:
        """Step counts of melt, quench, anneal and production, and output intervals."""
        quench_ps = (self.melt_temperature() - self.final_k) / self.quench_rate_k_per_ps
        production = steps_for(self.production_ps, self.timestep_fs)
        return MeltQuenchSteps(
            melt=steps_for(self.melt_ps, self.timestep_fs),
            quench=steps_for(quench_ps, self.timestep_fs),
            anneal=steps_for(self.anneal_ps, self.timestep_fs),
            production=production,
            thermo_every=self.thermo_every,
            frame_every=max(1, production // self.frames),
        )


@dataclass(frozen=True)
class MeltQuench(Step):
    """Melt, quench, anneal and sample in one LAMMPS call; check the melt was a liquid."""

    params: AmorphousParams

    @override
    def run(self, ctx: RunContext) -> AmorphousReport:
        p = self.params
        steps = p.steps()
        body = melt_quench(Dynamics(p.timestep_fs, p.seed), p.melt_temperature(), p.final_k, steps)
        result, files = md_with_potential(
            ctx,
            potential_run(p.entry(), [p.element]),
            body,
            "melt–quench",
            structure=supercell_of(p, (p.cells,) * 3),
            steps=steps.melt + steps.quench + steps.anneal + steps.production,
        )
        table = result.thermo
        run = np.asarray(table["run"])
        msd = float(np.asarray(table["v_msd"], float)[run == 0][-1])
        if msd < MELTED_MSD_A2:
            raise ValidationError(
                f"the crystal did not melt at {p.melt_temperature():g} K (mean-square "
                f"displacement {msd:.2f} Å² after {p.melt_ps:g} ps): give a higher melt_k "
                "or a longer melt_ps"
            )
        crystal_pe = float(np.asarray(table["potential_energy"], float)[0]) / p.n_atoms()
        frames = ctx.artifact(ctx.workdir / FRAMES_NAME, "trajectory", "production frames")
        return AmorphousReport(p, files.thermo, frames, crystal_pe, msd)


@dataclass(frozen=True)
class AmorphousReport(Step):
    """Density, g(r), coordination and excess energy; the structure, table, plot, report."""

    params: AmorphousParams
    thermo: ArtifactRef
    frames: ArtifactRef
    crystal_pe_ev: float
    """Potential energy per atom of the starting crystal (eV)."""
    melt_msd_a2: float

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        table = read_table(ctx.path(self.thermo))
        run = np.asarray(table["run"])
        prod = run == run.max()
        volume = np.asarray(table["volume"], float)
        density = mass_density(p.n_atoms(), p.mass_amu(), volume)
        rho = block_average(density[prod], 5)
        pe = float(np.mean(np.asarray(table["potential_energy"], float)[prod])) / p.n_atoms()
        d_e = excess_energy(pe, self.crystal_pe_ev, p.final_k)
        if d_e < RECRYSTALLISED_EV:
            raise ValidationError(
                f"the quench product recrystallised: its energy lies only {d_e * 1000:.0f} "
                f"meV/atom above the crystal's at {p.final_k:g} K; quench faster "
                "(quench_rate_k_per_ps)"
            )
        frames = read_frames(ctx.path(self.frames))
        r_max = min(6.0, 0.45 * float(frames.boxes_a.min()))
        rdf = mean_rdf(frames, r_max)
        shell = first_shell(smoothed(rdf))
        counts = coordination_counts(frames.positions_a[-1], frames.boxes_a[-1], shell.min_r_a)
        fractions = coordination_fractions(counts)
        last = Structure(
            symbols=(p.element,) * p.n_atoms(),
            positions=frames.positions_a[-1],
            cell=np.diag(frames.boxes_a[-1]),
            pbc=(True, True, True),
        )
        structure = ctx.structure(last, "amorphous.extxyz", f"amorphous {p.element} (last frame)")
        rdf_table = Table(
            name="rdf",
            columns=(
                Column("r", rdf.r_a, "Å"),
                Column("g", rdf.g, "1", f"averaged over {rdf.n_frames} frames"),
                Column("n_r", rdf.n_r, "1", "running coordination number"),
            ),
            description=f"g(r) of amorphous {p.element} at {p.final_k:g} K",
            producer=ctx.producer,
        )
        rdf_ref = ctx.artifact(
            write_table(ctx.workdir / "rdf.h5", rdf_table), "table", "g(r)", SCHEMA_VERSION
        )
        time_ps = np.asarray(table["time"], float) / 1000.0
        plot = melt_quench_plot(
            ctx.workdir / "melt_quench.png",
            time_ps,
            np.asarray(table["temperature"], float),
            density,
            rdf,
            shell,
            f"{p.element} ({p.engine_name()}), {p.n_atoms()} atoms",
        )
        plot_ref = ctx.artifact(plot, "plot", "T(t), ρ(t) and g(r)")
        values = {
            "density": Quantity(rho.mean, "g/cm^3", rho.sem, self.thermo.path),
            "first_peak": Quantity(shell.peak_r_a, "Å", source=rdf_ref.path),
            "first_minimum": Quantity(shell.min_r_a, "Å", source=rdf_ref.path),
            "coordination": Quantity(float(counts.mean()), "1", source=structure.path),
            "fourfold_fraction": Quantity(fractions.get(4, 0.0), "1", source=structure.path),
            "excess_energy": Quantity(d_e, "eV", source=self.thermo.path),
        }
        return Done(self._report(ctx, values, fractions, (structure, rdf_ref, plot_ref)))

    def _report(
        self,
        ctx: RunContext,
        values: dict[str, Quantity],
        fractions: dict[int, float],
        artifacts: tuple[ArtifactRef, ...],
    ) -> ProtocolResult:
        p = self.params
        rho, z = values["density"], values["coordination"]
        shares = ", ".join(f"{k}-fold {v:.1%}" for k, v in sorted(fractions.items()))
        summary = (
            f"amorphous {p.element} ({p.engine_name()}) at {p.final_k:g} K: ρ = {rho.value:.4f} ± "
            f"{rho.uncertainty or 0:.4f} g/cm³, first peak {values['first_peak'].value:.2f} Å, "
            f"coordination {z.value:.2f} ({shares}), "
            f"{values['excess_energy'].value * 1000:.0f} meV/atom above the crystal"
        )
        s = p.steps()
        return report_result(
            ctx,
            title=f"Amorphous {p.element} by melt–quench",
            summary=summary,
            values=values,
            method=(
                f"LAMMPS NPT (Nosé–Hoover, isotropic, 0 bar, {p.timestep_fs:g} fs step) of a "
                f"{p.cells}×{p.cells}×{p.cells} diamond supercell ({p.n_atoms()} atoms) with "
                f"{p.entry().describe()}: melt {p.melt_ps:g} ps at {p.melt_temperature():g} K "
                f"(mean-square displacement {self.melt_msd_a2:.1f} Å² at its end), linear quench "
                f"to {p.final_k:g} K at {p.quench_rate_k_per_ps:g} K/ps "
                f"({p.quench_rate_k_per_ps:g}×10¹² K/s, {s.quench:,} steps), anneal "
                f"{p.anneal_ps:g} ps, production {p.production_ps:g} ps; density block-averaged "
                f"over the production (5 blocks); g(r) averaged over its frames; coordination "
                f"counted within the first minimum of g(r) on the last frame; excess energy "
                f"over the starting crystal's energy plus 3/2 k_B T."
            ),
            artifacts=(*artifacts, self.thermo, self.frames),
            references=amorphous_references(p.element),
            notes=[
                "The quench is some ten orders of magnitude faster than any experiment: MD "
                "a-Si keeps more over- and under-coordinated atoms (and a higher energy) than "
                "an annealed sample; slower quenches (quench_rate_k_per_ps) and larger cells "
                "approach it.",
                f"{p.n_atoms()} atoms and one quench: the spread between independent quenches "
                "(seed) is not included in the uncertainties.",
                "The excess energy takes the starting crystal at its reference lattice "
                "constant, not the potential's own minimum.",
            ],
        )


GRAPH = Graph.build("amorphous_structure", [MeltQuench, AmorphousReport])

_TRIGGER = re.compile(r"\bamorphous\b|\bmelt[- –]quench|\bglass(?:y)?\b")
_RATE_PER_S = re.compile(
    r"(?:(\d+(?:\.\d+)?)\s*[eE]\+?(\d+)"  # 1e13
    r"|(?:(\d+(?:\.\d+)?)\s*[×x*]\s*)?10\s*\^\s*(\d+))"  # 10^13, 2 × 10^13
    r"\s*K\s*/\s*s\b"
)
_RATE_PER_PS = re.compile(r"(\d+(?:\.\d+)?)\s*K\s*/\s*ps\b")
_ANY_RATE = re.compile(r"\bK\s*(?:/|per\b)\s*\w+|\bkelvins?\s+per\b|\bcooling rate\b", re.I)
"""Any stated rate: one the parser cannot read is refused, never dropped."""


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from 'amorphous silicon by melt-quench with the Stillinger-Weber
    potential' (a cooling rate in K/s, e.g. '1e13 K/s' or '10^13 K/s', is honoured)."""
    raw = md_solid_request(
        text, _TRIGGER, "amorphous silicon by melt-quench with the Stillinger-Weber potential"
    )
    if raw is None:
        return None
    rate = _rate_k_per_ps(text)
    if rate is not None:
        raw["quench_rate_k_per_ps"] = rate
    return raw


def _rate_k_per_ps(text: str) -> float | None:
    """A cooling rate stated in K/s ('1e13 K/s', '10^13 K/s') or K/ps, as K/ps."""
    per_ps = _RATE_PER_PS.search(text)
    if per_ps is not None:
        return float(per_ps.group(1))
    m = _RATE_PER_S.search(text)
    if m is None:
        if _ANY_RATE.search(text):
            raise ParseError("write the cooling rate as e.g. '1e13 K/s', '10^13 K/s' or '10 K/ps'")
        return None
    if m.group(1) is not None:
        mantissa, exponent = float(m.group(1)), int(m.group(2))
    else:
        mantissa, exponent = float(m.group(3) or 1.0), int(m.group(4))
    return mantissa * 10.0**exponent / 1e12


def estimate(params: AmorphousParams, settings: Settings) -> Estimate:
    """One LAMMPS call: melt, quench, anneal and production."""
    s = params.steps()
    segments = (
        MdSegment("melt", s.melt),
        MdSegment("quench", s.quench),
        MdSegment("anneal", s.anneal),
        MdSegment("production", s.production, frames=params.frames),
    )
    return md_estimate(params, params.n_atoms(), segments)


def prepare(params: AmorphousParams, settings: Settings) -> BuiltInputs:
    """The crystal to melt, the potential and LAMMPS."""
    return md_inputs(params, supercell_of(params, (params.cells,) * 3), settings)


PROTOCOL = Protocol(
    name="amorphous_structure",
    title="Amorphous solid by melt–quench: density, g(r), coordination (LAMMPS)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=AmorphousParams,
    start=lambda params: MeltQuench(params),
    examples=(
        "amorphous silicon by melt-quench with the Stillinger-Weber potential",
        "amorphous Si with Tersoff quenched at 1e13 K/s",
    ),
    parse_request=parse_request,
    engines=("lmp",),
    estimate=estimate,
    prepare=prepare,
)
