"""Protocol ``melting_point``: the melting point of a crystal by solid–liquid coexistence.

A long cubic supercell (z the long axis) is equilibrated by LAMMPS NPT
(anisotropic, zero pressure) at a guessed temperature with a catalogued potential;
its upper half is then melted at 1.5× that temperature and cooled back at fixed box
while the lower half is held still, which leaves two solid–liquid interfaces. Each
trial restarts from this two-phase state with fresh velocities at a temperature T and
runs NPT (anisotropic, zero pressure), counting the crystalline atoms by common-
neighbour analysis (``compute cna/atom``: fcc and hcp for an fcc crystal, bcc for
bcc). The crystal grows below T_m and melts above it: the first two trials bracket
T_m (widened when they agree), then bisection narrows the bracket. T_m is reported as
its midpoint with half its width; every trial and its outcome is recorded, with the
coexistence trace plot.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import ConfigDict, Field, model_validator
from typing_extensions import override

from simwright.analysis.coexistence import (
    Trial,
    bracket,
    coexistence_plot,
    end_mean,
    expected_energy,
    next_temperature,
)
from simwright.contract import SCHEMA_VERSION, Column, Table, read_table, write_table
from simwright.engines.lammps.solid_md import Dynamics, coexistence_trial, two_phase_preparation
from simwright.errors import ParseError, ValidationError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.potentials.thermal_values import recorded, thermal_references
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

CNA = {"fcc": (0.854, (1, 2)), "bcc": (1.207, (3,))}
"""CNA cutoff (in lattice constants, LAMMPS' recommendation) and the codes counted as
crystalline (1 fcc, 2 hcp: stacking faults in an fcc crystal; 3 bcc)."""


MAX_EXPANSION = 1.045
"""A cubic metal expands by 2–3 % in lattice parameter up to its melting point; a box
grown by more than 4.5 % at the guess has melted (a liquid is some 5 % less dense)."""


class MeltingPointParams(CrystalMDParams):
    """Typed parameters of ``melting_point``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    guess_k: float | None = Field(
        None, gt=0, description="centre of the first bracket (K); default: experiment's T_m"
    )
    bracket_fraction: float = Field(0.12, gt=0, le=0.5, description="first bracket ± fraction")
    tolerance_k: float = Field(20.0, gt=0, description="stop when the bracket is this narrow")
    max_trials: int = Field(8, ge=2, le=30)
    cells: tuple[int, int, int] = Field((4, 4, 16), description="supercell; z is the long axis")
    equilibration_ps: float = Field(5.0, gt=0)
    melt_ps: float = Field(5.0, gt=0)
    cool_ps: float = Field(3.0, gt=0)
    relax_ps: float = Field(3.0, gt=0, description="NPT (z) of the liquid half at the guess")
    trial_ps: float = Field(25.0, gt=0)
    sample_every: int = Field(50, ge=1)

    @model_validator(mode="after")
    def _countable(self) -> MeltingPointParams:
        if self.resolved_lattice() not in CNA:
            raise ValueError(
                f"melting_point counts crystalline atoms by CNA for fcc and bcc crystals, "
                f"not {self.resolved_lattice()}"
            )
        if self.cells[2] < 2 * max(self.cells[:2]):
            raise ValueError("cells: the z axis must be at least twice the longer of x and y")
        if self.guess_k is None and recorded(self.element, "experiment", "melting_point") is None:
            raise ValueError(f"no recorded melting point of {self.element}: give guess_k")
        return self

    def guess(self) -> float:
        """The centre of the first bracket (K)."""
        if self.guess_k is not None:
            return self.guess_k
        value = recorded(self.element, "experiment", "melting_point")
        assert value is not None  # checked by the validator
        return value.value

    def first_bracket(self) -> tuple[float, float]:
        """The first two trial temperatures (K), rounded to whole kelvin."""
        g, f = self.guess(), self.bracket_fraction
        return float(round(g * (1 - f))), float(round(g * (1 + f)))

    def dynamics(self) -> Dynamics:
        """Timestep, damping and seed."""
        return Dynamics(self.timestep_fs, self.seed)

    def n_atoms(self) -> int:
        """Atoms in the box."""
        nx, ny, nz = self.cells
        return self.atoms_per_cell() * nx * ny * nz


@dataclass(frozen=True)
class PrepareTwoPhase(Step):
    """Equilibrate the crystal at the guess, melt the upper half, cool it back."""

    params: MeltingPointParams

    @override
    def run(self, ctx: RunContext) -> CoexistenceTrial:
        p = self.params
        g = p.guess()
        steps = [
            steps_for(x, p.timestep_fs)
            for x in (p.equilibration_ps, p.melt_ps, p.cool_ps, p.relax_ps)
        ]
        body = two_phase_preparation(p.dynamics(), g, 1.5 * g, *steps)
        result, files = md_with_potential(
            ctx,
            potential_run(p.entry(), [p.element]),
            body,
            "two-phase preparation",
            structure=supercell_of(p, p.cells),
            steps=sum(steps),
        )
        table = result.thermo
        run = np.asarray(table["run"])
        a_t = float(np.asarray(table["lx"])[run == 0][-1]) / p.cells[0]
        if a_t > MAX_EXPANSION * p.resolved_a():
            raise ValidationError(
                f"the crystal melted while equilibrating at the guess {p.guess():g} K (its "
                f"lattice parameter grew to {a_t:.3f} Å from {p.resolved_a():.3f} Å): the "
                "potential melts well below the guess; give a lower guess_k"
            )
        relaxed = np.asarray(table["potential_energy"])[run == run.max()]
        reference = float(relaxed[relaxed.size // 2 :].mean()) / p.n_atoms()
        assert files.restart is not None
        return CoexistenceTrial(p, files.restart, a_t, reference, ())


@dataclass(frozen=True)
class CoexistenceTrial(Step):
    """One NPT trial from the two-phase state; then the next, or the report."""

    params: MeltingPointParams
    two_phase: ArtifactRef
    lattice_a: float
    reference_pe_ev: float
    """Potential energy per atom of the prepared two-phase box at the guess (eV)."""
    trials: tuple[tuple[float, ArtifactRef], ...]

    @override
    def run(self, ctx: RunContext) -> CoexistenceTrial | MeltingReport:
        p = self.params
        outcomes = [_trial(ctx, p, self.reference_pe_ev, t, ref) for t, ref in self.trials]
        t = next_temperature(outcomes, *p.first_bracket(), p.tolerance_k, p.max_trials)
        if t is None:
            return MeltingReport(p, self.lattice_a, self.reference_pe_ev, self.trials)
        factor, codes = CNA[p.resolved_lattice()]
        steps = steps_for(p.trial_ps, p.timestep_fs)
        body = coexistence_trial(
            p.dynamics(), t, factor * self.lattice_a, codes, steps, p.sample_every
        )
        _, files = md_with_potential(
            ctx,
            potential_run(p.entry(), [p.element]),
            body,
            f"coexistence at {t:g} K",
            restart=self.two_phase,
            steps=steps,
        )
        trials = (*self.trials, (t, files.thermo))
        return CoexistenceTrial(p, self.two_phase, self.lattice_a, self.reference_pe_ev, trials)


def _series(
    ctx: RunContext, p: MeltingPointParams, ref: ArtifactRef
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Time in the trial (ps), crystalline fraction and potential energy per atom (eV)."""
    table = read_table(ctx.path(ref))
    time_fs = np.asarray(table["time"], float)
    n = p.n_atoms()
    return (
        (time_fs - time_fs[0]) / 1000.0,
        np.asarray(table["c_nsolid"], float) / n,
        np.asarray(table["potential_energy"], float) / n,
    )


def _trial(
    ctx: RunContext, p: MeltingPointParams, reference_pe: float, t: float, ref: ArtifactRef
) -> Trial:
    time_ps, fraction, pe = _series(ctx, p, ref)
    return Trial(
        t,
        expected_energy(reference_pe, p.guess(), t),
        end_mean(time_ps, pe),
        float(fraction[0]),
        end_mean(time_ps, fraction),
    )


@dataclass(frozen=True)
class MeltingReport(Step):
    """The bracket, the trace plot, the table of trials and the report."""

    params: MeltingPointParams
    lattice_a: float
    reference_pe_ev: float
    trials: tuple[tuple[float, ArtifactRef], ...]

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        outcomes = [_trial(ctx, p, self.reference_pe_ev, t, ref) for t, ref in self.trials]
        found = bracket(outcomes)
        if found is None:
            side = "crystallised" if outcomes[0].crystallised else "melted"
            raise ValidationError(
                f"no bracket after {len(outcomes)} trials: every trial {side} "
                f"({', '.join(f'{o.temperature_k:g}' for o in outcomes)} K); raise max_trials "
                "or give guess_k"
            )
        table = Table(
            name="coexistence_trials",
            columns=(
                Column("temperature", np.array([o.temperature_k for o in outcomes]), "K"),
                Column(
                    "pe_expected",
                    np.array([o.pe_start for o in outcomes]),
                    "eV",
                    "per atom, without a phase change",
                ),
                Column("pe_end", np.array([o.pe_end for o in outcomes]), "eV", "per atom"),
                Column("fraction_start", np.array([o.fraction_start for o in outcomes]), "1"),
                Column("fraction_end", np.array([o.fraction_end for o in outcomes]), "1"),
                Column("crystallised", np.array([int(o.crystallised) for o in outcomes]), "1"),
            ),
            description=f"coexistence trials of {p.element} with {p.engine_name()}, in order",
            producer=ctx.producer,
        )
        path = write_table(ctx.workdir / "coexistence_trials.h5", table)
        series = [(t, *_series(ctx, p, ref)[:2]) for t, ref in self.trials]
        plot = coexistence_plot(
            ctx.workdir / "coexistence.png",
            series,
            f"{p.element} ({p.engine_name()}), {p.n_atoms()} atoms",
        )
        refs = (
            ctx.artifact(path, "table", table.description, SCHEMA_VERSION),
            ctx.artifact(plot, "plot", "crystalline fraction against time per trial"),
        )
        return Done(self._report(ctx, outcomes, found.midpoint, found.half_width, refs))

    def _report(
        self,
        ctx: RunContext,
        outcomes: list[Trial],
        tm: float,
        half: float,
        refs: tuple[ArtifactRef, ...],
    ) -> ProtocolResult:
        p = self.params
        lines = "; ".join(
            f"{o.temperature_k:g} K {'crystallised' if o.crystallised else 'melted'} "
            f"(ΔE_pot {1000 * o.change:+.1f} meV/atom, CNA fraction "
            f"{o.fraction_start:.2f} -> {o.fraction_end:.2f})"
            for o in outcomes
        )
        nx, ny, nz = p.cells
        summary = (
            f"{p.element} ({p.engine_name()}): T_m = {tm:.0f} ± {half:.0f} K "
            f"(bracket from {len(outcomes)} coexistence runs)"
        )
        return report_result(
            ctx,
            title=f"Melting point of {p.element}",
            summary=summary,
            values={
                "melting_point": Quantity(tm, "K", half, refs[0].path),
                "lattice_parameter_at_guess": Quantity(self.lattice_a, "Å", source=refs[0].path),
            },
            method=(
                f"Two-phase coexistence with {p.entry().describe()}: a {nx}×{ny}×{nz} "
                f"{p.resolved_lattice()} supercell ({p.n_atoms()} atoms, z long) equilibrated by "
                f"NPT at {p.guess():g} K ({p.equilibration_ps:g} ps), its upper half melted at "
                f"{1.5 * p.guess():g} K ({p.melt_ps:g} ps) and cooled back ({p.cool_ps:g} ps) "
                f"with the lower half held, then the liquid's density relaxed by NPT along z "
                f"({p.relax_ps:g} ps, crystal held); each trial {p.trial_ps:g} ps of NPT "
                f"(anisotropic, 0 bar, {p.timestep_fs:g} fs step) from that state, crystalline "
                "atoms counted by CNA; the phase that grows read from the potential energy at "
                "the end of the trial (last 20 %) against the prepared state's, shifted by "
                "3/2 k_B per kelvin; first bracket "
                f"{p.first_bracket()[0]:g}–{p.first_bracket()[1]:g} K, then bisection to "
                f"{p.tolerance_k:g} K or {p.max_trials} trials."
            ),
            artifacts=(*refs, *(ref for _, ref in self.trials)),
            references=thermal_references(p.element, p.engine_name(), ("melting_point",)),
            notes=[
                f"Trials (change of the potential energy, which decides; CNA fraction): {lines}.",
                "The ± is half the final bracket (the resolution of the bisection), not a "
                "statistical error: near T_m the interface moves slowly and a short run in a "
                "small box can misjudge the sign; longer trials and a larger cross-section "
                "(finite-size and interface-curvature effects) tighten it.",
            ],
        )


GRAPH = Graph.build("melting_point", [PrepareTwoPhase, CoexistenceTrial, MeltingReport])

_TRIGGER = re.compile(r"\bmelting (?:point|temperature)\b|\bfreezing point\b")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from 'melting point of Cu with the Mishin EAM potential'; a stated
    temperature ('around 1300 K') centres the first bracket."""
    raw = md_solid_request(text, _TRIGGER, "melting point of Cu with the Mishin EAM potential")
    if raw is None:
        return None
    temps = re.findall(r"(\d+(?:\.\d+)?)\s*K\b", text)
    if len(set(temps)) > 1:
        raise ParseError(f"the request names several temperatures ({', '.join(temps)} K)")
    if temps:
        raw["guess_k"] = float(temps[0])
    return raw


def estimate(params: MeltingPointParams, settings: Settings) -> Estimate:
    """The preparation and at most ``max_trials`` trials."""
    prep = steps_for(
        params.equilibration_ps + params.melt_ps + params.cool_ps + params.relax_ps,
        params.timestep_fs,
    )
    trial = steps_for(params.trial_ps, params.timestep_fs)
    segments = (
        MdSegment("two-phase preparation", prep),
        *(MdSegment(f"trial {i + 1}", trial) for i in range(params.max_trials)),
    )
    return md_estimate(params, params.n_atoms(), segments)


def prepare(params: MeltingPointParams, settings: Settings) -> BuiltInputs:
    """The supercell, the potential and LAMMPS."""
    return md_inputs(params, supercell_of(params, params.cells), settings)


PROTOCOL = Protocol(
    name="melting_point",
    title="Melting point of a crystal by solid–liquid coexistence and bisection (LAMMPS)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=MeltingPointParams,
    start=lambda params: PrepareTwoPhase(params),
    examples=(
        "melting point of Cu with the Mishin EAM potential",
        "melting point of Al with the Zhou EAM potential",
    ),
    parse_request=parse_request,
    engines=("lmp",),
    estimate=estimate,
    prepare=prepare,
)
