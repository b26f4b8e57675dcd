"""Turn a parsed pw.x input (:class:`~simwright.engines.espresso.reader.PwFile`) into a PwInput.

The cell comes from ``CELL_PARAMETERS`` (``ibrav=0``) or from the Bravais
lattices simwright supports (``ibrav`` 1, 2, 3, -3, 4, 6, 8, written from the
pw.x 6.7 input description); positions in ``alat``, ``bohr``, ``angstrom`` or
``crystal`` units are converted to Å. Everything the template manages itself
(``ibrav``, ``nat``, ``celldm``, every variable naming a file or folder) is left out
of the namelists.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np
from ase.data import chemical_symbols
from ase.units import Bohr

from simwright.engines.espresso.template import (
    MANAGED,
    PATH_VARIABLES,
    KPoints,
    PwInput,
    Species,
    Value,
)
from simwright.errors import ValidationError
from simwright.structure import Structure

if TYPE_CHECKING:
    from simwright.engines.espresso.reader import Card, PwFile

_GEOMETRY = frozenset({"cosab", "cosac", "cosbc", "space_group"})
_DROPPED = MANAGED | PATH_VARIABLES | _GEOMETRY
"""Set by the template (geometry, counts, every path), so not kept from the file."""
_S3 = np.sqrt(3.0)


def to_pw_input(f: PwFile) -> PwInput:
    """The :class:`PwInput` of a parsed file; :class:`ValidationError` names what is missing."""
    species = _species(f)
    alat = _alat_angstrom(f)
    cell = _cell(f, alat)
    symbols, positions, fixed = _positions(f, alat, cell)
    labels = {s.symbol for s in species}
    unknown = sorted(set(symbols) - labels)
    if unknown:
        raise ValidationError(f"ATOMIC_POSITIONS names species not in ATOMIC_SPECIES: {unknown}")
    namelists: dict[str, dict[str, Value]] = {}
    for nl, values in f.namelists.items():
        kept = {
            k: v for k, v in values.items() if k.split("(")[0].lower() not in MANAGED | _GEOMETRY
        }
        if kept or nl in ("control", "system", "electrons"):
            namelists[nl] = kept  # empty &IONS / &CELL are written again when needed
    structure = Structure(tuple(symbols), positions, cell, (True, True, True))
    return PwInput(namelists, species, structure, _kpoints(f), fixed)


def _need(f: PwFile, name: str) -> Card:
    card = f.cards.get(name)
    if card is None:
        raise ValidationError(f"the input has no {name} card")
    return card


def _float(token: str) -> float:
    return float(token.lower().replace("d", "e"))


def _species(f: PwFile) -> tuple[Species, ...]:
    out = []
    for row in _need(f, "ATOMIC_SPECIES").rows:
        if len(row) < 3:
            raise ValidationError(f"ATOMIC_SPECIES line {' '.join(row)!r} needs label, mass, file")
        if row[0] not in chemical_symbols[1:]:
            raise ValidationError(
                f"species label {row[0]!r} is not an element; simwright's template names "
                "species by element"
            )
        mass = _float(row[1])
        out.append(Species(row[0], row[2], mass if mass > 0 else None))
    return tuple(out)


def _number(f: PwFile, name: str) -> float | None:
    value = f.get(name)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _alat_angstrom(f: PwFile) -> float | None:
    celldm1 = _number(f, "celldm(1)")
    if celldm1:
        return celldm1 * Bohr
    return _number(f, "A") or None


def _ratio(f: PwFile, index: int, length: str, alat: float) -> float:
    ratio = _number(f, f"celldm({index})")
    if ratio:
        return ratio
    value = _number(f, length)
    if value:
        return value / alat
    raise ValidationError(f"this ibrav needs celldm({index}) or {length}")


def _bravais(f: PwFile, ibrav: int, alat: float) -> np.ndarray:
    if ibrav == 1:
        m = np.eye(3)
    elif ibrav == 2:
        m = np.array([[-1, 0, 1], [0, 1, 1], [-1, 1, 0]]) / 2
    elif ibrav == 3:
        m = np.array([[1, 1, 1], [-1, 1, 1], [-1, -1, 1]]) / 2
    elif ibrav == -3:
        m = np.array([[-1, 1, 1], [1, -1, 1], [1, 1, -1]]) / 2
    elif ibrav == 4:
        m = np.array([[1, 0, 0], [-0.5, _S3 / 2, 0], [0, 0, _ratio(f, 3, "C", alat)]])
    elif ibrav == 6:
        m = np.diag([1.0, 1.0, _ratio(f, 3, "C", alat)])
    elif ibrav == 8:
        m = np.diag([1.0, _ratio(f, 2, "B", alat), _ratio(f, 3, "C", alat)])
    else:
        raise ValidationError(
            f"ibrav={ibrav} is not converted by simwright (0, 1, 2, 3, -3, 4, 6, 8 are)"
        )
    return np.asarray(m, dtype=float) * alat


def _cell(f: PwFile, alat: float | None) -> np.ndarray:
    ibrav = f.get("ibrav")
    if not isinstance(ibrav, int) or isinstance(ibrav, bool):
        raise ValidationError("the input sets no integer ibrav")
    if ibrav != 0:
        if alat is None:
            raise ValidationError(f"ibrav={ibrav} needs celldm(1) or A")
        return _bravais(f, ibrav, alat)
    card = _need(f, "CELL_PARAMETERS")
    rows = np.array([[_float(t) for t in row[:3]] for row in card.rows[:3]])
    if rows.shape != (3, 3):
        raise ValidationError("CELL_PARAMETERS needs three rows of three numbers")
    return rows * _unit(card.option or ("alat" if alat else "bohr"), alat, "CELL_PARAMETERS")


def _unit(option: str, alat: float | None, card: str) -> float:
    if option == "angstrom":
        return 1.0
    if option == "bohr":
        return float(Bohr)
    if option == "alat":
        if alat is None:
            raise ValidationError(f"{card} in alat units needs celldm(1) or A")
        return alat
    raise ValidationError(f"{card} {option!r} units are not converted by simwright")


def _positions(
    f: PwFile, alat: float | None, cell: np.ndarray
) -> tuple[list[str], np.ndarray, tuple[tuple[bool, bool, bool], ...] | None]:
    card = _need(f, "ATOMIC_POSITIONS")
    nat = f.get("nat")
    rows = card.rows[: nat if isinstance(nat, int) else len(card.rows)]
    symbols = [re.sub(r"[^A-Za-z].*$", "", r[0]) for r in rows]
    xyz = np.array([[_float(t) for t in r[1:4]] for r in rows], dtype=float).reshape(-1, 3)
    option = card.option or "alat"
    positions = xyz @ cell if option == "crystal" else xyz * _unit(option, alat, card.name)
    if not any(len(r) >= 7 for r in rows):
        return symbols, positions, None
    fixed = tuple(_frozen(r[4:7]) if len(r) >= 7 else (False, False, False) for r in rows)
    return symbols, positions, fixed


def _frozen(flags: tuple[str, ...]) -> tuple[bool, bool, bool]:
    """pw.x's if_pos flags (0 = frozen) as simwright's "fixed" flags."""
    return (flags[0] == "0", flags[1] == "0", flags[2] == "0")


def _kpoints(f: PwFile) -> KPoints:
    card = f.cards.get("K_POINTS")
    if card is None or card.option == "gamma":
        return KPoints("gamma")
    if card.option == "automatic" and card.rows and len(card.rows[0]) >= 6:
        nums = [int(t) for t in card.rows[0][:6]]
        return KPoints("automatic", (nums[0], nums[1], nums[2]), (nums[3], nums[4], nums[5]))
    raise ValidationError(
        f"K_POINTS {card.option or 'tpiba'} lists are not written by simwright's template "
        "(automatic meshes and gamma are)"
    )
