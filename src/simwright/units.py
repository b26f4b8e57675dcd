"""Canonical units of simwright and the few conversions the core needs.

Inside simwright every quantity is in eV, Å, fs, K, bar, amu, and names carry
their unit (``timestep_fs``, ``pressure_bar``). Conversion to an engine's own
units happens only at that engine's edge.
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any, Final

AMU_G: Final = 1.66053906660e-24
"""One atomic mass unit in grams (CODATA 2018)."""

A3_CM3: Final = 1.0e-24
"""One cubic ångström in cubic centimetres."""

EV_A3_GPA: Final = 160.21766208
"""Pressure of one eV/Å³ in GPa."""

ATM_BAR: Final = 1.01325
"""One standard atmosphere in bar."""

KB_EV_K: Final = 8.617333262e-5
"""Boltzmann constant in eV/K (CODATA 2018)."""

A2_PER_FS_TO_CM2_PER_S: Final = 0.1
"""1 Å²/fs = 1e-16 cm² / 1e-15 s = 0.1 cm²/s."""

CANONICAL: Final[dict[str, str]] = {
    "energy": "eV",
    "length": "Å",
    "time": "fs",
    "temperature": "K",
    "pressure": "bar",
    "mass": "amu",
    "density": "g/cm^3",
}
"""The canonical unit of each dimension used across simwright."""


def density_g_cm3(total_mass_amu: float, volume_a3: float) -> float:
    """Mass density in g/cm³ from a mass in amu and a volume in Å³."""
    if volume_a3 <= 0:
        raise ValueError("volume must be positive")
    return total_mass_amu * AMU_G / (volume_a3 * A3_CM3)


def diffusion_a2_fs_to_1e5_cm2_s(d_a2_fs: float) -> float:
    """Convert a diffusion coefficient from Å²/fs to units of 10⁻⁵ cm²/s."""
    return d_a2_fs * A2_PER_FS_TO_CM2_PER_S * 1.0e5


def _pint_cache_folder() -> str | None:
    """Where pint keeps its parsed unit definitions (parsing them anew costs ~0.5 s):
    ``$XDG_CACHE_HOME/simwright/pint`` (``~/.cache/...``); None when it cannot be made."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "simwright", "pint")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return folder


@cache
def unit_registry() -> Any:
    """The pint unit registry simwright uses for units written by people (``molal`` = mol/kg)."""
    import pint  # lazy: pint takes ~0.4 s to import and most commands never parse a unit

    ureg: Any = pint.UnitRegistry(
        autoconvert_offset_to_baseunit=True, cache_folder=_pint_cache_folder()
    )
    ureg.define("molal = mole / kilogram")
    return ureg
