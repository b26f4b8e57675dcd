"""Structures for DFT requests: bulk crystals, surfaces, molecules in a box, 2D layers,
space groups with Wyckoff positions, user files and (with an API key) the Materials Project.

Everything is built with ASE and returned as an immutable
:class:`~simwright.structure.Structure` with its kind (``bulk``, ``slab``,
``molecule``, ``two_d``), which decides vacuum, k-points and corrections later.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from ase.data import atomic_numbers, reference_states
from pydantic import BaseModel, ConfigDict, Field

from simwright.errors import ValidationError
from simwright.structure import Structure

SystemKind = Literal["bulk", "slab", "molecule", "two_d"]

PROTOTYPES: dict[str, tuple[str, float]] = {
    "MgO": ("rocksalt", 4.212),
    "NiO": ("rocksalt", 4.177),
    "TiC": ("rocksalt", 4.328),
    "LiF": ("rocksalt", 4.027),
    "BN": ("zincblende", 3.615),
    "SiC": ("zincblende", 4.358),
    "AlAs": ("zincblende", 5.661),
    "GeC": ("zincblende", 4.61),
    "NiAl": ("cesiumchloride", 2.887),
    "FeAl": ("cesiumchloride", 2.909),
    "CoAl": ("cesiumchloride", 2.862),
    "Li2O": ("fluorite", 4.619),
    "NaCl": ("rocksalt", 5.640),
    "KCl": ("rocksalt", 6.293),
    "GaAs": ("zincblende", 5.653),
    "GaP": ("zincblende", 5.451),
    "InP": ("zincblende", 5.869),
    "ZnS": ("zincblende", 5.409),
    "CaF2": ("fluorite", 5.463),
    "CsCl": ("cesiumchloride", 4.123),
}
"""Binary compounds simwright can build by name: prototype and room-temperature a (Å)."""

TWO_D: dict[str, tuple[str, float]] = {
    "graphene": ("C2", 2.46),
    "hBN": ("BN", 2.50),
    "MoS2": ("MoS2", 3.18),
}
"""2D layers by name: formula and in-plane lattice constant (Å)."""

SURFACE_BUILDERS = {
    ("fcc", "111"),
    ("fcc", "100"),
    ("fcc", "110"),
    ("bcc", "100"),
    ("bcc", "110"),
    ("bcc", "111"),
    ("hcp", "0001"),
    ("diamond", "111"),
    ("diamond", "100"),
}


class StructureSpec(BaseModel):
    """What to build. ``kind`` selects the builder; the other fields feed it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["bulk", "surface", "molecule", "two_d", "spacegroup", "file", "materials_project"]
    name: str = Field("", description="element, formula, molecule or layer name, e.g. Si, MgO, CO")
    lattice: str | None = Field(None, description="fcc, bcc, hcp, diamond, rocksalt...")
    a_a: float | None = Field(None, gt=0, description="lattice constant (Å)")
    c_a: float | None = Field(None, gt=0, description="c lattice constant for hcp/wurtzite (Å)")
    facet: str | None = Field(None, description="surface Miller index, e.g. 111, 100, 0001")
    size: tuple[int, int, int] = Field((1, 1, 3), description="surface cell repeats and layers")
    vacuum_a: float | None = Field(None, gt=0, description="vacuum between periodic images (Å)")
    box_a: float | None = Field(None, gt=0, description="cubic box edge for a molecule (Å)")
    spacegroup: int | None = Field(None, ge=1, le=230)
    basis: tuple[tuple[str, tuple[float, float, float]], ...] = ()
    cellpar: tuple[float, float, float, float, float, float] | None = None
    path: str | None = Field(None, description="a CIF, POSCAR or extxyz file")
    material_id: str | None = Field(None, description="Materials Project id, e.g. mp-149")


class MaterialsProjectFetcher(Protocol):
    """Fetches a structure by Materials Project id (needs the user's API key)."""

    def __call__(self, material_id: str) -> Structure:
        """The structure of ``material_id``."""
        ...


@dataclass(frozen=True)
class BuiltStructure:
    """A structure, its kind and what was assumed to build it."""

    structure: Structure
    kind: SystemKind
    description: str
    assumed: tuple[str, ...] = ()
    vacuum_a: float | None = None


def _vacuum(spec: StructureSpec, default: float) -> float:
    vac = spec.vacuum_a if spec.vacuum_a is not None else default
    if vac < 10.0:
        raise ValidationError(f"vacuum of {vac} Å is too thin; use at least 10 Å")
    return vac


def reference_lattice(element: str) -> tuple[str, float, float | None]:
    """ASE's reference crystal of an element: (lattice, a, c)."""
    ref = reference_states[atomic_numbers[element]] or {}
    sym = ref.get("symmetry")
    if sym is None or "a" not in ref:
        raise ValidationError(f"no reference crystal for {element}; give lattice and a_a")
    c = ref.get("c/a")
    a = float(ref["a"])  # type: ignore[arg-type]
    return str(sym), a, (a * float(c) if c else None)  # type: ignore[arg-type]


def build_bulk(spec: StructureSpec) -> BuiltStructure:
    """A primitive bulk cell of an element or a known binary compound."""
    # lazy: ase.build takes ~1 s to import
    from ase.build import bulk

    notes: list[str] = []
    if spec.name in atomic_numbers:
        lat, a, c = reference_lattice(spec.name)
        lattice = spec.lattice or lat
        if spec.lattice is None:
            notes.append(f"structure: {spec.name} in its reference {lattice} lattice")
    elif spec.name in PROTOTYPES:
        lattice, a = PROTOTYPES[spec.name]
        c = None
        if spec.lattice not in (None, lattice):
            raise ValidationError(f"{spec.name} is built as {lattice}, not {spec.lattice}")
        notes.append(f"structure: {spec.name} as {lattice}")
    else:
        known = ", ".join(sorted(PROTOTYPES))
        raise ValidationError(
            f"cannot build bulk {spec.name!r}: give an element, one of {known}, "
            "a space group with Wyckoff positions, or a structure file"
        )
    a_use = spec.a_a or a
    if spec.a_a is None:
        notes.append(f"lattice constant: {a_use:g} Å (experimental reference)")
    kwargs: dict[str, Any] = {"a": a_use}
    if lattice in ("hcp", "wurtzite"):
        kwargs["c"] = spec.c_a or c
    try:
        atoms = bulk(spec.name, lattice, **kwargs)
    except (ValueError, KeyError, RuntimeError) as exc:
        raise ValidationError(f"cannot build {spec.name} as {lattice}: {exc}") from exc
    return BuiltStructure(
        Structure.from_ase(atoms), "bulk", f"bulk {spec.name} ({lattice})", tuple(notes)
    )


def build_surface(spec: StructureSpec) -> BuiltStructure:
    """A slab of an elemental crystal with vacuum along z (ASE's surface builders)."""
    # lazy: ase.build takes ~1 s to import
    import ase.build

    if spec.name not in atomic_numbers:
        raise ValidationError(f"surfaces are built for elements only, not {spec.name!r}")
    lat, a, c = reference_lattice(spec.name)
    lattice = spec.lattice or lat
    facet = spec.facet or {"hcp": "0001"}.get(lattice, "111" if lattice != "bcc" else "110")
    if (lattice, facet) not in SURFACE_BUILDERS:
        raise ValidationError(f"no builder for a {lattice}({facet}) surface")
    vac = _vacuum(spec, 10.0)
    builder = getattr(ase.build, f"{lattice}{facet}")
    kwargs: dict[str, Any] = {"size": spec.size, "vacuum": vac / 2, "a": spec.a_a or a}
    if lattice == "hcp":
        kwargs["c"] = spec.c_a or c
    atoms = builder(spec.name, **kwargs)
    nx, ny, layers = spec.size
    desc = f"{spec.name}({facet}) slab, {nx}×{ny}, {layers} layers, {vac:g} Å vacuum"
    return BuiltStructure(Structure.from_ase(atoms), "slab", desc, (f"structure: {desc}",), vac)


def build_molecule(spec: StructureSpec) -> BuiltStructure:
    """A molecule from ASE's G2 set, centred in a box with vacuum between images."""
    # lazy: ase.build takes ~1 s to import
    from ase.build import molecule
    from ase.collections import g2

    if spec.name not in g2.names:
        raise ValidationError(
            f"unknown molecule {spec.name!r}; ASE's G2 set names e.g. CO, H2O, CH4"
        )
    atoms = molecule(spec.name)
    if spec.box_a is not None:
        return _in_box(spec, atoms)
    vac = _vacuum(spec, 10.0)
    atoms.center(vacuum=vac / 2)
    atoms.pbc = False
    desc = f"{spec.name} molecule in a {vac:g} Å vacuum box"
    return BuiltStructure(Structure.from_ase(atoms), "molecule", desc, (f"structure: {desc}",), vac)


MIN_BOX_GAP_A = 6.0
"""Smallest gap between a molecule and its image accepted in a stated box (Å)."""


def _in_box(spec: StructureSpec, atoms: Any) -> BuiltStructure:
    """A molecule centred in the stated cubic box (a vacuum width is then not used)."""
    if spec.vacuum_a is not None:
        raise ValidationError("give either a box size or a vacuum width for a molecule, not both")
    box = float(spec.box_a)  # type: ignore[arg-type]
    extent = atoms.positions.max(axis=0) - atoms.positions.min(axis=0)
    gap = box - float(extent.max())
    if gap < MIN_BOX_GAP_A:
        raise ValidationError(
            f"a {box:g} Å box leaves only {gap:.1f} Å between {spec.name} and its images; "
            f"use at least {extent.max() + MIN_BOX_GAP_A:.0f} Å"
        )
    atoms.set_cell([box, box, box])
    atoms.center()
    atoms.pbc = False
    desc = f"{spec.name} molecule in a {box:g} Å cubic box"
    notes = [f"structure: {desc}"]
    if gap < 10.0:
        notes.append(f"box: {gap:.1f} Å between images, below the 10 Å usually converged")
    return BuiltStructure(Structure.from_ase(atoms), "molecule", desc, tuple(notes), gap)


def build_two_d(spec: StructureSpec) -> BuiltStructure:
    """A single layer (graphene, hBN, MoS2) with vacuum along z."""
    # lazy: ase.build takes ~1 s to import
    from ase.build import graphene, mx2

    if spec.name not in TWO_D:
        raise ValidationError(f"unknown 2D material {spec.name!r}; known: {', '.join(TWO_D)}")
    formula, a = TWO_D[spec.name]
    vac = _vacuum(spec, 15.0)
    if spec.name == "MoS2":
        atoms = mx2(formula=formula, kind="2H", a=spec.a_a or a, thickness=3.19, vacuum=vac / 2)
    else:
        atoms = graphene(formula=formula, a=spec.a_a or a, vacuum=vac / 2)
    desc = f"{spec.name} monolayer with {vac:g} Å vacuum"
    return BuiltStructure(Structure.from_ase(atoms), "two_d", desc, (f"structure: {desc}",), vac)


def build_spacegroup(spec: StructureSpec) -> BuiltStructure:
    """A crystal from a space group, Wyckoff positions and cell parameters."""
    # lazy: ase.spacegroup takes ~1 s to import
    from ase.spacegroup import crystal

    if spec.spacegroup is None or not spec.basis or spec.cellpar is None:
        raise ValidationError("a space-group structure needs spacegroup, basis and cellpar")
    symbols = [s for s, _ in spec.basis]
    positions = [p for _, p in spec.basis]
    try:
        atoms = crystal(symbols, positions, spacegroup=spec.spacegroup, cellpar=list(spec.cellpar))
    except Exception as exc:
        raise ValidationError(f"cannot build space group {spec.spacegroup}: {exc}") from exc
    desc = f"space group {spec.spacegroup}: {atoms.get_chemical_formula()}"
    return BuiltStructure(Structure.from_ase(atoms), "bulk", desc)


def read_structure_file(spec: StructureSpec) -> BuiltStructure:
    """A structure from a CIF, POSCAR or extxyz file (its kind guessed from its periodicity)."""
    # lazy: ase.io takes ~1 s to import
    from ase.io import read

    if not spec.path:
        raise ValidationError("a file structure needs 'path'")
    path = Path(spec.path)
    if not path.is_file():
        raise ValidationError(f"structure file {path} does not exist")
    try:
        atoms = read(path)
    except Exception as exc:
        raise ValidationError(f"cannot read {path}: {exc}") from exc
    if isinstance(atoms, list):
        atoms = atoms[-1]
    structure = Structure.from_ase(atoms)
    kind: SystemKind = (
        "bulk" if all(structure.pbc) else "slab" if any(structure.pbc) else "molecule"
    )
    return BuiltStructure(
        structure,
        kind,
        f"{structure.formula} from {path.name}",
        (f"structure: system kind '{kind}' from the file's periodicity",),
    )


def fetch_materials_project(
    spec: StructureSpec, fetcher: MaterialsProjectFetcher | None
) -> BuiltStructure:
    """A structure from the Materials Project through an injected fetcher."""
    if not spec.material_id:
        raise ValidationError("a Materials Project structure needs 'material_id' (e.g. mp-149)")
    if fetcher is None:
        raise ValidationError(
            f"fetching {spec.material_id} needs a Materials Project API key: configure one "
            "(simwright passes a fetcher built from it), or give the structure as a CIF file"
        )
    structure = fetcher(spec.material_id)
    return BuiltStructure(
        structure,
        "bulk",
        f"{structure.formula} ({spec.material_id})",
        (f"structure: {spec.material_id} from the Materials Project",),
    )


def build_structure(
    spec: StructureSpec, fetcher: MaterialsProjectFetcher | None = None
) -> BuiltStructure:
    """Build what ``spec`` describes."""
    builders: dict[str, Callable[[StructureSpec], BuiltStructure]] = {
        "bulk": build_bulk,
        "surface": build_surface,
        "molecule": build_molecule,
        "two_d": build_two_d,
        "spacegroup": build_spacegroup,
        "file": read_structure_file,
    }
    if spec.kind == "materials_project":
        return fetch_materials_project(spec, fetcher)
    return builders[spec.kind](spec)
