"""The shared lead-in of the liquid protocols: typed run parameters, pack, equilibrate.

``liquid_structure``, ``density``, ``viscosity`` and ``ionic_conductivity`` all start
the same way: pack the system with PACKMOL, minimize (flexible models only: rigid
water starts from the packing), equilibrate at (T, p) or at a fixed density. The
parameters share :class:`LiquidRunParams`; each protocol narrows ``system`` and may
change the defaults (:meth:`LiquidRunParams.system_defaults`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from simwright.engines.lammps.segment import MDSpec
from simwright.forcefields.base import ForceField
from simwright.graph import RunContext
from simwright.protocols.liquids.start_frame import snapshot_every
from simwright.protocols.md_systems import SYSTEMS, LiquidSystem, build_liquid, forcefield_of
from simwright.results import ArtifactRef
from simwright.steps.md import SegmentFiles, equilibrate, minimize_packed, steps_for

WATER_SYSTEMS = ("spce_water", "tip3p_water", "tip4p2005_water")
"""The rigid water models the liquid protocols run."""

_WATER: dict[str, Any] = {
    # ambient water at 1 atm; 216 molecules (L ≈ 18.6 Å) is small but honest
    "temperature_k": 298.15,
    "pressure_bar": 1.01325,
    "n_molecules": 216,
    "timestep_fs": 2.0,
    "equilibration_ps": 20.0,
    "production_ps": 50.0,
}

ORGANIC_SYSTEMS = ("methanol", "ethanol", "acetonitrile")
"""Flexible OPLS-AA organic liquids (no constraints: 1 fs steps)."""

_ORGANIC: dict[str, Any] = {
    # ambient liquid at 1 atm; 150 molecules (≈ 900–1350 atoms), flexible C–H: 1 fs
    "temperature_k": 298.15,
    "pressure_bar": 1.01325,
    "n_molecules": 150,
    "timestep_fs": 1.0,
    "equilibration_ps": 20.0,
    "production_ps": 50.0,
}

PACK_DENSITY_G_CM3: dict[str, float] = {name: 0.7 for name in ORGANIC_SYSTEMS}
"""Packing density of systems equilibrated at a pressure (default 1 g/cm³): the
organic liquids are packed a little below their density (≈ 0.78 g/cm³)."""

BASE_DEFAULTS: dict[str, dict[str, Any]] = {
    **{name: dict(_ORGANIC) for name in ORGANIC_SYSTEMS},
    **{name: dict(_WATER) for name in WATER_SYSTEMS},
    # Rahman's liquid argon state point, Phys. Rev. 136, A405 (1964), fixed density
    "lj_argon": {
        "temperature_k": 94.4,
        "density_g_cm3": 1.374,
        "n_molecules": 500,
        "timestep_fs": 5.0,
        "equilibration_ps": 20.0,
        "production_ps": 50.0,
    },
    # molten NaCl at 1200 K at the experimental density 2.1393 − 5.43e-4 T g/cm³
    # (G. J. Janz et al., J. Phys. Chem. Ref. Data 8, 791 (1979)): 1.488 g/cm³;
    # 108 formula units (216 ions)
    "nacl_melt": {
        "temperature_k": 1200.0,
        "density_g_cm3": 1.488,
        "n_molecules": 108,
        "timestep_fs": 2.0,
        "equilibration_ps": 10.0,
        "production_ps": 50.0,
    },
}
"""Defaults per system: a quick estimate on 2 cores (minutes), not a production length."""


class LiquidRunParams(BaseModel):
    """Run parameters every liquid protocol shares; omitted values take the defaults.

    Give ``pressure_bar`` (NPT equilibration) or ``density_g_cm3`` (fixed density),
    not both. ``n_molecules`` counts molecules, atoms (argon) or formula units (NaCl).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    SYSTEMS_ALLOWED: ClassVar[tuple[str, ...]] = tuple(BASE_DEFAULTS)

    system: str
    temperature_k: float = Field(gt=0, le=5000)
    pressure_bar: float | None = Field(None, gt=0, le=1e5)
    density_g_cm3: float | None = Field(None, gt=0, le=30)
    n_molecules: int = Field(ge=2, le=200_000)
    timestep_fs: float = Field(gt=0, le=20)
    equilibration_ps: float = Field(gt=0, le=1e5)
    production_ps: float = Field(gt=0, le=1e6)
    seed: int = Field(2026, ge=1, lt=2**31)

    @classmethod
    def system_defaults(cls, system: str) -> dict[str, Any]:
        """The defaults of ``system`` for this protocol (override to change them)."""
        return dict(BASE_DEFAULTS.get(system, {}))

    @model_validator(mode="before")
    @classmethod
    def _defaults(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        system = data.get("system")
        if system not in cls.SYSTEMS_ALLOWED:
            raise ValueError(f"unknown system {system!r}; known: {', '.join(cls.SYSTEMS_ALLOWED)}")
        defaults = cls.system_defaults(system)
        if "density_g_cm3" in data and "pressure_bar" not in data:
            defaults.pop("pressure_bar", None)
        if "pressure_bar" in data and "density_g_cm3" not in data:
            defaults.pop("density_g_cm3", None)
        return {**defaults, **data}

    @model_validator(mode="after")
    def _one_ensemble(self) -> LiquidRunParams:
        if (self.pressure_bar is None) == (self.density_g_cm3 is None):
            raise ValueError("give either pressure_bar (NPT) or density_g_cm3 (fixed density)")
        return self

    @property
    def npt(self) -> bool:
        """True when equilibration runs at constant pressure."""
        return self.pressure_bar is not None

    @property
    def liquid(self) -> LiquidSystem:
        """The system record (molecules, force field, description)."""
        return SYSTEMS[self.system]

    @property
    def forcefield(self) -> ForceField:
        """The force field of the system."""
        return forcefield_of(self.liquid)

    def every(self, interval_fs: float) -> int:
        """Steps between two outputs spaced ``interval_fs`` (at least 1)."""
        return max(1, round(interval_fs / self.timestep_fs))

    def state(self) -> str:
        """The thermodynamic state in words, e.g. ``298.15 K, 1.01325 bar``."""
        if self.pressure_bar is not None:
            return f"{self.temperature_k:g} K, {self.pressure_bar:g} bar"
        return f"{self.temperature_k:g} K, {self.density_g_cm3:g} g/cm³"


def prepare_liquid(ctx: RunContext, p: LiquidRunParams) -> ArtifactRef:
    """Pack the system and minimize it (rigid models start from the packing, a rule)."""
    density = p.density_g_cm3 or PACK_DENSITY_G_CM3.get(p.system, 1.0)
    packed = build_liquid(ctx, p.liquid, p.n_molecules, density, p.seed)
    ff = p.forcefield
    if ff.rigid:
        ctx.rule(
            "rigid_molecules_skip_minimization",
            f"{ff.name} is rigid (SHAKE); start dynamics from the PACKMOL structure",
        )
        return packed
    return minimize_packed(ctx, ff, packed, p.timestep_fs)


def equilibrate_liquid(
    ctx: RunContext, p: LiquidRunParams, start: ArtifactRef, *, snapshot_restarts: bool = False
) -> SegmentFiles:
    """NPT (or fixed-density NVT) equilibration with fresh velocities from ``start``.

    ``snapshot_restarts`` writes periodic restarts of an NPT run (candidates for
    :func:`simwright.protocols.liquids.start_frame.closest_density_start`).
    """
    steps = steps_for(p.equilibration_ps, p.timestep_fs)
    spec = MDSpec(
        "npt" if p.npt else "nvt",
        steps=steps,
        timestep_fs=p.timestep_fs,
        temperature_k=p.temperature_k,
        pressure_bar=p.pressure_bar,
        thermo_every=p.every(100.0),
        seed=p.seed,
        create_velocities=True,
        zero_momentum=True,
        restart_every=snapshot_every(steps) if snapshot_restarts and p.npt else 0,
    )
    return equilibrate(ctx, spec, p.forcefield, start)


def production_spec(p: LiquidRunParams, length_ps: float, **outputs: Any) -> MDSpec:
    """An NVT production segment of ``length_ps`` with the momentum zeroed."""
    return MDSpec(
        "nvt",
        steps=steps_for(length_ps, p.timestep_fs),
        timestep_fs=p.timestep_fs,
        temperature_k=p.temperature_k,
        thermo_every=p.every(100.0),
        seed=p.seed,
        zero_momentum=True,
        **outputs,
    )
