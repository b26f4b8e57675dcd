"""The report of the ``diffusivity`` protocol: plot, Markdown report and typed result.

Published values are facts with their sources; the comparison is printed, never used
to change a result.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from simwright.contract import Table, read_table
from simwright.graph import RunContext
from simwright.protocols.liquids.references import DIFFUSION
from simwright.protocols.md_systems import SYSTEMS, forcefield_of
from simwright.reporting import plot_xy
from simwright.results import ArtifactRef, ProtocolResult, Quantity, Reference
from simwright.steps.report import report_result

if TYPE_CHECKING:
    from simwright.protocols.liquids.diffusivity import DiffusivityParams

SPCE_VISCOSITY_PA_S = 0.729e-3
"""Shear viscosity of SPC/E water at 298 K, 1 bar: 0.729 mPa·s (M. A. González and
J. L. F. Abascal, J. Chem. Phys. 132, 096101 (2010)); used for the finite-size
correction only."""

MODEL_VISCOSITY_PA_S = {
    "spce_water": SPCE_VISCOSITY_PA_S,
    "tip3p_water": 0.321e-3,
    "tip4p2005_water": 0.855e-3,
}
"""Model viscosities at 298 K (González & Abascal 2010) for the Yeh–Hummer correction."""

_MILLS = Reference(
    "diffusion_coefficient",
    2.299,
    "1e-5 cm^2/s",
    "experiment, water at 298.15 K: R. Mills, J. Phys. Chem. 77, 685 (1973)",
)

REFERENCES: dict[str, tuple[Reference, ...]] = {
    "spce_water": (
        Reference(
            "diffusion_coefficient",
            2.49,
            "1e-5 cm^2/s",
            "SPC/E at 298 K: P. Mark and L. Nilsson, J. Phys. Chem. A 105, 9954 (2001)",
        ),
        Reference(
            "diffusion_coefficient",
            2.299,
            "1e-5 cm^2/s",
            "experiment, water at 298.15 K: R. Mills, J. Phys. Chem. 77, 685 (1973)",
        ),
    ),
    **{name: (*refs, _MILLS) for name, refs in DIFFUSION.items()},
    "lj_argon": (
        Reference(
            "diffusion_coefficient",
            2.43,
            "1e-5 cm^2/s",
            "LJ argon at 94.4 K, 1.374 g/cm³: A. Rahman, Phys. Rev. 136, A405 (1964)",
        ),
    ),
}


def build(
    ctx: RunContext,
    params: DiffusivityParams,
    msd_ref: ArtifactRef,
    thermo_ref: ArtifactRef,
    extensions: int,
    correction: Callable[[float, float, float], float],
) -> ProtocolResult:
    """Write ``msd.png`` and ``report.md`` and return the protocol's result."""
    msd = read_table(ctx.path(msd_ref))
    thermo = read_table(ctx.path(thermo_ref))
    a = msd.attrs
    d, err, r2 = float(a["d_1e5_cm2_s"]), float(a["d_err_1e5_cm2_s"]), float(a["r2"])
    values = {
        "diffusion_coefficient": Quantity(d, "1e-5 cm^2/s", err, msd_ref.path),
        "r2": Quantity(r2, "1", source=msd_ref.path),
        "temperature_mean": Quantity(
            float(np.mean(thermo["temperature"])),
            "K",
            float(np.std(thermo["temperature"])),
            thermo_ref.path,
        ),
        "density_mean": Quantity(
            float(np.mean(thermo["density"])), "g/cm^3", source=thermo_ref.path
        ),
    }
    box_a = float(np.mean(thermo["volume"])) ** (1.0 / 3.0)
    notes = [f"box edge {box_a:.2f} Å; production extended {extensions} time(s)"]
    if params.system in MODEL_VISCOSITY_PA_S:
        eta = MODEL_VISCOSITY_PA_S[params.system]
        dd = correction(params.temperature_k, eta, box_a)
        values["diffusion_coefficient_yeh_hummer"] = Quantity(
            d + dd, "1e-5 cm^2/s", err, msd_ref.path
        )
        notes.append(
            f"Yeh–Hummer finite-size correction +{dd:.3f} (η = {eta * 1e3:.3f} mPa·s, "
            "González & Abascal 2010) reported separately; D itself is uncorrected"
        )
    if r2 < params.r2_min:
        notes.append(
            f"WARNING: R² = {r2:.4f} is below {params.r2_min} after "
            f"{extensions} extension(s); treat D with caution"
        )
    plot = _plot(ctx, msd, msd_ref, params)
    refs = REFERENCES.get(params.system, ())
    summary = (
        f"D = {d:.3f} ± {err:.3f} × 10⁻⁵ cm²/s ({params.system}, "
        f"{params.temperature_k:g} K, R² = {r2:.4f})"
    )
    method = (
        f"{params.n_molecules} molecules packed with PACKMOL, minimized, equilibrated "
        f"{params.equilibration_ps:g} ps ({'NPT' if params.npt else 'NVT'}), production NVT "
        f"{params.production_ps:g} ps at {params.timestep_fs:g} fs with the linear momentum "
        f"zeroed. MSD over all time origins (freud), linear fit over {a['fit_start_fs']:.0f}–"
        f"{a['fit_end_fs']:.0f} fs; D = slope/6; uncertainty = standard deviation of D over "
        f"{a['n_blocks']} time blocks. Force field {SYSTEMS[params.system].forcefield}: "
        f"{forcefield_of(SYSTEMS[params.system]).pair_style.describe()}."
    )
    return report_result(
        ctx,
        title=f"Self-diffusion of {params.system}",
        summary=summary,
        values=values,
        method=method,
        artifacts=(msd_ref, plot, thermo_ref),
        references=refs,
        notes=notes,
    )


def _plot(
    ctx: RunContext, msd: Table, msd_ref: ArtifactRef, params: DiffusivityParams
) -> ArtifactRef:
    a = msd.attrs
    lag_ps = msd["lag"] / 1000.0
    t0, t1 = float(a["fit_start_fs"]) / 1000.0, float(a["fit_end_fs"]) / 1000.0
    line_t = np.linspace(t0, t1, 50)
    line = float(a["slope_a2_fs"]) * line_t * 1000.0 + float(a["intercept_a2"])
    path = plot_xy(
        ctx.workdir / "msd.png",
        lag_ps,
        msd["msd"],
        xlabel="lag time (ps)",
        ylabel="MSD (Å²)",
        title=f"{params.system}: D = {float(a['d_1e5_cm2_s']):.3f} "
        f"× 10⁻⁵ cm²/s, R² = {float(a['r2']):.4f}",
        fit=(line_t, line),
        shade=(t0, t1),
    )
    return ctx.artifact(path, "plot", "MSD with the Einstein fit")
