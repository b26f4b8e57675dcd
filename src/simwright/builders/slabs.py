"""Surface slabs: a crystal cut along a Miller plane, with vacuum along z."""

from __future__ import annotations

from dataclasses import dataclass, replace

from simwright.builders.crystals import BulkSpec, build_bulk
from simwright.errors import ValidationError
from simwright.structure import Structure

MIN_VACUUM_A = 5.0
"""Thinner vacuum than this (Å) lets periodic images of a slab interact strongly."""


@dataclass(frozen=True)
class SlabSpec:
    """A slab of ``bulk`` cut along ``miller`` (h, k, l) with ``layers`` layers, repeated
    ``repeat`` = (nx, ny) in plane, and ``vacuum_a`` Å of vacuum between periodic images
    along the surface normal (z)."""

    bulk: BulkSpec
    miller: tuple[int, int, int] = (1, 1, 1)
    layers: int = 4
    vacuum_a: float = 10.0
    repeat: tuple[int, int] = (1, 1)


def build_slab(spec: SlabSpec) -> Structure:
    """The slab of ``spec`` from the conventional cell (ASE's general ``surface`` cutter)."""
    # lazy: ase.build takes ~1 s to import
    from ase.build import surface

    if len(spec.miller) != 3 or not any(spec.miller):
        raise ValidationError(f"a Miller index is three integers, not all zero: {spec.miller!r}")
    if spec.layers < 1:
        raise ValidationError(f"a slab needs at least one layer, got {spec.layers}")
    if spec.vacuum_a < MIN_VACUUM_A:
        raise ValidationError(
            f"vacuum of {spec.vacuum_a} Å is too thin; use at least {MIN_VACUUM_A} Å"
        )
    if len(spec.repeat) != 2 or min(spec.repeat) < 1:
        raise ValidationError(f"the in-plane repeat is two positive integers: {spec.repeat!r}")
    cubic = spec.bulk.conventional_atoms() is not None
    crystal = build_bulk(replace(spec.bulk, cubic=cubic))
    atoms = surface(crystal.to_ase(), spec.miller, spec.layers, vacuum=spec.vacuum_a / 2)
    atoms = atoms.repeat((*spec.repeat, 1))
    atoms.pbc = (True, True, True)
    return Structure.from_ase(atoms)
