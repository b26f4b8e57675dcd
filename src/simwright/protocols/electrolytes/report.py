"""The report of ``electrolyte_diffusivity``: D of each species, corrections, NE conductivity.

Published values are cited, never used to change a result. No number is stored for
them here: the sources are named for the comparison and ``docs/benchmarks.md`` keeps
the table.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from simwright.analysis.einstein import yeh_hummer_correction
from simwright.analysis.transport import nernst_einstein
from simwright.contract import Table, read_table
from simwright.graph import RunContext
from simwright.molecules.blend import PURE_SOLVENT_VISCOSITY_MPA_S, BlendComposition
from simwright.protocols.electrolytes.params import ElectrolyteParams
from simwright.reporting import plot_xy
from simwright.results import ArtifactRef, ProtocolResult, Quantity
from simwright.steps.report import report_result

UNIT = "1e-5 cm^2/s"
COMPARE_WITH = (
    "PFG-NMR: K. Hayamizu, J. Chem. Eng. Data 57, 2012 (2012) (1 M LiPF6 in EC, PC, DEC "
    "and EC/DEC); simulation: the SevenNet-0 + D3 electrolyte study this procedure follows "
    "(knowledge module li_ion_diffusivity_carbonate_electrolytes)"
)


def blend_viscosity_mpa_s(comp: BlendComposition) -> float:
    """Pure-solvent viscosity of the blend, ln η = Σ xᵢ ln ηᵢ (Arrhenius mixing rule)."""
    total = sum(n for _, n in comp.solvents)
    return math.exp(
        sum(n / total * math.log(PURE_SOLVENT_VISCOSITY_MPA_S[m.name]) for m, n in comp.solvents)
    )


def build(
    ctx: RunContext,
    p: ElectrolyteParams,
    comp: BlendComposition,
    msd_ref: ArtifactRef,
    thermo_ref: ArtifactRef,
    extensions: int,
    density_converged: bool,
) -> ProtocolResult:
    """Write ``msd.png`` and ``report.md``; return D(Li⁺), D(PF₆⁻), σ_NE, t₊ and more."""
    msd = read_table(ctx.path(msd_ref))
    thermo = read_table(ctx.path(thermo_ref))
    a = msd.attrs
    labels = ["li", "pf6", *(m.name for m, _ in comp.solvents)]
    values = {
        f"diffusion_coefficient_{k}": Quantity(
            float(a[f"d_{k}_1e5_cm2_s"]), UNIT, float(a[f"d_err_{k}_1e5_cm2_s"]), msd_ref.path
        )
        for k in labels
    }
    volume = float(np.mean(thermo["volume"]))
    box_a = volume ** (1.0 / 3.0)
    eta = p.viscosity_mpa_s or blend_viscosity_mpa_s(comp)
    dd = yeh_hummer_correction(p.temperature_k, eta * 1.0e-3, box_a)
    d_li = float(a["d_li_1e5_cm2_s"])
    values["diffusion_coefficient_li_yeh_hummer"] = Quantity(
        d_li + dd, UNIT, float(a["d_err_li_1e5_cm2_s"]), msd_ref.path
    )
    ne = nernst_einstein(
        d_li * 1e-9,
        float(a["d_pf6_1e5_cm2_s"]) * 1e-9,
        comp.n_cations,
        comp.n_anions,
        volume,
        p.temperature_k,
    )
    values["conductivity_nernst_einstein"] = Quantity(
        ne.conductivity_ms_cm, "mS/cm", source=msd_ref.path
    )
    values["transference_number_li"] = Quantity(ne.transference_cation, "1", source=msd_ref.path)
    values["r2_li"] = Quantity(float(a["r2_li"]), "1", source=msd_ref.path)
    values["density_mean"] = Quantity(
        float(np.mean(thermo["density"])), "g/cm^3", source=thermo_ref.path
    )
    values["molality"] = Quantity(comp.molality_mol_kg, "mol/kg")
    notes = _notes(p, comp, box_a, eta, dd, extensions, density_converged, float(a["r2_li"]))
    plot = _plot(ctx, msd, labels)
    err = float(a["d_err_li_1e5_cm2_s"])
    summary = (
        f"D(Li⁺) = {d_li * 10:.2f} ± {err * 10:.2f} × 10⁻⁶ cm²/s ({comp.describe()}, "
        f"{p.temperature_k:g} K, {p.potential}, R² = {float(a['r2_li']):.3f}, preset {p.preset})"
    )
    method = _method(p, a, extensions)
    return report_result(
        ctx,
        title="Li⁺ diffusivity in a LiPF₆ carbonate electrolyte",
        summary=summary,
        values=values,
        method=method,
        artifacts=(msd_ref, plot, thermo_ref),
        notes=notes,
    )


def _method(p: ElectrolyteParams, a: Mapping[str, Any], extensions: int) -> str:
    analysis = (
        f"MSD of molecular centres over all time origins with the system's centre-of-mass "
        f"drift removed (never a per-group COM); fit over {a['fit_start_fs']:.0f}–"
        f"{a['fit_end_fs']:.0f} fs, D = slope/6, error = standard deviation over "
        f"{p.n_blocks} blocks."
    )
    if p.classical:
        return (
            f"PACKMOL box {p.box_factor:g}·V₀^(1/3) (Bondi); OPLS-AA in LAMMPS (PPPM "
            f"{p.pppm_accuracy:g}, {p.cutoff_a:g} Å cutoff with LJ tail, 1-4 × 0.5, geometric "
            f"mixing, ionic charges × {p.ion_charge_scale:g}); conjugate gradients until the "
            f"largest force < {p.fmax_ev_a} eV/Å; NPT {p.heavy_npt_ns:g} ns with m(H) = "
            f"3.016 u at 2 fs, NPT {p.npt_ns:g} ns at 1 fs (Nosé–Hoover), NVT {p.nvt_ns:g} ns "
            f"(+{extensions} × {p.extension_ns:g} ns) at 1 fs from the snapshot closest to the "
            f"mean density; " + analysis
        )
    return (
        f"PACKMOL box 1.1·V₀^(1/3) (Bondi), FIRE to fmax < {p.fmax_ev_a} eV/Å, NPT "
        f"{p.heavy_npt_ns:g} ns with m(H) = 3.016 u at 2 fs, NPT {p.npt_ns:g} ns at 1 fs, NVT "
        f"{p.nvt_ns:g} ns (+{extensions} × {p.extension_ns:g} ns) at 1 fs from the frame closest "
        f"to the mean density; MSD of molecular centres over all time origins with the "
        f"system's centre-of-mass drift removed (never a per-group COM); fit over "
        f"{a['fit_start_fs']:.0f}–{a['fit_end_fs']:.0f} fs, D = slope/6, error = standard "
        f"deviation over {p.n_blocks} blocks. Potential: {p.potential} through ASE."
    )


def _notes(
    p: ElectrolyteParams,
    comp: BlendComposition,
    box_a: float,
    eta: float,
    dd: float,
    extensions: int,
    converged: bool,
    r2: float,
) -> list[str]:
    source = "stated" if p.viscosity_mpa_s else "pure-solvent mixing rule, an upper bound on ΔD"
    notes = [
        f"composition: {comp.describe()}; box edge {box_a:.2f} Å",
        f"Yeh–Hummer ΔD = +{dd:.3f} × 10⁻⁵ cm²/s with η = {eta:.2f} mPa·s ({source}); "
        "reported separately, D itself is uncorrected",
        "Nernst–Einstein conductivity neglects ion pairing: an upper bound",
        f"compare with {COMPARE_WITH}",
    ]
    if not converged:
        notes.append(f"WARNING: the NPT density drifted more than {p.density_tolerance:.0%}")
    if r2 < p.r2_min:
        notes.append(f"WARNING: Li⁺ R² = {r2:.3f} < {p.r2_min} after {extensions} extension(s)")
    if p.classical:
        notes.append(
            "force field: OPLS-AA (EC/PC types opls_771-779 after Silva & Freitas 2007, "
            "Jorgensen et al. 1996 bonded terms, Li+ of Åqvist 1990, PF6- of CL&P 2004; "
            f"sources per term in simwright.forcefields.opls.parameters), ionic charges × "
            f"{p.ion_charge_scale:g}"
        )
    if p.preset == "quick":
        machine = "many CPU cores" if p.classical else "a GPU"
        notes.append(
            "quick preset: a ~100-atom box and sub-picosecond stages (unless stated "
            "otherwise), a smoke-level estimate with a handful of ions; the MSD is far from "
            "the diffusive regime and D has no statistical weight. Use preset 'paper' "
            f"(about 1000 atoms, ns runs, {machine})."
        )
    return notes


def _plot(ctx: RunContext, msd: Table, labels: list[str]) -> ArtifactRef:
    lag_ps = msd["lag"] / 1000.0
    path = plot_xy(
        ctx.workdir / "msd.png",
        lag_ps,
        msd["msd_li"],
        xlabel="lag time (ps)",
        ylabel="MSD of Li⁺ (Å²)",
        title="Li⁺ MSD, system drift removed",
    )
    return ctx.artifact(path, "plot", "Li⁺ MSD")
