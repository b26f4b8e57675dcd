"""Van der Waals volumes of molecules: the volume of the union of atomic Bondi spheres.

Radii (Å) are A. Bondi, J. Phys. Chem. 68, 441 (1964). Li is 1.82 Å, also from Bondi's
table (one of the 28 main-group elements he covered, derived from crystal data; Mantina et
al., J. Phys. Chem. A 113, 5806 (2009) keep Bondi's values and add the 16 he lacked).
These are neutral-atom radii: a bare Li⁺ is far smaller (Shannon's six-coordinate ionic
radius is 0.76 Å), so its van der Waals volume here overstates its size.

The union volume is an exact identity evaluated by quasi-Monte Carlo: for every atom i,
``V = Σ_i V_i ⟨1/c(x)⟩``, the average over points x of sphere i of one over the number of
spheres containing x. A fixed (unscrambled) Halton sequence makes it deterministic; an
isolated sphere comes out exact and overlaps are accurate to about 0.1 %.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

import numpy as np

from simwright.errors import ValidationError
from simwright.molecules.library import Molecule
from simwright.structure import Structure

BONDI_RADII_A: Mapping[str, float] = MappingProxyType(
    {
        "H": 1.20,
        "He": 1.40,
        "Li": 1.82,
        "C": 1.70,
        "N": 1.55,
        "O": 1.52,
        "F": 1.47,
        "Ne": 1.54,
        "Na": 2.27,
        "Mg": 1.73,
        "Si": 2.10,
        "P": 1.80,
        "S": 1.80,
        "Cl": 1.75,
        "Ar": 1.88,
        "K": 2.75,
        "As": 1.85,
        "Se": 1.90,
        "Br": 1.85,
        "Kr": 2.02,
        "Te": 2.06,
        "I": 1.98,
        "Xe": 2.16,
    }
)
"""Van der Waals radii in Å (Bondi 1964; main-group elements he covered)."""

POINTS_PER_SPHERE = 16384
"""Quasi-random points sampled inside each atomic sphere."""


def bondi_radius_a(symbol: str) -> float:
    """The Bondi radius of an element in Å; :class:`ValidationError` if it has none."""
    try:
        return BONDI_RADII_A[symbol]
    except KeyError:
        raise ValidationError(
            f"no Bondi van der Waals radius for {symbol!r}; known: {', '.join(BONDI_RADII_A)}"
        ) from None


def vdw_volume_a3(molecule: Molecule | Structure) -> float:
    """Volume (Å³) of the union of the Bondi spheres of the atoms; cached per geometry."""
    structure = molecule.structure if isinstance(molecule, Molecule) else molecule
    radii = tuple(bondi_radius_a(s) for s in structure.symbols)
    coords = tuple(float(v) for v in np.round(structure.positions, 6).ravel())
    return _union_volume(radii, coords)


@lru_cache(maxsize=256)
def _union_volume(radii: tuple[float, ...], coords: tuple[float, ...]) -> float:
    centres = np.array(coords).reshape(-1, 3)
    r = np.array(radii)
    unit = _unit_ball_points(POINTS_PER_SPHERE)
    total = 0.0
    for centre, radius in zip(centres, r, strict=True):
        points = centre + radius * unit
        d2 = ((points[:, None, :] - centres[None, :, :]) ** 2).sum(axis=-1)
        cover = (d2 <= (r**2)[None, :]).sum(axis=1)
        sphere = 4.0 / 3.0 * np.pi * radius**3
        total += sphere * float(np.mean(1.0 / np.maximum(cover, 1)))
    return total


def _radical_inverse(n: int, base: int) -> np.ndarray:
    """Van der Corput points 1..n in ``base`` (one axis of an unscrambled Halton sequence)."""
    index = np.arange(1, n + 1)
    out = np.zeros(n)
    scale = 1.0
    while index.any():
        scale /= base
        out += scale * (index % base)
        index //= base
    return out


@lru_cache(maxsize=4)
def _unit_ball_points(n: int) -> np.ndarray:
    """n points uniformly filling the unit ball, from a fixed 3-d Halton sequence."""
    u = np.stack([_radical_inverse(n, base) for base in (2, 3, 5)], axis=1)
    radius = np.cbrt(u[:, 0])
    cos_t = 1.0 - 2.0 * u[:, 1]
    sin_t = np.sqrt(np.clip(1.0 - cos_t**2, 0.0, None))
    phi = 2.0 * np.pi * u[:, 2]
    points = radius[:, None] * np.column_stack((sin_t * np.cos(phi), sin_t * np.sin(phi), cos_t))
    points.setflags(write=False)
    return points
