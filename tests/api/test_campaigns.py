"""The campaign API in-process, on a real SQLite store with the synthetic segment engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from helpers.campaign import ESCALATING, SYNTHETIC, merged
from simwright.api import Campaigns, Conflict, NotFound
from simwright.campaign import CampaignSpecError
from simwright.settings import Settings
from simwright.store import Store


@pytest.fixture
def campaigns(settings: Settings, store: Store) -> Campaigns:
    return Campaigns(settings, store)


def test_a_refused_spec_names_every_problem_and_creates_nothing(campaigns: Campaigns) -> None:
    bad = merged(SYNTHETIC, {"segment": {"engine": "no_such_engine"}})
    with pytest.raises(CampaignSpecError, match="unknown engine 'no_such_engine'"):
        campaigns.create(bad, who="alice")
    bad = merged(
        SYNTHETIC,
        {"acceptance": {"loading": {"window_steps": 10, "cv_max": 0.1, "trend_max": 0.1}}},
    )
    with pytest.raises(CampaignSpecError, match="no observable named 'loading'"):
        campaigns.create(yaml.safe_dump(bad), who="alice")
    with pytest.raises(CampaignSpecError, match="must be a mapping"):
        campaigns.create("- just\n- a list\n", who="alice")
    assert campaigns.recent() == []


def test_grid_trace_review_and_an_approval_recorded_with_who(campaigns: Campaigns) -> None:
    campaign_id = campaigns.create(yaml.safe_dump(ESCALATING), who="alice")
    assert campaigns.run(campaign_id, who="alice", report=False).status == "needs_review"

    grid = campaigns.grid(campaign_id).to_json()
    assert grid["systems"] == ["a"] and grid["conditions"] == ["p50"]
    [[cell]] = grid["rows"]
    assert (cell["status"], cell["label"]) == ("needs_review", "needs review")
    assert cell["local_steps"] == 2000 and cell["accepted_values"] == {}

    trace = campaigns.trace(campaign_id, "a", "p50")
    assert [s["seq"] for s in trace["segments"]] == [1, 2]
    assert trace["segments"][-1]["rule"] == "budget_exhausted"
    steps = trace["samples"]["local_steps"]
    assert steps == sorted(steps) and steps[-1] == 2000
    assert len(trace["samples"]["values"]["n_adsorbed"]) == len(steps)

    [event] = campaigns.reviews(campaign_id)
    assert event["kind"] == "CONVERGENCE_ANOMALY" and event["number"] == 1
    assert event["allowed_actions"] == ["accept", "continue", "stop"]
    assert event["evidence"]["state"]["local_steps"] == 2000
    assert event["event"]["routing"]["to"] == "human"

    validation = campaigns.approve(campaign_id, "1", who="alice", rationale="slow but fine")
    assert validation.valid and validation.outcome.startswith("applied")
    assert campaigns.reviews(campaign_id) == []
    [decision] = campaigns.history(campaign_id)
    assert (decision["reviewer"], decision["reviewer_kind"], decision["action"]) == (
        "alice",
        "human",
        "accept",
    )
    assert decision["rationale"] == "slow but fine"
    with pytest.raises(Conflict, match="not open"):
        campaigns.reject(campaign_id, "1", who="bob")

    assert campaigns.run(campaign_id, who="alice", report=False).status == "completed"
    [[cell]] = campaigns.grid(campaign_id).to_json()["rows"]
    assert cell["status"] == "archived" and "n_adsorbed" in cell["accepted_values"]
    trail = [(a["who"], a["action"]) for a in campaigns.actions(campaign_id)]
    assert trail == [("alice", "create"), ("alice", "run"), ("alice", "decide"), ("alice", "run")]
    status = campaigns.status(campaign_id)
    assert status["grid"]["rows"][0][0]["status"] == "archived"
    assert [e["kind"] for e in status["open_events"]] == ["BATCH_COMPLETE"]


def test_decisions_are_validated_like_the_command_line(campaigns: Campaigns) -> None:
    campaign_id = campaigns.create(ESCALATING, who="alice")
    campaigns.run(campaign_id, who="alice", report=False)
    refused = campaigns.decide(campaign_id, "1", "retry", who="bob")
    assert not refused.valid
    assert "action 'retry' is not allowed for CONVERGENCE_ANOMALY" in refused.problems[0]
    too_long = campaigns.decide(campaign_id, "1", "continue", who="bob", segment_steps=10**9)
    assert not too_long.valid and "segment_steps" in " ".join(too_long.problems)
    assert campaigns.reviews(campaign_id)[0]["status"] == "open"  # nothing applied
    recorded = [(d["reviewer"], d["valid"]) for d in campaigns.history(campaign_id)]
    assert recorded == [("bob", False), ("bob", False)]

    chosen = campaigns.decide(campaign_id, "1", "continue", who="carol", segment_steps=500)
    assert chosen.valid
    assert campaigns.state(campaign_id, "a", "p50").next_segment_steps == 500

    with pytest.raises(NotFound):
        campaigns.review(campaign_id, "e0042")
    with pytest.raises(NotFound):
        campaigns.status("no-such-campaign")
    with pytest.raises(NotFound):
        campaigns.trace(campaign_id, "a", "p999")


def test_reject_stops_the_state(campaigns: Campaigns) -> None:
    campaign_id = campaigns.create(ESCALATING, who="alice")
    campaigns.run(campaign_id, who="alice", report=False)
    validation = campaigns.reject(campaign_id, "e0001", who="dave", rationale="wrong model")
    assert validation.valid
    assert campaigns.grid(campaign_id).to_json()["rows"][0][0]["status"] == "failed"
    directory = Path(campaigns.campaign(campaign_id).workdir)
    lines = (directory / "actions.jsonl").read_text().splitlines()
    assert json.loads(lines[-1])["who"] == "dave"
