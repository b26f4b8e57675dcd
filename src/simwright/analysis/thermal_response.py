"""Heat capacity and thermal expansion of a liquid from an NPT temperature scan.

Two estimates of each, from the same runs:

* **Finite differences** (the primary value): the mean enthalpy H = E + p V and the
  mean volume V at each temperature of the scan; a weighted straight line through
  them gives C_p = dH/dT and α = (1/V) dV/dT, V the line's value at the centre of the
  scan. The weights are the block standard errors of the means; the uncertainty is
  the slope's standard error from those weights.
* **Fluctuations** (the cross-check, at one temperature): in the isothermal–isobaric
  ensemble C_p = ⟨δH²⟩/(k_B T²) and α = ⟨δV δH⟩/(k_B T² ⟨V⟩) (M. P. Allen,
  D. J. Tildesley, Computer Simulation of Liquids, 2nd ed. (2017), §2.5). These need
  a thermostat and barostat that sample the ensemble (Nosé–Hoover/MTK do).

Units: energies eV, volumes Å³, pressure bar, temperature K; C_p is returned per
molecule in eV/K (multiply by :data:`EV_PER_K_TO_J_PER_MOL_K` for J/(mol·K)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np

from simwright.analysis.convergence import block_average
from simwright.errors import ValidationError
from simwright.units import KB_EV_K

BAR_A3_TO_EV: Final = 1.0e5 * 1.0e-30 / 1.602176634e-19
"""1 bar·Å³ in eV (6.2415e-7)."""

EV_PER_K_TO_J_PER_MOL_K: Final = 1.602176634e-19 * 6.02214076e23
"""1 eV/K per molecule in J/(mol·K) (96485.33)."""


@dataclass(frozen=True)
class StatePoint:
    """Means (and block standard errors) of one NPT run at ``temperature_k``."""

    temperature_k: float
    enthalpy_ev: float
    enthalpy_sem_ev: float
    volume_a3: float
    volume_sem_a3: float


@dataclass(frozen=True)
class Slope:
    """A weighted straight line: slope, its standard error, and the value at ``x0``."""

    slope: float
    slope_err: float
    value_at_x0: float


@dataclass(frozen=True)
class ThermalResponse:
    """C_p per molecule (eV/K) and α (1/K) with uncertainties, by both routes."""

    heat_capacity_ev_k: float
    heat_capacity_err_ev_k: float
    expansion_per_k: float
    expansion_err_per_k: float
    fluctuation_heat_capacity_ev_k: float
    fluctuation_expansion_per_k: float
    centre_temperature_k: float
    centre_volume_a3: float


def enthalpy_ev(
    total_energy_ev: np.ndarray, volume_a3: np.ndarray, pressure_bar: float
) -> np.ndarray:
    """H = E + p V (eV) with the barostat's target pressure ``pressure_bar``."""
    out: np.ndarray = (
        np.asarray(total_energy_ev) + pressure_bar * np.asarray(volume_a3) * BAR_A3_TO_EV
    )
    return out


def state_point(
    temperature_k: float, enthalpy: np.ndarray, volume: np.ndarray, n_blocks: int
) -> StatePoint:
    """Block-averaged means of one run's enthalpy and volume series."""
    h = block_average(np.asarray(enthalpy, dtype=float), n_blocks)
    v = block_average(np.asarray(volume, dtype=float), n_blocks)
    return StatePoint(temperature_k, h.mean, h.sem, v.mean, v.sem)


def weighted_slope(x: np.ndarray, y: np.ndarray, sigma: np.ndarray, x0: float) -> Slope:
    """Weighted least-squares line through (x, y ± sigma); zero sigmas count as equal."""
    x, y, s = (np.asarray(a, dtype=float) for a in (x, y, sigma))
    if x.size < 2 or np.unique(x).size < 2:
        raise ValidationError("a slope needs at least two different temperatures")
    positive = s[s > 0]
    floor = float(positive.min()) if positive.size else 1.0
    w = 1.0 / np.maximum(s, floor) ** 2
    xm = float(np.sum(w * x) / w.sum())
    ym = float(np.sum(w * y) / w.sum())
    sxx = float(np.sum(w * (x - xm) ** 2))
    slope = float(np.sum(w * (x - xm) * (y - ym)) / sxx)
    err = 1.0 / math.sqrt(sxx)
    if x.size > 2:  # scale by the scatter about the line when it exceeds the error bars
        chi2 = float(np.sum(w * (y - ym - slope * (x - xm)) ** 2)) / (x.size - 2)
        err *= math.sqrt(max(1.0, chi2))
    return Slope(slope, err, ym + slope * (x0 - xm))


def fluctuations(
    enthalpy: np.ndarray, volume: np.ndarray, temperature_k: float
) -> tuple[float, float]:
    """(C_p in eV/K for the whole system, α in 1/K) from NPT fluctuations at one T."""
    h = np.asarray(enthalpy, dtype=float)
    v = np.asarray(volume, dtype=float)
    kt2 = KB_EV_K * temperature_k**2
    dh, dv = h - h.mean(), v - v.mean()
    return float(np.mean(dh * dh) / kt2), float(np.mean(dv * dh) / (kt2 * v.mean()))


def thermal_response(
    points: list[StatePoint],
    n_molecules: int,
    centre_series: tuple[np.ndarray, np.ndarray],
) -> ThermalResponse:
    """Both estimates from the scan's ``points`` and the centre run's (H, V) series."""
    if n_molecules < 1:
        raise ValidationError("n_molecules must be positive")
    t = np.array([p.temperature_k for p in points])
    centre = float(np.median(t))
    h = weighted_slope(
        t,
        np.array([p.enthalpy_ev for p in points]),
        np.array([p.enthalpy_sem_ev for p in points]),
        centre,
    )
    v = weighted_slope(
        t,
        np.array([p.volume_a3 for p in points]),
        np.array([p.volume_sem_a3 for p in points]),
        centre,
    )
    cp_fluct, alpha_fluct = fluctuations(*centre_series, centre)
    return ThermalResponse(
        heat_capacity_ev_k=h.slope / n_molecules,
        heat_capacity_err_ev_k=h.slope_err / n_molecules,
        expansion_per_k=v.slope / v.value_at_x0,
        expansion_err_per_k=v.slope_err / v.value_at_x0,
        fluctuation_heat_capacity_ev_k=cp_fluct / n_molecules,
        fluctuation_expansion_per_k=alpha_fluct,
        centre_temperature_k=centre,
        centre_volume_a3=v.value_at_x0,
    )
