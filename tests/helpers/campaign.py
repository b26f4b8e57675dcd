"""Shared helpers of the campaign tests (no tests here): specs, runners, engines, queries."""

from __future__ import annotations

import copy
import json
import sqlite3
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from helpers.engines import needs
from simwright.campaign import (
    CampaignRunner,
    CampaignSpec,
    SegmentOutput,
    SegmentRequest,
    SyntheticEngine,
    parse_spec,
)
from simwright.campaign.gcmc import GcmcSegmentEngine
from simwright.campaign.review import Reviewer
from simwright.engines.lammps.launcher import LammpsLauncher, find_lmp
from simwright.errors import EngineError
from simwright.store import Store

needs_lmp = needs("lammps")


def merged(base: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``changes`` merged in, mapping by mapping."""
    out = copy.deepcopy(dict(base))
    for key, value in changes.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


SYNTHETIC: dict[str, Any] = {
    "name": "synth",
    "objective": "bookkeeping of a synthetic desorption path",
    "seed": 7,
    "systems": [
        {"name": "a", "parameters": {"capacity": 100.0}},
        {"name": "b", "parameters": {"capacity": 60.0}},
    ],
    "conditions": [
        {"name": "p50", "pressure_bar": 50.0},
        {"name": "p10", "pressure_bar": 10.0},
        {"name": "p2", "pressure_bar": 2.0},
    ],
    "segment": {
        "engine": "synthetic",
        "parameters": {"sample_every_steps": 50, "relaxation_steps": 600.0, "noise": 0.02},
    },
    "observables": [{"name": "n_adsorbed", "unit": "molecules"}, {"name": "temperature"}],
    "acceptance": {
        "n_adsorbed": {"window_steps": 2000, "cv_max": 0.05, "trend_max": 0.05, "scale_floor": 5}
    },
    "continuation": {"segment_steps": 1000, "max_local_steps": 20000},
    "review": {"triggers": {"monotonic": {"observable": "n_adsorbed", "direction": "decreasing"}}},
}
"""Two systems × three pressures of the synthetic engine; each state takes a few segments."""


GCMC: dict[str, Any] = {
    "name": "gcmc_tiny",
    "objective": "methane in a tiny slit pore, adsorption then desorption",
    "seed": 11,
    "systems": [
        {"name": "slit", "builder": "slit_pore", "parameters": {"width_a": 10.0, "lateral_a": 20.0}}
    ],
    "conditions": [
        {"name": "p40", "pressure_bar": 40.0, "temperature_k": 298.0},
        {"name": "p10", "pressure_bar": 10.0, "temperature_k": 298.0},
    ],
    "segment": {
        "engine": "lammps_gcmc",
        "parameters": {
            "sample_every_steps": 50,
            "exchange_every_steps": 10,
            "exchange_attempts": 5,
            "mc_moves": 5,
            "wall_gap_a": 2.5,
        },
    },
    "observables": [{"name": "n_adsorbed", "unit": "molecules"}],
    "acceptance": {
        "n_adsorbed": {"window_steps": 1000, "cv_max": 0.6, "trend_max": 0.6, "scale_floor": 10}
    },
    "continuation": {"segment_steps": 500, "max_local_steps": 3000},
}
"""One tiny pore × two pressures of real GCMC (a few seconds per state)."""


def spec_of(base: Mapping[str, Any], **changes: Any) -> CampaignSpec:
    """A validated spec: ``base`` with ``changes`` merged in."""
    return parse_spec(merged(base, changes), "test")


def gcmc_engine() -> GcmcSegmentEngine:
    """The real GCMC engine, one process, one thread."""
    return GcmcSegmentEngine(lambda: LammpsLauncher(find_lmp(), mpi_ranks=1, omp_threads=1))


def runner(
    home: Path,
    engine: Any,
    reviewer: Reviewer | None = None,
    report: Callable[..., object] | None = None,
) -> CampaignRunner:
    """A campaign runner on a real SQLite store under ``home``."""
    return CampaignRunner(
        Store.at(home / "simwright.db"),
        engine,
        root=home / "campaigns",
        reviewer=reviewer,
        report=report,
    )


def rows(home: Path, sql: str) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` on the store under ``home``."""
    with sqlite3.connect(home / "simwright.db") as db:
        return db.execute(sql).fetchall()


def campaign_file(home: Path, stored: str, campaign: str | None = None) -> Path:
    """A path read from a campaign table, absolute: the store records it relative to its
    campaign's directory (``campaign``, else the one campaign under ``home`` holding it)."""
    if Path(stored).is_absolute():
        return Path(stored)
    root = home / "campaigns"
    if campaign is not None:
        return root / campaign / stored
    dirs = sorted(d for d in root.iterdir() if d.is_dir())
    holding = [d for d in dirs if (d / stored).exists()]
    [directory] = holding or dirs
    return directory / stored


def read(path: Path) -> dict[str, Any]:
    """A JSON file."""
    data: dict[str, Any] = json.loads(path.read_text())
    return data


class FailingEngine:
    """The synthetic engine, failing (or returning NaN) on chosen (system, condition, seq)."""

    name = "synthetic"

    def __init__(
        self,
        fail: Callable[[SegmentRequest, int], str | None] | None = None,
        nan: Callable[[SegmentRequest, int], bool] | None = None,
    ) -> None:
        self.inner = SyntheticEngine()
        self.fail = fail
        self.nan = nan
        self.calls: list[tuple[str, str, str]] = []

    def observables(self) -> Mapping[str, str]:
        return self.inner.observables()

    def check_spec(self, spec: CampaignSpec) -> list[Any]:
        return self.inner.check_spec(spec)

    def run_segment(self, request: SegmentRequest) -> SegmentOutput:
        seq = int(request.workdir.name.split(".")[0].removeprefix("seg-"))
        self.calls.append((request.system.name, request.condition.name, request.workdir.name))
        message = self.fail(request, seq) if self.fail else None
        if message:
            raise EngineError(message)
        out = self.inner.run_segment(request)
        if self.nan is not None and self.nan(request, seq):
            values = dict(out.values)
            values["n_adsorbed"] = values["n_adsorbed"].copy()
            values["n_adsorbed"][-1] = float("nan")
            out = SegmentOutput(
                out.restart, out.abs_start, out.abs_end, out.abs_steps, values, out.monitor
            )
        return out


ESCALATING: dict[str, Any] = merged(
    SYNTHETIC,
    {
        "name": "escalates",
        "systems": [{"name": "a", "parameters": {"capacity": 100.0}}],
        "conditions": [{"name": "p50", "pressure_bar": 50.0}],
        "continuation": {"segment_steps": 1000, "max_local_steps": 2000},
        "segment": {"parameters": {"relaxation_steps": 1.0e6}},
    },
)
"""One synthetic state that relaxes too slowly to converge: its budget is spent in two
instant segments and a CONVERGENCE_ANOMALY waits for a human."""
