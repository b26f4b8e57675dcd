"""Systems advanced side by side (``jobs`` > 1): the same records as one after the other."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from helpers.campaign import SYNTHETIC, rows, spec_of
from simwright.campaign import CampaignRunner, SegmentOutput, SegmentRequest, SyntheticEngine
from simwright.campaign.status import CampaignError
from simwright.cli.campaign import campaign_app
from simwright.store import Store

FOUR = [
    {"name": n, "parameters": {"capacity": c}}
    for n, c in zip("abcd", (100, 80, 60, 40), strict=True)
]


class MeetingEngine(SyntheticEngine):
    """The synthetic engine whose first segments wait for each other at a barrier: it
    breaks (an error) unless ``parties`` systems are in flight at the same time."""

    def __init__(self, parties: int) -> None:
        super().__init__()
        self.barrier = threading.Barrier(parties, timeout=60)
        self.met: set[str] = set()

    def run_segment(self, request: SegmentRequest) -> SegmentOutput:
        if request.system.name not in self.met:
            self.met.add(request.system.name)
            self.barrier.wait()
        return super().run_segment(request)


def _run(home: Path, engine: SyntheticEngine, jobs: int) -> list[tuple]:
    store = Store.at(home / "simwright.db")
    runner = CampaignRunner(store, engine, root=home / "campaigns", jobs=jobs)
    campaign = runner.create(spec_of(SYNTHETIC, systems=FOUR))
    assert runner.run(campaign).status == "completed"
    store.close()
    return rows(
        home,
        "select system, condition, status, cycles, local_steps, values_json "
        "from campaign_states order by system_index, condition_index",
    )


def test_systems_in_flight_together_give_the_records_of_one_at_a_time(tmp_path: Path) -> None:
    together = _run(tmp_path / "together", MeetingEngine(parties=4), jobs=4)
    alone = _run(tmp_path / "alone", SyntheticEngine(), jobs=1)
    assert together == alone  # seeds derive from chain, state and segment: same numbers
    assert {s[2] for s in together} == {"archived"}
    events = rows(tmp_path / "together", "select id from campaign_events")
    assert len(events) == len({e for (e,) in events}) == 1  # BATCH_COMPLETE, numbered once


def test_one_system_at_a_time_never_meets_another(tmp_path: Path) -> None:
    engine = MeetingEngine(parties=2)
    engine.barrier = threading.Barrier(2, timeout=0.5)
    store = Store.at(tmp_path / "simwright.db")
    runner = CampaignRunner(store, engine, root=tmp_path / "campaigns", jobs=1)
    campaign = runner.create(spec_of(SYNTHETIC))
    runner.run(campaign, max_segments=1)
    first, retry = rows(tmp_path, "select status, error from campaign_segments order by id")
    assert first[0] == "failed" and "BrokenBarrierError" in first[1]  # nobody else came
    assert retry[0] == "completed"


def test_jobs_below_one_are_refused(tmp_path: Path) -> None:
    with pytest.raises(CampaignError, match="at least 1"):
        CampaignRunner(Store.at(tmp_path / "s.db"), SyntheticEngine(), root=tmp_path, jobs=0)


def test_the_command_line_runs_systems_side_by_side(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(SYNTHETIC))
    result = CliRunner().invoke(
        campaign_app,
        ["run", str(spec), "--jobs", "2", "--no-report", "--json", "--home", str(tmp_path / "h")],
    )
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["status"] == "completed"
    assert {s["status"] for s in data["states"]} == {"archived"}
