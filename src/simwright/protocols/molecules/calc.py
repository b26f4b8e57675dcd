"""Engine calls of the molecular protocols, made inside a step and recorded there:
optimisations, single points, Hessians with harmonic analysis, thermochemistry."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from simwright.analysis.thermochemistry import SYMMETRY_NUMBERS, Thermochemistry, ideal_gas
from simwright.analysis.vibrations import Vibrations, harmonic_analysis
from simwright.engines.qc import calculator, pyscf_calc
from simwright.engines.qc.geomopt import Optimised, optimise
from simwright.engines.qc.level import LevelOfTheory
from simwright.errors import EngineError
from simwright.graph import RunContext
from simwright.molecules.qc import QcMolecule
from simwright.results import ArtifactRef

HARTREE_KJ_MOL = 2625.4996394799
KJ_PER_KCAL = 4.184


@contextmanager
def limited_threads(threads: int) -> Iterator[None]:
    """Run the block with at most ``threads`` OpenMP/BLAS threads in every library
    loaded (PySCF, tblite, numpy): oversubscribed OpenMP threads on a loaded machine
    spin-wait and slow xTB by orders of magnitude."""
    # lazy: threadpoolctl is part of the [molecules] extra
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=threads):
        yield


def optimise_in_step(
    ctx: RunContext,
    molecule: QcMolecule,
    level: LevelOfTheory,
    *,
    prefix: str = "opt",
    transition: bool = False,
) -> tuple[Optimised, ArtifactRef]:
    """Optimise ``molecule`` with geomeTRIC at ``level``; refuse a run that does not converge."""
    start = time.perf_counter()
    ctx.progress(None, f"optimising {molecule.name} at {level.label()}")
    result = optimise(
        molecule,
        lambda m: calculator.energy_gradient(m, level),
        ctx.workdir,
        prefix=prefix,
        transition=transition,
    )
    ctx.engine_call(
        calculator.record(
            level, f"geomeTRIC {'TS ' if transition else ''}optimisation of", molecule, start
        )
    )
    if not result.converged:
        raise EngineError(
            f"geomeTRIC did not converge the geometry of {molecule.name} at {level.label()} "
            f"in {result.steps} steps"
        )
    path = ctx.workdir / f"{prefix}_{_slug(molecule.name)}.xyz"
    path.write_text(result.molecule.xyz(), encoding="utf-8")
    ref = ctx.artifact(path, "structure", f"optimised {molecule.name} at {level.label()}")
    return result, ref


def energy_in_step(ctx: RunContext, molecule: QcMolecule, level: LevelOfTheory) -> float:
    """Single-point energy (hartree), recorded as an engine call."""
    start = time.perf_counter()
    e = calculator.energy(molecule, level)
    ctx.engine_call(calculator.record(level, "single point of", molecule, start))
    return e


@dataclass(frozen=True)
class Frequencies:
    """Harmonic frequencies (cm⁻¹, imaginary negative), normal modes, the Hessian rule
    and the point group."""

    frequencies_cm: tuple[float, ...]
    modes: np.ndarray
    linear: bool
    hessian_rule: str
    point_group: str

    @property
    def imaginary(self) -> tuple[float, ...]:
        """Imaginary frequencies below -20 cm⁻¹ (as negative numbers)."""
        return tuple(f for f in self.frequencies_cm if f < -20.0)


def frequencies_in_step(ctx: RunContext, molecule: QcMolecule, level: LevelOfTheory) -> Frequencies:
    """Hessian at ``level``, harmonic analysis and point group, recorded."""
    start = time.perf_counter()
    hess, rule = calculator.hessian(molecule, level)
    ctx.engine_call(calculator.record(level, f"Hessian ({rule}) of", molecule, start))
    vib: Vibrations = harmonic_analysis(molecule.symbols, molecule.positions, hess)
    group = pyscf_calc.point_group(molecule)
    return Frequencies(
        tuple(float(f) for f in vib.frequencies_cm), vib.modes, vib.linear, rule, group
    )


def thermo_of(
    molecule: QcMolecule, freqs: Frequencies, temperature_k: float, pressure_bar: float
) -> Thermochemistry:
    """Ideal-gas RRHO thermochemistry of ``molecule`` (symmetry number from its point group)."""
    sigma = SYMMETRY_NUMBERS.get(freqs.point_group, 1)
    return ideal_gas(
        molecule.symbols,
        molecule.positions,
        np.asarray(freqs.frequencies_cm),
        multiplicity=molecule.multiplicity,
        symmetry_number=sigma,
        linear=freqs.linear,
        temperature_k=temperature_k,
        pressure_pa=pressure_bar * 1e5,
    )


def write_json(ctx: RunContext, name: str, data: object, description: str) -> ArtifactRef:
    """Write ``data`` as JSON in the step directory and record it."""
    path = ctx.workdir / name
    path.write_text(json.dumps(data, indent=2, default=float, ensure_ascii=False))
    return ctx.artifact(path, "table", description)


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name)[:40]
