"""The termination of a slab: where the cut falls within one period of the crystal.

A Miller plane of a crystal with several atoms per cell can be cut at more than one
height: diamond (111) between the close pair of planes of a bilayer (three bonds
broken per surface atom, the "glide" plane) or across the single bond that joins
two bilayers (one bond, the "shuffle" plane). :func:`fewest_broken_bonds` builds the
slab for every atom of the cell placed at the origin and keeps the first cut that
breaks the fewest nearest-neighbour bonds — the broken-bond rule for the
unreconstructed surface of lowest energy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simwright.builders.crystals import build_bulk
from simwright.builders.slabs import SlabSpec, build_slab
from simwright.structure import Structure


@dataclass(frozen=True)
class Termination:
    """A slab and the nearest-neighbour bonds its two faces break (in the cell)."""

    slab: Structure
    broken_bonds: int
    origin_atom: int


def broken_bonds(structure: Structure, bulk: Structure) -> int:
    """Nearest-neighbour bonds missing in ``structure`` against the ``bulk``'s coordination."""
    # lazy: ASE's neighbour list is only needed when a slab is cut
    from ase.neighborlist import neighbor_list

    distances = neighbor_list("d", bulk.to_ase(), float(np.cbrt(bulk.volume_a3 or 1.0)))
    cutoff = 1.1 * float(distances.min())
    bulk_cn = np.bincount(neighbor_list("i", bulk.to_ase(), cutoff), minlength=len(bulk))
    cn = np.bincount(neighbor_list("i", structure.to_ase(), cutoff), minlength=len(structure))
    return int(bulk_cn.max() * len(structure) - cn.sum())


def fewest_broken_bonds(spec: SlabSpec) -> Termination:
    """The slab of ``spec`` cut where it breaks the fewest nearest-neighbour bonds (the
    first such origin, so a crystal with one kind of cut keeps ASE's own)."""
    # lazy: ase.build takes ~1 s to import
    from ase.build import surface

    first = build_slab(spec)  # validates the spec
    cell = build_bulk(spec.bulk)
    best = Termination(first, broken_bonds(first, cell), 0)
    for origin in range(1, len(cell)):
        atoms = cell.to_ase()
        atoms.translate(-cell.positions[origin])
        atoms.wrap()
        cut = surface(atoms, spec.miller, spec.layers, vacuum=spec.vacuum_a / 2)
        cut = cut.repeat((*spec.repeat, 1))
        cut.pbc = (True, True, True)
        slab = Structure.from_ase(cut)
        bonds = broken_bonds(slab, cell)
        if bonds < best.broken_bonds:
            best = Termination(slab, bonds, origin)
    return best
