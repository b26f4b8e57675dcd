"""What PACKMOL is asked to pack: molecules and counts in a cubic box, validated.

Box edge: the explicit ``box_a``; else from ``density_g_cm3`` and the total mass; else
``VDW_BOX_FACTOR · V0^(1/3)`` with V0 the summed van der Waals (Bondi) volumes of all
molecules — a dense but packable starting box that a later NPT run relaxes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simwright.errors import ValidationError
from simwright.molecules.library import Molecule
from simwright.molecules.vdw import vdw_volume_a3
from simwright.units import A3_CM3, AMU_G

VDW_BOX_FACTOR = 1.1
"""Box edge = VDW_BOX_FACTOR · (summed vdW volume)^(1/3) when no density or box is given."""


@dataclass(frozen=True)
class PackSpec:
    """What to pack: molecules and counts, box (edge or density), tolerance and seed.

    ``margin_a`` defaults to ``tolerance_a / 2``; ``nloop`` (PACKMOL's optimisation loop
    limit) is left to PACKMOL unless given. Give at most one of ``box_a`` and
    ``density_g_cm3``; with neither, the edge is ``vdw_box_factor · V0^(1/3)`` (V0: summed
    van der Waals volumes). The default factor 1.1 gives a dense box (DMC: about 1.3 times
    its liquid density); factors of 1.15-1.2 match the liquid densities of water, EC, DMC.
    """

    components: tuple[tuple[Molecule, int], ...]
    box_a: float | None = None
    density_g_cm3: float | None = None
    tolerance_a: float = 2.0
    seed: int = 1
    margin_a: float | None = None
    nloop: int | None = None
    vdw_box_factor: float = VDW_BOX_FACTOR

    def __post_init__(self) -> None:
        try:
            components = tuple((m, c) for m, c in self.components)
        except (TypeError, ValueError) as exc:
            raise ValidationError("components must be (molecule, count) pairs") from exc
        object.__setattr__(self, "components", components)
        _check_components(components)
        _check_numbers(self)

    @property
    def margin(self) -> float:
        """The distance (Å) kept between atoms and the box faces."""
        return self.tolerance_a / 2.0 if self.margin_a is None else self.margin_a

    @property
    def n_molecules(self) -> int:
        """Total number of molecules."""
        return sum(count for _, count in self.components)

    @property
    def n_atoms(self) -> int:
        """Total number of atoms."""
        return sum(m.n_atoms * count for m, count in self.components)

    @property
    def mass_amu(self) -> float:
        """Total mass in amu."""
        return sum(m.mass_amu * count for m, count in self.components)


def _check_components(components: tuple[tuple[Molecule, int], ...]) -> None:
    if not components:
        raise ValidationError("nothing to pack: give at least one (molecule, count) pair")
    for molecule, count in components:
        if not isinstance(molecule, Molecule):
            raise ValidationError(f"expected a Molecule, got {type(molecule).__name__}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValidationError(f"count of {molecule.name} must be an integer >= 0: {count!r}")
    if sum(count for _, count in components) == 0:
        raise ValidationError("nothing to pack: all molecule counts are zero")


def _check_numbers(spec: PackSpec) -> None:
    if spec.box_a is not None and spec.density_g_cm3 is not None:
        raise ValidationError("give either box_a or density_g_cm3, not both")
    for label, value in (("box_a", spec.box_a), ("density_g_cm3", spec.density_g_cm3)):
        if value is not None and not (np.isfinite(value) and value > 0):
            raise ValidationError(f"{label} must be a positive number, got {value}")
    if not (np.isfinite(spec.vdw_box_factor) and spec.vdw_box_factor > 0):
        raise ValidationError(f"vdw_box_factor must be positive, got {spec.vdw_box_factor}")
    if not (np.isfinite(spec.tolerance_a) and spec.tolerance_a > 0):
        raise ValidationError(f"tolerance_a must be positive, got {spec.tolerance_a}")
    if spec.margin_a is not None and not (np.isfinite(spec.margin_a) and spec.margin_a >= 0):
        raise ValidationError(f"margin_a must be >= 0, got {spec.margin_a}")
    if isinstance(spec.seed, bool) or not isinstance(spec.seed, int) or spec.seed < 0:
        raise ValidationError(f"seed must be an integer >= 0 (deterministic), got {spec.seed!r}")
    if spec.nloop is not None and (isinstance(spec.nloop, bool) or spec.nloop < 1):
        raise ValidationError(f"nloop must be a positive integer, got {spec.nloop!r}")


def box_edge_a(spec: PackSpec) -> float:
    """The cubic box edge (Å): explicit, from the target density, or from vdW volumes."""
    if spec.box_a is not None:
        return float(spec.box_a)
    if spec.density_g_cm3 is not None:
        volume_a3 = spec.mass_amu * AMU_G / (spec.density_g_cm3 * A3_CM3)
        return float(np.cbrt(volume_a3))
    v0 = sum(vdw_volume_a3(m) * count for m, count in spec.components)
    return spec.vdw_box_factor * float(np.cbrt(v0))
