"""Campaigns with real LAMMPS ``fix gcmc`` on a tiny slit pore.

Completion with zero model calls, budgets in local steps under a large inherited
timestep, SIGKILL during a segment and resume, a planted stale archive, and an
invalid reviewer decision that leaves the state to a human.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from helpers.campaign import (
    GCMC,
    campaign_file,
    gcmc_engine,
    merged,
    needs_lmp,
    read,
    rows,
    runner,
    spec_of,
)
from simwright.campaign import ScriptedReviewer
from simwright.campaign.report import write_report

pytestmark = [needs_lmp, pytest.mark.slow]


def _states(home: Path) -> list[tuple]:
    return rows(
        home,
        "select system, condition, status, cycles, local_steps, abs_step_entry, abs_step "
        "from campaign_states order by id",
    )


def test_a_gcmc_campaign_completes_with_reports_and_no_model_call(tmp_path: Path) -> None:
    reviewer = ScriptedReviewer([])
    r = runner(tmp_path, gcmc_engine(), reviewer, report=write_report)
    campaign = r.create(spec_of(GCMC))
    assert r.run(campaign).status == "completed"
    assert reviewer.calls == [] and rows(tmp_path, "select model_calls from campaigns") == [(0,)]
    (_, _, s1, _, _, entry1, end1), (_, _, s2, _, _, entry2, _) = _states(tmp_path)
    assert (s1, s2) == ("archived", "archived") and entry1 == 0 and entry2 == end1
    values = [json.loads(v) for (v,) in rows(tmp_path, "select values_json from campaign_states")]
    high, low = (v["n_adsorbed"]["value"] for v in values)
    assert high > low > 0  # desorption: fewer molecules at 10 bar than at 40 bar
    first = tmp_path / "campaigns" / campaign / "states" / "slit" / "01-p40"
    script = next(first.glob("*/seg-0001/in.lammps")).read_text()
    for needed in (
        "boundary        p p f",
        "fix             walls all wall/lj93 zlo EDGE",
        "fix_modify      walls energy yes",
        "full_energy region insertion",
        "pressure 40 fugacity_coeff 1",
        "region          insertion block 0 20 0 20 2.5 7.5",
        "langevin",
    ):
        assert needed in script, needed
    model = json.loads(next(first.glob("*/seg-0001/model.json")).read_text())
    assert model["wall"] == "lj93_continuum" and "Steele" in model["wall_source"]
    report = tmp_path / "campaigns" / campaign / "report"
    states = json.loads((report / "states.json").read_text())
    assert states["states"][0]["system_parameters"]["width_a"] == 10.0
    assert (report / "trace_n_adsorbed.png").stat().st_size > 1000
    assert (report / "isotherm_n_adsorbed.png").stat().st_size > 1000
    assert "| slit | p40 | archived |" in (report / "report.md").read_text()
    assert "- slit, wall: lj93_continuum: model choice" in (report / "report.md").read_text()


def test_budgets_use_local_steps_under_a_large_inherited_timestep(tmp_path: Path) -> None:
    spec = spec_of(
        GCMC,
        systems=[
            {
                "name": "slit",
                "builder": "slit_pore",
                "parameters": {"width_a": 10.0, "lateral_a": 20.0, "start_step": 5_000_000},
            }
        ],
        continuation={"segment_steps": 500, "max_local_steps": 1500},
    )
    r = runner(tmp_path, gcmc_engine())
    campaign = r.create(spec)
    assert r.run(campaign).status == "completed"
    for _, _, status, cycles, local, entry, end in _states(tmp_path):
        assert status == "archived" and 2 <= cycles <= 3 and local <= 1500
        assert entry >= 5_000_000 and end == entry + local


def _cli(home: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "simwright.campaign", *args, "--home", str(home)]


def _kill_tree_in(directory: Path) -> None:
    """SIGKILL processes still running in ``directory`` (the orphaned LAMMPS)."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if Path(os.readlink(proc / "cwd")) == directory:
                os.kill(int(proc.name), signal.SIGKILL)
        except (OSError, ValueError):
            continue


def test_sigkill_during_a_segment_then_resume_repeats_no_segment(tmp_path: Path) -> None:
    home = tmp_path / "home"
    spec = tmp_path / "spec.yaml"
    long = {"segment_steps": 20000, "max_local_steps": 80000}
    window = {
        "n_adsorbed": {"window_steps": 40000, "cv_max": 0.6, "trend_max": 0.6, "scale_floor": 10}
    }
    spec.write_text(yaml.safe_dump(merged(GCMC, {"continuation": long, "acceptance": window})))
    proc = subprocess.Popen(
        _cli(home, "run", str(spec), "--json", "--no-report"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    second = None
    while time.monotonic() < deadline and second is None:
        second = next(home.glob("campaigns/*/states/slit/01-p40/*/seg-0002/log.lammps"), None)
        time.sleep(0.02)
    assert second is not None, "the second segment never started"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    _kill_tree_in(second.parent)
    first_restart = second.parents[1] / "seg-0001" / "final.restart"
    mtime = first_restart.stat().st_mtime_ns
    [(campaign,)] = rows(home, "select id from campaigns")
    before = rows(home, "select seq, attempt, status from campaign_segments order by id")
    assert before == [(1, 1, "completed")]
    status = subprocess.run(
        _cli(home, "status", campaign, "--json"), capture_output=True, text=True, check=True
    )
    assert json.loads(status.stdout)["status"] == "interrupted"
    resumed = subprocess.run(
        _cli(home, "resume", campaign, "--json", "--no-report"),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert resumed.returncode == 0, resumed.stderr
    out = json.loads(resumed.stdout)
    assert out["status"] == "completed"
    assert [s["status"] for s in out["states"]] == ["archived", "archived"]
    segments = rows(
        home, "select state_id, seq, attempt, status from campaign_segments order by id"
    )
    assert segments[:3] == [
        (1, 1, 1, "completed"),
        (1, 2, 1, "interrupted"),
        (1, 2, 2, "completed"),
    ]
    completed = [(s, q) for s, q, _, status in segments if status == "completed"]
    assert len(completed) == len(set(completed))  # no segment ran to completion twice
    assert first_restart.stat().st_mtime_ns == mtime
    assert (second.parents[1] / "seg-0002.attempt2" / "final.restart").is_file()
    assert rows(home, "pragma integrity_check") == [("ok",)]


def _event(home: Path) -> dict:
    [(directory,)] = rows(home, "select directory from campaign_events where status='open'")
    return read(campaign_file(home, directory) / "event.json")


def test_a_planted_stale_archive_is_refused_with_a_provenance_conflict(tmp_path: Path) -> None:
    r = runner(tmp_path, gcmc_engine())
    campaign = r.create(spec_of(GCMC))
    r.run(campaign, max_states=1)
    [(stored,)] = rows(tmp_path, "select path from campaign_archives")
    first_chain = campaign_file(tmp_path, stored, campaign)
    stale = tmp_path / "chain1.restart"
    stale.write_bytes(Path(first_chain).read_bytes())
    with Path(first_chain).open("ab") as fh:
        fh.write(b"\0")  # changed after archiving
    assert r.run(campaign).status == "needs_review"
    modified = _event(tmp_path)
    assert modified["kind"] == "PROVENANCE_CONFLICT"
    assert modified["details"]["problems"][0]["code"] == "modified"
    decision = {"event_id": modified["event_id"], "action": "rebuild", "confidence": 1.0}
    assert r.approve(campaign, modified["event_id"], decision, "carol").valid
    r.run(campaign, max_states=1)
    [(stored,)] = rows(tmp_path, "select path from campaign_archives where status='authoritative'")
    second_chain = campaign_file(tmp_path, stored, campaign)
    assert "/slit.c2/" in str(second_chain)
    Path(second_chain).write_bytes(stale.read_bytes())  # the archive of the earlier chain
    assert r.run(campaign).status == "needs_review"
    conflict = _event(tmp_path)
    assert conflict["kind"] == "PROVENANCE_CONFLICT" and conflict["condition"] == "p10"
    [problem] = conflict["details"]["problems"]
    assert problem["code"] == "stale_chain" and "slit.c1" in problem["message"]
    [(stored,)] = rows(tmp_path, "select directory from campaign_events where status='open'")
    evidence = read(campaign_file(tmp_path, stored, campaign) / "evidence.json")
    assert evidence["lineage"]["chain_id"] == "slit.c2"
    assert _states(tmp_path)[1][2] == "needs_review"


def test_an_invalid_reviewer_decision_is_rejected_and_the_state_waits(tmp_path: Path) -> None:
    def wrong(request):
        return {
            "event_id": "someone-else",
            "action": "continue",
            "confidence": 0.9,
            "parameter_changes": {"temperature_k": 500},
        }

    reviewer = ScriptedReviewer([wrong])
    never = {"n_adsorbed": {"window_steps": 1000, "cv_max": 1e-6, "trend_max": 0.6}}
    spec = spec_of(
        GCMC,
        conditions=[GCMC["conditions"][0]],
        acceptance=never,
        continuation={"segment_steps": 500, "max_local_steps": 1000},
    )
    r = runner(tmp_path, gcmc_engine(), reviewer)
    campaign = r.create(spec)
    assert r.run(campaign).status == "needs_review"
    assert len(reviewer.calls) == 1
    event = _event(tmp_path)
    assert event["kind"] == "CONVERGENCE_ANOMALY" and event["routing"]["to"] == "model"
    directory = campaign_file(
        tmp_path, rows(tmp_path, "select directory from campaign_events")[0][0]
    )
    validation = read(directory / "decision_validation.json")
    assert not validation["valid"] and validation["outcome"] == "waiting_for_human"
    assert any("does not match the event" in p for p in validation["problems"])
    assert any("outside the permitted scope" in p for p in validation["problems"])
    assert _states(tmp_path)[0][2] == "needs_review"
    assert r.run(campaign).status == "needs_review"  # nothing moves without a human
    assert len(reviewer.calls) == 1
    human = {"event_id": event["event_id"], "action": "accept", "confidence": 1.0}
    assert r.approve(campaign, event["event_id"], human, "dave").valid
    assert r.run(campaign).status == "completed"
    assert rows(tmp_path, "select model_calls from campaigns") == [(1,)]
