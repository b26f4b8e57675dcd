"""The liquids the molecular-dynamics protocols know, and their lead-in pieces.

The generic MD actions (launcher, segments, minimize, equilibrate, produce) live in
:mod:`simwright.steps.md` and the packing step in :mod:`simwright.steps.build`; they
are re-exported here for code written against this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from simwright.builders import LiquidSpec
from simwright.forcefields import get_forcefield
from simwright.forcefields.base import ForceField
from simwright.results import ArtifactRef
from simwright.steps.build import record_liquid
from simwright.steps.md import (
    MINIMIZE_STEPS,
    SegmentFiles,
    launcher,
    minimize_packed,
    record_segment,
    segment,
    snapshots,
    steps_for,
)

if TYPE_CHECKING:
    from simwright.graph import RunContext

__all__ = [
    "MINIMIZE_STEPS",
    "MIN_FRAMES",
    "SYSTEMS",
    "LiquidSystem",
    "SegmentFiles",
    "build_liquid",
    "forcefield_of",
    "launcher",
    "minimize_packed",
    "record_segment",
    "segment",
    "snapshots",
    "steps_for",
]


MIN_FRAMES = 250
"""Fewest frames a diffusivity production segment stores, so that every MSD block can
be fitted (read by the protocol and by its size estimate)."""


@dataclass(frozen=True)
class LiquidSystem:
    """A one-component liquid simwright knows how to build and simulate."""

    name: str
    molecule: str
    forcefield: str
    tracer_element: str
    """Element whose atoms represent molecular centres in the MSD (O for water)."""
    description: str
    partners: tuple[str, ...] = ()
    """Further molecules packed in the same number as ``molecule`` (the anion of a salt)."""

    @property
    def components(self) -> tuple[str, ...]:
        """The molecules of one formula unit (e.g. ``na+``, ``cl-``)."""
        return (self.molecule, *self.partners)


SYSTEMS: dict[str, LiquidSystem] = {
    "spce_water": LiquidSystem("spce_water", "spce_water", "spce", "O", "SPC/E water"),
    "tip3p_water": LiquidSystem("tip3p_water", "tip3p_water", "tip3p", "O", "TIP3P water"),
    "tip4p2005_water": LiquidSystem(
        "tip4p2005_water", "tip4p2005_water", "tip4p2005", "O", "TIP4P/2005 water"
    ),
    "lj_argon": LiquidSystem("lj_argon", "argon", "lj_argon", "Ar", "Lennard-Jones argon"),
    "nacl_melt": LiquidSystem(
        "nacl_melt", "na+", "nacl_tosi_fumi", "Na", "molten NaCl (Tosi–Fumi)", ("cl-",)
    ),
    "methanol": LiquidSystem("methanol", "methanol", "opls_methanol", "O", "methanol (OPLS-AA)"),
    "ethanol": LiquidSystem("ethanol", "ethanol", "opls_ethanol", "O", "ethanol (OPLS-AA)"),
    "acetonitrile": LiquidSystem(
        "acetonitrile", "acetonitrile", "opls_acetonitrile", "N", "acetonitrile (OPLS-AA)"
    ),
}


def build_liquid(
    ctx: RunContext, system: LiquidSystem, n_molecules: int, density_g_cm3: float, seed: int
) -> ArtifactRef:
    """Pack ``n_molecules`` (formula units) with PACKMOL at ``density_g_cm3``; record it."""
    spec = LiquidSpec(tuple((m, n_molecules) for m in system.components), density_g_cm3, seed)
    return record_liquid(ctx, spec)


def forcefield_of(system: LiquidSystem) -> ForceField:
    """The force field of a system."""
    return get_forcefield(system.forcefield)
