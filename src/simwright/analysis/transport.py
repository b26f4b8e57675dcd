"""Ionic transport from self-diffusion: drift removal, Nernst–Einstein conductivity and
the apparent transference number.

The MSD of ions must be taken relative to the centre of mass of the *whole* system:
a thermostat or round-off lets the total momentum wander, and that drift adds a
spurious t² term. Removing the centre of mass of each group separately (LAMMPS
``compute msd ... com yes`` on the Li group) is a different and wrong operation: with
a few ions it cancels most of their own displacement and silently lowers D.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from simwright.errors import ValidationError

ELEMENTARY_CHARGE_C: Final = 1.602176634e-19
BOLTZMANN_J_K: Final = 1.380649e-23


def remove_system_drift(
    positions_a: np.ndarray, masses_amu: Sequence[float] | np.ndarray
) -> np.ndarray:
    """Unwrapped positions (n_frames, n_atoms, 3) with the whole system's centre-of-mass
    displacement since the first frame subtracted from every atom."""
    positions = np.asarray(positions_a, dtype=np.float64)
    masses = np.asarray(masses_amu, dtype=np.float64)
    if positions.ndim != 3 or positions.shape[1:] != (masses.size, 3):
        raise ValidationError(
            f"positions {positions.shape} do not match {masses.size} masses "
            "(expected (n_frames, n_atoms, 3))"
        )
    if masses.size == 0 or np.any(masses <= 0):
        raise ValidationError("masses must be positive")
    com = np.einsum("fai,a->fi", positions, masses) / masses.sum()
    return positions - (com - com[0])[:, None, :]


@dataclass(frozen=True)
class NernstEinstein:
    """Ideal (uncorrelated) conductivity and the apparent cation transference number."""

    conductivity_s_m: float
    transference_cation: float

    @property
    def conductivity_ms_cm(self) -> float:
        """Conductivity in mS/cm (1 S/m = 10 mS/cm)."""
        return self.conductivity_s_m * 10.0


def nernst_einstein(
    d_cation_m2_s: float,
    d_anion_m2_s: float,
    n_cations: int,
    n_anions: int,
    volume_a3: float,
    temperature_k: float,
    charges: tuple[int, int] = (1, -1),
) -> NernstEinstein:
    """σ_NE = e²/(V k_B T) · (N₊z₊²D₊ + N₋z₋²D₋); t₊ = N₊z₊²D₊ / (N₊z₊²D₊ + N₋z₋²D₋).

    Ion–ion correlations (ion pairing) are neglected, so σ_NE is an upper bound of the
    conductivity for an associating electrolyte.
    """
    values = (d_cation_m2_s, d_anion_m2_s, volume_a3, temperature_k)
    if not all(math.isfinite(v) for v in values) or min(volume_a3, temperature_k) <= 0:
        raise ValidationError("volume and temperature must be positive, D finite")
    plus = n_cations * charges[0] ** 2 * d_cation_m2_s
    minus = n_anions * charges[1] ** 2 * d_anion_m2_s
    volume_m3 = volume_a3 * 1.0e-30
    sigma = ELEMENTARY_CHARGE_C**2 / (volume_m3 * BOLTZMANN_J_K * temperature_k) * (plus + minus)
    total = plus + minus
    return NernstEinstein(sigma, plus / total if total > 0 else math.nan)
