"""Protocol ``deposition``: atoms deposited one by one onto a crystal slab (film growth).

A (001) slab of a cubic crystal, periodic in x and y with an open top (LAMMPS
boundary ``p p f``), is run with a catalogued potential: the bottom atomic layers are
fixed, the next ones are held at T by a Langevin thermostat, the top layers are free
(NVE). After a short relaxation, ``fix deposit`` inserts one atom every interval at a
random point of a region above the surface (stated heights), moving straight down
with the stated incident kinetic energy; the surface must take up the energy through
the thermostatted layers. After the last insertion the film settles. The final atoms
give the adsorbed and reflected counts (an atom that leaves through the open top is
dropped and counted as reflected), the coverage in monolayers and the number-density
profile along z.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from ase.data import atomic_masses, atomic_numbers
from pydantic import ConfigDict, Field, model_validator
from typing_extensions import override

from simwright.analysis.deposition import density_profile, growth, profile_plot, read_dump
from simwright.contract import SCHEMA_VERSION, Column, Table, write_table
from simwright.engines.lammps.solid_md import DEPOSITED_NAME, DepositionLayout, Dynamics, deposition
from simwright.errors import ParseError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.potentials import Potential, read_catalogue, select_potential
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
from simwright.structure import Structure, is_element

LAYERS_PER_CELL = {"fcc": 2, "bcc": 2, "diamond": 4}
BOTTOM_A = 1.0
"""Height of the lowest layer above the box floor (Å)."""
AMU_EV_TO_A_PS = math.sqrt(2 * 1.602176634e-19 / 1.66053906660e-27) / 100.0
"""sqrt(2 E / m) with E in eV and m in amu, in Å/ps."""


class DepositionParams(CrystalMDParams):
    """Typed parameters of ``deposition``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    timestep_fs: float = Field(1.0, gt=0, le=5, description="MD timestep (fs)")
    adatom: str | None = Field(None, description="deposited element; default: the slab's")
    cells: tuple[int, int] = Field((4, 4), description="conventional cells along x and y")
    layer_cells: int = Field(3, ge=2, le=12, description="conventional cells along z")
    fixed_layers: int = Field(2, ge=1, description="bottom atomic layers held fixed")
    thermostat_layers: int = Field(2, ge=1, description="atomic layers above, at T (Langevin)")
    temperature_k: float = Field(300.0, gt=0)
    count: int = Field(20, ge=1, le=10000, description="atoms deposited")
    interval_ps: float = Field(1.0, gt=0, description="one atom every interval")
    energy_ev: float = Field(0.5, gt=0, le=1000, description="incident kinetic energy (normal)")
    insert_from_a: float = Field(10.0, gt=3, description="insertion region starts this high")
    insert_span_a: float = Field(2.0, gt=0, description="and is this thick (Å)")
    relax_ps: float = Field(2.0, gt=0)
    settle_ps: float = Field(5.0, gt=0, description="after the last insertion")

    @model_validator(mode="after")
    def _layers(self) -> DepositionParams:
        if self.adatom is not None and not is_element(self.adatom):
            raise ValueError(f"unknown element {self.adatom!r}")
        if self.fixed_layers + self.thermostat_layers >= self.n_layers():
            raise ValueError(
                f"fixed + thermostatted layers ({self.fixed_layers} + {self.thermostat_layers}) "
                f"leave no free layer of {self.n_layers()}"
            )
        return self

    def deposited(self) -> str:
        """The deposited element."""
        return self.adatom or self.element

    def entry(self) -> Potential:
        """The potential covering the slab's and the deposited element."""
        elements = sorted({self.element, self.deposited()})
        return select_potential(read_catalogue(), elements, self.potential)

    def n_layers(self) -> int:
        """Atomic (001) layers of the slab."""
        return self.layer_cells * LAYERS_PER_CELL[self.resolved_lattice()]

    def spacing(self) -> float:
        """(001) interlayer spacing (Å)."""
        return self.resolved_a() / LAYERS_PER_CELL[self.resolved_lattice()]

    def surface_a(self) -> float:
        """Height of the top layer (Å)."""
        return BOTTOM_A + (self.n_layers() - 1) * self.spacing()

    def layout(self) -> DepositionLayout:
        """Fixed, thermostatted and insertion heights."""
        d = self.spacing()
        lo = self.surface_a() + self.insert_from_a
        return DepositionLayout(
            fixed_top=BOTTOM_A + (self.fixed_layers - 0.5) * d,
            thermostat_top=BOTTOM_A + (self.fixed_layers + self.thermostat_layers - 0.5) * d,
            insert_lo=lo,
            insert_hi=lo + self.insert_span_a,
        )

    def speed_a_ps(self) -> float:
        """Incident speed of a deposited atom (Å/ps)."""
        mass = float(atomic_masses[atomic_numbers[self.deposited()]])
        return AMU_EV_TO_A_PS * math.sqrt(self.energy_ev / mass)

    def slab(self) -> Structure:
        """The slab: bottom layer at :data:`BOTTOM_A`, open space above the insertion region."""
        bulk = supercell_of(self, (*self.cells, self.layer_cells))
        cell = np.array(bulk.cell, float)
        cell[2, 2] = self.layout().insert_hi + 10.0
        positions = bulk.positions + np.array([0.0, 0.0, BOTTOM_A])
        return Structure(bulk.symbols, positions, cell, (True, True, False))

    def atoms_per_layer(self) -> int:
        """Atoms in one (001) layer of the slab."""
        return (
            self.atoms_per_cell()
            * self.cells[0]
            * self.cells[1]
            // LAYERS_PER_CELL[self.resolved_lattice()]
        )

    def dynamics(self) -> Dynamics:
        """Timestep, damping and seed."""
        return Dynamics(self.timestep_fs, self.seed)


def _binomial(fraction: float, n: int) -> float:
    """Standard error of a fraction from ``n`` trials (at least that of 1 in 100)."""
    return math.sqrt(max(fraction * (1 - fraction), 1e-2) / n)


@dataclass(frozen=True)
class Deposit(Step):
    """Relax the slab, deposit the atoms, let the film settle (one LAMMPS call)."""

    params: DepositionParams

    @override
    def run(self, ctx: RunContext) -> DepositionReport:
        p = self.params
        run = potential_run(p.entry(), [p.element, p.deposited()], boundary="p p f")
        every = steps_for(p.interval_ps, p.timestep_fs)
        relax, settle = (steps_for(x, p.timestep_fs) for x in (p.relax_ps, p.settle_ps))
        body = deposition(
            p.dynamics(),
            p.temperature_k,
            p.layout(),
            adatom_type=run.type_of(p.deposited()),
            count=p.count,
            every_steps=every,
            speed_a_ps=p.speed_a_ps(),
            relax_steps=relax,
            settle_steps=settle,
        )
        _, files = md_with_potential(
            ctx,
            run,
            body,
            f"deposition of {p.count} {p.deposited()}",
            structure=p.slab(),
            steps=relax + p.count * every + settle,
        )
        dump = ctx.artifact(ctx.workdir / DEPOSITED_NAME, "atoms", "final atoms (id type x y z)")
        return DepositionReport(p, dump, files.thermo)


@dataclass(frozen=True)
class DepositionReport(Step):
    """Counts, coverage, the density profile (table and plot) and the report."""

    params: DepositionParams
    dump: ArtifactRef
    thermo: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        atoms = read_dump(ctx.path(self.dump))
        n_slab = len(p.slab())
        g = growth(atoms, n_slab, p.count, p.surface_a(), p.atoms_per_layer())
        cell = p.slab().cell
        area = float(cell[0][0]) * float(cell[1][1])
        z, slab, new = density_profile(atoms, n_slab, area)
        table = Table(
            name="density_profile",
            columns=(
                Column("z", z, "Å", "bin centre"),
                Column("slab_density", slab, "1/Å^3"),
                Column("deposited_density", new, "1/Å^3"),
            ),
            description=f"number density along z after depositing {p.count} {p.deposited()}",
            producer=ctx.producer,
        )
        path = write_table(ctx.workdir / "density_profile.h5", table)
        plot = profile_plot(
            ctx.workdir / "density_profile.png",
            z,
            slab,
            new,
            p.surface_a(),
            f"{p.deposited()} on {p.element}(001), {p.count} atoms at {p.energy_ev:g} eV",
        )
        refs = (
            ctx.artifact(path, "table", table.description, SCHEMA_VERSION),
            ctx.artifact(plot, "plot", "density profile along z"),
        )
        src = refs[0].path
        values = {
            "adsorbed": Quantity(g.adsorbed, "atoms", source=src),
            "reflected": Quantity(g.reflected, "atoms", source=src),
            "sticking_fraction": Quantity(g.sticking, "1", source=src),
            "coverage": Quantity(g.coverage_ml, "ML", source=src),
        }
        summary = (
            f"{p.count} {p.deposited()} on {p.element}(001) ({p.engine_name()}) at "
            f"{p.energy_ev:g} eV, {p.temperature_k:g} K: {g.adsorbed} adsorbed, {g.reflected} "
            f"reflected (sticking {g.sticking:.2f}), coverage {g.coverage_ml:.2f} ML"
        )
        lo = p.layout()
        nx, ny = p.cells
        return Done(
            report_result(
                ctx,
                title=f"Deposition of {p.deposited()} on {p.element}(001)",
                summary=summary,
                values=values,
                method=(
                    f"LAMMPS with {p.entry().describe()}: {p.element}(001) slab of {nx}×{ny}×"
                    f"{p.layer_cells} conventional cells ({n_slab} atoms, {p.n_layers()} layers, "
                    f"{p.atoms_per_layer()} atoms per layer), boundary p p f; bottom "
                    f"{p.fixed_layers} layers fixed, next {p.thermostat_layers} Langevin at "
                    f"{p.temperature_k:g} K (damping {p.dynamics().tdamp_fs:g} fs), the rest NVE; "
                    f"{p.relax_ps:g} ps relaxation; then one {p.deposited()} atom every "
                    f"{p.interval_ps:g} ps (rate {1 / p.interval_ps:g} atoms/ps, "
                    f"{1 / (p.interval_ps * area * 1e-2):.3g} atoms/(nm² ps)) inserted at random "
                    f"in z = {lo.insert_lo:.1f}–{lo.insert_hi:.1f} Å (surface at "
                    f"{p.surface_a():.1f} Å), at least 2 Å from any atom, moving down at "
                    f"{p.speed_a_ps():.2f} Å/ps ({p.energy_ev:g} eV, normal incidence); "
                    f"{p.settle_ps:g} ps after the last; {p.timestep_fs:g} fs step. Adsorbed: "
                    "deposited atoms continuous with the film (within 4 Å of the atom below); "
                    "reflected: the rest, including those lost through the open top."
                ),
                artifacts=(*refs, self.dump, self.thermo),
                notes=[
                    "The deposition rate of MD is many orders of magnitude above experiment's: "
                    "surface diffusion between arrivals is cut short, so island shapes and "
                    "roughness are those of far-from-equilibrium growth.",
                    f"One run, {p.count} atoms: the sticking fraction is one sample (binomial "
                    f"error about ±{_binomial(g.sticking, p.count):.2f}).",
                ],
            )
        )


GRAPH = Graph.build("deposition", [Deposit, DepositionReport])

_TRIGGER = re.compile(r"\bdeposit(?:ion|ing|ed)?\b|\bfilm growth\b")


_ON = re.compile(r"\b([A-Z][a-z]?)\b(?:\s+atoms)?\s+on(?:to)?\s+(?:an?\s+|the\s+)?([A-Z][a-z]?)\b")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from 'deposition of Cu on a Cu slab with the Mishin EAM potential'
    ('Ag on Cu': Ag deposited on a Cu slab; '20 atoms', '1 eV' and '300 K' are read)."""
    if not _TRIGGER.search(text.lower()):
        return None
    on = _ON.search(text)
    words = text
    if on is not None and on.group(1) != on.group(2) and all(map(is_element, on.groups())):
        words = text[: on.start()] + f" {on.group(2)} " + text[on.end() :]
    raw = md_solid_request(
        words, _TRIGGER, "deposition of Cu on a Cu slab with the Mishin EAM potential"
    )
    if raw is None:
        return None
    if words is not text and on is not None:
        raw["adatom"] = on.group(1)
    for pattern, key, kind in (
        (r"(\d+)\s*atoms\b", "count", int),
        (r"(\d+(?:\.\d+)?)\s*eV\b", "energy_ev", float),
        (r"(\d+(?:\.\d+)?)\s*K\b", "temperature_k", float),
    ):
        found = re.findall(pattern, text)
        if len(set(found)) > 1:
            raise ParseError(f"the request states several values for {key}: {', '.join(found)}")
        if found:
            raw[key] = kind(found[0])
    return raw


def estimate(params: DepositionParams, settings: Settings) -> Estimate:
    """One LAMMPS call: relaxation, insertions, settling."""
    steps = steps_for(
        params.relax_ps + params.count * params.interval_ps + params.settle_ps, params.timestep_fs
    )
    return md_estimate(params, len(params.slab()) + params.count, (MdSegment("deposition", steps),))


def prepare(params: DepositionParams, settings: Settings) -> BuiltInputs:
    """The slab, the potential and LAMMPS."""
    return md_inputs(params, params.slab(), settings)


PROTOCOL = Protocol(
    name="deposition",
    title="Deposition of atoms onto a crystal slab: sticking, coverage, density profile (LAMMPS)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=DepositionParams,
    start=lambda params: Deposit(params),
    examples=(
        "deposition of Cu on a Cu slab with the Mishin EAM potential",
        "deposit 40 atoms of Cu at 1 eV on Cu with the Mishin EAM potential",
    ),
    parse_request=parse_request,
    engines=("lmp",),
    estimate=estimate,
    prepare=prepare,
)
