"""Reading what pw.x printed (a pure parser; canned outputs test it).

Units are converted here, at the engine's edge: energies to eV, forces to eV/Å,
stress to bar (pw.x prints kbar; the sign is pw.x's: a positive pressure means
the cell would like to expand), lengths to Å.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from ase.units import Bohr, Ry

from simwright.structure import Structure

KBAR_BAR = 1000.0

_FLOAT = r"[-+]?\d*\.?\d+(?:[EeDd][-+]?\d+)?"
_TOTAL = re.compile(rf"^!\s+total energy\s+=\s+({_FLOAT}) Ry", re.MULTILINE)
_FERMI = re.compile(rf"the Fermi energy is\s+({_FLOAT}) ev")
_FERMI_UPDW = re.compile(rf"the spin up/dw Fermi energies are\s+({_FLOAT})\s+({_FLOAT}) ev")
_HOMO_LUMO = re.compile(
    rf"highest occupied, lowest unoccupied level \(ev\):\s+({_FLOAT})\s+({_FLOAT})"
)
_HOMO = re.compile(rf"highest occupied level \(ev\):\s+({_FLOAT})")
_CONVERGED = re.compile(r"convergence has been achieved in\s+(\d+) iterations")
_NOT_CONVERGED = re.compile(r"convergence NOT achieved after\s+(\d+) iterations")
_ITERATION = re.compile(r"^\s+iteration #\s*(\d+)", re.MULTILINE)
_FORCE = re.compile(
    rf"^\s+atom\s+(\d+) type\s+\d+\s+force =\s+({_FLOAT})\s+({_FLOAT})\s+({_FLOAT})", re.MULTILINE
)
_STRESS = re.compile(rf"total\s+stress\s+\(Ry/bohr\*\*3\)\s+\(kbar\)\s+P=\s*({_FLOAT})")
_MAG = re.compile(rf"total magnetization\s+=\s+({_FLOAT}) Bohr mag/cell")
_ABSMAG = re.compile(rf"absolute magnetization\s+=\s+({_FLOAT}) Bohr mag/cell")
_SITE_MAG = re.compile(
    rf"^\s+atom:\s+(\d+)\s+charge:\s+{_FLOAT}\s+magn:\s+({_FLOAT})", re.MULTILINE
)
_NELEC = re.compile(rf"number of electrons\s+=\s+({_FLOAT})")
_NBND = re.compile(r"number of Kohn-Sham states=\s+(\d+)")
_VERSION = re.compile(r"Program PWSCF v\.(\S+) starts")
_WALL = re.compile(r"PWSCF\s+:.*?CPU\s+(?:(\d+)h\s*)?(?:(\d+)m\s*)?([\d.]+)s WALL")
_CELL = re.compile(
    r"^CELL_PARAMETERS\s*\(?\s*(\w+)\s*(?:=\s*(" + _FLOAT + r"))?\s*\)?", re.MULTILINE
)
_POSITIONS = re.compile(r"^ATOMIC_POSITIONS\s*\(?\s*(\w+)\s*\)?", re.MULTILINE)
_ALAT = re.compile(rf"lattice parameter \(alat\)\s+=\s+({_FLOAT})\s+a\.u\.")


@dataclass(frozen=True)
class PwOutput:
    """The facts of one pw.x output (None where the output does not say)."""

    job_done: bool
    version: str
    energy_ev: float | None
    energies_ev: tuple[float, ...]
    forces_ev_a: np.ndarray | None
    stress_bar: np.ndarray | None
    pressure_bar: float | None
    fermi_energy_ev: float | None
    homo_ev: float | None
    lumo_ev: float | None
    scf_converged: bool
    scf_iterations: tuple[int, ...]
    total_magnetization: float | None
    absolute_magnetization: float | None
    n_electrons: float | None
    n_bands: int | None
    relax_converged: bool | None
    max_steps_reached: bool
    wall_s: float | None
    bands_done: bool = False
    """A non-self-consistent run (nscf, bands) printed 'End of band structure calculation'."""
    site_magnetization: tuple[float, ...] = ()
    """μB per atom within pw.x's integration sphere (last 'Magnetic moment per site')."""

    @property
    def n_scf_iterations(self) -> int:
        """SCF iterations summed over all ionic steps."""
        return sum(self.scf_iterations)


def _f(text: str) -> float:
    return float(text.replace("D", "E").replace("d", "e"))


def _last(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    found = None
    for found in pattern.finditer(text):  # noqa: B007 - keep the last match
        pass
    return found


def parse_output(text: str) -> PwOutput:
    """Parse the text pw.x wrote to standard output."""
    energies = tuple(_f(m.group(1)) * Ry for m in _TOTAL.finditer(text))
    return PwOutput(
        job_done="JOB DONE." in text,
        version=(m.group(1) if (m := _VERSION.search(text)) else ""),
        energy_ev=energies[-1] if energies else None,
        energies_ev=energies,
        forces_ev_a=_forces(text),
        stress_bar=_stress(text),
        pressure_bar=(_f(m.group(1)) * KBAR_BAR if (m := _last(_STRESS, text)) else None),
        fermi_energy_ev=_fermi(text),
        homo_ev=_homo_lumo(text)[0],
        lumo_ev=_homo_lumo(text)[1],
        scf_converged=_scf_converged(text),
        scf_iterations=_scf_iterations(text),
        total_magnetization=(_f(m.group(1)) if (m := _last(_MAG, text)) else None),
        absolute_magnetization=(_f(m.group(1)) if (m := _last(_ABSMAG, text)) else None),
        n_electrons=(_f(m.group(1)) if (m := _NELEC.search(text)) else None),
        n_bands=(int(m.group(1)) if (m := _NBND.search(text)) else None),
        relax_converged=_relax_converged(text),
        max_steps_reached="The maximum number of steps has been reached." in text,
        wall_s=_wall(text),
        bands_done="End of band structure calculation" in text,
        site_magnetization=_site_magnetization(text),
    )


def _site_magnetization(text: str) -> tuple[float, ...]:
    """The last block of 'Magnetic moment per site' (one value per atom)."""
    start = text.rfind("Magnetic moment per site")
    if start < 0:
        return ()
    out: list[float] = []
    for m in _SITE_MAG.finditer(text, start):
        if out and int(m.group(1)) == 1:
            break
        out.append(_f(m.group(2)))
    return tuple(out)


def _forces(text: str) -> np.ndarray | None:
    start = text.rfind("Forces acting on atoms (cartesian axes, Ry/au):")
    if start < 0:
        return None
    rows: list[list[float]] = []
    for m in _FORCE.finditer(text, start):
        if rows and int(m.group(1)) == 1:
            break  # the next block (e.g. the non-local contribution) starts
        rows.append([_f(m.group(i)) for i in (2, 3, 4)])
    return np.array(rows) * Ry / Bohr if rows else None


def _stress(text: str) -> np.ndarray | None:
    m = _last(_STRESS, text)
    if m is None:
        return None
    lines = text[m.end() :].strip("\n").splitlines()[:3]
    try:
        rows = [[_f(x) for x in line.split()[3:6]] for line in lines]
        return np.array(rows, dtype=float) * KBAR_BAR
    except (ValueError, IndexError):
        return None


def _fermi(text: str) -> float | None:
    m = _last(_FERMI, text)
    if m is not None:
        return _f(m.group(1))
    m = _last(_FERMI_UPDW, text)
    if m is not None:
        return max(_f(m.group(1)), _f(m.group(2)))
    return None


def _homo_lumo(text: str) -> tuple[float | None, float | None]:
    m = _last(_HOMO_LUMO, text)
    if m is not None:
        return _f(m.group(1)), _f(m.group(2))
    m = _last(_HOMO, text)
    return (_f(m.group(1)) if m else None), None


def _scf_converged(text: str) -> bool:
    good = _last(_CONVERGED, text)
    bad = _last(_NOT_CONVERGED, text)
    if good is None:
        return False
    return bad is None or good.start() > bad.start()


def _scf_iterations(text: str) -> tuple[int, ...]:
    counts: list[int] = []
    for m in re.finditer(
        r"convergence (?:has been achieved in|NOT achieved after)\s+(\d+) iterations", text
    ):
        counts.append(int(m.group(1)))
    return tuple(counts)


def _relax_converged(text: str) -> bool | None:
    if "Geometry Optimization" not in text:
        return None
    return "bfgs converged" in text and "The maximum number of steps has been reached." not in text


def _wall(text: str) -> float | None:
    m = _last(_WALL, text)
    if m is None:
        return None
    hours, minutes, seconds = m.group(1), m.group(2), m.group(3)
    return int(hours or 0) * 3600 + int(minutes or 0) * 60 + float(seconds)


def last_structure(text: str, initial: Structure) -> Structure | None:
    """The last geometry pw.x printed (the final one of a relaxation), in Å.

    Returns None when the output holds no ATOMIC_POSITIONS block (an SCF run).
    """
    pos = _last(_POSITIONS, text)
    if pos is None:
        return None
    cell = initial.cell
    cell_match = _last(_CELL, text)
    if cell_match is not None:
        cell = _read_cell(text, cell_match, initial)
    n = len(initial)
    lines = text[pos.end() :].strip("\n").splitlines()[:n]
    symbols = initial.symbols  # the labels of species ("Fe1") name the same elements
    coords = np.array([[_f(x) for x in line.split()[1:4]] for line in lines])
    positions = _to_angstrom(coords, pos.group(1).lower(), cell, _alat_bohr(text))
    return Structure(symbols, positions, cell, initial.pbc, initial.molecule_ids)


def _read_cell(text: str, m: re.Match[str], initial: Structure) -> np.ndarray:
    unit = m.group(1).lower()
    rows = text[m.end() :].strip("\n").splitlines()[:3]
    vectors = np.array([[_f(x) for x in row.split()[:3]] for row in rows])
    if unit == "angstrom":
        return vectors
    if unit == "bohr":
        return vectors * Bohr
    alat = _f(m.group(2)) if m.group(2) else _alat_bohr(text)
    if alat is None:
        return np.array(initial.cell)
    return vectors * alat * Bohr


def _alat_bohr(text: str) -> float | None:
    m = _ALAT.search(text)
    return _f(m.group(1)) if m else None


def _to_angstrom(
    coords: np.ndarray, unit: str, cell: np.ndarray, alat_bohr: float | None
) -> np.ndarray:
    if unit == "angstrom":
        return coords
    if unit == "bohr":
        return coords * Bohr
    if unit == "crystal":
        return coords @ cell
    if unit == "alat" and alat_bohr is not None:
        return coords * alat_bohr * Bohr
    raise ValueError(f"cannot convert positions given in {unit!r}")


def read_crash(workdir: Path) -> str:
    """The text of pw.x's CRASH file in ``workdir`` ('' when there is none)."""
    path = workdir / "CRASH"
    return path.read_text(errors="replace") if path.is_file() else ""


def crash_message(crash: str) -> str:
    """The error lines of a CRASH file, without the frame of percent signs."""
    keep = [
        line.strip()
        for line in crash.splitlines()
        if line.strip() and not line.strip().startswith("%") and "task #" not in line
    ]
    return "\n".join(dict.fromkeys(keep))
