"""The build stage: every input a protocol's run needs, built without running an engine.

``simwright plan`` calls it so that a plan exits 0 only when ``simwright run`` would
get as far as its first engine call: the structure is built, the force field or
calculator constructed, pseudopotentials chosen, and the engines found. Each
builder returns one line per input it built; any problem raises a
:class:`~simwright.errors.SimwrightError` that names it. The builders live with their
protocol family (``solids/inputs.py``, ``liquids/inputs.py``, ``dft/inputs.py``); here
is what they share.
"""

from __future__ import annotations

from dataclasses import dataclass

from simwright.errors import EngineError
from simwright.settings import Settings


@dataclass(frozen=True)
class BuiltInputs:
    """What the build stage built, one readable line per input."""

    lines: tuple[str, ...]


def lammps_line(settings: Settings) -> str:
    """The LAMMPS executable a run would use, found (else :class:`EngineError`)."""
    # lazy: the MD steps load only for the protocols that run LAMMPS
    from simwright.steps.md import launcher

    try:
        lmp = launcher(settings)
    except EngineError as exc:
        raise EngineError(f"LAMMPS is needed and was not found: {exc}") from exc
    if not lmp.executable.is_file():
        raise EngineError(f"LAMMPS is needed and {lmp.executable} does not exist")
    return f"engine: LAMMPS {lmp.executable}"
