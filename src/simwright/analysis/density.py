"""Density time series and the choice of a representative frame after NPT.

After an NPT equilibration one usually continues from the frame whose density is
closest to the mean of the equilibrated part. Thermo output and dump frames are
often written at different intervals, so the density (from thermo) is interpolated
onto the dump frame times and only those are candidates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np

from simwright.analysis.convergence import last_window_mask
from simwright.contract.tables import Table
from simwright.errors import ValidationError
from simwright.units import A3_CM3, AMU_G

DENSITY_UNITS: Final = frozenset({"g/cm^3", "g/cm3", "g/cm³", "g cm^-3"})
VOLUME_UNITS: Final = frozenset({"Å^3", "Å³", "A^3", "angstrom^3", "Angstrom^3"})
TIME_UNITS_FS: Final = {"fs": 1.0, "ps": 1.0e3}
"""Time units a thermo table may use, with their size in fs."""


@dataclass(frozen=True, eq=False)
class DensitySeries:
    """Mass density (g/cm³) at times (fs)."""

    times_fs: np.ndarray
    density_g_cm3: np.ndarray


@dataclass(frozen=True)
class ClosestFrame:
    """The candidate frame whose density is closest to the mean of the last window.

    ``index`` indexes the candidate frame times given (or the series' own times when
    none were given); ``density_g_cm3`` is the density at that frame (interpolated).
    """

    index: int
    time_fs: float
    density_g_cm3: float
    window_mean_g_cm3: float
    window_std_g_cm3: float
    window_start_fs: float
    window_end_fs: float
    n_window_samples: int


def density_from_volume(volume_a3: np.ndarray, total_mass_amu: float) -> np.ndarray:
    """Mass density in g/cm³ of ``total_mass_amu`` in volumes ``volume_a3`` (Å³)."""
    volume = np.asarray(volume_a3, dtype=np.float64)
    if total_mass_amu <= 0:
        raise ValidationError(f"total mass must be positive, got {total_mass_amu} amu")
    if np.any(volume <= 0) or not np.all(np.isfinite(volume)):
        raise ValidationError("volumes must be finite and positive")
    density: np.ndarray = total_mass_amu * AMU_G / (volume * A3_CM3)
    return density


def _find_column(table: Table, name: str) -> str:
    """The table's column called ``name``, ignoring case (LAMMPS writes ``Volume``)."""
    for candidate in table.names:
        if candidate.lower() == name.lower():
            return candidate
    raise ValidationError(
        f"table {table.name!r} has no column {name!r}; available: {', '.join(table.names)}"
    )


def _checked_unit(table: Table, column: str, allowed: frozenset[str]) -> None:
    unit = table.column(column).unit
    if unit not in allowed:
        raise ValidationError(
            f"column {column!r} has unit {unit!r}; expected one of {', '.join(sorted(allowed))}"
        )


def _times_fs(
    table: Table, time_column: str, step_column: str, timestep_fs: float | None
) -> np.ndarray:
    if timestep_fs is not None:
        steps = np.asarray(table[_find_column(table, step_column)], dtype=np.float64)
        return steps * timestep_fs
    name = _find_column(table, time_column)
    unit = table.column(name).unit
    if unit not in TIME_UNITS_FS:
        raise ValidationError(f"column {name!r} has unit {unit!r}; expected fs or ps")
    return np.asarray(table[name], dtype=np.float64) * TIME_UNITS_FS[unit]


def density_series(
    table: Table,
    *,
    total_mass_amu: float | None = None,
    density_column: str = "density",
    volume_column: str = "volume",
    time_column: str = "time",
    step_column: str = "step",
    timestep_fs: float | None = None,
) -> DensitySeries:
    """Density over time from a thermo table.

    With ``total_mass_amu`` the density is computed from the volume column (Å³);
    without it the density column (g/cm³) is used. Times come from the time column
    (fs or ps), or from the step column × ``timestep_fs`` when that is given. Column
    names are matched ignoring case.
    """
    times = _times_fs(table, time_column, step_column, timestep_fs)
    if total_mass_amu is not None:
        name = _find_column(table, volume_column)
        _checked_unit(table, name, VOLUME_UNITS)
        density = density_from_volume(table[name], total_mass_amu)
    else:
        name = _find_column(table, density_column)
        _checked_unit(table, name, DENSITY_UNITS)
        density = np.asarray(table[name], dtype=np.float64)
    return DensitySeries(times_fs=times, density_g_cm3=density)


def _window_candidates(
    times: np.ndarray, window_start: float, candidates: np.ndarray
) -> np.ndarray:
    slack = 1e-9 * max(abs(float(times[-1])), 1.0)
    inside = (candidates >= window_start - slack) & (candidates <= times[-1] + slack)
    chosen = np.flatnonzero(inside)
    if chosen.size == 0:
        raise ValidationError(
            f"no candidate frame lies in the averaging window {window_start:g}–"
            f"{float(times[-1]):g} fs; write frames more often or widen the window"
        )
    return chosen


def closest_frame_to_mean(
    times_fs: np.ndarray,
    density_g_cm3: np.ndarray,
    *,
    candidate_times_fs: np.ndarray | None = None,
    last_window_fraction: float | None = None,
    last_window_fs: float | None = None,
) -> ClosestFrame:
    """The frame whose density is closest to the mean density of the last window.

    The window (``last_window_fs`` long, or ``last_window_fraction`` of the series,
    default 0.5) ends at the last sample; its mean and std (ddof=1) use the density
    samples inside it. Candidates are ``candidate_times_fs`` (e.g. dump frame times)
    inside the window, with the density linearly interpolated onto them; without
    candidates, the series' own samples. Ties go to the earliest frame.
    """
    times = np.asarray(times_fs, dtype=np.float64)
    density = np.asarray(density_g_cm3, dtype=np.float64)
    if times.shape != density.shape or times.ndim != 1:
        raise ValidationError("times_fs and density_g_cm3 must be 1-D and of equal length")
    mask = last_window_mask(
        times, last_window_fraction=last_window_fraction, last_window_fs=last_window_fs
    )
    window = density[mask]
    if window.size < 2:
        raise ValidationError("fewer than 2 density samples in the window; widen it")
    mean = float(window.mean())
    candidates = times if candidate_times_fs is None else np.asarray(candidate_times_fs, float)
    chosen = _window_candidates(times, float(times[mask][0]), candidates)
    values = np.interp(candidates[chosen], times, density)
    best = int(np.argmin(np.abs(values - mean)))
    index = int(chosen[best])
    return ClosestFrame(
        index=index,
        time_fs=float(candidates[index]),
        density_g_cm3=float(values[best]),
        window_mean_g_cm3=mean,
        window_std_g_cm3=float(window.std(ddof=1)),
        window_start_fs=float(times[mask][0]),
        window_end_fs=float(times[-1]),
        n_window_samples=int(window.size),
    )
