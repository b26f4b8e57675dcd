"""The EOS steps of ``lattice_constant`` and ``dft_eos`` as stored before 0.3.

Both protocols now run the shared sub-graph of :mod:`simwright.steps.eos`, whose
steps carry an :class:`~simwright.steps.eos.EosPlan` and an energy engine instead
of the protocol's parameters. A run stored earlier names the old classes
(``simwright.protocols.solids.lattice_constant:ScanVolumes``...);
:data:`simwright.graph.renames.CLASS_RENAMES` sends them here, and resuming upgrades
each to the shared step, with the plan written from the stored parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

from simwright.builders.crystals import CONVENTIONAL_ATOMS
from simwright.engines.espresso.template import PwInput
from simwright.graph import LegacyStep
from simwright.protocols.dft import eos as dft_eos
from simwright.protocols.dft.energies import PwEnergies
from simwright.protocols.dft.eos import DftEosParams
from simwright.protocols.solids import lattice_constant
from simwright.protocols.solids.lattice_constant import LatticeConstantParams
from simwright.results import ArtifactRef
from simwright.steps.energies import AseEnergies
from simwright.steps.eos import BuildCrystal, FitEOS, Report, ScanVolumes


@dataclass(frozen=True)
class LatticeBuildCrystal(LegacyStep):
    """``lattice_constant:BuildCrystal`` of 0.2 (fields: params)."""

    params: LatticeConstantParams

    def upgrade(self) -> BuildCrystal:
        """The shared first step."""
        return lattice_constant.start(self.params)


@dataclass(frozen=True)
class LatticeScanVolumes(LegacyStep):
    """``lattice_constant:ScanVolumes`` of 0.2 (fields: params, crystal)."""

    params: LatticeConstantParams
    crystal: ArtifactRef

    def upgrade(self) -> ScanVolumes:
        """The shared scan with the ASE calculator of the parameters."""
        p = self.params
        engine = AseEnergies(p.calculator_spec())
        return ScanVolumes(engine, lattice_constant.eos_plan(p), self.crystal)


@dataclass(frozen=True)
class LatticeFitEOS(LegacyStep):
    """``lattice_constant:FitEOS`` of 0.2 (fields: params, scan)."""

    params: LatticeConstantParams
    scan: ArtifactRef

    def upgrade(self) -> FitEOS:
        """The shared fit; the scanned cell was the conventional one."""
        atoms = CONVENTIONAL_ATOMS[self.params.resolved_lattice()]
        return FitEOS(lattice_constant.eos_plan(self.params), self.scan, atoms)


@dataclass(frozen=True)
class LatticeReport(LegacyStep):
    """``lattice_constant:Report`` of 0.2 (fields: params, results, plot, scan)."""

    params: LatticeConstantParams
    results: ArtifactRef
    plot: ArtifactRef
    scan: ArtifactRef

    def upgrade(self) -> Report:
        """The shared report."""
        plan = lattice_constant.eos_plan(self.params)
        return Report(plan, self.results, self.plot, self.scan)


@dataclass(frozen=True)
class DftScanVolumes(LegacyStep):
    """``dft_eos:ScanVolumes`` of 0.2 (fields: params, template, valence_electrons)."""

    params: DftEosParams
    template: PwInput
    valence_electrons: float

    def upgrade(self) -> ScanVolumes:
        """The shared scan with pw.x; the crystal is the template's structure."""
        engine = PwEnergies(self.params, self.template, self.valence_electrons)
        return ScanVolumes(engine, dft_eos.eos_plan(self.params), self.template.structure)


@dataclass(frozen=True)
class DftFitEOS(LegacyStep):
    """``dft_eos:FitEOS`` of 0.2 (fields: params, scan, atoms_per_cell)."""

    params: DftEosParams
    scan: ArtifactRef
    atoms_per_cell: int

    def upgrade(self) -> FitEOS:
        """The shared fit."""
        return FitEOS(dft_eos.eos_plan(self.params), self.scan, self.atoms_per_cell)


@dataclass(frozen=True)
class DftEosReport(LegacyStep):
    """``dft_eos:EosReport`` of 0.2 (fields: params, results, plot, scan)."""

    params: DftEosParams
    results: ArtifactRef
    plot: ArtifactRef
    scan: ArtifactRef

    def upgrade(self) -> Report:
        """The shared report."""
        return Report(dft_eos.eos_plan(self.params), self.results, self.plot, self.scan)
