"""Protocol ``dft_bands``: band structure and band gap of a bulk crystal with pw.x.

The recommended SCF (inside the error-recovery machine) is followed by two
non-self-consistent runs from its density: ``calculation='bands'`` along ASE's
standard path of the primitive cell (:func:`~simwright.protocols.dft.post.band_path`)
and ``calculation='nscf'`` on a denser uniform mesh; ``bands.x`` collects the
energies of each. The band energies go into HDF5 tables with units, the plot puts
the valence-band maximum (insulators) or the Fermi level (metals) at zero and
labels the special points, and the gap (direct or indirect, with the k-points of
VBM and CBM) is read from the path and from the uniform mesh.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pydantic import Field, model_validator
from typing_extensions import override

from simwright.analysis.band_gap import BandGap, band_gap
from simwright.contract import SCHEMA_VERSION, Column, Table, read_table, write_table
from simwright.dft.recommender import kpoint_mesh
from simwright.engines.espresso.postproc_files import BandEnergies, read_filband
from simwright.engines.espresso.summary import write_pw_tables
from simwright.engines.espresso.template import PwInput
from simwright.errors import ValidationError
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.dft.common import recommend_in_step
from simwright.protocols.dft.inputs import dft_inputs
from simwright.protocols.dft.plots import plot_bands
from simwright.protocols.dft.post import (
    PropertyRequest,
    band_path,
    n_bands,
    nscf_input,
    nscf_kept,
    pw_estimate,
    scf_kept,
    tool_in_step,
)
from simwright.protocols.dft.words import asks_bands, asks_dos, property_request
from simwright.protocols.registry import Protocol
from simwright.results import ArtifactRef, ProtocolResult, Quantity, Reference
from simwright.steps.report import report_result

KITTEL_GAPS = (
    "C. Kittel, Introduction to Solid State Physics, 8th ed. (Wiley, 2005), ch. 8, "
    "Table 1 (energy gaps at 0 K)"
)
EXPERIMENT_GAP_EV: dict[str, tuple[float, str]] = {
    "Si": (1.17, "indirect"),
    "GaAs": (1.52, "direct"),
}
"""Experimental gaps at 0 K (Kittel) and their kind."""


class DftBandsParams(PropertyRequest):
    """Parameters of ``dft_bands``: a bulk DFT request plus the path and mesh densities."""

    calculation: Literal["scf"] = "scf"
    path_points: int = Field(80, ge=10, le=2000, description="k-points along the whole path")
    dense_kspacing_inv_a: float = Field(
        0.12, gt=0, le=2.0, description="k spacing of the uniform nscf mesh for the gap (Å⁻¹)"
    )
    extra_bands: int = Field(4, ge=1, le=200, description="empty bands above the filled ones")

    @model_validator(mode="after")
    def _bulk_non_spin(self) -> DftBandsParams:
        if self.structure.kind not in ("bulk", "spacegroup", "file", "materials_project"):
            raise ValueError("a band structure needs a bulk crystal")
        if self.spin is True:
            raise ValueError(
                "spin-polarised band structures are not implemented yet; ask for "
                "a density of states (dft_dos) or a non-magnetic band structure"
            )
        if self.hybrid is not None:
            raise ValueError("band structures with hybrid functionals are not supported")
        return self


@dataclass(frozen=True)
class BandsRecommend(Step):
    """Recommend the SCF input (refusing what cannot be done, by name)."""

    params: DftBandsParams

    @override
    def run(self, ctx: RunContext) -> BandsRun:
        rec = recommend_in_step(ctx, self.params)
        if rec.conditions.has("spin_polarized"):
            raise ValidationError(
                f"{rec.structure.formula} would be spin-polarised; band structures are "
                "computed without spin here: say 'non-magnetic' to proceed"
            )
        metal = rec.conditions.has("metal")
        return BandsRun(
            self.params, rec.template, rec.valence_electrons, metal, rec.pseudos.functional
        )


def _bands_table(
    name: str, bands: BandEnergies, distance: np.ndarray | None, attrs: dict[str, Any]
) -> Table:
    cols = [
        Column("kpoint", bands.kpoints, "2pi/alat", "Cartesian k-point (bands.x)"),
        Column("energy", bands.energies_ev, "eV", "band energies, one column per band"),
    ]
    if distance is not None:
        cols.insert(0, Column("distance", distance, "1/Å", "distance along the path (with 2π)"))
    return Table(
        name=name,
        columns=tuple(cols),
        description=f"{name} from pw.x and bands.x",
        attrs={
            k: json.dumps(v) if not isinstance(v, str | int | float) else v
            for k, v in attrs.items()
        },
    )


@dataclass(frozen=True)
class BandsRun(Step):
    """SCF, bands along the path, nscf on a uniform mesh, bands.x on each; tables out."""

    params: DftBandsParams
    template: PwInput
    valence_electrons: float
    metal: bool
    functional: str

    @override
    def run(self, ctx: RunContext) -> BandsReport:
        p = self.params
        scf = scf_kept(ctx, p, self.template, self.valence_electrons)
        summary = write_pw_tables(scf, ctx.workdir, ctx.producer).summary
        summary_ref = ctx.artifact(summary, "table", "pw.x SCF results", SCHEMA_VERSION)
        nbnd = n_bands(self.valence_electrons, extra=p.extra_bands)
        path = band_path(scf.structure, p.path_points)
        ctx.progress(0.4, f"bands along {path.path}")
        run = nscf_kept(
            ctx,
            p,
            nscf_input(self.template, "bands", path.kpoints, nbnd),
            self.valence_electrons,
            scf,
            "path",
        )
        tool_in_step(ctx, "bands", {"filband": "bands.dat", "lsym": False}, run.workdir)
        on_path = read_filband(run.workdir / "bands.dat")
        ctx.progress(0.7, "uniform nscf mesh")
        mesh = kpoint_mesh(scf.structure, p.dense_kspacing_inv_a, "bulk")
        uni = nscf_kept(
            ctx,
            p,
            nscf_input(self.template, "nscf", mesh, nbnd),
            self.valence_electrons,
            scf,
            "uniform",
        )
        tool_in_step(ctx, "bands", {"filband": "bands.dat", "lsym": False}, uni.workdir)
        uniform = read_filband(uni.workdir / "bands.dat")
        attrs = {
            "path": path.path,
            "labels": list(path.labels),
            "label_distance": [float(x) for x in path.label_x],
            "crystal_kpoints": [list(k) for k in path.kpoints.points],
        }
        t1 = write_table(
            ctx.workdir / "bands_path.h5", _bands_table("bands_path", on_path, path.distance, attrs)
        )
        t2 = write_table(
            ctx.workdir / "bands_uniform.h5",
            _bands_table("bands_uniform", uniform, None, {"mesh": mesh.describe()}),
        )
        return BandsReport(
            p,
            summary_ref,
            ctx.artifact(t1, "table", "band energies along the path", SCHEMA_VERSION),
            ctx.artifact(t2, "table", "band energies on the uniform mesh", SCHEMA_VERSION),
            self.valence_electrons,
            self.metal,
            float(scf.output.fermi_energy_ev)
            if scf.output.fermi_energy_ev is not None
            else float("nan"),
            mesh.describe(),
            self.functional,
        )


def _gap_text(gap: BandGap, where_vbm: str, where_cbm: str) -> str:
    return f"{gap.gap_ev:.3f} eV, {gap.kind} (VBM at {where_vbm}, CBM at {where_cbm})"


@dataclass(frozen=True)
class BandsReport(Step):
    """Gap from the path and the uniform mesh, the plot, the report."""

    params: DftBandsParams
    summary: ArtifactRef
    path_table: ArtifactRef
    uniform_table: ArtifactRef
    valence_electrons: float
    metal: bool
    fermi_ev: float
    mesh: str
    functional: str

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        path = read_table(ctx.path(self.path_table))
        uniform = read_table(ctx.path(self.uniform_table))
        e_path, e_uni = np.asarray(path["energy"]), np.asarray(uniform["energy"])
        labels = json.loads(str(path.attrs["labels"]))
        label_x = json.loads(str(path.attrs["label_distance"]))
        crystal = json.loads(str(path.attrs["crystal_kpoints"]))
        name = self.params.structure.name
        n_occ = round(self.valence_electrons) // 2
        values: dict[str, Quantity] = {}
        notes: list[str] = []
        gap_path = None if self.metal else band_gap(e_path, n_occ)
        gap_uni = None if self.metal else band_gap(e_uni, n_occ)
        src_p, src_u = self.path_table.path, self.uniform_table.path
        if gap_path is not None and gap_uni is not None:
            zero = max(gap_path.vbm_ev, gap_uni.vbm_ev)
            zero_name = "VBM"
            where = _locator(crystal, labels, label_x, np.asarray(path["distance"]))
            text = _gap_text(gap_path, where(gap_path.vbm_k), where(gap_path.cbm_k))
            values["band_gap"] = Quantity(gap_uni.gap_ev, "eV", source=src_u)
            values["band_gap_path"] = Quantity(gap_path.gap_ev, "eV", source=src_p)
            values["direct_gap_path"] = Quantity(gap_path.direct_gap_ev, "eV", source=src_p)
            values["gap_is_direct"] = Quantity(float(gap_path.direct), "1", source=src_p)
            summary = (
                f"Band gap of {name} ({self.functional.upper()}): {text} along the path; "
                f"{gap_uni.gap_ev:.3f} eV on the uniform {self.mesh} mesh; smallest direct "
                f"gap {gap_path.direct_gap_ev:.3f} eV at {where(gap_path.direct_k)}"
            )
        else:
            zero, zero_name = self.fermi_ev, "E_F"
            summary = f"Band structure of {name}: metallic (the bands cross the Fermi level)"
            if not np.isfinite(zero):
                raise ValidationError("no gap and no Fermi level: the occupation is unclear")
            values["fermi_energy"] = Quantity(self.fermi_ev, "eV", source=self.summary.path)
        plot = plot_bands(
            ctx.workdir / "bands.png",
            np.asarray(path["distance"]),
            e_path - zero,
            label_x,
            labels,
            zero_name=zero_name,
            title=f"{name} band structure ({self.functional.upper()})",
        )
        refs = _references(name, values)
        if refs:
            notes.append(
                "semi-local functionals (LDA, PBE) underestimate band gaps; the experimental "
                "value is quoted to show the size of that error, not as a target"
            )
        files = (
            self.summary,
            self.path_table,
            self.uniform_table,
            ctx.artifact(plot, "plot", f"band structure, {zero_name} at zero"),
        )
        return Done(
            report_result(
                ctx,
                title=f"DFT band structure of {name}",
                summary=summary,
                values=values,
                artifacts=files,
                references=refs,
                notes=notes,
                method=(
                    "pw.x SCF (recommended input, error-recovery machine), then a 'bands' run "
                    f"along ASE's standard path ({path.attrs['path']}, primitive cell, "
                    f"{len(e_path)} points) and an 'nscf' run on a uniform {self.mesh} mesh, "
                    "both from the SCF density at the same cutoffs; bands.x collected the "
                    "energies. Gap: the highest filled band's maximum to the lowest empty "
                    "band's minimum."
                ),
            )
        )


def _locator(
    crystal: list[list[float]], labels: list[str], label_x: list[float], x: np.ndarray
) -> Callable[[int], str]:
    """Names a path index: special point or position between two, with coordinates."""

    def where(index: int) -> str:
        k = crystal[index]
        at = [lbl for lbl, lx in zip(labels, label_x, strict=True) if abs(lx - x[index]) < 1e-9]
        coords = f"({k[0]:.3f}, {k[1]:.3f}, {k[2]:.3f})"
        if at:
            return f"{at[0]} {coords}"
        after = int(np.searchsorted(np.asarray(label_x), x[index], side="right"))
        if 0 < after < len(labels):
            return f"{coords}, between {labels[after - 1]} and {labels[after]}"
        return coords

    return where


def _references(name: str, values: dict[str, Quantity]) -> tuple[Reference, ...]:
    if name not in EXPERIMENT_GAP_EV or "band_gap" not in values:
        return ()
    gap, kind = EXPERIMENT_GAP_EV[name]
    return (Reference("band_gap", gap, "eV", f"experiment, {kind}, 0 K — {KITTEL_GAPS}"),)


GRAPH = Graph.build("dft_bands", [BandsRecommend, BandsRun, BandsReport])


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim "band structure of Si", "band gap of GaAs with PBE" (not DOS requests)."""
    if not asks_bands(text) or asks_dos(text):
        return None
    return property_request(text, "a band structure")


PROTOCOL = Protocol(
    name="dft_bands",
    title="Band structure and band gap with Quantum ESPRESSO (pw.x, bands.x)",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=DftBandsParams,
    start=lambda params: BandsRecommend(params),
    examples=("band structure of Si", "band gap of Si with LDA"),
    parse_request=parse_request,
    engines=("pw.x", "bands.x"),
    estimate=pw_estimate(lambda s: 2),
    prepare=dft_inputs,
)
