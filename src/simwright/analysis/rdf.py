"""Radial distribution functions (freud), first-shell features and the structure factor.

g_AB(r) is averaged over frames with freud's ``density.RDF``; ``n_r`` is freud's running
coordination number n_AB(r) = 4π ρ_B ∫₀^r g_AB(s) s² ds (B atoms around an A atom).
First-shell features follow a fixed rule: the first peak is the global maximum of g
(beyond the core, where g first exceeds 1), the first minimum is the smallest g
between that peak and the next point where g rises above 1 again (or ``r_max``); the
coordination number is n(r) at that minimum.

The static structure factor of a one-component liquid (or one partial) follows from
g(r) by the Fourier transform S(q) = 1 + 4π ρ ∫₀^R r² (g(r) − 1) sin(qr)/(qr) W(r) dr
with the Lorch window W(r) = sin(πr/R)/(πr/R), which damps the ripples the
truncation at R = ``r_max`` would cause; q below ≈ 2π/R is not resolved.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simwright.errors import ValidationError


@dataclass(frozen=True, eq=False)
class Rdf:
    """g(r) and the running coordination number n(r) on bin centres r (Å).

    ``density_b_a3`` is the number density of the B atoms (Å⁻³).
    """

    r_a: np.ndarray
    g: np.ndarray
    n_r: np.ndarray
    density_b_a3: float
    n_frames: int


@dataclass(frozen=True)
class FirstShell:
    """First peak (position Å, height), first minimum (Å, g) and coordination number."""

    peak_r_a: float
    peak_g: float
    min_r_a: float
    min_g: float
    coordination: float


def radial_distribution(
    frames_a: np.ndarray,
    cell_a: np.ndarray,
    a_indices: np.ndarray,
    b_indices: np.ndarray,
    *,
    r_max_a: float,
    bins: int = 200,
) -> Rdf:
    """g_AB(r) over frames (n_frames, n_atoms, 3) in a fixed periodic ``cell_a`` (rows)."""
    import freud  # lazy: optional dependency (simwright[md])

    if r_max_a <= 0 or r_max_a >= 0.5 * float(np.min(np.linalg.norm(cell_a, axis=1))):
        raise ValidationError(
            f"r_max must be positive and below half the shortest box edge, got {r_max_a:g} Å"
        )
    box = freud.box.Box.from_matrix(np.asarray(cell_a, dtype=float))
    same = np.array_equal(np.sort(a_indices), np.sort(b_indices))
    rdf = freud.density.RDF(bins=bins, r_max=r_max_a)
    for frame in frames_a:
        b_points = box.wrap(frame[b_indices].astype(np.float32))
        a_points = None if same else box.wrap(frame[a_indices].astype(np.float32))
        rdf.compute(system=(box, b_points), query_points=a_points, reset=False)
    return Rdf(
        r_a=np.asarray(rdf.bin_centers, dtype=float),
        g=np.asarray(rdf.rdf, dtype=float),
        n_r=np.asarray(rdf.n_r, dtype=float),
        density_b_a3=len(b_indices) / float(box.volume),
        n_frames=len(frames_a),
    )


def first_shell(rdf: Rdf) -> FirstShell:
    """First peak, first minimum and coordination number by the rule of the module."""
    g = rdf.g
    above = np.flatnonzero(g > 1.0)
    if above.size == 0:
        raise ValidationError("g(r) never exceeds 1: no coordination shell to analyse")
    peak = int(above[0] + np.argmax(g[above[0] :]))
    after = np.flatnonzero(g[peak:] > 1.0)
    # the first point after the peak's own run of g > 1 where g is above 1 again
    gaps = np.flatnonzero(np.diff(after) > 1)
    end = peak + int(after[gaps[0] + 1]) if gaps.size else g.size
    minimum = peak + int(np.argmin(g[peak:end]))
    return FirstShell(
        peak_r_a=float(rdf.r_a[peak]),
        peak_g=float(g[peak]),
        min_r_a=float(rdf.r_a[minimum]),
        min_g=float(g[minimum]),
        coordination=float(rdf.n_r[minimum]),
    )


def structure_factor(rdf: Rdf, q_inv_a: np.ndarray) -> np.ndarray:
    """S(q) from g(r) with the Lorch window (see the module docstring); q in Å⁻¹."""
    q = np.asarray(q_inv_a, dtype=float)
    if np.any(q <= 0):
        raise ValidationError("q must be positive")
    r, dr = rdf.r_a, float(rdf.r_a[1] - rdf.r_a[0])
    cutoff = float(r[-1] + dr / 2)
    window = np.sinc(r / cutoff)  # numpy's sinc is sin(πx)/(πx)
    integrand = r**2 * (rdf.g - 1.0) * window
    kernel = np.sinc(np.outer(q, r) / np.pi)  # sin(qr)/(qr)
    return 1.0 + 4.0 * np.pi * rdf.density_b_a3 * (kernel * integrand).sum(axis=1) * dr
