"""Protocol ``elastic_constants``: the elastic stiffness of a cubic crystal by finite strains.

Relax the lattice constant (an equation-of-state scan), apply each of the six Voigt
strains at ±0.5 % and ±1 % to the relaxed conventional cell, compute the stress of
each strained cell (ions relaxed at fixed cell when the basis is not trivial:
diamond Si needs the internal relaxation for C44), fit σ_i against e_j by least
squares for the 6×6 stiffness with standard errors, and report C11, C12 and C44
(means of their cubic-equivalent entries, with uncertainties), the Voigt–Reuss–Hill
bulk, shear and Young's moduli and Poisson's ratio, and the Born stability criteria.
Any engine that gives stresses: a LAMMPS potential of the catalogue ("with the Mishin
EAM potential"; ions relaxed by LAMMPS ``minimize``) or an ASE calculator (EMT, the
universal MLIPs; ions relaxed by BFGS).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pydantic import ConfigDict, Field, field_validator
from typing_extensions import override

from simwright.analysis.elastic import (
    VOIGT_NAMES,
    Stiffness,
    born_cubic,
    cubic_constants,
    deformation,
    fit_stiffness,
    stress_strain_plot,
    to_voigt,
    vrh,
)
from simwright.contract import (
    SCHEMA_VERSION,
    Column,
    Table,
    read_structure,
    read_table,
    write_table,
)
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.registry import Protocol
from simwright.protocols.solids import sizing
from simwright.protocols.solids.engine import SolidEngineParams, solid_request
from simwright.protocols.solids.inputs import crystal_inputs
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.steps.eos import StrainScan
from simwright.steps.lattice import LatticeFit, relax_lattice
from simwright.steps.report import report_result

PROPERTIES = ("c11", "c12", "c44", "bulk_modulus", "lattice_constant")


class ElasticConstantsParams(SolidEngineParams):
    """Typed parameters of ``elastic_constants``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strains_percent: tuple[float, ...] = Field(
        (0.5, 1.0), min_length=1, description="strain magnitudes, each applied with both signs (%)"
    )
    relax_ions: bool | None = Field(
        None, description="relax ions at fixed cell; default: yes unless the lattice is fcc/bcc/sc"
    )
    eos_strain_percent: float = Field(3.0, gt=0, le=20, description="± range of the EOS scan")
    eos_points: int = Field(7, ge=5, le=101)
    eos: Literal["birchmurnaghan", "murnaghan", "vinet", "sj"] = "birchmurnaghan"

    @field_validator("strains_percent")
    @classmethod
    def _small_strains(cls, value: tuple[float, ...]) -> tuple[float, ...]:
        if any(not 0 < s <= 3 for s in value):
            raise ValueError(
                "each strain must lie in (0, 3] %: larger strains leave the linear regime"
            )
        return value

    def ions_relaxed(self) -> bool:
        """Whether the ions relax at fixed cell: asked, or a basis with free internal
        coordinates (diamond)."""
        if self.relax_ions is not None:
            return self.relax_ions
        prototype = self.crystal().resolved()[0]
        return prototype not in ("fcc", "bcc", "sc")


@dataclass(frozen=True)
class RelaxCrystal(Step):
    """Relax the lattice constant by an equation-of-state scan."""

    params: ElasticConstantsParams

    @override
    def run(self, ctx: RunContext) -> StrainStress:
        p = self.params
        scan = StrainScan(p.eos_strain_percent, p.eos_points)
        return StrainStress(p, relax_lattice(ctx, p.crystal(), p.engine(), scan, p.eos))


@dataclass(frozen=True)
class StrainStress(Step):
    """The stress of the relaxed cell under each Voigt strain pattern, both signs."""

    params: ElasticConstantsParams
    fit: LatticeFit

    @override
    def run(self, ctx: RunContext) -> FitStiffness:
        p = self.params
        base = read_structure(ctx.path(self.fit.relaxed))
        magnitudes = sorted({s * sign / 100 for s in p.strains_percent for sign in (-1, 1)})
        rows = [(j, e) for j in range(6) for e in magnitudes]
        cells = []
        for j, e in rows:
            f = deformation(j, e)
            cells.append(base.with_positions(base.positions @ f.T, base.cell @ f.T))
        out = p.engine().points(ctx, cells, relax_ions=p.ions_relaxed())
        assert out.stress_gpa is not None  # points() gives stresses or refuses
        stress = to_voigt(out.stress_gpa)
        columns = [
            Column("pattern", np.array([j for j, _ in rows]), "1", "Voigt index of the strain"),
            Column("strain", np.array([e for _, e in rows]), "1", "applied strain (γ for shear)"),
            *(
                Column(f"stress_{n}", stress[:, k], "GPa", f"Cauchy stress {n}, tensile > 0")
                for k, n in enumerate(VOIGT_NAMES)
            ),
            Column("energy_per_atom", out.energy_ev / len(base), "eV"),
        ]
        table = Table(
            name="stress_strain",
            columns=tuple(columns),
            description=f"stress of strained {base.formula} with {p.engine_name()}",
            producer=ctx.producer,
            attrs={"ions_relaxed": str(p.ions_relaxed())},
        )
        path = write_table(ctx.workdir / "stress_strain.h5", table)
        return FitStiffness(
            p, self.fit, ctx.artifact(path, "table", table.description, SCHEMA_VERSION)
        )


@dataclass(frozen=True)
class FitStiffness(Step):
    """Fit the 6×6 stiffness; write it with its standard errors and the stress–strain plot."""

    params: ElasticConstantsParams
    fit: LatticeFit
    stress_strain: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> ElasticReport:
        data = read_table(ctx.path(self.stress_strain))
        patterns = np.asarray(data["pattern"]).astype(int)
        strains = np.asarray(data["strain"], float)
        stresses = np.column_stack([data[f"stress_{n}"] for n in VOIGT_NAMES])
        stiffness = fit_stiffness(patterns, strains, stresses)
        columns = tuple(
            Column(f"c{i + 1}{j + 1}", np.array([stiffness.c_gpa[i, j]]), "GPa")
            for i in range(6)
            for j in range(6)
        ) + tuple(
            Column(f"c{i + 1}{j + 1}_stderr", np.array([stiffness.stderr_gpa[i, j]]), "GPa")
            for i in range(6)
            for j in range(6)
        )
        table = Table(
            name="stiffness",
            columns=columns,
            description="6x6 stiffness fitted to the stress-strain data, with standard errors",
            producer=ctx.producer,
        )
        path = write_table(ctx.workdir / "stiffness.h5", table)
        plot = stress_strain_plot(
            ctx.workdir / "stress_strain.png",
            patterns,
            strains,
            stresses,
            stiffness,
            f"{self.params.element} ({self.params.engine_name()})",
        )
        return ElasticReport(
            self.params,
            self.fit,
            tuple(map(tuple, stiffness.c_gpa.tolist())),
            tuple(map(tuple, stiffness.stderr_gpa.tolist())),
            (
                ctx.artifact(path, "table", table.description, SCHEMA_VERSION),
                ctx.artifact(plot, "plot", "stress-strain fits"),
                self.stress_strain,
            ),
        )


@dataclass(frozen=True)
class ElasticReport(Step):
    """C11, C12, C44 with uncertainties, VRH moduli and Born stability, compared."""

    params: ElasticConstantsParams
    fit: LatticeFit
    c_gpa: tuple[tuple[float, ...], ...]
    stderr_gpa: tuple[tuple[float, ...], ...]
    artifacts: tuple[ArtifactRef, ...]

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        p = self.params
        stiffness = Stiffness(np.array(self.c_gpa), np.array(self.stderr_gpa))
        cubic = cubic_constants(stiffness)
        moduli = vrh(stiffness.c_gpa)
        source = self.artifacts[0].path
        values = {
            name: Quantity(value, "GPa", uncertainty=err, source=source)
            for name, (value, err) in cubic.items()
        }
        values |= {
            "bulk_modulus": Quantity(moduli.b_hill, "GPa", source=source),
            "shear_modulus": Quantity(moduli.g_hill, "GPa", source=source),
            "young_modulus": Quantity(moduli.young, "GPa", source=source),
            "poisson_ratio": Quantity(moduli.poisson, "1", source=source),
            "lattice_constant": Quantity(self.fit.a0_a, "Å", source=self.fit.results.path),
            "eos_bulk_modulus": Quantity(self.fit.b0_gpa, "GPa", source=self.fit.results.path),
        }
        born = born_cubic(cubic["c11"][0], cubic["c12"][0], cubic["c44"][0])
        stable = all(ok for _, _, ok in born)
        notes = [
            "Born stability (cubic): "
            + "; ".join(f"{t}: {v:.1f} GPa {'yes' if ok else 'NO'}" for t, v, ok in born),
            f"Voigt/Reuss/Hill: B = {moduli.b_voigt:.1f}/{moduli.b_reuss:.1f}/{moduli.b_hill:.1f} "
            f"GPa, G = {moduli.g_voigt:.1f}/{moduli.g_reuss:.1f}/{moduli.g_hill:.1f} GPa.",
            "Static 0 K values of the potential; experiment is at room temperature.",
            p.validation_note(),
        ]
        c11, c12, c44 = (cubic[k][0] for k in ("c11", "c12", "c44"))
        summary = (
            f"{p.element} ({p.engine_name()}): C11 = {c11:.1f}, C12 = {c12:.1f}, "
            f"C44 = {c44:.1f} GPa, B = {moduli.b_hill:.1f} GPa; "
            f"{'mechanically stable' if stable else 'NOT mechanically stable'}"
        )
        strains = ", ".join(f"±{s:g}" for s in p.strains_percent)
        relax = "ions relaxed at fixed cell" if p.ions_relaxed() else "ions fixed"
        return Done(
            report_result(
                ctx,
                title=f"Elastic constants of {p.element}",
                summary=summary,
                values=values,
                method=(
                    f"Lattice constant from a {p.eos} fit ({p.eos_points} points within "
                    f"±{p.eos_strain_percent} %); each of the six Voigt strains at {strains} % "
                    f"applied to the relaxed conventional cell, {relax}; stresses from "
                    f"{p.engine().describe()}; C_ij fitted by least squares (standard errors), "
                    "cubic constants averaged over equivalent entries, Voigt–Reuss–Hill averages."
                ),
                artifacts=(*self.artifacts, self.fit.results, self.fit.plot),
                references=p.references(PROPERTIES),
                notes=notes,
            )
        )


GRAPH = Graph.build("elastic_constants", [RelaxCrystal, StrainStress, FitStiffness, ElasticReport])

_TRIGGER = re.compile(r"\belastic\s+(?:constants?|stiffness|moduli|tensor)\b|\bc11\b|\bcij\b")


def parse_request(text: str) -> dict[str, Any] | None:
    """Parameters from 'elastic constants of Cu with the Mishin EAM potential'."""
    return solid_request(text, _TRIGGER, "elastic constants of Cu with the Mishin EAM potential")


def start(p: ElasticConstantsParams) -> RelaxCrystal:
    """The first step."""
    return RelaxCrystal(p)


PROTOCOL = Protocol(
    name="elastic_constants",
    title="Elastic constants of a cubic crystal by finite strains (any engine with stresses)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=ElasticConstantsParams,
    start=start,
    examples=(
        "elastic constants of Cu with the Mishin EAM potential",
        "elastic constants of Si with Tersoff",
    ),
    parse_request=parse_request,
    check=sizing.check_lattice_constant,
    estimate=sizing.elastic_constants_estimate,
    prepare=crystal_inputs,
)
