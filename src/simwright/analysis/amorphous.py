"""Structure of an amorphous solid from melt–quench frames: density, g(r), coordination.

Frames are read from a LAMMPS ``dump custom id type x y z`` (each with its own box:
the production runs at constant pressure). g(r) is averaged over frames, each with its
own box (:func:`simwright.analysis.rdf.radial_distribution`); the first shell follows
that module's rule. Coordination numbers are counted on the last frame within the
first minimum of g(r): their distribution (fractions of 3-, 4-, 5-fold... atoms) and
mean. The excess potential energy per atom over the crystal is
ΔE = ⟨E_pot⟩/N − (E_crystal(0 K)/N + 3/2 k_B T): the crystal's energy at T in the
harmonic approximation; a quench that recrystallised has ΔE ≈ 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simwright.analysis.rdf import FirstShell, Rdf, radial_distribution
from simwright.errors import ParseError
from simwright.units import A3_CM3, AMU_G, KB_EV_K


@dataclass(frozen=True, eq=False)
class Frames:
    """Positions (n_frames, n_atoms, 3) in Å and each frame's orthogonal box lengths (Å)."""

    positions_a: np.ndarray
    boxes_a: np.ndarray


def read_frames(path: Path) -> Frames:
    """The frames of a ``dump custom ... id type x y z`` file (orthogonal boxes)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ParseError(f"{path}: cannot read the frames ({exc})") from exc
    positions, boxes = [], []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("ITEM: TIMESTEP"):
            i += 1
            continue
        try:
            n = int(lines[i + 3])
            bounds = [tuple(map(float, lines[i + 5 + k].split()[:2])) for k in range(3)]
            rows = np.array([line.split() for line in lines[i + 9 : i + 9 + n]], dtype=float)
        except (IndexError, ValueError) as exc:
            raise ParseError(f"{path}: a frame near line {i + 1} is not readable ({exc})") from exc
        if rows.shape != (n, 5):
            raise ParseError(f"{path}: expected {n} rows of id type x y z near line {i + 1}")
        positions.append(rows[np.argsort(rows[:, 0]), 2:5])
        boxes.append([hi - lo for lo, hi in bounds])
        i += 9 + n
    if not positions:
        raise ParseError(f"{path}: no frames")
    return Frames(np.array(positions), np.array(boxes))


def mean_rdf(frames: Frames, r_max_a: float, bins: int = 200) -> Rdf:
    """g(r) and n(r) averaged over the frames, each in its own box."""
    n_atoms = frames.positions_a.shape[1]
    every = np.arange(n_atoms)
    parts = [
        radial_distribution(pos[None], np.diag(box), every, every, r_max_a=r_max_a, bins=bins)
        for pos, box in zip(frames.positions_a, frames.boxes_a, strict=True)
    ]
    return Rdf(
        r_a=parts[0].r_a,
        g=np.mean([p.g for p in parts], axis=0),
        n_r=np.mean([p.n_r for p in parts], axis=0),
        density_b_a3=float(np.mean([p.density_b_a3 for p in parts])),
        n_frames=len(parts),
    )


def smoothed(rdf: Rdf, width: int = 5) -> Rdf:
    """``rdf`` with g(r) averaged over ``width`` neighbouring bins (ends kept): the first
    minimum of a few hundred atoms' g(r) is otherwise found in the noise."""
    kernel = np.ones(width) / width
    g = np.convolve(rdf.g, kernel, mode="same")
    half = width // 2
    g[:half], g[-half:] = rdf.g[:half], rdf.g[-half:]
    return Rdf(rdf.r_a, g, rdf.n_r, rdf.density_b_a3, rdf.n_frames)


def coordination_counts(positions_a: np.ndarray, box_a: np.ndarray, cutoff_a: float) -> np.ndarray:
    """Neighbours of each atom within ``cutoff_a`` (minimum image, orthogonal box)."""
    d = positions_a[:, None, :] - positions_a[None, :, :]
    d -= box_a * np.round(d / box_a)
    r2 = np.einsum("ijk,ijk->ij", d, d)
    np.fill_diagonal(r2, np.inf)
    return np.asarray((r2 < cutoff_a**2).sum(axis=1), dtype=int)


@dataclass(frozen=True)
class AmorphousStructure:
    """What the analysis reports."""

    density_g_cm3: float
    density_sem: float
    shell: FirstShell
    coordination_mean: float
    coordination_fractions: dict[int, float]
    excess_energy_ev: float


def mass_density(n_atoms: int, mass_amu: float, volume_a3: np.ndarray) -> np.ndarray:
    """Mass density (g/cm³) of ``n_atoms`` atoms of ``mass_amu`` in each of the volumes
    (Å³): :func:`simwright.units.density_g_cm3` over an array."""
    return n_atoms * mass_amu * AMU_G / (np.asarray(volume_a3, float) * A3_CM3)


def excess_energy(pe_per_atom_ev: float, crystal_pe_per_atom_ev: float, t_k: float) -> float:
    """ΔE per atom over the harmonic crystal at ``t_k`` (see the module)."""
    return pe_per_atom_ev - (crystal_pe_per_atom_ev + 1.5 * KB_EV_K * t_k)


def coordination_fractions(counts: np.ndarray) -> dict[int, float]:
    """Fraction of atoms with each coordination number present."""
    values, numbers = np.unique(counts, return_counts=True)
    return {int(v): float(c) / counts.size for v, c in zip(values, numbers, strict=True)}


def melt_quench_plot(
    path: Path,
    time_ps: np.ndarray,
    temperature_k: np.ndarray,
    density_g_cm3: np.ndarray,
    rdf: Rdf,
    shell: FirstShell,
    title: str,
) -> Path:
    """Three panels: T(t) and ρ(t) through melt, quench, anneal and production; g(r)."""
    # lazy: matplotlib takes about half a second to import; only the plot needs it
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: as above

    fig, axes = plt.subplots(1, 3, figsize=(11.0, 3.4), dpi=110)
    axes[0].plot(time_ps, temperature_k, lw=0.8)
    axes[0].set_xlabel("time (ps)")
    axes[0].set_ylabel("T (K)")
    axes[1].plot(time_ps, density_g_cm3, lw=0.8)
    axes[1].set_xlabel("time (ps)")
    axes[1].set_ylabel("ρ (g/cm³)")
    axes[2].plot(rdf.r_a, rdf.g, lw=1.0)
    axes[2].axvline(shell.min_r_a, ls="--", lw=0.8, color="grey", label="first minimum")
    axes[2].set_xlabel("r (Å)")
    axes[2].set_ylabel("g(r)")
    axes[2].legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
