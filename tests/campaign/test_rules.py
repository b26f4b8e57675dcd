"""Acceptance rules, the state machine, fingerprints and the validation of review decisions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from helpers.campaign import SYNTHETIC, spec_of
from simwright.campaign import (
    Accept,
    CampaignError,
    Continue,
    Escalate,
    EventKind,
    StateSeries,
    Stop,
    analyze,
    decide,
    validate_decision,
)
from simwright.campaign.acceptance import find_anomalies, path_check
from simwright.campaign.events import fingerprint
from simwright.campaign.status import StateStatus, check_transition

RULE = {"window_steps": 2000, "cv_max": 0.05, "trend_max": 0.05, "scale_floor": 5}


def series(values: np.ndarray, every: int = 50) -> StateSeries:
    steps = np.arange(1, values.size + 1) * every
    return StateSeries(steps, {"n_adsorbed": values, "temperature": np.full(values.size, 300.0)})


def verdict(values: np.ndarray, budget: int = 20000, **changes):
    spec = spec_of(SYNTHETIC, **changes)
    s = series(values)
    local = int(s.local_steps[-1])
    anomalies = find_anomalies(spec, s.local_steps, dict(s.values))
    return decide(spec, analyze(spec, s, local, anomalies), budget)


def test_a_flat_noisy_window_is_accepted_with_mean_and_temporal_std() -> None:
    rng = np.random.default_rng(1)
    v = verdict(50 + rng.normal(0, 0.5, 80))
    assert isinstance(v, Accept) and v.rule == "accept_cv_and_trend"
    value = v.values["n_adsorbed"]
    assert value["value"] == pytest.approx(50, abs=0.3)
    assert value["std"] == pytest.approx(0.5, rel=0.3) and value["unit"] == "molecules"
    assert value["window_local_steps"] == [2000, 4000]


def test_a_slowly_draining_state_with_small_scatter_is_not_accepted() -> None:
    draining = np.linspace(52, 48, 80)  # cv < 0.05 but drifts 4 % over the window
    v = verdict(draining, acceptance={"n_adsorbed": {**RULE, "trend_max": 0.02}})
    assert isinstance(v, Continue) and v.rule == "not_converged" and "fails trend" in v.reason


def test_a_window_not_yet_filled_continues() -> None:
    v = verdict(np.full(30, 50.0))  # 1500 local steps < 2000
    assert isinstance(v, Continue) and v.rule == "window_not_filled"


def test_an_almost_empty_pore_is_judged_against_the_scale_floor() -> None:
    rng = np.random.default_rng(2)
    empty = np.abs(rng.normal(0.1, 0.1, 80))
    assert isinstance(verdict(empty), Accept)  # std 0.1 against a floor of 5
    no_floor = {"n_adsorbed": {**RULE, "scale_floor": 0}}
    assert isinstance(verdict(empty, acceptance=no_floor), Continue)


def test_budget_is_escalated_or_failed_by_the_trigger() -> None:
    drifting = np.linspace(10, 60, 80)
    v = verdict(drifting, budget=4000)
    assert isinstance(v, Escalate) and v.kind is EventKind.CONVERGENCE_ANOMALY
    assert v.rule == "budget_exhausted" and v.signature == "budget_exhausted|n_adsorbed"
    off = {"triggers": {"budget_exhausted": False}}
    assert isinstance(verdict(drifting, budget=4000, review=off), Stop)


def test_non_finite_and_out_of_bounds_values_are_anomalies() -> None:
    values = np.full(80, 50.0)
    values[-1] = math.nan
    v = verdict(values)
    assert isinstance(v, Escalate) and v.rule == "anomaly"
    assert v.signature == "anomaly|n_adsorbed:non_finite"
    bounded = {"triggers": {"bounds": {"n_adsorbed": {"max": 40}}}}
    v = verdict(np.full(80, 50.0), review=bounded)
    assert isinstance(v, Escalate) and "above max 40" in v.reason


def test_path_check_flags_only_gross_moves_against_the_direction() -> None:
    spec = spec_of(SYNTHETIC)
    trigger = spec.review.triggers.monotonic
    prev = {"n_adsorbed": {"value": 30.0, "std": 1.0}}
    assert path_check(trigger, prev, {"n_adsorbed": {"value": 20.0, "std": 1.0}}) is None
    assert path_check(trigger, prev, {"n_adsorbed": {"value": 33.0, "std": 1.0}}) is None
    flagged = path_check(trigger, prev, {"n_adsorbed": {"value": 40.0, "std": 1.0}})
    assert flagged is not None and flagged.kind is EventKind.NEEDS_REASONING


def test_the_transition_table_refuses_shortcuts() -> None:
    assert check_transition("running", "analyzing") is StateStatus.ANALYZING
    assert check_transition("running", "running") is StateStatus.RUNNING  # resumed
    with pytest.raises(CampaignError, match="illegal state transition running -> accepted"):
        check_transition("running", "accepted")
    with pytest.raises(CampaignError, match="terminal"):
        check_transition("failed", "running")


def test_fingerprints_ignore_numbers_and_paths_but_not_the_system() -> None:
    a = fingerprint("UNKNOWN_FAILURE", "s", "ERROR: lost atoms at step 1200 (in /x/y/seg-0003)")
    b = fingerprint("UNKNOWN_FAILURE", "s", "ERROR: lost atoms at step 900 (in /x/z/seg-0007)")
    c = fingerprint("UNKNOWN_FAILURE", "t", "ERROR: lost atoms at step 900 (in /x/z/seg-0007)")
    assert a == b != c


def check(raw, kind=EventKind.CONVERGENCE_ANOMALY, who="model"):
    spec = spec_of(SYNTHETIC, review={"min_confidence": 0.6, "segment_steps_range": [500, 4000]})
    return validate_decision(
        raw, event_id="c-e0001", kind=kind, spec=spec, reviewer="r", reviewer_kind=who
    )


GOOD = {"event_id": "c-e0001", "action": "continue", "confidence": 0.9}


def test_a_valid_decision_passes_validation() -> None:
    decision, report = check({**GOOD, "parameter_changes": {"segment_steps": 2000}})
    assert decision is not None and report.valid and report.problems == ()
    decision, report = check('{"event_id": "c-e0001", "action": "stop", "confidence": 0.7}')
    assert decision is not None and decision.action == "stop"


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        (None, "no decision was returned"),
        ("not json", "not valid JSON"),
        ({**GOOD, "event_id": "c-e0002"}, "does not match the event"),
        ({**GOOD, "action": "delete_everything"}, "not allowed for CONVERGENCE_ANOMALY"),
        ({**GOOD, "confidence": 1.5}, "confidence 1.5 is not in [0, 1]"),
        ({**GOOD, "confidence": math.nan}, "is not in [0, 1]"),
        ({**GOOD, "confidence": 0.3}, "below the minimum 0.6"),
        ({**GOOD, "parameter_changes": {"cv_max": 1.0}}, "outside the permitted scope"),
        ({**GOOD, "parameter_changes": {"segment_steps": 99999}}, "must be an integer in [500"),
        (
            {**GOOD, "action": "accept", "parameter_changes": {"segment_steps": 1000}},
            "takes no parameter change",
        ),
        ({**GOOD, "extra": 1}, "Extra inputs are not permitted"),
    ],
)
def test_invalid_decisions_are_refused_with_a_reason(raw, problem: str) -> None:
    decision, report = check(raw)
    assert decision is None and not report.valid
    assert report.outcome == "waiting_for_human"
    assert any(problem in p for p in report.problems), report.problems


def test_rebuild_is_for_humans_only() -> None:
    raw = {**GOOD, "action": "rebuild"}
    _, model = check(raw, EventKind.PROVENANCE_CONFLICT, "model")
    assert not model.valid and "only a human may" in model.problems[0]
    _, human = check(raw, EventKind.PROVENANCE_CONFLICT, "human")
    assert human.valid
