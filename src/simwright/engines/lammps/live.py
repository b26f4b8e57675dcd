"""Live progress of a running LAMMPS, read from its log as it grows.

:class:`LogFollower` reads only the bytes appended since its last look, so it never
loses track of the current thermo block however long the log gets (reading a fixed
tail did: past 64 KB of thermo lines the block's header fell out of the window and
the progress display went back to "LAMMPS starting" in the middle of production).
It knows the steps done in the current ``run``, the speed in steps per second
measured on the wall clock, and ns/day when the log states the units and timestep.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

FS_PER_TIME_UNIT: Final[dict[str, float]] = {
    "real": 1.0,
    "metal": 1000.0,
    "electron": 1e-3 * 0.02418884326,
    "si": 1e15,
    "cgs": 1e15,
    "micro": 1e9,
    "nano": 1e6,
}
"""Femtoseconds per LAMMPS time unit of each unit style (``lj`` has none)."""

DEFAULT_TIMESTEP: Final[dict[str, float]] = {"real": 1.0, "metal": 0.001, "electron": 0.001}
"""LAMMPS's default timestep of a unit style, in that style's time unit."""


@dataclass(frozen=True)
class LiveProgress:
    """What a running LAMMPS has done: steps in the current run, speeds when known."""

    steps_done: int
    steps_per_s: float | None = None
    ns_per_day: float | None = None

    def describe(self, total_steps: int | None = None) -> str:
        """``step 9450/50000 · 412 steps/s · 3.10 ns/day`` (parts left out when unknown)."""
        of = f"/{total_steps}" if total_steps else ""
        parts = [f"step {self.steps_done}{of}"]
        if self.steps_per_s is not None:
            parts.append(f"{self.steps_per_s:.3g} steps/s")
        if self.ns_per_day is not None:
            parts.append(f"{self.ns_per_day:.3g} ns/day")
        return " · ".join(parts)


class LogFollower:
    """Follows ``log.lammps`` while LAMMPS writes it; :meth:`poll` gives the progress so far."""

    def __init__(
        self,
        log: Path,
        clock: Callable[[], float] = time.monotonic,
        timestep_fs: float | None = None,
    ) -> None:
        """``timestep_fs``, when the caller knows it, is used for ns/day (a run started
        from a restart file names no units in its log)."""
        self.log = log
        self.clock = clock
        self.timestep_fs = timestep_fs
        self._offset = 0
        self._partial = ""
        self._units: str | None = None
        self._timestep: float | None = None
        self._first_step: int | None = None
        self._last_step: int | None = None
        self._in_block = False
        self._seen_at: float | None = None  # wall clock when the block's first line came

    def poll(self) -> LiveProgress | None:
        """Read what was appended; None until the first thermo line of a run."""
        for line in self._new_lines():
            self._read(line)
        if self._first_step is None or self._last_step is None:
            return None
        done = self._last_step - self._first_step
        return LiveProgress(done, *self._speeds(done))

    def _new_lines(self) -> list[str]:
        try:
            with self.log.open("rb") as fh:
                fh.seek(self._offset)
                chunk = fh.read()
        except OSError:
            return []
        self._offset += len(chunk)
        text = self._partial + chunk.decode(errors="replace")
        lines = text.split("\n")
        self._partial = lines.pop()  # an unfinished last line waits for the next poll
        return lines

    def _read(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        head = words[0]
        if head == "units" and len(words) > 1:
            self._units = words[1]
        elif head == "timestep" and len(words) > 1:
            self._timestep = _number(words[1])
        elif head == "Step":  # the header of a new run block
            self._in_block = True
            self._first_step = self._last_step = None
        elif self._in_block and head.isdigit():
            step = int(head)
            if self._first_step is None:
                self._first_step, self._seen_at = step, self.clock()
            self._last_step = step
        elif head == "Loop":
            self._in_block = False

    def _speeds(self, done: int) -> tuple[float | None, float | None]:
        elapsed = self.clock() - self._seen_at if self._seen_at is not None else 0.0
        if done <= 0 or elapsed <= 0:
            return None, None
        per_s = done / elapsed
        fs = self._timestep_fs()
        return per_s, (per_s * fs * 86400 / 1e6 if fs is not None else None)

    def _timestep_fs(self) -> float | None:
        if self.timestep_fs is not None:
            return self.timestep_fs
        units = self._units or "lj"
        factor = FS_PER_TIME_UNIT.get(units)
        step = self._timestep if self._timestep is not None else DEFAULT_TIMESTEP.get(units)
        return None if factor is None or step is None else step * factor


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None  # a variable reference such as ${dt}
