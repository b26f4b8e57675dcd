"""Typed parameters of the MOF protocols: where the framework comes from (a PORMAKE
build or a CIF file), the MLIP that relaxes it (or none), and the Zeo++ probe."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from simwright.engines.pormake.spec import MAX_RMSD_A, FrameworkSpec
from simwright.engines.zeo.spec import N2_PROBE_RADIUS_A

MofCalculator = Literal["sevennet", "chgnet"]
MOF_CALCULATORS: tuple[str, ...] = ("sevennet", "chgnet")
"""Universal MLIPs trained on PBE data across the periodic table (MPtrj): SevenNet-0
and CHGNet. EMT, LJ and the catalogued LAMMPS potentials have no parameters for
metal–organic frameworks and are refused by name."""


class MofParams(BaseModel):
    """Parameters of ``mof_pores``: one framework source, an optional relaxation, Zeo++."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    topology: str | None = Field(None, description="RCSR net of PORMAKE (pcu, tbo, fcu, ...)")
    nodes: tuple[str, ...] = Field(
        (), description="one node building block per node type (PORMAKE id or common name)"
    )
    linker: str | None = Field(
        None, description="2-c building block on every edge (None: nodes bonded directly)"
    )
    max_rmsd_a: float = Field(MAX_RMSD_A, gt=0, le=2, description="worst node fit accepted (Å)")
    cif: str | None = Field(None, description="a CIF file of an ordered framework")
    name: str = Field("", max_length=80, description="a label for the report (MOF-5, ...)")

    calculator: str | None = Field(
        None, description="relax with a universal MLIP: sevennet or chgnet; None: no relaxation"
    )
    calculator_kwargs: dict[str, str] = Field(default_factory=dict)
    relax_steps: int = Field(
        30, ge=1, le=2000, description="cap on optimiser steps (30 fit 2 cores for ~500 atoms)"
    )
    fmax_ev_a: float = Field(0.05, gt=0, le=5, description="force criterion (eV/Å)")
    relax_cell: bool = Field(True, description="relax the cell with the atoms")

    probe_radius_a: float = Field(
        N2_PROBE_RADIUS_A, ge=0, le=5, description="probe radius (Å); default N2, 1.86 Å"
    )
    samples_per_atom: int = Field(2000, ge=50, le=100_000, description="Monte Carlo samples")
    grid_spacing_a: float = Field(0.3, ge=0.1, le=1.0, description="grid of the channel search")

    @field_validator("calculator")
    @classmethod
    def _universal_mlip(cls, value: str | None) -> str | None:
        if value is None:
            return None
        low = value.lower()
        aliases = {"sevennet-0": "sevennet", "7net-0": "sevennet"}
        low = aliases.get(low, low)
        if low not in MOF_CALCULATORS:
            raise ValueError(
                f"calculator {value!r} cannot relax a MOF: it has no parameters for "
                "frameworks of metals, C, H, N and O; use a universal MLIP: "
                f"{', '.join(MOF_CALCULATORS)}"
            )
        return low

    @field_validator("cif")
    @classmethod
    def _absolute(cls, value: str | None) -> str | None:
        return None if value is None else str(Path(value).expanduser().resolve())

    @model_validator(mode="after")
    def _one_source(self) -> MofParams:
        if (self.topology is None) == (self.cif is None):
            raise ValueError(
                "give either a topology with building blocks (topology, nodes, linker) "
                "or a CIF file (cif), not both and not neither"
            )
        if self.topology is not None and not self.nodes:
            raise ValueError(f"topology {self.topology!r} needs its node building blocks")
        if self.cif is not None and (self.nodes or self.linker):
            raise ValueError("building blocks go with a topology, not with a CIF file")
        return self

    def framework(self) -> FrameworkSpec | None:
        """The PORMAKE build, or None for a CIF (names resolved by the build step)."""
        if self.topology is None:
            return None
        return FrameworkSpec(self.topology, self.nodes, self.linker, self.max_rmsd_a)

    def label(self) -> str:
        """The framework in words: its name, else topology and blocks, else the file."""
        if self.name:
            return self.name
        if self.topology is not None:
            blocks = "+".join((*self.nodes, *((self.linker,) if self.linker else ())))
            return f"{self.topology}-{blocks}"
        return Path(self.cif or "").name
