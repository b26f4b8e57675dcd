"""Protocol ``dft_dos``: total and projected density of states of a bulk crystal with pw.x.

The recommended SCF (error-recovery machine) is followed by an ``nscf`` run from
its density on a denser uniform mesh with the tetrahedron method
(``occupations='tetrahedra'``, Blöchl), then ``dos.x`` (total DOS) and
``projwfc.x`` (DOS projected on the atomic wave functions of the
pseudopotentials, summed per element and orbital). Tables with units, a plot with
the Fermi level at zero, and the DOS at the Fermi level are reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pydantic import Field, model_validator
from typing_extensions import override

from simwright.contract import SCHEMA_VERSION, Column, Table, read_table, write_table
from simwright.dft.recommender import kpoint_mesh
from simwright.engines.espresso.postproc_files import (
    pdos_by_element_orbital,
    read_dos,
    read_pdos,
)
from simwright.engines.espresso.summary import write_pw_tables
from simwright.engines.espresso.template import PwInput
from simwright.errors import EngineError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.dft.common import recommend_in_step
from simwright.protocols.dft.inputs import dft_inputs
from simwright.protocols.dft.plots import plot_dos
from simwright.protocols.dft.post import (
    PropertyRequest,
    n_bands,
    nscf_input,
    nscf_kept,
    pw_estimate,
    scf_kept,
    tool_in_step,
)
from simwright.protocols.dft.words import asks_dos, property_request
from simwright.protocols.registry import Protocol
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.steps.report import report_result


class DftDosParams(PropertyRequest):
    """Parameters of ``dft_dos``: a bulk DFT request plus the nscf mesh and energy step."""

    calculation: Literal["scf"] = "scf"
    dense_kspacing_inv_a: float = Field(
        0.12, gt=0, le=2.0, description="k spacing of the tetrahedron nscf mesh (Å⁻¹)"
    )
    delta_e_ev: float = Field(0.02, gt=0, le=0.5, description="energy step of the DOS (eV)")
    extra_bands: int = Field(4, ge=1, le=200, description="empty bands above the filled ones")

    @model_validator(mode="after")
    def _bulk_only(self) -> DftDosParams:
        if self.structure.kind not in ("bulk", "spacegroup", "file", "materials_project"):
            raise ValueError("a density of states is computed for a bulk crystal here")
        if self.hybrid is not None:
            raise ValueError("a density of states with a hybrid functional is not supported")
        return self


@dataclass(frozen=True)
class DosRecommend(Step):
    """Recommend the SCF input."""

    params: DftDosParams

    @override
    def run(self, ctx: RunContext) -> DosRun:
        rec = recommend_in_step(ctx, self.params)
        return DosRun(self.params, rec.template, rec.valence_electrons, rec.pseudos.functional)


def _dos_table(energy: np.ndarray, fermi: float, columns: dict[str, np.ndarray]) -> Table:
    cols = [
        Column("energy", energy, "eV", "energy (pw.x's zero)"),
        Column("energy_minus_fermi", energy - fermi, "eV", "energy relative to E_F"),
    ]
    cols += [
        Column(name, values, "1" if name == "int_dos" else "1/eV", f"{name} per cell")
        for name, values in columns.items()
    ]
    return Table(
        name="dos",
        columns=tuple(cols),
        description="density of states from dos.x (states/eV per cell; int_dos: states)",
        attrs={"fermi_energy_ev": fermi},
    )


@dataclass(frozen=True)
class DosRun(Step):
    """SCF, tetrahedron nscf on a dense mesh, dos.x and projwfc.x; tables out."""

    params: DftDosParams
    template: PwInput
    valence_electrons: float
    functional: str

    @override
    def run(self, ctx: RunContext) -> DosReport:
        p = self.params
        scf = scf_kept(ctx, p, self.template, self.valence_electrons)
        summary = write_pw_tables(scf, ctx.workdir, ctx.producer).summary
        mesh = kpoint_mesh(scf.structure, p.dense_kspacing_inv_a, "bulk")
        changes: dict[str, Any] = {"occupations": "tetrahedra", "smearing": None, "degauss": None}
        inp = nscf_input(
            self.template,
            "nscf",
            mesh,
            n_bands(self.valence_electrons, extra=p.extra_bands),
            changes,
        )
        ctx.progress(0.4, f"nscf on {mesh.describe()}")
        run = nscf_kept(ctx, p, inp, self.valence_electrons, scf, "nscf")
        tool_in_step(ctx, "dos", {"fildos": "dos.dat", "DeltaE": p.delta_e_ev}, run.workdir)
        tool_in_step(ctx, "projwfc", {"filpdos": "pdos", "DeltaE": p.delta_e_ev}, run.workdir)
        dos = read_dos(run.workdir / "dos.dat")
        if dos.fermi_ev is None:
            raise EngineError("dos.x wrote no Fermi energy", tail="")
        partial = pdos_by_element_orbital(read_pdos(run.workdir, "pdos"))
        t1 = write_table(
            ctx.workdir / "dos.h5", _dos_table(dos.energy_ev, dos.fermi_ev, dos.columns)
        )
        e_p = read_pdos(run.workdir, "pdos")[0].energy_ev
        pdos = Table(
            name="pdos",
            columns=(
                Column("energy", e_p, "eV", "energy (pw.x's zero)"),
                Column("energy_minus_fermi", e_p - dos.fermi_ev, "eV", "relative to E_F"),
                *(
                    Column(k, v, "1/eV", f"{k} DOS summed over atoms and m")
                    for k, v in partial.items()
                ),
            ),
            description="projected DOS from projwfc.x, per element and orbital (states/eV/cell)",
            attrs={"fermi_energy_ev": dos.fermi_ev},
        )
        t2 = write_table(ctx.workdir / "pdos.h5", pdos)
        return DosReport(
            p,
            ctx.artifact(summary, "table", "pw.x SCF results", SCHEMA_VERSION),
            ctx.artifact(t1, "table", "total density of states", SCHEMA_VERSION),
            ctx.artifact(t2, "table", "projected density of states", SCHEMA_VERSION),
            mesh.describe(),
            self.functional,
        )


@dataclass(frozen=True)
class DosReport(Step):
    """The DOS at the Fermi level, the plot and the report."""

    params: DftDosParams
    summary: ArtifactRef
    dos: ArtifactRef
    pdos: ArtifactRef
    mesh: str
    functional: str

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        dos = read_table(ctx.path(self.dos))
        pdos = read_table(ctx.path(self.pdos))
        x = np.asarray(dos["energy_minus_fermi"])
        fermi = float(dos.attrs["fermi_energy_ev"])
        names = [c for c in ("dos", "dosup", "dosdw") if c in dos.names]
        at_ef = sum(float(np.interp(0.0, x, np.asarray(dos[n]))) for n in names)
        partial = {
            n: np.asarray(pdos[n]) for n in pdos.names if n not in ("energy", "energy_minus_fermi")
        }
        name = self.params.structure.name
        pdos_x = np.asarray(pdos["energy_minus_fermi"])
        plot = plot_dos(
            ctx.workdir / "dos.png",
            x,
            {("total" if n == "dos" else n): np.asarray(dos[n]) for n in names},
            (pdos_x, partial),
            title=f"{name} density of states ({self.functional.upper()})",
        )
        values = {
            "fermi_energy": Quantity(fermi, "eV", source=self.dos.path),
            "dos_at_fermi": Quantity(at_ef, "1/eV", source=self.dos.path),
        }
        spin = "dosup" in names
        summary = (
            f"DOS of {name}: E_F = {fermi:.3f} eV, DOS(E_F) = {at_ef:.3f} states/eV/cell"
            + (" (spin up + down)" if spin else "")
            + f"; projected on {', '.join(partial)}"
        )
        files = (
            self.summary,
            self.dos,
            self.pdos,
            ctx.artifact(plot, "plot", "total and projected DOS, E_F at zero"),
        )
        return Done(
            report_result(
                ctx,
                title=f"DFT density of states of {name}",
                summary=summary,
                values=values,
                artifacts=files,
                method=(
                    "pw.x SCF (recommended input, error-recovery machine), then an nscf run "
                    f"from its density on a uniform {self.mesh} mesh with the tetrahedron "
                    f"method; dos.x (total DOS) and projwfc.x (projected on the "
                    "pseudopotentials' atomic wave functions, summed per element and orbital), "
                    f"energy step {self.params.delta_e_ev:g} eV. E_F is dos.x's Fermi level of "
                    "the nscf run (mid-gap-like for an insulator)."
                ),
            )
        )


GRAPH = Graph.build("dft_dos", [DosRecommend, DosRun, DosReport])


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim "density of states of bcc Fe", "projected DOS of Si with PBE"."""
    if not asks_dos(text):
        return None
    return property_request(text, "a density of states")


PROTOCOL = Protocol(
    name="dft_dos",
    title="Total and projected density of states with Quantum ESPRESSO (dos.x, projwfc.x)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=DftDosParams,
    start=lambda params: DosRecommend(params),
    examples=("density of states of bcc Fe", "projected DOS of Si with PBE"),
    parse_request=parse_request,
    engines=("pw.x", "dos.x", "projwfc.x"),
    estimate=pw_estimate(lambda s: 1),
    prepare=dft_inputs,
)
