"""A molecule for quantum chemistry: geometry, charge and spin multiplicity.

The spin rule is stated, never guessed: an even electron count without a stated
multiplicity is taken as a singlet (and the caller records that as *assumed*); an odd
count without one is refused by name with the fix, since a doublet, quartet... are all
possible. A stated multiplicity must have the parity of the electron count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simwright.errors import ValidationError
from simwright.structure import Structure

ATOMIC_NUMBERS: dict[str, int] = {
    s: i + 1
    for i, s in enumerate(
        "H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn "
        "Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe".split()
    )
}
"""Atomic numbers of the elements up to xenon (the bases and GFN2-xTB cover these)."""


def electron_count(symbols: tuple[str, ...], charge: int) -> int:
    """Electrons of a molecule of ``symbols`` with net ``charge``; refuses unknown elements."""
    unknown = sorted({s for s in symbols if s not in ATOMIC_NUMBERS})
    if unknown:
        raise ValidationError(f"element(s) {', '.join(unknown)} are beyond xenon: not supported")
    n = sum(ATOMIC_NUMBERS[s] for s in symbols) - charge
    if n < 0:
        raise ValidationError(f"charge {charge:+d} leaves a negative number of electrons")
    return n


def spin_multiplicity(
    name: str, symbols: tuple[str, ...], charge: int, multiplicity: int | None
) -> tuple[int, bool]:
    """(multiplicity, assumed): the stated one checked against the electron count, or a
    singlet for an even count (assumed); an odd count without one is refused."""
    n = electron_count(symbols, charge)
    if multiplicity is None:
        if n % 2:
            raise ValidationError(
                f"{name} has {n} electrons (charge {charge:+d}): an odd count, so the spin "
                "multiplicity is ambiguous (doublet? quartet?); state it, e.g. "
                f"'multiplicity 2' or `multiplicity: 2` in a spec"
            )
        return 1, True
    if multiplicity < 1 or (n + multiplicity - 1) % 2:
        raise ValidationError(
            f"{name}: multiplicity {multiplicity} is impossible with {n} electrons "
            f"(charge {charge:+d}); it must be {'even' if n % 2 else 'odd'}"
        )
    if multiplicity - 1 > n:
        raise ValidationError(f"{name}: multiplicity {multiplicity} needs more than {n} electrons")
    return multiplicity, False


@dataclass(frozen=True)
class QcMolecule:
    """A molecule for a quantum-chemistry engine: non-periodic structure (Å), net charge
    (e) and spin multiplicity 2S+1; ``name`` labels it in tables and reports."""

    name: str
    structure: Structure
    charge: int = 0
    multiplicity: int = 1

    def __post_init__(self) -> None:
        spin_multiplicity(self.name, self.structure.symbols, self.charge, self.multiplicity)

    @property
    def symbols(self) -> tuple[str, ...]:
        """Element symbols in order."""
        return self.structure.symbols

    @property
    def numbers(self) -> np.ndarray:
        """Atomic numbers in order."""
        return np.array([ATOMIC_NUMBERS[s] for s in self.symbols])

    @property
    def positions(self) -> np.ndarray:
        """Cartesian positions in Å (n × 3)."""
        return np.asarray(self.structure.positions)

    @property
    def n_electrons(self) -> int:
        """Total electron count."""
        return electron_count(self.symbols, self.charge)

    @property
    def formula(self) -> str:
        """Hill-order formula (C, H, then alphabetical)."""
        counts: dict[str, int] = {}
        for s in self.symbols:
            counts[s] = counts.get(s, 0) + 1
        order: list[str] = [e for e in ("C", "H") if e in counts and "C" in counts]
        order += sorted(e for e in counts if e not in order)
        return "".join(f"{e}{counts[e] if counts[e] > 1 else ''}" for e in order)

    def moved(self, positions_a: np.ndarray) -> QcMolecule:
        """The same molecule at new positions (Å)."""
        return QcMolecule(
            self.name, self.structure.with_positions(positions_a), self.charge, self.multiplicity
        )

    def xyz(self) -> str:
        """The molecule as XYZ text (comment line: name, charge, multiplicity)."""
        lines = [
            str(len(self.symbols)),
            f"{self.name} charge={self.charge} mult={self.multiplicity}",
        ]
        for s, (x, y, z) in zip(self.symbols, self.positions, strict=True):
            lines.append(f"{s:2s} {x:14.8f} {y:14.8f} {z:14.8f}")
        return "\n".join(lines) + "\n"
