"""Grand-canonical Monte Carlo + MD of a Lennard-Jones gas in a slit pore, with LAMMPS.

The pore is a box periodic in x and y, bounded in z (``boundary p p f``) by two
carbon walls on both z faces: a 9-3 continuum (``fix wall/lj93``) or Steele's
10-4-3 graphite wall (``fix wall/table`` from a table the segment writes), see
:mod:`simwright.engines.lammps.walls`; each segment writes the wall it uses and
its source in ``model.json``. ``fix gcmc`` exchanges
molecules with an ideal-gas reservoir at the condition's pressure (``pressure P
fugacity_coeff 1``: the chemical potential is that of an ideal gas at P), and
makes MC translations; between exchanges the atoms move by MD (velocity Verlet)
under a Langevin thermostat, which keeps a few or no atoms at temperature where a
Nosé–Hoover chain can freeze. Two settings matter and are always written:
``fix_modify <walls> energy yes`` and ``full_energy`` in ``fix gcmc`` — without
both the Monte Carlo moves do not see the walls and the pore stays nearly empty.
Insertions are confined to a region at least ``wall_gap_a`` (>= 2 Å) from each
wall. ``fix gcmc`` keeps its random state in the restart file, so its seed only
matters for a freshly built pore; the Langevin seed is given per segment.

Units: the script uses ``units metal`` (eV, Å, ps, bar); simwright's fs are
converted here. Force-field parameters are documented constants below.
"""

from __future__ import annotations

import json
import math
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from simwright.engines.lammps.launcher import LammpsLauncher, LammpsResult
from simwright.engines.lammps.segment import check_template
from simwright.engines.lammps.templates import RESTART_NAME, fs_to_ps
from simwright.engines.lammps.walls import TABLE_NAME, WallKind, WallModel, carbon_wall_model
from simwright.errors import EngineError
from simwright.forcefields.lj_argon import ARGON_REFERENCE, EPSILON_OVER_KB_K, MASS_AMU, SIGMA_A
from simwright.units import KB_EV_K

START_NAME: Final = "start.restart"
"""The restart a continuation reads, copied into the segment directory."""

MODEL_NAME: Final = "model.json"
"""The record of a segment's gas and wall models and their sources."""

MIN_WALL_GAP_A: Final = 2.0
"""Insertions stay at least this far (Å) from each wall."""

MAX_SEED: Final = 900_000_000
"""LAMMPS' Marsaglia generator refuses seeds above this."""


@dataclass(frozen=True)
class GasModel:
    """A one-site LJ molecule: ε (eV), σ (Å), mass (amu) and where they come from."""

    name: str
    epsilon_ev: float
    sigma_a: float
    mass_amu: float
    reference: str


METHANE_TRAPPE_UA: Final = GasModel(
    "methane",
    148.0 * KB_EV_K,
    3.73,
    16.043,
    "TraPPE-UA CH4: ε/k_B = 148 K, σ = 3.73 Å; M. G. Martin and J. I. Siepmann, "
    "J. Phys. Chem. B 102, 2569 (1998)",
)
"""United-atom methane of TraPPE."""

ARGON_RAHMAN: Final = GasModel(
    "argon",
    EPSILON_OVER_KB_K * KB_EV_K,
    SIGMA_A,
    MASS_AMU,
    f"ε/k_B = {EPSILON_OVER_KB_K} K, σ = {SIGMA_A} Å; {ARGON_REFERENCE}",
)
"""Argon as in :mod:`simwright.forcefields.lj_argon`."""

GASES: Final = {"methane": METHANE_TRAPPE_UA, "argon": ARGON_RAHMAN}


def carbon_wall(
    gas: GasModel, cutoff_a: float = 20.0, kind: WallKind = "lj93_continuum"
) -> WallModel:
    """The carbon wall of ``kind`` for ``gas`` (see :mod:`simwright.engines.lammps.walls`).

    The default cutoff (20 Å) makes the shift at the cutoff small (a few K) in
    pores up to 20 Å wide.
    """
    return carbon_wall_model(kind, gas.epsilon_ev, gas.sigma_a, cutoff_a)


class _Params(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SlitPore(_Params):
    """The pore: wall-to-wall width, lateral edge, gas, wall model, starting timestep.

    ``wall`` picks the carbon wall on both faces: ``lj93_continuum`` (the default,
    a 9-3 half-space of carbon) or ``steele_10_4_3`` (Steele's graphite wall);
    ``width_a`` is the distance between the two wall planes.

    ``start_step`` is the absolute timestep of the freshly built (empty) pore, as
    when a system comes from a long earlier run; campaigns count local steps.
    """

    width_a: float = Field(gt=0)
    lateral_a: float = Field(gt=0)
    gas: Literal["methane", "argon"] = "methane"
    wall: WallKind = "lj93_continuum"
    start_step: int = Field(default=0, ge=0, le=10**12)


class GcmcSettings(_Params):
    """How one segment samples: MD step, sampling, MC exchanges and moves, thermostat."""

    timestep_fs: float = Field(default=2.0, gt=0, le=20)
    sample_every_steps: int = Field(default=50, gt=0)
    exchange_every_steps: int = Field(default=10, gt=0)
    exchange_attempts: int = Field(default=10, ge=1)
    mc_moves: int = Field(default=10, ge=0)
    max_displacement_a: float = Field(default=0.5, gt=0)
    wall_gap_a: float = Field(default=2.5, ge=MIN_WALL_GAP_A)
    langevin_damp_fs: float = Field(default=100.0, gt=0)
    pair_cutoff_a: float = Field(default=10.0, gt=0)
    wall_cutoff_a: float = Field(default=20.0, gt=0)

    def pore_problems(self, pore: SlitPore) -> list[str]:
        """Geometric problems of ``pore`` with these settings (empty when fine)."""
        problems = []
        if pore.width_a - 2 * self.wall_gap_a < 1.0:
            problems.append(
                f"width_a {pore.width_a} leaves no insertion region: it must exceed "
                f"2 × wall_gap_a ({self.wall_gap_a}) + 1 Å"
            )
        if pore.lateral_a < 2 * self.pair_cutoff_a:
            problems.append(
                f"lateral_a {pore.lateral_a} must be at least twice pair_cutoff_a "
                f"({self.pair_cutoff_a}) for the minimum-image convention"
            )
        return problems


class GcmcCondition(_Params):
    """The reservoir: temperature (K) and ideal-gas pressure (bar)."""

    temperature_k: float = Field(gt=0)
    pressure_bar: float = Field(gt=0)

    @model_validator(mode="after")
    def _finite(self) -> GcmcCondition:
        if not (math.isfinite(self.temperature_k) and math.isfinite(self.pressure_bar)):
            raise ValueError("temperature_k and pressure_bar must be finite")
        return self


@dataclass(frozen=True)
class GcmcSegment:
    """Everything one segment needs besides its start: pore, settings, reservoir, length.

    ``seed`` (1 to :data:`MAX_SEED`) seeds ``fix gcmc`` of a fresh pore and, shifted by
    one, the Langevin thermostat.
    """

    pore: SlitPore
    settings: GcmcSettings
    condition: GcmcCondition
    steps: int
    seed: int


def _num(value: float) -> str:
    return f"{value:.10g}"


def _build_block(segment: GcmcSegment, gas: GasModel) -> list[str]:
    pore = segment.pore
    lines = [
        "units           metal",
        "atom_style      atomic",
        "boundary        p p f",
        f"region          box block 0 {_num(pore.lateral_a)} 0 {_num(pore.lateral_a)} "
        f"0 {_num(pore.width_a)}",
        "create_box      1 box",
        f"mass            1 {_num(gas.mass_amu)}",
    ]
    if pore.start_step:
        lines.append(f"reset_timestep  {pore.start_step}")
    return lines


def _interaction_block(segment: GcmcSegment, gas: GasModel, wall: WallModel) -> list[str]:
    s = segment.settings
    return [
        f"# gas: {gas.reference}",
        f"pair_style      lj/cut {_num(s.pair_cutoff_a)}",
        f"pair_coeff      1 1 {_num(gas.epsilon_ev)} {_num(gas.sigma_a)}",
        "pair_modify     shift no",
        "neighbor        2.0 bin",
        "neigh_modify    every 1 delay 0 check yes",
        f"# walls: {wall.reference}",
        wall.fix_command("walls"),
        "fix_modify      walls energy yes",
    ]


def _gcmc_block(segment: GcmcSegment) -> list[str]:
    s, c, pore = segment.settings, segment.condition, segment.pore
    lo, hi = s.wall_gap_a, pore.width_a - s.wall_gap_a
    temp = _num(c.temperature_k)
    return [
        f"timestep        {_num(fs_to_ps(s.timestep_fs))}",
        f"region          insertion block 0 {_num(pore.lateral_a)} 0 {_num(pore.lateral_a)} "
        f"{_num(lo)} {_num(hi)}",
        "# chemical potential of an ideal gas at the reservoir pressure (fugacity = P)",
        f"fix             gcmc all gcmc {s.exchange_every_steps} {s.exchange_attempts} "
        f"{s.mc_moves} 1 {segment.seed} {temp} 0.0 {_num(s.max_displacement_a)} "
        f"pressure {_num(c.pressure_bar)} fugacity_coeff 1 full_energy region insertion",
        "fix             integrate all nve",
        f"fix             thermostat all langevin {temp} {temp} "
        f"{_num(fs_to_ps(s.langevin_damp_fs))} {thermostat_seed(segment.seed)}",
        "compute_modify  thermo_temp dynamic/dof yes",
    ]


def thermostat_seed(seed: int) -> int:
    """The Langevin seed of a segment: another number than the GCMC seed, still valid."""
    return seed % (MAX_SEED - 1) + 1


THERMO: Final = "step atoms temp pe f_gcmc[3] f_gcmc[4] f_gcmc[5] f_gcmc[6]"
"""Thermo output: step, molecules, temperature, energy, insertion and deletion counters."""


def segment_wall(segment: GcmcSegment) -> WallModel:
    """The wall model a segment uses (both faces)."""
    gas = GASES[segment.pore.gas]
    return carbon_wall(gas, segment.settings.wall_cutoff_a, segment.pore.wall)


def model_record(segment: GcmcSegment) -> dict[str, str | float]:
    """The gas and wall a segment uses, with their sources (written as ``model.json``)."""
    gas = GASES[segment.pore.gas]
    wall = segment_wall(segment)
    z_min, depth = wall.well()
    return {
        "gas": gas.name,
        "gas_source": gas.reference,
        "wall": wall.kind,
        "wall_source": wall.reference,
        "wall_cutoff_a": wall.cutoff_a,
        "wall_well_depth_k": depth / KB_EV_K,
        "wall_well_position_a": z_min,
    }


def render_gcmc_input(segment: GcmcSegment, *, continuation: bool) -> str:
    """The ``in.lammps`` of one segment (pure): a fresh pore, or from ``start.restart``."""
    gas = GASES[segment.pore.gas]
    wall = segment_wall(segment)
    head = [
        f"# simwright GCMC segment: {gas.name} in a {_num(segment.pore.width_a)} Å slit pore, "
        f"{_num(segment.condition.pressure_bar)} bar, {_num(segment.condition.temperature_k)} K",
        "# units metal: eV, Å, ps, bar",
    ]
    start = [f"read_restart    {START_NAME}"] if continuation else _build_block(segment, gas)
    tail = [
        f"thermo_style    custom {THERMO}",
        "thermo_modify   norm no flush yes format float %.10g",
        f"thermo          {segment.settings.sample_every_steps}",
        f"run             {segment.steps}",
        f"write_restart   {RESTART_NAME}",
    ]
    blocks = [head, start, _interaction_block(segment, gas, wall), _gcmc_block(segment), tail]
    return "\n\n".join("\n".join(block) for block in blocks) + "\n"


@dataclass(frozen=True)
class GcmcResult:
    """One segment's outcome: the LAMMPS record and its samples after the start.

    ``n_molecules``, ``temperature_k`` and ``potential_energy_ev`` align with
    ``abs_steps``; the acceptance ratios cover this segment only (NaN when no
    attempt was made).
    """

    lammps: LammpsResult
    abs_start: int
    abs_end: int
    abs_steps: np.ndarray
    n_molecules: np.ndarray
    temperature_k: np.ndarray
    potential_energy_ev: np.ndarray
    insertion_acceptance: float
    deletion_acceptance: float


def run_gcmc_segment(
    launcher: LammpsLauncher,
    segment: GcmcSegment,
    workdir: Path,
    *,
    restart: Path | None = None,
    timeout_s: float | None = None,
) -> GcmcResult:
    """Run one segment in ``workdir`` (a fresh pore, or from a copy of ``restart``)."""
    workdir.mkdir(parents=True, exist_ok=True)
    if restart is not None:
        shutil.copyfile(restart, workdir / START_NAME)
    wall = segment_wall(segment)
    if wall.needs_table():
        (workdir / TABLE_NAME).write_text(wall.table_text())
    script = render_gcmc_input(segment, continuation=restart is not None)
    check_template(script, workdir)
    (workdir / MODEL_NAME).write_text(json.dumps(model_record(segment), indent=2) + "\n")
    result = launcher.run(script, workdir, pbc=(True, True, False), timeout_s=timeout_s)
    if result.restart_path is None:
        raise EngineError(f"LAMMPS wrote no {RESTART_NAME} in {workdir}")
    return _samples(result)


def _ratio(successes: float, attempts: float) -> float:
    return successes / attempts if attempts > 0 else math.nan


def _samples(result: LammpsResult) -> GcmcResult:
    table = result.thermo
    steps = np.asarray(table["step"], dtype=np.int64)
    if steps.size < 2:
        raise EngineError(f"LAMMPS log of {result.workdir} has fewer than two thermo rows")
    counters = {k: np.asarray(table[f"f_gcmc_{k}"], dtype=float) for k in (3, 4, 5, 6)}
    delta = {k: float(v[-1] - v[0]) for k, v in counters.items()}
    return GcmcResult(
        lammps=result,
        abs_start=int(steps[0]),
        abs_end=int(steps[-1]),
        abs_steps=steps[1:],
        n_molecules=np.asarray(table["atoms"], dtype=float)[1:],
        temperature_k=np.asarray(table["temperature"], dtype=float)[1:],
        potential_energy_ev=np.asarray(table["potential_energy"], dtype=float)[1:],
        insertion_acceptance=_ratio(delta[4], delta[3]),
        deletion_acceptance=_ratio(delta[6], delta[5]),
    )
