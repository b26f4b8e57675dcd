"""Energies of a list of structures with any energy engine.

:class:`EnergyEngine` is the one interface: ``evaluate(ctx, structures)`` runs the
engine (recording every engine call in the step) and returns :class:`Energies`.
Implementations are frozen dataclasses, so a step holding one is stored and
resumed like any other: :class:`AseEnergies` (an ASE calculator: EMT, LJ, MLIPs),
:class:`LammpsEnergies` (a force field of :mod:`simwright.forcefields`, one LAMMPS
``run 0`` per structure) and, above this layer because it needs the DFT knowledge
graph, :class:`simwright.protocols.dft_energies.PwEnergies` (pw.x inside the
error-recovery machine).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from simwright.contract import Column
from simwright.engines.ase.calculators import CalculatorSpec, energies
from simwright.engines.lammps.single_point import single_point
from simwright.errors import ValidationError
from simwright.forcefields import get_forcefield
from simwright.graph import RunContext
from simwright.steps.md import launcher
from simwright.structure import Structure


@dataclass(frozen=True)
class Energies:
    """Potential energies (eV) of the evaluated structures, in order, and any per-structure
    columns the engine adds to the table (pw.x: runs needed, repaired)."""

    energy_ev: np.ndarray
    columns: tuple[Column, ...] = field(default_factory=tuple)


class EnergyEngine(ABC):
    """Computes the potential energy of structures; a frozen dataclass in practice."""

    @abstractmethod
    def label(self) -> str:
        """A short name for tables and summaries (``emt``, ``lj_argon (LAMMPS)``, ``pw.x``)."""

    @abstractmethod
    def describe(self) -> str:
        """How the energies are computed, for the method section of a report."""

    def check_elements(self, symbols: Sequence[str]) -> None:  # noqa: B027 - optional hook
        """Refuse elements the engine cannot handle (default: accept all)."""

    @abstractmethod
    def evaluate(self, ctx: RunContext, structures: Sequence[Structure]) -> Energies:
        """Run the engine on ``structures`` inside step ``ctx``, recording each call."""


def _progress(ctx: RunContext, done: int, total: int) -> None:
    ctx.progress(done / total, f"structure {done}/{total}")


@dataclass(frozen=True)
class AseEnergies(EnergyEngine):
    """Energies from an in-process ASE calculator (one instance for all structures)."""

    calculator: CalculatorSpec = field(default_factory=CalculatorSpec)

    def label(self) -> str:
        """The calculator's short name."""
        return self.calculator.name

    def describe(self) -> str:
        """The calculator and its arguments."""
        return self.calculator.describe()

    def check_elements(self, symbols: Sequence[str]) -> None:
        """The calculator's own check (EMT knows its elements)."""
        self.calculator.check_elements(symbols)

    def evaluate(self, ctx: RunContext, structures: Sequence[Structure]) -> Energies:
        """One ASE call over all structures."""
        values, call = energies(
            structures,
            self.calculator,
            progress=lambda i, n: _progress(ctx, i, n),
            allow=ctx.settings.plugins,
        )
        ctx.engine_call(call)
        return Energies(values)


@dataclass(frozen=True)
class LammpsEnergies(EnergyEngine):
    """Energies from LAMMPS with a force field of the registry: a ``run 0`` per structure,
    each in its own directory ``point-NN`` of the step."""

    forcefield: str = "lj_argon"

    def label(self) -> str:
        """E.g. ``lj_argon (LAMMPS)``."""
        return f"{self.forcefield} (LAMMPS)"

    def describe(self) -> str:
        """The force field and its reference."""
        ff = get_forcefield(self.forcefield)
        return f"LAMMPS single points with the {ff.description or ff.name} force field"

    def check_elements(self, symbols: Sequence[str]) -> None:
        """Refuse elements the force field has no atom type for."""
        known = {t.element for t in get_forcefield(self.forcefield).atom_types}
        missing = sorted(set(symbols) - known)
        if missing:
            raise ValidationError(
                f"force field {self.forcefield!r} has no atom type for {', '.join(missing)}"
            )

    def evaluate(self, ctx: RunContext, structures: Sequence[Structure]) -> Energies:
        """Run LAMMPS once per structure and record each call."""
        if not structures:
            raise ValidationError("no structures to evaluate")
        ff = get_forcefield(self.forcefield)
        run = launcher(ctx.settings)
        out = np.empty(len(structures))
        for i, structure in enumerate(structures):
            self.check_elements(structure.symbols)
            point = single_point(
                run,
                structure,
                ff,
                ctx.workdir / f"point-{i + 1:02d}",
                timeout_s=ctx.settings.limits.engine_timeout_s,
            )
            ctx.engine_call(point.call)
            out[i] = point.energy_ev
            _progress(ctx, i + 1, len(structures))
        return Energies(out)
