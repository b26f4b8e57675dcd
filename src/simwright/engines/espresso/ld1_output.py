"""What ld1.x reports about a pseudopotential it generated or tested, and the verdict.

Two of ld1.x's own tests decide whether a generated file may be used:

* **transferability**: on each test configuration ld1.x compares the all-electron and
  pseudo eigenvalues and the total-energy change from the first configuration
  (``dEtot_ae`` vs ``dEtot_ps``, printed as ``Delta E``);
* **ghost states**: ld1.x also solves the pseudo-atom in a basis of spherical Bessel
  functions; a ghost shows as a lowest eigenvalue of some ``l`` well below the
  physical pseudo eigenvalue of that ``l`` (or bound where none should be).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from simwright.errors import ParseError

MAX_EIGENVALUE_ERROR_RY = 0.005
"""Largest |e_AE - e_PS| accepted on a test configuration (Ry)."""

MAX_ENERGY_ERROR_RY = 0.005
"""Largest |dEtot_AE - dEtot_PS| accepted on a test configuration (Ry)."""

GHOST_TOLERANCE_RY = 0.05
"""A Bessel-basis eigenvalue this far below the pseudo eigenvalue of its ``l`` is a ghost
(the Bessel basis in a finite box shifts bound states by a few mRy, never by this)."""

_VERSION = re.compile(r"Program LD1 v\.(\S+)")
_STATE = re.compile(
    r"^\s*\d+\s+(\d)\s+(\d[SPDF])\s+\d+\(\s*(-?[\d.]+)\)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)"
)
_DELTA_E = re.compile(r"Delta E=\s*(-?[\d.]+)")
_BESSEL_ROW = re.compile(r"E\(L=(\d)\)\s*=\s*(.*)")
_NUMBER = re.compile(r"-?\d+\.\d+")
_CUTOFF = re.compile(r"Estimated cut-off energy=\s*([\d.]+)")


@dataclass(frozen=True)
class StateTest:
    """One valence state of a test configuration: AE and pseudo eigenvalues (Ry)."""

    label: str
    l: int  # noqa: E741  (angular momentum)
    occupation: float
    e_ae_ry: float
    e_ps_ry: float

    @property
    def error_ry(self) -> float:
        """|e_AE - e_PS| (Ry)."""
        return abs(self.e_ae_ry - self.e_ps_ry)


@dataclass(frozen=True)
class ConfigurationTest:
    """One test configuration: its states, the total-energy error (None for the first,
    the reference of the differences) and the Bessel-basis lowest eigenvalue per ``l``."""

    index: int
    states: tuple[StateTest, ...]
    energy_error_ry: float | None
    bessel_lowest_ry: dict[int, float] = field(default_factory=dict)

    def problems(self) -> list[str]:
        """What fails the thresholds, in words (empty: it passes)."""
        out: list[str] = []
        for s in self.states:
            if s.error_ry > MAX_EIGENVALUE_ERROR_RY:
                out.append(
                    f"configuration {self.index}: {s.label} eigenvalue off by "
                    f"{s.error_ry * 1000:.1f} mRy (limit {MAX_EIGENVALUE_ERROR_RY * 1000:g})"
                )
        if self.energy_error_ry is not None and abs(self.energy_error_ry) > MAX_ENERGY_ERROR_RY:
            out.append(
                f"configuration {self.index}: energy difference off by "
                f"{abs(self.energy_error_ry) * 1000:.1f} mRy "
                f"(limit {MAX_ENERGY_ERROR_RY * 1000:g})"
            )
        out += self._ghosts()
        return out

    def _ghosts(self) -> list[str]:
        out: list[str] = []
        for l, lowest in sorted(self.bessel_lowest_ry.items()):  # noqa: E741
            physical = [s.e_ps_ry for s in self.states if s.l == l]
            if physical and lowest < min(physical) - GHOST_TOLERANCE_RY:
                out.append(
                    f"configuration {self.index}: ghost state for l={l} at {lowest:.4f} Ry, "
                    f"below the pseudo eigenvalue {min(physical):.4f} Ry"
                )
        return out


@dataclass(frozen=True)
class Ld1Report:
    """ld1.x's version, its cutoff estimates and the tests of one file."""

    version: str
    configurations: tuple[ConfigurationTest, ...]
    estimated_wfc_cutoff_ry: float | None = None

    @property
    def problems(self) -> list[str]:
        """Every failed check, in words."""
        out: list[str] = []
        if not self.configurations:
            out.append("ld1.x reported no test configuration")
        for c in self.configurations:
            out += c.problems()
        return out

    @property
    def passed(self) -> bool:
        """True when every configuration passes every check."""
        return not self.problems

    def worst_errors_ry(self) -> tuple[float, float]:
        """(largest eigenvalue error, largest total-energy error) over the tests (Ry)."""
        eig = max((s.error_ry for c in self.configurations for s in c.states), default=0.0)
        tot = max(
            (abs(c.energy_error_ry) for c in self.configurations if c.energy_error_ry is not None),
            default=0.0,
        )
        return eig, tot

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready summary."""
        eig, tot = self.worst_errors_ry()
        return {
            "ld1_version": self.version,
            "configurations": len(self.configurations),
            "max_eigenvalue_error_ry": eig,
            "max_energy_error_ry": tot,
            "thresholds_ry": {
                "eigenvalue": MAX_EIGENVALUE_ERROR_RY,
                "energy": MAX_ENERGY_ERROR_RY,
                "ghost": GHOST_TOLERANCE_RY,
            },
            "passed": self.passed,
            "problems": self.problems,
        }


def ld1_version(text: str) -> str:
    """The version in ld1.x's banner ('' when absent)."""
    found = _VERSION.search(text)
    return found.group(1) if found else ""


def estimated_wfc_cutoff(text: str) -> float | None:
    """The largest wave-function cutoff ld1.x estimated while generating (Ry)."""
    values = [float(v) for v in _CUTOFF.findall(text)]
    return max(values) if values else None


def parse_test_output(text: str, generation_text: str = "") -> Ld1Report:
    """Read an ld1.x test run (``iswitch=2``); :class:`ParseError` when it is not one."""
    if "Testing the pseudopotential" not in text:
        raise ParseError("ld1.x output holds no pseudopotential test")
    blocks = text.split("Testing the pseudopotential")[1:]
    configs = [_configuration(i, block) for i, block in enumerate(blocks, start=1)]
    return Ld1Report(
        version=ld1_version(text) or ld1_version(generation_text),
        configurations=tuple(configs),
        estimated_wfc_cutoff_ry=estimated_wfc_cutoff(generation_text),
    )


def _configuration(index: int, block: str) -> ConfigurationTest:
    """One test block: the state table, ``Delta E`` and the Bessel eigenvalues after it."""
    test_part, _, rest = block.partition("End of pseudopotential test")
    states = []
    for line in test_part.splitlines():
        m = _STATE.match(line)
        if m:
            states.append(
                StateTest(
                    label=m.group(2),
                    l=int(m.group(1)),
                    occupation=float(m.group(3)),
                    e_ae_ry=float(m.group(4)),
                    e_ps_ry=float(m.group(5)),
                )
            )
    if not states:
        raise ParseError(f"ld1.x test configuration {index}: no eigenvalue table")
    delta = _DELTA_E.search(test_part)
    bessel_part = rest.split("End of Bessel function test")[0]
    return ConfigurationTest(
        index=index,
        states=tuple(states),
        energy_error_ry=float(delta.group(1)) if delta else None,
        bessel_lowest_ry=_bessel_lowest(bessel_part),
    )


def _bessel_lowest(text: str) -> dict[int, float]:
    """The lowest eigenvalue per ``l`` at the last (highest) cutoff of the Bessel test."""
    lowest: dict[int, float] = {}
    for line in text.splitlines():
        m = _BESSEL_ROW.search(line)
        if m:
            numbers = _NUMBER.findall(m.group(2))
            if numbers:
                lowest[int(m.group(1))] = float(numbers[0])
    return lowest
