"""Nudged elastic band with a climbing image: ASE drives, the energy engine computes.

:func:`run_neb` builds the band between two relaxed end points (linear interpolation,
periodic images unwrapped), gives every intermediate image a calculator that asks
one shared :class:`Band` for its energy and forces, and runs ASE's ``NEB``
(``ase.mep``, improved tangent, climbing image) with the FIRE optimizer. The Band
evaluates all intermediate images at once whenever their positions change: with a
LAMMPS potential that is one LAMMPS run per iteration
(:func:`~simwright.engines.lammps.batch_point.batch_points`), with an ASE calculator
one in-process loop. Nothing of the band method is re-implemented here.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from simwright.engines.ase.calculators import ase_version
from simwright.engines.base import EngineCall
from simwright.engines.lammps.batch_point import batch_points
from simwright.engines.lammps.launcher import lammps_potentials_dir
from simwright.errors import ValidationError
from simwright.steps.energies import AseEnergies, EnergyEngine, PotentialEnergies
from simwright.steps.md import launcher
from simwright.structure import Structure

if TYPE_CHECKING:
    from simwright.graph import RunContext


class ImageForces(ABC):
    """Energies (eV) and forces (eV/Å) of several structures in one go."""

    @abstractmethod
    def __call__(self, structures: Sequence[Structure]) -> tuple[np.ndarray, list[np.ndarray]]:
        """Evaluate ``structures``; each engine call is recorded in the step."""

    def finish(self) -> None:  # noqa: B027 - optional hook
        """Record what is left to record (default: nothing)."""


@dataclass
class LammpsImageForces(ImageForces):
    """A LAMMPS batch run per call, in ``workdir/band`` with the potential copied once."""

    ctx: RunContext
    engine: PotentialEnergies
    name: str = "band"
    calls: int = 0

    def __call__(self, structures: Sequence[Structure]) -> tuple[np.ndarray, list[np.ndarray]]:
        """One LAMMPS run for all ``structures``."""
        entry = self.engine.entry()
        folder = self.ctx.workdir / self.name
        if self.calls == 0:
            folder.mkdir(parents=True, exist_ok=True)
            source = lammps_potentials_dir()
            assert source is not None  # checked by entry()
            (folder / entry.file).write_bytes((source / entry.file).read_bytes())
            self.ctx.artifact(folder / entry.file, "potential", entry.describe())
        run = launcher(self.ctx.settings, self.ctx.jobs)
        out = batch_points(run, list(structures), entry, folder)
        self.ctx.engine_call(out.call)
        self.calls += 1
        return np.array(out.energy_ev), list(out.forces_ev_a)


@dataclass
class AseImageForces(ImageForces):
    """One ASE calculator instance for every call; one engine record at the end."""

    ctx: RunContext
    engine: AseEnergies
    calc: Any = None
    calls: int = 0
    start: float = field(default_factory=time.perf_counter)

    def __call__(self, structures: Sequence[Structure]) -> tuple[np.ndarray, list[np.ndarray]]:
        """Energies and forces of ``structures`` with the calculator."""
        if self.calc is None:
            self.engine.check_elements(structures[0].symbols)
            self.calc = self.engine.calculator.build(self.ctx.settings.plugins)
        energies, forces = [], []
        for s in structures:
            atoms = s.to_ase()
            atoms.calc = self.calc
            energies.append(atoms.get_potential_energy())
            forces.append(np.array(atoms.get_forces()))
        self.calls += 1
        return np.array(energies), forces

    def finish(self) -> None:
        """Record the calculator's work as one engine call."""
        self.ctx.engine_call(
            EngineCall(
                engine="ase",
                command=f"{self.calls} band evaluations with {self.engine.describe()}",
                version=ase_version(),
                exit_code=0,
                wall_s=time.perf_counter() - self.start,
            )
        )


def image_forces(ctx: RunContext, engine: EnergyEngine, name: str = "band") -> ImageForces:
    """The band evaluator of ``engine`` (LAMMPS runs in the folder ``name``); engines
    without forces are refused."""
    if isinstance(engine, PotentialEnergies):
        return LammpsImageForces(ctx, engine, name)
    if isinstance(engine, AseEnergies):
        return AseImageForces(ctx, engine)
    raise ValidationError(f"{engine.label()} gives no forces for a band in simwright")


@dataclass
class Band:
    """The intermediate images' energies and forces, evaluated together when any moved."""

    images: list[Any]
    template: Structure
    forces: ImageForces
    key: bytes = b""
    energy: np.ndarray = field(default_factory=lambda: np.empty(0))
    force: list[np.ndarray] = field(default_factory=list)

    def result(self, k: int) -> tuple[float, np.ndarray]:
        """Energy and forces of intermediate image ``k`` (1 … n)."""
        inner = self.images[1:-1]
        key = b"".join(np.ascontiguousarray(a.positions).tobytes() for a in inner)
        if key != self.key:
            structures = [self.template.with_positions(np.array(a.positions)) for a in inner]
            self.energy, self.force = self.forces(structures)
            self.key = key
        return float(self.energy[k - 1]), self.force[k - 1]


@dataclass(frozen=True)
class NebPath:
    """The converged band: image energies (eV, end points included), positions, the
    reaction coordinate (Å, cumulative distance), whether it converged, its iterations
    and the largest force left on an image (eV/Å)."""

    energies_ev: tuple[float, ...]
    images: tuple[Structure, ...]
    coordinate_a: tuple[float, ...]
    converged: bool
    iterations: int
    max_force_ev_a: float


def unwrapped(start: Structure, end: Structure) -> Structure:
    """``end`` with each atom moved by a lattice vector to lie nearest its ``start`` position."""
    d = end.positions - start.positions
    frac = d @ np.linalg.inv(start.cell)
    frac -= np.round(frac)
    return end.with_positions(start.positions + frac @ start.cell)


@dataclass(frozen=True)
class NebSettings:
    """Band size and convergence: intermediate images, spring (eV/Å²), fmax, iterations."""

    n_images: int = 5
    spring_ev_a2: float = 0.1
    fmax_ev_a: float = 0.02
    max_steps: int = 500


def run_neb(
    ctx: RunContext,
    engine: EnergyEngine,
    ends: tuple[Structure, Structure],
    end_energies: tuple[float, float],
    settings: NebSettings,
    name: str = "band",
) -> NebPath:
    """Climbing-image NEB between the relaxed ``ends`` with ``engine``; its files (the
    optimizer's log ``name.log``, LAMMPS runs) go under the folder ``name``."""
    # lazy: ase.mep and the optimizers take ~1.5 s to import; only a band needs them
    from ase.calculators.singlepoint import SinglePointCalculator
    from ase.mep import NEB
    from ase.optimize import FIRE

    from simwright.steps.neb_calculator import BandCalculator  # lazy: imports ASE's Calculator

    start, end = ends[0], unwrapped(ends[0], ends[1])
    n = settings.n_images
    frames = [
        start.with_positions(start.positions + (end.positions - start.positions) * t)
        for t in np.linspace(0.0, 1.0, n + 2)
    ]
    images = [f.to_ase() for f in frames]
    forces = image_forces(ctx, engine, name)
    band = Band(images, start, forces)
    for k, atoms in enumerate(images):
        if k in (0, n + 1):
            atoms.calc = SinglePointCalculator(
                atoms, energy=end_energies[0 if k == 0 else 1], forces=np.zeros((len(atoms), 3))
            )
        else:
            atoms.calc = BandCalculator(band, k)
    neb = NEB(images, k=settings.spring_ev_a2, climb=True, method="improvedtangent")
    opt = FIRE(neb, logfile=str(Path(ctx.workdir) / f"{name}.log"))
    converged = bool(opt.run(fmax=settings.fmax_ev_a, steps=settings.max_steps))
    forces.finish()
    energies = [end_energies[0], *(band.result(k)[0] for k in range(1, n + 1)), end_energies[1]]
    final = tuple(start.with_positions(np.array(a.positions)) for a in images)
    steps = [np.linalg.norm(b.positions - a.positions) for a, b in pairwise(final)]
    max_force = float(np.sqrt((neb.get_forces() ** 2).sum(axis=1).max()))
    return NebPath(
        tuple(float(e) for e in energies),
        final,
        tuple(float(x) for x in np.concatenate([[0.0], np.cumsum(steps)])),
        converged,
        int(opt.nsteps),
        max_force,
    )
