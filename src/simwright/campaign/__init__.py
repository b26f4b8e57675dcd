"""Campaigns: many systems × an ordered path of conditions, run by rules.

Each (system, condition) state advances by segmented run -> analyze -> decide
cycles until its acceptance rules say it is converged; the next condition starts
from the archived, hash-checked restart of the accepted predecessor. A language
model is never needed for routine production: it is asked only on review events,
through the injected :class:`Reviewer`, and its decision is validated first.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simwright.campaign.acceptance import (
        Accept,
        Analysis,
        Continue,
        Escalate,
        StateSeries,
        Stop,
        Verdict,
        WindowResult,
        analyze,
        decide,
    )
    from simwright.campaign.archive import ProvenanceConflict, ProvenanceProblem
    from simwright.campaign.engine import (
        FreshStart,
        FromRestart,
        SegmentEngine,
        SegmentOutput,
        SegmentRequest,
    )
    from simwright.campaign.repository import CampaignStore
    from simwright.campaign.review import (
        DecisionValidation,
        ReviewDecision,
        Reviewer,
        ReviewRequest,
        validate_decision,
    )
    from simwright.campaign.reviewers import ScriptedReviewer, ScriptExhaustedError
    from simwright.campaign.runner import CampaignOutcome, CampaignRunner
    from simwright.campaign.spec import CampaignSpec
    from simwright.campaign.spec_load import CampaignSpecError, SpecProblem, load_spec, parse_spec
    from simwright.campaign.status import (
        CampaignError,
        EventKind,
        ReviewAction,
        StateStatus,
    )
    from simwright.campaign.synthetic import SyntheticEngine
    from simwright.campaign.wiring import CampaignContext, CampaignObserver, NullObserver

_EXPORTS = {
    "Accept": "simwright.campaign.acceptance",
    "Analysis": "simwright.campaign.acceptance",
    "CampaignContext": "simwright.campaign.wiring",
    "CampaignError": "simwright.campaign.status",
    "CampaignObserver": "simwright.campaign.wiring",
    "CampaignOutcome": "simwright.campaign.runner",
    "CampaignRunner": "simwright.campaign.runner",
    "CampaignSpec": "simwright.campaign.spec",
    "CampaignSpecError": "simwright.campaign.spec_load",
    "CampaignStore": "simwright.campaign.repository",
    "Continue": "simwright.campaign.acceptance",
    "DecisionValidation": "simwright.campaign.review",
    "Escalate": "simwright.campaign.acceptance",
    "EventKind": "simwright.campaign.status",
    "FreshStart": "simwright.campaign.engine",
    "FromRestart": "simwright.campaign.engine",
    "NullObserver": "simwright.campaign.wiring",
    "ProvenanceConflict": "simwright.campaign.archive",
    "ProvenanceProblem": "simwright.campaign.archive",
    "ReviewAction": "simwright.campaign.status",
    "ReviewDecision": "simwright.campaign.review",
    "ReviewRequest": "simwright.campaign.review",
    "Reviewer": "simwright.campaign.review",
    "ScriptExhaustedError": "simwright.campaign.reviewers",
    "ScriptedReviewer": "simwright.campaign.reviewers",
    "SegmentEngine": "simwright.campaign.engine",
    "SegmentOutput": "simwright.campaign.engine",
    "SegmentRequest": "simwright.campaign.engine",
    "SpecProblem": "simwright.campaign.spec_load",
    "StateSeries": "simwright.campaign.acceptance",
    "StateStatus": "simwright.campaign.status",
    "Stop": "simwright.campaign.acceptance",
    "SyntheticEngine": "simwright.campaign.synthetic",
    "Verdict": "simwright.campaign.acceptance",
    "WindowResult": "simwright.campaign.acceptance",
    "analyze": "simwright.campaign.acceptance",
    "decide": "simwright.campaign.acceptance",
    "load_spec": "simwright.campaign.spec_load",
    "parse_spec": "simwright.campaign.spec_load",
    "validate_decision": "simwright.campaign.review",
}
"""Public names and the module each lives in (imported on first use)."""


def __getattr__(name: str) -> Any:
    """Import a public name from its module on first use (keeps ``import`` cheap)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "Accept",
    "Analysis",
    "CampaignContext",
    "CampaignError",
    "CampaignObserver",
    "CampaignOutcome",
    "CampaignRunner",
    "CampaignSpec",
    "CampaignSpecError",
    "CampaignStore",
    "Continue",
    "DecisionValidation",
    "Escalate",
    "EventKind",
    "FreshStart",
    "FromRestart",
    "NullObserver",
    "ProvenanceConflict",
    "ProvenanceProblem",
    "ReviewAction",
    "ReviewDecision",
    "ReviewRequest",
    "Reviewer",
    "ScriptExhaustedError",
    "ScriptedReviewer",
    "SegmentEngine",
    "SegmentOutput",
    "SegmentRequest",
    "SpecProblem",
    "StateSeries",
    "StateStatus",
    "Stop",
    "SyntheticEngine",
    "Verdict",
    "WindowResult",
    "analyze",
    "decide",
    "load_spec",
    "parse_spec",
    "validate_decision",
]
