"""Protocol ``dft_work_function``: work function of a slab with pw.x and pp.x.

The recommended slab SCF (error-recovery machine, data kept) is followed by ``pp.x``
with ``plot_num=11`` (the bare plus Hartree electrostatic potential) written as a
cube file; simwright averages it over each plane parallel to the surface. The vacuum
level is the mean of that planar average within ±1 Å of the middle of the vacuum
(its spread there is reported: a slab whose potential is not flat there needs more
vacuum or a dipole correction), and the work function is Φ = V_vac − E_F.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from ase.units import Ry
from pydantic import model_validator
from typing_extensions import override

from simwright.contract import SCHEMA_VERSION, Column, Table, read_table, write_table
from simwright.dft.request import parse_functional, parse_structure
from simwright.engines.espresso.summary import write_pw_tables
from simwright.engines.espresso.template import PwInput
from simwright.errors import EngineError, ParseError, ValidationError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.dft.common import recommend_in_step
from simwright.protocols.dft.inputs import dft_inputs
from simwright.protocols.dft.post import PropertyRequest, pw_estimate, scf_kept, tool_in_step
from simwright.protocols.dft.words import asks_work_function, element_symbols, flat_structure
from simwright.protocols.registry import Protocol
from simwright.reporting import plot_xy
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.steps.report import report_result

PLATEAU_HALF_WIDTH_A = 1.0
"""Half-width of the window in the middle of the vacuum where V is averaged (Å)."""


class DftWorkFunctionParams(PropertyRequest):
    """Parameters of ``dft_work_function``: a DFT request on a slab."""

    calculation: Literal["scf"] = "scf"

    @model_validator(mode="after")
    def _slab_only(self) -> DftWorkFunctionParams:
        if self.structure.kind != "surface":
            raise ValueError("a work function needs a slab, e.g. 'work function of Al(111)'")
        if self.hybrid is not None:
            raise ValueError("a work function with a hybrid functional is not supported")
        return self


@dataclass(frozen=True)
class WfRecommend(Step):
    """Recommend the slab's SCF input."""

    params: DftWorkFunctionParams

    @override
    def run(self, ctx: RunContext) -> WfRun:
        rec = recommend_in_step(ctx, self.params)
        return WfRun(self.params, rec.template, rec.valence_electrons, rec.pseudos.functional)


def planar_average(cube: Any) -> tuple[np.ndarray, np.ndarray]:
    """(z in Å, potential in eV) averaged over planes of the cube file at ``cube``."""
    # lazy: ASE's I/O loads only when the potential is read
    from ase.io.cube import read_cube_data

    data, atoms = read_cube_data(str(cube))
    avg = np.asarray(data).mean(axis=(0, 1)) * Ry
    z = np.linspace(0.0, float(atoms.cell[2, 2]), len(avg), endpoint=False)
    return z, avg


def vacuum_middle(atom_z: np.ndarray, height: float) -> float:
    """The z in the middle of the largest gap between atomic planes (periodic along z)."""
    zs = np.sort(np.mod(atom_z, height))
    gaps = np.diff(np.append(zs, zs[0] + height))
    i = int(np.argmax(gaps))
    return float(np.mod(zs[i] + gaps[i] / 2, height))


@dataclass(frozen=True)
class WfRun(Step):
    """Slab SCF, pp.x (plot_num 11, cube), planar average; tables out."""

    params: DftWorkFunctionParams
    template: PwInput
    valence_electrons: float
    functional: str

    @override
    def run(self, ctx: RunContext) -> WfReport:
        scf = scf_kept(ctx, self.params, self.template, self.valence_electrons)
        if scf.output.fermi_energy_ev is None:
            raise EngineError("pw.x printed no Fermi energy for the slab", tail="")
        summary = write_pw_tables(scf, ctx.workdir, ctx.producer).summary
        tool_in_step(
            ctx,
            "pp",
            {"filplot": "v.dat", "plot_num": 11},
            scf.workdir,
            plot={"iflag": 3, "output_format": 6, "fileout": "v.cube"},
        )
        z, v = planar_average(scf.workdir / "v.cube")
        height = float(scf.structure.cell[2][2])
        middle = vacuum_middle(np.asarray(scf.structure.positions)[:, 2], height)
        table = Table(
            name="planar_potential",
            columns=(
                Column("z", z, "Å", "position along the surface normal"),
                Column("potential", v, "eV", "planar average of the bare + Hartree potential"),
            ),
            description="planar-averaged electrostatic potential (pp.x plot_num=11)",
            attrs={"fermi_energy_ev": float(scf.output.fermi_energy_ev), "vacuum_z_a": middle},
        )
        path = write_table(ctx.workdir / "planar_potential.h5", table)
        return WfReport(
            self.params,
            ctx.artifact(summary, "table", "pw.x SCF results", SCHEMA_VERSION),
            ctx.artifact(path, "table", "planar-averaged potential", SCHEMA_VERSION),
            self.functional,
        )


@dataclass(frozen=True)
class WfReport(Step):
    """Vacuum level, work function, plot and report."""

    params: DftWorkFunctionParams
    summary: ArtifactRef
    potential: ArtifactRef
    functional: str

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        t = read_table(ctx.path(self.potential))
        z, v = np.asarray(t["z"]), np.asarray(t["potential"])
        fermi, middle = float(t.attrs["fermi_energy_ev"]), float(t.attrs["vacuum_z_a"])
        height = z[1] - z[0] + z[-1]
        distance = np.abs((z - middle + height / 2) % height - height / 2)
        window = distance <= PLATEAU_HALF_WIDTH_A
        if not window.any():
            raise ValidationError("the potential grid has no point in the middle of the vacuum")
        v_vac = float(v[window].mean())
        spread = float(v[window].max() - v[window].min())
        phi = v_vac - fermi
        src = self.potential.path
        values = {
            "work_function": Quantity(phi, "eV", source=src),
            "vacuum_level": Quantity(v_vac, "eV", source=src),
            "fermi_energy": Quantity(fermi, "eV", source=self.summary.path),
            "vacuum_plateau_spread": Quantity(spread, "eV", source=src),
        }
        s = self.params.structure
        what = f"{s.name}({s.facet or ''})".replace("()", " slab")
        plot = plot_xy(
            ctx.workdir / "potential.png",
            z,
            v - fermi,
            xlabel="z (Å)",
            ylabel="V − E_F (eV)",
            title=f"{what} planar-averaged potential ({self.functional.upper()})",
            marker_x=middle,
        )
        notes = []
        if spread > 0.05:
            notes.append(
                f"the potential varies by {spread:.3f} eV in the middle of the vacuum: add "
                "vacuum or layers, or a dipole correction for an asymmetric slab"
            )
        return Done(
            report_result(
                ctx,
                title=f"DFT work function of {what}",
                summary=f"Work function of {what} ({self.functional.upper()}): {phi:.3f} eV",
                values=values,
                artifacts=(
                    self.summary,
                    self.potential,
                    ctx.artifact(plot, "plot", "planar-averaged potential, E_F at zero"),
                ),
                notes=notes,
                method=(
                    "pw.x SCF of the slab (recommended input, error-recovery machine); pp.x "
                    "plot_num=11 (bare + Hartree potential) as a cube file, averaged by "
                    f"simwright over planes; V_vac = mean within ±{PLATEAU_HALF_WIDTH_A:g} Å "
                    "of the middle of the vacuum; Φ = V_vac − E_F."
                ),
            )
        )


GRAPH = Graph.build("dft_work_function", [WfRecommend, WfRun, WfReport])


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim "work function of Al(111)", "work function of a Cu(100) slab with PBE"."""
    if not asks_work_function(text):
        return None
    structure = parse_structure(element_symbols(text))
    if structure["kind"] != "surface":
        raise ParseError("a work function needs a surface, e.g. 'work function of Al(111)'")
    raw: dict[str, Any] = flat_structure(structure)
    functional, hybrid = parse_functional(text)
    if hybrid is not None:
        raise ParseError(f"a work function with {hybrid.upper()} is not supported")
    if functional is not None:
        raw["functional"] = functional
    return raw


PROTOCOL = Protocol(
    name="dft_work_function",
    title="Work function of a slab with Quantum ESPRESSO (pw.x, pp.x)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=DftWorkFunctionParams,
    start=lambda params: WfRecommend(params),
    examples=("work function of Al(111)", "work function of a Cu(111) slab with PBE"),
    parse_request=parse_request,
    engines=("pw.x", "pp.x"),
    estimate=pw_estimate(lambda s: 0),
    prepare=dft_inputs,
)
