"""Campaign bookkeeping with the synthetic engine on a real SQLite store.

Inheritance, local-step budgets, review events, decision validation, model-call
caps and deduplication, provenance conflicts and rebuilds, the lock, the CLI.
"""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from helpers.campaign import (
    SYNTHETIC,
    FailingEngine,
    campaign_file,
    read,
    rows,
    runner,
    spec_of,
)
from simwright.campaign import (
    CampaignError,
    ScriptedReviewer,
    SyntheticEngine,
)
from simwright.campaign.lock import campaign_lock
from simwright.campaign.report import campaign_json
from simwright.cli.campaign import campaign_app

SLOW = {"segment": {"parameters": {"relaxation_steps": 1.0e6}}}
"""Relaxes so slowly that no window is ever flat: every state spends its budget."""


def _states(home: Path, campaign: str) -> list[tuple]:
    return rows(
        home,
        "select system, condition, status, cycles, local_steps, abs_step_entry, abs_step, "
        f"chain_id from campaign_states where campaign_id='{campaign}' order by id",
    )


def _open_events(home: Path, campaign: str) -> list[tuple]:
    return rows(
        home,
        "select id, kind, system, condition, duplicate_of, directory from campaign_events "
        f"where campaign_id='{campaign}' and status='open' order by created_at",
    )


def test_a_campaign_runs_to_completion_without_any_model_call(tmp_path: Path) -> None:
    reviewer = ScriptedReviewer([])  # fails loudly if it is ever asked
    r = runner(tmp_path, SyntheticEngine(), reviewer)
    campaign = r.create(spec_of(SYNTHETIC))
    out = r.run(campaign)
    assert out.status == "completed"
    assert reviewer.calls == []
    assert rows(tmp_path, "select model_calls from campaigns") == [(0,)]
    assert rows(tmp_path, "select count(*) from campaign_reviews") == [(0,)]
    states = _states(tmp_path, campaign)
    assert {s[2] for s in states} == {"archived"}
    for earlier, later in itertools.pairwise(states):
        if earlier[0] == later[0]:  # the successor starts where the accepted state ended
            assert later[5] == earlier[6]
    data = campaign_json(r.cstore, campaign)
    first = data["states"][0]
    assert set(first) >= {"system", "condition", "status", "cycles", "local_steps"}
    assert first["accepted_values"]["n_adsorbed"]["unit"] == "molecules"
    values = [s["accepted_values"]["n_adsorbed"]["value"] for s in data["states"][:3]]
    assert values == sorted(values, reverse=True)  # desorption along the path
    [event] = data["open_events"]
    assert event["kind"] == "BATCH_COMPLETE"
    assert read(Path(event["directory"]) / "event.json")["routing"]["to"] == "human"


def test_archives_carry_hashes_and_lineage(tmp_path: Path) -> None:
    r = runner(tmp_path, SyntheticEngine())
    campaign = r.create(spec_of(SYNTHETIC))
    r.run(campaign)
    archives = rows(
        tmp_path,
        "select id, system, condition, chain_id, path, sha256, restart_of, derived_from "
        "from campaign_archives order by id",
    )
    assert [a[7] for a in archives[:3]] == [None, archives[0][0], archives[1][0]]
    for _, system, condition, chain, path, sha, restart_of, _ in archives:
        lineage = read(campaign_file(tmp_path, path + ".lineage.json", campaign))
        assert (lineage["system"], lineage["condition"], lineage["chain_id"]) == (
            system,
            condition,
            chain,
        )
        assert lineage["sha256"] == sha and lineage["restart_of"]["segment_id"] == restart_of
        [(segment_sha,)] = rows(
            tmp_path, f"select restart_sha256 from campaign_segments where id={restart_of}"
        )
        assert segment_sha == sha


def test_budgets_count_local_steps_not_the_inherited_absolute_timestep(tmp_path: Path) -> None:
    spec = spec_of(
        SYNTHETIC,
        systems=[{"name": "old", "parameters": {"capacity": 80.0, "start_step": 10_000_000}}],
        continuation={"segment_steps": 1000, "max_local_steps": 6000},
    )
    r = runner(tmp_path, SyntheticEngine())
    campaign = r.create(spec)
    assert r.run(campaign).status == "completed"
    for _, _, status, _, local, entry, final, _ in _states(tmp_path, campaign):
        assert status == "archived" and 2000 <= local <= 6000
        assert entry >= 10_000_000 and final == entry + local
    windows = rows(tmp_path, "select analysis_json from campaign_segments where decision='accept'")
    for (analysis,) in windows:
        start, end = json.loads(analysis)["windows"]["n_adsorbed"]["window_local_steps"]
        assert end <= 6000 and end - start <= 2000  # the window is in local steps


def test_a_model_extends_a_spent_budget_once_and_the_repeat_waits_for_a_human(
    tmp_path: Path,
) -> None:
    def extend(request):
        assert request.allowed_actions == ("accept", "continue", "stop")
        assert request.evidence["state"]["local_steps"] == 3000
        return {
            "event_id": request.event["event_id"],
            "action": "continue",
            "confidence": 0.8,
            "parameter_changes": {"segment_steps": 500},
            "rationale": "still relaxing",
        }

    reviewer = ScriptedReviewer([extend])
    spec = spec_of(
        SYNTHETIC,
        systems=[{"name": "a"}],
        conditions=[{"name": "p50", "pressure_bar": 50.0}],
        continuation={"segment_steps": 1000, "max_local_steps": 3000},
        review={"extension_steps": 1000},
        **SLOW,
    )
    r = runner(tmp_path, SyntheticEngine(), reviewer)
    campaign = r.create(spec)
    assert r.run(campaign).status == "needs_review"
    assert len(reviewer.calls) == 1
    steps = [s for (s,) in rows(tmp_path, "select steps from campaign_segments order by id")]
    assert steps == [1000, 1000, 1000, 500, 500]  # next segment 500, budget +1000
    first, repeat = rows(
        tmp_path, "select id, status, duplicate_of, directory from campaign_events order by id"
    )
    assert first[1] == "resolved" and repeat[1] == "open" and repeat[2] == first[0]
    validation = read(campaign_file(tmp_path, first[3], campaign) / "decision_validation.json")
    assert validation["valid"] and validation["outcome"].startswith("applied")
    routing = read(campaign_file(tmp_path, repeat[3], campaign) / "event.json")["routing"]
    assert routing["to"] == "human" and "same fingerprint" in routing["why"]
    assert rows(tmp_path, "select model_calls from campaigns") == [(1,)]


def test_an_invalid_model_decision_waits_for_a_human_who_can_approve(tmp_path: Path) -> None:
    reviewer = ScriptedReviewer(
        [lambda req: {"event_id": req.event["event_id"], "action": "accept", "confidence": 1.7}]
    )
    spec = spec_of(
        SYNTHETIC,
        systems=[{"name": "a"}],
        continuation={"segment_steps": 1000, "max_local_steps": 2000},
        **SLOW,
    )
    r = runner(tmp_path, SyntheticEngine(), reviewer)
    campaign = r.create(spec)
    assert r.run(campaign).status == "needs_review"
    [(event_id, kind, _, _, _, directory)] = _open_events(tmp_path, campaign)
    assert kind == "CONVERGENCE_ANOMALY"
    validation = read(campaign_file(tmp_path, directory, campaign) / "decision_validation.json")
    assert not validation["valid"] and validation["outcome"] == "waiting_for_human"
    assert validation["problems"] == ["confidence 1.7 is not in [0, 1]"]
    assert _states(tmp_path, campaign)[0][2] == "needs_review"
    human = {"event_id": event_id, "action": "accept", "confidence": 1.0, "rationale": "ok"}
    assert r.approve(campaign, "1", human, "alice").valid
    assert _states(tmp_path, campaign)[0][2] == "accepted"
    earlier = read(campaign_file(tmp_path, directory, campaign) / "decision_validation.1.json")
    assert earlier["reviewer_kind"] == "model" and not earlier["valid"]
    reviewer_kinds = rows(tmp_path, "select reviewer_kind, valid from campaign_reviews")
    assert reviewer_kinds == [("model", 0), ("human", 1)]


def test_model_calls_are_capped_per_campaign(tmp_path: Path) -> None:
    reviewer = ScriptedReviewer(
        [lambda req: {"event_id": req.event["event_id"], "action": "stop", "confidence": 0.9}]
    )
    spec = spec_of(
        SYNTHETIC,
        conditions=[{"name": "p50", "pressure_bar": 50.0}],
        continuation={"segment_steps": 1000, "max_local_steps": 2000},
        model_calls={"per_system_event": 1, "per_campaign": 1},
        **SLOW,
    )
    r = runner(tmp_path, SyntheticEngine(), reviewer)
    campaign = r.create(spec)
    r.run(campaign)
    assert len(reviewer.calls) == 1
    [(_, _, system, _, duplicate, directory)] = _open_events(tmp_path, campaign)
    assert system == "b" and duplicate is None  # another system: not a duplicate
    assert (
        "cap of 1 model calls per campaign"
        in read(campaign_file(tmp_path, directory, campaign) / "event.json")["routing"]["why"]
    )


def test_model_calls_are_capped_per_system_and_event_kind(tmp_path: Path) -> None:
    reviewer = ScriptedReviewer(
        [lambda req: {"event_id": req.event["event_id"], "action": "accept", "confidence": 0.9}]
    )
    engine = FailingEngine(nan=lambda req, seq: req.condition.name == "p10")
    spec = spec_of(
        SYNTHETIC,
        systems=[{"name": "a"}],
        conditions=[{"name": "p50", "pressure_bar": 50.0}, {"name": "p10", "pressure_bar": 10.0}],
        continuation={"segment_steps": 1000, "max_local_steps": 2000},
        **SLOW,
    )
    r = runner(tmp_path, engine, reviewer)
    campaign = r.create(spec)
    assert r.run(campaign).status == "needs_review"
    assert len(reviewer.calls) == 1  # the budget event of p50, accepted by the model
    states = _states(tmp_path, campaign)
    assert [s[2] for s in states] == ["archived", "needs_review"]
    [(_, kind, _, condition, duplicate, directory)] = _open_events(tmp_path, campaign)
    assert (kind, condition, duplicate) == ("CONVERGENCE_ANOMALY", "p10", None)
    why = read(campaign_file(tmp_path, directory, campaign) / "event.json")["routing"]["why"]
    assert "cap of 1 model call(s) for a/CONVERGENCE_ANOMALY reached" in why


def test_engine_failures_retry_then_one_failure_event_and_no_self_escalation(
    tmp_path: Path,
) -> None:
    engine = FailingEngine(
        fail=lambda req, seq: (
            "ERROR: lost atoms at step 4711" if req.system.name == "a" and seq == 2 else None
        )
    )
    reviewer = ScriptedReviewer(
        [lambda req: {"event_id": req.event["event_id"], "action": "retry", "confidence": 0.9}]
    )
    r = runner(tmp_path, engine, reviewer)
    campaign = r.create(spec_of(SYNTHETIC))
    assert r.run(campaign).status == "needs_review"
    assert len(reviewer.calls) == 1  # the retry failed the same way: a duplicate, for a human
    attempts = rows(
        tmp_path,
        "select s.seq, s.attempt, s.status from campaign_segments s join campaign_states t "
        "on s.state_id = t.id where t.system='a' and s.seq=2 order by s.id",
    )
    assert attempts == [(2, i, "failed") for i in (1, 2, 3, 4)]
    events = rows(tmp_path, "select kind, status, duplicate_of from campaign_events order by id")
    assert [e[:2] for e in events] == [("UNKNOWN_FAILURE", "resolved"), ("UNKNOWN_FAILURE", "open")]
    b_states = [s[2] for s in _states(tmp_path, campaign) if s[0] == "b"]
    assert b_states == ["archived"] * 3  # the other system is not held up
    [(_, _, _, _, _, directory)] = _open_events(tmp_path, campaign)
    evidence = read(campaign_file(tmp_path, directory, campaign) / "evidence.json")
    assert evidence["error_signature"].startswith("EngineError: ERROR: lost atoms at step #")
    assert [s["status"] for s in evidence["recent_segments"]][-2:] == ["failed", "failed"]
    assert set(evidence) >= {"state", "stop_reason", "analysis", "lineage", "recent_samples"}


def test_a_nan_is_a_convergence_anomaly(tmp_path: Path) -> None:
    engine = FailingEngine(nan=lambda req, seq: seq == 1)
    r = runner(tmp_path, engine)
    spec = spec_of(
        SYNTHETIC, systems=[{"name": "a"}], conditions=[{"name": "p5", "pressure_bar": 5.0}]
    )
    campaign = r.create(spec)
    assert r.run(campaign).status == "needs_review"
    [(_, kind, *_rest)] = _open_events(tmp_path, campaign)
    assert kind == "CONVERGENCE_ANOMALY"
    [(rule,)] = rows(tmp_path, "select rule from campaign_segments")
    assert rule == "anomaly"


def _half_way(tmp_path: Path) -> tuple:
    r = runner(tmp_path, SyntheticEngine())
    campaign = r.create(spec_of(SYNTHETIC))
    r.run(campaign, max_states=1)
    [(path,)] = rows(tmp_path, f"select path from campaign_archives where campaign_id='{campaign}'")
    return r, campaign, campaign_file(tmp_path, path, campaign)


def _conflict(tmp_path: Path, r, campaign: str) -> dict:
    assert r.run(campaign).status == "needs_review"
    [(_, kind, system, condition, _, directory)] = _open_events(tmp_path, campaign)
    assert (kind, system, condition) == ("PROVENANCE_CONFLICT", "a", "p10")
    return read(campaign_file(tmp_path, directory, campaign) / "event.json")


def test_a_restart_of_another_system_or_not_accepted_or_modified_is_refused(
    tmp_path: Path,
) -> None:
    other = runner(tmp_path, SyntheticEngine())
    done = other.create(spec_of(SYNTHETIC))
    other.run(done)
    [(stored,)] = rows(tmp_path, "select path from campaign_archives where system='b' limit 1")
    foreign = campaign_file(tmp_path, stored, done)
    plantings = {
        "other_system": lambda target, seg: shutil.copyfile(foreign, target),
        "not_accepted": lambda target, seg: shutil.copyfile(seg, target),
        "modified": lambda target, seg: target.write_text(target.read_text() + " "),
    }
    for code, plant in plantings.items():
        r, campaign, archive = _half_way(tmp_path)
        states = tmp_path / "campaigns" / campaign / "states" / "a"
        first = next(states.glob("01-p50/*/seg-0001"))
        plant(archive, next(first.glob("*.json")))
        event = _conflict(tmp_path, r, campaign)
        assert [p["code"] for p in event["details"]["problems"]] == [code], code
        assert event["routing"]["to"] == "human"


def test_a_rebuild_starts_a_new_chain_and_a_stale_archive_is_refused(tmp_path: Path) -> None:
    r, campaign, archive = _half_way(tmp_path)
    stale = tmp_path / "stale-copy.json"
    shutil.copyfile(archive, stale)
    archive.write_text(archive.read_text() + " ")  # changed after archiving
    event = _conflict(tmp_path, r, campaign)
    model = {"event_id": event["event_id"], "action": "rebuild", "confidence": 1.0}
    assert r.approve(campaign, event["event_id"], model, "bob").valid
    states = _states(tmp_path, campaign)
    assert [(s[0], s[1], s[2], s[7]) for s in states[:2]] == [
        ("a", "p50", "pending", "a.c2"),
        ("a", "p10", "pending", "a.c2"),
    ]
    assert rows(tmp_path, "select status from campaign_archives where system='a'") == [
        ("superseded",)
    ]
    r.run(campaign, max_states=1)
    [(new_path,)] = rows(tmp_path, "select path from campaign_archives where chain_id='a.c2'")
    assert "/a.c2/" in new_path
    shutil.copyfile(
        stale, campaign_file(tmp_path, new_path, campaign)
    )  # plant the archive of the earlier chain
    stale_event = _conflict(tmp_path, r, campaign)
    [problem] = stale_event["details"]["problems"]
    assert problem["code"] == "stale_chain" and "chain a.c1, superseded" in problem["message"]


def test_two_processes_never_advance_one_campaign(tmp_path: Path) -> None:
    r = runner(tmp_path, SyntheticEngine())
    campaign = r.create(spec_of(SYNTHETIC))
    with (
        campaign_lock(tmp_path / "campaigns" / campaign),
        pytest.raises(CampaignError, match="being advanced by another process"),
    ):
        r.run(campaign)
    assert r.run(campaign).status == "completed"


def test_cli_run_status_review_and_approve(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(SYNTHETIC))
    cli = CliRunner()
    env = {"SIMWRIGHT_HOME": str(tmp_path / "home")}

    def call(*args: str) -> tuple[int, dict]:
        result = cli.invoke(campaign_app, [*args, "--json"], env=env)
        return result.exit_code, json.loads(result.stdout)

    code, ran = call("run", str(spec), "--no-report")
    assert code == 0 and ran["status"] == "completed" and len(ran["states"]) == 6
    state = ran["states"][0]
    assert {"system", "condition", "status", "cycles", "local_steps", "accepted_values"} <= set(
        state
    )
    code, status = call("status", ran["campaign_id"][:12])
    assert code == 0 and status["states"] == ran["states"]
    code, review = call("review", ran["campaign_id"])
    assert [e["kind"] for e in review["open_events"]] == ["BATCH_COMPLETE"]
    code, shown = call("review", ran["campaign_id"], "1")
    assert shown["event"]["kind"] == "BATCH_COMPLETE" and shown["evidence"]["state"] is None
    code, refused = call("approve", ran["campaign_id"], "1", "--action", "continue")
    assert code == 2 and "not allowed for BATCH_COMPLETE" in refused["problems"][0]
    code, done = call("approve", ran["campaign_id"], "1", "--action", "acknowledge")
    assert code == 0 and done["valid"]
    code, review = call("review", ran["campaign_id"])
    assert review["open_events"] == []
