"""Protocol ``liquid_structure``: radial distribution functions, coordination numbers
and the static structure factor of a liquid.

pack (PACKMOL) → minimize (flexible models) → equilibration (NPT or fixed density) →
NVT production storing frames → g(r) of each pair over all frames (freud) with its
running coordination number → first peak (position, height), first minimum and the
coordination number there (a fixed rule, :mod:`simwright.analysis.rdf`) → S(q) of the
first pair by the Lorch-windowed Fourier transform of g(r) → report. Pairs: O–O and
O–H for water, Ar–Ar for argon, Na–Cl, Na–Na and Cl–Cl for molten NaCl.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from pydantic import Field
from typing_extensions import override

from simwright.analysis.rdf import Rdf, first_shell, radial_distribution, structure_factor
from simwright.analysis.trajectory_io import read_positions
from simwright.contract import (
    SCHEMA_VERSION,
    Column,
    Table,
    read_structure,
    read_table,
    write_table,
)
from simwright.errors import ValidationError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.liquids.inputs import md_inputs
from simwright.protocols.liquids.references import RDF_FIRST_PEAK
from simwright.protocols.liquids.run import (
    WATER_SYSTEMS,
    LiquidRunParams,
    equilibrate_liquid,
    prepare_liquid,
    production_spec,
)
from simwright.protocols.liquids.sizing import liquid_estimate
from simwright.protocols.liquids.words import parse_liquid_request, water_model_assumed
from simwright.protocols.registry import Protocol
from simwright.reporting import plot_xy
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.steps.md import produce
from simwright.steps.report import report_result

PAIRS: dict[str, tuple[tuple[str, str], ...]] = {
    **{name: (("O", "O"), ("O", "H")) for name in WATER_SYSTEMS},
    "lj_argon": (("Ar", "Ar"),),
    "nacl_melt": (("Na", "Cl"), ("Na", "Na"), ("Cl", "Cl")),
}
"""Element pairs analysed per system; the first is the headline pair (and S(q))."""


class LiquidStructureParams(LiquidRunParams):
    """Parameters of ``liquid_structure``."""

    SYSTEMS_ALLOWED: ClassVar[tuple[str, ...]] = tuple(PAIRS)

    frame_interval_fs: float = Field(200.0, gt=0)
    r_max_a: float = Field(10.0, gt=1, le=50)
    """Largest distance of g(r); capped at 0.49 of the box edge."""
    bins: int = Field(200, ge=20, le=5000)

    @classmethod
    @override
    def system_defaults(cls, system: str) -> dict[str, Any]:
        defaults = super().system_defaults(system)
        if system == "lj_argon":
            # the LJ state ρσ³ = 0.8442, k_BT/ε = 0.722 near the triple point (Verlet 1968)
            defaults.update(temperature_k=86.5, density_g_cm3=1.4186)
        return defaults


@dataclass(frozen=True)
class Prepare(Step):
    """Pack the system and minimize it (rigid water starts from the packing)."""

    params: LiquidStructureParams

    @override
    def run(self, ctx: RunContext) -> Equilibrate:
        return Equilibrate(self.params, prepare_liquid(ctx, self.params))


@dataclass(frozen=True)
class Equilibrate(Step):
    """Equilibrate at the target state (NPT or fixed density)."""

    params: LiquidStructureParams
    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Production:
        files = equilibrate_liquid(ctx, self.params, self.start)
        assert files.restart is not None
        return Production(self.params, files.restart)


@dataclass(frozen=True)
class Production(Step):
    """NVT production storing a frame every ``frame_interval_fs``."""

    params: LiquidStructureParams
    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Analyze:
        p = self.params
        spec = production_spec(p, p.production_ps, dump_every=p.every(p.frame_interval_fs))
        files = produce(ctx, spec, p.forcefield, self.start, "NVT production")
        assert files.trajectory is not None and files.final_structure is not None
        return Analyze(p, files.trajectory, files.final_structure, files.thermo)


@dataclass(frozen=True)
class Analyze(Step):
    """g(r), n(r) and first-shell features of every pair; S(q) of the first pair."""

    params: LiquidStructureParams
    trajectory: ArtifactRef
    final: ArtifactRef
    thermo: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Report:
        p = self.params
        structure = read_structure(ctx.path(self.final))
        frames = read_positions(ctx.path(self.trajectory)).positions_a
        symbols = np.array(structure.symbols)
        edge = float(np.min(np.linalg.norm(structure.cell, axis=1)))
        r_max = min(p.r_max_a, 0.49 * edge)
        if r_max < p.r_max_a:
            ctx.rule("rdf_range_capped", f"r_max {r_max:.2f} Å = 0.49 of the box edge {edge:.2f} Å")
        rdfs = {
            pair: radial_distribution(
                frames,
                structure.cell,
                np.flatnonzero(symbols == pair[0]),
                np.flatnonzero(symbols == pair[1]),
                r_max_a=r_max,
                bins=p.bins,
            )
            for pair in PAIRS[p.system]
        }
        rdf_ref = _write_rdf(ctx, rdfs, self.trajectory)
        sq_ref = _write_sq(ctx, PAIRS[p.system][0], rdfs[PAIRS[p.system][0]], r_max)
        return Report(p, rdf_ref, sq_ref, self.thermo)


def _name(pair: tuple[str, str]) -> str:
    return f"{pair[0]}_{pair[1]}"


def _write_rdf(ctx: RunContext, rdfs: dict[tuple[str, str], Rdf], traj: ArtifactRef) -> ArtifactRef:
    first = next(iter(rdfs.values()))
    columns = [Column("r", first.r_a, "Å", "bin centre")]
    attrs: dict[str, str | int | float] = {"n_frames": first.n_frames}
    for pair, rdf in rdfs.items():
        name = _name(pair)
        columns.append(Column(f"g_{name}", rdf.g, "1", f"g(r) of {pair[0]}–{pair[1]}"))
        columns.append(
            Column(f"n_{name}", rdf.n_r, "1", f"running coordination: {pair[1]} around {pair[0]}")
        )
        try:
            shell = first_shell(rdf)
        except ValidationError as exc:  # a pair without a shell (a tiny box) is noted
            attrs[f"{name}_note"] = str(exc)
            continue
        attrs.update(
            {
                f"{name}_peak_r": shell.peak_r_a,
                f"{name}_peak_g": shell.peak_g,
                f"{name}_min_r": shell.min_r_a,
                f"{name}_min_g": shell.min_g,
                f"{name}_coordination": shell.coordination,
            }
        )
    table = Table(
        name="rdf",
        columns=tuple(columns),
        description="radial distribution functions and running coordination numbers",
        producer=ctx.producer,
        links=(f"../../{traj.path}",),
        attrs=attrs,
    )
    path = write_table(ctx.workdir / "rdf.h5", table)
    return ctx.artifact(path, "table", table.description, SCHEMA_VERSION)


def _write_sq(ctx: RunContext, pair: tuple[str, str], rdf: Rdf, r_max: float) -> ArtifactRef:
    q = np.linspace(2.0 * np.pi / r_max, 12.0, 240)
    table = Table(
        name="structure_factor",
        columns=(
            Column("q", q, "1/Å", "scattering vector"),
            Column("s", structure_factor(rdf, q), "1", f"S(q) of {pair[0]}–{pair[1]} from g(r)"),
        ),
        description=f"static structure factor of {pair[0]}–{pair[1]} (Lorch-windowed transform)",
        producer=ctx.producer,
    )
    path = write_table(ctx.workdir / "structure_factor.h5", table)
    return ctx.artifact(path, "table", table.description, SCHEMA_VERSION)


@dataclass(frozen=True)
class Report(Step):
    """Plot g(r) of the headline pair; report its first shell with published values."""

    params: LiquidStructureParams
    rdf: ArtifactRef
    sq: ArtifactRef
    thermo: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        table = read_table(ctx.path(self.rdf))
        pair = _name(PAIRS[p.system][0])
        a = table.attrs
        values = {
            key: Quantity(float(a[f"{pair}_{attr}"]), unit, source=self.rdf.path)
            for key, attr, unit in (
                ("first_peak_position", "peak_r", "Å"),
                ("first_peak_height", "peak_g", "1"),
                ("first_minimum_position", "min_r", "Å"),
                ("coordination_number", "coordination", "1"),
            )
            if f"{pair}_{attr}" in a
        }
        plot = plot_xy(
            ctx.workdir / "rdf.png",
            table["r"],
            table[f"g_{pair}"],
            xlabel="r (Å)",
            ylabel=f"g(r) {pair.replace('_', '–')}",
            title=f"{p.liquid.description} at {p.state()}",
        )
        plot_ref = ctx.artifact(plot, "plot", "radial distribution function")
        refs = RDF_FIRST_PEAK.get("water" if p.system in WATER_SYSTEMS else p.system, ())
        shell = (
            f"first peak {values['first_peak_position'].value:.2f} Å, height "
            f"{values['first_peak_height'].value:.2f}"
            if "first_peak_height" in values
            else "no first shell found"
        )
        return Done(
            report_result(
                ctx,
                title=f"Structure of {p.liquid.description} at {p.state()}",
                summary=f"g(r) {pair.replace('_', '–')}: {shell} ({p.liquid.description})",
                values=values,
                method=(
                    f"{p.n_molecules} molecules/atoms/formula units, equilibrated "
                    f"{p.equilibration_ps:g} ps, NVT production {p.production_ps:g} ps with a "
                    f"frame every {p.frame_interval_fs:g} fs ({int(a['n_frames'])} frames); "
                    f"g(r) by freud over all frames ({p.bins} bins); first shell by the rule "
                    "of simwright.analysis.rdf; S(q) by the Lorch-windowed transform of g(r)."
                ),
                artifacts=(self.rdf, self.sq, plot_ref, self.thermo),
                references=refs,
                notes=[
                    "Statistics: the peak height is resolved to a few percent with a few "
                    "hundred frames; the bin width limits the peak position to ± half a bin.",
                    "Finite size: g(r) is computed to at most half the box edge; S(q) is not "
                    "resolved below q ≈ 2π/r_max and carries the window's smoothing.",
                ],
            )
        )


GRAPH = Graph.build("liquid_structure", [Prepare, Equilibrate, Production, Analyze, Report])

_TRIGGERS = (
    "rdf",
    "radial distribution",
    "pair distribution",
    "g(r)",
    "coordination number",
    "structure factor",
    "s(q)",
    "liquid structure",
)


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from e.g. 'radial distribution function of liquid argon at 86.5 K'."""
    allowed = LiquidStructureParams.SYSTEMS_ALLOWED
    return parse_liquid_request(text, _TRIGGERS, allowed, "liquid_structure")


PROTOCOL = Protocol(
    name="liquid_structure",
    title="Radial distribution functions, coordination numbers and S(q) of a liquid",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=LiquidStructureParams,
    start=lambda params: Prepare(params),
    examples=(
        "radial distribution function of SPC/E water at 298 K",
        "coordination number and structure factor of liquid argon",
        "RDF of molten NaCl at 1200 K",
    ),
    parse_request=parse_request,
    defaulted=water_model_assumed,
    estimate=liquid_estimate,
    prepare=md_inputs,
)
