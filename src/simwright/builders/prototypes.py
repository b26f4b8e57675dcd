"""Crystal prototypes as cells and bases (crystallographic facts), built without
``ase.build``: importing that package loads SciPy and takes about a second, which the
build stage of ``simwright plan`` cannot afford. The cells, bases and atom order are
those of :func:`ase.build.bulk` (a test checks every prototype against it), so that a
structure built here is the structure ASE would build. Other prototypes (wurtzite,
cesium chloride) are left to :func:`ase.build.bulk`.
"""

from __future__ import annotations

import re
from math import sqrt

from ase import Atoms
from ase.data import atomic_numbers

_FCC_PRIMITIVE = ((0.0, 0.5, 0.5), (0.5, 0.0, 0.5), (0.5, 0.5, 0.0))
_BCC_PRIMITIVE = ((-0.5, 0.5, 0.5), (0.5, -0.5, 0.5), (0.5, 0.5, -0.5))
_CUBE = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
_FCC_TRANSLATIONS = ((0.0, 0.0, 0.0), (0.0, 0.5, 0.5), (0.5, 0.0, 0.5), (0.5, 0.5, 0.0))

Vector = tuple[float, float, float]

_BASIS: dict[str, tuple[Vector, ...]] = {
    "diamond": ((0.0, 0.0, 0.0), (0.25, 0.25, 0.25)),
    "zincblende": ((0.0, 0.0, 0.0), (0.25, 0.25, 0.25)),
    "rocksalt": ((0.0, 0.0, 0.0), (0.5, 0.0, 0.0)),
}
"""Sites of the two-atom fcc-based prototypes in the primitive cell, in units of ``a``
(Cartesian)."""

_CUBIC_OFFSET: dict[str, Vector] = {
    "diamond": (0.25, 0.25, 0.25),
    "zincblende": (0.25, 0.25, 0.25),
    "rocksalt": (0.5, 0.0, 0.0),
}
"""The second site of each fcc translation in the conventional cubic cell."""

ELEMENTAL = frozenset({"sc", "fcc", "bcc", "hcp", "diamond"})
COMPOUND = frozenset({"rocksalt", "zincblende"})


def species(formula: str) -> list[str]:
    """The element symbols of ``formula`` in order (``NaCl`` -> Na, Cl); digits refused."""
    symbols = re.findall(r"[A-Z][a-z]?", formula)
    if "".join(symbols) != formula or any(s not in atomic_numbers for s in symbols):
        raise ValueError(f"{formula!r} is not a sequence of element symbols")
    return symbols


def bulk(
    formula: str,
    prototype: str,
    *,
    a: float,
    c: float | None = None,
    cubic: bool = False,
    u: float | None = None,
) -> Atoms:
    """The crystal ``formula`` in ``prototype`` with lattice constant ``a`` (Å).

    ``c`` is the hcp cell height (Å, required for hcp); ``cubic`` asks for the
    conventional cubic cell; ``u`` is wurtzite's internal parameter (ASE's default
    when None). Raises ValueError for a formula that does not fit.
    """
    if prototype not in ELEMENTAL | COMPOUND:
        return _ase_bulk(formula, prototype, a=a, c=c, cubic=cubic, u=u)
    symbols = species(formula)
    want = 2 if prototype in COMPOUND else 1
    if len(symbols) != want:
        raise ValueError(f"{prototype} needs {want} element(s), got {formula!r}")
    if prototype == "hcp":
        if c is None:
            raise ValueError("hcp needs its cell height c")
        return _hcp(symbols[0], a, c)
    if cubic:
        return _cubic(symbols, prototype, a)
    return _primitive(symbols, prototype, a)


def _scaled(vectors: tuple[Vector, ...], a: float) -> list[list[float]]:
    return [[a * x for x in v] for v in vectors]


def _primitive(symbols: list[str], prototype: str, a: float) -> Atoms:
    if prototype == "sc":
        return Atoms(symbols, cell=_scaled(_CUBE, a), pbc=True)
    if prototype == "bcc":
        return Atoms(symbols, cell=_scaled(_BCC_PRIMITIVE, a), pbc=True)
    cell = _scaled(_FCC_PRIMITIVE, a)
    if prototype == "fcc":
        return Atoms(symbols, cell=cell, pbc=True)
    names = symbols * 2 if len(symbols) == 1 else symbols
    return Atoms(names, cell=cell, positions=_scaled(_BASIS[prototype], a), pbc=True)


def _cubic(symbols: list[str], prototype: str, a: float) -> Atoms:
    cell = _scaled(_CUBE, a)
    if prototype == "sc":
        return Atoms(symbols, cell=cell, pbc=True)
    if prototype == "bcc":
        return Atoms(
            symbols * 2, cell=cell, scaled_positions=[(0, 0, 0), (0.5, 0.5, 0.5)], pbc=True
        )
    if prototype == "fcc":
        return Atoms(symbols * 4, cell=cell, scaled_positions=_FCC_TRANSLATIONS, pbc=True)
    first, second = (symbols * 2)[:2]
    offset = _CUBIC_OFFSET[prototype]
    positions: list[Vector] = []
    for t in _FCC_TRANSLATIONS:
        positions.append(t)
        positions.append(tuple((t[i] + offset[i]) % 1.0 for i in range(3)))  # type: ignore[arg-type]
    return Atoms([first, second] * 4, cell=cell, scaled_positions=positions, pbc=True)


def _hcp(symbol: str, a: float, c: float) -> Atoms:
    cell = [[a, 0.0, 0.0], [-a / 2.0, a * sqrt(3.0) / 2.0, 0.0], [0.0, 0.0, c]]
    return Atoms(
        [symbol] * 2, cell=cell, scaled_positions=[(0, 0, 0), (1 / 3, 2 / 3, 0.5)], pbc=True
    )


def _ase_bulk(
    formula: str, prototype: str, *, a: float, c: float | None, cubic: bool, u: float | None
) -> Atoms:
    """A prototype written here only by ASE (wurtzite, cesium chloride...)."""
    # lazy: ase.build loads SciPy (~1 s); only the rarer prototypes come here
    from ase.build import bulk as ase_bulk

    try:
        return ase_bulk(formula, prototype, a=a, c=c, cubic=cubic, u=u)
    except (KeyError, RuntimeError) as exc:
        raise ValueError(f"cannot build {formula} as {prototype}: {exc}") from exc
