"""The Python API in-process, on a real store and the real lattice_constant protocol (EMT)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simwright.api import Conflict, Forbidden, NotFound, RunFilter, Simwright, Spec
from simwright.api.observer import StoreObserver
from simwright.errors import SimwrightError, ValidationError
from simwright.settings import Settings
from simwright.store import Store

REQUEST = "lattice constant of fcc Cu with EMT"


@pytest.fixture
def api(settings: Settings) -> Simwright:
    a = Simwright(settings)
    yield a
    a.close()


def test_submit_then_execute_records_events_and_results(api: Simwright) -> None:
    submitted = api.submit(REQUEST, files=False)
    assert submitted.plan["protocol"] == "lattice_constant"
    assert api.get_run(submitted.run_id).status == "queued"
    assert api.status(submitted.run_id)["queue"] == {"state": "queued", "choose": None}
    assert not api.finished(submitted.run_id)

    outcome = api.execute(submitted.run_id)
    assert outcome.status == "completed"
    events = api.events(submitted.run_id)
    ids = [e["id"] for e in events]
    assert ids == sorted(ids)
    kinds = [e["kind"] for e in events]
    assert kinds[:3] == ["run_started", "entry", "queued"]
    assert kinds.count("step_started") == kinds.count("step_finished") == 4
    assert api.events(submitted.run_id, after=ids[5]) == events[6:]

    values = api.results(submitted.run_id)["values"]
    assert values["lattice_constant"]["unit"] == "Å"
    assert values["lattice_constant"]["value"] == pytest.approx(3.59, abs=0.01)
    assert values["lattice_constant"]["source"].endswith("results.h5")
    assert [r["run_id"] for r in api.runs(RunFilter(status="completed"))] == [submitted.run_id]
    assert api.runs(RunFilter(status="completed", offset=1)) == []


def test_refused_requests_create_nothing(api: Simwright, settings: Settings) -> None:
    with pytest.raises(SimwrightError):
        api.submit("phonons of fcc Cu")
    with pytest.raises(ValidationError, match="spec file"):
        api.submit("/etc/passwd.yaml", files=False)
    with pytest.raises(SimwrightError, match="protocol"):
        api.submit(Spec(protocol="no_such_protocol"))
    assert api.runs() == []
    assert not settings.runs_path.exists() or not any(settings.runs_path.iterdir())


def test_a_spec_takes_the_same_path(api: Simwright) -> None:
    spec = Spec(protocol="lattice_constant", parameters={"element": "Al", "lattice": "fcc"})
    resolution = api.plan(spec)
    assert resolution.protocol.name == "lattice_constant"
    assert resolution.preflight is not None and resolution.preflight.ok
    assert resolution.to_json()["parameters"]["element"]["source"] == "given"


def test_artifacts_are_confined_to_the_run_directory(api: Simwright, tmp_path: Path) -> None:
    run_id = api.submit(REQUEST).run_id
    run_dir = Path(api.get_run(run_id).workdir)
    (run_dir / "inside.txt").write_text("ok")
    outside = tmp_path / "outside.txt"
    outside.write_text("secret")
    (run_dir / "link").symlink_to(outside)
    assert api.artifact(run_id, "inside.txt").read_text() == "ok"
    for bad in ("../outside.txt", str(outside), "steps/../../x", "link", ""):
        with pytest.raises(Forbidden):
            api.artifact(run_id, bad)
    with pytest.raises(NotFound):
        api.artifact(run_id, "missing.txt")
    with pytest.raises(NotFound):
        api.status(run_id[:-1])  # a prefix is not an id here


def test_cancel_and_resume(api: Simwright) -> None:
    run_id = api.submit(REQUEST).run_id
    assert api.cancel(run_id) == "cancelled"
    assert api.get_run(run_id).status == "cancelled"
    assert api.finished(run_id)
    with pytest.raises(Conflict):
        api.cancel(run_id)
    api.resume(run_id)
    assert api.status(run_id)["queue"]["state"] == "queued"
    with pytest.raises(Conflict):
        api.resume(run_id)  # already queued
    assert api.execute(run_id).status == "completed"
    api.queue.finish(run_id, "done")
    with pytest.raises(Conflict, match="completed"):
        api.resume(run_id)


def test_store_observer_throttles_progress(store: Store) -> None:
    store.create_run("r", "p", request="", params_json="{}", workdir="/x", version="0")
    now = [0.0]
    obs = StoreObserver(store, "r", min_interval_s=1.0, clock=lambda: now[0])
    obs.step_started("r", 2, "Scan", 1)
    for t in (0.0, 0.3, 0.6, 1.2, 1.3):
        now[0] = t
        obs.step_progress(t / 2, f"at {t}")
    obs.step_progress(1.0, "done")  # the end of a step is always recorded
    obs.step_finished("r", 2, "Scan", "completed", 1.5)
    progress = [e for e in store.events("r") if e.kind == "progress"]
    assert [e.message for e in progress] == ["at 0.0", "at 1.2", "done"]
    assert json.loads(progress[0].payload_json) == {"step": "2-Scan", "fraction": 0.0}
