"""Parameters of ``electrolyte_diffusivity``: the request, its presets and its refusals.

Two presets size the run. ``quick`` (the default) is a box of 100–160 atoms and
sub-picosecond stages that a 2-core machine finishes in minutes: a smoke-level
estimate whose D carries no statistical weight. ``paper`` is the published procedure
(950–1150 atoms, 1 ns heavy-hydrogen NPT, 0.4 ns NPT, 2 ns NVT) for a GPU.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from simwright.engines.ase.calculators import CalculatorSpec
from simwright.molecules import Molecule, get_molecule
from simwright.molecules.blend import (
    BlendComposition,
    electrolyte_in_blend,
    molality_from_molarity,
    solvent_mole_fractions,
)

Preset = Literal["quick", "paper"]
SOLVENTS_KNOWN = ("ec", "pc", "dmc", "dec")
"""Solvents whose geometry the molecule library holds."""

PRESETS: dict[str, dict[str, Any]] = {
    "quick": {
        "n_atoms_min": 100,
        "n_atoms_max": 160,
        "heavy_npt_ns": 0.0002,
        "npt_ns": 0.0001,
        "nvt_ns": 0.0005,
        "extension_ns": 0.0002,
        "frame_interval_fs": 5.0,
        "max_extensions": 0,
    },
    "paper": {
        "n_atoms_min": 950,
        "n_atoms_max": 1150,
        "heavy_npt_ns": 1.0,
        "npt_ns": 0.4,
        "nvt_ns": 2.0,
        "extension_ns": 1.0,
        "frame_interval_fs": 1000.0,
        "max_extensions": 2,
    },
}

CLASSICAL_SOLVENTS = ("ec", "pc")
"""Solvents the classical (OPLS-AA) route has published parameters for."""

CLASSICAL_REFUSAL = (
    "the classical (OPLS-AA) route has parameters for {known} only: OPLS-AA lists no "
    "acyclic-carbonate types and simwright stores no verified published set for {asked}; "
    "ask for SevenNet-0 with D3 (the default) or CHGNet for them"
)


class ElectrolyteParams(BaseModel):
    """Typed parameters; names follow the knowledge module ``li_ion_diffusivity_...``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    preset: Preset = "quick"
    salt: Literal["lipf6"] = "lipf6"
    solvents: tuple[str, ...] = ("dmc",)
    solvent_ratio: tuple[float, ...] | None = None
    ratio_basis: Literal["mass", "volume", "mole"] = "mass"
    molality_mol_kg: float = Field(1.0, gt=0, le=6)
    molarity_mol_l: float | None = Field(None, gt=0, le=6)
    solution_density_g_cm3: float | None = Field(None, gt=0, le=5)
    temperature_k: float = Field(298.15, gt=0, le=1000)
    pressure_bar: float = Field(1.01325, gt=0, le=10000)
    potential: Literal["sevennet_0_d3", "chgnet", "classical"] = "sevennet_0_d3"
    """``classical`` is OPLS-AA run by LAMMPS with PPPM (:mod:`.classical`)."""
    ion_charge_scale: float = Field(0.8, gt=0, le=1)
    """Classical route: factor on the ionic charges (0.8 mimics electronic screening in a
    non-polarisable model; 1 gives full charges). Solvent charges are never scaled."""
    cutoff_a: float = Field(10.0, ge=6, le=20)
    """Classical route: LJ and real-space Coulomb cutoff (Å), LJ tail correction on."""
    pppm_accuracy: float = Field(1.0e-5, gt=0, lt=1e-2)
    """Classical route: relative accuracy of PPPM forces."""
    device: str = Field("auto", pattern=r"^(auto|cpu|cuda(:\d+)?)$")
    n_atoms_min: int = Field(ge=2)
    n_atoms_max: int = Field(ge=2)
    box_factor: float = Field(1.1, ge=1.0, le=3.0)
    """Initial cubic box edge = box_factor · V₀^(1/3) (Bondi volumes); 1.1 in the procedure."""
    fmax_ev_a: float = Field(2.0, gt=0)
    relax_max_steps: int = Field(500, ge=1)
    heavy_npt_ns: float = Field(gt=0)
    npt_ns: float = Field(gt=0)
    nvt_ns: float = Field(gt=0)
    extension_ns: float = Field(gt=0)
    frame_interval_fs: float = Field(gt=0)
    max_extensions: int = Field(ge=0, le=10)
    r2_min: float = Field(0.97, gt=0, le=1)
    n_blocks: int = Field(5, ge=3, le=20)
    density_tolerance: float = Field(0.02, gt=0, lt=1)
    viscosity_mpa_s: float | None = Field(None, gt=0)
    seed: int = Field(2026, ge=1, lt=2**31)

    @model_validator(mode="before")
    @classmethod
    def _preset_defaults(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        preset = data.get("preset", "quick")
        return {**PRESETS.get(str(preset), {}), **data}

    @model_validator(mode="after")
    def _refusals(self) -> ElectrolyteParams:
        classical_only = {"ion_charge_scale", "cutoff_a", "pppm_accuracy"} & self.model_fields_set
        if self.potential != "classical" and classical_only:
            raise ValueError(
                f"{', '.join(sorted(classical_only))} only apply to the classical route "
                "(potential 'classical', OPLS-AA)"
            )
        other = [s for s in self.solvents if s not in CLASSICAL_SOLVENTS]
        if self.potential == "classical" and other:
            raise ValueError(
                CLASSICAL_REFUSAL.format(
                    known=", ".join(CLASSICAL_SOLVENTS), asked=", ".join(other)
                )
            )
        unknown = [s for s in self.solvents if s not in SOLVENTS_KNOWN]
        if unknown or not self.solvents:
            raise ValueError(
                f"solvent(s) {', '.join(unknown) or '(none)'} refused: simwright's molecule "
                f"library has geometries for {', '.join(SOLVENTS_KNOWN)} only"
            )
        if len(set(self.solvents)) != len(self.solvents):
            raise ValueError("a solvent is named twice")
        if self.solvent_ratio is not None and len(self.solvent_ratio) != len(self.solvents):
            raise ValueError("solvent_ratio needs one number per solvent")
        if len(self.solvents) > 1 and self.solvent_ratio is None:
            raise ValueError("a solvent blend needs solvent_ratio (e.g. [3, 7] with ratio_basis)")
        if (self.molarity_mol_l is None) != (self.solution_density_g_cm3 is None):
            raise ValueError(
                "a molarity is converted to molality through the solution density: give "
                "both molarity_mol_l and solution_density_g_cm3, or a molality"
            )
        if self.molarity_mol_l is not None and "molality_mol_kg" in self.model_fields_set:
            raise ValueError("give the concentration once: molality or molarity")
        if self.n_atoms_max < self.n_atoms_min:
            raise ValueError("n_atoms_max must be at least n_atoms_min")
        if self.frame_interval_fs < 1.0:
            raise ValueError("frame_interval_fs must be at least one 1 fs timestep")
        return self

    @property
    def calculator(self) -> str:
        """The registered ASE calculator of the potential (machine-learned routes)."""
        return {"sevennet_0_d3": "sevennet", "chgnet": "chgnet"}[self.potential]

    @property
    def classical(self) -> bool:
        """True for the OPLS-AA route (LAMMPS), False for the ASE routes."""
        return self.potential == "classical"

    def solvent_molecules(self) -> tuple[Molecule, ...]:
        """The solvent templates, in the order given."""
        return tuple(get_molecule(s) for s in self.solvents)

    def mole_fractions(self) -> tuple[float, ...]:
        """Solvent mole fractions from the ratio and its basis (1.0 for one solvent)."""
        ratio = self.solvent_ratio or (1.0,) * len(self.solvents)
        return solvent_mole_fractions(self.solvent_molecules(), ratio, self.ratio_basis)

    def target_molality(self) -> float:
        """The molality to build: given, or converted from the molarity and density."""
        if self.molarity_mol_l is None or self.solution_density_g_cm3 is None:
            return self.molality_mol_kg
        salt_mass = get_molecule("li+").mass_amu + get_molecule("pf6-").mass_amu
        return molality_from_molarity(self.molarity_mol_l, self.solution_density_g_cm3, salt_mass)

    def steps(self, ns: float, timestep_fs: float) -> int:
        """MD steps covering ``ns`` nanoseconds."""
        return max(1, round(ns * 1.0e6 / timestep_fs))


HEAVY_TIMESTEP_FS = 2.0
NORMAL_TIMESTEP_FS = 1.0
LI_RADIUS_A = 1.5
"""PACKMOL radius of Li⁺: Li–Li ≥ 3 Å, Li–other ≥ 2.5 Å, all other pairs ≥ 2 Å."""


def composition(p: ElectrolyteParams) -> BlendComposition:
    """The counts the parameters ask for (deterministic, so every step can recompute it)."""
    return electrolyte_in_blend(
        get_molecule("li+"),
        get_molecule("pf6-"),
        p.solvent_molecules(),
        p.mole_fractions(),
        p.target_molality(),
        atom_window=(p.n_atoms_min, p.n_atoms_max),
    )


def calculator(p: ElectrolyteParams) -> CalculatorSpec:
    """The ASE calculator of the chosen potential."""
    kwargs: dict[str, Any] = (
        {"device": p.device, "d3": True} if p.potential == "sevennet_0_d3" else {}
    )
    return CalculatorSpec(p.calculator, kwargs)
