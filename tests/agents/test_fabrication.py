"""The fabrication guard on a real SPC/E water run (diffusivity protocol, 32 molecules, real
PACKMOL and LAMMPS): the true D of the run's results table is accepted; the published D
(2.49 ×10⁻⁵ cm²/s, Mark & Nilsson 2001), the experiment (2.30, Mills 1973) and random
numbers are refused as results; the published D is accepted when marked as a reference."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import anyio
import numpy as np
import pytest

from simwright.agents.orchestration.protocol_tool import ProtocolTool
from simwright.agents.replies import LiteratureValue, ReportedValue, SubtaskSpec
from simwright.agents.review.fabrication import check_report, precision, within
from simwright.agents.review.reports import SubtaskReport
from simwright.protocols import load_protocols
from simwright.settings import Settings
from simwright.store import Store

PUBLISHED_D = 2.49  # SPC/E, Mark & Nilsson, J. Phys. Chem. A 105, 9954 (2001)
EXPERIMENT_D = 2.30  # Mills, J. Phys. Chem. 77, 685 (1973)
UNIT = "1e-5 cm^2/s"
WATER = SubtaskSpec(
    id="water",
    instruction="self-diffusion of SPC/E water",
    executor="protocol",
    protocol="diffusivity",
    parameters={
        "system": "spce_water",
        "n_molecules": 32,
        "equilibration_ps": 1.0,
        "production_ps": 2.0,
        "max_extensions": 0,
    },
)


@dataclass(frozen=True)
class WaterRun:
    """A finished water run seen as the orchestrator sees it: its report and folders."""

    root: Path
    report: SubtaskReport

    @property
    def allowed(self) -> list[Path]:
        return [self.root / f for f in self.report.folders]

    def value(self, name: str, value: float | None = None) -> ReportedValue:
        """The output ``name`` reported as the report gives it (optionally another value)."""
        out = self.report.outputs[name]
        return ReportedValue(
            name=name,
            value=out.value if value is None else value,
            unit=out.unit,
            source=out.source,
            quantity=out.quantity,
        )

    def check(
        self,
        summary: str,
        values: list[ReportedValue],
        references: list[LiteratureValue] | None = None,
    ) -> list[str]:
        return check_report(
            summary, values, root=self.root, allowed=self.allowed, references=references or []
        )


@pytest.fixture(scope="module")
def water(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WaterRun]:
    home = tmp_path_factory.mktemp("water") / "home"
    settings = Settings(home=home, threads=1)
    store = Store.at(home / "simwright.db")
    tool = ProtocolTool(store, settings, load_protocols())
    folder = settings.runs_path / "agent-run" / "subtasks" / "water"

    async def go() -> SubtaskReport:
        return await tool.run(WATER, folder)

    report = anyio.run(go)
    assert report.status == "completed", report.error
    yield WaterRun(settings.runs_path, report)
    store.close()


def test_the_true_d_of_the_results_table_is_accepted(water: WaterRun) -> None:
    d = water.report.outputs["diffusion_coefficient"]
    assert d.source.endswith("subtasks/water/results.h5") and d.quantity == "diffusion_coefficient"
    err = water.value("diffusion_coefficient_uncertainty")
    assert err.value > 0
    value = water.value("diffusion_coefficient")
    for text in (f"{d.value:.2f}", f"{d.value:.3f} ×10⁻⁵ cm²/s", f"{d.value * 1e-5:.3e} cm^2/s"):
        summary = f"D = {text} ± {err.value:.2f}"
        assert water.check(summary, [value, err]) == []
    rounded = water.value("diffusion_coefficient", round(d.value, 2))
    assert water.check("ok", [rounded]) == []


def test_the_published_and_experimental_d_are_refused_as_results(water: WaterRun) -> None:
    d = water.report.outputs["diffusion_coefficient"].value
    for literature in (PUBLISHED_D, EXPERIMENT_D):
        assert not within(literature, d, 1e-3, 0.005)  # this run does not reproduce them
        claimed = water.value("diffusion_coefficient", literature)
        assert water.check(f"D = {literature:.2f} ×10⁻⁵ cm²/s", [claimed])
        true = water.value("diffusion_coefficient")
        problems = water.check(f"D = {literature:.2f} ×10⁻⁵ cm²/s", [true])
        assert len(problems) == 1 and "[ref:KEY]" in problems[0]
    # the MSD table holds thousands of numbers; citing it does not launder a number either
    msd = next(a for a in water.report.artifacts if a.endswith("msd.h5"))
    for quantity in ("d_1e5_cm2_s", "mean(msd)", "msd[10]"):
        fake = ReportedValue(name="D", value=PUBLISHED_D, unit=UNIT, source=msd, quantity=quantity)
        assert water.check("see values", [fake])


def test_random_numbers_are_refused(water: WaterRun) -> None:
    rng = np.random.default_rng(7)
    real = [o.value for o in water.report.outputs.values()]
    true = [water.value(name) for name in water.report.outputs]
    refused_value = refused_text = tried = 0
    for x in np.round(rng.uniform(0.1, 20.0, 300), 2):
        if any(within(float(x), r, 1e-3, precision(float(x))) for r in real):
            continue  # it happens to be a true result at this precision: not a fabrication
        tried += 1
        claim = water.value("diffusion_coefficient", float(x))
        refused_value += bool(water.check("see values", [claim]))
        refused_text += bool(water.check(f"D = {x:.2f} ×10⁻⁵ cm²/s", true))
    assert tried > 250 and refused_value == tried and refused_text == tried


def test_the_published_d_is_accepted_when_marked_as_a_reference(water: WaterRun) -> None:
    d = water.report.outputs["diffusion_coefficient"].value
    refs = [
        LiteratureValue(
            key="mark2001",
            value=PUBLISHED_D,
            unit=UNIT,
            citation="Mark & Nilsson, J. Phys. Chem. A 105, 9954 (2001)",
        ),
        LiteratureValue(
            key="mills1973", value=EXPERIMENT_D, unit=UNIT, citation="Mills, J. Phys. Chem. (1973)"
        ),
    ]
    summary = (
        f"D = {d:.2f} ×10⁻⁵ cm²/s; published SPC/E 2.49 ×10⁻⁵ cm²/s "
        "[ref:mark2001], experiment 2.30 [ref:mills1973]."
    )
    assert water.check(summary, [water.value("diffusion_coefficient")], refs) == []
    # a reference cannot stand in for a result, nor a marker for another number
    as_result = water.value("diffusion_coefficient", PUBLISHED_D)
    assert water.check(summary, [as_result], refs)
    assert water.check("published 2.50 [ref:mark2001]", [], refs)
