"""The plan of a campaign before it runs: its states in order and their step budgets."""

from __future__ import annotations

import math
from typing import Any

from simwright.campaign.spec import CampaignSpec


def plan(spec: CampaignSpec, engine: object | None = None) -> dict[str, Any]:
    """States in execution order with the local steps and segments each may take.

    When ``engine`` has an ``estimate_cost(spec)`` method its estimate (core-hours
    and disk, fewest and most segments) is included as ``cost``.
    """
    cont = spec.continuation
    window = spec.max_window_steps
    fewest = math.ceil(window / cont.segment_steps)
    most = math.ceil(cont.max_local_steps / cont.segment_steps)
    states = [
        {
            "order": i * len(spec.conditions) + j + 1,
            "system": system.name,
            "condition": condition.name,
            "condition_variables": condition.variables(),
            "starts_from": "fresh build" if j == 0 else f"archive of {spec.conditions[j - 1].name}",
            "segment_steps": cont.segment_steps,
            "min_segments": fewest,
            "max_segments": most,
            "max_local_steps": cont.max_local_steps,
        }
        for i, system in enumerate(spec.systems)
        for j, condition in enumerate(spec.conditions)
    ]
    estimate = getattr(engine, "estimate_cost", None)
    return {
        "cost": estimate(spec) if callable(estimate) else None,
        "name": spec.name,
        "objective": spec.objective,
        "engine": spec.segment.engine,
        "states": states,
        "acceptance": {n: r.model_dump() for n, r in spec.acceptance.items()},
        "totals": {
            "states": len(states),
            "min_local_steps": len(states) * fewest * cont.segment_steps,
            "max_local_steps": len(states) * cont.max_local_steps,
        },
        "review": {
            "reviewer_events": [str(k) for k in spec.review.reviewer_events],
            "model_calls_per_campaign": spec.model_calls.per_campaign,
            "model_calls_per_system_event": spec.model_calls.per_system_event,
        },
    }
