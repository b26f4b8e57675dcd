"""Energies of a list of structures with any energy engine.

:class:`EnergyEngine` is the one interface: ``evaluate(ctx, structures)`` runs the
engine (recording every engine call in the step) and returns :class:`Energies`.
Implementations are frozen dataclasses, so a step holding one is stored and
resumed like any other: :class:`AseEnergies` (an ASE calculator: EMT, LJ, MLIPs),
:class:`LammpsEnergies` (a force field of :mod:`simwright.forcefields`, one LAMMPS
``run 0`` per structure), :class:`PotentialEnergies` (a catalogued interatomic
potential file of LAMMPS: energies, stresses, ions optionally relaxed) and, above this
layer because it needs the DFT knowledge graph,
:class:`simwright.protocols.dft.energies.PwEnergies` (pw.x inside the error-recovery
machine).
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from simwright.contract import Column
from simwright.engines.ase.calculators import CalculatorSpec, energies, stress_points
from simwright.engines.ase.mlip import MLIP_NAMES, torch_threads
from simwright.errors import ValidationError
from simwright.potentials.catalogue import Potential, read_potential
from simwright.structure import Structure

if TYPE_CHECKING:
    from simwright.graph import RunContext


@dataclass(frozen=True)
class Energies:
    """Potential energies (eV) of the evaluated structures, in order, and any per-structure
    columns the engine adds to the table (pw.x: runs needed, repaired).

    Engines that give them add the Cauchy stress of each structure (GPa, n×3×3, tensile
    positive), the structures as evaluated (after any ionic relaxation) and the forces
    on their atoms (eV/Å, one n_atoms×3 array per structure)."""

    energy_ev: np.ndarray
    columns: tuple[Column, ...] = field(default_factory=tuple)
    stress_gpa: np.ndarray | None = None
    structures: tuple[Structure, ...] = ()
    forces_ev_a: tuple[np.ndarray, ...] = ()


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

    def points(
        self, ctx: RunContext, structures: Sequence[Structure], *, relax_ions: bool
    ) -> Energies:
        """Energies with the stress of each structure (``stress_gpa``) and the forces
        (``forces_ev_a``), ions relaxed at fixed cell when asked; engines that give no
        stress refuse (the default)."""
        raise ValidationError(
            f"{self.label()} gives no stresses in simwright yet; use a LAMMPS potential"
        )


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

    def _threads(self, ctx: RunContext) -> AbstractContextManager[None]:
        """An MLIP's torch threads limited to the configured cores (nothing for others)."""
        if self.calculator.name.lower() in MLIP_NAMES:
            return torch_threads(ctx.settings.cores())
        return nullcontext()

    def evaluate(self, ctx: RunContext, structures: Sequence[Structure]) -> Energies:
        """One ASE call over all structures."""
        with self._threads(ctx):
            values, call = energies(
                structures,
                self.calculator,
                progress=lambda i, n: _progress(ctx, i, n),
                allow=ctx.settings.plugins,
            )
        ctx.engine_call(call)
        return Energies(values)

    def points(
        self, ctx: RunContext, structures: Sequence[Structure], *, relax_ions: bool
    ) -> Energies:
        """Energies and stresses in one ASE call (ions relaxed at fixed cell when asked)."""
        with self._threads(ctx):
            out, call = stress_points(
                structures,
                self.calculator,
                relax_ions=relax_ions,
                allow=ctx.settings.plugins,
                progress=lambda i, n: _progress(ctx, i, n),
            )
        ctx.engine_call(call)
        return Energies(
            out.energy_ev,
            stress_gpa=out.stress_gpa,
            structures=out.structures,
            forces_ev_a=out.forces_ev_a,
        )


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
        return _describe_forcefield(self.forcefield)

    def check_elements(self, symbols: Sequence[str]) -> None:
        """Refuse elements the force field has no atom type for."""
        known = _forcefield_elements(self.forcefield)
        missing = sorted(set(symbols) - known)
        if missing:
            raise ValidationError(
                f"force field {self.forcefield!r} has no atom type for {', '.join(missing)}"
            )

    def evaluate(self, ctx: RunContext, structures: Sequence[Structure]) -> Energies:
        """Run LAMMPS once per structure and record each call."""
        if not structures:
            raise ValidationError("no structures to evaluate")
        # lazy: the LAMMPS adapters load only for LAMMPS energies (plan stays quick)
        from simwright.engines.lammps.single_point import single_point
        from simwright.forcefields import get_forcefield
        from simwright.steps.md import launcher

        ff = get_forcefield(self.forcefield)
        run = launcher(ctx.settings, ctx.jobs)
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


@dataclass(frozen=True)
class PotentialEnergies(EnergyEngine):
    """Energies, forces and stresses from LAMMPS with a catalogued potential file
    (:mod:`simwright.potentials`): one ``run 0`` per structure in ``point-NN``, the
    potential file copied beside it and recorded (with its hash) once per step.

    ``relax_ions`` minimizes the ions at fixed cell before each point, along the
    Cartesian axes ``relax_axes`` only (an orthogonal cell when not all three).
    """

    potential: str = "Cu_mishin1.eam.alloy"
    relax_ions: bool = False
    relax_axes: str = "xyz"

    def entry(self) -> Potential:
        """The catalogue entry of the file (read from the LAMMPS potentials directory)."""
        folder = _potentials_dir()
        if folder is None or not (folder / self.potential).is_file():
            raise ValidationError(f"potential file {self.potential!r} is not installed")
        entry = read_potential(folder / self.potential)
        if entry is None or not entry.runnable:
            raise ValidationError(f"simwright cannot run potential file {self.potential!r} yet")
        return entry

    def label(self) -> str:
        """E.g. ``Cu_mishin1.eam.alloy (LAMMPS)``."""
        return f"{self.potential} (LAMMPS)"

    def describe(self) -> str:
        """The potential, its style and citation."""
        entry = self.entry()
        relax = ", ions relaxed at fixed cell" if self.relax_ions else ""
        return (
            f"LAMMPS single points with the {entry.family} potential {entry.file} "
            f"(pair_style {entry.pair_style}; {entry.citation}){relax}"
        )

    def check_elements(self, symbols: Sequence[str]) -> None:
        """Refuse elements the potential has no parameters for."""
        missing = sorted(set(symbols) - set(self.entry().elements))
        if missing:
            raise ValidationError(f"potential {self.potential} has no parameters for {missing}")

    def evaluate(self, ctx: RunContext, structures: Sequence[Structure]) -> Energies:
        """Energies (and the stress of each point, in ``stress_gpa``)."""
        return self.points(ctx, structures, relax_ions=self.relax_ions)

    def points(
        self, ctx: RunContext, structures: Sequence[Structure], *, relax_ions: bool
    ) -> Energies:
        """Run LAMMPS once per structure; energies, stresses and relaxed structures."""
        if not structures:
            raise ValidationError("no structures to evaluate")
        # lazy: the LAMMPS adapters load only for LAMMPS energies (plan stays quick)
        from simwright.engines.lammps.potential_point import potential_point
        from simwright.steps.md import launcher

        entry = self.entry()
        folder = _potentials_dir()
        assert folder is not None  # checked by entry()
        run = dataclasses.replace(launcher(ctx.settings, ctx.jobs), mpi_ranks=1, omp_threads=1)
        energy, stress, relaxed, forces = np.empty(len(structures)), [], [], []
        for i, structure in enumerate(structures):
            point_dir = ctx.workdir / f"point-{i + 1:02d}"
            point = potential_point(
                run,
                structure,
                entry,
                folder / entry.file,
                point_dir,
                relax_ions=relax_ions,
                relax_axes=self.relax_axes,
            )
            if i == 0:
                ctx.artifact(point_dir / entry.file, "potential", entry.describe())
            ctx.engine_call(point.call)
            energy[i] = point.energy_ev
            stress.append(point.stress_gpa)
            relaxed.append(point.structure)
            forces.append(point.forces_ev_a)
            _progress(ctx, i + 1, len(structures))
        return Energies(
            energy,
            stress_gpa=np.array(stress),
            structures=tuple(relaxed),
            forces_ev_a=tuple(forces),
        )


def _describe_forcefield(name: str) -> str:
    # lazy: the force-field package loads only for LAMMPS energies (plan stays quick)
    from simwright.forcefields import get_forcefield

    ff = get_forcefield(name)
    return f"LAMMPS single points with the {ff.description or ff.name} force field"


def _forcefield_elements(name: str) -> set[str]:
    # lazy: the force-field package loads only for LAMMPS energies (plan stays quick)
    from simwright.forcefields import get_forcefield

    return {t.element for t in get_forcefield(name).atom_types}


def _potentials_dir() -> Path | None:
    # lazy: the LAMMPS adapters load only for LAMMPS energies (plan stays quick)
    from simwright.engines.lammps.launcher import lammps_potentials_dir

    return lammps_potentials_dir()
