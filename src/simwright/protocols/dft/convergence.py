"""Protocol ``dft_convergence``: the plane-wave cutoff and k-point density at which total
energy, forces and stress stop changing, within stated tolerances.

The recommended input is run (each point inside the error-recovery machine) at a series
of wave-function cutoffs (the density cutoff keeps the recommended ratio), at the
request's k-point spacing; then at a series of k-point spacings, at the converged
cutoff. Against the most accurate point of each series, a value is *converged* when it
and every more accurate value differ by less than the tolerances: energy per atom
(``energy_tol_mev_atom``), largest force difference (``force_tol_ev_a``), pressure
(``pressure_tol_kbar``, bulk only). The result is stored under
``<home>/dft/converged/`` (:mod:`simwright.dft.converged`): the other DFT protocols
record it in their reports and take it with ``use_converged``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
from pydantic import Field, model_validator
from typing_extensions import override

from simwright.contract import SCHEMA_VERSION, Column, Table, write_table
from simwright.dft.converged import ConvergedSettings, save_converged
from simwright.dft.recommender import kpoint_mesh
from simwright.dft.request import DftRequest, mentions_dft
from simwright.engines.espresso.pw import PwRun
from simwright.engines.espresso.template import PwInput
from simwright.graph import Done, Graph, RunContext, Step
from simwright.protocols.dft import sizing
from simwright.protocols.dft.common import recommend_in_step, require_success, run_with_recovery
from simwright.protocols.dft.inputs import dft_inputs
from simwright.protocols.dft.words import property_request
from simwright.protocols.registry import Protocol
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.steps.report import report_result

CUTOFF_FACTORS = (0.6, 0.8, 1.0, 1.2, 1.4)
"""Default cutoffs, as multiples of the recommended ecutwfc."""
DEFAULT_KSPACINGS = (0.5, 0.35, 0.25, 0.18)
"""Default k-point spacings (Å⁻¹, 2π included), coarse to fine."""


class DftConvergenceParams(DftRequest):
    """Parameters of ``dft_convergence``: a DFT request plus the scans and tolerances."""

    calculation: Literal["scf"] = "scf"
    ecutwfc_values_ry: tuple[float, ...] = Field(
        (), description="cutoffs to scan (Ry); empty: 0.6-1.4 × the recommended ecutwfc"
    )
    kspacing_values_inv_a: tuple[float, ...] = Field(
        DEFAULT_KSPACINGS, description="k-point spacings to scan (Å⁻¹), coarse to fine"
    )
    energy_tol_mev_atom: float = Field(1.0, gt=0, description="energy tolerance (meV/atom)")
    force_tol_ev_a: float = Field(0.01, gt=0, description="force tolerance (eV/Å)")
    pressure_tol_kbar: float = Field(0.5, gt=0, description="pressure tolerance (kbar)")

    @model_validator(mode="after")
    def _scans(self) -> DftConvergenceParams:
        if self.structure.kind == "molecule":
            raise ValueError("a molecule is sampled at Γ: only the cutoff needs converging")
        if len(self.kspacing_values_inv_a) < 2 or len(self.ecutwfc_values_ry) == 1:
            raise ValueError("a convergence scan needs at least two values of each setting")
        if any(k <= 0 for k in self.kspacing_values_inv_a):
            raise ValueError("k-point spacings must be positive")
        if self.kpoints is not None or self.gamma_point:
            raise ValueError("a convergence study scans the k-points itself; give no mesh")
        return self

    @property
    def n_points(self) -> int:
        """pw.x runs of the study (for the size estimate)."""
        return (len(self.ecutwfc_values_ry) or len(CUTOFF_FACTORS)) + len(
            self.kspacing_values_inv_a
        )


@dataclass(frozen=True)
class Point:
    """One run of a scan: the setting and what pw.x gave."""

    setting: float
    energy_per_atom_ev: float
    forces_ev_a: tuple[tuple[float, float, float], ...]
    pressure_kbar: float
    mesh: tuple[int, int, int]


def _point(setting: float, run: PwRun) -> Point:
    o = run.output
    forces = o.forces_ev_a if o.forces_ev_a is not None else np.zeros((len(run.structure), 3))
    pressure = o.pressure_bar / 1000 if o.pressure_bar is not None else math.nan
    return Point(
        setting,
        (o.energy_ev or math.nan) / len(run.structure),
        tuple(tuple(float(x) for x in f) for f in forces),  # type: ignore[misc]
        pressure,
        run.input.kpoints.mesh,
    )


def deviations(points: list[Point]) -> list[tuple[float, float, float]]:
    """|ΔE| (meV/atom), max |ΔF| (eV/Å), |ΔP| (kbar) of each point against the last."""
    ref = points[-1]
    out = []
    for p in points:
        d_e = abs(p.energy_per_atom_ev - ref.energy_per_atom_ev) * 1000
        d_f = float(np.abs(np.array(p.forces_ev_a) - np.array(ref.forces_ev_a)).max())
        d_p = abs(p.pressure_kbar - ref.pressure_kbar)
        out.append((d_e, d_f, 0.0 if math.isnan(d_p) else d_p))
    return out


def converged_index(points: list[Point], params: DftConvergenceParams) -> int:
    """The first point from which every point is within the tolerances."""
    tol = (params.energy_tol_mev_atom, params.force_tol_ev_a, params.pressure_tol_kbar)
    ok = [all(d <= t for d, t in zip(dev, tol, strict=True)) for dev in deviations(points)]
    index = len(points) - 1
    while index > 0 and ok[index - 1]:
        index -= 1
    return index


def _scan(
    ctx: RunContext,
    params: DftConvergenceParams,
    inputs: list[tuple[float, PwInput]],
    valence: float,
    name: str,
) -> list[Point]:
    points = []
    for i, (setting, inp) in enumerate(inputs):
        where = ctx.workdir / f"{name}-{i:02d}"
        outcome = run_with_recovery(ctx, params, inp, valence, where)
        points.append(_point(setting, require_success(outcome)))
    return points


def _table(name: str, unit: str, points: list[Point], producer: str, what: str) -> Table:
    dev = np.array(deviations(points))
    return Table(
        name=name,
        columns=(
            Column(what, np.array([p.setting for p in points]), unit, "the scanned setting"),
            Column("energy_per_atom", np.array([p.energy_per_atom_ev for p in points]), "eV", ""),
            Column("pressure", np.array([p.pressure_kbar for p in points]), "kbar", "pw.x sign"),
            Column("delta_energy", dev[:, 0], "meV/atom", "|E - E(most accurate)|"),
            Column("delta_force", dev[:, 1], "eV/Å", "max |F - F(most accurate)|"),
            Column("delta_pressure", dev[:, 2], "kbar", "|P - P(most accurate)|"),
        ),
        description=f"pw.x convergence scan of {what}",
        producer=producer,
    )


@dataclass(frozen=True)
class ConvRecommend(Step):
    """Recommend the input, then scan the cutoff and the k-point spacing."""

    params: DftConvergenceParams

    @override
    def run(self, ctx: RunContext) -> ConvReport:
        p = self.params
        rec = recommend_in_step(ctx, p)
        base = rec.template
        wfc0 = float(base.get("system", "ecutwfc"))  # type: ignore[arg-type]
        dual = float(base.get("system", "ecutrho")) / wfc0  # type: ignore[arg-type]
        cutoffs = p.ecutwfc_values_ry or tuple(round(f * wfc0) for f in CUTOFF_FACTORS)
        cutoffs = tuple(sorted(cutoffs))

        def at_cutoff(inp: PwInput, wfc: float) -> PwInput:
            return inp.with_values({"system": {"ecutwfc": wfc, "ecutrho": dual * wfc}})

        cut_points = _scan(
            ctx, p, [(c, at_cutoff(base, c)) for c in cutoffs], rec.valence_electrons, "ecut"
        )
        wfc = cutoffs[converged_index(cut_points, p)]
        spacings = tuple(sorted(p.kspacing_values_inv_a, reverse=True))
        kind = rec.built.kind
        k_inputs = [
            (k, replace(at_cutoff(base, wfc), kpoints=kpoint_mesh(base.structure, k, kind)))
            for k in spacings
        ]
        k_points = _scan(ctx, p, k_inputs, rec.valence_electrons, "kpts")
        tables = []
        for name, unit, points, what in (
            ("cutoff_scan", "Ry", cut_points, "ecutwfc"),
            ("kpoint_scan", "1/Å", k_points, "kspacing"),
        ):
            path = write_table(
                ctx.workdir / f"{name}.h5", _table(name, unit, points, ctx.producer, what)
            )
            tables.append(ctx.artifact(path, "table", f"{what} scan", SCHEMA_VERSION))
        k_index = converged_index(k_points, p)
        converged = ConvergedSettings(
            system=f"{p.structure.kind}:{p.structure.name}",
            functional=rec.pseudos.functional,
            pseudopotentials=tuple(sp.pseudo_file for sp in base.species),
            ecutwfc_ry=float(wfc),
            ecutrho_ry=float(dual * wfc),
            kspacing_inv_a=float(spacings[k_index]),
            energy_tol_mev_atom=p.energy_tol_mev_atom,
            force_tol_ev_a=p.force_tol_ev_a,
            pressure_tol_kbar=p.pressure_tol_kbar,
            run_id=ctx.run_id,
            demonstrated=converged_index(cut_points, p) < len(cut_points) - 1
            and k_index < len(k_points) - 1,
        )
        stored = save_converged(ctx.settings.home, converged)
        ctx.rule("dft_convergence", converged.describe())
        ctx.event("converged_settings", str(stored))
        return ConvReport(converged, tuple(tables), k_points[k_index].mesh)


@dataclass(frozen=True)
class ConvReport(Step):
    """Report the converged settings."""

    converged: ConvergedSettings
    tables: tuple[ArtifactRef, ...]
    mesh: tuple[int, int, int]

    @override
    def run(self, ctx: RunContext) -> Done[ProtocolResult]:
        c = self.converged
        src = self.tables[0].path
        values = {
            "converged_ecutwfc": Quantity(c.ecutwfc_ry, "Ry", source=src),
            "converged_ecutrho": Quantity(c.ecutrho_ry, "Ry", source=src),
            "converged_kspacing": Quantity(c.kspacing_inv_a, "1/Å", source=self.tables[1].path),
        }
        notes = (
            []
            if c.demonstrated
            else ["the tolerance was met only by the most accurate value scanned: extend the scan"]
        )
        summary = f"{c.system.split(':')[1]} ({c.functional.upper()}): {c.describe()}"
        mesh = "×".join(str(n) for n in self.mesh)
        return Done(
            report_result(
                ctx,
                title=f"DFT convergence study of {c.system.split(':')[1]}",
                summary=summary,
                values=values,
                artifacts=self.tables,
                method=(
                    "pw.x SCF at a series of ecutwfc (ecutrho at the recommended ratio), then "
                    f"a series of k-point spacings at the converged cutoff ({mesh} at the "
                    "converged spacing); each value is compared with the most accurate one. "
                    f"Stored for reuse: {c.describe()}."
                ),
                notes=[
                    *notes,
                    "criteria in the spirit of SSSP (G. Prandini et al., npj Comput. Mater. 4, "
                    "72 (2018)), which also checks phonons and cohesive energies: not done here",
                ],
            )
        )


GRAPH = Graph.build("dft_convergence", [ConvRecommend, ConvReport])

_CONVERGENCE_WORDS = ("convergence", "converge", "converged")


def parse_request(text: str) -> dict[str, Any] | None:
    """Claim "convergence test of the cutoff and k-points of Si with PBE"."""
    low = text.lower()
    if not mentions_dft(text) or not any(w in low for w in _CONVERGENCE_WORDS):
        return None
    return property_request(text, "a convergence study")


PROTOCOL = Protocol(
    name="dft_convergence",
    title="Cutoff and k-point convergence study with Quantum ESPRESSO pw.x",
    summary=__doc__ or "",
    graph=GRAPH,
    parameters=DftConvergenceParams,
    start=lambda params: ConvRecommend(params),
    examples=("convergence study of the cutoff and k-points of Si with PBE",),
    parse_request=parse_request,
    engines=("pw.x",),
    estimate=sizing.dft_estimate,
    prepare=dft_inputs,
)
