"""Protocol ``dft_surface_energy``: surface energy of an elemental slab with pw.x.

γ(N) = (E_slab(N) − N ε_bulk) / 2A for slabs of N layers (``slab_layers``, 3, 4 and 5
unless given), both faces alike, A the area of the surface cell. ε_bulk is the energy
per atom of the *oriented* bulk cell: the slab's own in-plane cell stacked periodically
along the normal with one stacking period (fcc(111) 3 layers, bcc(111) 3, others 2), so
that the bulk reference uses the **same in-plane k-mesh** as the slabs (and the same
spacing along the normal). Slab-thickness convergence is reported as γ(N) for each N and
the change between the two thickest slabs; the value is the thickest slab's. With three
or more slabs the report also gives the cross-check of Fiorentini and Methfessel (J. Phys.:
Condens. Matter 8, 6525 (1996)): a straight line fitted to E_slab(N) gives a bulk energy
per atom (its slope) and a surface energy (its intercept / 2A) that do not depend on the
bulk run; a slope far from ε_bulk points at an inconsistent bulk reference, a scatter
about the line at quantum-size oscillations of the thin slabs.

Every input is derived from the recommended input of the thickest slab (same cutoffs,
files, smearing — Gaussian 0.01 Ry unless given — and functional); ``settings.json``
records them. The slabs are the ideal bulk-terminated ones at the experimental lattice
constant (not relaxed; relaxation lowers γ of close-packed metal surfaces by a few per
cent), with the vacuum of the structure (10 Å unless given).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from ase.units import J, m
from pydantic import Field, field_validator, model_validator
from typing_extensions import override

from simwright.dft.request import mentions_dft, parse_functional, parse_structure
from simwright.dft.structures import reference_lattice
from simwright.engines.espresso.template import KPoints, PwInput
from simwright.errors import ParseError, ValidationError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.dft.combine import (
    EnergyDifferenceRequest,
    derive,
    energies_table,
    pw_energy,
    read_energies,
    settings_record,
)
from simwright.protocols.dft.common import pseudo_dirs, recommend_in_step
from simwright.protocols.dft.inputs import dft_inputs
from simwright.protocols.dft.post import pw_estimate, write_json
from simwright.protocols.dft.words import asks_surface_energy, element_symbols, flat_structure
from simwright.protocols.registry import Protocol
from simwright.results import ArtifactRef, ProtocolResult, Quantity, Reference
from simwright.steps.report import report_result
from simwright.structure import Structure

STACKING_PERIOD: dict[tuple[str, str], int] = {
    ("fcc", "111"): 3,
    ("fcc", "100"): 2,
    ("fcc", "110"): 2,
    ("bcc", "100"): 2,
    ("bcc", "110"): 2,
    ("bcc", "111"): 3,
    ("hcp", "0001"): 2,
}
"""Layers of one stacking period along the normal (the oriented bulk cell)."""
EV_A2_TO_J_M2 = 1 / (J / m**2)
"""eV/Å² in J/m² (16.02)."""
TYSON_MILLER = (
    "W. R. Tyson, W. A. Miller, Surf. Sci. 62, 267 (1977): surface energies of solid metals "
    "from liquid surface tensions, an average over orientations"
)
EXPERIMENT_J_M2: dict[str, float] = {"Cu": 1.790, "Al": 1.143, "Ag": 1.246, "Au": 1.506}
"""Experimental (orientation-averaged) surface energies, J/m² (Tyson & Miller)."""
CONVERGED_J_M2 = 0.02
"""Change of γ between the two thickest slabs above which the report warns."""


class DftSurfaceParams(EnergyDifferenceRequest):
    """Parameters of ``dft_surface_energy``: the surface and the slab thicknesses."""

    calculation: Literal["scf"] = "scf"
    slab_layers: tuple[int, ...] = Field((3, 4, 5), description="slab thicknesses (layers)")

    @field_validator("slab_layers")
    @classmethod
    def _increasing(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if not value or any(n < 2 for n in value) or list(value) != sorted(set(value)):
            raise ValueError(
                "slab_layers: increasing thicknesses of at least 2 layers, e.g. 3, 4, 5"
            )
        return value

    @model_validator(mode="after")
    def _surface(self) -> DftSurfaceParams:
        if self.structure.kind != "surface":
            raise ValueError("a surface energy needs a surface, e.g. 'surface energy of Cu(111)'")
        return self


def lattice_and_facet(name: str, lattice: str | None, facet: str | None) -> tuple[str, str]:
    """The lattice and facet of the surface (the builder's defaults); refuses a facet
    without a known stacking period (diamond surfaces reconstruct)."""
    lat = lattice or reference_lattice(name)[0]
    fac = facet or {"hcp": "0001"}.get(lat, "111" if lat != "bcc" else "110")
    if (lat, fac) not in STACKING_PERIOD:
        known = ", ".join(f"{a}({b})" for a, b in STACKING_PERIOD)
        raise ValidationError(f"surface energies are computed for {known}, not {lat}({fac})")
    return lat, fac


def build_slab(
    name: str,
    lattice: str,
    facet: str,
    size: tuple[int, int],
    layers: int,
    vacuum_a: float | None,
    a_a: float | None = None,
) -> Structure:
    """The slab of ``layers`` layers (``vacuum_a`` Å of vacuum) or, with ``vacuum_a``
    None, the oriented bulk cell of ``layers`` layers, periodic along the normal."""
    # lazy: ase.build takes ~1 s to import
    import ase.build

    _, a, c = reference_lattice(name)
    kwargs: dict[str, Any] = {"size": (*size, layers), "a": a_a or a}
    if lattice == "hcp":
        kwargs["c"] = c
    if vacuum_a is None:
        kwargs["periodic"] = True
    else:
        kwargs["vacuum"] = vacuum_a / 2
    return Structure.from_ase(getattr(ase.build, f"{lattice}{facet}")(name, **kwargs))


def surface_area(structure: Structure) -> float:
    """Area of the surface cell (Å²): |a₁ × a₂|."""
    cell = np.asarray(structure.cell)
    return float(np.linalg.norm(np.cross(cell[0], cell[1])))


@dataclass(frozen=True)
class SlabFit:
    """Straight line through the slab energies: E_slab(N) ≈ N ε + 2Aγ."""

    bulk_energy_per_atom_ev: float
    surface_energy_ev_a2: float
    largest_residual_ev: float


def slab_line_fit(slab_energies_ev: dict[int, float], area_a2: float) -> SlabFit | None:
    """Least-squares line through ``{layers: E_slab}`` (eV; one atom per layer of the
    surface cell): its slope is a bulk energy per layer, its intercept 2Aγ. None for
    fewer than three slabs (two points fit any line)."""
    if len(slab_energies_ev) < 3:
        return None
    layers = np.array(sorted(slab_energies_ev), dtype=float)
    energy = np.array([slab_energies_ev[int(n)] for n in layers])
    slope, intercept = np.polyfit(layers, energy, 1)
    residual = energy - (slope * layers + intercept)
    return SlabFit(float(slope), float(intercept) / (2 * area_a2), float(np.abs(residual).max()))


@dataclass(frozen=True)
class SurfaceRecommend(Step):
    """Recommend the thickest slab's input; the others are derived from it."""

    params: DftSurfaceParams

    @override
    def run(self, ctx: RunContext) -> SurfaceRun:
        s = self.params.structure
        thickest = s.model_copy(update={"size": (*s.size[:2], max(self.params.slab_layers))})
        params = self.params.model_copy(update={"structure": thickest})
        rec = recommend_in_step(ctx, params)
        z = {p.element: p.z_valence for p in rec.pseudos.pseudos}
        return SurfaceRun(self.params, rec.template, rec.pseudos.functional, z)


@dataclass(frozen=True)
class SurfaceRun(Step):
    """Oriented bulk and slabs with the same in-plane k-mesh; run each."""

    params: DftSurfaceParams
    template: PwInput
    functional: str
    z_valence: dict[str, float]

    @override
    def run(self, ctx: RunContext) -> SurfaceReport:
        p, s = self.params, self.params.structure
        lattice, facet = lattice_and_facet(s.name, s.lattice, s.facet)
        size = (s.size[0], s.size[1])
        vacuum = s.vacuum_a if s.vacuum_a is not None else 10.0
        period = STACKING_PERIOD[(lattice, facet)]
        oriented = build_slab(s.name, lattice, facet, size, period, None, s.a_a)
        n1, n2, _ = self.template.kpoints.mesh
        normal = 2 * math.pi / float(np.asarray(oriented.cell)[2, 2])
        n3 = max(1, math.ceil(normal / p.kspacing_inv_a))
        mesh = KPoints("automatic", (n1, n2, n3))
        inputs = {"bulk": derive(self.template, oriented, "bulk", p.kspacing_inv_a, kpoints=mesh)}
        for n in p.slab_layers:
            slab = build_slab(s.name, lattice, facet, size, n, vacuum, s.a_a)
            inputs[f"slab-{n}"] = derive(
                self.template, slab, "slab", p.kspacing_inv_a, kpoints=self.template.kpoints
            )
        record = settings_record(
            inputs,
            pseudo_dirs(ctx, p),
            self.functional,
            p.kspacing_inv_a,
            surface=f"{s.name}({facet}) {size[0]}×{size[1]}",
            vacuum_a=vacuum,
            in_plane_k_mesh=f"{n1}×{n2} for the bulk reference and every slab",
            relaxation="none: ideal bulk-terminated slabs",
        )
        settings = write_json(ctx, "settings.json", record, "settings", "shared settings")
        ctx.rule("consistent_settings", "bulk and slabs share cutoffs, files, in-plane k-mesh")
        results = []
        for i, (name, inp) in enumerate(inputs.items()):
            ctx.progress(i / len(inputs), name)
            results.append(pw_energy(ctx, p, inp, self.z_valence, name))
        area = surface_area(oriented)
        attrs = {"area_a2": area, "facet": facet, "vacuum_a": vacuum}
        table = energies_table(ctx, results, attrs, "oriented bulk and slab energies")
        return SurfaceReport(p, table, settings, self.functional)


@dataclass(frozen=True)
class SurfaceReport(Step):
    """γ(N) for each slab, convergence with thickness, comparison with experiment."""

    params: DftSurfaceParams
    runs: ArtifactRef
    settings: ArtifactRef
    functional: str

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        energy, attrs = read_energies(ctx, self.runs)
        area, facet = float(attrs["area_a2"]), str(attrs["facet"])
        e_bulk = energy["bulk"][0] / energy["bulk"][1]
        gammas = {
            n: (energy[f"slab-{n}"][0] - energy[f"slab-{n}"][1] * e_bulk) / (2 * area)
            for n in self.params.slab_layers
        }
        src = self.runs.path
        values = {
            f"surface_energy_{n}_layers": Quantity(g * EV_A2_TO_J_M2, "J/m^2", source=src)
            for n, g in gammas.items()
        }
        gamma = gammas[max(gammas)]
        values["surface_energy"] = Quantity(gamma * EV_A2_TO_J_M2, "J/m^2", source=src)
        values["surface_energy_ev_a2"] = Quantity(gamma, "eV/Å^2", source=src)
        values["bulk_energy_per_atom"] = Quantity(e_bulk, "eV", source=src)
        notes = []
        per_layer = energy[f"slab-{max(gammas)}"][1] // max(gammas)
        fit = slab_line_fit(
            {n: energy[f"slab-{n}"][0] / per_layer for n in gammas}, area / per_layer
        )
        if fit is not None:
            values["surface_energy_line_fit"] = Quantity(
                fit.surface_energy_ev_a2 * EV_A2_TO_J_M2, "J/m^2", source=src
            )
            values["bulk_energy_per_atom_line_fit"] = Quantity(
                fit.bulk_energy_per_atom_ev, "eV", source=src
            )
            values["line_fit_largest_residual"] = Quantity(
                fit.largest_residual_ev, "eV", source=src
            )
            notes.append(
                f"line fit of E_slab(N) (Fiorentini–Methfessel): γ = "
                f"{fit.surface_energy_ev_a2 * EV_A2_TO_J_M2:.3f} J/m², bulk energy "
                f"{(fit.bulk_energy_per_atom_ev - e_bulk) * 1000:+.1f} meV/atom from the "
                f"oriented bulk run, largest residual {fit.largest_residual_ev * 1000:.1f} meV"
            )
        if len(gammas) > 1:
            n_a, n_b = sorted(gammas)[-2:]
            change = abs(gammas[n_b] - gammas[n_a]) * EV_A2_TO_J_M2
            values["thickness_change"] = Quantity(change, "J/m^2", source=src)
            if change > CONVERGED_J_M2:
                notes.append(
                    f"γ changes by {change:.3f} J/m² from {n_a} to {n_b} layers: not converged "
                    "with thickness; add layers"
                )
        name = self.params.structure.name
        what = f"{name}({facet})"
        refs = []
        if name in EXPERIMENT_J_M2:
            refs.append(Reference("surface_energy", EXPERIMENT_J_M2[name], "J/m^2", TYSON_MILLER))
        notes += [
            f"vacuum {float(attrs['vacuum_a']):g} Å; ideal, unrelaxed slabs at the "
            "experimental lattice constant",
            "bulk reference: the oriented bulk cell with the slabs' in-plane k-mesh",
            "experiment is an orientation average of liquid-metal data; GGA (PBE) "
            "underestimates metal surface energies, LDA less so; published PBE/LDA values "
            "are not quoted here (unverified)",
        ]
        gamma_j = gamma * EV_A2_TO_J_M2
        series = ", ".join(f"{n}: {g * EV_A2_TO_J_M2:.3f}" for n, g in gammas.items())
        return Done(
            report_result(
                ctx,
                title=f"DFT surface energy of {what}",
                summary=(
                    f"Surface energy of {what} ({self.functional.upper()}): {gamma_j:.3f} J/m² "
                    f"({gamma * 1000:.2f} meV/Å²); by layers {series} J/m²"
                ),
                values=values,
                artifacts=(self.runs, self.settings),
                references=tuple(refs),
                notes=notes,
                method=(
                    "γ = (E_slab − N ε_bulk)/2A with pw.x energies (error-recovery machine) of "
                    "slabs of increasing thickness and of the oriented bulk cell, all with the "
                    "same cutoffs, files, smearing, functional and in-plane k-mesh."
                ),
            )
        )


GRAPH = Graph.build("dft_surface_energy", [SurfaceRecommend, SurfaceRun, SurfaceReport])


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim "surface energy of Cu(111) with PBE"; one without DFT words ("... with EAM")
    is left to the classical surface-energy protocol."""
    if not asks_surface_energy(text) or not mentions_dft(text):
        return None
    structure = parse_structure(element_symbols(text))
    if structure["kind"] != "surface":
        raise ParseError("a surface energy needs a surface, e.g. 'surface energy of Cu(111)'")
    raw: dict[str, Any] = flat_structure(structure)
    functional, hybrid = parse_functional(text)
    if hybrid is not None:
        raise ParseError(f"a surface energy with {hybrid.upper()} is not supported")
    if functional is not None:
        raw["functional"] = functional
    return raw


PROTOCOL = Protocol(
    name="dft_surface_energy",
    title="Surface energy of a slab (thickness series) with Quantum ESPRESSO pw.x",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=DftSurfaceParams,
    start=lambda params: SurfaceRecommend(params),
    examples=("surface energy of Cu(111) with PBE", "surface energy of Al(111) with LDA"),
    parse_request=parse_request,
    engines=("pw.x",),
    estimate=pw_estimate(lambda s: 3),
    prepare=dft_inputs,
)
