"""Readers of the files ``bands.x``, ``dos.x`` and ``projwfc.x`` write (pure parsers).

Energies are in eV as the tools print them; k-point coordinates of ``bands.x`` are
Cartesian in units of 2π/alat.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simwright.errors import ParseError

_NUMBER = re.compile(r"[-+]?\d*\.\d+(?:[EeDd][-+]?\d+)?")
_PLOT = re.compile(r"&plot\s+nbnd=\s*(\d+),\s*nks=\s*(\d+)\s*/")
_EFERMI = re.compile(r"EFermi\s*=\s*([-+]?\d*\.?\d+)")
_PDOS = re.compile(r"\.pdos_atm#(\d+)\((\w+)\)_wfc#(\d+)\((\w+)(?:_j[\d.]+)?\)$")


@dataclass(frozen=True, eq=False)
class BandEnergies:
    """Band energies at a list of k-points: ``energies_ev[k, band]``."""

    kpoints: np.ndarray
    """(n_k, 3), Cartesian, 2π/alat."""
    energies_ev: np.ndarray


@dataclass(frozen=True, eq=False)
class DosCurve:
    """A DOS file: energies (eV), named columns (states/eV or states), the Fermi level."""

    energy_ev: np.ndarray
    columns: dict[str, np.ndarray]
    fermi_ev: float | None


@dataclass(frozen=True, eq=False)
class PartialDos:
    """The projected DOS of one atomic wave function of one atom (summed over m)."""

    atom: int
    element: str
    wfc: int
    orbital: str
    energy_ev: np.ndarray
    pdos: np.ndarray
    """(n_E,) or (n_E, 2) for spin up and down."""


def read_filband(path: Path) -> BandEnergies:
    """The plain ``filband`` of bands.x: a ``&plot`` header, then per k its coordinates
    and ``nbnd`` energies."""
    text = path.read_text()
    m = _PLOT.search(text)
    if m is None:
        raise ParseError(f"{path.name}: no '&plot nbnd=..., nks=...' header")
    nbnd, nks = int(m.group(1)), int(m.group(2))
    numbers = [float(x) for x in _NUMBER.findall(text[m.end() :])]
    if len(numbers) != nks * (3 + nbnd):
        raise ParseError(
            f"{path.name}: expected {nks} k-points with {nbnd} bands, read {len(numbers)} numbers"
        )
    block = np.array(numbers).reshape(nks, 3 + nbnd)
    return BandEnergies(block[:, :3], block[:, 3:])


def _header_columns(header: str) -> list[str]:
    names = re.findall(r"(\w+)\(E\)", header.replace("Int dos", "Int_dos"))
    return [n.lower() for n in names]


def read_dos(path: Path) -> DosCurve:
    """A ``dos.x`` file (``E dos int`` or ``E dosup dosdw int``) with EFermi from its header."""
    lines = path.read_text().splitlines()
    if not lines or not lines[0].startswith("#"):
        raise ParseError(f"{path.name}: no header line")
    data = np.loadtxt(path, comments="#", ndmin=2)
    names = _header_columns(lines[0])
    if len(names) != data.shape[1] - 1:
        raise ParseError(f"{path.name}: header names {names}, data has {data.shape[1]} columns")
    m = _EFERMI.search(lines[0])
    columns = {n: data[:, i + 1] for i, n in enumerate(names)}
    return DosCurve(data[:, 0], columns, float(m.group(1)) if m else None)


def read_pdos(workdir: Path, filpdos: str) -> list[PartialDos]:
    """Every ``<filpdos>.pdos_atm#N(El)_wfc#M(l)`` file of ``projwfc.x`` in ``workdir``.

    The first data column after the energy is the m-summed projected DOS ``ldos``
    (two columns ``ldosup ldosdw`` when spin-polarised)."""
    out: list[PartialDos] = []
    for path in sorted(workdir.glob(f"{filpdos}.pdos_atm#*")):
        m = _PDOS.search(path.name)
        if m is None:
            continue
        header = path.read_text().splitlines()[0]
        data = np.loadtxt(path, comments="#", ndmin=2)
        spin = "ldosup" in header.lower()
        pdos = data[:, 1:3] if spin else data[:, 1]
        out.append(
            PartialDos(int(m.group(1)), m.group(2), int(m.group(3)), m.group(4), data[:, 0], pdos)
        )
    if not out:
        raise ParseError(f"projwfc.x wrote no {filpdos}.pdos_atm#* files in {workdir.name}")
    return out


def pdos_by_element_orbital(parts: list[PartialDos]) -> dict[str, np.ndarray]:
    """Partial DOS summed over atoms of one element and wave functions of one orbital
    label, keyed ``Si_s``, ``Fe_d``; spin-polarised entries sum up and down."""
    sums: dict[str, np.ndarray] = {}
    for p in parts:
        key = f"{p.element}_{p.orbital}"
        values = p.pdos.sum(axis=1) if p.pdos.ndim == 2 else p.pdos
        sums[key] = sums.get(key, np.zeros_like(values)) + values
    return sums
