"""Protocol ``dft_eos``: the equilibrium lattice constant from a DFT energy-volume curve.

The recommended pw.x input of the bulk crystal is evaluated at isotropic strains
(each point inside the error-recovery machine, at fixed cutoffs), an equation of
state is fitted with ASE, and a0, B0 and E0 are reported against experiment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pydantic import Field, model_validator
from typing_extensions import override

from simwright.analysis.eos import eos_plot, eos_table, fit_eos
from simwright.contract import SCHEMA_VERSION, Column, Table, read_table, write_table
from simwright.dft.request import DftRequest, is_eos_request, parse_dft_text
from simwright.dft.structures import PROTOTYPES, reference_lattice
from simwright.engines.espresso.template import PwInput
from simwright.errors import ParseError, ValidationError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.dft_common import (
    recommend_in_step,
    record_recovery,
    require_success,
    run_with_recovery,
)
from simwright.protocols.lattice_constant import EXPERIMENT_A, KITTEL
from simwright.protocols.outcome import report_result
from simwright.protocols.registry import Protocol
from simwright.results import ArtifactRef, ProtocolResult, Quantity, Reference

CONVENTIONAL_PER_PRIMITIVE: dict[str, float] = {
    "fcc": 4.0,
    "diamond": 4.0,
    "rocksalt": 4.0,
    "zincblende": 4.0,
    "fluorite": 4.0,
    "bcc": 2.0,
    "sc": 1.0,
    "cesiumchloride": 1.0,
}
"""Volume of the conventional cubic cell over that of ASE's primitive cell."""

EXPERIMENT_DIAMOND_A: dict[str, float] = {"C": 3.567, "Si": 5.431, "Ge": 5.658}
KITTEL_DIAMOND = (
    "C. Kittel, Introduction to Solid State Physics, 8th ed. (Wiley, 2005), "
    "ch. 1, lattice constants of crystals with the diamond structure"
)


class DftEosParams(DftRequest):
    """Parameters of ``dft_eos``: a bulk DFT request plus the strain scan."""

    calculation: Literal["scf"] = "scf"
    strain_percent: float = Field(4.0, gt=0, le=15, description="± strain of the lattice (%)")
    n_points: int = Field(7, ge=5, le=21, description="number of volumes")
    eos: Literal["birchmurnaghan", "murnaghan", "vinet", "sj"] = "birchmurnaghan"

    @model_validator(mode="after")
    def _bulk_only(self) -> DftEosParams:
        if self.structure.kind not in ("bulk", "spacegroup", "file", "materials_project"):
            raise ValueError("an equation of state needs a bulk crystal")
        return self

    def lattice(self) -> str | None:
        """The cubic lattice of the crystal, when known."""
        s = self.structure
        if s.lattice:
            return s.lattice
        if s.kind == "bulk" and s.name in PROTOTYPES:
            return PROTOTYPES[s.name][0]
        if s.kind == "bulk":
            try:
                return reference_lattice(s.name)[0]
            except (ValidationError, KeyError):
                return None
        return None


def experimental_a(params: DftEosParams) -> Reference | None:
    """The experimental lattice constant to compare with (Kittel), if tabulated."""
    name, lattice = params.structure.name, params.lattice()
    if lattice == "diamond" and name in EXPERIMENT_DIAMOND_A:
        return Reference("lattice_constant", EXPERIMENT_DIAMOND_A[name], "Å", KITTEL_DIAMOND)
    if lattice == "fcc" and name in EXPERIMENT_A:
        return Reference("lattice_constant", EXPERIMENT_A[name], "Å", KITTEL)
    return None


@dataclass(frozen=True)
class EosRecommend(Step):
    """Build the bulk crystal and recommend a validated pw.x input."""

    params: DftEosParams

    @override
    def run(self, ctx: RunContext) -> ScanVolumes:
        rec = recommend_in_step(ctx, self.params)
        if rec.built.kind != "bulk":
            raise ValidationError("an equation of state needs a periodic bulk crystal")
        return ScanVolumes(self.params, rec.template, rec.valence_electrons)


@dataclass(frozen=True)
class ScanVolumes(Step):
    """Run pw.x at each isotropic strain inside the recovery machine."""

    params: DftEosParams
    template: PwInput
    valence_electrons: float

    @override
    def run(self, ctx: RunContext) -> FitEOS:
        p = self.params
        base = self.template.structure
        scales = 1.0 + np.linspace(-p.strain_percent, p.strain_percent, p.n_points) / 100.0
        energies, runs, repaired = [], [], []
        for i, s in enumerate(scales, start=1):
            ctx.progress((i - 1) / len(scales), f"volume {i}/{len(scales)}")
            inp = self.template.with_structure(
                base.with_positions(base.positions * s, base.cell * s)
            )
            outcome = run_with_recovery(
                ctx, p, inp, self.valence_electrons, ctx.workdir / f"volume-{i:02d}"
            )
            record_recovery(ctx, outcome, f"recovery-{i:02d}.json")
            run = require_success(outcome)
            assert run.output.energy_ev is not None
            energies.append(run.output.energy_ev)
            runs.append(len(outcome.attempts))
            repaired.append(bool(outcome.repairs))
        n = len(base)
        volumes = np.array([abs(np.linalg.det(base.cell)) * s**3 for s in scales]) / n
        table = Table(
            name="eos_scan",
            columns=(
                Column("scale", scales, "1", "factor applied to the cell"),
                Column("volume_per_atom", volumes, "Å^3"),
                Column(
                    "energy_per_atom", np.array(energies) / n, "eV", "pw.x total energy per atom"
                ),
                Column("pw_runs", np.array(runs), "1", "pw.x runs needed (1 = zero-shot)"),
                Column("repaired", np.array(repaired), "1", "a repair was applied"),
            ),
            description=f"DFT energy-volume scan of {base.formula}",
            producer=ctx.producer,
        )
        path = write_table(ctx.workdir / "eos_scan.h5", table)
        return FitEOS(p, ctx.artifact(path, "table", table.description, SCHEMA_VERSION), n)


@dataclass(frozen=True)
class FitEOS(Step):
    """Fit the equation of state; convert V0 to the cubic lattice constant."""

    params: DftEosParams
    scan: ArtifactRef
    atoms_per_cell: int

    @override
    def run(self, ctx: RunContext) -> EosReport:
        p = self.params
        scan = read_table(ctx.path(self.scan))
        vol, en = scan["volume_per_atom"], scan["energy_per_atom"]
        fit = fit_eos(vol, en, p.eos)
        ratio = CONVENTIONAL_PER_PRIMITIVE.get(p.lattice() or "", float("nan"))
        a0 = float((fit.v0_a3 * self.atoms_per_cell * ratio) ** (1 / 3))
        results = eos_table(
            fit,
            a0,
            description=f"{p.eos} fit of the pw.x energy-volume curve",
            producer=ctx.producer,
            attrs={"lattice": p.lattice() or ""},
            a0_description="cubic lattice constant (NaN if not cubic)",
        )
        rpath = write_table(ctx.workdir / "results.h5", results)
        plot = eos_plot(
            ctx.workdir / "eos.png", vol, en, fit, f"{p.structure.name}: a0 = {a0:.4f} Å"
        )
        return EosReport(
            p,
            ctx.artifact(rpath, "table", results.description, SCHEMA_VERSION),
            ctx.artifact(plot, "plot", "energy-volume curve"),
            self.scan,
        )


@dataclass(frozen=True)
class EosReport(Step):
    """Write the report and return the result."""

    params: DftEosParams
    results: ArtifactRef
    plot: ArtifactRef
    scan: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        t = read_table(ctx.path(self.results))
        src = self.results.path
        values = {
            "bulk_modulus": Quantity(float(t["b0"][0]), "GPa", source=src),
            "energy_per_atom": Quantity(float(t["e0"][0]), "eV", source=src),
            "volume_per_atom": Quantity(float(t["v0"][0]), "Å^3", source=src),
        }
        if np.isfinite(t["a0"][0]):
            values = {"lattice_constant": Quantity(float(t["a0"][0]), "Å", source=src), **values}
        ref = experimental_a(self.params)
        refs = (ref,) if ref is not None else ()
        a_text = (
            f"a0 = {values['lattice_constant'].value:.4f} Å, "
            if "lattice_constant" in values
            else ""
        )
        summary = (
            f"{self.params.structure.name} (DFT): {a_text}"
            f"B0 = {values['bulk_modulus'].value:.1f} GPa"
        )
        return Done(
            report_result(
                ctx,
                title=f"DFT equation of state of {self.params.structure.name}",
                summary=summary,
                values=values,
                references=refs,
                artifacts=(self.results, self.plot, self.scan),
                method=(
                    f"pw.x SCF energies at {self.params.n_points} isotropic strains within "
                    f"±{self.params.strain_percent} % (fixed cutoffs, recommended input); "
                    f"{self.params.eos} equation of state fitted with ASE."
                ),
            )
        )


GRAPH = Graph.build("dft_eos", [EosRecommend, ScanVolumes, FitEOS, EosReport])


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim DFT requests for a lattice constant or equation of state ("... of Si with PBE")."""
    if not is_eos_request(text):
        return None
    raw = parse_dft_text(text)
    if raw is None:
        return None
    if raw["structure"]["kind"] != "bulk":
        raise ParseError(
            "an equation of state needs a bulk crystal, e.g. 'lattice constant of Si with PBE'"
        )
    raw.pop("calculation", None)
    return raw


PROTOCOL = Protocol(
    name="dft_eos",
    title="Lattice constant from a DFT equation of state (Quantum ESPRESSO pw.x)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=DftEosParams,
    start=lambda params: EosRecommend(params),
    examples=("lattice constant of Si with PBE", "equation of state of Cu with PBE"),
    parse_request=parse_request,
    engines=("espresso",),
)
