"""The immutable :class:`Structure` value and its deterministic sanity summary.

``ase.Atoms`` is used only at engine edges (:meth:`Structure.to_ase`,
:meth:`Structure.from_ase`); everything else passes Structures around.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from ase import Atoms
from ase.data import atomic_masses, atomic_numbers, chemical_symbols

from simwright.errors import StructureError
from simwright.units import density_g_cm3

MIN_PAIR_DISTANCE_A = 0.55
"""Atom pairs closer than this (Å) make a structure unphysical."""


def _frozen(array: Any, dtype: Any, shape: tuple[int, ...] | None = None) -> np.ndarray:
    out = np.array(array, dtype=dtype, copy=True)
    if shape is not None and out.shape != shape:
        raise StructureError(f"expected an array of shape {shape}, got {out.shape}")
    out.setflags(write=False)
    return out


def check_symbols(symbols: tuple[str, ...]) -> None:
    """Raise :class:`StructureError` naming any symbol that is not a chemical element."""
    unknown = sorted({s for s in symbols if s not in atomic_numbers or s == "X"})
    if unknown:
        raise StructureError(f"unknown element(s): {', '.join(unknown)}")


@dataclass(frozen=True)
class ClosePair:
    """Two atoms closer than the allowed minimum distance."""

    i: int
    j: int
    distance_a: float


@dataclass(frozen=True)
class SanitySummary:
    """A deterministic summary of a structure, computed after every step producing one."""

    n_atoms: int
    formula: str
    composition: dict[str, int]
    volume_a3: float | None
    density_g_cm3: float | None
    pbc: tuple[bool, bool, bool]
    close_pairs: tuple[ClosePair, ...]
    min_distance_a: float

    @property
    def ok(self) -> bool:
        """True when no atom pair is closer than :data:`MIN_PAIR_DISTANCE_A`."""
        return not self.close_pairs

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (at most ten close pairs listed)."""
        return {
            "n_atoms": self.n_atoms,
            "formula": self.formula,
            "composition": self.composition,
            "volume_A3": self.volume_a3,
            "density_g_cm3": self.density_g_cm3,
            "pbc": list(self.pbc),
            "n_close_pairs": len(self.close_pairs),
            "close_pairs": [
                {"i": p.i, "j": p.j, "distance_A": round(p.distance_a, 4)}
                for p in self.close_pairs[:10]
            ],
            "min_distance_A": self.min_distance_a,
        }

    def text(self) -> str:
        """One line for people and agents."""
        vol = f"{self.volume_a3:.2f} Å³" if self.volume_a3 else "no cell"
        rho = f", {self.density_g_cm3:.4f} g/cm³" if self.density_g_cm3 else ""
        pbc = "".join("p" if p else "f" for p in self.pbc)
        close = (
            f", {len(self.close_pairs)} pairs < {MIN_PAIR_DISTANCE_A} Å" if self.close_pairs else ""
        )
        return f"{self.formula} ({self.n_atoms} atoms), {vol}{rho}, pbc {pbc}{close}"


@dataclass(frozen=True, eq=False)
class Structure:
    """Atoms, cell and periodicity as an immutable value.

    Positions and cell are in Å. ``molecule_ids`` (optional) groups atoms into
    molecules, as PACKMOL and LAMMPS data files need.
    """

    symbols: tuple[str, ...]
    positions: np.ndarray
    cell: np.ndarray = field(default_factory=lambda: np.zeros((3, 3)))
    pbc: tuple[bool, bool, bool] = (False, False, False)
    molecule_ids: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        symbols = tuple(str(s) for s in self.symbols)
        check_symbols(symbols)
        n = len(symbols)
        object.__setattr__(self, "symbols", symbols)
        object.__setattr__(self, "positions", _frozen(self.positions, float, (n, 3)))
        object.__setattr__(self, "cell", _frozen(self.cell, float, (3, 3)))
        object.__setattr__(self, "pbc", tuple(bool(p) for p in self.pbc))
        if self.molecule_ids is not None:
            ids = tuple(int(i) for i in self.molecule_ids)
            if len(ids) != n:
                raise StructureError("molecule_ids must have one entry per atom")
            object.__setattr__(self, "molecule_ids", ids)
        if any(self.pbc) and abs(np.linalg.det(self.cell)) < 1e-9:
            raise StructureError("a periodic structure needs a cell of non-zero volume")

    def __len__(self) -> int:
        return len(self.symbols)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Structure) and self.content_hash() == other.content_hash()

    def __hash__(self) -> int:
        return hash(self.content_hash())

    @property
    def masses_amu(self) -> np.ndarray:
        """Standard atomic masses of the atoms (amu)."""
        return np.array([atomic_masses[atomic_numbers[s]] for s in self.symbols])

    @property
    def volume_a3(self) -> float | None:
        """Cell volume in Å³, or None for a structure without a cell."""
        vol = abs(float(np.linalg.det(self.cell)))
        return vol if vol > 1e-9 else None

    @property
    def formula(self) -> str:
        """Hill-ordered chemical formula."""
        return _hill_formula(Counter(self.symbols))

    def content_hash(self) -> str:
        """sha256 of symbols, positions and cell rounded to 1e-6 Å, pbc and molecule ids."""
        h = hashlib.sha256()
        h.update("|".join(self.symbols).encode())
        h.update(np.round(self.positions, 6).astype("<f8").tobytes())
        h.update(np.round(self.cell, 6).astype("<f8").tobytes())
        h.update(bytes(int(p) for p in self.pbc))
        if self.molecule_ids is not None:
            h.update(np.asarray(self.molecule_ids, dtype="<i8").tobytes())
        return h.hexdigest()

    def sanity(self, min_distance_a: float = MIN_PAIR_DISTANCE_A) -> SanitySummary:
        """Composition, volume, density, periodicity and atom pairs that are too close."""
        counts = Counter(self.symbols)
        volume = self.volume_a3
        density = density_g_cm3(float(self.masses_amu.sum()), volume) if volume else None
        pairs, dmin = self._close_pairs(min_distance_a)
        return SanitySummary(
            n_atoms=len(self),
            formula=self.formula,
            composition=dict(sorted(counts.items())),
            volume_a3=volume,
            density_g_cm3=density,
            pbc=self.pbc,
            close_pairs=pairs,
            min_distance_a=dmin,
        )

    def check(self) -> SanitySummary:
        """The sanity summary; raises :class:`StructureError` if atoms overlap."""
        summary = self.sanity()
        if not summary.ok:
            p = summary.close_pairs[0]
            raise StructureError(
                f"{len(summary.close_pairs)} atom pair(s) closer than {MIN_PAIR_DISTANCE_A} Å "
                f"(e.g. atoms {p.i} and {p.j} at {p.distance_a:.3f} Å)"
            )
        return summary

    def _close_pairs(self, cutoff: float) -> tuple[tuple[ClosePair, ...], float]:
        if len(self) < 2:
            return (), float("inf")
        # lazy: ase.neighborlist takes ~1 s to import
        from ase.neighborlist import neighbor_list

        atoms = self.to_ase()
        if not any(self.pbc):
            atoms.set_cell(np.zeros((3, 3)))
        i, j, d = neighbor_list("ijd", atoms, max(cutoff, 3.0), self_interaction=False)
        dmin = float(d.min()) if len(d) else float("inf")
        close = (i < j) & (d < cutoff)
        order = np.lexsort((j[close], i[close]))
        pairs = tuple(
            ClosePair(int(a), int(b), float(c))
            for a, b, c in zip(i[close][order], j[close][order], d[close][order], strict=True)
        )
        return pairs, round(dmin, 6)

    def to_ase(self) -> Atoms:
        """A fresh ``ase.Atoms`` (molecule ids in the ``mol-id`` array)."""
        atoms = Atoms(
            symbols=list(self.symbols),
            positions=np.array(self.positions),
            cell=np.array(self.cell),
            pbc=self.pbc,
        )
        if self.molecule_ids is not None:
            atoms.set_array("mol-id", np.asarray(self.molecule_ids, dtype=int))
        return atoms

    @classmethod
    def from_ase(cls, atoms: Atoms) -> Structure:
        """Build a Structure from ``ase.Atoms`` (reads ``mol-id`` if present)."""
        mol = atoms.arrays.get("mol-id")
        return cls(
            symbols=tuple(atoms.get_chemical_symbols()),
            positions=atoms.get_positions(),
            cell=np.array(atoms.get_cell()),
            pbc=tuple(bool(p) for p in atoms.get_pbc()),  # type: ignore[arg-type]
            molecule_ids=None if mol is None else tuple(int(m) for m in mol),
        )

    def with_positions(self, positions: np.ndarray, cell: np.ndarray | None = None) -> Structure:
        """A copy with new positions (and optionally a new cell)."""
        return Structure(
            self.symbols,
            positions,
            self.cell if cell is None else cell,
            self.pbc,
            self.molecule_ids,
        )


def _hill_formula(counts: Counter[str]) -> str:
    if "C" in counts:
        order = ["C"] + (["H"] if "H" in counts else [])
        order += sorted(s for s in counts if s not in ("C", "H"))
    else:
        order = sorted(counts)
    return "".join(f"{s}{counts[s] if counts[s] > 1 else ''}" for s in order)


def is_element(symbol: str) -> bool:
    """True if ``symbol`` is a chemical element symbol (case-sensitive)."""
    return symbol in chemical_symbols[1:]
