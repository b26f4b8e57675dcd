"""LAMMPS input scripts as a pure function of a typed segment spec and a force field.

:func:`render_input` turns an :class:`MDSpec`, a :class:`ForceField` and where the
segment starts (a data file or a restart file) into the text of ``in.lammps``.
Every template uses ``units metal`` (eV, Å, ps, bar); times are converted from fs
only here, by :func:`fs_to_ps`. A continuation from a restart keeps the absolute
timestep and skips its first dump frame, so that segments join into one
continuous trajectory.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, NoReturn

from simwright.contract import Table
from simwright.engines.lammps.forcefield_block import constraint_lines, forcefield_block, num
from simwright.engines.lammps.log import parse_log
from simwright.errors import ValidationError
from simwright.forcefields.base import ForceField

Ensemble = Literal["minimize", "nve", "nvt", "npt"]
"""What a segment does: energy minimization or MD in one ensemble."""

ENSEMBLES: Final = ("minimize", "nve", "nvt", "npt")

INPUT_NAME: Final = "in.lammps"
LOG_NAME: Final = "log.lammps"
DATA_NAME: Final = "system.data"
DUMP_NAME: Final = "traj.dcd"
RESTART_NAME: Final = "final.restart"
FINAL_DATA_NAME: Final = "final.data"
HEAT_FLUX_NAME: Final = "heat_flux.dat"
PRESSURE_TENSOR_NAME: Final = "pressure_tensor.dat"
"""File names, relative to the segment's working directory."""

THERMO_KEYWORDS: Final = ("step", "time", "temp", "press", "pe", "ke", "etotal", "vol", "density")
"""Thermo output of every template, in this order."""

_UNSAFE_PATH_CHARS: Final = frozenset(" \t\n\"'$#&")


SNAPSHOT_PATTERN: Final = "snapshot.*.restart"
"""Periodic restart files (``restart_every``); ``*`` is the absolute timestep."""


def fs_to_ps(value_fs: float) -> float:
    """Convert a time from fs (simwright) to ps (LAMMPS ``units metal``)."""
    return value_fs * 1.0e-3


@dataclass(frozen=True)
class MDSpec:
    """One LAMMPS segment: what to run, for how long and what to write.

    Times in fs, temperature in K, pressure in bar. ``steps`` is the number of MD
    steps (or the maximum number of minimizer iterations). ``*_every`` of 0
    disables that output; ``heat_flux_every`` samples the heat current for
    Green–Kubo. ``zero_momentum`` removes centre-of-mass drift every
    ``momentum_every`` steps. ``min_ftol_ev_a`` is the minimizer's force tolerance.
    ``pressure_tensor_every`` samples the pressure tensor (all six components, bar)
    for Green–Kubo viscosity. ``restart_every`` writes ``snapshot.<step>.restart``
    files during the run, from which a later segment can start (e.g. the frame
    closest to the mean density).
    """

    ensemble: Ensemble
    steps: int
    timestep_fs: float = 2.0
    temperature_k: float | None = None
    pressure_bar: float | None = None
    tdamp_fs: float = 100.0
    pdamp_fs: float = 1000.0
    thermo_every: int = 100
    dump_every: int = 0
    seed: int = 12345
    zero_momentum: bool = False
    create_velocities: bool = False
    heat_flux_every: int = 0
    write_restart: bool = True
    momentum_every: int = 100
    min_ftol_ev_a: float = 1.0e-4
    restart_every: int = 0
    pressure_tensor_every: int = 0
    min_force_norm: Literal["two", "max"] = "two"
    """How the minimizer measures ``min_ftol_ev_a``: the 2-norm of all forces, or the
    largest force on any atom (LAMMPS ``min_modify norm max``)."""

    def __post_init__(self) -> None:
        if self.ensemble not in ENSEMBLES:
            _fail("ensemble", f"must be one of {', '.join(ENSEMBLES)}", self.ensemble)
        _positive_int("steps", self.steps)
        _positive_int("thermo_every", self.thermo_every)
        _positive_int("seed", self.seed)
        _positive_int("momentum_every", self.momentum_every)
        _non_negative_int("dump_every", self.dump_every)
        _non_negative_int("heat_flux_every", self.heat_flux_every)
        _non_negative_int("restart_every", self.restart_every)
        _non_negative_int("pressure_tensor_every", self.pressure_tensor_every)
        for name in ("timestep_fs", "tdamp_fs", "pdamp_fs", "min_ftol_ev_a"):
            _positive_float(name, getattr(self, name))
        for name in ("temperature_k", "pressure_bar"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, int | float) and math.isfinite(value)):
                _fail(name, "must be a finite number or None", value)
        if self.temperature_k is not None:
            _positive_float("temperature_k", self.temperature_k)
        self._check_ensemble()

    @property
    def continuable(self) -> bool:
        """True when a run stopped early can go on from its periodic restarts: it writes
        them and no time series that would need splicing (trajectory, heat current,
        pressure tensor)."""
        series = self.dump_every or self.heat_flux_every or self.pressure_tensor_every
        return self.restart_every > 0 and not series

    def _check_ensemble(self) -> None:
        needs_t = self.ensemble in ("nvt", "npt") or self.create_velocities
        if needs_t and self.temperature_k is None:
            why = "create_velocities" if self.ensemble in ("nve", "minimize") else self.ensemble
            _fail("temperature_k", f"is required for {why}", None)
        if self.ensemble == "npt" and self.pressure_bar is None:
            _fail("pressure_bar", "is required for npt", None)
        if self.ensemble != "npt" and self.pressure_bar is not None:
            _fail("pressure_bar", f"is only used by npt, not {self.ensemble}", self.pressure_bar)
        if self.ensemble == "nve" and self.temperature_k is not None and not needs_t:
            _fail("temperature_k", "is only used by nve with create_velocities", self.temperature_k)
        if self.ensemble == "minimize":
            for name in (
                "temperature_k",
                "zero_momentum",
                "create_velocities",
                "heat_flux_every",
                "pressure_tensor_every",
            ):
                if getattr(self, name):
                    _fail(name, "has no meaning for minimize", getattr(self, name))

    @property
    def duration_fs(self) -> float:
        """Simulated time of the segment (fs); 0 for a minimization."""
        return 0.0 if self.ensemble == "minimize" else self.steps * self.timestep_fs


def _fail(name: str, problem: str, value: object) -> NoReturn:
    raise ValidationError(f"MDSpec.{name} {problem}, got {value!r}")


def _positive_int(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        _fail(name, "must be a positive integer", value)


def _non_negative_int(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        _fail(name, "must be an integer >= 0 (0 = off)", value)


def _positive_float(name: str, value: object) -> None:
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok or not math.isfinite(value) or value <= 0:  # type: ignore[arg-type,operator]
        _fail(name, "must be a positive finite number", value)


@dataclass(frozen=True)
class DataStart:
    """Start a segment from a data file (path relative to the working directory).

    Non-periodic directions get a shrink-wrapped boundary that never shrinks
    below the data file's box (LAMMPS boundary ``m``).
    """

    path: str = DATA_NAME
    pbc: tuple[bool, bool, bool] = (True, True, True)


@dataclass(frozen=True)
class RestartStart:
    """Continue from a LAMMPS restart file: same timestep counter, velocities, box."""

    path: str


Start = DataStart | RestartStart
"""Where a segment's atoms come from."""


@dataclass(frozen=True)
class MDTemplate:
    """The LAMMPS template of one MD segment (an :class:`~simwright.engines.base.EngineTemplate`).

    ``inputs`` renders ``in.lammps`` for an :class:`MDSpec` with this force field and
    start; ``parse`` reads the thermo table of the log LAMMPS wrote.
    """

    forcefield: ForceField
    start: Start

    def inputs(self, spec: MDSpec) -> dict[str, str]:
        """``{'in.lammps': script}`` (the data or restart file is the start's)."""
        return {INPUT_NAME: render_input(spec, self.forcefield, self.start)}

    def parse(self, spec: MDSpec, workdir: Path) -> Table:
        """The thermo output of the segment, from ``log.lammps`` in ``workdir``."""
        return parse_log(workdir / LOG_NAME)


def render_input(spec: MDSpec, forcefield: ForceField, start: Start) -> str:
    """The complete ``in.lammps`` for one segment (pure: same inputs, same text)."""
    _check_path(start.path)
    if isinstance(start, DataStart) and forcefield.kspace is not None and not all(start.pbc):
        raise ValidationError(
            f"force field {forcefield.name!r} uses PPPM, which needs a periodic box in x, y and z"
        )
    blocks = [
        _header(spec, forcefield),
        _read_block(start),
        forcefield_block(forcefield),
        _dynamics_block(spec, forcefield),
        _output_block(spec, continuation=isinstance(start, RestartStart)),
        _heat_flux_block(spec, forcefield),
        _pressure_tensor_block(spec),
        _run_block(spec),
        _final_block(spec),
    ]
    return "\n\n".join(block for block in blocks if block) + "\n"


def _check_path(path: str) -> None:
    if not path or any(c in _UNSAFE_PATH_CHARS for c in path):
        raise ValidationError(
            f"LAMMPS input path {path!r} must be non-empty without spaces, quotes, '$', '#' or '&'"
        )


def _header(spec: MDSpec, forcefield: ForceField) -> str:
    return "\n".join(
        [
            f"# simwright LAMMPS segment: {spec.ensemble}, {spec.steps} steps, "
            f"force field {forcefield.name}",
            f"# force field reference: {forcefield.reference}",
            "# units metal: eV, Å, ps, bar",
        ]
    )


def _read_block(start: Start) -> str:
    if isinstance(start, RestartStart):
        return f"read_restart    {start.path}"
    boundary = " ".join("p" if p else "m" for p in start.pbc)
    return "\n".join(
        [
            "units           metal",
            "atom_style      full",
            f"boundary        {boundary}",
            f"read_data       {start.path}",
        ]
    )


def _dynamics_block(spec: MDSpec, ff: ForceField) -> str:
    lines = [f"timestep        {num(fs_to_ps(spec.timestep_fs))}"]
    lines += constraint_lines(ff)
    lines += _integrator_lines(spec)
    if spec.zero_momentum:
        lines.append(
            f"fix             zero_momentum all momentum {spec.momentum_every} linear 1 1 1"
        )
    if spec.create_velocities:
        lines.append(
            f"velocity        all create {num(spec.temperature_k or 0.0)} {spec.seed} "
            "dist gaussian mom yes rot no"
        )
    return "\n".join(lines)


def _integrator_lines(spec: MDSpec) -> list[str]:
    if spec.ensemble == "minimize":
        norm = [] if spec.min_force_norm == "two" else ["min_modify      norm max"]
        return ["min_style       cg", *norm]
    if spec.ensemble == "nve":
        return ["fix             integrate all nve"]
    temp = num(spec.temperature_k or 0.0)
    tdamp = num(fs_to_ps(spec.tdamp_fs))
    if spec.ensemble == "nvt":
        return [f"fix             integrate all nvt temp {temp} {temp} {tdamp}"]
    press = num(spec.pressure_bar or 0.0)
    pdamp = num(fs_to_ps(spec.pdamp_fs))
    return [
        f"fix             integrate all npt temp {temp} {temp} {tdamp} iso {press} {press} {pdamp}"
    ]


def _output_block(spec: MDSpec, *, continuation: bool) -> str:
    lines = [
        f"thermo_style    custom {' '.join(THERMO_KEYWORDS)}",
        "thermo_modify   norm no flush yes format float %.10g",
        f"thermo          {spec.thermo_every}",
    ]
    if spec.dump_every:
        lines += [
            f"dump            trajectory all dcd {spec.dump_every} {DUMP_NAME}",
            "dump_modify     trajectory unwrap yes",
        ]
        if continuation:
            lines.append("# the restart's own step is the last frame of the previous segment")
            lines.append("dump_modify     trajectory delay $(step+1)")
    if spec.restart_every:
        lines.append(f"restart         {spec.restart_every} {SNAPSHOT_PATTERN}")
    return "\n".join(lines)


def _heat_flux_block(spec: MDSpec, ff: ForceField) -> str:
    if not spec.heat_flux_every:
        return ""
    every = spec.heat_flux_every
    # LAMMPS' PPPM has no centroid per-atom virial, so with kspace the atom-based
    # per-atom stress is the only one that includes the long-range virial.
    stress = "stress/atom" if ff.kspace is not None else "centroid/stress/atom"
    return "\n".join(
        [
            f"# heat current J·V (eV·Å/ps): per-atom KE, PE and {stress} incl. virial",
            "compute         atom_ke all ke/atom",
            "compute         atom_pe all pe/atom",
            f"compute         atom_stress all {stress} NULL virial",
            "compute         heat_flux all heat/flux atom_ke atom_pe atom_stress",
            f"fix             heat_flux_out all ave/time {every} 1 {every} c_heat_flux[*] "
            f"file {HEAT_FLUX_NAME}",
        ]
    )


def _pressure_tensor_block(spec: MDSpec) -> str:
    if not spec.pressure_tensor_every:
        return ""
    every = spec.pressure_tensor_every
    return "\n".join(
        [
            "# pressure tensor (bar): pxx pyy pzz pxy pxz pyz, instantaneous, for Green–Kubo",
            f"fix             pressure_tensor_out all ave/time {every} 1 {every} "
            f"c_thermo_press[*] file {PRESSURE_TENSOR_NAME}",
        ]
    )


def _run_block(spec: MDSpec) -> str:
    if spec.ensemble == "minimize":
        return f"minimize        0.0 {spec.min_ftol_ev_a:g} {spec.steps} {10 * spec.steps}"
    return f"run             {spec.steps}"


def _final_block(spec: MDSpec) -> str:
    lines = [f"write_restart   {RESTART_NAME}"] if spec.write_restart else []
    lines.append(f"write_data      {FINAL_DATA_NAME} nocoeff")
    return "\n".join(lines)


def render_single_point(forcefield: ForceField, start: DataStart) -> str:
    """The ``in.lammps`` of a single-point energy: read the data file, ``run 0``.

    Pure like :func:`render_input`; thermo reports the potential energy (eV, not
    normalised by the number of atoms) in the same canonical columns.
    """
    _check_path(start.path)
    if forcefield.kspace is not None and not all(start.pbc):
        raise ValidationError(
            f"force field {forcefield.name!r} uses PPPM, which needs a periodic box in x, y and z"
        )
    header = "\n".join(
        [
            f"# simwright LAMMPS single point: force field {forcefield.name}",
            f"# force field reference: {forcefield.reference}",
            "# units metal: eV, Å, ps, bar",
        ]
    )
    output = "\n".join(
        [
            f"thermo_style    custom {' '.join(THERMO_KEYWORDS)}",
            "thermo_modify   norm no flush yes format float %.10g",
            "thermo          1",
        ]
    )
    blocks = [header, _read_block(start), forcefield_block(forcefield), output]
    return "\n\n".join([*blocks, "run             0"]) + "\n"
