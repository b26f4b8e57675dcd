"""The MD lead-in every MD protocol shares: pack -> minimize -> equilibrate -> produce."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from typing_extensions import override

from helpers.engines import needs
from helpers.steps import run_graph
from simwright.builders import LiquidSpec
from simwright.contract import read_structure, read_table
from simwright.engines.lammps.segment import MDSpec
from simwright.forcefields import get_forcefield
from simwright.graph import Done, Graph, RunContext, Step
from simwright.results import ArtifactRef
from simwright.settings import Settings
from simwright.steps.build import record_liquid
from simwright.steps.md import SegmentFiles, equilibrate, minimize, produce
from simwright.store import Store

ARGON = get_forcefield("lj_argon")


@dataclass(frozen=True)
class PackAndMinimize(Step):
    """Pack 32 argon atoms with PACKMOL and minimize them."""

    @override
    def run(self, ctx: RunContext) -> Equilibrate:
        packed = record_liquid(ctx, LiquidSpec((("argon", 32),), density_g_cm3=1.2, seed=7))
        return Equilibrate(minimize(ctx, ARGON, packed, timestep_fs=5.0, iterations=50))


@dataclass(frozen=True)
class Equilibrate(Step):
    """NVT at 90 K from the minimized restart."""

    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Produce:
        nvt = MDSpec("nvt", 200, 5.0, temperature_k=90.0, create_velocities=True, thermo_every=50)
        files = equilibrate(ctx, nvt, ARGON, self.start)
        assert files.restart is not None
        return Produce(files.thermo, files.restart)


@dataclass(frozen=True)
class Produce(Step):
    """NVE production with a trajectory."""

    nvt_thermo: ArtifactRef
    start: ArtifactRef

    @override
    def run(self, ctx: RunContext) -> Done[tuple[ArtifactRef, SegmentFiles]]:
        nve = MDSpec("nve", 200, 5.0, thermo_every=50, dump_every=50)
        return Done((self.nvt_thermo, produce(ctx, nve, ARGON, self.start)))


LEAD_IN = Graph.build("lead_in", [PackAndMinimize, Equilibrate, Produce])


@needs("lammps", "packmol")
def test_lead_in_runs_real_engines_and_records_every_segment(
    store: Store, settings: Settings
) -> None:
    out = run_graph(LEAD_IN, PackAndMinimize(), store, settings)
    nvt_thermo, production = out.result
    run_dir = settings.runs_path / out.run_id
    engines = [c.engine for c in store.engine_calls(out.run_id)]
    assert engines == ["packmol", "lammps", "lammps", "lammps"]
    nvt = read_table(run_dir / nvt_thermo.path)
    nve = read_table(run_dir / production.thermo.path)
    assert nve["step"][0] == nvt["step"][-1] and nve["step"][-1] - nve["step"][0] == 200
    assert 40 < float(nvt["temperature"][-1]) < 160
    assert production.trajectory is not None and production.final_structure is not None
    assert read_structure(run_dir / production.final_structure.path).formula == "Ar32"


def test_equilibrate_refuses_an_ensemble_that_does_not_equilibrate() -> None:
    with pytest.raises(ValueError, match="nvt or npt, not nve"):
        equilibrate(None, MDSpec("nve", 10), ARGON, None)  # type: ignore[arg-type]
