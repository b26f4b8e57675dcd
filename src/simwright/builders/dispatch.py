"""One entry point for every pure structure spec."""

from __future__ import annotations

from simwright.builders.cif import CifSpec, read_cif
from simwright.builders.cited import CitedSpec, build_cited
from simwright.builders.crystals import BulkSpec, SupercellSpec, build_bulk, build_supercell
from simwright.builders.defects import VacancySpec, build_vacancy
from simwright.builders.molecules import MoleculeSpec, build_molecule
from simwright.builders.slabs import SlabSpec, build_slab
from simwright.structure import Structure

StructureSpec = (
    BulkSpec | SupercellSpec | SlabSpec | VacancySpec | MoleculeSpec | CitedSpec | CifSpec
)
"""A structure built without an engine."""


def build_structure(spec: StructureSpec) -> Structure:
    """The structure described by ``spec``."""
    if isinstance(spec, BulkSpec):
        return build_bulk(spec)
    if isinstance(spec, SupercellSpec):
        return build_supercell(spec)
    if isinstance(spec, SlabSpec):
        return build_slab(spec)
    if isinstance(spec, VacancySpec):
        return build_vacancy(spec)
    if isinstance(spec, CitedSpec):
        return build_cited(spec)
    if isinstance(spec, CifSpec):
        return read_cif(spec)
    return build_molecule(spec)


def describe_spec(spec: StructureSpec) -> str:
    """A short description of what ``spec`` builds, for records."""
    if isinstance(spec, BulkSpec):
        proto = spec.prototype or "reference"
        return f"bulk {spec.formula} ({proto}{', cubic cell' if spec.cubic else ''})"
    if isinstance(spec, SupercellSpec):
        return f"{'×'.join(map(str, spec.repeat))} supercell of {describe_spec(spec.bulk)}"
    if isinstance(spec, SlabSpec):
        hkl = "".join(map(str, spec.miller))
        return f"{spec.bulk.formula}({hkl}) slab, {spec.layers} layers, {spec.vacuum_a:g} Å vacuum"
    if isinstance(spec, VacancySpec):
        return f"vacancy at atom {spec.index} in the {describe_spec(spec.host)}"
    if isinstance(spec, CitedSpec):
        return f"{'×'.join(map(str, spec.repeat))} cell of {spec.name} (cited structure)"
    if isinstance(spec, CifSpec):
        return f"{'×'.join(map(str, spec.repeat))} cell of the crystal in {spec.path}"
    return f"{spec.name} molecule, {spec.vacuum_a:g} Å vacuum"
