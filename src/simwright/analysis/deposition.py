"""Film growth after a deposition: who stuck, who bounced, and the density along z.

Read from the final atoms (id, type, z; ids above the slab's are deposited atoms):
an inserted atom is adsorbed when it lies within ``bound_a`` of the film's top
(bonded to the surface); the rest — dropped through the open top of the box or
still flying — were reflected. Coverage is the adsorbed count over the atoms of one
surface layer (monolayers). The number density profile along z counts atoms per
slice over the box's cross-section.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simwright.errors import ParseError


@dataclass(frozen=True)
class Atoms:
    """Final ids, types and heights (Å) of a deposition run."""

    ids: np.ndarray
    types: np.ndarray
    z: np.ndarray


def read_dump(path: Path) -> Atoms:
    """A ``write_dump ... custom id type x y z`` file."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
        start = lines.index(next(ln for ln in lines if ln.startswith("ITEM: ATOMS"))) + 1
        rows = np.array([[float(t) for t in ln.split()] for ln in lines[start:] if ln.strip()])
    except (OSError, StopIteration, ValueError) as exc:
        raise ParseError(f"{path}: not a readable atom dump ({exc})") from exc
    if rows.ndim != 2 or rows.shape[1] != 5:
        raise ParseError(f"{path}: expected columns id type x y z")
    return Atoms(rows[:, 0].astype(int), rows[:, 1].astype(int), rows[:, 4])


@dataclass(frozen=True)
class Growth:
    """Counts (inserted, adsorbed, reflected), coverage (ML) and sticking fraction."""

    inserted: int
    adsorbed: int
    reflected: int
    coverage_ml: float
    sticking: float
    film_top_a: float


def growth(
    atoms: Atoms,
    n_slab: int,
    inserted: int,
    surface_top_a: float,
    atoms_per_layer: int,
    bound_a: float = 4.0,
) -> Growth:
    """Adsorbed and reflected counts of the ``inserted`` atoms (ids above ``n_slab``)."""
    slab_top = (
        float(atoms.z[atoms.ids <= n_slab].max()) if np.any(atoms.ids <= n_slab) else surface_top_a
    )
    z_new = np.sort(atoms.z[atoms.ids > n_slab])
    # the film grows upward from the slab: accept atoms continuous with it
    top = slab_top
    adsorbed = 0
    for z in z_new:
        if z <= top + bound_a:
            adsorbed += 1
            top = max(top, float(z))
        else:
            break
    return Growth(
        inserted=inserted,
        adsorbed=adsorbed,
        reflected=inserted - adsorbed,
        coverage_ml=adsorbed / atoms_per_layer,
        sticking=adsorbed / inserted if inserted else 0.0,
        film_top_a=top,
    )


def density_profile(
    atoms: Atoms, n_slab: int, area_a2: float, bin_a: float = 0.25
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Bin centres (Å) and number densities (1/Å³) of slab and deposited atoms along z."""
    lo, hi = float(atoms.z.min()) - 1.0, float(atoms.z.max()) + 1.0
    edges = np.arange(lo, hi + bin_a, bin_a)
    centres = 0.5 * (edges[1:] + edges[:-1])
    slab, _ = np.histogram(atoms.z[atoms.ids <= n_slab], edges)
    new, _ = np.histogram(atoms.z[atoms.ids > n_slab], edges)
    scale = 1.0 / (area_a2 * bin_a)
    return centres, slab * scale, new * scale


def profile_plot(
    path: Path, z: np.ndarray, slab: np.ndarray, new: np.ndarray, surface_a: float, title: str
) -> Path:
    """The density profile: slab and deposited atoms stacked, the initial surface marked."""
    # lazy: matplotlib takes about half a second to import; only the plot needs it
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazy: as above

    fig, ax = plt.subplots(figsize=(6.5, 3.8), dpi=110)
    ax.fill_between(z, 0, slab, step="mid", alpha=0.6, label="slab")
    ax.fill_between(z, slab, slab + new, step="mid", alpha=0.8, label="deposited")
    ax.axvline(surface_a, ls="--", lw=0.8, color="grey", label="initial surface")
    ax.set_xlabel("z (Å)")
    ax.set_ylabel("number density (Å⁻³)")
    ax.legend(fontsize=8)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
