"""Physical conditions of a DFT task, decided from the structure, the request and the files.

A condition (metal, spin_polarized, spin_orbit, relax, vc_relax, hybrid, two_d,
slab, molecule, hubbard, vdw) is a node of the knowledge graph; activating it
switches on the pw.x variables it needs.
"""

from __future__ import annotations

from dataclasses import dataclass

from simwright.dft.request import DftRequest
from simwright.dft.structures import BuiltStructure
from simwright.engines.espresso.pseudo_library import PseudoSelection

NON_METALS = frozenset(
    {"H", "He", "B", "C", "N", "O", "F", "Ne", "Si", "P", "S", "Cl", "Ar"}
    | {"Ge", "As", "Se", "Br", "Kr", "Sb", "Te", "I", "Xe", "Rn"}
)
"""Elements that are not metals (metalloids counted as non-metals)."""

MAGNETIC_MOMENTS: dict[str, float] = {"Fe": 0.4, "Co": 0.4, "Ni": 0.3}
"""Elements started spin-polarized by default, with their starting_magnetization."""

SEMIMETALS = frozenset({"graphene"})
"""Named systems treated with smearing although they contain no metal."""


@dataclass(frozen=True)
class ConditionReport:
    """The activated conditions and a note for each decision taken without being asked."""

    conditions: tuple[str, ...]
    assumed: tuple[str, ...]

    def has(self, condition: str) -> bool:
        """True when ``condition`` is active."""
        return condition in self.conditions


def is_metal(built: BuiltStructure, name: str = "") -> bool:
    """Metallic when every element is a metal (an elemental metal, an alloy) or a semimetal."""
    if built.kind == "molecule":
        return False
    if name in SEMIMETALS:
        return True
    return all(s not in NON_METALS for s in set(built.structure.symbols))


def magnetic_species(built: BuiltStructure) -> list[str]:
    """Magnetic elements present in a periodic structure."""
    if built.kind == "molecule":
        return []
    return sorted({s for s in built.structure.symbols if s in MAGNETIC_MOMENTS})


def decide_conditions(
    request: DftRequest, built: BuiltStructure, pseudos: PseudoSelection
) -> ConditionReport:
    """The conditions of ``request`` on ``built`` with the chosen pseudopotentials."""
    found: list[str] = []
    notes: list[str] = []
    metal = is_metal(built, request.structure.name)
    if request.smearing is not None:
        metal = request.smearing != "none"
    if metal:
        found.append("metal")
        if request.smearing is None:
            notes.append(
                f"metal: {built.structure.formula} is treated as a metal (smearing "
                f"{request.smearing_ry:g} Ry, Marzari-Vanderbilt)"
            )
    magnetic = magnetic_species(built)
    stated = request.magnetic_order is not None or (request.multiplicity or 1) > 1
    if request.spin is True or stated or (request.spin is None and magnetic):
        found.append("spin_polarized")
        if request.spin is None and not stated:
            notes.append(
                f"spin: {', '.join(magnetic)} started ferromagnetic (collinear, nspin=2); "
                "say 'non-magnetic' to switch it off"
            )
    if pseudos.spin_orbit:
        found.append("spin_orbit")
    if request.calculation == "relax":
        found.append("relax")
        if built.kind == "bulk" and request.rattle_a == 0:
            notes.append(
                "relax: in an ideal crystal the forces vanish by symmetry, so a fixed-cell "
                "relaxation keeps the atoms in place; use vc-relax to relax the cell"
            )
    if request.calculation == "vc-relax":
        found.append("vc_relax")
    if request.hybrid is not None:
        found.append("hybrid")
    kind_condition = {"slab": "slab", "molecule": "molecule", "two_d": "two_d"}.get(built.kind)
    if kind_condition:
        found.append(kind_condition)
    if request.hubbard_u_ev or request.hubbard:
        found.append("hubbard")
    if request.vdw is not None:
        found.append("vdw")
    return ConditionReport(tuple(found), tuple(notes))
