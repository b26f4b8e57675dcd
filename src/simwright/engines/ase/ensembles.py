"""NVT and NPT stages with an ASE calculator, resumable from an extxyz state file.

A stage starts from a state written by the previous one (positions, cell and
momenta in extxyz), runs ``steps`` of ASE dynamics and writes its own state, its
thermo table rows and, every ``every`` steps, a frame of *unwrapped* positions (ASE
never wraps atoms during dynamics). NVT uses Bussi's stochastic velocity rescaling
(a global thermostat that leaves diffusion undisturbed); NPT uses Berendsen's
weak-coupling barostat and thermostat, meant for equilibration only.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from ase import units
from ase.data import atomic_masses

from simwright.engines.ase.calculators import CalculatorSpec, ase_version
from simwright.engines.base import EngineCall
from simwright.errors import EngineError, ValidationError
from simwright.units import A3_CM3, AMU_G

TRITIUM_MASS_AMU = 3.01605
"""Mass put on hydrogen in the heavy-hydrogen stage (Feenstra, Hess & Berendsen 1999)."""


@dataclass(frozen=True)
class StageSpec:
    """One MD stage: ensemble, length, timestep, thermostat and barostat settings."""

    ensemble: Literal["nvt", "npt"]
    steps: int
    timestep_fs: float
    temperature_k: float
    pressure_bar: float | None = None
    every: int = 10
    seed: int = 1
    hydrogen_mass_amu: float | None = None
    new_velocities: bool = False
    taut_fs: float = 100.0
    taup_fs: float = 1000.0
    compressibility_per_bar: float = 1.0e-4

    def __post_init__(self) -> None:
        if self.steps < 1 or self.timestep_fs <= 0 or self.every < 1:
            raise ValidationError("a stage needs steps >= 1, timestep > 0 and every >= 1")
        if (self.ensemble == "npt") != (self.pressure_bar is not None):
            raise ValidationError("an NPT stage needs a pressure, an NVT stage none")


@dataclass(frozen=True, eq=False)
class StageResult:
    """Thermo rows of a stage and the files it wrote."""

    time_fs: np.ndarray
    potential_ev: np.ndarray
    temperature_k: np.ndarray
    density_g_cm3: np.ndarray
    volume_a3: np.ndarray
    state_path: Path
    frames_path: Path


def run_stage(
    state: Path,
    spec: StageSpec,
    calculator: CalculatorSpec,
    workdir: Path,
    *,
    allow: Collection[str] = (),
) -> tuple[StageResult, EngineCall]:
    """Run ``spec`` from the extxyz ``state``; write ``state.extxyz`` and ``frames.extxyz``."""
    # lazy: ASE's I/O, MD and optimizers load only when a stage runs
    from ase.io import read, write

    start = time.perf_counter()
    atoms: Any = read(state, format="extxyz")
    atoms.info = {}  # the previous file's provenance keys do not describe this one
    _set_masses(atoms, spec.hydrogen_mass_amu)
    if spec.new_velocities or not atoms.has("momenta"):
        _draw_velocities(atoms, spec)
    atoms.calc = calculator.build(allow)
    dyn = _integrator(atoms, spec)
    frames = workdir / "frames.extxyz"
    frames.unlink(missing_ok=True)
    rows: list[tuple[float, float, float, float, float]] = []
    mass_g = float(atoms.get_masses().sum()) * AMU_G

    def sample() -> None:
        volume = float(atoms.get_volume())
        rows.append(
            (
                dyn.nsteps * spec.timestep_fs,
                float(atoms.get_potential_energy()),
                float(atoms.get_temperature()),
                _real_mass_g(atoms, spec, mass_g) / (volume * A3_CM3),
                volume,
            )
        )
        write(frames, atoms, format="extxyz", append=True)

    dyn.attach(sample, interval=spec.every)
    try:
        dyn.run(spec.steps)
    except Exception as exc:
        raise EngineError(f"ASE {spec.ensemble} stage failed: {exc}") from exc
    _set_masses(atoms, None)
    out = workdir / "state.extxyz"
    write(out, atoms, format="extxyz")
    data = np.array(rows, dtype=float)
    result = StageResult(data[:, 0], data[:, 1], data[:, 2], data[:, 3], data[:, 4], out, frames)
    return result, _call(calculator, spec, len(atoms), start)


def _real_mass_g(atoms: Any, spec: StageSpec, mass_g: float) -> float:
    """The mass with normal hydrogens (the density a heavy-hydrogen run represents)."""
    if spec.hydrogen_mass_amu is None:
        return mass_g

    n_h = int((atoms.numbers == 1).sum())
    return mass_g - n_h * (spec.hydrogen_mass_amu - float(atomic_masses[1])) * AMU_G


def _set_masses(atoms: Any, hydrogen_mass_amu: float | None) -> None:

    masses = atomic_masses[atoms.numbers].copy()
    if hydrogen_mass_amu is not None:
        masses[atoms.numbers == 1] = hydrogen_mass_amu
    velocities = atoms.get_velocities() if atoms.has("momenta") else None
    atoms.set_masses(masses)
    if velocities is not None:
        atoms.set_velocities(velocities)


def _draw_velocities(atoms: Any, spec: StageSpec) -> None:
    # lazy: ASE's MD modules load only when a stage runs
    from ase.md.velocitydistribution import Stationary, thermalize_momenta

    rng = np.random.default_rng(spec.seed)
    thermalize_momenta(atoms, temperature_K=spec.temperature_k, rng=rng)
    Stationary(atoms)


def _integrator(atoms: Any, spec: StageSpec) -> Any:

    dt = spec.timestep_fs * units.fs
    if spec.ensemble == "nvt":
        # lazy: ASE's MD modules load only when a stage runs
        from ase.md.bussi import Bussi

        rng = np.random.default_rng(spec.seed)
        return Bussi(
            atoms, dt, temperature_K=spec.temperature_k, taut=spec.taut_fs * units.fs, rng=rng
        )
    # lazy: ASE's MD modules load only when a stage runs
    from ase.md.nptberendsen import NPTBerendsen

    assert spec.pressure_bar is not None
    return NPTBerendsen(
        atoms,
        dt,
        temperature_K=spec.temperature_k,
        pressure_au=spec.pressure_bar * units.bar,
        taut=spec.taut_fs * units.fs,
        taup=spec.taup_fs * units.fs,
        compressibility_au=spec.compressibility_per_bar / units.bar,
    )


def _call(calculator: CalculatorSpec, spec: StageSpec, n_atoms: int, start: float) -> EngineCall:
    what = f"{spec.steps} {spec.ensemble.upper()} steps of {spec.timestep_fs} fs, {n_atoms} atoms"
    return EngineCall(
        engine="ase",
        command=f"{what} with {calculator.describe()}",
        version=ase_version(),
        exit_code=0,
        wall_s=time.perf_counter() - start,
        extra={},
    )


def relax_positions(
    state: Path,
    calculator: CalculatorSpec,
    workdir: Path,
    *,
    fmax_ev_a: float,
    max_steps: int,
    allow: Collection[str] = (),
) -> tuple[Path, float, int, EngineCall]:
    """FIRE relaxation of the positions until the largest force is below ``fmax_ev_a``.

    Returns the relaxed state, its largest force (eV/Å), the steps taken and the call;
    the caller decides what an unconverged relaxation means.
    """
    # lazy: ASE's I/O and optimizers load only when a relaxation runs
    from ase.io import read, write
    from ase.optimize import FIRE

    start = time.perf_counter()
    atoms: Any = read(state, format="extxyz")
    atoms.info = {}  # the previous file's provenance keys do not describe this one
    atoms.calc = calculator.build(allow)
    opt = FIRE(atoms, logfile=None)
    try:
        opt.run(fmax=fmax_ev_a, steps=max_steps)
    except Exception as exc:
        raise EngineError(f"ASE relaxation failed: {exc}") from exc
    fmax = float(np.linalg.norm(atoms.get_forces(), axis=1).max())
    out = workdir / "relaxed.extxyz"
    atoms.calc = None
    write(out, atoms, format="extxyz")
    call = EngineCall(
        engine="ase",
        command=f"FIRE relaxation to fmax {fmax_ev_a} eV/Å with {calculator.describe()}",
        version=ase_version(),
        exit_code=0,
        wall_s=time.perf_counter() - start,
        extra={"steps": str(opt.nsteps), "fmax_ev_a": f"{fmax:.4f}"},
    )
    return out, fmax, int(opt.nsteps), call
