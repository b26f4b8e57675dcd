"""Collinear magnetic orders and Hubbard U values for DFT requests.

An antiferromagnet needs a cell that holds both spins and two species of one element
("Fe1", "Fe2") with opposite starting magnetizations. Built here:

* **bcc metals** (Fe, Cr): the two-atom simple-cubic (B2-like) conventional cell, the
  corner atom up and the body centre down (AFM-I of bcc; the commensurate model of Cr's
  spin-density wave).
* **rock-salt monoxides** (NiO, MnO, CoO, FeO): AFM-II, ferromagnetic (111) planes of
  metal alternating along [111], in the four-atom rhombohedral cell with vectors
  a(1, ½, ½), a(½, 1, ½), a(½, ½, 1) (Roth, Phys. Rev. 110, 1333 (1958); the cell of
  Dudarev et al., Phys. Rev. B 57, 1505 (1998)).

Other antiferromagnets are refused by name (no cell is guessed).

Hubbard U: values given in the request are used as given; "+U" alone takes the
Materials Project values for the transition metals of oxides and fluorides, fitted to
oxide formation enthalpies as in Wang, Maxisch and Ceder, Phys. Rev. B 73, 195107
(2006), and tabulated by Jain et al., Phys. Rev. B 84, 045115 (2011) (read from
pymatgen's ``MPRelaxSet.yaml``, ``LDAUU``). They were fitted for PBE with VASP's PAW
files; with other pseudopotentials they are a starting point, not a transferable
constant (the report says so).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from simwright.dft.request import correlated_elements
from simwright.dft.structures import BuiltStructure, reference_lattice
from simwright.errors import ValidationError
from simwright.structure import Structure

MP_HUBBARD_U_EV: dict[str, float] = {
    "Co": 3.32,
    "Cr": 3.7,
    "Fe": 5.3,
    "Mn": 3.9,
    "Mo": 4.38,
    "Ni": 6.2,
    "V": 3.25,
    "W": 6.2,
}
"""Materials Project U (eV) for oxides and fluorides (pymatgen MPRelaxSet, LDAUU)."""

HUBBARD_TABLE_CITATION = (
    "U from the Materials Project table (pymatgen MPRelaxSet): A. Jain et al., Phys. Rev. B "
    "84, 045115 (2011), fitted as in L. Wang, T. Maxisch, G. Ceder, Phys. Rev. B 73, "
    "195107 (2006)"
)

ROCKSALT_MONOXIDES = frozenset({"NiO", "MnO", "CoO", "FeO"})
"""Rock-salt monoxides built with AFM-II order."""


@dataclass(frozen=True)
class Ordered:
    """A structure with a species name per atom and the sign of each species' moment."""

    built: BuiltStructure
    labels: tuple[str, ...]
    signs: dict[str, int]


def _labelled(built: BuiltStructure, structure: Structure, up: set[int], note: str) -> Ordered:
    """Label the atoms of the magnetic element (the one of the atoms in ``up``): ``X1`` up,
    ``X2`` down; the other elements keep their symbol."""
    metal = structure.symbols[min(up)]
    labels = [
        (f"{sym}{1 if i in up else 2}" if sym == metal else sym)
        for i, sym in enumerate(structure.symbols)
    ]
    signs = {lab: (1 if lab.endswith("1") else -1) for lab in labels if lab[-1].isdigit()}
    new = replace(
        built,
        structure=structure,
        description=f"{built.description}, antiferromagnetic ({note})",
        assumed=(*built.assumed, f"magnetic order: {note}"),
    )
    return Ordered(new, tuple(labels), signs)


def _bcc_afm(built: BuiltStructure, element: str) -> Ordered:
    a = float(np.cbrt(2 * built.structure.volume_a3))  # type: ignore[operator]
    structure = Structure(
        (element, element),
        np.array([[0.0, 0.0, 0.0], [a / 2, a / 2, a / 2]]),
        np.eye(3) * a,
        (True, True, True),
    )
    return _labelled(built, structure, {0}, "two-atom cubic cell, corner up, centre down")


def _rocksalt_afm2(built: BuiltStructure, metal: str, anion: str) -> Ordered:
    a = float(np.cbrt(4 * built.structure.volume_a3))  # type: ignore[operator]
    cell = a * np.array([[1.0, 0.5, 0.5], [0.5, 1.0, 0.5], [0.5, 0.5, 1.0]])
    positions = a * np.array([[0, 0, 0], [0.5, 0.5, 0], [0.5, 0.5, 0.5], [1.0, 1.0, 0.5]])
    structure = Structure((metal, metal, anion, anion), positions, cell, (True, True, True))
    return _labelled(
        built, structure, {0}, "AFM-II, (111) planes alternating, four-atom rhombohedral cell"
    )


def antiferromagnetic(built: BuiltStructure, name: str, lattice: str | None) -> Ordered:
    """The antiferromagnetic cell of ``built`` (refused by name where none is known)."""
    if built.kind != "bulk":
        raise ValidationError(
            "antiferromagnetic order is built for bulk crystals only; a slab, layer or "
            "molecule with opposite spins needs a structure of its own"
        )
    if name in ROCKSALT_MONOXIDES:
        return _rocksalt_afm2(built, name[:-1], "O")
    elements = set(built.structure.symbols)
    if len(elements) == 1:
        element = elements.pop()
        lat = lattice or reference_lattice(element)[0]
        if lat == "bcc":
            return _bcc_afm(built, element)
    raise ValidationError(
        f"antiferromagnetic {name}: simwright builds the order for bcc metals (Fe, Cr) and the "
        f"rock-salt monoxides ({', '.join(sorted(ROCKSALT_MONOXIDES))}) only; "
        "for another order give a spec file with the structure and starting magnetizations"
    )


def hubbard_values(
    formula_elements: list[str], given: dict[str, float], use_table: bool
) -> tuple[dict[str, float], dict[str, str]]:
    """Element -> U (eV) and element -> where it came from: the given values, then (with
    ``use_table``) the table's for the other transition metals of an oxide or fluoride."""
    values = dict(given)
    sources = {e: "given in the request" for e in given}
    if not use_table:
        return values, sources
    metals = [e for e in correlated_elements("".join(formula_elements)) if e not in values]
    if not metals:
        if not values:
            raise ValidationError("DFT+U needs a d or f element to put U on")
        return values, sources
    if not {"O", "F"} & set(formula_elements):
        raise ValidationError(
            f"the tabulated U values are for oxides and fluorides; give U for "
            f"{', '.join(metals)} (e.g. 'U = 4 eV on {metals[0]}')"
        )
    missing = [e for e in metals if e not in MP_HUBBARD_U_EV]
    if missing:
        raise ValidationError(
            f"no tabulated U for {', '.join(missing)}; give its value (e.g. 'U = 4 eV on "
            f"{missing[0]}')"
        )
    for e in metals:
        values[e] = MP_HUBBARD_U_EV[e]
        sources[e] = f"Hubbard U: {e} {MP_HUBBARD_U_EV[e]} eV; {HUBBARD_TABLE_CITATION}"
    return values, sources
