"""Grand-canonical Monte Carlo of the bulk Lennard-Jones fluid, with LAMMPS ``fix gcmc``.

The check of simwright's GCMC machinery without walls: a fully periodic cubic box
in reduced units (``units lj``: ε = σ = m = k_B = 1), the pair potential truncated
at ``cutoff`` σ and **not shifted** (``pair_modify shift no``, no tail correction in
LAMMPS), and pure Monte Carlo — ``fix gcmc`` every step with exchange attempts
and translations, no integrator. The reservoir is given by its fugacity
(``pressure f fugacity_coeff 1``: the activity is f/T, so an ideal gas at
fugacity f has density f/T); :func:`simwright.analysis.lj_eos.truncated_fugacity`
gives the fugacity at which the truncated fluid should reach a target density.

Without ``full_energy`` ``fix gcmc`` computes only the energy of the moved atom,
which is exact for a plain pair potential and about 7× faster here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from simwright.analysis.convergence import block_average
from simwright.engines.lammps.launcher import LammpsLauncher, LammpsResult
from simwright.engines.lammps.segment import check_template
from simwright.errors import EngineError

MAX_SEED: Final = 900_000_000
"""LAMMPS' Marsaglia generator refuses seeds above this."""


class LJFluidGcmcSettings(BaseModel):
    """Box, truncation and sampling of a bulk LJ GCMC run (reduced units).

    One MC step is ``exchange_attempts`` insertion/deletion attempts plus
    ``mc_moves`` translation attempts; ``equilibration_steps`` are discarded.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    box: float = Field(default=7.0, gt=0)
    cutoff: float = Field(default=3.0, gt=0)
    steps: int = Field(default=4000, gt=0)
    equilibration_steps: int = Field(default=1000, ge=0)
    exchange_attempts: int = Field(default=50, ge=1)
    mc_moves: int = Field(default=50, ge=0)
    max_displacement: float = Field(default=0.3, gt=0)
    sample_every: int = Field(default=10, gt=0)
    n_blocks: int = Field(default=5, ge=2)

    def problems(self) -> list[str]:
        """Inconsistent settings (empty when fine)."""
        out = []
        if self.box < 2 * self.cutoff:
            out.append(f"box {self.box} must be at least twice the cutoff {self.cutoff}")
        if self.equilibration_steps % self.sample_every or self.steps % self.sample_every:
            out.append("steps and equilibration_steps must be multiples of sample_every")
        if self.steps // self.sample_every < 2 * self.n_blocks:
            out.append(f"steps give fewer than {2 * self.n_blocks} samples for the block average")
        return out


@dataclass(frozen=True)
class LJFluidGcmcResult:
    """Densities sampled after equilibration, their block average, and acceptance ratios."""

    lammps: LammpsResult
    temperature: float
    fugacity: float
    densities: np.ndarray
    density: float
    density_sem: float
    insertion_acceptance: float
    deletion_acceptance: float
    translation_acceptance: float


def _num(value: float) -> str:
    return f"{value:.10g}"


THERMO: Final = "step atoms f_gcmc[1] f_gcmc[2] f_gcmc[3] f_gcmc[4] f_gcmc[5] f_gcmc[6]"
"""Step, atoms, then translation, insertion and deletion attempts and successes."""


def render_lj_gcmc_input(
    settings: LJFluidGcmcSettings, temperature: float, fugacity: float, seed: int
) -> str:
    """The ``in.lammps`` of a bulk LJ GCMC run at T* and reservoir fugacity f* (pure)."""
    s = settings
    total = s.equilibration_steps + s.steps
    lines = [
        f"# simwright bulk LJ GCMC: T* = {_num(temperature)}, fugacity f* = {_num(fugacity)}",
        f"# LJ truncated at {_num(s.cutoff)} sigma, not shifted, no tail correction in LAMMPS",
        "units           lj",
        "atom_style      atomic",
        "boundary        p p p",
        f"region          box block 0 {_num(s.box)} 0 {_num(s.box)} 0 {_num(s.box)}",
        "create_box      1 box",
        "mass            1 1.0",
        f"pair_style      lj/cut {_num(s.cutoff)}",
        "pair_coeff      1 1 1.0 1.0",
        "pair_modify     shift no",
        "neighbor        0.3 bin",
        f"fix             gcmc all gcmc 1 {s.exchange_attempts} {s.mc_moves} 1 {seed} "
        f"{_num(temperature)} 0.0 {_num(s.max_displacement)} "
        f"pressure {_num(fugacity)} fugacity_coeff 1",
        f"thermo_style    custom {THERMO}",
        "thermo_modify   norm no flush yes",
        f"thermo          {s.sample_every}",
        f"run             {total}",
    ]
    return "\n".join(lines) + "\n"


def run_lj_gcmc(
    launcher: LammpsLauncher,
    settings: LJFluidGcmcSettings,
    temperature: float,
    fugacity: float,
    workdir: Path,
    *,
    seed: int = 12345,
    timeout_s: float | None = None,
) -> LJFluidGcmcResult:
    """Run one bulk LJ GCMC state point in ``workdir`` and average its density."""
    problems = settings.problems()
    if problems:
        raise EngineError("bulk LJ GCMC settings: " + "; ".join(problems))
    if not 1 <= seed <= MAX_SEED:
        raise EngineError(f"seed must be in 1..{MAX_SEED}, got {seed}")
    script = render_lj_gcmc_input(settings, temperature, fugacity, seed)
    check_template(script, workdir)
    result = launcher.run(script, workdir, timeout_s=timeout_s)
    return _analyse(result, settings, temperature, fugacity)


def _ratio(counter: dict[int, np.ndarray], attempts: int, successes: int) -> float:
    tried = float(counter[attempts][-1] - counter[attempts][0])
    return float(counter[successes][-1] - counter[successes][0]) / tried if tried else math.nan


def _analyse(
    result: LammpsResult, settings: LJFluidGcmcSettings, temperature: float, fugacity: float
) -> LJFluidGcmcResult:
    table = result.thermo
    steps = np.asarray(table["step"], dtype=np.int64)
    atoms = np.asarray(table["atoms"], dtype=float)
    keep = steps > settings.equilibration_steps
    if int(keep.sum()) < 2 * settings.n_blocks:
        raise EngineError(f"LAMMPS log of {result.workdir} has too few production samples")
    counter = {k: np.asarray(table[f"f_gcmc_{k}"], dtype=float)[keep] for k in range(1, 7)}
    densities = atoms[keep] / settings.box**3
    average = block_average(densities, settings.n_blocks)
    return LJFluidGcmcResult(
        lammps=result,
        temperature=temperature,
        fugacity=fugacity,
        densities=densities,
        density=average.mean,
        density_sem=average.sem,
        insertion_acceptance=_ratio(counter, 3, 4),
        deletion_acceptance=_ratio(counter, 5, 6),
        translation_acceptance=_ratio(counter, 1, 2),
    )
