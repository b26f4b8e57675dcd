"""The equation-of-state sub-graph, written once for every energy engine.

``BuildCrystal -> ScanVolumes -> FitEOS -> Report``: build the crystal, evaluate its
energy at isotropic strains with any :class:`~simwright.steps.energies.EnergyEngine`,
fit an equation of state (:mod:`simwright.analysis.eos`), report a0, B0, E0 and V0.
Everything a protocol says in its own words (title, method, references) travels in
an :class:`EosPlan`, so ``lattice_constant`` (ASE), ``dft_eos`` (pw.x) and an EOS with
a LAMMPS force field are the same four steps with different plans. A protocol that
builds its crystal otherwise (``dft_eos`` asks the DFT recommender) enters at
:class:`ScanVolumes`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePath

import numpy as np
from typing_extensions import override

from simwright.builders import BulkSpec, build_bulk
from simwright.contract import (
    SCHEMA_VERSION,
    Column,
    Table,
    read_structure,
    read_table,
    write_table,
)
from simwright.graph import Done, RunContext, Step
from simwright.results import ArtifactRef, ProtocolResult, Quantity, Reference
from simwright.steps.energies import EnergyEngine
from simwright.steps.report import report_result
from simwright.structure import Structure


@dataclass(frozen=True)
class StrainScan:
    """``n_points`` isotropic strains evenly spread over ± ``strain_percent`` %."""

    strain_percent: float
    n_points: int

    def scales(self) -> np.ndarray:
        """The factors applied to the cell (and positions)."""
        return 1.0 + np.linspace(-self.strain_percent, self.strain_percent, self.n_points) / 100


def strained(base: Structure, scales: np.ndarray) -> list[Structure]:
    """``base`` scaled isotropically by each factor (cell and Cartesian positions)."""
    return [base.with_positions(base.positions * s, base.cell * s) for s in scales]


@dataclass(frozen=True)
class EosText:
    """What the report says, in the protocol's words.

    ``subject`` opens the summary (``Cu (fcc, emt)``), ``plot_subject`` the plot title;
    ``attrs`` are stored with the results table.
    """

    title: str
    subject: str
    plot_subject: str
    method: str
    fit_description: str
    references: tuple[Reference, ...] = ()
    attrs: Mapping[str, str] = field(default_factory=dict)
    a0_description: str = "equilibrium lattice constant"


@dataclass(frozen=True)
class EosPlan:
    """An equation of state to compute: strains, EOS form and report text (the energy
    engine travels beside it, in the steps that need it).

    ``cubic_cell_ratio`` is the volume of the conventional cubic cell over that of the
    scanned cell (1 when the conventional cell is scanned, 4 for an fcc primitive
    cell); None when the crystal is not cubic, and no a0 is reported.
    """

    scan: StrainScan
    eos: str
    text: EosText
    cubic_cell_ratio: float | None = 1.0

    def a0(self, v0_per_atom: float, atoms: int) -> float:
        """The cubic lattice constant (Å) for the equilibrium volume per atom (NaN if none)."""
        if self.cubic_cell_ratio is None:
            return float("nan")
        return float((v0_per_atom * atoms * self.cubic_cell_ratio) ** (1.0 / 3.0))


def _sibling(ref: ArtifactRef) -> str:
    """``ref`` relative to the folder of another step of the same run."""
    path = PurePath(ref.path)
    return f"../{path.parent.name}/{path.name}"


@dataclass(frozen=True)
class BuildCrystal(Step):
    """Build the crystal whose equation of state is computed."""

    crystal: BulkSpec
    engine: EnergyEngine
    plan: EosPlan

    @override
    def run(self, ctx: RunContext) -> ScanVolumes:
        # lazy: the dispatch imports every builder (slabs, molecules, CIF); `plan`
        # imports this module only to build the crystal
        from simwright.builders import describe_spec

        structure = build_bulk(self.crystal)
        self.engine.check_elements(structure.symbols)
        ref = ctx.structure(structure, "crystal.extxyz", describe_spec(self.crystal))
        return ScanVolumes(self.engine, self.plan, ref)


@dataclass(frozen=True)
class ScanVolumes(Step):
    """Evaluate the energy at each isotropic strain of the crystal.

    ``crystal`` is the recorded structure, or the structure itself (runs stored by
    ``dft_eos`` before 0.3 carried only the pw.x input).
    """

    engine: EnergyEngine
    plan: EosPlan
    crystal: ArtifactRef | Structure

    @override
    def run(self, ctx: RunContext) -> FitEOS:
        plan = self.plan
        crystal = self.crystal
        base = read_structure(ctx.path(crystal)) if isinstance(crystal, ArtifactRef) else crystal
        scales = plan.scan.scales()
        cells = strained(base, scales)
        energies = self.engine.evaluate(ctx, cells)
        n = len(base)
        volumes = np.array([abs(np.linalg.det(c.cell)) for c in cells]) / n
        columns = [Column("scale", scales, "1", "factor applied to the cell")]
        if plan.cubic_cell_ratio is not None:
            a = (volumes * n * plan.cubic_cell_ratio) ** (1.0 / 3.0)
            columns.append(Column("a", a, "Å", "cubic lattice constant"))
        columns += [
            Column("volume_per_atom", volumes, "Å^3"),
            Column("energy_per_atom", energies.energy_ev / n, "eV", "potential energy per atom"),
            *energies.columns,
        ]
        table = Table(
            name="eos_scan",
            columns=tuple(columns),
            description=f"energy-volume scan of {base.formula} with {self.engine.label()}",
            producer=ctx.producer,
            links=(_sibling(self.crystal),) if isinstance(self.crystal, ArtifactRef) else (),
        )
        path = write_table(ctx.workdir / "eos_scan.h5", table)
        return FitEOS(plan, ctx.artifact(path, "table", table.description, SCHEMA_VERSION), n)


@dataclass(frozen=True)
class FitEOS(Step):
    """Fit the equation of state and write the result table and plot."""

    plan: EosPlan
    scan: ArtifactRef
    atoms_per_cell: int

    @override
    def run(self, ctx: RunContext) -> Report:
        # lazy: the fit (and its contract tables) only when a run gets here, not when
        # `plan` imports the protocol to build its inputs
        from simwright.analysis.eos import eos_plot, eos_table, fit_eos

        plan = self.plan
        scan = read_table(ctx.path(self.scan))
        vol, en = scan["volume_per_atom"], scan["energy_per_atom"]
        fit = fit_eos(vol, en, plan.eos)
        a0 = plan.a0(fit.v0_a3, self.atoms_per_cell)
        results = eos_table(
            fit,
            a0,
            description=plan.text.fit_description,
            producer=ctx.producer,
            links=(_sibling(self.scan),),
            attrs=dict(plan.text.attrs),
            a0_description=plan.text.a0_description,
        )
        rpath = write_table(ctx.workdir / "results.h5", results)
        title = f"{plan.text.plot_subject}: a0 = {a0:.4f} Å"
        plot = eos_plot(ctx.workdir / "eos.png", vol, en, fit, title)
        return Report(
            plan,
            ctx.artifact(rpath, "table", results.description, SCHEMA_VERSION),
            ctx.artifact(plot, "plot", "energy-volume curve"),
            self.scan,
        )


def eos_values(results: Table, source: str) -> dict[str, Quantity]:
    """a0 (when finite), B0, B0' (tables written since 0.4), E0 and V0, in that order."""
    values: dict[str, Quantity] = {}
    if np.isfinite(results["a0"][0]):
        values["lattice_constant"] = Quantity(float(results["a0"][0]), "Å", source=source)
    values["bulk_modulus"] = Quantity(float(results["b0"][0]), "GPa", source=source)
    if "b0_prime" in results.names:
        values["bulk_modulus_derivative"] = Quantity(
            float(results["b0_prime"][0]), "1", source=source
        )
    values["energy_per_atom"] = Quantity(float(results["e0"][0]), "eV", source=source)
    values["volume_per_atom"] = Quantity(float(results["v0"][0]), "Å^3", source=source)
    return values


@dataclass(frozen=True)
class Report(Step):
    """Write the report and return the result."""

    plan: EosPlan
    results: ArtifactRef
    plot: ArtifactRef
    scan: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        text = self.plan.text
        values = eos_values(read_table(ctx.path(self.results)), self.results.path)
        a0 = values.get("lattice_constant")
        a_text = f"a0 = {a0.value:.4f} Å, " if a0 is not None else ""
        summary = f"{text.subject}: {a_text}B0 = {values['bulk_modulus'].value:.1f} GPa"
        if "bulk_modulus_derivative" in values:
            summary += f", B0' = {values['bulk_modulus_derivative'].value:.2f}"
        return Done(
            report_result(
                ctx,
                title=text.title,
                summary=summary,
                values=values,
                references=text.references,
                artifacts=(self.results, self.plot, self.scan),
                method=text.method,
            )
        )


EOS_STEPS: tuple[type[Step], ...] = (BuildCrystal, ScanVolumes, FitEOS, Report)
"""The sub-graph, entry first: ``Graph.build(name, EOS_STEPS)`` is a complete EOS graph."""
