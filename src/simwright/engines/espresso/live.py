"""Live progress of a running pw.x, read from its standard output as it grows.

:class:`PwFollower` reads only what was appended since its last look and keeps the
SCF iteration, the total energy and its change since the previous iteration, the
estimated SCF accuracy, and the ionic step of a relaxation (each ``!`` line closes
one SCF cycle).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_ITERATION = re.compile(r"^\s*iteration #\s*(\d+)")
_ENERGY = re.compile(r"^\s*total energy\s*=\s*(-?[\d.]+(?:[EeDd][-+]?\d+)?)\s*Ry")
_ACCURACY = re.compile(r"^\s*estimated scf accuracy\s*<\s*([\d.]+(?:[EeDd][-+]?\d+)?)\s*Ry")
_CONVERGED = re.compile(r"^!\s*total energy")


@dataclass(frozen=True)
class ScfProgress:
    """Where pw.x stands: SCF iteration, energy change and accuracy, finished SCF cycles."""

    iteration: int
    energy_ry: float | None = None
    delta_e_ry: float | None = None
    accuracy_ry: float | None = None
    scf_cycles_done: int = 0

    def describe(self) -> str:
        """``SCF iteration 7 · ΔE -3.5e-07 Ry · accuracy < 9e-08 Ry`` (known parts only)."""
        parts = []
        if self.scf_cycles_done:
            parts.append(f"ionic step {self.scf_cycles_done + 1}")
        parts.append(f"SCF iteration {self.iteration}")
        if self.delta_e_ry is not None:
            parts.append(f"ΔE {self.delta_e_ry:.2g} Ry")
        if self.accuracy_ry is not None:
            parts.append(f"accuracy < {self.accuracy_ry:.2g} Ry")
        return " · ".join(parts)


class PwFollower:
    """Follows pw.x's output file; :meth:`poll` gives the SCF progress so far."""

    def __init__(self, output: Path) -> None:
        self.output = output
        self._offset = 0
        self._partial = ""
        self._iteration = 0
        self._energies: list[float] = []
        self._accuracy: float | None = None
        self._cycles = 0

    def poll(self) -> ScfProgress | None:
        """Read what was appended; None before the first SCF iteration."""
        for line in self._new_lines():
            self._read(line)
        if not self._iteration:
            return None
        energy = self._energies[-1] if self._energies else None
        delta = self._energies[-1] - self._energies[-2] if len(self._energies) > 1 else None
        return ScfProgress(self._iteration, energy, delta, self._accuracy, self._cycles)

    def _new_lines(self) -> list[str]:
        try:
            with self.output.open("rb") as fh:
                fh.seek(self._offset)
                chunk = fh.read()
        except OSError:
            return []
        self._offset += len(chunk)
        lines = (self._partial + chunk.decode(errors="replace")).split("\n")
        self._partial = lines.pop()
        return lines

    def _read(self, line: str) -> None:
        if match := _ITERATION.match(line):
            self._iteration = int(match.group(1))
            if self._iteration == 1:
                self._energies, self._accuracy = [], None
        elif match := _ENERGY.match(line):
            self._energies.append(_float(match.group(1)))
        elif match := _ACCURACY.match(line):
            self._accuracy = _float(match.group(1))
        elif _CONVERGED.match(line):
            self._cycles += 1


def _float(text: str) -> float:
    return float(text.replace("D", "E").replace("d", "e"))
