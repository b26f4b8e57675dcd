"""Atom typing: a Structure matched molecule by molecule to a force field's templates."""

from __future__ import annotations

from dataclasses import dataclass

from simwright.errors import ValidationError
from simwright.forcefields.base import ForceField, MoleculeTemplate
from simwright.structure import Structure


@dataclass(frozen=True)
class Topology:
    """A Structure typed by a force field: per-atom types, charges, molecules, bonded terms.

    ``molecule_ids`` are renumbered 1..M in order of each molecule's first atom;
    bonds are ``(bond_type_id, i, j)``, angles ``(angle_type_id, i, j, k)``,
    dihedrals and impropers ``(type_id, i, j, k, l)`` with 0-based atom indices
    into the Structure.
    """

    type_ids: tuple[int, ...]
    charges_e: tuple[float, ...]
    molecule_ids: tuple[int, ...]
    bonds: tuple[tuple[int, int, int], ...]
    angles: tuple[tuple[int, int, int, int], ...]
    dihedrals: tuple[tuple[int, int, int, int, int], ...] = ()
    impropers: tuple[tuple[int, int, int, int, int], ...] = ()

    @property
    def net_charge_e(self) -> float:
        """The total charge (e)."""
        return float(sum(self.charges_e))


def assign_types(structure: Structure, forcefield: ForceField) -> Topology:
    """Type every atom of ``structure`` by matching its molecules to the templates.

    Atoms sharing a molecule id form a molecule, ordered by atom index; without
    molecule ids every atom is its own molecule. A molecule matches the first
    template whose element sequence equals its own (e.g. O, H, H for water).
    """
    groups = _molecule_groups(structure)
    type_ids = [0] * len(structure)
    mol_ids = [0] * len(structure)
    bonds: list[tuple[int, int, int]] = []
    angles: list[tuple[int, int, int, int]] = []
    dihedrals: list[tuple[int, int, int, int, int]] = []
    impropers: list[tuple[int, int, int, int, int]] = []
    for number, atoms in enumerate(groups, start=1):
        template = _match_template(structure, atoms, forcefield, number)
        for position, atom in enumerate(atoms):
            type_ids[atom] = forcefield.type_id(template.atom_types[position])
            mol_ids[atom] = number
        bonds += [(forcefield.bond_type_id(t), atoms[i], atoms[j]) for i, j, t in template.bonds]
        angles += [
            (forcefield.angle_type_id(t), atoms[i], atoms[j], atoms[k])
            for i, j, k, t in template.angles
        ]
        dihedrals += [
            (forcefield.dihedral_type_id(t), atoms[i], atoms[j], atoms[k], atoms[m])
            for i, j, k, m, t in template.dihedrals
        ]
        impropers += [
            (forcefield.improper_type_id(t), atoms[i], atoms[j], atoms[k], atoms[m])
            for i, j, k, m, t in template.impropers
        ]
    charges = tuple(forcefield.atom_types[t - 1].charge_e for t in type_ids)
    return Topology(
        tuple(type_ids),
        charges,
        tuple(mol_ids),
        tuple(bonds),
        tuple(angles),
        tuple(dihedrals),
        tuple(impropers),
    )


def _molecule_groups(structure: Structure) -> list[list[int]]:
    if structure.molecule_ids is None:
        return [[i] for i in range(len(structure))]
    groups: dict[int, list[int]] = {}
    for atom, mol in enumerate(structure.molecule_ids):
        groups.setdefault(mol, []).append(atom)
    return sorted(groups.values(), key=lambda atoms: atoms[0])


def _match_template(
    structure: Structure, atoms: list[int], forcefield: ForceField, number: int
) -> MoleculeTemplate:
    elements = tuple(structure.symbols[i] for i in atoms)
    for template in forcefield.molecules:
        if template_elements(forcefield, template) == elements:
            return template
    known = "; ".join(
        f"{m.name} = {','.join(template_elements(forcefield, m))}" for m in forcefield.molecules
    )
    hint = "" if structure.molecule_ids is not None else " (the structure has no molecule ids)"
    raise ValidationError(
        f"molecule {number} (atoms {atoms[0]}..{atoms[-1]}) with elements {','.join(elements)} "
        f"matches no molecule of force field {forcefield.name!r}{hint}; known: {known}"
    )


def template_elements(forcefield: ForceField, template: MoleculeTemplate) -> tuple[str, ...]:
    """The element sequence of a molecule template."""
    return tuple(
        forcefield.atom_types[forcefield.type_id(t) - 1].element for t in template.atom_types
    )
