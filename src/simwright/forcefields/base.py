"""Classical force fields as typed, immutable values (atom typing: :mod:`.topology`).

A :class:`ForceField` holds everything an engine template needs: atom types
(element, mass, charge, Lennard-Jones parameters), the mixing rule for unlike
pairs, bond and angle types, molecule templates (which atoms form a molecule,
in which order, and how they are bonded), the pair style with its cutoff, the
long-range electrostatics solver and the constraint algorithm.

Units are canonical: energies in eV, lengths in Å, masses in amu, charges in e,
angles in degrees.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from ase.data import atomic_numbers

from simwright.errors import ValidationError
from simwright.forcefields.pair_terms import BornPair, Tip4pSite
from simwright.forcefields.torsions import DihedralType, ImproperType

EV_PER_KJ_MOL: Final = 1.0 / 96.48533212
"""One kJ/mol expressed in eV per particle (1 eV = 96.48533212 kJ/mol, CODATA 2018)."""

MixingRule = Literal["geometric", "arithmetic"]
"""How unlike-pair LJ parameters follow from like pairs.

``geometric``: ε_ij = √(ε_i ε_j), σ_ij = √(σ_i σ_j).
``arithmetic`` (Lorentz–Berthelot): ε_ij = √(ε_i ε_j), σ_ij = (σ_i + σ_j) / 2.
"""

PairKind = Literal["lj/cut", "lj/cut/coul/long", "lj/cut/tip4p/long", "born/coul/long"]
"""Supported pair interactions: plain truncated LJ; LJ plus real-space Ewald Coulomb
(three-site or TIP4P-style four-site water); Born–Mayer–Huggins plus Coulomb (ionic melts)."""


@dataclass(frozen=True)
class LJParams:
    """Lennard-Jones parameters of one pair: well depth ε (eV) and diameter σ (Å)."""

    epsilon_ev: float
    sigma_a: float

    def __post_init__(self) -> None:
        if self.epsilon_ev < 0 or self.sigma_a < 0:
            raise ValidationError(
                f"LJ parameters must be non-negative, got ε={self.epsilon_ev} eV, "
                f"σ={self.sigma_a} Å"
            )


NO_LJ: Final = LJParams(0.0, 0.0)
"""An atom without Lennard-Jones interactions (e.g. the hydrogens of SPC/E)."""


@dataclass(frozen=True)
class AtomType:
    """One atom type: a name unique in its force field, element, mass, charge and LJ."""

    name: str
    element: str
    mass_amu: float
    charge_e: float = 0.0
    lj: LJParams = NO_LJ

    def __post_init__(self) -> None:
        if not self.name or any(c.isspace() for c in self.name):
            raise ValidationError(f"atom type name {self.name!r} must be a non-empty word")
        if self.element not in atomic_numbers or self.element == "X":
            raise ValidationError(f"atom type {self.name!r}: unknown element {self.element!r}")
        if not self.mass_amu > 0:
            raise ValidationError(f"atom type {self.name!r}: mass must be positive")


@dataclass(frozen=True)
class PairOverride:
    """Explicit LJ parameters for one type pair, replacing the mixing rule."""

    type_a: str
    type_b: str
    lj: LJParams


@dataclass(frozen=True)
class BondType:
    """A bond type: equilibrium length (Å) and harmonic constant K (eV/Å²).

    The energy is K (r − r0)² (no factor ½, as LAMMPS' ``harmonic``). ``k_ev_per_a2``
    None marks a rigid bond, held at ``length_a`` by the force field's constraint.
    """

    name: str
    length_a: float
    k_ev_per_a2: float | None = None

    def __post_init__(self) -> None:
        if not self.length_a > 0:
            raise ValidationError(f"bond type {self.name!r}: length must be positive")

    @property
    def rigid(self) -> bool:
        """True when the bond is constrained rather than a spring."""
        return self.k_ev_per_a2 is None


@dataclass(frozen=True)
class AngleType:
    """An angle type: equilibrium angle (degrees) and harmonic constant K (eV/rad²).

    The energy is K (θ − θ0)²; ``k_ev_per_rad2`` None marks a rigid angle.
    """

    name: str
    angle_deg: float
    k_ev_per_rad2: float | None = None

    def __post_init__(self) -> None:
        if not 0 < self.angle_deg <= 180:
            raise ValidationError(f"angle type {self.name!r}: angle must lie in (0, 180] degrees")

    @property
    def rigid(self) -> bool:
        """True when the angle is constrained rather than a spring."""
        return self.k_ev_per_rad2 is None


@dataclass(frozen=True)
class MoleculeTemplate:
    """Which atom types form a molecule, in order, and its bonded terms.

    ``bonds`` are ``(i, j, bond_type)`` and ``angles`` ``(i, j, k, angle_type)``
    with 0-based positions inside the molecule; ``j`` is the apex of an angle.
    ``dihedrals`` are ``(i, j, k, l, dihedral_type)`` about the j–k bond and
    ``impropers`` ``(i, j, k, l, improper_type)`` with the planar centre at ``j``.
    """

    name: str
    atom_types: tuple[str, ...]
    bonds: tuple[tuple[int, int, str], ...] = ()
    angles: tuple[tuple[int, int, int, str], ...] = ()
    dihedrals: tuple[tuple[int, int, int, int, str], ...] = ()
    impropers: tuple[tuple[int, int, int, int, str], ...] = ()

    def __post_init__(self) -> None:
        n = len(self.atom_types)
        if n == 0:
            raise ValidationError(f"molecule template {self.name!r} has no atoms")
        for bond in self.bonds:
            _check_positions(self.name, bond[:2], n)
        for angle in self.angles:
            _check_positions(self.name, angle[:3], n)
        for torsion in (*self.dihedrals, *self.impropers):
            _check_positions(self.name, torsion[:4], n)


def _check_positions(name: str, positions: Sequence[int], n: int) -> None:
    if any(not 0 <= p < n for p in positions) or len(set(positions)) != len(positions):
        raise ValidationError(
            f"molecule template {name!r}: atom positions {tuple(positions)} must be distinct "
            f"and lie in 0..{n - 1}"
        )


@dataclass(frozen=True)
class PairStyle:
    """The pair interaction and its cutoff (Å); Coulomb uses the same cutoff.

    ``shift`` shifts LJ energies to zero at the cutoff; ``tail`` adds the
    analytic long-range LJ correction to energy and pressure.
    """

    kind: PairKind
    cutoff_a: float
    shift: bool = False
    tail: bool = False

    def __post_init__(self) -> None:
        if not self.cutoff_a > 0:
            raise ValidationError("pair style cutoff must be positive")

    @property
    def coulomb(self) -> bool:
        """True when the pair style includes electrostatics."""
        return self.kind != "lj/cut"

    def describe(self) -> str:
        """The cutoff and both LJ options in words, for a report's method line."""
        return (
            f"{self.kind} cut at {self.cutoff_a:g} Å, LJ "
            f"{'shifted' if self.shift else 'not shifted'}, long-range LJ tail correction "
            f"{'on' if self.tail else 'off'} (pair_modify shift {'yes' if self.shift else 'no'} "
            f"tail {'yes' if self.tail else 'no'})"
        )


@dataclass(frozen=True)
class KSpace:
    """Long-range electrostatics: particle-particle particle-mesh at a relative accuracy."""

    accuracy: float = 1.0e-4
    style: Literal["pppm", "pppm/tip4p"] = "pppm"

    def __post_init__(self) -> None:
        if not 0 < self.accuracy < 1:
            raise ValidationError("kspace accuracy must lie in (0, 1)")


@dataclass(frozen=True)
class Shake:
    """SHAKE constraints on all rigid bonds and angles of the force field."""

    tolerance: float = 1.0e-4
    max_iterations: int = 20

    def __post_init__(self) -> None:
        if not self.tolerance > 0 or self.max_iterations < 1:
            raise ValidationError("SHAKE needs a positive tolerance and at least one iteration")


@dataclass(frozen=True)
class ForceField:
    """A complete classical force field; see the module docstring for units."""

    name: str
    atom_types: tuple[AtomType, ...]
    molecules: tuple[MoleculeTemplate, ...]
    pair_style: PairStyle
    reference: str
    mixing: MixingRule = "geometric"
    pair_overrides: tuple[PairOverride, ...] = ()
    bond_types: tuple[BondType, ...] = ()
    angle_types: tuple[AngleType, ...] = ()
    kspace: KSpace | None = None
    constraint: Shake | None = None
    description: str = ""
    tip4p: Tip4pSite | None = None
    born_pairs: tuple[BornPair, ...] = ()
    dihedral_types: tuple[DihedralType, ...] = ()
    improper_types: tuple[ImproperType, ...] = ()
    special_lj: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Scale of the LJ energy between 1-2, 1-3 and 1-4 neighbours (OPLS-AA: 0, 0, 0.5)."""
    special_coul: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Scale of the Coulomb energy between 1-2, 1-3 and 1-4 neighbours (OPLS-AA: 0, 0, 0.5)."""

    def __post_init__(self) -> None:
        _check_unique(self.name, "atom type", [t.name for t in self.atom_types])
        _check_unique(self.name, "bond type", [b.name for b in self.bond_types])
        _check_unique(self.name, "angle type", [a.name for a in self.angle_types])
        _check_unique(self.name, "dihedral type", [d.name for d in self.dihedral_types])
        _check_unique(self.name, "improper type", [d.name for d in self.improper_types])
        _check_unique(self.name, "molecule", [m.name for m in self.molecules])
        for mol in self.molecules:
            self._check_template(mol)
        for override in self.pair_overrides:
            self.type_id(override.type_a)
            self.type_id(override.type_b)
        self._check_physics()
        self._check_pair_terms()

    def _check_template(self, mol: MoleculeTemplate) -> None:
        for type_name in mol.atom_types:
            self.type_id(type_name)
        for bond in mol.bonds:
            self.bond_type_id(bond[2])
        for angle in mol.angles:
            self.angle_type_id(angle[3])
        for dihedral in mol.dihedrals:
            self.dihedral_type_id(dihedral[4])
        for improper in mol.impropers:
            self.improper_type_id(improper[4])

    def _check_physics(self) -> None:
        charged = any(t.charge_e != 0 for t in self.atom_types)
        if charged and not self.pair_style.coulomb:
            raise ValidationError(f"force field {self.name!r}: charges need a Coulomb pair style")
        if self.pair_style.coulomb and self.kspace is None:
            raise ValidationError(f"force field {self.name!r}: coul/long needs a kspace solver")
        rigid = [b.rigid for b in self.bond_types] + [a.rigid for a in self.angle_types]
        if any(rigid) and self.constraint is None:
            raise ValidationError(f"force field {self.name!r}: rigid bonds/angles need SHAKE")
        if len(set(rigid)) > 1:
            raise ValidationError(
                f"force field {self.name!r}: rigid and flexible bonds/angles cannot be mixed"
            )

    def _check_pair_terms(self) -> None:
        kind = self.pair_style.kind
        tip4p_solver = self.kspace is not None and self.kspace.style == "pppm/tip4p"
        if (kind == "lj/cut/tip4p/long") != (self.tip4p is not None) or (
            self.tip4p is not None
        ) != tip4p_solver:
            raise ValidationError(
                f"force field {self.name!r}: a TIP4P site needs pair style lj/cut/tip4p/long "
                "and kspace pppm/tip4p, and they need the site"
            )
        if self.tip4p is not None:
            self.type_id(self.tip4p.oxygen_type)
            self.type_id(self.tip4p.hydrogen_type)
            if not self.bond_types[self.bond_type_id(self.tip4p.bond_type) - 1].rigid:
                raise ValidationError(f"force field {self.name!r}: the TIP4P O–H must be rigid")
            self.angle_type_id(self.tip4p.angle_type)
        if (kind == "born/coul/long") != bool(self.born_pairs):
            raise ValidationError(
                f"force field {self.name!r}: Born pairs need pair style born/coul/long and back"
            )
        if self.born_pairs:
            for i, j, _ in self.pair_table():
                self.born(self.atom_types[i - 1].name, self.atom_types[j - 1].name)

    def born(self, type_a: str, type_b: str) -> BornPair:
        """The Born–Mayer–Huggins parameters of a type pair (every pair must be given)."""
        for pair in self.born_pairs:
            if pair.matches(type_a, type_b):
                return pair
        raise ValidationError(f"force field {self.name!r} has no Born pair {type_a}-{type_b}")

    @property
    def rigid(self) -> bool:
        """True when bonds and angles are constrained (SHAKE) rather than springs."""
        flags = [b.rigid for b in self.bond_types] + [a.rigid for a in self.angle_types]
        return self.constraint is not None and any(flags)

    def type_id(self, name: str) -> int:
        """1-based index of atom type ``name`` (the LAMMPS type number)."""
        for index, atom_type in enumerate(self.atom_types, start=1):
            if atom_type.name == name:
                return index
        known = ", ".join(t.name for t in self.atom_types)
        raise ValidationError(f"force field {self.name!r} has no atom type {name!r} ({known})")

    def bond_type_id(self, name: str) -> int:
        """1-based index of bond type ``name``."""
        return _index_of(self.name, "bond type", [b.name for b in self.bond_types], name)

    def angle_type_id(self, name: str) -> int:
        """1-based index of angle type ``name``."""
        return _index_of(self.name, "angle type", [a.name for a in self.angle_types], name)

    def dihedral_type_id(self, name: str) -> int:
        """1-based index of dihedral type ``name``."""
        return _index_of(self.name, "dihedral type", [d.name for d in self.dihedral_types], name)

    def improper_type_id(self, name: str) -> int:
        """1-based index of improper type ``name``."""
        return _index_of(self.name, "improper type", [d.name for d in self.improper_types], name)

    def type_elements(self) -> dict[int, str]:
        """LAMMPS type number → element symbol."""
        return {i: t.element for i, t in enumerate(self.atom_types, start=1)}

    def pair(self, type_a: str, type_b: str) -> LJParams:
        """LJ parameters of a type pair: an explicit override, else the mixing rule."""
        for override in self.pair_overrides:
            if {override.type_a, override.type_b} == {type_a, type_b}:
                return override.lj
        a = self.atom_types[self.type_id(type_a) - 1].lj
        b = self.atom_types[self.type_id(type_b) - 1].lj
        return mix(a, b, self.mixing)

    def pair_table(self) -> tuple[tuple[int, int, LJParams], ...]:
        """``(i, j, params)`` for every type pair i ≤ j (1-based type numbers)."""
        names = [t.name for t in self.atom_types]
        return tuple(
            (i + 1, j + 1, self.pair(names[i], names[j]))
            for i in range(len(names))
            for j in range(i, len(names))
        )


def mix(a: LJParams, b: LJParams, rule: MixingRule) -> LJParams:
    """Combine two like-pair LJ parameter sets by ``rule``."""
    epsilon = (a.epsilon_ev * b.epsilon_ev) ** 0.5
    if rule == "geometric":
        return LJParams(epsilon, (a.sigma_a * b.sigma_a) ** 0.5)
    return LJParams(epsilon, 0.5 * (a.sigma_a + b.sigma_a))


def _check_unique(ff: str, what: str, names: list[str]) -> None:
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValidationError(f"force field {ff!r}: duplicate {what} name(s) {', '.join(dupes)}")


def _index_of(ff: str, what: str, names: list[str], name: str) -> int:
    if name in names:
        return names.index(name) + 1
    raise ValidationError(f"force field {ff!r} has no {what} {name!r} ({', '.join(names)})")
