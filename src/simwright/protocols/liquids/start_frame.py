"""Where production starts: the equilibration frame closest to the mean NPT density.

The last frame of a short NPT equilibration is one sample of a fluctuating volume (216
water molecules swing by ±1 % over picoseconds); an NVT production started there runs at
that density, not the model's. :func:`closest_density_start` picks instead the periodic
restart whose density is closest to the mean of the last half of the equilibration
(:func:`simwright.analysis.density.closest_frame_to_mean`) and records the rule. Used by
``diffusivity`` and ``viscosity``; the electrolyte routes share the periodic restarts
and the density convergence check (:func:`density_converged`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from simwright.analysis.density import closest_frame_to_mean
from simwright.contract import read_table
from simwright.results import ArtifactRef
from simwright.steps.md import snapshots

if TYPE_CHECKING:
    from simwright.graph import RunContext

SNAPSHOTS_PER_EQUILIBRATION = 40
"""Periodic restarts written during an NPT equilibration (candidates for the start)."""


def snapshot_every(steps: int) -> int:
    """Steps between two candidate restarts of an equilibration of ``steps`` steps."""
    return max(1, steps // SNAPSHOTS_PER_EQUILIBRATION)


def record_snapshots(ctx: RunContext) -> tuple[ArtifactRef, ...]:
    """Record the periodic restarts of the step directory (in step order)."""
    return tuple(
        ctx.artifact(path, "restart", f"snapshot at step {step}")
        for step, path in snapshots(ctx.workdir)
    )


def _snapshot_step(ref: ArtifactRef) -> int:
    return int(ref.path.rsplit("snapshot.", 1)[1].split(".")[0])


def closest_density_start(
    ctx: RunContext,
    *,
    npt: bool,
    thermo: ArtifactRef,
    final: ArtifactRef,
    candidates: tuple[ArtifactRef, ...],
    timestep_fs: float,
) -> ArtifactRef:
    """The restart production starts from (NPT: closest to the mean density; else the end)."""
    if not npt or not candidates:
        ctx.rule("fixed_density_final_state", "NVT equilibration: start from its end")
        return final
    table = read_table(ctx.path(thermo))
    steps = np.array([_snapshot_step(s) for s in candidates], dtype=float)
    first = float(table["step"][0])
    pick = closest_frame_to_mean(
        (table["step"] - first) * timestep_fs,
        table["density"],
        candidate_times_fs=(steps - first) * timestep_fs,
        last_window_fraction=0.5,
    )
    chosen = candidates[pick.index]
    ctx.rule(
        "closest_density_frame",
        f"frame at {pick.time_fs / 1000:.2f} ps: {pick.density_g_cm3:.4f} g/cm³, mean of "
        f"the last half {pick.window_mean_g_cm3:.4f} ± {pick.window_std_g_cm3:.4f} g/cm³",
    )
    ctx.event(
        "frame_selected",
        chosen.path,
        density_g_cm3=pick.density_g_cm3,
        window_mean_g_cm3=pick.window_mean_g_cm3,
    )
    return chosen


def density_converged(
    ctx: RunContext, density: np.ndarray, window_mean_g_cm3: float, tolerance: float
) -> tuple[float, bool]:
    """The relative change of the mean density between the two quarters of the last half
    of an NPT equilibration, and whether it is within ``tolerance``; recorded as the
    ``density_convergence`` event."""
    half = density[len(density) // 2 :]
    quarter = max(1, len(half) // 2)
    drift = abs(float(np.mean(half[quarter:]) - np.mean(half[:quarter]))) / window_mean_g_cm3
    converged = bool(drift <= tolerance)
    ctx.event(
        "density_convergence",
        "converged" if converged else "NOT converged",
        relative_drift=drift,
        tolerance=tolerance,
        converged=converged,
    )
    return drift, converged
