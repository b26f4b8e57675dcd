"""Named molecules with reference geometries, and molecules read from xyz files.

Each library entry carries its coordinates (Å), formal charge, a short description and
where its geometry comes from. The geometries live in ``molecules/data/*.xyz``; they were
made for simwright (standard bond lengths and angles, the carbonates relaxed with a small
valence force field), not taken from any other project.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from simwright.errors import StructureError, ValidationError
from simwright.structure import Structure

_BUILT = (
    "built for simwright from internal coordinates (C=O 1.20, C(sp2)-O 1.34, C(sp3)-O 1.44, "
    "C-C 1.52, C-H 1.09 Å; tetrahedral sp3 angles, planar carbonate group), then relaxed "
    "with a minimal valence force field"
)


@dataclass(frozen=True)
class Molecule:
    """A molecule (or monatomic ion) as a rigid template for packing and force fields.

    ``structure`` is non-periodic, coordinates in Å; ``charge`` is the formal charge in e.
    """

    name: str
    structure: Structure
    charge: int
    description: str
    source: str

    @property
    def n_atoms(self) -> int:
        """Number of atoms."""
        return len(self.structure)

    @property
    def formula(self) -> str:
        """Hill-ordered chemical formula."""
        return self.structure.formula

    @property
    def mass_amu(self) -> float:
        """Molar mass in g/mol (equal to the molecular mass in amu)."""
        return float(self.structure.masses_amu.sum())

    @property
    def composition(self) -> dict[str, int]:
        """Element counts."""
        return dict(sorted(Counter(self.structure.symbols).items()))


@dataclass(frozen=True)
class _Entry:
    """A library entry before its xyz file is read."""

    name: str
    file: str
    charge: int
    description: str
    source: str
    aliases: tuple[str, ...]


_ENTRIES: tuple[_Entry, ...] = (
    _Entry(
        "spce_water",
        "spce_water.xyz",
        0,
        "SPC/E water, rigid: r(OH) = 1.0 Å, angle HOH = 109.47°, atom order O, H, H "
        "(the SPC/E force field relies on that order)",
        "H. J. C. Berendsen, J. R. Grigera, T. P. Straatsma, J. Phys. Chem. 91, 6269 (1987); "
        "O at the origin",
        ("water", "h2o", "spce", "spc/e", "spc/e water", "spce water"),
    ),
    _Entry(
        "tip3p_water",
        "tip3p_water.xyz",
        0,
        "TIP3P water, rigid: r(OH) = 0.9572 Å, angle HOH = 104.52°, atom order O, H, H",
        "W. L. Jorgensen et al., J. Chem. Phys. 79, 926 (1983); O at the origin",
        ("tip3p", "tip3p water"),
    ),
    _Entry(
        "tip4p2005_water",
        "tip4p2005_water.xyz",
        0,
        "TIP4P/2005 water, rigid: r(OH) = 0.9572 Å, angle HOH = 104.52°, atom order O, H, H "
        "(the massless M site is placed by the LAMMPS pair style, not stored)",
        "J. L. F. Abascal, C. Vega, J. Chem. Phys. 123, 234505 (2005); O at the origin",
        ("tip4p/2005", "tip4p2005", "tip4p/2005 water"),
    ),
    _Entry(
        "argon",
        "argon.xyz",
        0,
        "argon atom",
        "single atom at the origin",
        ("ar",),
    ),
    _Entry(
        "methane",
        "methane.xyz",
        0,
        "methane, tetrahedral, r(CH) = 1.09 Å",
        "ASE g2 collection, ase.build.molecule('CH4')",
        ("ch4",),
    ),
    _Entry(
        "methanol",
        "methanol.xyz",
        0,
        "methanol, atom order C, O, H(C), H(O), H(C), H(C)",
        "ASE g2 collection, ase.build.molecule('CH3OH')",
        ("meoh", "ch3oh", "methyl alcohol"),
    ),
    _Entry(
        "ethanol",
        "ethanol.xyz",
        0,
        "ethanol, anti conformer, atom order C(H3), C(H2), O, H(O), 2 H(C2), 3 H(C1)",
        "ASE g2 collection, ase.build.molecule('CH3CH2OH')",
        ("etoh", "ch3ch2oh", "ethyl alcohol", "c2h5oh"),
    ),
    _Entry(
        "acetonitrile",
        "acetonitrile.xyz",
        0,
        "acetonitrile, linear C-C-N, atom order C(H3), C, N, 3 H",
        "ASE g2 collection, ase.build.molecule('CH3CN')",
        ("mecn", "ch3cn", "methyl cyanide", "acn"),
    ),
    _Entry(
        "ec",
        "ethylene_carbonate.xyz",
        0,
        "ethylene carbonate (1,3-dioxolan-2-one), C2-twisted ring (O-C-C-O about 27°)",
        _BUILT,
        ("ethylene carbonate", "1,3-dioxolan-2-one"),
    ),
    _Entry(
        "dmc",
        "dimethyl_carbonate.xyz",
        0,
        "dimethyl carbonate, cis-cis conformer (both methyls cis to C=O)",
        _BUILT,
        ("dimethyl carbonate",),
    ),
    _Entry(
        "dec",
        "diethyl_carbonate.xyz",
        0,
        "diethyl carbonate, cis-cis conformer, ethyl groups anti",
        _BUILT,
        ("diethyl carbonate",),
    ),
    _Entry(
        "pc",
        "propylene_carbonate.xyz",
        0,
        "propylene carbonate (4-methyl-1,3-dioxolan-2-one), twisted ring",
        _BUILT,
        ("propylene carbonate", "4-methyl-1,3-dioxolan-2-one"),
    ),
    _Entry(
        "li+",
        "lithium_ion.xyz",
        1,
        "lithium cation",
        "single atom at the origin",
        ("li", "lithium", "lithium ion", "li(+)", "li1+"),
    ),
    _Entry(
        "na+",
        "sodium_ion.xyz",
        1,
        "sodium cation",
        "single atom at the origin",
        ("na", "sodium", "sodium ion", "na(+)", "na1+"),
    ),
    _Entry(
        "cl-",
        "chloride_ion.xyz",
        -1,
        "chloride anion",
        "single atom at the origin",
        ("cl", "chloride", "chloride ion", "cl(-)", "cl1-"),
    ),
    _Entry(
        "pf6-",
        "hexafluorophosphate.xyz",
        -1,
        "hexafluorophosphate anion, octahedral, r(PF) = 1.60 Å",
        "regular octahedron; r(PF) = 1.60 Å, typical of crystalline hexafluorophosphates",
        ("pf6", "hexafluorophosphate", "pf6(-)", "pf61-"),
    ),
)


def _key(name: str) -> str:
    """Normalise a molecule name: lower case, runs of spaces and underscores to one space."""
    return re.sub(r"[\s_]+", " ", name.strip().lower())


def _index() -> dict[str, _Entry]:
    index: dict[str, _Entry] = {}
    for entry in _ENTRIES:
        for alias in (entry.name, *entry.aliases):
            index[_key(alias)] = entry
    return index


_INDEX = _index()


def known_molecules() -> tuple[str, ...]:
    """Canonical names of the library's molecules."""
    return tuple(entry.name for entry in _ENTRIES)


def get_molecule(name: str) -> Molecule:
    """The library molecule called ``name`` (case-insensitive; aliases such as "water",
    "h2o", "methane", "li+", "pf6-", "ethylene carbonate" work).

    Raises :class:`ValidationError` listing the known names for an unknown one.
    """
    entry = _INDEX.get(_key(name))
    if entry is None:
        raise ValidationError(
            f"unknown molecule {name!r}; known molecules: {', '.join(known_molecules())} "
            "(or load one with load_xyz_molecule)"
        )
    return _load_entry(entry.name)


@cache
def _load_entry(name: str) -> Molecule:
    entry = _INDEX[_key(name)]
    text = resources.files("simwright.molecules").joinpath("data", entry.file).read_text()
    return Molecule(
        name=entry.name,
        structure=parse_xyz(text, origin=entry.file),
        charge=entry.charge,
        description=entry.description,
        source=entry.source,
    )


def load_xyz_molecule(
    path: Path | str,
    name: str,
    *,
    charge: int = 0,
    description: str = "",
) -> Molecule:
    """A user molecule from a plain xyz file (count line, comment line, ``symbol x y z`` in Å).

    Raises :class:`ValidationError` for a malformed file and :class:`StructureError`
    for unknown elements or overlapping atoms.
    """
    file = Path(path)
    if not name.strip():
        raise ValidationError("a molecule needs a non-empty name")
    try:
        text = file.read_text()
    except OSError as exc:
        raise ValidationError(f"cannot read molecule file {file}: {exc}") from exc
    structure = parse_xyz(text, origin=str(file))
    return Molecule(
        name=name.strip(),
        structure=structure,
        charge=int(charge),
        description=description or f"read from {file.name}",
        source=f"xyz file {file}",
    )


def parse_xyz(text: str, *, origin: str = "xyz text") -> Structure:
    """A non-periodic :class:`Structure` from the text of a plain xyz file."""
    lines = text.splitlines()
    try:
        n_atoms = int(lines[0].split()[0])
    except (IndexError, ValueError) as exc:
        raise ValidationError(f"{origin}: the first line must be the number of atoms") from exc
    if n_atoms < 1 or len(lines) < n_atoms + 2:
        raise ValidationError(f"{origin}: expected {n_atoms} atom lines after the comment line")
    symbols, positions = [], []
    for number, line in enumerate(lines[2 : n_atoms + 2], start=3):
        fields = line.split()
        try:
            positions.append([float(v) for v in fields[1:4]])
            symbols.append(fields[0].capitalize())
        except (IndexError, ValueError) as exc:
            raise ValidationError(f"{origin}, line {number}: expected 'symbol x y z'") from exc
        if len(positions[-1]) != 3:
            raise ValidationError(f"{origin}, line {number}: expected 'symbol x y z'")
    structure = Structure(tuple(symbols), np.array(positions))
    try:
        structure.check()
    except StructureError as exc:
        raise StructureError(f"{origin}: {exc}") from exc
    return structure
