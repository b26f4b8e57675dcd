"""The termination of a slab: the cut that breaks the fewest nearest-neighbour bonds."""

from __future__ import annotations

from simwright.builders import BulkSpec, SlabSpec, build_bulk, build_slab
from simwright.builders.terminations import broken_bonds, fewest_broken_bonds


def test_diamond_111_is_cut_at_the_shuffle_plane_not_the_glide_plane() -> None:
    spec = SlabSpec(BulkSpec("Si", "diamond", 5.431, cubic=True), (1, 1, 1), 3, 12.0)
    glide = build_slab(spec)  # ASE's own cut: three bonds broken per surface atom
    cell = build_bulk(spec.bulk)
    best = fewest_broken_bonds(spec)
    surface_atoms = 4  # per face of the cell
    assert broken_bonds(glide, cell) == 3 * 2 * surface_atoms
    assert best.broken_bonds == 1 * 2 * surface_atoms
    assert len(best.slab) == len(glide)


def test_a_crystal_with_one_kind_of_cut_keeps_ases_own() -> None:
    spec = SlabSpec(BulkSpec("Cu", "fcc", 3.615, cubic=True), (1, 0, 0), 3, 12.0)
    best = fewest_broken_bonds(spec)
    assert best.origin_atom == 0
    assert best.slab == build_slab(spec)
    assert best.broken_bonds == 4 * 2 * 2  # fcc (100): 4 bonds broken per atom, 2 per face
