"""Protocol ``stacking_fault``: the generalized stacking-fault curve of an fcc metal.

Relax the lattice constant (an equation-of-state scan), build a slab of (111) planes
(x = [1-10], y = [11-2], z = [111], vacuum along z), shift its upper half rigidly
along [11-2] by s = 0 … b_p (b_p = a/√6, the Shockley partial), relax the atoms
only perpendicular to the plane at each shift, and take γ(s) = (E(s) − E(0))/A.
The curve gives the unstable stacking-fault energy γ_usf (its maximum, refined by a
parabola through the highest points) and the intrinsic stacking-fault energy
γ_isf = γ(b_p). γ_isf is converged when the slabs of the stated thicknesses agree
within the tolerance. Any energy engine that can relax along one axis: a LAMMPS
potential of the catalogue ("with the Mishin EAM potential") or an ASE calculator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import ConfigDict, Field, field_validator, model_validator
from typing_extensions import override

from simwright.builders.faults import fcc111_stack, partial_direction, partial_length, shift_upper
from simwright.contract import SCHEMA_VERSION, Column, Table, write_table
from simwright.errors import ParseError
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
from simwright.reporting import plot_xy
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.settings import Settings
from simwright.steps.constrained import relax_along_z
from simwright.steps.eos import StrainScan
from simwright.steps.lattice import LatticeFit, relax_lattice
from simwright.steps.report import report_result

ISF, USF = "intrinsic_stacking_fault_energy", "unstable_stacking_fault_energy"
MJ_PER_EV_A2 = 1000.0 * EV_PER_A2_IN_J_PER_M2


class StackingFaultParams(SolidEngineParams):
    """Typed parameters of ``stacking_fault``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    n_shifts: int = Field(11, ge=5, le=61, description="shifts from 0 to b_p, both included")
    planes: tuple[int, ...] = Field(
        (12, 18), min_length=1, description="(111) planes of the slabs, multiples of 3, ascending"
    )
    vacuum_a: float = Field(12.0, ge=8, le=40, description="vacuum above the slab (Å)")
    tolerance_mj_m2: float = Field(
        2.0, gt=0, description="γ_isf converged when the two thickest slabs differ by less"
    )
    eos_strain_percent: float = Field(3.0, gt=0, le=20, description="± range of the EOS scan")
    eos_points: int = Field(7, ge=5, le=101)

    @field_validator("planes")
    @classmethod
    def _thirds(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if any(n < 6 or n > 60 or n % 3 for n in value) or list(value) != sorted(set(value)):
            raise ValueError("planes are distinct multiples of 3 from 6 to 60, ascending")
        return value

    @model_validator(mode="after")
    def _fcc(self) -> StackingFaultParams:
        if self.resolved_lattice() != "fcc":
            raise ValueError(
                f"the (111)[11-2] stacking-fault curve is defined here for fcc crystals; "
                f"{self.element} is {self.resolved_lattice()}"
            )
        return self

    def fractions(self) -> np.ndarray:
        """The shifts as fractions of b_p."""
        return np.linspace(0.0, 1.0, self.n_shifts)


@dataclass(frozen=True)
class RelaxCrystal(Step):
    """Relax the lattice constant by an equation-of-state scan."""

    params: StackingFaultParams

    @override
    def run(self, ctx: RunContext) -> FaultCurve:
        p = self.params
        scan = StrainScan(p.eos_strain_percent, p.eos_points)
        return FaultCurve(p, relax_lattice(ctx, p.crystal(), p.engine(), scan, "birchmurnaghan"))


@dataclass(frozen=True)
class FaultCurve(Step):
    """γ(s) on the thickest slab; γ(0) and γ(b_p) on the others; ions relaxed along z."""

    params: StackingFaultParams
    fit: LatticeFit

    @override
    def run(self, ctx: RunContext) -> FaultReport:
        p = self.params
        a0 = self.fit.a0_a
        jobs: list[tuple[int, float]] = [(n, f) for n in p.planes[:-1] for f in (0.0, 1.0)]
        jobs += [(p.planes[-1], float(f)) for f in p.fractions()]
        structures = []
        for n, f in jobs:
            stack = fcc111_stack(p.element, a0, n, p.vacuum_a)
            structures.append(shift_upper(stack, partial_direction(stack, a0) * f))
        ctx.structure(structures[-1], "intrinsic_fault.extxyz", "slab shifted by b_p (unrelaxed)")
        out = relax_along_z(ctx, p.engine(), structures)
        area = float(structures[0].cell[0, 0] * structures[0].cell[1, 1])
        energy = {job: float(e) for job, e in zip(jobs, out.energy_ev, strict=True)}
        gamma = [(energy[(n, f)] - energy[(n, 0.0)]) / area * MJ_PER_EV_A2 for n, f in jobs]
        table = Table(
            name="stacking_fault",
            columns=(
                Column("planes", np.array([n for n, _ in jobs]), "1", "(111) planes of the slab"),
                Column("shift_fraction", np.array([f for _, f in jobs]), "1", "s / b_p"),
                Column("shift", np.array([f for _, f in jobs]) * partial_length(a0), "Å"),
                Column("gsf_energy", np.array(gamma), "mJ/m^2", "(E(s) − E(0))/A, z relaxed"),
            ),
            description=f"generalized stacking-fault energy of {p.element} (111)[11-2]",
            producer=ctx.producer,
            attrs={"area_a2": f"{area:.6f}", "b_p_a": f"{partial_length(a0):.6f}"},
        )
        path = write_table(ctx.workdir / "stacking_fault.h5", table)
        curve = np.array(gamma[-p.n_shifts :])
        plot = plot_xy(
            ctx.workdir / "gsf_curve.png",
            p.fractions(),
            curve,
            xlabel="shift along [11-2] / b_p  (b_p = a/√6)",
            ylabel="γ (mJ/m²)",
            title=f"GSF curve of {p.element} (111) ({p.engine_name()}), {p.planes[-1]} planes",
        )
        isf = tuple(gamma[i] for i, (_, f) in enumerate(jobs) if f == 1.0)
        return FaultReport(
            p,
            self.fit,
            tuple(float(g) for g in curve),
            isf,
            (
                ctx.artifact(path, "table", table.description, SCHEMA_VERSION),
                ctx.artifact(plot, "plot", "generalized stacking-fault curve"),
            ),
        )


def unstable_peak(fractions: np.ndarray, gamma: np.ndarray) -> tuple[float, float]:
    """(s/b_p, γ) of the curve's maximum, refined by a parabola through it and its
    neighbours when the maximum is inside the scan."""
    i = int(np.argmax(gamma))
    if 0 < i < len(gamma) - 1:
        c2, c1, c0 = np.polyfit(fractions[i - 1 : i + 2], gamma[i - 1 : i + 2], 2)
        if c2 < 0:
            x = -c1 / (2 * c2)
            return float(x), float(c0 + c1 * x + c2 * x * x)
    return float(fractions[i]), float(gamma[i])


@dataclass(frozen=True)
class FaultReport(Step):
    """γ_isf and γ_usf, the curve, convergence in thickness, comparison."""

    params: StackingFaultParams
    fit: LatticeFit
    curve_mj_m2: tuple[float, ...]
    isf_mj_m2: tuple[float, ...]
    artifacts: tuple[ArtifactRef, ...]

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        at, usf = unstable_peak(p.fractions(), np.array(self.curve_mj_m2))
        conv = Convergence(
            "γ_isf",
            tuple(f"{n} planes" for n in p.planes),
            self.isf_mj_m2,
            p.tolerance_mj_m2,
            "mJ/m²",
        )
        source = self.artifacts[0].path
        values = {
            ISF: Quantity(self.isf_mj_m2[-1], "mJ/m^2", source=source),
            USF: Quantity(usf, "mJ/m^2", source=source),
            "unstable_shift_fraction": Quantity(at, "1"),
            "lattice_constant": Quantity(self.fit.a0_a, "Å", source=self.fit.results.path),
        }
        notes = [
            conv.note(),
            f"Curve: {', '.join(f'{g:.1f}' for g in self.curve_mj_m2)} mJ/m² at "
            f"s/b_p = {', '.join(f'{f:.2f}' for f in p.fractions())}.",
            "Atoms relax only along [111] (no in-plane relaxation, which would slide the "
            "halves back); the slab's free surfaces cancel in E(s) − E(0). γ_usf is read "
            f"from {p.n_shifts} shifts: its accuracy is limited by that sampling.",
            comparison_note(p),
            p.validation_note(),
        ]
        summary = (
            f"{p.element} ({p.engine_name()}): γ_isf = {self.isf_mj_m2[-1]:.1f} mJ/m², "
            f"γ_usf = {usf:.1f} mJ/m² at s = {at:.2f} b_p"
            + ("" if conv.converged or len(p.planes) < 2 else " (γ_isf NOT converged)")
        )
        return Done(
            report_result(
                ctx,
                title=f"Generalized stacking-fault energy of {p.element} (111)[11-2]",
                summary=summary,
                values=values,
                method=(
                    "Lattice constant from a Birch–Murnaghan fit; slabs of "
                    f"{', '.join(map(str, p.planes))} (111) planes with {p.vacuum_a:g} Å of "
                    f"vacuum; upper half shifted rigidly along [11-2] at {p.n_shifts} shifts "
                    "from 0 to b_p = a/√6, atoms relaxed along [111] only with "
                    f"{p.engine().describe()}; γ(s) = (E(s) − E(0))/A."
                ),
                artifacts=(*self.artifacts, self.fit.results, self.fit.plot),
                references=references(p, (ISF, USF)),
                notes=notes,
            )
        )


GRAPH = Graph.build("stacking_fault", [RelaxCrystal, FaultCurve, FaultReport])

_TRIGGER = re.compile(r"\bstacking[- ]fault")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from 'stacking fault energy of Cu with the Mishin EAM potential'."""
    raw = defect_request(
        text, _TRIGGER, "stacking fault energy of Cu with the Mishin EAM potential"
    )
    if raw is None:
        return None
    _only_111_and_112(text)
    thickness = read_int_list(text, r"\d+(?:\s*(?:,|and)\s*\d+)*\s+(?:atomic\s+)?(?:planes|layers)")
    if thickness:
        raw["planes"] = thickness
    m = re.search(r"(\d+)\s+shifts", text)
    if m:
        raw["n_shifts"] = int(m.group(1))
    vacuum = read_vacuum(text)
    if vacuum is not None:
        raw["vacuum_a"] = vacuum
    return raw


def _only_111_and_112(text: str) -> None:
    """Refuse by name a plane other than (111) or a direction other than <112>."""
    plane = miller_index(text)
    if plane is not None and sorted(abs(i) for i in plane) != [1, 1, 1]:
        raise ParseError(
            f"the plane {plane} cannot be honoured: stacking_fault computes the (111) plane"
        )
    direction = re.search(r"\[(-?\d)\s*(-?\d)\s*(-?\d)\]", text)
    if direction is not None:
        digits = sorted(abs(int(g)) for g in direction.groups())
        if digits != [1, 1, 2]:
            raise ParseError(
                f"the direction {direction.group(0)} cannot be honoured: stacking_fault "
                "shifts along [11-2] (the Shockley partial direction)"
            )


def start(p: StackingFaultParams) -> RelaxCrystal:
    """The first step."""
    return RelaxCrystal(p)


def estimate(params: Any, settings: Settings) -> Estimate:
    """Two relaxations per thinner slab and ``n_shifts`` on the thickest (2 atoms a plane)."""
    atoms = [2 * n for n in params.planes[:-1] for _ in range(2)]
    atoms += [2 * params.planes[-1]] * params.n_shifts
    return defect_estimate(params, atoms, len(atoms), "shifted slabs")


PROTOCOL = Protocol(
    name="stacking_fault",
    title="Generalized stacking-fault curve of an fcc metal: γ_isf and γ_usf",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=StackingFaultParams,
    start=start,
    examples=(
        "stacking fault energy of Cu with the Mishin EAM potential",
        "generalized stacking fault curve of Al with EMT",
    ),
    parse_request=parse_request,
    check=check_lattice_constant,
    estimate=estimate,
    prepare=crystal_inputs,
)
