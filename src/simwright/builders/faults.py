"""Planar faults: an fcc (111) slab whose upper half is shifted rigidly in the plane.

:func:`fcc111_stack` builds an orthogonal cell x = [1-10], y = [11-2], z = [111]
(two atoms per (111) plane) with vacuum along z; :func:`partial_direction` finds
the sign of [11-2] along which a shift of a/6<112> (the Shockley partial) turns the
stacking ...ABC|ABC... into the intrinsic fault ...ABC|ABABC... rather than
putting a plane on top of its neighbour; :func:`shift_upper` displaces every atom
above the middle of the slab.
"""

from __future__ import annotations

import math

import numpy as np

from simwright.errors import ValidationError
from simwright.structure import Structure


def fcc111_stack(element: str, a: float, n_planes: int, vacuum_a: float) -> Structure:
    """An fcc slab of ``n_planes`` (111) planes (a multiple of 3), two atoms per plane,
    x = [1-10], y = [11-2], z = [111], with ``vacuum_a`` Å of vacuum along z."""
    # lazy: ase.lattice is only needed to build the oriented cell
    from ase.lattice.cubic import FaceCenteredCubic

    if n_planes < 6 or n_planes % 3:
        raise ValidationError(f"the stack needs a multiple of 3 planes, at least 6: {n_planes}")
    atoms = FaceCenteredCubic(
        directions=[[1, -1, 0], [1, 1, -2], [1, 1, 1]],
        size=(1, 1, n_planes // 3),
        symbol=element,
        latticeconstant=a,
        pbc=True,
    )
    cell = np.array(atoms.get_cell())
    cell[2, 2] += vacuum_a
    atoms.set_cell(cell)
    atoms.translate((0.0, 0.0, vacuum_a / 2))
    return Structure.from_ase(atoms)


def partial_length(a: float) -> float:
    """|a/6<112>|, the Burgers vector of a Shockley partial (Å)."""
    return a / math.sqrt(6.0)


def _plane_heights(structure: Structure) -> np.ndarray:
    z = np.sort(structure.positions[:, 2])
    breaks = np.flatnonzero(np.diff(z) > 0.1)
    return np.array([z[0], *z[breaks + 1]])


def cut_height(structure: Structure) -> float:
    """The height halfway between the two middle planes of the stack."""
    heights = _plane_heights(structure)
    mid = len(heights) // 2
    return float((heights[mid - 1] + heights[mid]) / 2)


def _is_lattice_vector(v: np.ndarray, basis: np.ndarray) -> bool:
    frac = np.linalg.solve(basis.T, v)
    return bool(np.allclose(frac, np.round(frac), atol=1e-4))


def partial_direction(structure: Structure, a: float) -> np.ndarray:
    """The shift (Å, along ±y) of length a/√6 that makes the intrinsic stacking fault
    at :func:`cut_height`: the in-plane step from the plane below the cut to the plane
    above it, continued once more."""
    heights = _plane_heights(structure)
    cut = cut_height(structure)
    below = heights[heights < cut][-1]
    above = heights[heights > cut][0]
    pos = structure.positions
    p_below = pos[np.isclose(pos[:, 2], below, atol=0.05)][0]
    p_above = pos[np.isclose(pos[:, 2], above, atol=0.05)][0]
    step = (p_above - p_below)[:2]
    cell = structure.cell
    # in-plane lattice: x period, and the second atom of a plane (centred rectangle)
    basis = np.array([cell[0, :2], (cell[0, :2] + cell[1, :2]) / 2])
    b = partial_length(a)
    for sign in (1.0, -1.0):
        if _is_lattice_vector(step - np.array([0.0, sign * b]), basis):
            return np.array([0.0, sign * b, 0.0])
    raise ValidationError("the planes around the cut are not an fcc (111) stacking")


def shift_upper(structure: Structure, shift: np.ndarray) -> Structure:
    """``structure`` with every atom above :func:`cut_height` displaced by ``shift``."""
    upper = structure.positions[:, 2] > cut_height(structure)
    positions = structure.positions.copy()
    positions[upper] += shift
    return structure.with_positions(positions)
