"""Lattice thermal conductivity by Müller-Plathe reverse NEMD, and its size effect.

Kinetic energy is moved from the bottom slab to the middle slab of a periodic box;
in the steady state heat flows back down both halves, so the flux through one
cross-section is J = ΔE / (2 A Δt). The temperature gradient is fitted on each half,
leaving out the two slabs next to the source and the sink; κ = J / |dT/dz|, the mean
of both halves. Sampled in blocks (one temperature profile and one energy increment
each), κ has a standard error from its block values. :func:`extrapolate` fits
1/κ = 1/κ∞ + c/L over box lengths (the phonon mean free paths of a crystal are
longer than any affordable box, so κ(L) rises with L).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np

from simwright.errors import ParseError, ValidationError

EV_PER_PS_A_K_TO_W_M_K: Final = 1.602176634e-19 / (1e-12 * 1e-10)
"""1 eV/(ps·Å·K) in W/(m·K)."""


@dataclass(frozen=True)
class Profile:
    """Slab temperatures (K) at the block ends ``steps``; ``coords`` are reduced slab centres."""

    steps: np.ndarray
    coords: np.ndarray
    temperatures: np.ndarray


def read_profile(path: Path) -> Profile:
    """The blocks of a ``fix ave/chunk`` file of (chunk, coord, count, temperature)."""
    try:
        lines = [ln.split() for ln in path.read_text(encoding="utf-8").splitlines()]
    except OSError as exc:
        raise ParseError(f"{path}: cannot read the temperature profile ({exc})") from exc
    steps, blocks, coords = [], [], None
    rows = [ln for ln in lines if ln and not ln[0].startswith("#")]
    i = 0
    while i < len(rows):
        step, n = int(rows[i][0]), int(rows[i][1])
        block = np.array([[float(x) for x in r] for r in rows[i + 1 : i + 1 + n]])
        if block.shape != (n, 4):
            raise ParseError(f"{path}: truncated block at step {step}")
        steps.append(step)
        blocks.append(block[:, 3])
        coords = block[:, 1]
        i += n + 1
    if coords is None:
        raise ParseError(f"{path}: no temperature profile")
    return Profile(np.array(steps), coords, np.array(blocks))


def gradient(coords: np.ndarray, temps: np.ndarray, length_a: float) -> float:
    """The mean |dT/dz| (K/Å) of the two halves, without the slabs beside source and sink."""
    n = coords.size
    if n < 12 or n % 2:
        raise ValidationError(
            f"a Müller-Plathe profile needs an even number >= 12 of slabs, got {n}"
        )
    half = n // 2
    z = coords * length_a
    slopes = []
    for sl in (slice(2, half - 1), slice(half + 2, n - 1)):
        slopes.append(abs(np.polyfit(z[sl], temps[sl], 1)[0]))
    return float(np.mean(slopes))


@dataclass(frozen=True)
class Conductivity:
    """κ (W/(m K)) with its standard error, the mean gradient (K/Å) and the mean profile."""

    kappa: float
    stderr: float
    gradient_k_a: float
    coords: np.ndarray
    mean_profile: np.ndarray
    blocks: int


def conductivity(
    profile: Profile,
    energy_ev: np.ndarray,
    area_a2: float,
    length_a: float,
    timestep_fs: float,
    skip_blocks: int,
) -> Conductivity:
    """κ from the blocks after ``skip_blocks``; ``energy_ev`` is the cumulative energy moved
    at each block end (same steps as the profile)."""
    if energy_ev.size != profile.steps.size:
        raise ValidationError("energy and profile must be sampled at the same steps")
    keep = np.arange(profile.steps.size) >= skip_blocks
    if keep.sum() < 3:
        raise ValidationError(f"only {int(keep.sum())} steady-state blocks; run longer")
    dt_ps = np.diff(profile.steps) * timestep_fs * 1e-3
    de = np.diff(energy_ev)
    per_block = []
    for k in np.nonzero(keep)[0]:
        if k == 0:
            continue
        flux = de[k - 1] / (2 * area_a2 * dt_ps[k - 1])
        per_block.append(flux / gradient(profile.coords, profile.temperatures[k], length_a))
    mean_t = profile.temperatures[keep].mean(axis=0)
    g = gradient(profile.coords, mean_t, length_a)
    first, last = np.nonzero(keep)[0][[0, -1]]
    span_ps = (profile.steps[last] - profile.steps[first]) * timestep_fs * 1e-3
    flux = (energy_ev[last] - energy_ev[first]) / (2 * area_a2 * span_ps)
    kb = np.array(per_block) * EV_PER_PS_A_K_TO_W_M_K
    return Conductivity(
        kappa=float(flux / g * EV_PER_PS_A_K_TO_W_M_K),
        stderr=float(kb.std(ddof=1) / np.sqrt(kb.size)),
        gradient_k_a=g,
        coords=profile.coords,
        mean_profile=mean_t,
        blocks=int(kb.size),
    )


@dataclass(frozen=True)
class SizeFit:
    """κ∞ from 1/κ = 1/κ∞ + c/L (None when the intercept is not positive)."""

    kappa_inf: float | None
    stderr: float | None
    slope: float
    intercept: float


def extrapolate(lengths_a: np.ndarray, kappa: np.ndarray, stderr: np.ndarray) -> SizeFit:
    """Weighted linear fit of 1/κ against 1/L (two lengths: the line through both)."""
    if lengths_a.size < 2:
        raise ValidationError("the size extrapolation needs at least two box lengths")
    x, y = 1.0 / lengths_a, 1.0 / kappa
    sy = np.maximum(stderr / kappa**2, 1e-12)
    if x.size == 2:
        slope = (y[1] - y[0]) / (x[1] - x[0])
        intercept = y[0] - slope * x[0]
        var = None
    else:
        (slope, intercept), cov = np.polyfit(x, y, 1, w=1 / sy, cov="unscaled")
        var = cov[1, 1]
    if intercept <= 0:
        return SizeFit(None, None, float(slope), float(intercept))
    err = float(np.sqrt(var) / intercept**2) if var is not None else None
    return SizeFit(float(1 / intercept), err, float(slope), float(intercept))


def nemd_plot(path: Path, runs: list[tuple[float, Conductivity]], fit: SizeFit, title: str) -> Path:
    """Left: the steady-state temperature profiles; right: 1/κ against 1/L with the fit."""
    # lazy: matplotlib takes about half a second to import; only the plot needs it
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: as above

    fig, (left, right) = plt.subplots(1, 2, figsize=(9.0, 3.8), dpi=110)
    for length, c in runs:
        left.plot(
            c.coords * length / 10, c.mean_profile, "o-", ms=3, label=f"L = {length / 10:.1f} nm"
        )
    left.set_xlabel("z (nm)")
    left.set_ylabel("slab temperature (K)")
    left.legend(fontsize=8)
    inv_l = np.array([1 / length for length, _ in runs]) * 10
    inv_k = np.array([1 / c.kappa for _, c in runs])
    errs = np.array([c.stderr / c.kappa**2 for _, c in runs])
    right.errorbar(inv_l, inv_k, yerr=errs, fmt="o", capsize=3)
    grid = np.linspace(0, inv_l.max() * 1.05, 20)
    right.plot(grid, fit.intercept + fit.slope * grid / 10, "--", lw=1)
    right.set_xlabel("1/L (1/nm)")
    right.set_ylabel("1/κ (m K/W)")
    right.set_xlim(left=0)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
