"""Bulk crystals by prototype, and supercells of any structure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ase.data import atomic_numbers, reference_states

from simwright.builders.prototypes import bulk
from simwright.errors import ValidationError
from simwright.structure import Structure

Prototype = Literal[
    "fcc",
    "bcc",
    "hcp",
    "diamond",
    "sc",
    "rocksalt",
    "zincblende",
    "cesiumchloride",
    "wurtzite",
    "fluorite",
    "rutile",
    "perovskite",
]

CONVENTIONAL_ATOMS: dict[str, int] = {
    "fcc": 4,
    "bcc": 2,
    "sc": 1,
    "diamond": 8,
    "rocksalt": 8,
    "zincblende": 8,
    "cesiumchloride": 2,
    "fluorite": 12,
    "perovskite": 5,
}
"""Atoms in the conventional cubic cell of each cubic prototype."""

_ELEMENTAL: frozenset[str] = frozenset({"fcc", "bcc", "hcp", "diamond", "sc"})
_COMPOUND: frozenset[str] = frozenset(
    {"rocksalt", "zincblende", "cesiumchloride", "wurtzite", "fluorite", "rutile", "perovskite"}
)
_SPACEGROUP: frozenset[str] = frozenset({"rutile", "perovskite"})
"""Prototypes ASE's ``bulk`` does not build: made from their Wyckoff positions
(:mod:`simwright.builders.wyckoff`)."""


def reference_crystal(element: str) -> tuple[str | None, float | None, float | None]:
    """ASE's reference crystal of ``element``: (prototype, a in Å, c/a), None where unknown."""
    if element not in atomic_numbers:
        raise ValidationError(f"unknown element {element!r}")
    ref = reference_states[atomic_numbers[element]] or {}
    sym = ref.get("symmetry")
    a = ref.get("a")
    c_over_a = ref.get("c/a")
    return (
        str(sym) if sym is not None else None,
        float(a) if a is not None else None,  # type: ignore[arg-type]
        float(c_over_a) if c_over_a is not None else None,  # type: ignore[arg-type]
    )


@dataclass(frozen=True)
class BulkSpec:
    """A bulk crystal: ``formula`` (an element, or a binary such as ``NaCl`` for the
    compound prototypes) in ``prototype``, with lattice constant ``a_a`` (Å).

    ``prototype`` None takes the element's reference structure; ``a_a`` None its
    reference lattice constant (compounds need one). ``cubic`` asks for the
    conventional cubic cell instead of the primitive one (cubic prototypes only).
    ``c_over_a`` sets the axial ratio of hcp, wurtzite and rutile; ``u`` the internal
    parameter of wurtzite (default ideal) and rutile (oxygen at (u, u, 0); default 0.305).
    Compounds name their elements in order: ``ZnO`` wurtzite, ``CaF2`` fluorite,
    ``TiO2`` rutile, ``SrTiO3`` perovskite (A, B, X).
    """

    formula: str
    prototype: Prototype | None = None
    a_a: float | None = None
    c_over_a: float | None = None
    cubic: bool = False
    u: float | None = None

    def resolved(self) -> tuple[str, float, float | None]:
        """(prototype, a, c/a) after filling in the element's reference values."""
        if self.formula in atomic_numbers:
            ref_proto, ref_a, ref_c = reference_crystal(self.formula)
        else:
            ref_proto, ref_a, ref_c = None, None, None
        proto = self.prototype or ref_proto
        if proto is None and self.formula not in atomic_numbers:
            raise ValidationError(
                f"{self.formula!r} is not an element; give a compound prototype "
                f"({', '.join(sorted(_COMPOUND))}) and a_a"
            )
        if proto is None:
            raise ValidationError(f"no reference crystal for {self.formula}; give a prototype")
        if proto not in _ELEMENTAL | _COMPOUND:
            raise ValidationError(
                f"{self.formula} is {proto} in its reference state; give one of "
                f"{', '.join(sorted(_ELEMENTAL | _COMPOUND))}"
            )
        a = self.a_a if self.a_a is not None else (ref_a if proto == ref_proto else None)
        if a is None or a <= 0:
            raise ValidationError(f"no lattice constant for {self.formula} ({proto}); give a_a")
        c = self.c_over_a if self.c_over_a is not None else ref_c
        return proto, a, c

    def conventional_atoms(self) -> int | None:
        """Atoms in the conventional cubic cell (None for hcp)."""
        return CONVENTIONAL_ATOMS.get(self.resolved()[0])


def build_bulk(spec: BulkSpec) -> Structure:
    """The crystal of ``spec`` (the cells and atom order of :func:`ase.build.bulk`)."""
    proto, a, c_over_a = spec.resolved()
    if proto in _ELEMENTAL and spec.formula not in atomic_numbers:
        raise ValidationError(f"{proto} is built for one element, not {spec.formula!r}")
    if proto in _COMPOUND and spec.formula in atomic_numbers:
        raise ValidationError(f"{proto} needs a binary compound such as NaCl, not {spec.formula}")
    if spec.cubic and proto not in CONVENTIONAL_ATOMS:
        raise ValidationError(f"{proto} has no conventional cubic cell")
    if proto in _SPACEGROUP:
        # lazy: the Wyckoff-position builders import ASE's spacegroup module
        from simwright.builders.wyckoff import build_prototype

        return build_prototype(spec.formula, proto, a, c_over_a, spec.u)
    kwargs: dict[str, Any] = {"a": a, "cubic": spec.cubic}
    if proto in ("hcp", "wurtzite"):
        kwargs["c"] = a * (c_over_a if c_over_a is not None else (8.0 / 3.0) ** 0.5)
    if proto == "wurtzite" and spec.u is not None:
        kwargs["u"] = spec.u
    try:
        atoms = bulk(spec.formula, proto, **kwargs)
    except (ValueError, KeyError, RuntimeError) as exc:
        raise ValidationError(f"cannot build {spec.formula} as {proto}: {exc}") from exc
    return Structure.from_ase(atoms)


@dataclass(frozen=True)
class SupercellSpec:
    """Repeat a crystal ``repeat`` = (nx, ny, nz) times along its cell vectors."""

    bulk: BulkSpec
    repeat: tuple[int, int, int] = (2, 2, 2)


def supercell(structure: Structure, repeat: tuple[int, int, int]) -> Structure:
    """``structure`` repeated ``repeat`` times along its (periodic) cell vectors."""
    if len(repeat) != 3 or any(not isinstance(n, int) or n < 1 for n in repeat):
        raise ValidationError(f"a supercell repeats by three positive integers, got {repeat!r}")
    if not all(structure.pbc):
        raise ValidationError("only a structure periodic in x, y and z can be repeated")
    return Structure.from_ase(structure.to_ase().repeat(repeat))


def build_supercell(spec: SupercellSpec) -> Structure:
    """The supercell of ``spec``."""
    return supercell(build_bulk(spec.bulk), spec.repeat)
