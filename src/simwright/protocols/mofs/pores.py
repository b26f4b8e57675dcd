"""Protocol ``mof_pores``: pore geometry of a metal–organic framework.

The framework is built by PORMAKE (Lee et al., ACS Appl. Mater. Interfaces 13, 23647
(2021)) from an RCSR topology and building blocks ("a pcu MOF from Zn4O nodes and BDC
linkers"), or read from a CIF file of an ordered model. With a calculator stated it is
relaxed by a universal MLIP — SevenNet-0 (Park et al., J. Chem. Theory Comput. 20,
4857 (2024)) or CHGNet (Deng et al., Nat. Mach. Intell. 5, 1031 (2023)) — atoms and
cell by BFGS, capped at ``relax_steps`` steps. Zeo++ (Willems et al., Microporous
Mesoporous Mater. 149, 134 (2012)) then gives the largest included sphere Di, the
largest free sphere Df, the accessible surface area and volume for a probe of radius
1.86 Å (N2) by default; a grid search gives the channels' dimensionality.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from typing_extensions import override

from simwright.analysis.channels import Channels, accessible_grid, channels
from simwright.contract import SCHEMA_VERSION, Column, Table, read_structure, write_table
from simwright.engines.ase.calculators import CalculatorSpec
from simwright.engines.zeo.run import ZeoResult, analyse_pores
from simwright.engines.zeo.spec import PoreGeometry, ZeoSpec
from simwright.errors import EngineError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.mofs import framework, words
from simwright.protocols.mofs.earlier import earlier_notes, mof_key
from simwright.protocols.mofs.framework import FrameworkInfo
from simwright.protocols.mofs.inputs import mof_inputs
from simwright.protocols.mofs.params import MofParams
from simwright.protocols.mofs.references import known_framework
from simwright.protocols.mofs.relaxation import relax_capped
from simwright.protocols.mofs.sizing import check_mofs, estimate
from simwright.protocols.registry import Protocol
from simwright.results import ArtifactRef, ProtocolResult, Quantity, Reference
from simwright.steps.report import report_result
from simwright.store.records import EngineCall
from simwright.structure import Structure


@dataclass(frozen=True)
class RelaxSummary:
    """What the relaxation did: steps, convergence, forces, volume and energy change."""

    steps: int
    converged: bool
    fmax_ev_a: float
    volume_change_percent: float
    energy_change_mev_atom: float
    table: ArtifactRef


@dataclass(frozen=True)
class ObtainFramework(Step):
    """Build the framework with PORMAKE or read it from the CIF file."""

    params: MofParams

    @override
    def run(self, ctx: RunContext) -> RelaxFramework | PoreAnalysis:
        p = self.params
        if p.cif is None:
            structure, info = framework.build(ctx, p)
            inputs: tuple[ArtifactRef, ...] = ()
        else:
            structure, info, cif = framework.read(ctx, p)
            inputs = (cif,)
        ref = ctx.structure(structure, "framework.extxyz", f"{info.label}: {info.formula}")
        if p.calculator is None:
            ctx.rule("no_relaxation", "no calculator stated: the framework is analysed as is")
            return PoreAnalysis(p, ref, info, None, inputs)
        return RelaxFramework(p, ref, info, inputs)


@dataclass(frozen=True)
class RelaxFramework(Step):
    """Relax atoms (and cell) with the universal MLIP, at most ``relax_steps`` steps."""

    params: MofParams
    structure: ArtifactRef
    info: FrameworkInfo
    inputs: tuple[ArtifactRef, ...]

    @override
    def run(self, ctx: RunContext) -> PoreAnalysis:
        p = self.params
        start = read_structure(ctx.path(self.structure))
        spec = CalculatorSpec(p.calculator or "", dict(p.calculator_kwargs))
        relaxed, call = relax_capped(
            start,
            spec,
            fmax_ev_a=p.fmax_ev_a,
            max_steps=p.relax_steps,
            cell=p.relax_cell,
            threads=ctx.settings.cores(),
            allow=tuple(ctx.settings.plugins),
        )
        ctx.engine_call(call)
        steps = np.arange(len(relaxed.energy_ev), dtype=float)
        table = Table(
            name="relaxation",
            columns=(
                Column("step", steps, "1"),
                Column("energy", relaxed.energy_ev, "eV"),
                Column("fmax", relaxed.fmax_ev_a, "eV/Å", "largest force (cell filter included)"),
                Column("volume", relaxed.volume_a3, "Å^3"),
            ),
            description=f"BFGS relaxation of {self.info.label} with {p.calculator}",
            producer=ctx.producer,
        )
        path = write_table(ctx.workdir / "relaxation.h5", table)
        table_ref = ctx.artifact(path, "table", table.description, SCHEMA_VERSION)
        ref = ctx.structure(relaxed.structure, "relaxed.extxyz", f"{self.info.label}, relaxed")
        n = len(start)
        summary = RelaxSummary(
            steps=len(steps) - 1,
            converged=relaxed.converged,
            fmax_ev_a=float(relaxed.fmax_ev_a[-1]),
            volume_change_percent=100 * (relaxed.volume_a3[-1] / relaxed.volume_a3[0] - 1),
            energy_change_mev_atom=1000 * (relaxed.energy_ev[-1] - relaxed.energy_ev[0]) / n,
            table=table_ref,
        )
        if not relaxed.converged:
            ctx.rule(
                "relaxation_capped",
                f"stopped at {p.relax_steps} steps with fmax {summary.fmax_ev_a:.3f} eV/Å",
            )
        return PoreAnalysis(p, ref, self.info, summary, self.inputs)


@dataclass(frozen=True)
class PoreAnalysis(Step):
    """Zeo++ pore geometry, the channel search, and the report."""

    params: MofParams
    structure: ArtifactRef
    info: FrameworkInfo
    relaxation: RelaxSummary | None
    inputs: tuple[ArtifactRef, ...]

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        structure = read_structure(ctx.path(self.structure))
        zeo, analysed = _zeo(ctx, structure, p)
        cif_ref = ctx.artifact(
            ctx.workdir / "framework.cif", "cif", f"{self.info.label} as analysed by Zeo++"
        )
        out = ctx.artifact(ctx.workdir / "zeo_out.json", "json", "Zeo++ results as printed")
        grid = accessible_grid(
            analysed.positions, zeo.radii_a, analysed.cell, grid_probe(p), p.grid_spacing_a
        )
        found = channels(grid)
        values = _values(zeo.geometry, found, out.path, self.info, self.relaxation)
        known = known_framework(
            p.name, self.info.topology or None, self.info.nodes, self.info.linker or None
        )
        references: tuple[Reference, ...] = known.references if known is not None else ()
        artifacts = (self.structure, cif_ref, out, *self.inputs)
        if self.relaxation is not None:
            artifacts = (*artifacts, self.relaxation.table)
        return Done(
            report_result(
                ctx,
                title=f"Pore geometry of {self.info.label}",
                summary=_summary(self.info, zeo.geometry, found, p),
                values=values,
                method=_method(p, self.info, self.relaxation, found),
                artifacts=artifacts,
                references=references,
                notes=[
                    *_notes(p, self.info, self.relaxation, known is not None),
                    *earlier_notes(ctx.settings.home, mof_key(self.info, self.inputs)),
                ],
            )
        )


def grid_probe(p: MofParams) -> float:
    """The probe of the channel grid: smaller than Zeo++'s by the farthest a point can
    lie from its nearest grid point (√3/2 spacing), so that a window Zeo++ lets the probe
    through is not closed by the grid's coarseness. Zeo++ decides whether there are
    channels at all; the grid says in how many directions they run."""
    return max(0.0, p.probe_radius_a - p.grid_spacing_a * math.sqrt(3) / 2)


def dimensionality(g: PoreGeometry, found: Channels) -> int:
    """The channels' dimensionality: 0 when Zeo++ finds no channel, else the grid's."""
    return found.dimensionality if g.channels else 0


ZEO_RETRIES = 2
JITTER_A = 1e-4
"""Zeo++ can fail on a degenerate Voronoi network ("Unable to add edge because nodes
have not been added"), which highly symmetric frameworks produce depending on the last
digits of the coordinates; a retry displaces every atom by at most this much (Å,
seeded), far below any pore figure's precision."""


def _zeo(ctx: RunContext, structure: Structure, p: MofParams) -> tuple[ZeoResult, Structure]:
    """Zeo++ on ``structure`` as ``framework.cif``; retried on slightly displaced atoms."""
    # lazy: ase.io takes ~1 s to import
    from ase.io import write

    rng = np.random.default_rng(20)
    analysed = structure
    for attempt in range(ZEO_RETRIES + 1):
        cif = ctx.workdir / "framework.cif"
        write(cif, analysed.to_ase(), format="cif")
        try:
            zeo = analyse_pores(
                ZeoSpec(cif.name, p.probe_radius_a, p.samples_per_atom), ctx.workdir
            )
        except EngineError as exc:
            if attempt == ZEO_RETRIES:
                raise  # the runner records the failed call
            if isinstance(exc.call, EngineCall):
                ctx.engine_call(exc.call)
            ctx.rule("zeo_degenerate_retry", f"{exc}; atoms displaced by ≤ {JITTER_A} Å")
            shift = rng.uniform(-JITTER_A, JITTER_A, structure.positions.shape)
            analysed = structure.with_positions(structure.positions + shift)
            continue
        ctx.engine_call(zeo.call)
        return zeo, analysed
    raise AssertionError("unreachable")


def _values(
    g: PoreGeometry, found: Channels, source: str, info: FrameworkInfo, r: RelaxSummary | None
) -> dict[str, Quantity]:
    values = {
        "largest_included_sphere": Quantity(g.di_a, "Å", source=source),
        "largest_free_sphere": Quantity(g.df_a, "Å", source=source),
        "included_sphere_along_free_path": Quantity(g.dif_a, "Å", source=source),
        "accessible_surface_area": Quantity(g.asa_m2_g, "m^2/g", source=source),
        "accessible_surface_area_volumetric": Quantity(g.asa_m2_cm3, "m^2/cm^3", source=source),
        "accessible_volume_fraction": Quantity(g.av_fraction, "1", source=source),
        "accessible_pore_volume": Quantity(g.av_cm3_g, "cm^3/g", source=source),
        "void_fraction": Quantity(g.void_fraction, "1", source=source),
        "density": Quantity(g.density_g_cm3, "g/cm^3", source=source),
        "cell_volume": Quantity(g.cell_volume_a3, "Å^3", source=source),
        "channels": Quantity(float(g.channels), "1", source=source),
        "pockets": Quantity(float(g.pockets), "1", source=source),
        "channel_dimensionality": Quantity(float(dimensionality(g, found)), "1"),
        "atoms": Quantity(float(info.atoms), "1"),
    }
    if info.topology:
        values["node_fit_rmsd"] = Quantity(info.max_rmsd_a, "Å")
    if r is not None:
        src = r.table.path
        values["relaxation_steps"] = Quantity(float(r.steps), "1", source=src)
        values["relaxation_converged"] = Quantity(float(r.converged), "1", source=src)
        values["residual_fmax"] = Quantity(r.fmax_ev_a, "eV/Å", source=src)
        values["relaxation_volume_change"] = Quantity(r.volume_change_percent, "%", source=src)
        values["relaxation_energy_change"] = Quantity(r.energy_change_mev_atom, "meV", source=src)
    return values


def _summary(info: FrameworkInfo, g: PoreGeometry, found: Channels, p: MofParams) -> str:
    return (
        f"{info.label} ({info.formula}, {info.atoms} atoms): Di = {g.di_a:.2f} Å, "
        f"Df = {g.df_a:.2f} Å; for a {p.probe_radius_a} Å probe ASA = {g.asa_m2_g:.0f} m²/g, "
        f"accessible volume fraction {g.av_fraction:.3f}, "
        f"channels {dimensionality(g, found)}D; density {g.density_g_cm3:.3f} g/cm³"
    )


def _method(p: MofParams, info: FrameworkInfo, r: RelaxSummary | None, found: Channels) -> str:
    if info.topology:
        text = (
            f"Built by PORMAKE on the {info.topology} net ({info.group}) with "
            f"{'; '.join(info.blocks)}; worst node fit RMSD {info.max_rmsd_a:.3f} Å. "
        )
    else:
        text = f"Read from the {info.source} (P1 after ASE's symmetry expansion). "
    if r is not None:
        what = "atoms and cell" if p.relax_cell else "atoms at fixed cell"
        text += (
            f"Relaxed ({what}) by BFGS with {p.calculator} for {r.steps} steps "
            f"(cap {p.relax_steps}, fmax {p.fmax_ev_a} eV/Å). "
        )
    return text + (
        f"Zeo++ with its default radii: Di, Df, Dif; accessible surface area and volume for "
        f"a probe of radius {p.probe_radius_a} Å with {p.samples_per_atom} Monte Carlo "
        f"samples per atom; void fraction with a zero-radius probe. Channel dimensionality "
        f"of Zeo++'s channels from a {'×'.join(map(str, found.grid))} grid of probe-centre "
        f"positions (probe {grid_probe(p):.2f} Å: less by the grid's half-diagonal), "
        "periodic regions joined across the cell faces."
    )


def _notes(p: MofParams, info: FrameworkInfo, r: RelaxSummary | None, known: bool) -> list[str]:
    notes = [
        "Geometric areas and volumes of a rigid, empty, ordered framework: BET areas of "
        "real samples are often lower (defects, residual solvent, incomplete activation).",
    ]
    if info.topology:
        notes.append(
            "PORMAKE places rigid building blocks and scales the net's cell: linker "
            "orientations and bond lengths are idealised until a relaxation."
        )
    if r is not None and not r.converged:
        notes.insert(
            0,
            f"WARNING: the relaxation stopped at its cap of {p.relax_steps} steps with a "
            f"largest force of {r.fmax_ev_a:.3f} eV/Å (criterion {p.fmax_ev_a}); "
            "raise relax_steps for a converged structure.",
        )
    if r is None:
        notes.append("Not relaxed: say 'relax with SevenNet-0' or 'with CHGNet' to relax first.")
    if not known:
        notes.append("No published values are recorded for this framework.")
    return notes


GRAPH = Graph.build("mof_pores", [ObtainFramework, RelaxFramework, PoreAnalysis])


def start(p: MofParams) -> ObtainFramework:
    """The first step."""
    return ObtainFramework(p)


PROTOCOL = Protocol(
    name="mof_pores",
    title="Pore geometry of a MOF (PORMAKE or CIF, optional MLIP relaxation, Zeo++)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=MofParams,
    start=start,
    examples=(
        "pore size of a pcu MOF built from Zn4O nodes and BDC linkers",
        "surface area of HKUST-1",
        "relax a pcu MOF from Zn4O nodes and BDC linkers with CHGNet and give its pore sizes",
    ),
    parse_request=words.parse_request,
    check=check_mofs,
    estimate=estimate,
    prepare=mof_inputs,
    defaulted=words.defaulted,
)
