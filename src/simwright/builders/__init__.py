"""Structure builders: typed specs in, :class:`~simwright.structure.Structure` out.

Pure functions over ASE's builders (no files, no records): bulk crystals by
prototype and supercells (:mod:`.crystals`), surface slabs (:mod:`.slabs`),
point defects (:mod:`.defects`), compound prototypes from Wyckoff positions
(:mod:`.wyckoff`), cited crystals (:mod:`.cited`), CIF files (:mod:`.cif`),
molecules of the library (:mod:`.molecules`),
one entry point for all of them (:mod:`.dispatch`), and packed liquids
(:mod:`.liquids`, the one spec that needs an engine, PACKMOL). Steps wrap them in
:mod:`simwright.steps.build`, which records what was built. Names load on first use
(:mod:`simwright.lazy`): building a crystal does not import PACKMOL's adapter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simwright.lazy import lazy_exports

if TYPE_CHECKING:
    from simwright.builders.cif import CifSpec, read_cif
    from simwright.builders.cited import CITED, CitedSpec, build_cited
    from simwright.builders.crystals import (
        BulkSpec,
        SupercellSpec,
        build_bulk,
        build_supercell,
        supercell,
    )
    from simwright.builders.defects import (
        VacancySpec,
        build_vacancy,
        interstitial,
        substitute,
        vacancy,
    )
    from simwright.builders.dispatch import StructureSpec, build_structure, describe_spec
    from simwright.builders.liquids import LiquidSpec, pack_liquid
    from simwright.builders.molecules import MoleculeSpec, build_molecule
    from simwright.builders.slabs import SlabSpec, build_slab

_WHERE = {
    "CifSpec": "cif",
    "read_cif": "cif",
    "CITED": "cited",
    "CitedSpec": "cited",
    "build_cited": "cited",
    "BulkSpec": "crystals",
    "SupercellSpec": "crystals",
    "build_bulk": "crystals",
    "build_supercell": "crystals",
    "supercell": "crystals",
    "VacancySpec": "defects",
    "build_vacancy": "defects",
    "interstitial": "defects",
    "substitute": "defects",
    "vacancy": "defects",
    "StructureSpec": "dispatch",
    "build_structure": "dispatch",
    "describe_spec": "dispatch",
    "LiquidSpec": "liquids",
    "pack_liquid": "liquids",
    "MoleculeSpec": "molecules",
    "build_molecule": "molecules",
    "SlabSpec": "slabs",
    "build_slab": "slabs",
}

__all__ = [
    "CITED",
    "BulkSpec",
    "CifSpec",
    "CitedSpec",
    "LiquidSpec",
    "MoleculeSpec",
    "SlabSpec",
    "StructureSpec",
    "SupercellSpec",
    "VacancySpec",
    "build_bulk",
    "build_cited",
    "build_molecule",
    "build_slab",
    "build_structure",
    "build_supercell",
    "build_vacancy",
    "describe_spec",
    "interstitial",
    "pack_liquid",
    "read_cif",
    "substitute",
    "supercell",
    "vacancy",
]

__getattr__ = lazy_exports(__name__, _WHERE)
