"""ASE engine adapter: in-process calculators (EMT, Lennard-Jones, MLIPs, registered plugins).

A :class:`CalculatorSpec` names a calculator, resolved through
:mod:`simwright.engines.ase.registry` (never by importing a string from the spec);
the functions here take a
:class:`~simwright.structure.Structure` and return typed results together with an
:class:`~simwright.store.records.EngineCall` record of the call.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import ase
import numpy as np
from ase import units
from ase.filters import FrechetCellFilter

from simwright.engines.ase import registry
from simwright.engines.registry import EngineInfo
from simwright.errors import EngineError, ValidationError
from simwright.settings import Settings
from simwright.store.records import EngineCall
from simwright.structure import Structure
from simwright.units import EV_A3_GPA

EMT_ELEMENTS = frozenset({"Al", "Cu", "Ag", "Au", "Ni", "Pd", "Pt", "H", "C", "N", "O"})
"""Elements ASE's EMT has parameters for."""


def ase_version() -> str:
    """The installed ASE version."""
    return str(ase.__version__)


@dataclass(frozen=True)
class AseLauncher:
    """ASE runs in this process (an :class:`~simwright.engines.base.EngineLauncher`):
    nothing to locate and no command line; its "template" is the :class:`CalculatorSpec`.
    """

    name: ClassVar[str] = "ase"

    @classmethod
    def from_settings(cls, settings: Settings) -> AseLauncher:
        """The launcher (settings name no ASE executable)."""
        return cls()

    def available(self) -> bool:
        """Always True: ASE is a core dependency."""
        return True

    def version(self) -> str:
        """The installed ASE version."""
        return ase_version()

    def argv(self) -> list[str]:
        """Empty: no process is started."""
        return []


@dataclass(frozen=True)
class CalculatorSpec:
    """An ASE calculator by registered name (``emt``, ``lj``, ``sevennet``...), with kwargs.

    A ``module:Class`` name resolves only when the installation's allow-list
    (``Settings.plugins``) names it, passed as ``allow``.
    """

    name: str = "emt"
    kwargs: Mapping[str, Any] = field(default_factory=dict)

    @property
    def import_path(self) -> str:
        """``module:Class`` of the calculator (for the record)."""
        return registry.describe(self.name)

    def check(self, allow: Collection[str] = ()) -> None:
        """Refuse a name that is neither registered nor allow-listed."""
        registry.check_calculator(self.name, allow)

    def load(self, allow: Collection[str] = ()) -> Callable[..., Any]:
        """The calculator class (or factory) from the registry."""
        return registry.resolve_calculator(self.name, allow)

    def build(self, allow: Collection[str] = ()) -> Any:
        """A fresh calculator instance."""
        return self.load(allow)(**dict(self.kwargs))

    def check_elements(self, symbols: Sequence[str]) -> None:
        """Refuse elements the calculator cannot handle (known for EMT only)."""
        if self.name.lower() == "emt":
            missing = sorted(set(symbols) - EMT_ELEMENTS)
            if missing:
                raise ValidationError(
                    f"EMT has no parameters for {', '.join(missing)}; it supports "
                    f"{', '.join(sorted(EMT_ELEMENTS))}"
                )

    def describe(self) -> str:
        """A readable command line for the record."""
        args = ", ".join(f"{k}={v!r}" for k, v in self.kwargs.items())
        return f"{self.import_path}({args})"


@dataclass(frozen=True)
class SinglePoint:
    """Energy (eV), forces (eV/Å) and stress (eV/Å³, Voigt; None if unavailable)."""

    energy_ev: float
    forces_ev_a: np.ndarray
    stress_ev_a3: np.ndarray | None


def _call(spec: CalculatorSpec, what: str, start: float, **extra: str) -> EngineCall:
    return EngineCall(
        engine="ase",
        command=f"{what} with {spec.describe()}",
        version=ase_version(),
        exit_code=0,
        wall_s=time.perf_counter() - start,
        extra=extra,
    )


def _failed(spec: CalculatorSpec, what: str, start: float, exc: Exception) -> EngineError:
    call = EngineCall(
        "ase",
        f"{what} with {spec.describe()}",
        ase_version(),
        1,
        time.perf_counter() - start,
        stderr_tail=repr(exc),
    )
    return EngineError(
        f"ASE calculator {spec.name!r} failed during {what}: {exc}", tail=repr(exc), call=call
    )


def single_point(
    structure: Structure, spec: CalculatorSpec, *, allow: Collection[str] = ()
) -> tuple[SinglePoint, EngineCall]:
    """Energy, forces and (if the calculator provides it) stress of one structure.

    ``allow``: allow-listed ``module:Class`` names (``Settings.plugins``).
    """
    spec.check_elements(structure.symbols)
    start = time.perf_counter()
    atoms = structure.to_ase()
    atoms.calc = spec.build(allow)
    try:
        energy = float(atoms.get_potential_energy())
        forces = np.array(atoms.get_forces())
        stress = _stress(atoms) if any(structure.pbc) else None
    except Exception as exc:
        raise _failed(spec, "single point", start, exc) from exc
    return SinglePoint(energy, forces, stress), _call(spec, "single point", start)


def _stress(atoms: Any) -> np.ndarray | None:
    try:
        return np.array(atoms.get_stress())
    except Exception:
        return None


def energies(
    structures: Sequence[Structure],
    spec: CalculatorSpec,
    progress: Callable[[int, int], None] | None = None,
    *,
    allow: Collection[str] = (),
) -> tuple[np.ndarray, EngineCall]:
    """Potential energies (eV) of several structures with one calculator instance.

    ``allow``: allow-listed ``module:Class`` names (``Settings.plugins``).
    """
    if not structures:
        raise ValidationError("no structures to evaluate")
    spec.check_elements(structures[0].symbols)
    start = time.perf_counter()
    calc = spec.build(allow)
    out = np.empty(len(structures))
    try:
        for i, s in enumerate(structures):
            atoms = s.to_ase()
            atoms.calc = calc
            out[i] = atoms.get_potential_energy()
            if progress:
                progress(i + 1, len(structures))
    except Exception as exc:
        raise _failed(spec, "energy scan", start, exc) from exc
    return out, _call(spec, f"energies of {len(structures)} structures", start)


@dataclass(frozen=True)
class StressPoints:
    """Energies (eV), Cauchy stresses (GPa, n×3×3, tensile positive), the structures as
    evaluated (ions relaxed at fixed cell when asked) and the forces on their atoms (eV/Å)."""

    energy_ev: np.ndarray
    stress_gpa: np.ndarray
    structures: tuple[Structure, ...]
    forces_ev_a: tuple[np.ndarray, ...] = ()


def stress_points(
    structures: Sequence[Structure],
    spec: CalculatorSpec,
    *,
    relax_ions: bool,
    fmax_ev_a: float = 1e-4,
    allow: Collection[str] = (),
    progress: Callable[[int, int], None] | None = None,
) -> tuple[StressPoints, EngineCall]:
    """Energy and stress of each structure with one calculator instance; with
    ``relax_ions`` the ions first relax at fixed cell (BFGS to ``fmax_ev_a``)."""
    # lazy: ASE's optimizers load only when a structure is relaxed
    from ase.optimize import BFGS

    if not structures:
        raise ValidationError("no structures to evaluate")
    spec.check_elements(structures[0].symbols)
    start = time.perf_counter()
    calc = spec.build(allow)
    energy, stress, final, forces = np.empty(len(structures)), [], [], []
    try:
        for i, s in enumerate(structures):
            atoms = s.to_ase()
            atoms.calc = calc
            if relax_ions:
                BFGS(atoms, logfile=None).run(fmax=fmax_ev_a, steps=1000)
            energy[i] = atoms.get_potential_energy()
            stress.append(np.asarray(atoms.get_stress(voigt=False)) * EV_A3_GPA)
            final.append(s.with_positions(atoms.get_positions()))
            forces.append(np.array(atoms.get_forces()))
            if progress:
                progress(i + 1, len(structures))
    except Exception as exc:
        raise _failed(spec, "stress scan", start, exc) from exc
    call = _call(spec, f"stresses of {len(structures)} structures", start)
    return StressPoints(energy, np.array(stress), tuple(final), tuple(forces)), call


@dataclass(frozen=True)
class MDTrajectory:
    """The outcome of an ASE MD run: final structure, energies per frame and the file."""

    final: Structure
    times_fs: np.ndarray
    potential_ev: np.ndarray
    temperature_k: np.ndarray
    path: Path


def molecular_dynamics(
    structure: Structure,
    spec: CalculatorSpec,
    trajectory: Path,
    *,
    steps: int,
    timestep_fs: float,
    temperature_k: float | None = None,
    friction_per_fs: float = 0.01,
    every: int = 1,
    seed: int = 1,
    allow: Collection[str] = (),
) -> tuple[MDTrajectory, EngineCall]:
    """Short MD with an ASE calculator: Langevin at ``temperature_k``, else NVE.

    Frames go to ``trajectory`` (extxyz, the file contract's structure format) every
    ``every`` steps. Meant for machine-learned potentials where LAMMPS has no plugin.
    """
    # lazy: ase.io takes ~1 s to import
    from ase.io import write
    from ase.md.langevin import Langevin
    from ase.md.velocitydistribution import MaxwellBoltzmannDistribution
    from ase.md.verlet import VelocityVerlet

    if steps < 1 or timestep_fs <= 0:
        raise ValidationError("steps must be >= 1 and timestep_fs > 0")
    spec.check_elements(structure.symbols)
    start = time.perf_counter()
    atoms = structure.to_ase()
    atoms.calc = spec.build(allow)
    rng = np.random.default_rng(seed)
    if temperature_k is not None:
        MaxwellBoltzmannDistribution(atoms, temperature_K=temperature_k, rng=rng)
        dyn: Any = Langevin(
            atoms,
            timestep_fs * units.fs,
            temperature_K=temperature_k,
            friction=friction_per_fs / units.fs,
            rng=rng,
        )
    else:
        dyn = VelocityVerlet(atoms, timestep_fs * units.fs)
    trajectory.unlink(missing_ok=True)
    rows: list[tuple[float, float, float]] = []

    def sample() -> None:
        rows.append(
            (
                dyn.nsteps * timestep_fs,
                float(atoms.get_potential_energy()),
                float(atoms.get_temperature()),
            )
        )
        write(trajectory, atoms, format="extxyz", append=True)

    dyn.attach(sample, interval=every)
    try:
        dyn.run(steps)
    except Exception as exc:
        raise _failed(spec, "molecular dynamics", start, exc) from exc
    data = np.array(rows)
    final = structure.with_positions(atoms.get_positions(), np.array(atoms.get_cell()))
    md = MDTrajectory(final, data[:, 0], data[:, 1], data[:, 2], trajectory)
    return md, _call(spec, f"{steps} MD steps of {timestep_fs} fs", start)


def relax(
    structure: Structure,
    spec: CalculatorSpec,
    *,
    fmax_ev_a: float = 0.01,
    max_steps: int = 200,
    cell: bool = False,
    allow: Collection[str] = (),
) -> tuple[Structure, int, EngineCall]:
    """Relax positions (and the cell when ``cell``) with BFGS; returns steps taken."""
    # lazy: ase.optimize takes ~1 s to import
    from ase.optimize import BFGS

    spec.check_elements(structure.symbols)
    start = time.perf_counter()
    atoms = structure.to_ase()
    atoms.calc = spec.build(allow)
    target = FrechetCellFilter(atoms) if cell else atoms
    try:
        opt = BFGS(target, logfile=None)  # type: ignore[arg-type]
        converged = opt.run(fmax=fmax_ev_a, steps=max_steps)
    except Exception as exc:
        raise _failed(spec, "relaxation", start, exc) from exc
    if not converged:
        raise EngineError(f"relaxation did not reach fmax {fmax_ev_a} eV/Å in {max_steps} steps")
    relaxed = structure.with_positions(atoms.get_positions(), np.array(atoms.get_cell()))
    return relaxed, int(opt.nsteps), _call(spec, "BFGS relaxation", start)


ENGINE = EngineInfo(
    name="ase",
    description="in-process ASE calculators: EMT, Lennard-Jones, MLIPs, registered plugins",
    launcher=AseLauncher.from_settings,
)
