"""Protocol ``lattice_constant``: the equilibrium lattice constant of a cubic crystal.

Build the conventional cell, scan energies over isotropic strains, fit an equation
of state (ASE's Birch–Murnaghan by default), and report a0, B0 and E0 with a plot.
A tiny procedure that proves the whole chain: typed graph, ASE engine, file
contract, provenance and reporting.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Literal

import numpy as np
from ase.data import atomic_numbers, reference_states
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from typing_extensions import override

from simwright.analysis.eos import eos_plot, eos_table, fit_eos
from simwright.contract import (
    SCHEMA_VERSION,
    Column,
    Table,
    read_structure,
    read_table,
    write_table,
)
from simwright.engines.ase.calculators import CalculatorSpec, energies
from simwright.errors import ParseError, ValidationError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.outcome import report_result
from simwright.protocols.registry import Protocol
from simwright.results import ArtifactRef, ProtocolResult, Quantity, Reference
from simwright.structure import Structure, is_element
from simwright.text import find_elements, has_word

Lattice = Literal["fcc", "bcc", "sc", "diamond"]

EXPERIMENT_A: dict[str, float] = {
    "Al": 4.05,
    "Cu": 3.61,
    "Ag": 4.09,
    "Au": 4.08,
    "Ni": 3.52,
    "Pd": 3.89,
    "Pt": 3.92,
}
"""Room-temperature lattice constants (Å), C. Kittel, Introduction to Solid State
Physics, 8th ed. (Wiley, 2005), Table 1.3."""
KITTEL = "C. Kittel, Introduction to Solid State Physics, 8th ed. (Wiley, 2005), Table 1.3"


class LatticeConstantParams(BaseModel):
    """Typed parameters of the ``lattice_constant`` protocol."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    element: str = Field(description="chemical symbol, e.g. Cu")
    lattice: Lattice | None = Field(None, description="cubic lattice; default: the element's own")
    calculator: str = Field("emt", description="emt, lj, or an ASE calculator 'module:Class'")
    calculator_kwargs: dict[str, Any] = Field(default_factory=dict)
    a_guess_a: float | None = Field(None, gt=0, description="starting lattice constant (Å)")
    strain_percent: float = Field(5.0, gt=0, le=20, description="± isotropic strain range (%)")
    n_points: int = Field(9, ge=5, le=101, description="number of volumes in the scan")
    eos: Literal["birchmurnaghan", "murnaghan", "vinet", "sj"] = "birchmurnaghan"

    @field_validator("element")
    @classmethod
    def _known_element(cls, value: str) -> str:
        if not is_element(value):
            raise ValueError(f"unknown element {value!r}")
        return value

    @model_validator(mode="after")
    def _calculator_knows_element(self) -> LatticeConstantParams:
        try:
            self.calculator_spec().check_elements([self.element])
        except ValidationError as exc:
            raise ValueError(str(exc)) from exc
        return self

    def resolved_lattice(self) -> Lattice:
        """The lattice to build: the given one or the element's reference structure."""
        if self.lattice is not None:
            return self.lattice
        ref = reference_states[atomic_numbers[self.element]] or {}
        sym = ref.get("symmetry")
        if sym not in ("fcc", "bcc", "sc", "diamond"):
            raise ValidationError(
                f"{self.element} is not cubic in its reference state ({sym}); give a cubic lattice"
            )
        return sym

    def resolved_a(self) -> float:
        """The starting lattice constant (Å)."""
        if self.a_guess_a is not None:
            return self.a_guess_a
        ref = reference_states[atomic_numbers[self.element]] or {}
        if "a" not in ref:
            raise ValidationError(
                f"no reference lattice constant for {self.element}; give a_guess_a"
            )
        return float(ref["a"])  # type: ignore[arg-type]

    def calculator_spec(self) -> CalculatorSpec:
        """The ASE calculator to use."""
        return CalculatorSpec(self.calculator, self.calculator_kwargs)


@dataclass(frozen=True)
class BuildCrystal(Step):
    """Build the conventional cubic cell of the element."""

    params: LatticeConstantParams

    @override
    def run(self, ctx: RunContext) -> ScanVolumes:
        # lazy: ase.build takes ~1 s to import
        from ase.build import bulk

        p = self.params
        p.calculator_spec().check_elements([p.element])
        atoms = bulk(p.element, p.resolved_lattice(), a=p.resolved_a(), cubic=True)
        ref = ctx.structure(Structure.from_ase(atoms), "crystal.extxyz")
        return ScanVolumes(p, ref)


@dataclass(frozen=True)
class ScanVolumes(Step):
    """Compute the energy at each isotropic strain of the cell."""

    params: LatticeConstantParams
    crystal: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> FitEOS:
        p = self.params
        base = read_structure(ctx.path(self.crystal))
        scales = 1.0 + np.linspace(-p.strain_percent, p.strain_percent, p.n_points) / 100.0
        cells = [base.with_positions(base.positions * s, base.cell * s) for s in scales]
        energy, call = energies(
            cells,
            p.calculator_spec(),
            progress=lambda i, n: ctx.progress(i / n, f"volume {i}/{n}"),
        )
        ctx.engine_call(call)
        n = len(base)
        table = Table(
            name="eos_scan",
            columns=(
                Column("a", base.cell[0, 0] * scales, "Å", "cubic lattice constant"),
                Column("volume_per_atom", np.array([c.volume_a3 for c in cells]) / n, "Å^3"),
                Column("energy_per_atom", energy / n, "eV", "potential energy per atom"),
            ),
            description=f"energy-volume scan of {base.formula} with {p.calculator}",
            producer=ctx.producer,
            links=(f"../{PurePath(self.crystal.path).parent.name}/crystal.extxyz",),
        )
        path = write_table(ctx.workdir / "eos_scan.h5", table)
        return FitEOS(p, ctx.artifact(path, "table", table.description, SCHEMA_VERSION))


@dataclass(frozen=True)
class FitEOS(Step):
    """Fit the equation of state and write the result table and plot."""

    params: LatticeConstantParams
    scan: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Report:
        p = self.params
        scan = read_table(ctx.path(self.scan))
        vol, en = scan["volume_per_atom"], scan["energy_per_atom"]
        fit = fit_eos(vol, en, p.eos)
        atoms_per_cell = {"fcc": 4, "bcc": 2, "sc": 1, "diamond": 8}[p.resolved_lattice()]
        a0 = (fit.v0_a3 * atoms_per_cell) ** (1.0 / 3.0)
        results = eos_table(
            fit,
            a0,
            description=f"{p.eos} equation-of-state fit of {p.element} ({p.resolved_lattice()})",
            producer=ctx.producer,
            links=(f"../{PurePath(self.scan.path).parent.name}/eos_scan.h5",),
            attrs={"calculator": p.calculator},
        )
        rpath = write_table(ctx.workdir / "results.h5", results)
        title = f"{p.element} {p.resolved_lattice()}: a0 = {a0:.4f} Å"
        plot = eos_plot(ctx.workdir / "eos.png", vol, en, fit, title)
        return Report(
            p,
            ctx.artifact(rpath, "table", results.description, SCHEMA_VERSION),
            ctx.artifact(plot, "plot", "energy-volume curve"),
            self.scan,
        )


@dataclass(frozen=True)
class Report(Step):
    """Write the report and return the result."""

    params: LatticeConstantParams
    results: ArtifactRef
    plot: ArtifactRef
    scan: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        t = read_table(ctx.path(self.results))
        src = self.results.path
        values = {
            "lattice_constant": Quantity(float(t["a0"][0]), "Å", source=src),
            "bulk_modulus": Quantity(float(t["b0"][0]), "GPa", source=src),
            "energy_per_atom": Quantity(float(t["e0"][0]), "eV", source=src),
            "volume_per_atom": Quantity(float(t["v0"][0]), "Å^3", source=src),
        }
        refs: tuple[Reference, ...] = ()
        if p.element in EXPERIMENT_A:
            refs = (Reference("lattice_constant", EXPERIMENT_A[p.element], "Å", KITTEL),)
        summary = (
            f"{p.element} ({p.resolved_lattice()}, {p.calculator}): a0 = "
            f"{values['lattice_constant'].value:.4f} Å, B0 = "
            f"{values['bulk_modulus'].value:.1f} GPa"
        )
        return Done(
            report_result(
                ctx,
                title=f"Lattice constant of {p.element}",
                summary=summary,
                values=values,
                references=refs,
                artifacts=(self.results, self.plot, self.scan),
                method=(
                    f"Energies of the conventional {p.resolved_lattice()} cell at {p.n_points} "
                    f"isotropic strains within ±{p.strain_percent} % computed with "
                    f"{p.calculator_spec().describe()}; {p.eos} equation of state fitted with ASE."
                ),
            )
        )


GRAPH = Graph.build("lattice_constant", [BuildCrystal, ScanVolumes, FitEOS, Report])

_LATTICES = ("fcc", "bcc", "sc", "diamond")
_TRIGGERS = ("lattice constant", "lattice parameter", "equation of state", "eos")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from phrases like 'lattice constant of fcc Cu with EMT'."""
    low = text.lower()
    if not any(t in low for t in _TRIGGERS):
        return None
    mentions_dft = has_word(text, "dft", "pbe", "lda", "pbesol", "pw.x", "espresso")
    if mentions_dft:
        return None
    elements = find_elements(text)
    if not elements:
        raise ParseError("which element? e.g. 'lattice constant of fcc Cu with EMT'")
    if len(elements) > 1:
        raise ParseError(
            f"the request names several elements ({', '.join(elements)}); "
            "this protocol handles one element"
        )
    raw: dict[str, Any] = {"element": elements[0]}
    lat = [name for name in _LATTICES if has_word(text, name)]
    if len(lat) > 1:
        raise ParseError(f"the request names several lattices ({', '.join(lat)})")
    if lat:
        raw["lattice"] = lat[0]
    if has_word(text, "lj", "lennard-jones"):
        raw["calculator"] = "lj"
    m = re.search(r"(\d+)\s+(?:points|volumes)", low)
    if m:
        raw["n_points"] = int(m.group(1))
    return raw


PROTOCOL = Protocol(
    name="lattice_constant",
    title="Lattice constant of a cubic crystal from an equation-of-state fit (ASE)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=LatticeConstantParams,
    start=lambda params: BuildCrystal(params),
    examples=("lattice constant of fcc Cu with EMT", "equation of state of Al with EMT"),
    parse_request=parse_request,
    engines=("ase",),
)
