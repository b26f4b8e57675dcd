"""Carbon walls of a slit pore: Steele's 10-4-3 graphite wall or a 9-3 continuum wall.

Both walls act on a one-site LJ gas through Lorentz–Berthelot mixing with
Steele's graphite carbon (ρ_s = 0.114 Å⁻³, Δ = 3.35 Å, ε_C/k_B = 28.0 K,
σ_C = 3.40 Å; W. A. Steele, Surf. Sci. 36, 317 (1973)), and differ in how the
solid is summed:

* ``steele_10_4_3`` — Steele's 10-4-3 potential of a stack of graphite planes
  (spacing Δ), the standard wall of simulations of gases in carbon slit pores:
  E(z) = 2π ρ_s ε_sf σ_sf² Δ [(2/5)(σ_sf/z)¹⁰ − (σ_sf/z)⁴ − σ_sf⁴ / (3Δ(z + 0.61Δ)³)],
  with z the distance from the first plane. Written as ``fix wall/table`` (spline)
  from a table file the segment writes (:meth:`WallModel.table_text`): LAMMPS' own
  ``wall/lj1043`` ties Δ to σ (Δ = σ/√2), which is not graphite's, and the same
  formula as ``fix wall/lepton`` made GCMC segments 5–10× slower (measured here).
* ``lj93_continuum`` — a uniform half-space of carbon at graphite's density
  (``fix wall/lj93``): E(z) = ε_w [(2/15)(σ_sf/z)⁹ − (σ_sf/z)³] with
  ε_w = (2/3)π ρ_s ε_sf σ_sf³. It ignores the layering, so for methane its well
  (≈ −734 K) is about half of Steele's (≈ −1358 K).

LAMMPS shifts both so that the energy is zero at the cutoff; the well depths
here are those of the unshifted potentials.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np

from simwright.units import KB_EV_K

WallKind = Literal["lj93_continuum", "steele_10_4_3"]
"""The wall models a slit pore offers."""

WALL_KINDS: Final[tuple[WallKind, ...]] = ("lj93_continuum", "steele_10_4_3")

TABLE_NAME: Final = "steele_wall.table"
"""The table file of a Steele wall, written into the segment directory."""

TABLE_KEYWORD: Final = "STEELE_10_4_3"
TABLE_POINTS: Final = 4000

GRAPHITE_DENSITY_A3: Final = 0.114
"""Carbon atoms per Å³ of graphite (W. A. Steele, Surf. Sci. 36, 317 (1973))."""

GRAPHITE_SPACING_A: Final = 3.35
"""Distance between graphite planes Δ (Å), Steele 1973."""

CARBON_EPSILON_K: Final = 28.0
"""LJ ε/k_B of a graphite carbon atom (K), Steele 1973."""

CARBON_SIGMA_A: Final = 3.40
"""LJ σ of a graphite carbon atom (Å), Steele 1973."""

STEELE_REFERENCE: Final = (
    f"W. A. Steele, Surf. Sci. 36, 317 (1973): graphite ρ_s = {GRAPHITE_DENSITY_A3} Å⁻³, "
    f"Δ = {GRAPHITE_SPACING_A} Å, ε_C/k_B = {CARBON_EPSILON_K} K, σ_C = {CARBON_SIGMA_A} Å"
)


@dataclass(frozen=True)
class WallModel:
    """One wall face: its kind, strength, size, cutoff (Å) and where it comes from.

    ``epsilon_ev`` is ε_w of the 9-3 wall, or the prefactor 2π ρ_s ε_sf σ_sf² Δ of
    Steele's wall; ``spacing_a`` is Δ (Steele only).
    """

    kind: WallKind
    epsilon_ev: float
    sigma_a: float
    cutoff_a: float
    reference: str
    spacing_a: float = 0.0

    def energy_ev(self, z_a: np.ndarray) -> np.ndarray:
        """The unshifted wall energy (eV) of a gas atom at distances ``z_a`` (Å)."""
        s = np.asarray(z_a, dtype=float)
        if self.kind == "lj93_continuum":
            x3 = (self.sigma_a / s) ** 3
            return np.asarray(self.epsilon_ev * (2.0 / 15.0 * x3**3 - x3))
        d = self.spacing_a
        x4 = (self.sigma_a / s) ** 4
        attraction = self.sigma_a**4 / (3.0 * d * (s + 0.61 * d) ** 3)
        return np.asarray(self.epsilon_ev * (0.4 * x4**2.5 - x4 - attraction))

    def force_ev_a(self, z_a: np.ndarray) -> np.ndarray:
        """−dE/dz (eV/Å) at distances ``z_a`` (Å) from the wall."""
        s = np.asarray(z_a, dtype=float)
        if self.kind == "lj93_continuum":
            x3 = (self.sigma_a / s) ** 3
            return np.asarray(self.epsilon_ev * (18.0 / 15.0 * x3**3 - 3.0 * x3) / s)
        d = self.spacing_a
        x4 = (self.sigma_a / s) ** 4
        attraction = self.sigma_a**4 / (d * (s + 0.61 * d) ** 4)
        return np.asarray(self.epsilon_ev * ((4.0 * x4**2.5 - 4.0 * x4) / s - attraction))

    def needs_table(self) -> bool:
        """Whether LAMMPS reads this wall from :data:`TABLE_NAME`."""
        return self.kind == "steele_10_4_3"

    def table_text(self, points: int = TABLE_POINTS) -> str:
        """The ``fix wall/table`` file: z from σ_sf/2 to the cutoff, energy and force."""
        z = np.linspace(0.5 * self.sigma_a, self.cutoff_a, points)
        energy, force = self.energy_ev(z), self.force_ev_a(z)
        head = [f"# {self.reference}", "# z (Å), energy (eV), force (eV/Å)", "", TABLE_KEYWORD]
        head += [f"N {points}", ""]
        rows = [
            f"{i + 1} {zi:.10f} {ei:.12e} {fi:.12e}"
            for i, (zi, ei, fi) in enumerate(zip(z, energy, force, strict=True))
        ]
        return "\n".join(head + rows) + "\n"

    def well(self) -> tuple[float, float]:
        """(position Å, depth eV) of the minimum of the unshifted potential."""
        z = np.linspace(0.6 * self.sigma_a, 2.0 * self.sigma_a, 28_001)
        energy = self.energy_ev(z)
        i = int(np.argmin(energy))
        return float(z[i]), float(energy[i])

    def fix_command(self, fix_id: str, faces: tuple[str, ...] = ("zlo", "zhi")) -> str:
        """The LAMMPS ``fix`` putting this wall at the box edge of each face."""
        n = "{:.10g}".format
        if self.kind == "lj93_continuum":
            style = "wall/lj93"
            args = f"EDGE {n(self.epsilon_ev)} {n(self.sigma_a)} {n(self.cutoff_a)}"
        else:
            style = f"wall/table spline {TABLE_POINTS}"
            args = f"EDGE {TABLE_NAME} {TABLE_KEYWORD} {n(self.cutoff_a)}"
        placed = " ".join(f"{face} {args}" for face in faces)
        return f"fix             {fix_id} all {style} {placed}"


def _mixed(gas_epsilon_ev: float, gas_sigma_a: float) -> tuple[float, float]:
    """Lorentz–Berthelot ε_sf (eV) and σ_sf (Å) of the gas with graphite carbon."""
    eps = math.sqrt(gas_epsilon_ev * CARBON_EPSILON_K * KB_EV_K)
    return eps, 0.5 * (gas_sigma_a + CARBON_SIGMA_A)


def continuum_93_wall(gas_epsilon_ev: float, gas_sigma_a: float, cutoff_a: float) -> WallModel:
    """The 9-3 wall of a half-space of carbon at graphite's density (a model choice)."""
    eps_sf, sigma_sf = _mixed(gas_epsilon_ev, gas_sigma_a)
    epsilon = 2.0 / 3.0 * math.pi * GRAPHITE_DENSITY_A3 * eps_sf * sigma_sf**3
    reference = (
        "lj93_continuum: model choice, LJ 9-3 wall from a uniform half-space of carbon "
        f"(ε_w = (2/3)πρ_s ε_sf σ_sf³); carbon of {STEELE_REFERENCE}; "
        "Lorentz–Berthelot mixing with the gas"
    )
    return WallModel("lj93_continuum", epsilon, sigma_sf, cutoff_a, reference)


def steele_wall(gas_epsilon_ev: float, gas_sigma_a: float, cutoff_a: float) -> WallModel:
    """Steele's 10-4-3 graphite wall for a one-site LJ gas."""
    eps_sf, sigma_sf = _mixed(gas_epsilon_ev, gas_sigma_a)
    prefactor = 2.0 * math.pi * GRAPHITE_DENSITY_A3 * eps_sf * sigma_sf**2 * GRAPHITE_SPACING_A
    reference = (
        f"steele_10_4_3: Steele 10-4-3 graphite wall, {STEELE_REFERENCE}; "
        "Lorentz–Berthelot mixing with the gas"
    )
    return WallModel(
        "steele_10_4_3", prefactor, sigma_sf, cutoff_a, reference, spacing_a=GRAPHITE_SPACING_A
    )


def carbon_wall_model(
    kind: WallKind, gas_epsilon_ev: float, gas_sigma_a: float, cutoff_a: float
) -> WallModel:
    """The wall of ``kind`` for a gas of LJ ε (eV) and σ (Å)."""
    build = steele_wall if kind == "steele_10_4_3" else continuum_93_wall
    return build(gas_epsilon_ev, gas_sigma_a, cutoff_a)
