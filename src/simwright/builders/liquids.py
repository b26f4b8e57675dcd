"""Packed liquids: molecules of the library packed into a periodic box by PACKMOL."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simwright.engines.packmol import PackResult, PackSpec, pack
from simwright.errors import ValidationError
from simwright.jobs import JobRunner
from simwright.molecules import get_molecule


@dataclass(frozen=True)
class LiquidSpec:
    """``components`` = ((molecule name, count), ...) packed at ``density_g_cm3``
    (None: PACKMOL's default box from van der Waals volumes) with random ``seed``."""

    components: tuple[tuple[str, int], ...]
    density_g_cm3: float | None = None
    seed: int = 1
    tolerance_a: float = 2.0

    def pack_spec(self) -> PackSpec:
        """The PACKMOL spec: molecules looked up in the library."""
        if not self.components:
            raise ValidationError("a liquid needs at least one component")
        return PackSpec(
            components=tuple((get_molecule(name), n) for name, n in self.components),
            density_g_cm3=self.density_g_cm3,
            seed=self.seed,
            tolerance_a=self.tolerance_a,
        )

    def describe(self) -> str:
        """E.g. ``100 × spce_water``."""
        return " + ".join(f"{n} × {name}" for name, n in self.components)


def pack_liquid(spec: LiquidSpec, workdir: Path, runner: JobRunner | None = None) -> PackResult:
    """Run PACKMOL in ``workdir`` (through ``runner`` when given: docs/cluster.md); the
    result carries the structure and the engine call."""
    return pack(spec.pack_spec(), workdir, runner=runner)
