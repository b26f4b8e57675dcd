"""The MSD analysis both routes of ``electrolyte_diffusivity`` share.

Molecular centres of Li⁺, PF₆⁻ and each solvent, with the whole system's
centre-of-mass drift removed first (never a per-group centre of mass), MSD over all
time origins and the Einstein fit over 10–67 % with block errors, stored as one table.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simwright.analysis.einstein import einstein_diffusion
from simwright.analysis.msd import mean_squared_displacement
from simwright.analysis.transport import remove_system_drift
from simwright.contract import SCHEMA_VERSION, Column, Table, write_table
from simwright.graph import RunContext
from simwright.molecules.blend import BlendComposition
from simwright.protocols.electrolytes.params import NORMAL_TIMESTEP_FS, ElectrolyteParams
from simwright.results import ArtifactRef


def species_centres(
    comp: BlendComposition, positions: np.ndarray, masses: np.ndarray
) -> list[tuple[str, np.ndarray]]:
    """(label, centre-of-mass trajectories of its molecules) for Li⁺, PF₆⁻ and each solvent.

    Atoms come in the packed order: all molecules of a component contiguously.
    """
    out = []
    start = 0
    labels = ["li", "pf6", *(m.name for m, _ in comp.solvents)]
    for label, (molecule, count) in zip(labels, comp.components, strict=True):
        n = molecule.n_atoms
        stop = start + n * count
        block = positions[:, start:stop].reshape(positions.shape[0], count, n, 3)
        w = masses[start : start + n]
        out.append((label, np.einsum("fmai,a->fmi", block, w) / w.sum()))
        start = stop
    return out


def msd_table(
    ctx: RunContext,
    p: ElectrolyteParams,
    comp: BlendComposition,
    positions: np.ndarray,
    masses: np.ndarray,
    *,
    timestep_fs: float,
    every: int,
    links: tuple[str, ...],
) -> tuple[ArtifactRef, float]:
    """Fit D of every species from unwrapped ``positions``; the table and Li⁺ R²."""
    unwrapped = remove_system_drift(positions, masses)
    columns: list[Column] = []
    attrs: dict[str, Any] = {"n_frames": int(positions.shape[0])}
    for label, centres in species_centres(comp, unwrapped, masses):
        fit = einstein_diffusion(centres, timestep_fs, every, n_blocks=p.n_blocks)
        curve = mean_squared_displacement(centres, timestep_fs, every)
        if not columns:
            columns.append(Column("lag", curve.lag_fs, "fs", "lag time"))
        columns.append(Column(f"msd_{label}", curve.msd_a2, "Å^2", f"MSD of {label}"))
        attrs.update(
            {
                f"d_{label}_1e5_cm2_s": fit.d_1e5_cm2_s,
                f"d_err_{label}_1e5_cm2_s": fit.d_err_1e5_cm2_s,
                f"r2_{label}": fit.r2,
                f"n_{label}": int(centres.shape[1]),
            }
        )
        if label == "li":
            attrs.update(
                {
                    "fit_start_fs": fit.fit_start_fs,
                    "fit_end_fs": fit.fit_end_fs,
                    "slope_a2_fs": fit.slope,
                    "intercept_a2": fit.intercept,
                }
            )
    table = Table(
        name="msd",
        columns=tuple(columns),
        description="MSD of molecular centres, system drift removed",
        producer=ctx.producer,
        links=links,
        attrs=attrs,
    )
    ref = ctx.artifact(
        write_table(ctx.workdir / "msd.h5", table), "table", table.description, SCHEMA_VERSION
    )
    return ref, float(attrs["r2_li"])


def analyse_or_extend(
    ctx: RunContext,
    p: ElectrolyteParams,
    comp: BlendComposition,
    positions: np.ndarray,
    masses: np.ndarray,
    *,
    segments: tuple[str, ...],
    extensions: int,
) -> tuple[ArtifactRef, bool]:
    """The MSD table of the production ``segments`` (paths in the run) and the rule's
    verdict: True when the Li⁺ MSD is not yet linear (R² below the threshold) and an
    extension is still allowed, so the production goes on; each verdict is recorded."""
    msd, r2 = msd_table(
        ctx,
        p,
        comp,
        positions,
        masses,
        timestep_fs=NORMAL_TIMESTEP_FS,
        every=max(1, round(p.frame_interval_fs / NORMAL_TIMESTEP_FS)),
        links=tuple(f"../../{s}" for s in segments),
    )
    if r2 < p.r2_min and extensions < p.max_extensions:
        ctx.rule(
            "msd_linear_extend",
            f"Li⁺ R² = {r2:.4f} < {p.r2_min}: extend NVT by {p.extension_ns:g} ns "
            f"({extensions + 1}/{p.max_extensions})",
        )
        return msd, True
    verdict = "≥" if r2 >= p.r2_min else "<"
    ctx.rule(
        "msd_linear", f"Li⁺ R² = {r2:.4f} {verdict} {p.r2_min} after {extensions} extension(s)"
    )
    return msd, False
