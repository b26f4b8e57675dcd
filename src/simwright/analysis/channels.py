"""Channels of a porous crystal on a grid: how many, and in how many directions each runs.

A grid point is reachable by the centre of a spherical probe of radius ``r_p`` when
no atom is closer than its radius plus ``r_p``. Reachable points are grouped into
connected regions inside one cell (6-neighbour connectivity), the regions joined
across the cell faces, and each periodic region's dimensionality is the rank of the
lattice translations it wraps around (0: a pocket; 1, 2, 3: channels running in one
direction, layers, a 3D network). The same notion as Zeo++'s channel dimensionality
(Willems et al. 2012); grid spacing decides how narrow a window is still seen.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Channels:
    """Periodic regions the probe reaches: the dimensionality of each channel
    (dimensionality ≥ 1), how many pockets (closed regions) there are, the grid used."""

    dimensionalities: tuple[int, ...]
    pockets: int
    grid: tuple[int, int, int]
    accessible_fraction: float

    @property
    def dimensionality(self) -> int:
        """The largest dimensionality of any channel (0 when there is none)."""
        return max(self.dimensionalities, default=0)


def accessible_grid(
    positions_a: np.ndarray,
    radii_a: np.ndarray,
    cell_a: np.ndarray,
    probe_radius_a: float,
    spacing_a: float = 0.3,
) -> np.ndarray:
    """Boolean grid (fractional, cell-aligned) of points the probe centre can reach."""
    # lazy: scipy.spatial takes ~0.3 s to import; requests that only plan never need it
    from scipy.spatial import cKDTree

    cell = np.asarray(cell_a, dtype=float)
    lengths = np.linalg.norm(cell, axis=1)
    shape = tuple(max(8, int(np.ceil(n / spacing_a))) for n in lengths)
    axes = [np.arange(n) / n for n in shape]
    frac = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
    points = frac @ cell
    shifts = np.array([(i, j, k) for i in (-1, 0, 1) for j in (-1, 0, 1) for k in (-1, 0, 1)])
    images = (shifts @ cell)[:, None, :]
    ok = np.ones(len(points), dtype=bool)
    radii = np.asarray(radii_a, dtype=float)
    for radius in np.unique(radii):
        atoms = (positions_a[radii == radius][None, :, :] + images).reshape(-1, 3)
        dist, _ = cKDTree(atoms).query(points, k=1)
        ok &= dist >= radius + probe_radius_a
    return ok.reshape(shape)


class _Offsets:
    """Union-find over regions that keeps each region's lattice offset to its root."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))
        self.offset = [np.zeros(3, dtype=int) for _ in range(n)]
        self.loops: dict[int, list[np.ndarray]] = {}

    def find(self, i: int) -> tuple[int, np.ndarray]:
        if self.parent[i] == i:
            return i, np.zeros(3, dtype=int)
        root, off = self.find(self.parent[i])
        self.parent[i] = root
        self.offset[i] = self.offset[i] + off
        return root, self.offset[i]

    def join(self, a: int, b: int, shift: np.ndarray) -> None:
        """Region ``b`` seen from ``a`` lies one lattice vector ``shift`` away."""
        ra, oa = self.find(a)
        rb, ob = self.find(b)
        if ra == rb:
            loop = oa + shift - ob
            if loop.any():
                self.loops.setdefault(ra, []).append(loop)
            return
        self.parent[rb] = ra
        self.offset[rb] = oa + shift - ob
        self.loops.setdefault(ra, []).extend(self.loops.pop(rb, []))


def channels(grid: np.ndarray) -> Channels:
    """Channels and pockets of a reachable-point grid (periodic in all three axes)."""
    # lazy: scipy.ndimage takes ~0.3 s to import; requests that only plan never need it
    from scipy import ndimage

    labels, n = ndimage.label(grid)
    sets = _Offsets(n + 1)
    for axis in range(3):
        last = np.take(labels, -1, axis=axis)
        first = np.take(labels, 0, axis=axis)
        both = (last > 0) & (first > 0)
        pairs = np.unique(np.stack([last[both], first[both]], axis=1), axis=0)
        shift = np.eye(3, dtype=int)[axis]
        for a, b in pairs:
            sets.join(int(a), int(b), shift)
    roots = {sets.find(i)[0] for i in range(1, n + 1)}
    dims = sorted(
        (int(np.linalg.matrix_rank(np.array(sets.loops[r]))) if r in sets.loops else 0)
        for r in roots
    )
    return Channels(
        dimensionalities=tuple(d for d in dims if d > 0),
        pockets=sum(1 for d in dims if d == 0),
        grid=(int(grid.shape[0]), int(grid.shape[1]), int(grid.shape[2])),
        accessible_fraction=float(grid.mean()),
    )
