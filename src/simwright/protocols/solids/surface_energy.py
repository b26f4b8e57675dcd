"""Protocol ``surface_energy``: the energy of low-index facets of an elemental cubic crystal.

Relax the lattice constant (an equation-of-state scan), cut a slab for each facet
(Miller index) at increasing thickness (atomic planes), with vacuum between periodic
images along the normal, relax its ions at fixed cell, and compute
γ = (E_slab − N · E_bulk) / 2A with E_bulk the energy per atom of the relaxed crystal
and A the area of one face. γ is converged when the two thickest slabs agree within
the stated tolerance. Defaults: fcc (111), (100), (110); bcc (110), (100); diamond
(100), (111), bulk-terminated and unreconstructed (relaxed from the ideal cut; no
dimer or 7×7 reconstruction is seeded), each cut at the height that breaks the fewest
nearest-neighbour bonds (diamond (111): the shuffle plane). Reported in J/m² and eV/Å². Any energy
engine: a LAMMPS potential of the catalogue or an ASE calculator.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import ConfigDict, Field, field_validator
from typing_extensions import override

from simwright.builders import BulkSpec, SlabSpec, build_slab
from simwright.builders.terminations import fewest_broken_bonds
from simwright.contract import SCHEMA_VERSION, Column, Table, read_structure, write_table
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.estimate import Estimate
from simwright.protocols.registry import Protocol
from simwright.protocols.solids.defect_common import (
    EV_PER_A2_IN_J_PER_M2,
    Convergence,
    comparison_note,
    defect_estimate,
    defect_request,
    miller_index,
    read_int_list,
    read_vacuum,
    references,
)
from simwright.protocols.solids.engine import SolidEngineParams
from simwright.protocols.solids.inputs import crystal_inputs
from simwright.protocols.solids.sizing import check_lattice_constant
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.settings import Settings
from simwright.steps.eos import StrainScan
from simwright.steps.lattice import LatticeFit, relax_lattice
from simwright.steps.report import report_result
from simwright.structure import Structure

Miller = tuple[int, int, int]
DEFAULT_FACETS: dict[str, tuple[Miller, ...]] = {
    "fcc": ((1, 1, 1), (1, 0, 0), (1, 1, 0)),
    "bcc": ((1, 1, 0), (1, 0, 0)),
    "diamond": ((1, 0, 0), (1, 1, 1)),
    "sc": ((1, 0, 0), (1, 1, 0)),
}
"""Facets computed when none is stated, per lattice."""


def facet_name(miller: Miller) -> str:
    """The cubic family of ``miller`` as digits, largest first: (1,-1,0) -> '110'."""
    return "".join(str(i) for i in sorted((abs(i) for i in miller), reverse=True))


def planes(structure: Structure) -> int:
    """Distinct atomic planes along z (positions within 0.05 Å are one plane)."""
    z = np.sort(structure.positions[:, 2])
    return int(1 + np.count_nonzero(np.diff(z) > 0.05))


class SurfaceEnergyParams(SolidEngineParams):
    """Typed parameters of ``surface_energy``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    facets: tuple[Miller, ...] | None = Field(
        None, description="Miller indices; default: the low-index facets of the lattice"
    )
    planes: tuple[int, ...] = Field(
        (6, 9, 12),
        min_length=1,
        description="slab thicknesses, in atomic planes at least (rounded up to whole "
        "periods of the cut), ascending",
    )
    vacuum_a: float = Field(12.0, ge=8, le=40, description="vacuum between slab images (Å)")
    tolerance_j_m2: float = Field(
        0.01, gt=0, description="converged when the two thickest slabs differ by less (J/m²)"
    )
    eos_strain_percent: float = Field(3.0, gt=0, le=20, description="± range of the EOS scan")
    eos_points: int = Field(7, ge=5, le=101)

    @field_validator("planes")
    @classmethod
    def _ascending(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if any(n < 3 or n > 60 for n in value) or list(value) != sorted(set(value)):
            raise ValueError("planes are distinct integers from 3 to 60, ascending")
        return value

    @field_validator("facets")
    @classmethod
    def _miller(cls, value: tuple[Miller, ...] | None) -> tuple[Miller, ...] | None:
        if value is not None and (not value or any(not any(m) for m in value)):
            raise ValueError("a facet is a Miller index (h, k, l), not all zero")
        return value

    def resolved_facets(self) -> tuple[Miller, ...]:
        """The facets stated, or the lattice's low-index ones."""
        return self.facets or DEFAULT_FACETS[self.resolved_lattice()]

    def periods(self, miller: Miller) -> tuple[int, ...]:
        """The distinct slab thicknesses of ``miller``, in periods of the cut: each of
        ``planes`` rounded up to whole periods (two that round alike count once)."""
        bulk = BulkSpec(self.element, self.resolved_lattice(), self.resolved_a(), cubic=True)
        per_period = planes(build_slab(SlabSpec(bulk, miller, 1, self.vacuum_a)))
        return tuple(sorted({math.ceil(n / per_period) for n in self.planes}))

    def slab(self, a0: float, miller: Miller, layers: int) -> Structure:
        """The slab of ``layers`` periods of ``miller`` at lattice a0, cut where it breaks
        the fewest nearest-neighbour bonds (Si(111): the shuffle plane)."""
        bulk = BulkSpec(self.element, self.resolved_lattice(), a0, cubic=True)
        return fewest_broken_bonds(SlabSpec(bulk, miller, layers, self.vacuum_a)).slab


@dataclass(frozen=True)
class RelaxCrystal(Step):
    """Relax the lattice constant by an equation-of-state scan."""

    params: SurfaceEnergyParams

    @override
    def run(self, ctx: RunContext) -> Slabs:
        p = self.params
        scan = StrainScan(p.eos_strain_percent, p.eos_points)
        return Slabs(p, relax_lattice(ctx, p.crystal(), p.engine(), scan, "birchmurnaghan"))


@dataclass(frozen=True)
class Slabs(Step):
    """The relaxed crystal and every slab (facet × thickness), ions relaxed at fixed cell."""

    params: SurfaceEnergyParams
    fit: LatticeFit

    @override
    def run(self, ctx: RunContext) -> SurfaceReport:
        p = self.params
        bulk = read_structure(ctx.path(self.fit.relaxed))
        rows = [(m, n) for m in p.resolved_facets() for n in p.periods(m)]
        slabs = [p.slab(self.fit.a0_a, m, n) for m, n in rows]
        out = p.engine().points(ctx, [bulk, *slabs], relax_ions=True)
        e_bulk = float(out.energy_ev[0]) / len(bulk)
        gamma, area, counts = [], [], []
        for (m, _), slab, energy, relaxed in zip(
            rows, slabs, out.energy_ev[1:], out.structures[1:], strict=True
        ):
            face = float(np.linalg.norm(np.cross(slab.cell[0], slab.cell[1])))
            gamma.append((float(energy) - len(slab) * e_bulk) / (2 * face))
            area.append(face)
            counts.append(planes(slab))
            name = f"slab-{facet_name(m)}-{counts[-1]}"
            ctx.structure(relaxed, f"{name}.extxyz", f"relaxed {facet_name(m)} slab")
        table = Table(
            name="surface_energy",
            columns=(
                Column("facet", np.array([int(facet_name(m)) for m, _ in rows]), "1", "hkl"),
                Column("planes", np.array(counts), "1", "atomic planes of the slab"),
                Column("atoms", np.array([len(s) for s in slabs]), "1"),
                Column("area", np.array(area), "Å^2", "area of one face"),
                Column("surface_energy", np.array(gamma), "eV/Å^2", "(E_slab − N E_bulk)/2A"),
            ),
            description=f"surface energies of {p.element} against slab thickness",
            producer=ctx.producer,
            attrs={"bulk_energy_per_atom_ev": f"{e_bulk:.10f}", "vacuum_a": f"{p.vacuum_a:g}"},
        )
        path = write_table(ctx.workdir / "surface_energy.h5", table)
        return SurfaceReport(
            p,
            self.fit,
            tuple(rows),
            tuple(counts),
            tuple(gamma),
            ctx.artifact(path, "table", table.description, SCHEMA_VERSION),
        )


@dataclass(frozen=True)
class SurfaceReport(Step):
    """γ per facet from the thickest slab, convergence per facet, compared."""

    params: SurfaceEnergyParams
    fit: LatticeFit
    rows: tuple[tuple[Miller, int], ...]
    planes: tuple[int, ...]
    gamma_ev_a2: tuple[float, ...]
    table: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        values: dict[str, Quantity] = {}
        notes, parts, names = [], [], []
        for miller in p.resolved_facets():
            idx = [i for i, (m, _) in enumerate(self.rows) if m == miller]
            series = tuple(self.gamma_ev_a2[i] * EV_PER_A2_IN_J_PER_M2 for i in idx)
            conv = Convergence(
                f"γ({facet_name(miller)})",
                tuple(f"{self.planes[i]} planes" for i in idx),
                series,
                p.tolerance_j_m2,
                "J/m²",
            )
            key = f"surface_energy_{facet_name(miller)}"
            names.append(key)
            values[key] = Quantity(series[-1], "J/m^2", source=self.table.path)
            values[f"{key}_ev_per_a2"] = Quantity(self.gamma_ev_a2[idx[-1]], "eV/Å^2")
            notes.append(conv.note())
            flag = "" if conv.converged else " (NOT converged)"
            parts.append(f"γ({facet_name(miller)}) = {series[-1]:.3f} J/m²{flag}")
        notes += [
            f"Vacuum {p.vacuum_a:g} Å between periodic images of the slab; both faces "
            "relaxed; finite slabs: γ is converged only as far as the thickness series says.",
            "Surfaces are bulk-terminated and unreconstructed (relaxed from the ideal cut), "
            "cut where the fewest nearest-neighbour bonds break (diamond (111): the shuffle "
            "plane, one dangling bond per surface atom).",
            comparison_note(p),
            p.validation_note(),
        ]
        values["lattice_constant"] = Quantity(self.fit.a0_a, "Å", source=self.fit.results.path)
        facets = ", ".join(f"({''.join(map(str, m))})" for m in p.resolved_facets())
        return Done(
            report_result(
                ctx,
                title=f"Surface energies of {p.element}",
                summary=f"{p.element} ({p.engine_name()}): " + "; ".join(parts),
                values=values,
                method=(
                    f"Lattice constant from a Birch–Murnaghan fit; slabs of {facets} with at "
                    f"least {', '.join(map(str, p.planes))} atomic planes and {p.vacuum_a:g} Å "
                    f"of vacuum, ions relaxed at fixed cell with {p.engine().describe()}; "
                    "γ = (E_slab − N E_bulk)/2A, E_bulk per atom of the relaxed crystal."
                ),
                artifacts=(self.table, self.fit.results, self.fit.plot),
                references=references(p, tuple(names)),
                notes=notes,
            )
        )


GRAPH = Graph.build("surface_energy", [RelaxCrystal, Slabs, SurfaceReport])

_TRIGGER = re.compile(r"\bsurface\s+energ(?:y|ies)\b")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from 'surface energy of Cu (111) with the Mishin EAM potential'."""
    raw = defect_request(text, _TRIGGER, "surface energy of Cu (111) with the Mishin EAM potential")
    if raw is None:
        return None
    miller = miller_index(text)
    if miller is not None:
        raw["facets"] = (miller,)
    thickness = read_int_list(
        text, r"\d+(?:\s*(?:,|and|to)\s*\d+)*\s+(?:atomic\s+)?(?:planes|layers)"
    )
    if thickness:
        raw["planes"] = thickness
    vacuum = read_vacuum(text)
    if vacuum is not None:
        raw["vacuum_a"] = vacuum
    return raw


def start(p: SurfaceEnergyParams) -> RelaxCrystal:
    """The first step."""
    return RelaxCrystal(p)


ATOMS_PER_PLANE = 4
"""Atoms per plane of the slabs cut from the conventional cell, upper side (fcc (111)
and diamond (111): 4; (100) and (110): 2), so an estimate need not cut them."""


def estimate(params: Any, settings: Settings) -> Estimate:
    """One relaxation per facet and thickness (up to 4 atoms per plane, rounded up to
    whole periods of the cut)."""
    atoms = [ATOMS_PER_PLANE * (n + 3) for _ in params.resolved_facets() for n in params.planes]
    return defect_estimate(params, atoms, len(atoms) + 1, "slabs")


PROTOCOL = Protocol(
    name="surface_energy",
    title="Surface energies of low-index facets with slab-thickness convergence",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=SurfaceEnergyParams,
    start=start,
    examples=(
        "surface energy of Cu with the Mishin EAM potential",
        "surface energy of Si (111) with Stillinger-Weber",
        "surface energy of Al (100) with EMT, 6 and 9 planes",
    ),
    parse_request=parse_request,
    check=check_lattice_constant,
    estimate=estimate,
    prepare=crystal_inputs,
)
