"""Up-front estimates of what a run will cost: steps, atoms, output bytes, core-hours.

An :class:`Estimate` is rough on purpose — it is there to refuse a run that cannot
fit (a trajectory of terabytes, a year of CPU) before it starts, to show the size
of a run before it is created, and to set a wall-time limit on each engine call.
Every figure carries its basis in :attr:`Estimate.basis`, in words.

Cost models (measured on one core of the development machines, see
``docs/security.md``): LAMMPS advances about 1.6e6 atom-steps per core-second for
Lennard-Jones argon and 1.6e5 for SPC/E water with PPPM and SHAKE; a DCD frame takes
12 bytes per atom plus 100 bytes; a pw.x SCF cycle takes about ``0.5 × atoms³ + 5``
core-seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

from simwright.settings import Limits

MD_ATOM_STEPS_PER_CORE_S: Final[dict[str, float]] = {
    "lj_argon": 1.6e6,
    "spce": 1.6e5,
}
"""LAMMPS speed by force field (atom-steps per core-second, one core, measured)."""
DEFAULT_MD_RATE: Final = 1.0e5
"""Speed assumed for a force field without a measurement (atom-steps per core-second)."""
DCD_BYTES_PER_ATOM: Final = 12
DCD_FRAME_OVERHEAD: Final = 100
THERMO_ROW_BYTES: Final = 120
"""One thermo line in the log, and one row of its HDF5 copy (bytes, generous)."""
HEAT_FLUX_ROW_BYTES: Final = 80
"""One heat-current sample in the text file LAMMPS writes (bytes)."""
SCF_CYCLES: Final[dict[str, int]] = {"scf": 1, "relax": 20, "vc-relax": 30}
"""SCF cycles assumed per pw.x call: one, or a typical number of ionic steps."""


def scf_core_s(atoms: int) -> float:
    """Core-seconds of one SCF cycle of ``atoms`` atoms (rough cubic scaling)."""
    return 0.5 * atoms**3 + 5.0


@dataclass(frozen=True)
class Estimate:
    """The expected size of a run (upper side of rough), with how each figure was reached.

    ``longest_call_core_s`` is the core-seconds of the largest single engine call;
    the per-call wall-time limit derives from it (:meth:`call_limit_s`).
    """

    atoms: int
    md_steps: int = 0
    scf_cycles: int = 0
    engine_calls: int = 1
    output_bytes: int = 0
    core_hours: float = 0.0
    longest_call_core_s: float = 0.0
    basis: tuple[str, ...] = ()

    def call_limit_s(self, limits: Limits) -> float:
        """Wall-time limit of one engine call: ``engine_walltime_s`` if configured, else
        ``walltime_factor`` × the longest call's core-seconds (as if it ran on one
        core: a shared machine may give it no more), at least ``min_walltime_s``."""
        if limits.engine_walltime_s is not None:
            return limits.engine_walltime_s
        return max(limits.min_walltime_s, limits.walltime_factor * self.longest_call_core_s)

    def over(self, limits: Limits) -> tuple[str, ...]:
        """The limits this estimate exceeds, each said with its numbers."""
        problems = []
        if self.output_bytes > limits.max_output_gb * 1e9:
            problems.append(
                f"estimated output {human_bytes(self.output_bytes)} exceeds the limit of "
                f"{limits.max_output_gb:g} GB ([limits] max_output_gb)"
            )
        if self.core_hours > limits.max_core_hours:
            problems.append(
                f"estimated {self.core_hours:.3g} core-hours exceed the limit of "
                f"{limits.max_core_hours:g} ([limits] max_core_hours)"
            )
        return tuple(problems)

    def summary(self) -> str:
        """One line: atoms, steps or SCF cycles, output and core-hours."""
        work = []
        if self.md_steps:
            work.append(f"{self.md_steps:,} MD steps")
        if self.scf_cycles:
            work.append(f"{self.scf_cycles} SCF cycles")
        return (
            f"{self.atoms:,} atoms, {', '.join(work) or 'no MD'}, {self.engine_calls} engine "
            f"call(s), ~{human_bytes(self.output_bytes)} output, ~{self.core_hours:.3g} core-hours"
        )

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "atoms": self.atoms,
            "md_steps": self.md_steps,
            "scf_cycles": self.scf_cycles,
            "engine_calls": self.engine_calls,
            "output_bytes": self.output_bytes,
            "core_hours": self.core_hours,
            "longest_call_core_s": self.longest_call_core_s,
            "basis": list(self.basis),
        }


def human_bytes(n: float) -> str:
    """``n`` bytes as B, kB, MB, GB or TB (powers of 1000)."""
    for unit in ("B", "kB", "MB", "GB"):
        if abs(n) < 1000:
            return f"{n:.3g} {unit}"
        n /= 1000.0
    return f"{n:.3g} TB"


@dataclass(frozen=True)
class MdSegment:
    """One LAMMPS call of an MD protocol: its name, steps and output rows."""

    name: str
    steps: int
    frames: int = 0
    samples: int = 0


def md_estimate(forcefield: str, atoms: int, segments: tuple[MdSegment, ...]) -> Estimate:
    """The estimate of an MD protocol run as LAMMPS segments of ``atoms`` atoms."""
    rate = MD_ATOM_STEPS_PER_CORE_S.get(forcefield, DEFAULT_MD_RATE)
    steps = sum(s.steps for s in segments)
    frames = sum(s.frames for s in segments)
    samples = sum(s.samples for s in segments)
    trajectory = frames * (atoms * DCD_BYTES_PER_ATOM + DCD_FRAME_OVERHEAD)
    thermo = len(segments) * 1000 * THERMO_ROW_BYTES
    output = trajectory + thermo + samples * HEAT_FLUX_ROW_BYTES
    longest = max(s.steps for s in segments) * atoms / rate
    basis = (
        f"MD steps: {' + '.join(f'{s.steps:,} ({s.name})' for s in segments)}",
        f"speed: {rate:.2g} atom-steps per core-second for {forcefield}",
        f"trajectory: {frames:,} DCD frames × ({atoms:,} atoms × {DCD_BYTES_PER_ATOM} B + "
        f"{DCD_FRAME_OVERHEAD} B) = {human_bytes(trajectory)}",
        *([f"heat current: {samples:,} samples × {HEAT_FLUX_ROW_BYTES} B"] if samples else []),
        f"core-hours: {steps:,} steps × {atoms:,} atoms / speed / 3600",
    )
    return Estimate(
        atoms=atoms,
        md_steps=steps,
        engine_calls=len(segments),
        output_bytes=int(output),
        core_hours=steps * atoms / rate / 3600.0,
        longest_call_core_s=longest,
        basis=basis,
    )


def frames_of(length_fs: float, interval_fs: float) -> int:
    """Frames written over ``length_fs`` at one frame per ``interval_fs`` (at least one)."""
    return max(1, math.floor(length_fs / interval_fs))


def scf_estimate(atoms: int, calls: int, calculation: str) -> Estimate:
    """The estimate of ``calls`` pw.x calls of ``calculation`` on ``atoms`` atoms."""
    cycles = SCF_CYCLES.get(calculation, 20) * calls
    per_cycle = scf_core_s(atoms)
    per_call = per_cycle * SCF_CYCLES.get(calculation, 20)
    return Estimate(
        atoms=atoms,
        scf_cycles=cycles,
        engine_calls=calls,
        output_bytes=calls * 2_000_000,
        core_hours=cycles * per_cycle / 3600.0,
        longest_call_core_s=per_call,
        basis=(
            f"pw.x: {calls} call(s) of {calculation}, {SCF_CYCLES.get(calculation, 20)} SCF "
            "cycle(s) each",
            f"one SCF cycle: 0.5 × {atoms}³ + 5 = {per_cycle:.3g} core-seconds (rough)",
            "output: ~2 MB of text per call (the scratch folder is removed)",
        ),
    )
