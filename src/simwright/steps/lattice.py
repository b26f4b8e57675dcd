"""Relax a cubic crystal's lattice constant by an equation-of-state scan: a shared action.

:func:`relax_lattice` is what ``cohesive_energy`` and ``elastic_constants`` do first,
inside one of their own steps: build the conventional cubic cell, evaluate it at
isotropic strains with any :class:`~simwright.steps.energies.EnergyEngine`, fit an
equation of state, and record the scan, the fit, its plot and the crystal scaled
to the fitted lattice constant. (``lattice_constant`` runs the same procedure as
the sub-graph of :mod:`simwright.steps.eos`, with a step per stage.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simwright.analysis.eos import eos_plot, eos_table, fit_eos
from simwright.builders import BulkSpec, build_bulk, describe_spec
from simwright.contract import SCHEMA_VERSION, Column, Table, write_table
from simwright.graph import RunContext
from simwright.results import ArtifactRef, Quantity
from simwright.steps.energies import EnergyEngine
from simwright.steps.eos import StrainScan, strained


@dataclass(frozen=True)
class LatticeFit:
    """The fitted cubic lattice: a0 (Å), E0 (eV/atom), B0 (GPa), B0', and its records."""

    a0_a: float
    e0_ev: float
    b0_gpa: float
    b0_prime: float
    atoms: int
    relaxed: ArtifactRef
    scan: ArtifactRef
    results: ArtifactRef
    plot: ArtifactRef

    def values(self) -> dict[str, Quantity]:
        """a0, B0, B0' and E0 as report quantities."""
        source = self.results.path
        return {
            "lattice_constant": Quantity(self.a0_a, "Å", source=source),
            "bulk_modulus": Quantity(self.b0_gpa, "GPa", source=source),
            "bulk_modulus_derivative": Quantity(self.b0_prime, "1", source=source),
            "energy_per_atom": Quantity(self.e0_ev, "eV", source=source),
        }


def relax_lattice(
    ctx: RunContext, crystal: BulkSpec, engine: EnergyEngine, scan: StrainScan, eos: str
) -> LatticeFit:
    """Scan, fit and record; the crystal at the fitted lattice constant is ``relaxed.extxyz``."""
    base = build_bulk(crystal)
    engine.check_elements(base.symbols)
    ctx.structure(base, "crystal.extxyz", describe_spec(crystal))
    scales = scan.scales()
    cells = strained(base, scales)
    energies = engine.evaluate(ctx, cells)
    n = len(base)
    volumes = np.array([abs(np.linalg.det(c.cell)) for c in cells]) / n
    per_atom = energies.energy_ev / n
    table = Table(
        name="eos_scan",
        columns=(
            Column("a", (volumes * n) ** (1.0 / 3.0), "Å", "cubic lattice constant"),
            Column("volume_per_atom", volumes, "Å^3"),
            Column("energy_per_atom", per_atom, "eV", "potential energy per atom"),
        ),
        description=f"energy-volume scan of {base.formula} with {engine.label()}",
        producer=ctx.producer,
    )
    scan_ref = ctx.artifact(
        write_table(ctx.workdir / "eos_scan.h5", table), "table", table.description, SCHEMA_VERSION
    )
    fit = fit_eos(volumes, per_atom, eos)
    a0 = float((fit.v0_a3 * n) ** (1.0 / 3.0))
    results = eos_table(fit, a0, description=f"{eos} fit of {base.formula}", producer=ctx.producer)
    results_ref = ctx.artifact(
        write_table(ctx.workdir / "eos_fit.h5", results),
        "table",
        results.description,
        SCHEMA_VERSION,
    )
    plot = eos_plot(
        ctx.workdir / "eos.png", volumes, per_atom, fit, f"{base.formula}: a0 = {a0:.4f} Å"
    )
    factor = a0 / float(np.cbrt(abs(np.linalg.det(base.cell))))
    relaxed = base.with_positions(base.positions * factor, base.cell * factor)
    return LatticeFit(
        a0,
        fit.e0_ev,
        fit.b0_gpa,
        fit.b0_prime,
        n,
        ctx.structure(relaxed, "relaxed.extxyz", f"{base.formula} at a0 = {a0:.5f} Å"),
        scan_ref,
        results_ref,
        ctx.artifact(plot, "plot", "energy-volume curve with fit and residuals"),
    )
