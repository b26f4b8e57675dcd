"""Self-diffusion coefficients from the Einstein relation, MSD(t) ≈ 2·d·D·t + c.

The MSD is fitted with a straight line over a window given as fractions of the
trajectory length (default 10 %–67 %: skips the ballistic/caging start and the noisy
long lags, where few time origins remain).

Uncertainty of D — the choice made here
----------------------------------------
The least-squares standard error of the slope is not used: successive MSD points are
strongly correlated (they share time origins), so that error is far too small.
Instead the trajectory is cut into ``n_blocks`` (≥ 3) consecutive, non-overlapping
time blocks; each block's MSD is fitted over the same *fractional* window, giving one
D per block, and the reported uncertainty is the **standard deviation** of the block
values (ddof=1) — not their standard error of the mean. The reason: with a window
given as fractions of the trajectory length, the relative precision of a fitted D
does not improve with the trajectory length (the longest lag fitted grows with it,
and long lags have proportionally fewer independent origins). A block's fit is
therefore as precise as the full-trajectory fit, and the spread of the blocks
measures the error of the reported D; dividing by √n_blocks would understate it by
that factor (checked on random walks: with 5 blocks, errors were 2.3× the standard
error of the mean, and consistent with the block standard deviation). Blocks must be
much longer than the velocity decorrelation time; if a block's window still reaches
into the sub-diffusive start, the block values scatter or shift and the estimate
grows, erring on the safe side. D itself is the fit to the whole trajectory; the
block values are kept in :attr:`EinsteinFit.block_d_1e5_cm2_s` (their mean, with
std/√n, is an alternative, more precise estimator where the diffusive regime is
reached well within a block).

The finite-size correction of Yeh & Hummer is a separate, optional function,
:func:`yeh_hummer_correction`; nothing here applies it implicitly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from simwright.analysis.convergence import LineFit, fit_line
from simwright.analysis.msd import MSDCurve, block_msd_curves, mean_squared_displacement
from simwright.errors import ValidationError
from simwright.units import diffusion_a2_fs_to_1e5_cm2_s

MIN_WINDOW_POINTS: Final = 10
"""The fewest MSD points (frames) a fit window must contain."""

MIN_BLOCKS: Final = 3
"""The fewest independent blocks the uncertainty estimate accepts."""

YEH_HUMMER_XI: Final = 2.837297
"""Madelung-like constant ξ of a cubic periodic lattice (Yeh & Hummer 2004)."""

BOLTZMANN_J_K: Final = 1.380649e-23
"""Boltzmann constant in J/K (exact in SI 2019)."""

M2_S_TO_1E5_CM2_S: Final = 1.0e9
"""1 m²/s = 1e4 cm²/s = 1e9 × (1e-5 cm²/s)."""


@dataclass(frozen=True)
class EinsteinFit:
    """A diffusion coefficient from the Einstein relation, with its fit and uncertainty.

    ``slope`` (Å²/fs) and ``intercept`` (Å²) describe the fit to the full trajectory's
    MSD between ``fit_start_fs`` and ``fit_end_fs``; ``r2`` is its coefficient of
    determination. ``d_err_1e5_cm2_s`` is the standard deviation of D over ``n_blocks``
    time blocks (module docstring), whose values are ``block_d_1e5_cm2_s``.
    """

    d_a2_fs: float
    d_1e5_cm2_s: float
    d_err_1e5_cm2_s: float
    slope: float
    intercept: float
    r2: float
    fit_start_fs: float
    fit_end_fs: float
    n_blocks: int
    block_d_1e5_cm2_s: tuple[float, ...] = ()


def fit_window(curve: MSDCurve, start_fraction: float, end_fraction: float) -> np.ndarray:
    """Boolean mask of the MSD points with ``start·T <= lag <= end·T`` (T: longest lag).

    Raises :class:`ValidationError` for a bad window or fewer than
    :data:`MIN_WINDOW_POINTS` points in it.
    """
    if not 0.0 <= start_fraction < end_fraction <= 1.0:
        raise ValidationError(
            f"fit window must satisfy 0 <= start < end <= 1, got {start_fraction}..{end_fraction}"
        )
    total = curve.duration_fs
    mask = (curve.lag_fs >= start_fraction * total) & (curve.lag_fs <= end_fraction * total)
    n_points = int(mask.sum())
    if n_points < MIN_WINDOW_POINTS:
        raise ValidationError(
            f"only {n_points} MSD points in the fit window {start_fraction:g}–{end_fraction:g} "
            f"of a {len(curve.lag_fs)}-frame trajectory; need >= {MIN_WINDOW_POINTS} "
            "(store more frames, run longer or use fewer blocks)"
        )
    return mask


def fit_msd_line(
    curve: MSDCurve, start_fraction: float = 0.10, end_fraction: float = 0.67
) -> LineFit:
    """Fit MSD(t) with a line over the fractional window ``start..end`` of the curve."""
    mask = fit_window(curve, start_fraction, end_fraction)
    return fit_line(curve.lag_fs[mask], curve.msd_a2[mask])


def _diffusion_a2_fs(slope: float, dimensions: int) -> float:
    if dimensions not in (1, 2, 3):
        raise ValidationError(f"dimensions must be 1, 2 or 3, got {dimensions}")
    return slope / (2.0 * dimensions)


def einstein_fit(
    curve: MSDCurve,
    block_curves: Sequence[MSDCurve],
    *,
    start_fraction: float = 0.10,
    end_fraction: float = 0.67,
    dimensions: int = 3,
) -> EinsteinFit:
    """D from the full-trajectory ``curve``, uncertainty from ``block_curves`` (>= 3).

    D = slope / (2·dimensions). Each block curve is fitted over the same fractional
    window; the uncertainty is the standard deviation of the block values (see the
    module docstring for why not their standard error).
    """
    if len(block_curves) < MIN_BLOCKS:
        raise ValidationError(
            f"the uncertainty needs >= {MIN_BLOCKS} blocks, got {len(block_curves)}"
        )
    fit = fit_msd_line(curve, start_fraction, end_fraction)
    d_a2_fs = _diffusion_a2_fs(fit.slope, dimensions)
    block_d = np.array(
        [
            _diffusion_a2_fs(fit_msd_line(block, start_fraction, end_fraction).slope, dimensions)
            for block in block_curves
        ]
    )
    spread_a2_fs = float(block_d.std(ddof=1))
    return EinsteinFit(
        d_a2_fs=d_a2_fs,
        d_1e5_cm2_s=diffusion_a2_fs_to_1e5_cm2_s(d_a2_fs),
        d_err_1e5_cm2_s=diffusion_a2_fs_to_1e5_cm2_s(spread_a2_fs),
        slope=fit.slope,
        intercept=fit.intercept,
        r2=fit.r2,
        fit_start_fs=fit.x_start,
        fit_end_fs=fit.x_end,
        n_blocks=int(block_d.size),
        block_d_1e5_cm2_s=tuple(diffusion_a2_fs_to_1e5_cm2_s(float(d)) for d in block_d),
    )


def einstein_diffusion(
    positions_a: np.ndarray,
    timestep_fs: float,
    frame_interval_steps: int = 1,
    *,
    atom_indices: Sequence[int] | None = None,
    start_fraction: float = 0.10,
    end_fraction: float = 0.67,
    n_blocks: int = 5,
    dimensions: int = 3,
) -> EinsteinFit:
    """Self-diffusion coefficient of unwrapped positions (n_frames, n_atoms, 3) in Å.

    Computes the MSD of the whole trajectory and of ``n_blocks`` time blocks (see the
    module docstring for why) and fits them with :func:`einstein_fit`.
    """
    curve = mean_squared_displacement(
        positions_a, timestep_fs, frame_interval_steps, atom_indices=atom_indices
    )
    blocks = block_msd_curves(
        positions_a,
        timestep_fs,
        frame_interval_steps,
        n_blocks=n_blocks,
        atom_indices=atom_indices,
    )
    return einstein_fit(
        curve,
        blocks,
        start_fraction=start_fraction,
        end_fraction=end_fraction,
        dimensions=dimensions,
    )


def yeh_hummer_correction(temperature_k: float, viscosity_pa_s: float, box_a: float) -> float:
    """Optional finite-size correction ΔD (10⁻⁵ cm²/s) of a cubic periodic box.

    Yeh & Hummer, J. Phys. Chem. B 108, 15873 (2004): D(∞) = D(L) + k_B·T·ξ / (6π·η·L)
    with ξ = 2.837297, η the shear viscosity (Pa·s) and L the box edge (Å). Add the
    returned value to D measured in the box; it is never applied automatically.
    """
    if temperature_k <= 0 or viscosity_pa_s <= 0 or box_a <= 0:
        raise ValidationError(
            "temperature, viscosity and box length must be positive, got "
            f"{temperature_k} K, {viscosity_pa_s} Pa·s, {box_a} Å"
        )
    box_m = box_a * 1.0e-10
    delta_m2_s = (
        BOLTZMANN_J_K * temperature_k * YEH_HUMMER_XI / (6.0 * math.pi * viscosity_pa_s * box_m)
    )
    return delta_m2_s * M2_S_TO_1E5_CM2_S
