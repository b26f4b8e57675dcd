"""An OPLS-AA :class:`ForceField` for a set of library molecules.

The bonded terms follow from each molecule's reference geometry: atoms closer than
1.2 × the sum of their covalent radii are bonded; every bonded triple is an angle
(except a triple the geometry holds near 180° when its parameter's θ₀ is below
170°, i.e. the trans F–P–F pairs of PF₆⁻, which the twelve cis angles already hold);
every bonded quadruple is a proper dihedral unless its central bond touches a linear
centre; a carbonyl carbon (class C with three neighbours) gets one planar improper.
Each term takes the parameter of its classes (read forwards or backwards); a term
without a parameter is refused by name, never guessed.

OPLS-AA conventions: geometric mixing of σ and ε, 1-4 pairs scaled by 0.5 (LJ and
Coulomb), 1-2 and 1-3 pairs excluded, LJ and real-space Coulomb cut at ``cutoff_a``
with the analytic LJ tail correction, PPPM for the long range. Ionic charges are
multiplied by ``ion_charge_scale`` (1 = full charges; 0.8 is a common choice that
mimics electronic screening in non-polarisable electrolyte models).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from itertools import combinations

import numpy as np
from ase.data import atomic_numbers, covalent_radii

from simwright.errors import ValidationError
from simwright.forcefields.base import (
    EV_PER_KJ_MOL,
    AngleType,
    AtomType,
    BondType,
    ForceField,
    KSpace,
    LJParams,
    MoleculeTemplate,
    PairStyle,
)
from simwright.forcefields.opls.molecules import OplsMolecule, opls_entry
from simwright.forcefields.opls.parameters import (
    ANGLES,
    ATOM_TYPES,
    BONDS,
    DIHEDRALS,
    IMPROPER_CARBONYL_KJ,
    LINEAR_CLASSES,
    SOURCES,
    Stretch,
    Torsion,
)
from simwright.forcefields.torsions import DihedralType, ImproperType, rb_to_fourier_kj
from simwright.molecules import get_molecule

BOND_FACTOR = 1.2
"""Atoms closer than this times the sum of their covalent radii are bonded."""

OPLS_SPECIAL = (0.0, 0.0, 0.5)
"""OPLS-AA scaling of 1-2, 1-3 and 1-4 non-bonded pairs (LJ and Coulomb alike)."""


def opls_aa(
    molecules: Sequence[str],
    *,
    ion_charge_scale: float = 1.0,
    cutoff_a: float = 10.0,
    pppm_accuracy: float = 1.0e-5,
) -> ForceField:
    """OPLS-AA for the library molecules ``molecules`` (each a name of the library)."""
    if not 0 < ion_charge_scale <= 1:
        raise ValidationError(f"ion_charge_scale must lie in (0, 1], got {ion_charge_scale}")
    entries = [opls_entry(get_molecule(name).name) for name in dict.fromkeys(molecules)]
    builder = _Builder(ion_charge_scale)
    templates = tuple(builder.template(entry) for entry in entries)
    scaled = f", ionic charges × {ion_charge_scale:g}" if ion_charge_scale != 1 else ""
    used = sorted({ATOM_TYPES[t].source for e in entries for t in e.types} | builder.sources)
    return ForceField(
        name="opls_aa",
        atom_types=tuple(builder.atom_types.values()),
        molecules=templates,
        pair_style=PairStyle("lj/cut/coul/long", cutoff_a, tail=True),
        reference="; ".join(SOURCES[s] for s in used),
        mixing="geometric",
        bond_types=tuple(builder.bond_types.values()),
        angle_types=tuple(builder.angle_types.values()),
        dihedral_types=tuple(builder.dihedral_types.values()),
        improper_types=tuple(builder.improper_types.values()),
        kspace=KSpace(pppm_accuracy),
        description=f"flexible OPLS-AA ({', '.join(e.name for e in entries)}){scaled}, "
        f"geometric mixing, 1-4 × 0.5, {cutoff_a:g} Å cutoff with LJ tail, PPPM",
        special_lj=OPLS_SPECIAL,
        special_coul=OPLS_SPECIAL,
    )


def with_hydrogen_mass(ff: ForceField, mass_amu: float) -> ForceField:
    """The same force field with every hydrogen type at ``mass_amu`` (heavy-hydrogen MD)."""
    types = tuple(
        dataclasses.replace(t, mass_amu=mass_amu) if t.element == "H" else t for t in ff.atom_types
    )
    return dataclasses.replace(ff, atom_types=types, name=f"{ff.name}_mH{mass_amu:g}")


class _Builder:
    """Collects the types a set of molecule templates needs (insertion-ordered)."""

    def __init__(self, ion_charge_scale: float) -> None:
        self.scale = ion_charge_scale
        self.atom_types: dict[str, AtomType] = {}
        self.bond_types: dict[str, BondType] = {}
        self.angle_types: dict[str, AngleType] = {}
        self.dihedral_types: dict[str, DihedralType] = {}
        self.improper_types: dict[str, ImproperType] = {}
        self.sources: set[str] = set()

    def template(self, entry: OplsMolecule) -> MoleculeTemplate:
        """The molecule template of ``entry``, adding its types to the collections."""
        structure = get_molecule(entry.name).structure
        elements = tuple(structure.symbols)
        if len(entry.types) != len(elements) or any(
            ATOM_TYPES[t].element != el for t, el in zip(entry.types, elements, strict=True)
        ):
            raise ValidationError(f"OPLS-AA types of {entry.name} do not match its geometry")
        for name in entry.types:
            self._atom_type(name, entry.ion)
        classes = [ATOM_TYPES[t].bonded_class for t in entry.types]
        pos = np.asarray(structure.positions)
        bonds = _bonds(elements, pos)
        graph = _neighbours(len(elements), bonds)
        return MoleculeTemplate(
            name=entry.name,
            atom_types=entry.types,
            bonds=tuple((i, j, self._bond(classes, i, j)) for i, j in bonds),
            angles=self._angles(classes, graph, pos),
            dihedrals=self._dihedrals(classes, bonds, graph),
            impropers=self._impropers(classes, graph),
        )

    def _atom_type(self, name: str, ion: bool) -> None:
        t = ATOM_TYPES[name]
        charge = t.charge_e * (self.scale if ion else 1.0)
        lj = LJParams(t.epsilon_kj_mol * EV_PER_KJ_MOL, t.sigma_a)
        self.atom_types[name] = AtomType(name, t.element, t.mass_amu, charge, lj)

    def _bond(self, classes: list[str], i: int, j: int) -> str:
        p = _stretch(BONDS, (classes[i], classes[j]))
        name = "-".join(p.classes)
        self.sources.add(p.source)
        self.bond_types[name] = BondType(name, p.x0, p.k_kj / 2.0 * EV_PER_KJ_MOL)
        return name

    def _angles(
        self, classes: list[str], graph: list[list[int]], pos: np.ndarray
    ) -> tuple[tuple[int, int, int, str], ...]:
        out = []
        for j, nbrs in enumerate(graph):
            for i, k in combinations(nbrs, 2):
                p = _stretch(ANGLES, (classes[i], classes[j], classes[k]))
                if _angle_deg(pos, i, j, k) > 170.0 and p.x0 < 170.0:
                    continue  # the trans pair of an octahedron: held by the cis angles
                name = "-".join(p.classes)
                self.sources.add(p.source)
                k_ev = p.k_kj / 2.0 * EV_PER_KJ_MOL
                self.angle_types[name] = AngleType(name, p.x0, k_ev)
                out.append((i, j, k, name))
        return tuple(out)

    def _dihedrals(
        self, classes: list[str], bonds: list[tuple[int, int]], graph: list[list[int]]
    ) -> tuple[tuple[int, int, int, int, str], ...]:
        out = []
        for j, k in bonds:
            if classes[j] in LINEAR_CLASSES or classes[k] in LINEAR_CLASSES:
                continue
            for i in graph[j]:
                for m in graph[k]:
                    if k == i or m == j or i == m:
                        continue
                    p = _torsion((classes[i], classes[j], classes[k], classes[m]))
                    name = "-".join(p.classes)
                    self.sources.add(p.source)
                    k_ev = tuple(f * EV_PER_KJ_MOL for f in rb_to_fourier_kj(p.rb_kj))
                    self.dihedral_types[name] = DihedralType(name, k_ev)  # type: ignore[arg-type]
                    out.append((i, j, k, m, name))
        return tuple(out)

    def _impropers(
        self, classes: list[str], graph: list[list[int]]
    ) -> tuple[tuple[int, int, int, int, str], ...]:
        out = []
        for j, nbrs in enumerate(graph):
            if classes[j] != "C" or len(nbrs) != 3:
                continue
            carbonyl = sorted(nbrs, key=lambda a: classes[a] != "O")
            name = "carbonyl-planar"
            self.improper_types[name] = ImproperType(name, IMPROPER_CARBONYL_KJ * EV_PER_KJ_MOL)
            out.append((carbonyl[0], j, carbonyl[1], carbonyl[2], name))
        return tuple(out)


def _stretch(table: tuple[Stretch, ...], classes: tuple[str, ...]) -> Stretch:
    for p in table:
        if p.classes in (classes, classes[::-1]):
            return p
    kind = "bond" if len(classes) == 2 else "angle"
    raise ValidationError(f"OPLS-AA has no {kind} parameter for {'-'.join(classes)}")


def _torsion(classes: tuple[str, str, str, str]) -> Torsion:
    for p in DIHEDRALS:
        if p.classes in (classes, classes[::-1]):
            return p
    raise ValidationError(f"OPLS-AA has no dihedral parameter for {'-'.join(classes)}")


def _bonds(elements: tuple[str, ...], pos: np.ndarray) -> list[tuple[int, int]]:
    radius = [covalent_radii[atomic_numbers[e]] for e in elements]
    return [
        (i, j)
        for i, j in combinations(range(len(elements)), 2)
        if np.linalg.norm(pos[i] - pos[j]) < BOND_FACTOR * (radius[i] + radius[j])
    ]


def _neighbours(n: int, bonds: list[tuple[int, int]]) -> list[list[int]]:
    graph: list[list[int]] = [[] for _ in range(n)]
    for i, j in bonds:
        graph[i].append(j)
        graph[j].append(i)
    return graph


def _angle_deg(pos: np.ndarray, i: int, j: int, k: int) -> float:
    a, b = pos[i] - pos[j], pos[k] - pos[j]
    cos = float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))
    return math.degrees(math.acos(max(-1.0, min(1.0, cos))))


def opls_methanol() -> ForceField:
    """OPLS-AA methanol (Jorgensen et al. 1996), flexible, PPPM."""
    return opls_aa(["methanol"])


def opls_ethanol() -> ForceField:
    """OPLS-AA ethanol (Jorgensen et al. 1996), flexible, PPPM."""
    return opls_aa(["ethanol"])


def opls_acetonitrile() -> ForceField:
    """OPLS-AA acetonitrile (Price, Ostrovsky, Jorgensen 2001), flexible, PPPM."""
    return opls_aa(["acetonitrile"])
