"""A protocol whose NPT equilibration is stopped at its wall time goes on from the newest
periodic restart: the run completes, the step records the stopped call, the continuing
call (with which restart and how many steps remained) and a ``segment_continued`` event,
and the frame selection reads one uninterrupted equilibration."""

from __future__ import annotations

import json

import numpy as np
import pytest

from helpers.stopping import StopAtSnapshot
from simwright.contract import read_table
from simwright.graph import Runner
from simwright.jobs import JobScope
from simwright.protocols.liquids.diffusivity import PROTOCOL

pytestmark = pytest.mark.slow


def test_npt_equilibration_stopped_at_its_wall_time_continues(store, settings) -> None:
    stopper = StopAtSnapshot(stop_after=5)

    def jobs(_scope: JobScope) -> StopAtSnapshot:
        return stopper

    params = PROTOCOL.validate(
        {"system": "spce_water", "n_molecules": 32, "equilibration_ps": 1.0,
         "production_ps": 2.0, "max_extensions": 0}
    )  # fmt: skip
    out = Runner(store, settings, jobs=jobs).start(
        PROTOCOL.graph, PROTOCOL.first_step(params), protocol=PROTOCOL.name, params=params
    )
    assert out.status == "completed", out.error
    assert stopper.stopped == 1

    [event] = [e for e in store.events(out.run_id) if e.kind == "segment_continued"]
    payload = json.loads(event.payload_json)
    assert payload["stopped_by"] == "wall time" and payload["stopped_log"] == "log.walltime1.lammps"
    calls = store.engine_calls(out.run_id)
    [stopped] = [c for c in calls if c.exit_code == 124]
    after = calls[calls.index(stopped) + 1]
    extra = json.loads(after.extra_json)
    assert after.exit_code == 0 and extra["continuation"] == "1"
    assert extra["continued_from"] == payload["restart"]
    assert extra["steps_remaining"] == str(payload["steps_remaining"])
    steps = store.steps(out.run_id)
    select = next(s for s in steps if s.name == "SelectFrame")
    assert select.decided_by == "rule:closest_density_frame"
    # the equilibration's thermo: every step once, from 0 to the end
    step = next(s for s in steps if s.id == after.step_id)
    run_dir = settings.runs_path / store.get_run(out.run_id).workdir  # stored relative
    workdir = run_dir / step.workdir  # a step's folder is stored relative to its run's
    thermo = read_table(workdir / "thermo.h5")["step"]
    assert thermo[0] == 0 and np.all(np.diff(thermo) > 0)
    assert thermo[-1] - payload["restart_step"] == payload["steps_remaining"]
