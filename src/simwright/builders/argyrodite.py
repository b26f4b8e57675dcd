"""Cubic argyrodite Li₆PS₅Cl (F-43m, No. 216) from published positions, ordered or with
Cl/S site exchange between 4a and 4c.

Source: H.-J. Deiseroth, S.-T. Kong, H. Eckert, J. Vannahme, C. Reiner, T. Zaiß,
M. Schlosser, Angew. Chem. Int. Ed. 47, 755 (2008) (the argyrodite family Li₆PS₅X);
the Cl/S exchange between 4a and 4c that raises the conductivity is discussed by
M. A. Kraft et al., J. Am. Chem. Soc. 139, 10909 (2017). The numbers below are quoted
from memory of those papers and could not be checked against them when this was
written: they are **unverified** (the report says so):

- a = 9.85 Å (unverified; reported values lie near 9.85–9.86 Å at room temperature);
- P at 4b (½, ½, ½); S(3) at 16e (x, x, x) with x = 0.62 (unverified), which gives
  the PS₄ tetrahedron a P–S distance of 2.05 Å (checked here by construction);
- the "free" anion sites 4a (0, 0, 0) and 4c (¼, ¼, ¼): the ordered model puts Cl on
  4a and S on 4c (in the real crystal a fraction of them is exchanged);
- Li on 48h (x, x, z) with x = 0.183, z = 0.027 (unverified), half occupied: the 48
  sites form 24 close pairs (1.87 Å apart here) across 24g, and an ordered model keeps
  one Li of each pair (24 Li, the formula's 6 per formula unit, Z = 4), chosen by a
  seeded random draw. These positions give Li–S 2.39 Å and Li–Cl 2.56 Å (computed).

The conventional cell holds 52 atoms (Li₂₄P₄S₂₀Cl₄).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simwright.errors import ValidationError
from simwright.structure import Structure

A_A = 9.85
"""Cubic lattice parameter (Å); unverified (Deiseroth et al. 2008)."""
S16E_X = 0.62
"""x of S on 16e (x, x, x); unverified."""
LI48H_XZ = (0.183, 0.027)
"""x and z of Li on 48h (x, x, z); unverified."""
CITATION = (
    "H.-J. Deiseroth et al., Angew. Chem. Int. Ed. 47, 755 (2008); site exchange: "
    "M. A. Kraft et al., J. Am. Chem. Soc. 139, 10909 (2017) (positions unverified)"
)
"""The source of the structure, as reports cite it."""
SITE_4A = np.array([0.0, 0.0, 0.0])
SITE_4C = np.array([0.25, 0.25, 0.25])
FCC = np.array([[0.0, 0.0, 0.0], [0.0, 0.5, 0.5], [0.5, 0.0, 0.5], [0.5, 0.5, 0.0]])


@dataclass(frozen=True)
class ArgyroditeSpec:
    """Li₆PS₅Cl repeated ``repeat`` times with ``exchange`` (0–1) of the Cl on 4a
    swapped with S on 4c, the exchanged sites and the Li ordering drawn with ``seed``."""

    repeat: tuple[int, int, int] = (1, 1, 1)
    exchange: float = 0.0
    seed: int = 1


def _sites() -> tuple[list[str], np.ndarray]:
    """Symbols and fractional positions of every site of the conventional cell, the
    48h Li sites all present."""
    # lazy: ase.spacegroup takes ~0.5 s to import
    from ase.spacegroup import crystal

    x, z = LI48H_XZ
    atoms = crystal(
        ["Cl", "S", "P", "S", "Li"],
        basis=[tuple(SITE_4A), tuple(SITE_4C), (0.5, 0.5, 0.5), (S16E_X,) * 3, (x, x, z)],
        spacegroup=216,
        cellpar=[A_A, A_A, A_A, 90.0, 90.0, 90.0],
    )
    return list(atoms.get_chemical_symbols()), atoms.get_scaled_positions()


def _periodic(d: np.ndarray) -> np.ndarray:
    return d - np.round(d)


def _half_li(symbols: list[str], frac: np.ndarray, rng: np.random.Generator) -> list[int]:
    """Indices to keep: every non-Li site and one Li of each close 48h pair."""
    li = [i for i, s in enumerate(symbols) if s == "Li"]
    d = np.linalg.norm(_periodic(frac[li][:, None] - frac[li][None]) * A_A, axis=2)
    np.fill_diagonal(d, np.inf)
    partner = d.argmin(axis=1)
    keep: set[int] = set()
    for k, j in enumerate(partner):
        if partner[j] != k:
            raise ValidationError("the 48h Li sites do not form pairs")
        if k < j:
            keep.add(li[k] if rng.random() < 0.5 else li[int(j)])
    return [i for i, s in enumerate(symbols) if s != "Li" or i in keep]


def on_site(frac: np.ndarray, site: np.ndarray, repeat: tuple[int, int, int]) -> np.ndarray:
    """Whether each fractional position of a ``repeat`` supercell is on Wyckoff ``site``."""
    unit = frac * np.array(repeat)
    return np.array(
        [np.min(np.linalg.norm(_periodic(u - site - FCC), axis=1)) < 1e-3 for u in unit]
    )


def build_argyrodite(spec: ArgyroditeSpec) -> Structure:
    """The supercell of ``spec``: 24 Li per conventional cell, and round(exchange × n)
    of the n Cl on 4a swapped with as many S on 4c."""
    # lazy: crystals imports ase.build only when it repeats
    from simwright.builders.crystals import supercell

    if not 0.0 <= spec.exchange <= 1.0:
        raise ValidationError(f"exchange is a fraction of the Cl sites (0–1), got {spec.exchange}")
    rng = np.random.default_rng(spec.seed)
    symbols, frac = _sites()
    kept = _half_li(symbols, frac, rng)
    cell = np.eye(3) * A_A
    unit = Structure(
        symbols=tuple(symbols[i] for i in kept),
        positions=frac[kept] @ cell,
        cell=cell,
        pbc=(True, True, True),
    )
    big = supercell(unit, spec.repeat)
    return exchange_anions(big, spec.exchange, spec.repeat, rng)


def exchange_anions(
    structure: Structure, fraction: float, repeat: tuple[int, int, int], rng: np.random.Generator
) -> Structure:
    """``structure`` with round(fraction × n) of its n Cl on 4a swapped with S on 4c."""
    frac = structure.positions @ np.linalg.inv(structure.cell)
    symbols = list(structure.symbols)
    on_a = [i for i in np.flatnonzero(on_site(frac, SITE_4A, repeat)) if symbols[i] == "Cl"]
    on_c = [i for i in np.flatnonzero(on_site(frac, SITE_4C, repeat)) if symbols[i] == "S"]
    n = round(fraction * len(on_a))
    for i, j in zip(rng.permutation(on_a)[:n], rng.permutation(on_c)[:n], strict=True):
        symbols[int(i)], symbols[int(j)] = "S", "Cl"
    return Structure(
        symbols=tuple(symbols),
        positions=structure.positions,
        cell=structure.cell,
        pbc=structure.pbc,
    )


def anion_exchange(structure: Structure, repeat: tuple[int, int, int]) -> float:
    """The fraction of the 4c sites that hold Cl (0 for the ordered model; Cl on 4a and
    S on 4c swapped in equal numbers, so it is also the fraction of 4a holding S)."""
    frac = structure.positions @ np.linalg.inv(structure.cell)
    c = on_site(frac, SITE_4C, repeat)
    return float(np.mean([structure.symbols[i] == "Cl" for i in np.flatnonzero(c)]))
