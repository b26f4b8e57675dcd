"""What the lattice-defect protocols share: convergence records, units, estimates, words.

``vacancy_formation_energy``, ``surface_energy``, ``stacking_fault`` and
``vacancy_migration`` each relax the lattice constant first (the shared EOS
action of :mod:`simwright.steps.lattice`) and then compute a defect in cells of
increasing size. :class:`Convergence` records a quantity against the size and
says whether the last two values agree within the stated tolerance; the reports
print it row by row. The published values they compare with live in
:mod:`simwright.potentials.defect_values`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from simwright.errors import ParseError
from simwright.potentials.defect_values import defect_references
from simwright.protocols.estimate import Estimate
from simwright.protocols.solids.engine import SolidEngineParams, solid_request
from simwright.protocols.solids.sizing import ASE_EVAL_CORE_S, LAMMPS_POINT_CORE_S
from simwright.results import Reference
from simwright.structure import Structure

EV_PER_A2_IN_J_PER_M2: Final = 16.02176634
"""1 eV/Å² in J/m²."""

ATOM_CORE_S_RELAX: Final = 0.004
"""Core-seconds per atom of one relaxation with an EAM/Tersoff potential in LAMMPS or
EMT in ASE (a few tens of conjugate-gradient or BFGS steps); measured on small cells."""


@dataclass(frozen=True)
class Convergence:
    """A quantity computed at increasing sizes, and the tolerance its last two values
    must meet (same unit)."""

    label: str
    sizes: tuple[str, ...]
    values: tuple[float, ...]
    tolerance: float
    unit: str

    @property
    def change(self) -> float | None:
        """|last − previous|, or None with a single size."""
        if len(self.values) < 2:
            return None
        return abs(self.values[-1] - self.values[-2])

    @property
    def converged(self) -> bool:
        """True when the last two values differ by less than the tolerance."""
        change = self.change
        return change is not None and change < self.tolerance

    def note(self) -> str:
        """One line for the report: the values per size and the verdict."""
        rows = ", ".join(f"{s}: {v:.4g}" for s, v in zip(self.sizes, self.values, strict=True))
        change = self.change
        if change is None:
            return f"{self.label} ({self.unit}) — {rows}; one size only: convergence NOT checked."
        verdict = "converged" if self.converged else "NOT converged: use larger sizes"
        return (
            f"{self.label} ({self.unit}) — {rows}; last change {change:.3g} vs tolerance "
            f"{self.tolerance:g}: {verdict}."
        )


def references(p: SolidEngineParams, quantities: tuple[str, ...]) -> tuple[Reference, ...]:
    """The potential's published values (if recorded), then experiment."""
    entry = p.potential_entry()
    return defect_references(entry.file if entry else None, p.element, quantities)


def comparison_note(p: SolidEngineParams) -> str:
    """What the values are compared with, and that unverified values are marked."""
    entry = p.potential_entry()
    engine = entry.file if entry else p.calculator
    return (
        f"Compared with the published values of {engine} where recorded and with "
        "experiment; values marked [unverified] were recalled, not re-checked in the source. "
        "Static 0 K values of the model; experiments are at finite temperature."
    )


def defect_estimate(
    p: SolidEngineParams, relaxations: list[int], calls: int, what: str
) -> Estimate:
    """An estimate from the atom counts of the relaxed cells (and the EOS scan)."""
    lammps = p.potential is not None
    per_atom = ATOM_CORE_S_RELAX * (1.0 if lammps or p.calculator in ASE_EVAL_CORE_S else 200.0)
    start = LAMMPS_POINT_CORE_S if lammps else 0.0
    core_s = sum(start + per_atom * n for n in relaxations) + 7 * (start + 0.05)
    return Estimate(
        atoms=max(relaxations, default=1),
        engine_calls=calls + 7 if lammps else 2,
        output_bytes=200_000 + 30_000 * (calls if lammps else 1),
        core_hours=core_s / 3600.0,
        longest_call_core_s=max((start + per_atom * n for n in relaxations), default=1.0)
        if lammps
        else core_s,
        basis=(
            f"{what}: {len(relaxations)} relaxations of {min(relaxations, default=0)}–"
            f"{max(relaxations, default=0)} atoms × {per_atom:g} core-s per atom"
            + (f" + {start:g} s start-up each (LAMMPS)" if lammps else f" ({p.calculator})"),
            "plus a 7-point EOS scan; output: structures, HDF5 tables, a plot, the report",
        ),
    )


def read_int_list(text: str, pattern: str) -> tuple[int, ...] | None:
    """Integers listed before/after the words ``pattern`` ("sizes 2, 3, 4", "3 to 5 layers")."""
    m = re.search(pattern, text, re.IGNORECASE)
    if m is None:
        return None
    numbers = [int(n) for n in re.findall(r"\d+", m.group(0))]
    if " to " in m.group(0) and len(numbers) == 2:
        return tuple(range(numbers[0], numbers[1] + 1))
    return tuple(numbers)


def miller_index(text: str) -> tuple[int, int, int] | None:
    """A Miller index written (111), (1 1 0) or (1-10), or None."""
    m = re.search(r"\((-?\d)\s*,?\s*(-?\d)\s*,?\s*(-?\d)\)", text)
    if m is None:
        return None
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


_CONDITION = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s*(?:K|°C|GPa|bar|atm)(?![\w])")
_VACUUM = re.compile(
    r"(\d+(?:\.\d+)?)\s*(?:Å|A|angstroms?)\s+(?:of\s+)?vacuum|vacuum\s+(?:of\s+)?"
    r"(\d+(?:\.\d+)?)\s*(?:Å|A|angstroms?)\b",
    re.IGNORECASE,
)


def defect_request(text: str, trigger: re.Pattern[str], example: str) -> dict[str, Any] | None:
    """:func:`~simwright.protocols.solids.engine.solid_request` for the defect protocols,
    refusing by name a temperature or pressure (they compute static 0 K energies)."""
    if not trigger.search(text.lower()):
        return None
    condition = _CONDITION.search(text)
    if condition is not None:
        raise ParseError(
            f"{condition.group(0)!r} cannot be honoured: the defect protocols compute "
            "static 0 K energies at the relaxed lattice constant"
        )
    return solid_request(text, trigger, example)


def read_vacuum(text: str) -> float | None:
    """The vacuum stated ('20 Å vacuum', 'vacuum of 15 Å'), in Å, or None."""
    m = _VACUUM.search(text)
    if m is None:
        return None
    return float(m.group(1) or m.group(2))


def rattled(structure: Structure, amplitude_a: float, seed: int = 7) -> Structure:
    """``structure`` with every atom displaced uniformly within ±``amplitude_a`` Å per
    axis (a fixed seed: the same displacements every run)."""
    if amplitude_a == 0:
        return structure
    shift = np.random.default_rng(seed).uniform(-amplitude_a, amplitude_a, (len(structure), 3))
    return structure.with_positions(structure.positions + shift)
